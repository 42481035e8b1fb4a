package kampen

import (
	"slices"
	"strings"
	"testing"

	"skagerrak/engine"
)

// Rules tests of chapter 6 of the text (seeds 003), Fase 3: Forsterkning
// (reinforcement): each outcome worked out by hand from the rule it cites.

func TestRule6_1_GermanReinforcements(t *testing.T) {
	s := scene(German, StepReinforce, at(German, "oslo", 1), at(Norwegian, "drammen", 1), at(Norwegian, "hamar", 1))
	give(s, German, "speidertropp", "panzer", "bombefly")
	for text, rule := range map[string]string{
		"place hamar":                      "6.1",
		"place drammen":                    "6.1",
		"place lillehammer":                "6.1",
		"place oslo 2":                     "6",
		"trade speidertropp\nplace oslo 2": "6",
	} {
		if errs := parseErr(t, s, German, text); !hasRule(errs, rule) {
			t.Errorf("%q: errors %v, want rule %s", text, errs, rule)
		}
	}
	s = run(t, s, map[engine.Side]string{German: "trade speidertropp panzer\nplace oslo\nplace larvik"})
	if s.count("oslo", German) != 2 || s.count("larvik", German) != 1 {
		t.Errorf("after the reinforcements: %v", s.Stacks)
	}
}

func TestRule6_2_NorwegianReinforcements(t *testing.T) {
	s := scene(Norwegian, StepReinforce, at(German, "oslo", 1), at(Allied, "dombas", 1))
	give(s, Norwegian, "sprengt-bro", "rask-forflytning", "rask-forflytning")
	for text, rule := range map[string]string{
		"trade sprengt-bro rask-forflytning rask-forflytning\nplace hamar 2":                           "6.2",
		"trade sprengt-bro rask-forflytning rask-forflytning\nplace hamar\nplace hamar":                "6.2",
		"trade sprengt-bro rask-forflytning rask-forflytning\nplace oslo":                              "6.2",
		"trade sprengt-bro rask-forflytning rask-forflytning\nplace hamar\nplace tynset\nplace oppdal": "6",
	} {
		if errs := parseErr(t, s, Norwegian, text); !hasRule(errs, rule) {
			t.Errorf("%q: errors %v, want rule %s", text, errs, rule)
		}
	}
	s = run(t, s, map[engine.Side]string{Norwegian: "trade sprengt-bro rask-forflytning rask-forflytning\nplace dombas\nplace kongsberg"})
	if s.count("dombas", Norwegian) != 1 || s.count("kongsberg", Norwegian) != 1 {
		t.Errorf("after the reinforcements: %v", s.Stacks)
	}
}

func TestRule6_3_AlliedReinforcements(t *testing.T) {
	s := scene(Allied, StepReinforce, at(German, "trondheim", 1))
	give(s, Allied, "forsterkninger")
	for _, a := range []string{"oslo", "larvik", "valdres", "trondheim"} {
		if errs := parseErr(t, s, Allied, "trade forsterkninger\nplace "+a); !hasRule(errs, "6.3") {
			t.Errorf("place %s: %v", a, errs)
		}
	}
	s = run(t, s, map[engine.Side]string{Allied: "trade forsterkninger\nplace molde"})
	if s.count("molde", Allied) != 1 {
		t.Errorf("after the reinforcements: %v", s.Stacks)
	}
}

func TestRule6_3_UbatSinksAGermanReinforcement(t *testing.T) {
	s := scene(Allied, StepReinforce, at(German, "oslo", 1), at(Allied, "andalsnes", 1))
	give(s, Allied, "ubat")
	s.Allied.UsedSince = true
	s = run(t, s, map[engine.Side]string{Allied: "submarine on"})
	if !s.Submarine {
		t.Fatal("standing order not kept")
	}
	if v := (Ruleset{}).View(s, German).(*View); v.Submarine {
		t.Error("Germany sees the Allied standing order")
	}
	s.Turn, s.Step = German, StepReinforce
	s = run(t, s, map[engine.Side]string{German: "place oslo"})
	if s.count("oslo", German) != 1 || !slices.Contains(s.Allied.Used, "ubat") {
		t.Errorf("Ubåt did not sink the free battalion: %v, allied used %v", s.Stacks, s.Allied.Used)
	}
}

// 6: "3 forsterkningssymboler tilsvarer én ny bataljon"; 6.1: Germany's
// free battalion. Speidertropp (2 symbols) and Ingeniørkompani (2) make 4
// symbols: 1 battalion, and the free one, 2 in all. Placing 3 is refused
// with a placement that stands.
func TestRule6_PlacingTooManyHintsAPlacementThatStands(t *testing.T) {
	s := scene(German, StepReinforce, at(German, "oslo", 1))
	give(s, German, "speidertropp", "ingeniorkompani")
	errs := parseErr(t, s, German, "trade speidertropp ingeniorkompani\nplace oslo 3")
	if errs[0].Line != 2 || errs[0].Valid != "place oslo 2 (2 battalion(s) in all)" {
		t.Fatalf("%+v", errs[0])
	}
	parse(t, s, German, "trade speidertropp ingeniorkompani\nplace oslo 2")
	errs = parseErr(t, s, German, "trade speidertropp ingeniorkompani\nplace oslo 2\nplace drammen 1")
	if errs[0].Line != 3 || !strings.HasPrefix(errs[0].Valid, "no more place orders") {
		t.Errorf("%+v", errs[0])
	}
}
