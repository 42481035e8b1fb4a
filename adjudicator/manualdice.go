package adjudicator

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"skagerrak/engine"
)

// Manual dice: a game created with Dice "manual" rolls nothing itself. When
// a phase is due to resolve, the resolution takes its rolls from the hand
// of dice supplied (DiceAdded); one that runs short waits, and says which
// dice it wants and what each is for. A value supplied is the face of the
// die its roll asks for; the hand of a game supplied before dice of every
// type holds d6 faces, read as they were then (engine.NewHandDice).

// DiceWait is what a resolution waiting for manual dice wants.
type DiceWait struct {
	// Phase is the phase waiting.
	Phase string
	// Want is the roll the resolution stopped at, the first beyond the
	// hand: no die is invented, so what comes after it is known only once
	// it is in.
	Want []engine.Roll
	// Misfit, when set, says why a value in hand fits no roll it is for:
	// the hand must be cleared (dice clear) before the phase can resolve.
	Misfit string
}

// Error makes a DiceWait the error of a resolution that cannot go on.
func (w *DiceWait) Error() string { return "adjudicator: " + w.String() }

// N is how many more dice the resolution waits for (1 while a value in
// hand must first be cleared).
func (w *DiceWait) N() int { return max(len(w.Want), 1) }

// String says what the resolution wants, for instance "T1-german-combat
// needs 1 d10: a d10 (0 for its 0 face) for incremental odds (34A1) (more
// may follow once it is in)".
func (w *DiceWait) String() string {
	if w.Misfit != "" {
		return fmt.Sprintf("%s cannot resolve with the dice in hand: %s; the referee clears them (dice clear WHY) and supplies new ones", w.Phase, w.Misfit)
	}
	count := map[int]int{}
	var sides []int
	for _, r := range w.Want {
		if count[r.Sides] == 0 {
			sides = append(sides, r.Sides)
		}
		count[r.Sides]++
	}
	slices.Sort(sides)
	var kinds, each []string
	for _, s := range sides {
		kinds = append(kinds, fmt.Sprintf("%d d%d", count[s], s))
	}
	for _, r := range w.Want {
		each = append(each, dieFor(r))
	}
	return fmt.Sprintf("%s needs %s: %s (more may follow once it is in)", w.Phase, joinAnd(kinds), strings.Join(each, ", then "))
}

// dieFor names one roll wanted: "a d6 for combat at R18".
func dieFor(r engine.Roll) string {
	s := fmt.Sprintf("a d%d", r.Sides)
	if r.Sides == 10 {
		s += " (0 for its 0 face)"
	}
	if r.Why != "" {
		s += " for " + r.Why
	}
	return s
}

func joinAnd(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// hand returns the dice a resolution rolls with, the values given after
// the hand's.
func (g *Game) hand(more ...int) *engine.ManualDice {
	return engine.NewHandDice(g.DiceD6, append(append([]int(nil), g.Dice...), more...))
}

// diceWait resolves the open phase on the hand (and the values given
// after it) without recording anything, and says what it waits for: nil
// when the hand is enough, or the game has no manual dice or no open phase.
func (g *Game) diceWait(more ...int) (*DiceWait, error) {
	if g.Created.Dice != "manual" || g.Opened == nil || g.Ended != nil {
		return nil, nil
	}
	orders, _ := g.phaseOrders(g.Owing())
	d := g.hand(more...)
	_, err := g.resolveOpen(orders, d)
	w, err := handOutcome(g.Opened.Phase, d, err)
	if err != nil {
		return nil, fmt.Errorf("adjudicator: resolving %s of game %s: %w", g.Opened.Phase, g.ID, err)
	}
	return w, nil
}

// DiceWanted says what the open phase of a manual-dice game waits for when
// it is due to resolve (every side in, or the deadline past), or nil.
func (g *Game) DiceWanted(now time.Time) *DiceWait {
	w, _ := g.WaitingFor(now)
	return w
}

// WaitingFor is DiceWanted, with the error of a dry run that could not
// say: one over its step budget, or stopped (the command told to stop).
func (g *Game) WaitingFor(now time.Time) (*DiceWait, error) {
	if g.Opened == nil || g.Paused != nil || !g.due(now) {
		return nil, nil
	}
	return g.diceWait()
}

// due reports whether the open phase resolves at now: all orders in, or
// its deadline (plus grace) past.
func (g *Game) due(now time.Time) bool {
	return len(g.Owing()) == 0 || !now.Before(g.Opened.Deadline.Add(time.Duration(g.Created.Timing.Grace)))
}

// addDice carries out the referee command "dice N...": each value must be
// a face of the die the waiting resolution asks for next, and the phase
// must want all of them; otherwise nothing is added and the error says what
// is expected.
func (g *Game) addDice(c Command, now time.Time, emit Emit) error {
	if g.Created.Dice != "manual" {
		return fmt.Errorf("adjudicator: game %s rolls its own dice; dice are supplied only to manual-dice games", g.ID)
	}
	if len(c.Args) == 0 {
		return fmt.Errorf("adjudicator: dice needs at least one value")
	}
	if g.Opened == nil {
		return fmt.Errorf("adjudicator: game %s has no open phase", g.ID)
	}
	if g.Paused != nil || !g.due(now) {
		return fmt.Errorf("adjudicator: phase %s does not resolve yet (orders owed by %s, deadline %s); supply the dice when it waits for them (skagerrak status says so)",
			g.Opened.Phase, joinSides(g.Owing()), g.Opened.Deadline.UTC().Format(time.RFC1123))
	}
	var vals []int
	for i, a := range c.Args {
		w, err := g.diceWait(vals...)
		if err != nil {
			return err
		}
		switch {
		case w == nil:
			return fmt.Errorf("adjudicator: dice: %s takes %d more roll(s), not %d; nothing was added: give %s", g.Opened.Phase, i, len(c.Args), strings.Join(c.Args[:i], " "))
		case w.Misfit != "":
			return fmt.Errorf("adjudicator: dice: %s; nothing was added", w.String())
		}
		r := w.Want[0]
		v, err := strconv.Atoi(a)
		if err == nil && v == 0 && r.Sides == 10 {
			v = 10 // the 0 face of a d10
		}
		if err != nil || v < 1 || v > r.Sides {
			valid := fmt.Sprintf("1 to %d", r.Sides)
			if r.Sides == 10 {
				valid = "0 to 9, or 10 for the 0 face"
			}
			return fmt.Errorf("adjudicator: dice: value %d (%q) is not a face of %s; valid: %s; nothing was added (%s)", i+1, a, dieFor(r), valid, w.String())
		}
		vals = append(vals, v)
	}
	if err := emit(EvDiceAdded, DiceAdded{Values: vals, By: c.By, PerDie: true}); err != nil {
		return err
	}
	_, err := g.Tick(now, emit)
	return err
}

// clearDice carries out "dice clear WHY": the hand is dropped.
func (g *Game) clearDice(c Command, emit Emit) error {
	if g.Created.Dice != "manual" {
		return fmt.Errorf("adjudicator: game %s rolls its own dice; it has no manual dice to clear", g.ID)
	}
	if c.Why == "" {
		return fmt.Errorf("adjudicator: dice clear: say why (it is recorded)")
	}
	if len(g.Dice) == 0 {
		return fmt.Errorf("adjudicator: game %s has no manual dice in hand", g.ID)
	}
	return emit(EvDiceCleared, DiceCleared{Values: append([]int(nil), g.Dice...), By: c.By, Why: c.Why})
}

// useDice checks, as a resolution is folded, that its rolls are the dice
// in hand, in order, and takes them from the hand.
func (g *Game) useDice(rolls []engine.Roll) error {
	if len(rolls) > len(g.Dice) {
		return fmt.Errorf("the phase rolled %d dice, but only %d were supplied", len(rolls), len(g.Dice))
	}
	for i, r := range rolls {
		v := g.Dice[i]
		if i < g.DiceD6 {
			var err error
			if v, err = engine.D6Face(g.Dice[i], r.Sides); err != nil {
				v = 0
			}
		} else if v > r.Sides {
			v = 0
		}
		if v != r.Value {
			return fmt.Errorf("roll %d (%s) is %d, but the die supplied for it shows %d", i+1, r.Why, r.Value, g.Dice[i])
		}
	}
	g.Dice = g.Dice[len(rolls):]
	g.DiceD6 = max(g.DiceD6-len(rolls), 0)
	return nil
}
