package enginetest

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// GuideExamples checks that every example of a ruleset's verb table is
// accepted in the phase it names, by the side it names: the state is the
// first of played whose open phase has that ID, or extra[verb name] for
// examples a test sets up itself (an optional rule, a decision), whose
// open phase must have that ID too. It also checks that the guide prints every verb's
// usage and example, so that what the guide shows is what was tested.
func GuideExamples(t *testing.T, rs engine.Ruleset, vs engine.Verbs, played Played, extra map[string]engine.State) {
	t.Helper()
	first := map[string]engine.State{}
	for _, st := range played.States {
		if id := rs.Phase(st).ID; first[id] == nil {
			first[id] = st
		}
	}
	var guide string
	if g, ok := rs.(engine.Guider); ok {
		guide = g.Guide()
	} else {
		t.Errorf("ruleset %s has no guide", rs.Name())
	}
	for _, v := range vs {
		ex := v.Example
		if !strings.Contains(guide, v.Usage) {
			t.Errorf("%s: the guide does not print the usage %q", v.Name, v.Usage)
		}
		gives := false
		for _, l := range strings.Split(ex.Line, "\n") {
			if !strings.Contains(guide, "        "+l+"\n") {
				t.Errorf("%s: the guide does not print the example line %q", v.Name, l)
			}
			w, _ := vs.Lookup(strings.Fields(l)[0])
			gives = gives || w.Name == v.Name
		}
		if !gives {
			t.Errorf("%s: example %q gives no %s order", v.Name, ex.Line, v.Name)
		}
		st := first[ex.Phase]
		if x, ok := extra[v.Name]; ok {
			st = x
			if id := rs.Phase(st).ID; id != ex.Phase {
				t.Errorf("%s: the state set up for the example is in phase %s, not %s", v.Name, id, ex.Phase)
			}
		}
		if st == nil {
			t.Errorf("%s: example phase %s is never open in the scripted game, and no test sets it up", v.Name, ex.Phase)
			continue
		}
		if !rs.Phase(st).Awaits(ex.Side) {
			t.Errorf("%s: side %s owes no orders in phase %s", v.Name, ex.Side, ex.Phase)
			continue
		}
		if _, errs := rs.ParseOrders(st, ex.Side, ex.Line+"\n"); len(errs) > 0 {
			t.Errorf("%s: example %q (%s, %s) is refused: %v", v.Name, ex.Line, ex.Side, ex.Phase, errs)
		}
	}
}

// FormsListUnits checks, in every state of played, that each side owing
// orders finds in its order form every unit that units says it commands
// and may order in that state (names as the form should print them).
func FormsListUnits(t *testing.T, rs engine.Ruleset, played Played, units func(v engine.View, side engine.Side) []string) {
	t.Helper()
	former, ok := rs.(engine.OrderFormer)
	if !ok {
		t.Fatalf("ruleset %s prints no order form", rs.Name())
	}
	missing := 0
	for _, st := range played.States {
		ph := rs.Phase(st)
		for _, side := range ph.Owes {
			v := rs.View(st, side)
			form := former.OrderForm(v, side)
			for _, u := range units(v, side) {
				if !strings.Contains(form, u) && missing < 10 {
					missing++
					t.Errorf("%s %s: the order form leaves out %s:\n%s", ph.ID, side, u, form)
				}
			}
		}
	}
}
