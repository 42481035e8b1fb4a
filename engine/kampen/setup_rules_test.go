package kampen

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"skagerrak/engine"
)

// Rules tests of chapter 1 of the text (seeds 003), Forberedelser og
// oppsett (preparations and set-up): each outcome worked out by hand from
// the rule it cites.

func TestRule1_1_SetupAsTheText(t *testing.T) {
	s := newGame(t, "x")
	want := map[string]int{
		"german/oslo": 3, "german/gjovik": 3, "german/honefoss": 2, "german/kongsvinger": 2,
		"german/kongsberg": 1, "german/trondheim": 1,
		"norwegian/hamar": 2, "norwegian/valdres": 2, "norwegian/lillehammer": 1, "norwegian/oppdal": 1,
		"allied/andalsnes": 2, "allied/dombas": 2,
	}
	got := map[string]int{}
	for _, x := range s.Stacks {
		got[string(x.Side)+"/"+x.Area] = x.N
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("set-up %v, want %v", got, want)
	}
	if s.total(German) != 12 || s.total(Norwegian) != 6 || s.total(Allied) != 4 {
		t.Errorf("totals %d/%d/%d, want 12/6/4", s.total(German), s.total(Norwegian), s.total(Allied))
	}
	if ph := (Ruleset{}).Phase(s); ph.ID != "R01-german-move" || !slices.Equal(ph.Owes, []engine.Side{German}) {
		t.Errorf("first phase %+v, want Germany's move", ph)
	}
}

func TestRule1_2_DecksShuffledWithTheDice(t *testing.T) {
	a, b, c := newGame(t, "a"), newGame(t, "a"), newGame(t, "b")
	want := map[engine.Side]map[string]int{
		German: {"panzer": 2, "ingeniorkompani": 2, "speidertropp": 2, "rask-forflytning": 3,
			"fallskjermtropp": 2, "bombefly": 2, "jagerbomber": 2, "artilleri": 1},
		Norwegian: {"bakhold": 2, "sprengt-bro": 1, "veisperring": 3, "rask-forflytning": 2},
		Allied: {"jagerfly": 2, "panservernkanon": 2, "ubat": 1, "forsterkninger": 1,
			"stridsvogn": 1, "fremmedlegionaer": 1},
	}
	sizes := map[engine.Side][2]int{German: {16, 5}, Norwegian: {8, 3}, Allied: {8, 3}}
	for _, side := range turnOrder {
		d := a.deck(side)
		all := append(append([]string{}, d.Hand...), d.Draw...)
		got := map[string]int{}
		for _, id := range all {
			got[id]++
		}
		if fmt.Sprint(got) != fmt.Sprint(want[side]) {
			t.Errorf("%s deck %v, want %v", side, got, want[side])
		}
		if len(all) != sizes[side][0] || len(d.Hand) != sizes[side][1] {
			t.Errorf("%s: %d cards, %d in hand; want %v", side, len(all), len(d.Hand), sizes[side])
		}
		if !slices.Equal(d.Draw, b.deck(side).Draw) || !slices.Equal(d.Hand, b.deck(side).Hand) {
			t.Errorf("%s: the same dice dealt different decks", side)
		}
	}
	if slices.Equal(append(a.German.Hand, a.German.Draw...), append(c.German.Hand, c.German.Draw...)) {
		t.Error("different dice dealt the same German deck")
	}
}

func TestRule1_4_ThreeSidesTwoCamps(t *testing.T) {
	if got := (Ruleset{}).Sides(); !slices.Equal(got, []engine.Side{Allied, German, Norwegian}) {
		t.Errorf("Sides() = %v", got)
	}
	if !enemies(German, Norwegian) || !enemies(German, Allied) || enemies(Norwegian, Allied) {
		t.Error("Norway and the Allies must fight Germany together")
	}
	for _, r := range (Ruleset{}).Rules() {
		if r.Section == "1.4" && !strings.Contains(r.Note, "holding both the Norwegian and the Allied keys") {
			t.Errorf("Rules 1.4 does not say how two players play: %q", r.Note)
		}
	}
}

func TestRule1_5_GermanyWinsHoldingAllFour(t *testing.T) {
	s := lastCard(at(German, "lillehammer", 1), at(German, "hamar", 1), at(German, "oppdal", 1),
		at(German, "tynset", 1), at(Norwegian, "valdres", 3), at(Allied, "dombas", 2))
	s = run(t, s, map[engine.Side]string{German: "place oslo 1"})
	r := (Ruleset{}).Result(s)
	if !s.Over || r == nil || r.Winner != German || r.Points[German] != 4 {
		t.Fatalf("result %+v, want a German win holding 4", r)
	}
	if !(Ruleset{}).Phase(s).Over {
		t.Error("phase not over")
	}
}

func TestRule1_5_NorwayAndAlliesWinHoldingOne(t *testing.T) {
	s := lastCard(at(German, "lillehammer", 1), at(German, "hamar", 1), at(German, "oppdal", 1),
		at(Allied, "tynset", 1))
	s = run(t, s, nil)
	r := (Ruleset{}).Result(s)
	if r == nil || r.Winner != Norwegian || r.Level != "joint" || r.Points[German] != 3 {
		t.Fatalf("result %+v, want a joint Norwegian-Allied win", r)
	}
	if !strings.Contains(r.Summary, "Tynset") {
		t.Errorf("summary %q does not name Tynset", r.Summary)
	}
}
