package sweden43

import (
	"slices"
	"strings"
	"testing"

	"skagerrak/engine"
)

// Rules tests of Rule 26, Naval Rules: amphibious landings and the naval
// breakout (rulebook: seeds 004).

func TestRule26A_LandingHexes(t *testing.T) {
	st := newGame(t, "objective")
	for _, bad := range []string{"Stockholm", "Karlskrona", "Goteborg", "Oslo", "Orebro"} {
		errs := parseErr(st, "land amph1 "+bad+"\nland amph2 Q18")
		if len(errs) == 0 || errs[0].Rule != "26A" {
			t.Errorf("landing at %s: %v", bad, errs)
		}
	}
	if errs := parseErr(st, "land amph1 Q18"); len(errs) != 1 || errs[0].Line != 0 || errs[0].Rule != "26A" {
		t.Fatalf("Amph2 left unlanded: %v", errs)
	}
	if errs := parseErr(st, "land amph1 Q18\nland amph2 Visby"); len(errs) != 2 || errs[1].Line != 2 {
		t.Fatalf("Visby is held: %v", errs)
	}
	if errs := parseErr(st, "land amph1 Q18\nland amph2 Norrkoping"); len(errs) != 0 {
		t.Fatalf("Norrkoping is a coastal city of Sweden: %v", errs)
	}
}

// Revisions 1 and 2 roll the breakout as the German Jul I movement phase
// resolves, before the landing rolls (revision 3: TestRule26A_Breakout...).
func TestRule26A_NavalBreakout(t *testing.T) {
	for _, tc := range []struct {
		scenario     string
		dice         []int
		out, lostOne bool
	}{
		{"objective", []int{4, 4, 6, 6}, false, false},
		{"objective", []int{4, 5, 5, 6}, true, true},
		{"objective", []int{6, 6, 5, 5}, true, false},
		{"ultra", []int{3, 3, 4, 5}, true, true},
		{"ultra", []int{2, 3, 6, 6}, false, false},
	} {
		st := newGameOf(t, engine.Setup{Scenario: tc.scenario, Revision: 2})
		if tc.scenario == "ultra" {
			for k := 0; k < 3; k++ {
				st = resolve(t, st, "", nullDice{})
			}
		}
		st = resolve(t, st, "land amph1 Q18\nland amph2 Norrkoping", &seqDice{vals: tc.dice})
		if st.Board.NavyOut != tc.out {
			t.Errorf("%s %v: navy out %v, want %v", tc.scenario, tc.dice, st.Board.NavyOut, tc.out)
		}
		lost := unit(t, st, "Amph2").Status == Eliminated
		if lost != tc.lostOne || unit(t, st, "Amph1").Status != OnMap {
			t.Errorf("%s %v: Amph2 lost %v, want %v", tc.scenario, tc.dice, lost, tc.lostOne)
		}
	}
}

// 26A: "The German player lands the two regiments of his amphibious force
// during his Jul 1 43 movement phase ... in any coastal hexes in Sweden
// except for the Stockholm, Karlskrona, and Goteborg hexes". Orders that
// leave them out, or land one where it may not, are refused with landings
// the phase accepts, nearest Stockholm first (it used to say "land Amph1
// HEX"); 25C: a drop outside Sweden likewise names drops that stand.
func TestRule26A_LandingAndDropErrorsHintOrdersThatStand(t *testing.T) {
	st := newGame(t, "objective")
	errs := parseErr(st, "")
	if len(errs) != 2 || errs[0].Rule != "26A" {
		t.Fatalf("no landing orders: %v", errs)
	}
	a1 := hintOrders(t, errs[0], "land")
	a2 := hintOrders(t, errs[1], "land")
	if strings.Contains(errs[0].Valid, "R18") {
		t.Errorf("the hint lands in Stockholm: %q", errs[0].Valid)
	}
	if e := parseErr(st, a1[0]+"\n"+a2[0]); len(e) != 0 {
		t.Fatalf("the hinted landings %q, %q: %v", a1[0], a2[0], e)
	}
	for _, bad := range []string{"land Amph1 R18\nland Amph2 Q18", "land Amph1 U5\nland Amph2 Q18", "move Amph1 Q18\nland Amph2 Q18"} {
		var on1 *engine.LineError
		for _, x := range parseErr(st, bad) {
			if x.Line == 1 && x.Rule == "26A" {
				on1 = &x
			}
		}
		if on1 == nil {
			t.Fatalf("%q: no 26A error on line 1: %v", bad, parseErr(st, bad))
		}
		fixed := hintOrders(t, *on1, "land")[0]
		if e := parseErr(st, fixed+"\nland Amph2 Q18"); len(e) != 0 {
			t.Errorf("%q hints %q, refused: %v", bad, fixed, e)
		}
	}
	e := parseErr(st, "land Amph1 Q18\nland Amph2 Q18\ndrop Para1 U5")
	if len(e) != 1 || e[0].Rule != "25C" || e[0].Line != 3 {
		t.Fatalf("a drop in Norway: %v", e)
	}
	for _, d := range hintOrders(t, e[0], "drop") {
		if e := parseErr(st, "land Amph1 Q18\nland Amph2 Q18\n"+d); len(e) != 0 {
			t.Errorf("hinted %q, refused: %v", d, e)
		}
	}
}

// 26A: "the Allied player rolls two dice at the start of the German Jul I
// 43 turn. On a roll of 9 or greater, elements of the Swedish navy break
// out into the Baltic Sea. If this occurs, the Allied player makes a
// subsequent roll for each German regiment of the amphibious force as it
// is placed in a Swedish coastal hex. On a roll of 6, the unit is
// eliminated." From revision 3 the two dice are rolled as that turn opens:
// in Objective: Sweden the German moves first (30), so at the end of the
// German set-up, and the German's report that asks for his Jul I orders
// states the result. Worked by hand: 4+5 = 9, the navy is out; the German
// then lands Amph1 at Q18 and Amph2 at Norrkoping, rolling 5 (Amph1
// lands) and 6 (Amph2 is eliminated), and his movement phase asks for no
// breakout dice. 4+4 = 8: it stays bottled up, and no landing roll is
// made.
func TestRule26A_BreakoutRolledAsTheGermanTurnOpens(t *testing.T) {
	for _, tc := range []struct {
		dice   []int
		out    bool
		report string
	}{
		{[]int{4, 5}, true, "Swedish navy breakout roll 9: elements of the Swedish navy break out into the Baltic (26A)"},
		{[]int{4, 4}, false, "Swedish navy breakout roll 8: the Swedish navy stays bottled up (26A)"},
	} {
		s, err := Ruleset{}.New(engine.Setup{Scenario: "objective"}, nullDice{})
		if err != nil {
			t.Fatal(err)
		}
		st := resolve(t, s.(*State), "", nullDice{}) // the Allied set-up
		if st.Board.NavyOut || logHas(st, "breakout") {
			t.Fatal("the breakout was rolled before the German set-up")
		}
		d := &seqDice{vals: tc.dice}
		st = resolve(t, st, "", d) // the German set-up; Jul I opens
		if ph := phaseOf(st); ph.ID != "T1-german-move" || !slices.Equal(d.whys, []string{"Swedish navy breakout (26A)", "Swedish navy breakout (26A)"}) {
			t.Fatalf("%v: phase %s, rolls %q; want the German Jul I movement open, two breakout dice rolled", tc.dice, ph.ID, d.whys)
		}
		if st.Board.NavyOut != tc.out {
			t.Errorf("%v: navy out %v, want %v", tc.dice, st.Board.NavyOut, tc.out)
		}
		report := Ruleset{}.Report(Ruleset{}.View(st, German), German)
		if !strings.Contains(strings.Join(strings.Fields(report), " "), tc.report) {
			t.Errorf("%v: the German's report lacks %q:\n%s", tc.dice, tc.report, report)
		}
		d = &seqDice{vals: []int{5, 6}}
		st = resolve(t, st, "land amph1 Q18\nland amph2 Norrkoping", d)
		for _, why := range d.whys {
			if strings.Contains(why, "breakout") {
				t.Errorf("%v: the movement phase rolled the breakout again: %q", tc.dice, d.whys)
			}
		}
		lost := unit(t, st, "Amph2").Status == Eliminated
		if lost != tc.out || unit(t, st, "Amph1").Status != OnMap {
			t.Errorf("%v: Amph2 lost %v, want %v (rolls %q)", tc.dice, lost, tc.out, d.whys)
		}
	}
}

// 33A1 (ULTRA): the navy breaks out on 6 or more. The Allied player turn
// is first in that scenario, so the German Jul I turn opens as the Allied
// exploitation phase resolves: its dice, 3+3 = 6, break the navy out, and
// the German reads it in his report.
func TestRule26A_BreakoutInUltraRolledAfterTheAlliedTurn(t *testing.T) {
	st := newGame(t, "ultra")
	for k := 0; k < 2; k++ {
		st = resolve(t, st, "", nullDice{}) // Allied movement, combat
	}
	if st.Board.NavyOut || logHas(st, "breakout") {
		t.Fatal("the breakout was rolled before the German turn")
	}
	st = resolve(t, st, "", &seqDice{vals: []int{3, 3}}) // Allied exploitation
	if ph := phaseOf(st); ph.ID != "T1-german-move" || !st.Board.NavyOut {
		t.Fatalf("phase %s, navy out %v; want the German Jul I movement open, the navy out", ph.ID, st.Board.NavyOut)
	}
	report := Ruleset{}.Report(Ruleset{}.View(st, German), German)
	if want := "Swedish navy breakout roll 6: elements of the Swedish navy break out into the Baltic (26A)"; !strings.Contains(strings.Join(strings.Fields(report), " "), want) {
		t.Errorf("the German's report lacks %q:\n%s", want, report)
	}
}

// Revision 2 games keep the old timing: nothing is rolled as the German
// turn opens; the movement phase's resolution rolls the breakout first.
func TestRule26A_Revision2RollsTheBreakoutInTheMovementPhase(t *testing.T) {
	s, err := Ruleset{}.New(engine.Setup{Scenario: "objective", Revision: 2}, nullDice{})
	if err != nil {
		t.Fatal(err)
	}
	st := resolve(t, s.(*State), "", nullDice{})
	d := &seqDice{}
	st = resolve(t, st, "", d)
	if len(d.whys) != 0 || logHas(st, "breakout") {
		t.Fatalf("revision 2 rolled %q as the German turn opened", d.whys)
	}
	d = &seqDice{vals: []int{4, 5, 5, 6}}
	st = resolve(t, st, "land amph1 Q18\nland amph2 Norrkoping", d)
	if len(d.whys) != 4 || d.whys[0] != "Swedish navy breakout (26A)" || !st.Board.NavyOut {
		t.Fatalf("revision 2 movement rolls %q, navy out %v", d.whys, st.Board.NavyOut)
	}
}

// A missing amphibious landing is an error of the orders as a whole: it
// names no line ("line 0" before).
func TestRule26A_MissingLandingNamesNoLine(t *testing.T) {
	errs := parseErr(newGame(t, "objective"), "land amph1 Q18")
	if len(errs) != 1 || errs[0].Rule != "26A" {
		t.Fatalf("%v", errs)
	}
	if got := errs[0].Error(); strings.Contains(got, "line 0") || !strings.HasPrefix(got, "the orders as a whole: Amph2 must land this phase") {
		t.Errorf("error reads %q", got)
	}
}
