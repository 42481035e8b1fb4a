package kampen

import (
	"fmt"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// conforming is the ruleset with what its conformance suite needs to know.
type conforming struct{ Ruleset }

// Hide changes, in a copy, everything side may not know (mutateHidden).
func (conforming) Hide(s engine.State, side engine.Side, _ int) engine.State {
	return mutateHidden(asState(s), side)
}

// Invariants: a side has at most one stack in an area, of at least one
// unit.
func (conforming) Invariants(_, next engine.State) error {
	s := asState(next)
	seen := map[string]bool{}
	for _, st := range s.Stacks {
		key := st.Area + "/" + string(st.Side)
		if seen[key] {
			return fmt.Errorf("two %s stacks in %s", st.Side, st.Area)
		}
		seen[key] = true
		if st.N < 1 {
			return fmt.Errorf("a %s stack of %d in %s", st.Side, st.N, st.Area)
		}
	}
	return nil
}

func TestConformance(t *testing.T) { enginetest.Conformance(t, conforming{}) }
