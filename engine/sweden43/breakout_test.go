package sweden43

import (
	"slices"
	"strings"
	"testing"

	"skagerrak/engine"
)

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
