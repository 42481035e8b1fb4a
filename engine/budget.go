package engine

import (
	"context"
	"fmt"
)

// Every resolution ends. A loop whose length depends on dice or orders
// (combat rounds, searches, retreats, draws) counts its steps against the
// resolution's Budget with Step, and every die rolled counts as a step too;
// a resolution that spends its budget, whose context is done, or that asks
// a manual die not in hand stops there. It stops by a panic that carries a
// *Halt: the rulesets let it go by (their own recovers re-panic what is
// not theirs), and Resolve, or a ruleset's Resolve through Halted, turns
// it into the resolution's error. Nothing the stopped resolution did is
// kept.

// MaxSteps is the step budget of a resolution: far above any real phase
// (the busiest phase of the rulesets' full games takes a few thousand),
// low enough that what a runaway resolution builds stays in memory.
const MaxSteps = 200_000

// Budget counts the steps of one resolution against its limit, and checks
// its context at each step.
type Budget struct {
	ctx   context.Context
	limit int
	used  int
	game  string
	phase string
}

// NewBudget returns a budget of limit steps (MaxSteps if limit <= 0) for
// the resolution of phase of game, which stops when ctx is done.
func NewBudget(ctx context.Context, limit int, game, phase string) *Budget {
	if limit <= 0 {
		limit = MaxSteps
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return &Budget{ctx: ctx, limit: limit, game: game, phase: phase}
}

// Step counts one step of loop (what a person would call it: "battle
// rounds in Skagerrak"). It stops the resolution (see Halt) when the
// budget is spent or the context done.
func (b *Budget) Step(loop string) {
	b.used++
	if b.used > b.limit {
		panic(&Halt{Err: &OverBudget{Game: b.game, Phase: b.phase, Loop: loop, Steps: b.limit}})
	}
	if err := b.ctx.Err(); err != nil {
		panic(&Halt{Err: &Stopped{Game: b.game, Phase: b.phase, Err: context.Cause(b.ctx)}})
	}
}

// Used is how many steps were taken.
func (b *Budget) Used() int { return b.used }

// Halt is the panic value of a resolution that cannot go on; Err says why
// (*DieMissing, *OverBudget or *Stopped).
type Halt struct{ Err error }

// OverBudget is the error of a resolution that spent its step budget.
type OverBudget struct {
	Game, Phase, Loop string
	Steps             int
}

func (e *OverBudget) Error() string {
	return fmt.Sprintf("engine: game %s, phase %s: the resolution took more than %d steps (the last in %s): it would not end; nothing was recorded", orUnnamed(e.Game), orUnnamed(e.Phase), e.Steps, e.Loop)
}

// Stopped is the error of a resolution whose context ended (the program
// was told to stop).
type Stopped struct {
	Game, Phase string
	Err         error
}

func (e *Stopped) Error() string {
	return fmt.Sprintf("engine: game %s, phase %s: resolution stopped: %v; nothing was recorded", orUnnamed(e.Game), orUnnamed(e.Phase), e.Err)
}

func (e *Stopped) Unwrap() error { return e.Err }

// DieMissing is the error of a resolution that asked for a manual die not
// in hand: Want is that roll, with its die and what it is for.
type DieMissing struct{ Want Roll }

func (e *DieMissing) Error() string {
	return fmt.Sprintf("engine: no die in hand for the d%d the resolution asks for next (%s)", e.Want.Sides, e.Want.Why)
}

func orUnnamed(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}

// Budgeted is implemented by dice that carry the budget of their
// resolution. A ruleset's own wrapper of the dice it is given implements
// it too, by asking the dice it wraps (BudgetOf).
type Budgeted interface {
	Budget() *Budget
}

// BudgetOf returns the budget d carries, or nil.
func BudgetOf(d Dice) *Budget {
	if b, ok := d.(Budgeted); ok {
		return b.Budget()
	}
	return nil
}

// Step counts one step of loop against the budget d carries. Dice that
// carry none (a ruleset's own test calling Resolve directly, the scripted
// players) are bounded by the budget Bound gives them at the top of
// Resolve.
func Step(d Dice, loop string) {
	if b := BudgetOf(d); b != nil {
		b.Step(loop)
	}
}

// BoundDice is dice with the budget of their resolution: each roll is a
// step.
type BoundDice struct {
	Dice
	b *Budget
}

// Roll implements Dice, counting the roll as a step.
func (d *BoundDice) Roll(sides int, why string) int {
	d.b.Step("dice rolls")
	return d.Dice.Roll(sides, why)
}

// Budget implements Budgeted.
func (d *BoundDice) Budget() *Budget { return d.b }

// Bound returns d with a budget: d itself when it carries one, else d
// under a new budget of MaxSteps. Every ruleset's Resolve starts with it,
// so that a resolution is bounded whoever calls it.
func Bound(d Dice) Dice {
	if BudgetOf(d) != nil {
		return d
	}
	return &BoundDice{Dice: d, b: NewBudget(context.Background(), 0, "", "")}
}

// WithBudget returns d under budget b.
func WithBudget(d Dice, b *Budget) Dice { return &BoundDice{Dice: d, b: b} }

// Halted turns a Halt panic into *err; any other panic goes on. Every
// ruleset's Resolve defers it, so that a resolution that cannot go on
// returns its reason as an error.
func Halted(err *error) {
	if x := recover(); x != nil {
		h, ok := x.(*Halt)
		if !ok {
			panic(x)
		}
		*err = h.Err
	}
}

// Resolve resolves the open phase of s under rs within ctx and a budget
// of MaxSteps steps, errors naming game and the open phase. A resolution
// that spends its budget fails with *OverBudget, one whose context ends
// with *Stopped (which unwraps to the context's cause), one that asks a
// manual die not in hand with *DieMissing.
func Resolve(ctx context.Context, rs Ruleset, game string, s State, orders map[Side]Orders, d Dice) (next State, err error) {
	if err := ctx.Err(); err != nil {
		return nil, &Stopped{Game: game, Phase: rs.Phase(s).ID, Err: context.Cause(ctx)}
	}
	b := NewBudget(ctx, 0, game, rs.Phase(s).ID)
	defer Halted(&err)
	return rs.Resolve(s, orders, WithBudget(d, b))
}

// Guarded runs a ruleset's resolution within the budget its dice carry
// (Bound), a resolution that cannot go on (a manual die not in hand, its
// budget spent, its context done) returning why: the body of every
// ruleset's Resolve.
func Guarded[S, O any](resolve func(S, map[Side]O, Dice) (S, error), s S, orders map[Side]O, d Dice) (next S, err error) {
	defer Halted(&err)
	return resolve(s, orders, Bound(d))
}

// GuardedNew is Guarded for a ruleset's set-up (New): one that asks a
// manual die not in hand returns why.
func GuardedNew[S any](newState func(Setup, Dice) (S, error), setup Setup, d Dice) (st S, err error) {
	defer Halted(&err)
	return newState(setup, Bound(d))
}
