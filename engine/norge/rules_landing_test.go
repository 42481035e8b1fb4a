package norge

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// freshRev is a new game of the given rules revision after the German
// set-up, at the turn-1 air phase.
func freshRev(t *testing.T, rev int) *State {
	t.Helper()
	st, err := Ruleset{}.New(engine.Setup{Revision: rev}, engine.NewManualDice())
	if err != nil {
		t.Fatal(err)
	}
	return run(t, st.(*State), German, "")
}

// toTurnOneLandings plays a fresh game to the German land phase of turn 1
// (weather of turn 2 fair: dice 1, 1).
func toTurnOneLandings(t *testing.T, rev int) *State {
	t.Helper()
	s := freshRev(t, rev)
	s = run(t, s, German, "", 1, 1) // German air phase: weather for turn 2
	s = run(t, s, Allied, "")       // Allied air
	s = run(t, s, German, "")       // German naval
	s = run(t, s, Allied, "")       // Allied naval
	if PhaseOf(s).ID != "T01-land-german" {
		t.Fatalf("at %s", PhaseOf(s).ID)
	}
	return s
}

// 12.2: "a die roll of 1-5 is a success and a 6 a fail (Oslo: 5-6). If
// successful the units may be placed on the port hex itself. If the
// attempt fails, the naval unit and units on the quays hex are reduced."
// The rolls, in the order of the battleships (Bluecher at Oslo,
// Karlsruhe at Kristiansand, Koeln at Bergen, Hipper at Trondheim,
// Heidkamp at Narvik): 5 (Oslo: fails), 5 (succeeds), 6 (fails), 1, 2.
func TestRule12_2_TurnOneLandings(t *testing.T) {
	before := toTurnOneLandings(t, 0)
	// The landings of turn 1 are made by themselves: an order for one is
	// refused (it used to be cancelled later blaming 11.4).
	parseErr(t, before, German, "disembark Bluecher", "12.2")
	s := run(t, before, German, "", 5, 5, 6, 1, 2)
	bl, ir := s.ship("Bluecher"), s.unit("IR307")
	if !bl.Reduced || !ir.Reduced || ir.Loc != "B:F3" || ir.Landed != 1 || len(bl.Cargo) != 0 || strings.Join(bl.Ashore, " ") != "IR307" {
		t.Fatalf("Oslo on a 5: Bluecher reduced %v cargo %v ashore %v; IR307 at %s reduced %v; want both reduced, IR307 on the quays B:F3", bl.Reduced, bl.Cargo, bl.Ashore, ir.Loc, ir.Reduced)
	}
	if s.controller("Oslo") != Allied {
		t.Fatal("a failed landing takes no port")
	}
	if s.unit("IR310").Loc != "K:B2" || s.controller("Kristiansand") != German || s.unit("IR310").Reduced {
		t.Fatal("Kristiansand on a 5 succeeds: troops on the port hex")
	}
	if !s.ship("Koeln").Reduced || s.unit("IR159").Loc != "C:C2" || !s.unit("IR159").Reduced || s.controller("Bergen") != Allied {
		t.Fatal("Bergen on a 6 fails: Koeln and IR159 reduced, IR159 on the quays C:C2")
	}
	if s.controller("Trondheim") != German || s.controller("Narvik") != German {
		t.Fatal("Trondheim on a 1 and Narvik on a 2 succeed")
	}
	if len(s.PortUse) != 0 || hasLog(s, "11.4") {
		t.Fatalf("battleships' landings are no convoy's use of a port (11.4): %v", s.PortUse)
	}
	// "Next turn they may try again": Oslo on a 4 succeeds, the troops go
	// from the quays into the port.
	s.Turn, s.Step = 2, StepLandGerman
	s2 := run(t, s, German, "disembark Bluecher", 4)
	if ir := s2.unit("IR307"); ir.Loc != "B:E3" || ir.Landed != 2 || s2.controller("Oslo") != German || len(s2.ship("Bluecher").Ashore) != 0 {
		t.Fatalf("second try at Oslo on a 4: IR307 at %s landed %d, Oslo %s", ir.Loc, ir.Landed, s2.controller("Oslo"))
	}
	// On a 5 it fails again: the reduced Bluecher is sunk and the reduced
	// IR307 eliminated (a reduced unit reduced again, 10.8).
	s2 = run(t, s, German, "disembark Bluecher", 5)
	if !s2.ship("Bluecher").Sunk || s2.unit("IR307").Loc != LocElim {
		t.Fatal("a second failure sinks the reduced battleship and eliminates the reduced troops")
	}
	// A convoy may use the port in the same turn (11.4 limits convoys):
	// after the 4 Oslo is German, so GC1 lands without a roll (12.5).
	s.German = append(s.German, "Aalborg")
	sail(s, "GC1", "Oslo")
	s.ship("GC1").Cargo = []string{"IR236"}
	put(s, "IR236", "ship:GC1")
	s2 = run(t, s, German, "disembark Bluecher\ndisembark GC1", 4)
	if s2.unit("IR236").Loc != "B:F3" || strings.Join(s2.PortUse, " ") != "2:Oslo" {
		t.Fatalf("the convoy after the battleship: IR236 at %s, port use %v", s2.unit("IR236").Loc, s2.PortUse)
	}
}

// 12.2: "Next turn they may try again, but only if no enemy units have
// occupied the port. If this is the case the reduced battleship embarks
// the reduced units on the quays and may sail for another non enemy
// occupied port on the map or return home."
func TestRule12_2_ReembarkWhenTheEnemyHoldsThePort(t *testing.T) {
	s := run(t, toTurnOneLandings(t, 0), German, "", 5, 1, 1, 1, 1) // only Oslo fails
	s.Turn, s.Step = 2, StepLandGerman
	parseErr(t, s, German, "embark Bluecher IR307", "12.2") // Oslo is not the enemy's: try again instead
	put(s, "NIR2", "B:E3")
	parseErr(t, s, German, "disembark Bluecher", "12.4")
	put(s, "Pi163", "B:F3")
	parseErr(t, s, German, "embark Bluecher IR307 Pi163", "12.2") // not of its landing
	s = run(t, s, German, "embark Bluecher IR307")
	if s.unit("IR307").Loc != "ship:Bluecher" || len(s.ship("Bluecher").Ashore) != 0 {
		t.Fatal("the battleship takes its troops back")
	}
	// It sails to Halden, 4 + 3 + 1 = 8 MF (8.5), and lands there on turn
	// 3: a 2 succeeds (1-5).
	s.Turn, s.Step = 3, StepNavalGerman
	setWeather(s, 3, "fair", "fair")
	s = run(t, s, German, "move Bluecher OsloFjord Skagerrak2 Halden")
	if s.ship("Bluecher").Loc != "Halden" {
		t.Fatalf("Bluecher at %s", s.ship("Bluecher").Loc)
	}
	s.Step = StepLandGerman
	s = run(t, s, German, "disembark Bluecher", 2)
	if s.unit("IR307").Loc != "H:B2" || s.controller("Halden") != German {
		t.Fatalf("the landing at Halden: IR307 at %s", s.unit("IR307").Loc)
	}
}

// Revision 1 kept its troops aboard after a failed landing, counted a
// battleship's landing as the port's convoy of 11.4 and accepted an order
// for a turn-1 landing (cancelled in resolution): games of revision 1
// still play so.
func TestRule12_2_Revision1KeepsFailedTroopsAboard(t *testing.T) {
	before := toTurnOneLandings(t, 1)
	s := run(t, before, German, "disembark Bluecher", 5, 5, 6, 1, 2)
	if !s.ship("Bluecher").Reduced || !s.unit("IR307").Reduced || s.unit("IR307").Loc != "ship:Bluecher" {
		t.Fatal("revision 1: Oslo on a 5 keeps the reduced troops aboard")
	}
	mustLog(t, s, "disembark Bluecher cancelled: a convoy has already used Oslo this turn (11.4)")
	if !s.ship("Koeln").Reduced || s.controller("Bergen") != Allied || s.unit("IR310").Loc != "K:B2" {
		t.Fatal("revision 1: Bergen fails, Kristiansand succeeds")
	}
	s.Turn, s.Step = 2, StepLandGerman
	s2 := run(t, s, German, "disembark Bluecher", 4)
	if s2.unit("IR307").Loc != "B:E3" || s2.controller("Oslo") != German {
		t.Fatal("revision 1: second try at Oslo on a 4")
	}
	put(s, "NIR2", "B:E3")
	parseErr(t, s, German, "disembark Bluecher", "12.4")
	s.Step = StepNavalGerman
	sail(s, "Bluecher", "G1")
	s3 := run(t, s, German, "move Bluecher off")
	if s3.unit("IR307").Loc != LocReserve {
		t.Fatal("troops home with their battleship go into reserve")
	}
	s.ship("Bluecher").Exited = 1
	sail(s, "Bluecher", "Oslo")
	s.Step = StepLandGerman
	put(s, "NIR2", LocReserve)
	parseErr(t, s, German, "disembark Bluecher", "12.2")
}

// 12.3: "Disembarkation for convoys in non-enemy occupied ports is
// successful on a die roll of 1-3. On a 4-6 the convoy and disembarking
// units are reduced. Same rules as for battleships above": the troops of
// a failed landing are on the quays hex, reduced.
func TestRule12_3_ConvoyLanding(t *testing.T) {
	for _, rev := range []int{0, 1} {
		for _, c := range []struct {
			die int
			ok  bool
		}{{3, true}, {4, false}} {
			s := naval2(t, StepLandGerman)
			if rev == 1 {
				s.Revision = 0
			}
			sail(s, "GC1", "Bergen")
			s.ship("GC1").Cargo = []string{"IR236"}
			put(s, "IR236", "ship:GC1")
			s = run(t, s, German, "disembark GC1", c.die)
			u := s.unit("IR236")
			switch {
			case c.ok && u.Loc != "C:C2":
				t.Fatalf("revision %d, die %d: IR236 at %s, want the quays C:C2", rev, c.die, u.Loc)
			case c.ok:
			case !s.ship("GC1").Reduced || !u.Reduced:
				t.Fatalf("revision %d, die %d must reduce convoy and troops", rev, c.die)
			case rev == 0 && (u.Loc != "C:C2" || u.Landed != 2):
				t.Fatalf("die %d: IR236 at %s, want on the quays C:C2", c.die, u.Loc)
			case rev == 1 && u.Loc != "ship:GC1":
				t.Fatalf("revision 1, die %d: IR236 at %s, want aboard", c.die, u.Loc)
			}
		}
	}
}

// 12.1, 16.1: disembarking units are placed on the quays hex, and enemies
// never share a hex: no landing where the enemy holds the quays (from
// revision 2).
func TestRule12_1_NoLandingOntoEnemyQuays(t *testing.T) {
	s := naval2(t, StepLandGerman)
	sail(s, "GC1", "Bergen")
	s.ship("GC1").Cargo = []string{"IR236"}
	put(s, "IR236", "ship:GC1")
	put(s, "NIR10", "C:C2")
	parseErr(t, s, German, "disembark GC1", "12.1")
	s.Revision = 0
	parseOK(t, s, German, "disembark GC1")
}

// 12.5: "Disembarkation in own controlled ports is always successful",
// for a battleship's landing too (from revision 2): no die, the troops on
// the port hex.
func TestRule12_5_OwnPort(t *testing.T) {
	s := naval2(t, StepLandGerman)
	s.German = append(s.German, "Oslo")
	sail(s, "GC1", "Oslo")
	s.ship("GC1").Cargo = []string{"IR236"}
	put(s, "IR236", "ship:GC1")
	s2 := run(t, s, German, "disembark GC1") // no die
	if s2.unit("IR236").Loc != "B:F3" {
		t.Fatal("landing in an own port always succeeds")
	}
	s.German = append(s.German, "Bergen")
	sail(s, "Koeln", "Bergen")
	s.ship("Koeln").Cargo = []string{"IR159"}
	put(s, "IR159", "ship:Koeln")
	s2 = run(t, s, German, "disembark Koeln") // no die
	if s2.unit("IR159").Loc != "C:D2" {
		t.Fatalf("a battleship's landing in an own port: IR159 at %s", s2.unit("IR159").Loc)
	}
}

// 12.7: "Units may defend themselves, but NOT be moved or attack in the
// turn they have disembarked": an order for a unit still aboard, landing
// this turn, cites 12.7 (not 14.3), and names units that may move.
func TestRule12_7_LandingUnitsCiteTheRule(t *testing.T) {
	s := toTurnOneLandings(t, 0)
	e := parseErr(t, s, German, "move IR307 B:F4", "12.7")
	if !strings.Contains(e.Valid, "FJ2") || strings.Contains(e.Valid, "IR307") {
		t.Errorf("the hint names units that may move: %q", e.Valid)
	}
	parseErr(t, s, German, "attack B:E4 with IR307 FJ2", "12.7")
	c := naval2(t, StepLandGerman)
	sail(c, "GC1", "Bergen")
	c.ship("GC1").Cargo = []string{"IR236"}
	put(c, "IR236", "ship:GC1")
	put(c, "NIR10", "C:C3")
	parseErr(t, c, German, "move IR236 C:B3\ndisembark GC1", "12.7")
	parseErr(t, c, German, "disembark GC1\nattack C:C3 with IR236", "12.7")
}

// The order form of the land phase says what a failed landing's troops may
// do, in orders the phase accepts (12.2).
func TestRule12_2_OrderFormOffersTheRetry(t *testing.T) {
	s := run(t, toTurnOneLandings(t, 0), German, "", 5, 1, 1, 1, 1) // only Oslo fails
	s.Turn, s.Step = 2, StepLandGerman
	form := Ruleset{}.OrderForm(Ruleset{}.View(s, German), German)
	if !strings.Contains(form, "disembark Bluecher (12.2)") {
		t.Fatalf("the form does not offer the retry:\n%s", form)
	}
	parseOK(t, s, German, "disembark Bluecher")
	put(s, "NIR2", "B:E3")
	form = Ruleset{}.OrderForm(Ruleset{}.View(s, German), German)
	if !strings.Contains(form, "embark Bluecher IR307 (12.2)") {
		t.Fatalf("the form does not offer the embarkation:\n%s", form)
	}
	parseOK(t, s, German, "embark Bluecher IR307")
}

// 12.2: "Next turn they may try again"; 12.7: units "may defend
// themselves, but NOT be moved or attack in the turn they have
// disembarked". A battleship's new landing takes the troops of its failed
// one from the quays into the port this turn: they are landing units, and
// should the landing fail they are reduced again, which eliminates them
// (reduced already). So no move or attack of theirs in the same orders can
// stand, whatever the order of the lines; both used to be accepted and
// then cancelled.
//
// Turn 1, dice 1 6 1 1 1: Karlsruhe fails at Kristiansand (6), and IR310
// is on the quays K:B3, reduced (1 CF). On turn 2, without a new landing,
// IR310 may move to K:B4 (1 MF; its 4 MF less 1 off the roads is 3) or
// attack NIR3 on K:C3: 1 to 2, column 1:2 (NIR3 is the only enemy next to
// K:B3 and is attacked; no aircraft reach a mini map).
func TestRule12_7_RetriedLandingsTroopsNeitherMoveNorAttack(t *testing.T) {
	s := run(t, toTurnOneLandings(t, 0), German, "", 1, 6, 1, 1, 1)
	if u := s.unit("IR310"); u.Loc != "K:B3" || !u.Reduced {
		t.Fatalf("IR310 at %s reduced %v, want on the quays K:B3, reduced", u.Loc, u.Reduced)
	}
	s.Turn, s.Step = 2, StepLandGerman
	parseOK(t, s, German, "move IR310 K:B4")
	parseOK(t, s, German, "attack K:C3 with IR310")
	parseOK(t, s, German, "disembark Karlsruhe")
	for _, text := range []string{
		"disembark Karlsruhe\nmove IR310 K:B4",
		"move IR310 K:B4\ndisembark Karlsruhe",
		"disembark Karlsruhe\nattack K:C3 with IR310",
		"attack K:C3 with IR310\ndisembark Karlsruhe",
	} {
		e := parseErr(t, s, German, text, "12.7")
		want := 2
		if !strings.HasPrefix(text, "disembark") {
			want = 1
		}
		if e.Line != want || !strings.Contains(e.Msg, "new landing of Karlsruhe") || strings.Contains(e.Valid, "IR310") || !strings.Contains(e.Valid, "FJ1") {
			t.Errorf("%q: line %d, %q, valid %q; want line %d, the landing named, IR310 not among the units that may move", text, e.Line, e.Msg, e.Valid, want)
		}
	}
}

// 12.2: "If this is the case the reduced battleship embarks the reduced
// units on the quays": the log cites that rule for taking a failed
// landing's troops back aboard, not 12.8 (convoys embarking troops).
func TestRule12_2_ReembarkationCitesTheRule(t *testing.T) {
	s := run(t, toTurnOneLandings(t, 0), German, "", 5, 1, 1, 1, 1) // Oslo fails
	s.Turn, s.Step = 2, StepLandGerman
	put(s, "NIR2", "B:E3")
	s = run(t, s, German, "embark Bluecher IR307")
	mustLog(t, s, "Bluecher embarks IR307 at Oslo (12.2)")
}
