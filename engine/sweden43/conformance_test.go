package sweden43

import (
	"fmt"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// conforming is the ruleset with what its conformance suite needs to know.
type conforming struct{ Ruleset }

// Hide changes, in a copy, what side may not know (hide).
func (conforming) Hide(s engine.State, side engine.Side, k int) engine.State {
	return hide(s.(*State), side, k%4)
}

// Invariants: every unit is one of a kind, in one hex or off the map.
func (conforming) Invariants(prev, next engine.State) error {
	s := next.(*State)
	seen := map[string]bool{}
	for _, u := range s.Board.Units {
		if seen[u.ID] {
			return fmt.Errorf("unit %s twice", u.ID)
		}
		seen[u.ID] = true
	}
	return nil
}

func TestConformance(t *testing.T) { enginetest.Conformance(t, conforming{}) }

// hide changes, in a copy of st, everything side may not know.
func hide(st *State, side engine.Side, k int) *State {
	c := st.Clone()
	enemy := other(side)
	for i := range c.Board.Units {
		u := &c.Board.Units[i]
		if u.Side != enemy {
			continue
		}
		switch u.Status {
		case Pending:
			u.Turn += k
			u.Arrive = "A1"
		case Mobilize, Assemble, HQAssemble:
			u.Turn += k
		case Amph, ParaPool:
			u.Status = Neutralized
		}
		if u.Status == OnMap {
			u.OOS = !u.OOS
			u.Restricted = "Nowhere"
		}
	}
	if side == Allied {
		c.Board.ReplHalfREs += k
	}
	c.Log = append(c.Log, Event{Turn: c.Turn, Text: "a secret", Only: enemy})
	return c
}
