package kampen

import (
	"slices"
	"testing"

	"skagerrak/engine"
)

// Rules tests of chapter 4 of the text (seeds 003), Fase 1: Forflytning
// (movement): each outcome worked out by hand from the rule it cites.

func TestRule4_1_RaskForflytningTwoAreas(t *testing.T) {
	s := scene(German, StepMove, at(German, "kongsvinger", 2), at(Norwegian, "hamar", 1))
	give(s, German, "rask-forflytning")
	errs := parseErr(t, s, German, "rapid kongsvinger oslo hamar elverum 2")
	if !hasRule(errs, "4.1") {
		t.Errorf("three areas accepted: %v", errs)
	}
	give(s, Norwegian, "bakhold")
	s = run(t, s, map[engine.Side]string{German: "rapid kongsvinger elverum rena 2"})
	s = run(t, s, map[engine.Side]string{Norwegian: ""})
	if s.count("rena", German) != 2 || !slices.Equal(s.German.Used, []string{"rask-forflytning"}) {
		t.Errorf("Rena %d, used %v", s.count("rena", German), s.German.Used)
	}
	b := scene(German, StepMove, at(German, "oslo", 2), at(Norwegian, "hamar", 1))
	give(b, German, "rask-forflytning")
	if errs := parseErr(t, b, German, "rapid oslo hamar elverum 2"); !hasRule(errs, "4.2") {
		t.Errorf("a rapid move through an enemy area: %v", errs)
	}
}

func TestRule4_2_MovingIntoAnEnemyAreaIsAnAttack(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 3), at(Norwegian, "lillehammer", 1))
	s = run(t, s, map[engine.Side]string{German: "move gjovik lillehammer 2\nmove gjovik valdres"})
	if len(s.Combats) != 1 || s.Combats[0].Area != "lillehammer" || s.Step != StepDefend {
		t.Fatalf("combats %+v step %s", s.Combats, s.Step)
	}
	v := (Ruleset{}).View(s, Norwegian).(*View)
	if len(v.Groups) != 2 || v.Groups[0].To != "lillehammer" || v.Groups[0].N != 2 {
		t.Errorf("Norway does not see the Germans at the border: %+v", v.Groups)
	}
	if s.count("lillehammer", German) != 0 || s.count("gjovik", German) != 0 {
		t.Errorf("attackers must wait at the border: %v", s.Stacks)
	}
}

func TestRule4_3_GroupsFromSeveralAreasGoBackToTheirOwn(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 2), at(German, "elverum", 2), at(Norwegian, "hamar", 3))
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 2\nmove elverum hamar 2"})
	// Attacker 4 dice of 1, defender 3 dice of 3: the defence holds.
	s = run(t, s, map[engine.Side]string{Norwegian: ""}, 2, 2, 3, 3, 6, 6, 6)
	if s.count("oslo", German) != 2 || s.count("elverum", German) != 2 || s.count("hamar", Norwegian) != 3 {
		t.Errorf("after the failed attack: %v", s.Stacks)
	}
	if s.Step != StepReinforce || len(s.Groups) != 0 {
		t.Errorf("step %s groups %v", s.Step, s.Groups)
	}
}

func TestRule4_4_VeisperringStopsTwoOfOneGroup(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 3), at(German, "elverum", 1), at(Norwegian, "hamar", 1))
	give(s, Norwegian, "veisperring")
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 3\nmove elverum hamar 1"})
	// One German from Oslo and one from Elverum fight: 2 dice against 1.
	s = run(t, s, map[engine.Side]string{Norwegian: "block veisperring hamar from oslo"}, 2, 2, 6)
	if s.count("oslo", German) != 3 || s.count("elverum", German) != 1 || s.count("hamar", Norwegian) != 1 {
		t.Errorf("after Veisperring: %v", s.Stacks)
	}
	if !slices.Equal(s.Norwegian.Used, []string{"veisperring"}) {
		t.Errorf("Norwegian used %v", s.Norwegian.Used)
	}
}

func TestRule4_4_SprengtBroStopsEveryGroup(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 2), at(German, "elverum", 2), at(Norwegian, "hamar", 1))
	give(s, Norwegian, "sprengt-bro")
	give(s, German, "panzer")
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 2\nmove elverum hamar 2\nattack hamar panzer"})
	s = run(t, s, map[engine.Side]string{Norwegian: "block blown-bridge Hamar"})
	if s.count("oslo", German) != 2 || s.count("elverum", German) != 2 || s.count("hamar", Norwegian) != 1 {
		t.Errorf("after Sprengt bro: %v", s.Stacks)
	}
	if !slices.Equal(s.German.Hand, []string{"panzer"}) || len(s.German.Used) != 0 {
		t.Errorf("the Panzer of a combat that never happened goes back to the hand: hand %v used %v", s.German.Hand, s.German.Used)
	}
}

func TestRule4_4_IngeniorkompaniCancelsABlock(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 3), at(Norwegian, "hamar", 1))
	give(s, Norwegian, "veisperring")
	give(s, German, "ingeniorkompani")
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 3\nengineer on"})
	if v := (Ruleset{}).View(s, Norwegian).(*View); v.Hidden != nil {
		t.Error("Norway sees the German standing orders")
	}
	s = run(t, s, map[engine.Side]string{Norwegian: "block roadblock hamar"}, 6, 6, 6, 2)
	if s.count("hamar", German) != 3 || !slices.Equal(s.German.Used, []string{"ingeniorkompani"}) || !slices.Equal(s.Norwegian.Used, []string{"veisperring"}) {
		t.Errorf("after Ingeniørkompani: %v, used %v / %v", s.Stacks, s.German.Used, s.Norwegian.Used)
	}
}

func TestRule4_4_FleeWithRaskForflytning(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 3), at(German, "gjovik", 1), at(Norwegian, "hamar", 2))
	give(s, Norwegian, "rask-forflytning")
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 3"})
	if errs := parseErr(t, s, Norwegian, "flee hamar gjovik"); !hasRule(errs, "4.4") {
		t.Errorf("flight into a German area: %v", errs)
	}
	s = run(t, s, map[engine.Side]string{Norwegian: "flee hamar elverum"})
	if s.count("elverum", Norwegian) != 2 || s.count("hamar", German) != 3 {
		t.Errorf("after the flight: %v", s.Stacks)
	}
}
