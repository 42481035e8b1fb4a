package norway1940

import (
	"fmt"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// conforming is the ruleset with what its conformance suite needs to know.
type conforming struct{ Ruleset }

// Hide changes at random, in a copy, everything of the enemy side may
// not see (hide), and of a stopped player-turn its start, its orders and
// the rolls made so far, which are for the replay and never for a view.
func (conforming) Hide(s engine.State, side engine.Side, k int) engine.State {
	c := s.(*State).clone()
	d := engine.NewSeededDice([]byte("hide"), fmt.Sprint(k), PhaseOf(c).ID, [32]byte{})
	hide(c, other(side), d)
	if p := c.Pending; p != nil {
		hide(p.Start, other(side), d)
		for i := range p.Rolls {
			p.Rolls[i].Value = d.Roll(6, "roll")
		}
		p.Orders.Lines = p.Orders.Lines[:len(p.Orders.Lines)/2]
	}
	return c
}

// Invariants: every unit is one of a kind; a unit alive has a step or
// more, and none has fewer than none (revision 1 leaves a unit eliminated outright, by
// an A or E result, at -1 steps, which its recorded games keep); a unit
// dead stays dead, but an HQ that returns on its turn (10.2.9).
func (conforming) Invariants(prev, next engine.State) error {
	s := next.(*State)
	seen := map[string]*Unit{}
	for _, u := range s.Units {
		if seen[u.ID] != nil {
			return fmt.Errorf("unit %s twice", u.ID)
		}
		seen[u.ID] = u
		if (!u.Dead && u.Steps < 1) || (u.Steps < 0 && (s.rev() >= 2 || u.Steps < -1)) {
			return fmt.Errorf("unit %s (dead %v) has %d steps", u.ID, u.Dead, u.Steps)
		}
	}
	if prev == nil {
		return nil
	}
	for _, u := range prev.(*State).Units {
		if u.Dead && !seen[u.ID].Dead && (u.Type != "hq" || u.Returns != next.(*State).Turn) {
			return fmt.Errorf("dead unit %s is back at %s", u.ID, seen[u.ID].Loc)
		}
	}
	return nil
}

func TestConformance(t *testing.T) { enginetest.Conformance(t, conforming{}) }
