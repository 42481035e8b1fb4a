package enginetest

import (
	"fmt"
	"testing"

	"skagerrak/engine"
)

// conformingRace is the racetest ruleset with what its conformance suite
// needs to know of it.
type conformingRace struct{ Race }

// Hide changes the other side's last roll and its history, which side
// never sees (only the other side's position).
func (conformingRace) Hide(s engine.State, side engine.Side, k int) engine.State {
	c := engine.DeepCopy(s.(*RaceState))
	for _, x := range (Race{}).Sides() {
		if x != side {
			c.Last[string(x)] = fmt.Sprintf("secret %d", k)
			c.Log[string(x)] = append(c.Log[string(x)], "secret")
		}
	}
	return c
}

// Invariants: a side never goes back, and moves at most 3 a phase.
func (conformingRace) Invariants(prev, next engine.State) error {
	if prev == nil {
		return nil
	}
	a, b := prev.(*RaceState), next.(*RaceState)
	for _, x := range []string{"allied", "german"} {
		if d := b.Pos[x] - a.Pos[x]; d < 0 || d > 3 {
			return fmt.Errorf("%s moved %d (rule 1.2: 0 to 3)", x, d)
		}
	}
	return nil
}

func TestConformance(t *testing.T) {
	Register()
	Conformance(t, conformingRace{})
}

// TestRaceEmptyOrdersAndStrangers: what random play found in racetest.
// An empty order file orders no advance (rule 1.1 names only "advance
// N"), so it is written back as nothing, which is accepted again; orders
// of a side not in the game are refused; an unknown scenario is refused.
func TestRaceEmptyOrdersAndStrangers(t *testing.T) {
	r := Race{}
	st, err := r.New(engine.Setup{}, engine.NewFaceDice(1))
	if err != nil {
		t.Fatal(err)
	}
	o, errs := r.ParseOrders(st, "allied", "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if f := r.FormatOrders(st, "allied", o); f != "" {
		t.Fatalf("empty orders written back as %q", f)
	}
	if _, errs := r.ParseOrders(st, "danish", "advance 1"); len(errs) != 1 || errs[0].Valid != "allied or german" {
		t.Errorf("orders of a stranger: %v", errs)
	}
	if _, err := r.New(engine.Setup{Scenario: "marathon"}, engine.NewFaceDice(1)); err == nil {
		t.Error("an unknown scenario is accepted")
	}
}
