package sweden43

import (
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
