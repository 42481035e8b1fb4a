package norge

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// naval2 is turn 2 with fair weather, at the given phase.
func naval2(t *testing.T, step int) *State {
	s := bare(t, step)
	s.Turn = 2
	setWeather(s, 2, "fair", "fair")
	return s
}

func TestRule10_1_FjordsAndPorts(t *testing.T) {
	if _, pr := findNode("Arendal"); pr == nil {
		t.Fatal("Arendal is a land hex no ship may enter")
	}
	s := naval2(t, StepLandGerman)
	sail(s, "GC1", "ArendalFjord")
	s.ship("GC1").Cargo = []string{"IR236"}
	put(s, "IR236", "ship:GC1")
	if p, pr := landingPort(s, s.ship("GC1")); pr != nil || p.Name != "Arendal" {
		t.Fatalf("Arendal is served from its fjord hex: %v %v", p, pr)
	}
	// Bergen, a port in a fjord hex, is entered straight from two sea hexes
	if !seaGraph.Adjacent("North3", "Bergen") || !seaGraph.Adjacent("North4", "Bergen") {
		t.Fatal("Bergen")
	}
}

func TestRule10_3_NavalStacking(t *testing.T) {
	s := naval2(t, StepNavalAllied)
	sail(s, "AC1", "Norw1")
	sail(s, "AC2", "Norw1")
	if stackOK(s, "Norw1", Allied) {
		t.Fatal("two convoys at sea without a battleship")
	}
	sail(s, "Renown", "Norw1")
	if stackOK(s, "Norw1", Allied) {
		t.Fatal("three units at sea")
	}
	sail(s, "AC2", "")
	if !stackOK(s, "Norw1", Allied) {
		t.Fatal("a battleship escorting a convoy")
	}
	sail(s, "Renown", "RomsdalFjord")
	sail(s, "Warspite", "RomsdalFjord")
	if stackOK(s, "RomsdalFjord", Allied) {
		t.Fatal("two units in a fjord")
	}
	sail(s, "Warspite", "")
	sail(s, "Renown", "")
	// a move that would overstack stops at the last legal hex
	s2 := run(t, s, Allied, "move AC2 B2 Norw1")
	if s2.ship("AC2").Loc != "B2" {
		t.Fatalf("AC2 ended at %s", s2.ship("AC2").Loc)
	}
}

func TestRule10_5_OnlyBattleshipsAttack(t *testing.T) {
	s := naval2(t, StepNavalAllied)
	sail(s, "GC1", "Norw2")
	sail(s, "AC1", "Norw1")
	sail(s, "Glorious", "B2")
	s2 := run(t, s, Allied, "move AC1 Norw2\nmove Glorious Norw2")
	if hasLog(s2, "naval combat") || s2.ship("AC1").Loc != "Norw1" || s2.ship("Glorious").Loc != "B2" {
		t.Fatal("convoys and carriers neither attack nor stop with the enemy")
	}
	sail(s, "Renown", "Norw1")
	s.ship("AC1").Loc = ""
	s3 := run(t, s, Allied, "move Renown Norw2", 3)
	mustLog(t, s3, "naval combat at Norw2")
}

func TestRule10_7_SetUpBattleshipsMustGoHome(t *testing.T) {
	s := naval2(t, StepNavalGerman)
	sail(s, "Hipper", "Norw2")
	s.ship("Hipper").Restricted = true
	sail(s, "AC1", "Norw3")
	s2 := run(t, s, German, "move Hipper Norw3")
	if hasLog(s2, "naval combat") || s2.ship("Hipper").Loc != "Norw2" {
		t.Fatal("a set-up battleship attacked before going home")
	}
	// home: off the board on turn 2, a whole turn off (3), back on turn 4
	sail(s, "Hipper", "G1")
	s2 = run(t, s, German, "move Hipper off")
	if s2.ship("Hipper").Exited != 2 {
		t.Fatal("Hipper did not leave")
	}
	s2.Turn, s2.Step = 3, StepNavalGerman
	setWeather(s2, 3, "fair", "fair")
	parseErr(t, s2, German, "move Hipper G1", "10.7")
	s2.Turn = 4
	setWeather(s2, 4, "fair", "fair")
	s3 := run(t, s2, German, "move Hipper G1")
	if s3.ship("Hipper").Restricted {
		t.Fatal("Hipper still restricted after coming back")
	}
}

func TestRule10_8_NavalCombat(t *testing.T) {
	s := naval2(t, StepNavalAllied)
	sail(s, "GC1", "North2")
	s.ship("GC1").Cargo = []string{"IR236"}
	put(s, "IR236", "ship:GC1")
	sail(s, "Renown", "North3")
	// 5 to 1: the 4:1 column (the last); die 1: De
	s2 := run(t, s, Allied, "move Renown North2", 1)
	mustLog(t, s2, "5 to 1, column 4:1, die 1: De")
	if !s2.ship("GC1").Sunk || s2.unit("IR236").Loc != LocElim {
		t.Fatal("a sunk convoy takes its troops with it")
	}
	// below 1:2: no attack
	s = naval2(t, StepNavalAllied)
	sail(s, "Bluecher", "North2")
	sail(s, "Karlsruhe", "North2")
	sail(s, "Renown", "North3")
	s.ship("Renown").Reduced = true
	s2 = run(t, s, Allied, "move Renown North2")
	mustLog(t, s2, "below 1:2")
	// Ar: the attacker is reduced
	s = naval2(t, StepNavalAllied)
	sail(s, "Bluecher", "North2")
	sail(s, "Renown", "North3")
	s2 = run(t, s, Allied, "move Renown North2", 6)
	mustLog(t, s2, "column 1:1, die 6: Ar")
	if !s2.ship("Renown").Reduced || s2.ship("Bluecher").Reduced {
		t.Fatal("Ar reduces the attacker")
	}
}

func TestRule10_8_ConvoyCargoShares(t *testing.T) {
	s := naval2(t, StepNavalAllied)
	sail(s, "GC1", "North2")
	s.ship("GC1").Cargo = []string{"IR236", "IR334"}
	put(s, "IR236", "ship:GC1")
	put(s, "IR334", "ship:GC1")
	s.unit("IR334").Reduced = true
	sail(s, "Renown", "North3")
	s2 := run(t, s, Allied, "move Renown North2", 3) // 4:1, die 3: Dr
	if !s2.ship("GC1").Reduced || !s2.unit("IR236").Reduced || s2.unit("IR334").Loc != LocElim {
		t.Fatal("a damaged convoy reduces its troops; a reduced unit is eliminated")
	}
	if strings.Contains(viewJSON(t, s2, Allied), "IR236") {
		t.Fatal("the Allies learn the convoy's contents")
	}
}

func TestRule10_9_DefensiveCombat(t *testing.T) {
	s := naval2(t, StepNavalAllied)
	sail(s, "Bluecher", "North2")
	sail(s, "AC1", "North3")
	s2 := run(t, s, Allied, "move AC1 North2 North1", 1) // 4 to 1, die 1: De
	mustLog(t, s2, "defensive fire at North2 on AC1")
	if !s2.ship("AC1").Sunk {
		t.Fatal("the convoy was not sunk passing the battleship")
	}
	// declined
	s.NoIntercept = []engine.Side{German}
	s2 = run(t, s, Allied, "move AC1 North2 North1")
	if s2.ship("AC1").Loc != "North1" {
		t.Fatal("intercept off")
	}
	s.NoIntercept = nil
	// negated: a battleship moves in first
	sail(s, "Renown", "North3")
	s2 = run(t, s, Allied, "move Renown North2\nmove AC1 North2 North1", 4) // Renown's attack: 1:1, die 4: N
	if s2.ship("AC1").Loc != "North1" || hasLog(s2, "defensive fire") {
		t.Fatal("defensive fire not negated")
	}
	// adverse results are ignored
	s = naval2(t, StepNavalAllied)
	sail(s, "Bluecher", "North2")
	s.ship("Bluecher").Reduced = true
	sail(s, "AC1", "North3")
	s2 = run(t, s, Allied, "move AC1 North2 North1", 6) // 2 to 1, die 6: Ar, ignored
	if s2.ship("Bluecher").Sunk || s2.ship("AC1").Loc != "North1" {
		t.Fatal("Ar in defensive combat must be ignored")
	}
}

func TestRule11_1_ConvoyCapacity(t *testing.T) {
	s := bare(t, StepNavalGerman)
	parseErr(t, s, German, "load GC1 IR236 IR334 IR359 Pi163", "11.1")
	parseOK(t, s, German, "load GC1 IR236 IR334 Pi163 Pi169 Pi181")
	// 11.1's correction: the British 4th and 15th are brigades of 2 regiments
	s.Step = StepNavalAllied
	parseErr(t, s, Allied, "load AC1 B4 B15", "11.1")
	parseOK(t, s, Allied, "load AC1 4Bde 24gds")
	s.Step = StepNavalGerman
	put(s, "IR307", "B:E3")
	parseErr(t, s, German, "load GC1 IR307", "11.1")
}

func TestRule11_2_MergeConvoys(t *testing.T) {
	s := naval2(t, StepNavalGerman)
	parseErr(t, s, German, "merge GC1 GC2", "11.2")
	s.ship("GC1").Reduced = true
	s.ship("GC2").Reduced = true
	parseErr(t, s, German, "load GC1 IR236", "11.1")
	s2 := run(t, s, German, "merge GC1 GC2")
	if s2.ship("GC1").Reduced || !s2.ship("GC2").Scrapped {
		t.Fatal("merge")
	}
	if strings.Contains(viewJSON(t, s2, Allied), `"scrapped"`) {
		t.Fatal("the merge is seen by the Allies")
	}
}

func TestRule11_3_LoadTurn(t *testing.T) {
	s := naval2(t, StepNavalGerman)
	s.ship("GC1").Exited = 2
	parseErr(t, s, German, "load GC1 IR236", "11.3")
	s.ship("GC1").Exited = 0
	parseErr(t, s, German, "load GC2 IR236\nmove GC2 G1", "11.3")
	parseErr(t, s, German, "move GC2 G1\nload GC2 IR236", "11.3")
	s2 := run(t, s, German, "load GC2 IR236")
	if canEnter(s2, s2.ship("GC2")) == nil {
		t.Fatal("a convoy loaded this turn may sail at once")
	}
	s2.Turn, s2.Step = 3, StepNavalGerman
	setWeather(s2, 3, "fair", "fair")
	s3 := run(t, s2, German, "move GC2 G1")
	if s3.ship("GC2").Loc != "G1" {
		t.Fatal("the loaded convoy enters the next turn")
	}
}

func TestRule11_4_OneConvoyPerPort(t *testing.T) {
	s := naval2(t, StepLandGerman)
	s.German = append(s.German, "Oslo")
	sail(s, "GC1", "Oslo")
	s.ship("GC1").Cargo = []string{"IR236"}
	put(s, "IR236", "ship:GC1")
	s2 := run(t, s, German, "disembark GC1")
	if !containsStr(s2.PortUse, "2:Oslo") {
		t.Fatal(s2.PortUse)
	}
	s.PortUse = []string{"2:Oslo"}
	parseErr(t, s, German, "disembark GC1", "11.4")
}

func TestRule12_1_Quays(t *testing.T) {
	s := naval2(t, StepLandAllied)
	sail(s, "AC1", "NamsFjord")
	s.ship("AC1").Cargo = []string{"B24"}
	put(s, "B24", "ship:AC1")
	s2 := run(t, s, Allied, "disembark AC1")
	if s2.unit("B24").Loc != "E:B3" {
		t.Fatalf("B24 at %s, want the Namsos quays E:B3", s2.unit("B24").Loc)
	}
}

func TestRule12_4_EnemyOccupiedPort(t *testing.T) {
	s := naval2(t, StepLandGerman)
	sail(s, "GC1", "Bergen")
	s.ship("GC1").Cargo = []string{"IR236"}
	put(s, "IR236", "ship:GC1")
	put(s, "NIR9", "C:D2")
	parseErr(t, s, German, "disembark GC1", "12.4")
}

func TestRule12_6_Overstack(t *testing.T) {
	s := naval2(t, StepLandGerman)
	s.German = append(s.German, "Oslo")
	put(s, "IR334", "B:F3")
	put(s, "IR359", "B:F3")
	sail(s, "GC1", "Oslo")
	s.ship("GC1").Cargo = []string{"IR236", "Pi163", "Pi169"}
	for _, id := range s.ship("GC1").Cargo {
		put(s, id, "ship:GC1")
	}
	s2 := run(t, s, German, "disembark GC1")
	if s2.stackThirds("B:F3", German) != 9 || s2.unit("Pi163").Loc != LocElim || s2.unit("Pi169").Loc != LocElim {
		t.Fatal("overstacked units are eliminated, weakest first")
	}
	s3 := run(t, s, German, "disembark GC1\nmove IR334 B:F4")
	if s3.unit("Pi163").Loc == LocElim {
		t.Fatal("moving out avoids the elimination")
	}
}

func TestRule12_7_LandedUnitsWait(t *testing.T) {
	s := naval2(t, StepLandGerman)
	put(s, "IR236", "C:C2")
	s.unit("IR236").Landed = 2
	put(s, "NIR9", "C:C3")
	parseErr(t, s, German, "move IR236 C:B3", "12.7")
	parseErr(t, s, German, "attack C:C3 with IR236", "12.7")
}

func TestRule12_8_Embark(t *testing.T) {
	s := naval2(t, StepLandGerman)
	s.German = append(s.German, "Oslo")
	sail(s, "GC1", "Oslo")
	put(s, "IR307", "B:E3")
	put(s, "IR310", "B:B3")
	parseErr(t, s, German, "embark GC1 IR310", "12.8")
	s2 := run(t, s, German, "embark GC1 IR307")
	if s2.unit("IR307").Loc != "ship:GC1" {
		t.Fatal("embark")
	}
}

func TestRule17_1_SubmarineAmbush(t *testing.T) {
	s := naval2(t, StepNavalAllied)
	s.ship("U25").Area = 3
	sail(s, "AC1", "North3")
	s2 := run(t, s, Allied, "move AC1 North2", 1) // convoy: 2:1 column, die 1: De
	if !s2.ship("AC1").Sunk {
		t.Fatal("the submarine sank nothing")
	}
	if strings.Contains(viewJSON(t, s2, Allied), "U25") {
		t.Fatal("the attack names the submarine to the Allies")
	}
}

func TestRule10_8_OwnersChoice(t *testing.T) {
	s := naval2(t, StepNavalAllied)
	sail(s, "Bluecher", "North2")
	sail(s, "GC1", "North2")
	sail(s, "Renown", "North3")
	// 5 to 5: column 1:1, die 2: Dr; by default the convoy is given up
	s2 := run(t, s, Allied, "move Renown North2", 2)
	if !s2.ship("GC1").Reduced || s2.ship("Bluecher").Reduced {
		t.Fatal("default choice: the convoy, which costs fewer points")
	}
	s.GermanLosses = []string{"Bluecher"}
	s2 = run(t, s, Allied, "move Renown North2", 2)
	if s2.ship("GC1").Reduced || !s2.ship("Bluecher").Reduced {
		t.Fatal("the German losses order names Bluecher first")
	}
	s.Step = StepNavalGerman
	o := parseOK(t, s, German, "losses GC1 IR307 bluecher")
	if o.List[0].Args[2] != "Bluecher" {
		t.Fatal(o.List[0].Args)
	}
	parseErr(t, s, German, "losses Renown", "10.8")
}

func TestRule12_6_OverstackOwnersChoice(t *testing.T) {
	s := naval2(t, StepLandGerman)
	s.German = append(s.German, "Oslo")
	put(s, "IR334", "B:F3")
	put(s, "IR359", "B:F3")
	sail(s, "GC1", "Oslo")
	s.ship("GC1").Cargo = []string{"IR236", "Pi163", "Pi169"}
	for _, id := range s.ship("GC1").Cargo {
		put(s, id, "ship:GC1")
	}
	s2 := run(t, s, German, "disembark GC1\nlosses IR334")
	if s2.unit("IR334").Loc != LocElim || s2.unit("Pi163").Loc == LocElim || s2.unit("Pi169").Loc == LocElim {
		t.Fatal("the owner's losses order chooses IR334")
	}
}

// 10.2: "Naval units which are entering the map according the calendar
// may start from one of the 2 entrance hexes": a move of an off-board
// convoy that names only where it goes is refused, and the hint is that
// move from each entrance hex where it stands. GC1 from G1 to Stavanger
// costs 6 MF (G1-Skagerrak1-Skagerrak2-Skagerrak3-North1-North2-Stavanger,
// 1 each, 8.5), within a convoy's 10; from G2 it is 5.
func TestRule10_2_OffBoardMoveHintsTheEntrance(t *testing.T) {
	s := naval2(t, StepNavalGerman)
	s.ship("GC1").Cargo = []string{"IR236"}
	put(s, "IR236", "ship:GC1")
	e := parseErr(t, s, German, "move GC1 Stavanger", "10.2")
	if e.Valid != "move GC1 G1 Stavanger; move GC1 G2 Stavanger" {
		t.Fatalf("hint %q", e.Valid)
	}
	for _, o := range strings.Split(e.Valid, "; ") {
		parseOK(t, s, German, o)
	}
}

// 10.8: "Naval combat is executed when battleships are moved to a sea or
// fjord hex with enemy naval units. The ratio between attackers and
// defenders is computed using the sum of attack and defense factors
// present. ... Dr = 1 defending naval unit is reduced, De = 1 defending
// naval unit is sunk. Owner may choose the naval unit which is reduced
// ... or sunk. If a convoy is damaged (reduced) all units on board are
// reduced ... If a convoy is sunk all units on board are eliminated."
//
// Bluecher (4) and the convoy GC1 (1, carrying IR236) are at North2;
// Renown (5) and Warspite (5) come from North3, one after the other.
//
//	Renown enters: 5 to 4 + 1 = 5, 1:1; a 2 is Dr. The German player,
//	with no standing choice, gives up what costs fewest points: GC1 is
//	reduced (1 point against 2 for Bluecher, 2.4), and IR236 with it.
//	Warspite enters: Renown and Warspite present, 10 to 4 + 1 (the
//	reduced convoy's back is 1) = 5, 2:1; a 1 is De: GC1 is sunk
//	(2 points, against 4 for Bluecher) and IR236 eliminated.
//
// The Allies score 2 for the sunk convoy (2.4); Bluecher is untouched.
func TestRule10_8_NavalBattleByHand(t *testing.T) {
	s := naval2(t, StepNavalAllied)
	sail(s, "Bluecher", "North2")
	sail(s, "GC1", "North2")
	s.ship("GC1").Cargo = []string{"IR236"}
	put(s, "IR236", "ship:GC1")
	sail(s, "Renown", "North3")
	sail(s, "Warspite", "North3")
	s = run(t, s, Allied, "move Renown North2\nmove Warspite North2", 2, 1)
	mustLog(t, s, "naval combat at North2: 5 to 5, column 1:1, die 2: Dr (10.8)")
	mustLog(t, s, "naval combat at North2: 10 to 5, column 2:1, die 1: De (10.8)")
	if !s.ship("GC1").Sunk || s.unit("IR236").Loc != LocElim || s.ship("Bluecher").Reduced {
		t.Fatalf("GC1 sunk %v, IR236 at %s, Bluecher reduced %v", s.ship("GC1").Sunk, s.unit("IR236").Loc, s.ship("Bluecher").Reduced)
	}
	if s.ship("Renown").Loc != "North2" || s.ship("Warspite").Loc != "North2" || s.ship("Renown").Reduced {
		t.Error("the attackers stay in North2, unharmed")
	}
	_, a := Scores(s)
	if !containsStr(a.Items, "2 GC1 sunk (2.4)") {
		t.Errorf("Allied points %v, want 2 for GC1 sunk", a.Items)
	}
}
