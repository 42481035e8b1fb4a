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
	return mutateHidden(s.(*State), side)
}

// Invariants: a side has at most one stack in an area, of at least one
// unit.
func (conforming) Invariants(_, next engine.State) error {
	s := next.(*State)
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

// mutateHidden changes everything side may not know of s: every other
// side's hand (same size, other cards), the order of every deck and used
// pile, and the other sides' standing orders and private events.
func mutateHidden(s *State, side engine.Side) *State {
	m := s.clone()
	for _, x := range turnOrder {
		d := m.deck(x)
		reverse(d.Draw)
		reverse(d.Used)
		if len(d.Draw) > 1 {
			d.Draw[0], d.Draw[1] = d.Draw[1], d.Draw[0]
		}
		if x == side {
			continue
		}
		cards := sideCards(x)
		for i := range d.Hand {
			d.Hand[i] = cards[(i*3+1)%len(cards)]
		}
		d.UsedSince = !d.UsedSince
	}
	if side != German {
		m.Hidden = Hidden{Engineer: !m.Hidden.Engineer, Losses: "allied", Reacts: []CardPlay{{Area: "hamar", Cards: []string{"jagerbomber"}}}}
	}
	if side != Allied {
		m.Submarine = !m.Submarine
		m.AllLosses = "norwegian"
	}
	if side != Norwegian {
		m.NorLosses = "allied"
	}
	for i := range m.Events {
		if m.Events[i].To != "" && m.Events[i].To != side {
			m.Events[i].Text = "secret " + m.Events[i].Text
		}
	}
	return m
}

func reverse(xs []string) {
	for i, j := 0, len(xs)-1; i < j; i, j = i+1, j-1 {
		xs[i], xs[j] = xs[j], xs[i]
	}
}
