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
	return hide(asState(s), side, k%4)
}

// Invariants: every unit is one of a kind, in one hex or off the map.
func (conforming) Invariants(prev, next engine.State) error {
	s := asState(next)
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
