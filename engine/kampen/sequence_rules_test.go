package kampen

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"skagerrak/engine"
)

// Rules tests of chapter 3 of the text (seeds 003), Spillets gang og
// rundens faser (sequence of play): each outcome worked out by hand from
// the rule it cites.

func TestRule3_RoundOrderAndOwedOrders(t *testing.T) {
	r := Ruleset{}
	s := newGame(t, "order")
	var ids []string
	for i := 0; i < 7; i++ {
		ph := r.Phase(s)
		ids = append(ids, ph.ID+"="+fmt.Sprint(ph.Owes))
		s = run(t, s, nil)
	}
	want := "R01-german-move=[german] R01-german-reinforce=[german] R01-norwegian-move=[norwegian] " +
		"R01-norwegian-reinforce=[norwegian] R01-allied-move=[allied] R01-allied-reinforce=[allied] R02-german-move=[german]"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("phases\n%s\nwant\n%s", got, want)
	}
	// A German move opens the defenders' phase for the camp that answers.
	s = scene(German, StepMove, at(German, "oslo", 2), at(Allied, "hamar", 1), at(German, "gjovik", 1))
	give(s, Norwegian, "veisperring")
	b := s.clone()
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 2"})
	if got := s.owes(); !slices.Equal(got, []engine.Side{Allied, Norwegian}) {
		t.Errorf("defend phase owed by %v, want allied and norwegian", got)
	}
	// Without a card Norway has nothing to answer a move it does not fight.
	b.Norwegian.Hand = nil
	b = run(t, b, map[engine.Side]string{German: "move oslo hamar 2"})
	if got := b.owes(); !slices.Equal(got, []engine.Side{Allied}) {
		t.Errorf("defend phase owed by %v, want allied", got)
	}
	g := scene(German, StepMove, at(German, "oslo", 2), at(Norwegian, "valdres", 1))
	g = run(t, g, map[engine.Side]string{German: "move oslo hamar 2"})
	if g.Step != StepReinforce || g.count("hamar", German) != 2 {
		t.Errorf("a move no one answers goes straight on: step %s, %v", g.Step, g.Stacks)
	}
	n := scene(Norwegian, StepMove, at(Norwegian, "valdres", 2), at(German, "gjovik", 1))
	n = run(t, n, map[engine.Side]string{Norwegian: "move valdres gjovik 2"})
	if got := n.owes(); n.Step != StepDefend || !slices.Equal(got, []engine.Side{German}) {
		t.Errorf("Norwegian attack: step %s owed by %v", n.Step, got)
	}
}

// 3 (the round's phases) and 2.9 (what differs between the countries):
// the order form and the hints of refused orders name only the orders the
// side itself gives. The Allies have no paratroops, reactions or
// engineers; Germany, defending, neither blocks nor flees; Norway discards
// nothing (7).
func TestRule3_FormAndHintsNameOnlyTheSidesOwnOrders(t *testing.T) {
	r := Ruleset{}
	form := func(s *State, side engine.Side) string { return r.OrderForm(r.View(s, side), side) }
	s := scene(Allied, StepMove, at(Allied, "dombas", 2), at(German, "trondheim", 1))
	if f := form(s, Allied); strings.Contains(f, "para ") || strings.Contains(f, "engineer") || strings.Contains(f, "react") || !strings.Contains(f, "move FROM TO") {
		t.Errorf("the Allied move form:\n%s", f)
	}
	errs := parseErr(t, s, Allied, "move dombas tynset 2\nengineer on")
	if errs[0].Line != 2 || errs[0].Valid != "move, attack" {
		t.Errorf("engineer by the Allies: %+v, want line 2 and valid \"move, attack\"", errs[0])
	}
	g := scene(Norwegian, StepMove, at(Norwegian, "hamar", 2), at(German, "lillehammer", 1))
	g = run(t, g, map[engine.Side]string{Norwegian: "move hamar lillehammer 2"})
	if g.Step != StepDefend {
		t.Fatalf("at %s, want Germany's answer", g.phaseID())
	}
	if f := form(g, German); strings.Contains(f, "block") || strings.Contains(f, "flee") || !strings.Contains(f, "defend AREA") {
		t.Errorf("the German defence form:\n%s", f)
	}
	n := scene(German, StepMove, at(German, "gjovik", 3), at(Norwegian, "lillehammer", 1))
	n = run(t, n, map[engine.Side]string{German: "move gjovik lillehammer 3"})
	if f := form(n, Norwegian); !strings.Contains(f, "block CARD AREA") || !strings.Contains(f, "flee AREA TO") {
		t.Errorf("the Norwegian answer in the German round:\n%s", f)
	}
	w := scene(Norwegian, StepReinforce, at(Norwegian, "hamar", 1))
	if f := form(w, Norwegian); strings.Contains(f, "discard") || strings.Contains(f, "submarine") {
		t.Errorf("the Norwegian reinforcement form:\n%s", f)
	}
}
