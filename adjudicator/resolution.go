package adjudicator

import (
	"context"
	"errors"
	"strings"

	"skagerrak/engine"
)

// Every resolution the adjudicator runs, live, dry (what manual dice a
// phase waits for) or in a replay, runs through engine.Resolve: within the
// game's context (a command told to stop stops it at its next step) and
// the engine's step budget. A resolution that stops records nothing.

// SetContext makes the game's resolutions stop when ctx ends; a Host sets
// it to Options.Context on every game it opens or makes.
func (g *Game) SetContext(ctx context.Context) { g.ctx = ctx }

// context is the context the game's resolutions run in.
func (g *Game) context() context.Context {
	if g.ctx == nil {
		return context.Background()
	}
	return g.ctx
}

// resolveOpen resolves the open phase of the game's state with orders and
// dice, bounded (engine.Resolve).
func (g *Game) resolveOpen(orders map[engine.Side]engine.Orders, d engine.Dice) (engine.State, error) {
	return engine.Resolve(g.context(), g.Rules, g.ID, g.State, orders, d)
}

// handOutcome says what a resolution on manual dice d, which ended with
// err, waits for: the referee to clear a value that fits no roll (Misfit),
// or the die it stopped at (Want). It is nil, with err, for a resolution
// that failed otherwise, and nil, nil for one the hand was enough for.
func handOutcome(phase string, d *engine.ManualDice, err error) (*DiceWait, error) {
	var missing *engine.DieMissing
	if err != nil && !errors.As(err, &missing) {
		return nil, err
	}
	if derr := d.Err(); derr != nil {
		return &DiceWait{Phase: phase, Misfit: strings.TrimPrefix(derr.Error(), "engine: dice: ")}, nil
	}
	if missing != nil {
		return &DiceWait{Phase: phase, Want: []engine.Roll{missing.Want}}, nil
	}
	return nil, nil
}

// faulty reports whether err is a resolution that would not end: the game
// is set aside with it, the host serves the others (see Host.act).
func faulty(err error) bool {
	var over *engine.OverBudget
	return errors.As(err, &over)
}
