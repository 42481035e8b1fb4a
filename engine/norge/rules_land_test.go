package norge

import (
	"strings"
	"testing"
)

// land2 is turn 2, fair weather, at a land phase.
func land2(t *testing.T, step int) *State {
	s := bare(t, step)
	s.Turn = 2
	setWeather(s, 2, "fair", "fair")
	return s
}

func TestRule13_1_AirTransport(t *testing.T) {
	s := land2(t, StepLandGerman)
	s.German = []string{"Aalborg", "Sola"}
	s.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "A", Strength: 5}}
	for _, id := range []string{"IR324", "IR193"} {
		s.unit(id).Loc = LocAirlift
	}
	parseErr(t, s, German, "airlift IR324 Sola\nairlift IR193 Sola", "13.1")
	parseErr(t, s, German, "airlift IR236 Sola", "13.1") // not reserved for air transport
	parseErr(t, s, German, "airlift IR324 Aalborg", "13.1")
	s2 := run(t, s, German, "airlift IR324 Sola")
	u := s2.unit("IR324")
	if u.Loc != "A:E2" || u.Landed != 2 || s2.Airlifts != 1 {
		t.Fatalf("IR324 at %s landed %d, airlifts %d", u.Loc, u.Landed, s2.Airlifts)
	}
	// 13.4: flown-in units neither move nor attack that turn
	s2.Step = StepLandGerman
	parseErr(t, s2, German, "move IR324 A:E3", "12.7")
	s.Airlifts = 4
	parseErr(t, s, German, "airlift IR324 Sola", "13.1")
}

func TestRule13_2_MountainRegimentFlown(t *testing.T) {
	s := land2(t, StepLandGerman)
	s.German = []string{"Aalborg", "Sola"}
	s.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "A", Strength: 5}}
	s.unit("GJ137").Loc = LocDrop
	s.Turn = 5
	setWeather(s, 5, "fair", "fair")
	parseErr(t, s, German, "airlift GJ137 Sola", "13.2")
	s.Turn = 6
	setWeather(s, 6, "fair", "fair")
	s2 := run(t, s, German, "airlift 137 sola")
	if s2.unit("GJ137").Loc != "A:E2" || s2.unit("GJ137").Reduced {
		t.Fatal("the mountain regiment flown in, unreduced")
	}
}

func TestRule13_5_AirDrop(t *testing.T) {
	s := land2(t, StepLandGerman)
	s.unit("FJ3").Loc = LocDrop
	s.unit("GJ137").Loc = LocDrop
	s.Turn = 5
	setWeather(s, 5, "fair", "fair")
	parseErr(t, s, German, "drop FJ3 A:D4", "13.5")
	s.Turn = 6
	setWeather(s, 6, "fair", "fair")
	put(s, "NIR8", "A:D3")
	parseErr(t, s, German, "drop FJ3 A:D3", "13.5") // enemy occupied
	parseErr(t, s, German, "drop FJ3 A:E2", "13.5") // enemy-controlled airfield
	s2 := run(t, s, German, "drop FJ3 A:D4\ndrop GJ137 A:E4")
	if s2.unit("FJ3").Loc != "A:D4" || s2.unit("FJ3").Reduced {
		t.Fatal("para drop")
	}
	if !s2.unit("GJ137").Reduced {
		t.Fatal("13.6: the mountain regiment is reduced by the drop")
	}
	s2.Step = StepLandGerman
	parseErr(t, s2, German, "move FJ3 A:C4", "13.7")
	parseOK(t, s2, German, "attack A:D3 with GJ137 FJ3") // 13.7: they may attack
}

func TestRule14_1_Stacking(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "C:E4")
	put(s, "IR310", "C:E4")
	put(s, "IR159", "C:E5")
	put(s, "Pi163", "C:E5")
	parseErr(t, s, German, "move IR159 C:E4\nmove Pi163 C:E4", "14.1")
	parseOK(t, s, German, "move IR159 C:E4\nmove IR310 C:E5")
}

func TestRule14_2_NoLakesNoSeaSides(t *testing.T) {
	s := land2(t, StepLandAllied)
	put(s, "NIR1", "B:C4")
	parseErr(t, s, Allied, "move NIR1 B:C5", "14.2")
	put(s, "NIR2", "B:D2")
	parseErr(t, s, Allied, "move NIR2 B:E3", "14.2")
	put(s, "NIR8", "A:D2")
	parseErr(t, s, Allied, "move NIR8 A:D1", "14.2")
}

func TestRule14_3_MovementCosts(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "A:C3")
	// all major road: 4 + 3 = 7 hexes, to the end of the A-C road
	parseOK(t, s, German, "move IR307 A:D3 A:E3 A:F3 AC:A1 AC:B1 AC:C1 AC:D1")
	// onto a minor road hex the bonus is +2 only: 8 hexes against 6
	parseErr(t, s, German, "move IR307 A:D3 A:E3 A:F3 AC:A1 AC:B1 AC:C1 AC:D1 C:A4", "14.3")
	put(s, "IR307", LocReserve)
	u := &Unit{ID: "NIR8", Side: Allied}
	if c, _ := stepCost(s, u, "A:D2", "A:C2"); c != 2 {
		t.Fatalf("entering a port costs %d, want 2", c)
	}
	if c, _ := stepCost(s, u, "A:D3", "A:D4"); c != 4 {
		t.Fatalf("crossing a river costs %d, want 4", c)
	}
	if c, _ := stepCost(s, u, "A:C3", "A:C4"); c != 1 {
		t.Fatalf("crossing a bridge costs %d, want 1", c)
	}
	s.Blown = []Bridge{{Side: sideKey("A:C3", "A:C4")}}
	if c, _ := stepCost(s, u, "A:C3", "A:C4"); c != 4 {
		t.Fatalf("crossing a blown bridge costs %d, want 4", c)
	}
}

func TestRule14_4_EZOC(t *testing.T) {
	s := land2(t, StepLandAllied)
	put(s, "IR307", "B:C4")
	u := &Unit{ID: "NIR1", Side: Allied}
	if c, _ := stepCost(s, u, "B:B3", "B:B4"); c != 2 {
		t.Fatalf("EZOC to EZOC costs %d, want 2", c)
	}
	if c, _ := stepCost(s, u, "B:B3", "B:B2"); c != 1 {
		t.Fatalf("leaving an EZOC costs %d, want 1", c)
	}
}

func TestRule14_5_NoZOCAcrossRiver(t *testing.T) {
	s := land2(t, StepLandAllied)
	put(s, "IR307", "A:D4")
	if inEZOC(s, "A:D3", Allied) {
		t.Fatal("ZOC across the river D3/D4")
	}
	if !inEZOC(s, "A:C4", Allied) {
		t.Fatal("no ZOC where there is no river")
	}
	put(s, "IR310", "B:D2")
	if inEZOC(s, "B:E3", Allied) {
		t.Fatal("ZOC across the sea hexside D2/E3")
	}
}

func TestRule14_6_Ferry(t *testing.T) {
	s := land2(t, StepLandAllied)
	put(s, "B4", "F:E2")
	put(s, "B24", "F:F1")
	parseErr(t, s, Allied, "ferry B24", "14.6")
	parseErr(t, s, Allied, "ferry B4\nmove B4 F:E3", "14.3")
	s2 := run(t, s, Allied, "ferry 4bde")
	if s2.unit("B4").Loc != "F:E4" {
		t.Fatal("ferry")
	}
	put(s, "GJ139", "F:E4")
	parseErr(t, s, Allied, "ferry B4", "14.6")
}

func TestRule14_7_ArmorOnRoads(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "PZ1", "C:E4")
	parseErr(t, s, German, "move PZ1 C:E5", "14.7")
	put(s, "AR163", "C:E4")
	parseErr(t, s, German, "move AR163 C:E5", "14.7")
	put(s, "GJ136", "C:E4")
	parseOK(t, s, German, "move GJ136 C:E5")
}

func TestRule14_8_OffRoadPenalty(t *testing.T) {
	path := []string{"C:E5", "C:E6"}
	for _, c := range []struct {
		id string
		ma int
	}{{"IR307", 3}, {"GJ136", 4}, {"FJ1", 4}, {"NDR1", 5}} {
		if ma := allowance(&Unit{ID: c.id}, "C:E4", path); ma != c.ma {
			t.Errorf("%s off road: %d MF, want %d", c.id, ma, c.ma)
		}
	}
}

func TestRule15_1_BlowBridge(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "A:D3")
	parseOK(t, s, German, "move IR307 A:C3\nblow A:C4 A:C3")
	s2 := run(t, s, German, "move IR307 A:C3\nblow A:C4 A:C3")
	if !isBlown(s2, sideKey("A:C3", "A:C4")) {
		t.Fatal("bridge not blown")
	}
	put(s, "NIR8", "A:C4")
	s2 = run(t, s, German, "move IR307 A:C3\nblow A:C4 A:C3")
	if isBlown(s2, sideKey("A:C3", "A:C4")) {
		t.Fatal("blown with the enemy across it")
	}
	parseErr(t, s, German, "blow A:D3 A:D4", "15.1") // a river without a bridge
}

func TestRule15_2_Sabotage(t *testing.T) {
	s := land2(t, StepLandAllied)
	s2 := run(t, s, Allied, "sabotage A:B3 A:B4", 4)
	if !isBlown(s2, sideKey("A:B3", "A:B4")) {
		t.Fatal("1-4 blows the bridge")
	}
	s2 = run(t, s, Allied, "sabotage A:B3 A:B4", 5)
	if isBlown(s2, sideKey("A:B3", "A:B4")) {
		t.Fatal("5 fails")
	}
	parseErr(t, s, Allied, "sabotage A:B3 A:B4\nsabotage A:C3 A:C4", "15.2")
	s2.Step = StepLandAllied
	parseErr(t, s2, Allied, "sabotage A:C3 A:C4", "15.2") // tried this turn already
	s.Step = StepLandGerman
	parseErr(t, s, German, "sabotage A:B3 A:B4", "7.1")
	s.Step = StepLandAllied
	put(s, "IR307", "A:B4")
	s2 = run(t, s, Allied, "sabotage A:B3 A:B4") // German unit next to it: no roll
	if isBlown(s2, sideKey("A:B3", "A:B4")) {
		t.Fatal("sabotage next to the enemy")
	}
}

func TestRule15_3_Repair(t *testing.T) {
	s := land2(t, StepLandGerman)
	s.Blown = []Bridge{{Side: sideKey("A:C3", "A:C4")}}
	put(s, "IR307", "A:C3")
	s = run(t, s, German, "")
	if len(s.Blown) != 1 || s.Blown[0].Repair != 1 {
		t.Fatalf("after one turn: %+v", s.Blown)
	}
	s.Turn, s.Step = 3, StepLandGerman
	setWeather(s, 3, "fair", "fair")
	s = run(t, s, German, "")
	if len(s.Blown) != 0 {
		t.Fatal("not repaired after 2 turns")
	}
	mustLog(t, s, "repaired")
}

func TestRule16_1_AttackNeedsAdjacency(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "C:E4")
	put(s, "IR310", "C:B3")
	put(s, "NIR9", "C:E5")
	parseErr(t, s, German, "attack C:E5 with IR310", "16.1")
	parseErr(t, s, German, "attack C:E4 with IR307", "16.1")
	parseErr(t, s, German, "attack C:F5 with IR307", "16.1")
	parseErr(t, s, German, "attack C:E5 with IR307\nattack C:E5 with IR307", "16.1")
	parseOK(t, s, German, "attack C:E5 with IR307")
}

func TestRule16_2_RatioAndZOCPenalty(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "A:E4")
	put(s, "NIR8", "A:E5")
	put(s, "NIR7", "A:D4")
	c := attackValue(s, German, "A:E5", []string{"IR307"}, []string{"A:E5"})
	if c.Att != 2 {
		t.Fatalf("one unattacked enemy in the attacker's ZOC: %+v", c)
	}
	c = attackValue(s, German, "A:E5", []string{"IR307"}, []string{"A:E5", "A:D4"})
	if c.Att != 3 {
		t.Fatalf("both attacked: %+v", c)
	}
	put(s, "Pi163", "C:E4")
	put(s, "NIR9", "C:E5")
	put(s, "NIR10", "C:E5")
	parseErr(t, s, German, "attack C:E5 with Pi163", "16.2")
}

// duel is IR307 on C:E4 attacking NIR9 on C:E5 (3 to 2: column 1:1, whose
// rolls are d1 r N N a1 a2).
func duel(t *testing.T, die int) *State {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "C:E4")
	put(s, "NIR9", "C:E5")
	return run(t, s, German, "attack C:E5 with IR307", die)
}

func TestRule16_3_Results(t *testing.T) {
	s := duel(t, 1)
	if s.unit("NIR9").Loc != "C:F5" || !s.unit("NIR9").RT {
		t.Fatalf("d1: NIR9 at %s", s.unit("NIR9").Loc)
	}
	s = duel(t, 2)
	if !s.unit("NIR9").Reduced || s.unit("NIR9").Loc != "C:E5" {
		t.Fatal("r")
	}
	s = duel(t, 3)
	if s.unit("NIR9").Loc != "C:E5" || s.unit("IR307").Loc != "C:E4" {
		t.Fatal("N")
	}
	s = duel(t, 5)
	if s.unit("IR307").Loc != "C:D3" {
		t.Fatalf("a1: IR307 at %s", s.unit("IR307").Loc)
	}
	s = duel(t, 6)
	if sameMapDist(s.unit("IR307").Loc, "C:E4") != 2 {
		t.Fatalf("a2: IR307 at %s", s.unit("IR307").Loc)
	}
}

// 16.4: "Units that have retreated are marked with an RT-marker and may
// not attack in their own phase. Remove the RT-marker after their attack
// phase." A defender that retreats in the enemy's phase may not attack in
// its own next phase, after which the marker goes. An attacker that
// retreats (a1, a2) does so in its own attack phase: from revision 2 its
// marker goes at the end of that phase, and it may attack next turn
// (revision 1 kept the marker through its next attack phase).
//
// IR307 (3) attacks NIR9 (2) on C:E5 from C:E4: 3 to 2, column 1:1; a 5
// is a1, and IR307 retreats to C:D3. On turn 3, IR307 against NIR10 (2) on
// C:D4 is 3 to 2 again.
func TestRule16_4_RetreatMarker(t *testing.T) {
	s := duel(t, 5) // a1: IR307 retreats to C:D3
	if s.unit("IR307").Loc != "C:D3" || s.unit("IR307").RT {
		t.Fatalf("a1: IR307 at %s, marked %v; want on C:D3, the marker gone after its own attack phase", s.unit("IR307").Loc, s.unit("IR307").RT)
	}
	s.Step = StepLandGerman
	s.Turn = 3
	setWeather(s, 3, "fair", "fair")
	put(s, "NIR10", "C:D4")
	parseOK(t, s, German, "attack C:D4 with IR307")
	// Revision 1: the attacker's marker stayed until after its next attack
	// phase.
	r1 := land2(t, StepLandGerman)
	r1.Revision = 0
	put(r1, "IR307", "C:E4")
	put(r1, "NIR9", "C:E5")
	r1 = run(t, r1, German, "attack C:E5 with IR307", 5)
	r1.Step, r1.Turn = StepLandGerman, 3
	setWeather(r1, 3, "fair", "fair")
	put(r1, "NIR10", "C:D4")
	parseErr(t, r1, German, "attack C:D4 with IR307", "16.4")
	r1 = run(t, r1, German, "")
	if r1.unit("IR307").RT {
		t.Fatal("revision 1: the marker stays after the unit's next attack phase")
	}
	s2 := duel(t, 1) // d1: NIR9 marked in the German phase
	if !s2.unit("NIR9").RT {
		t.Fatal("defender not marked")
	}
	parseErr(t, s2, Allied, "attack C:E4 with NIR9", "16.1") // no longer adjacent
	s2 = run(t, s2, Allied, "")
	if s2.unit("NIR9").RT {
		t.Fatal("the defender's marker goes after its own attack phase")
	}
}

func TestRule16_5_RetreatIntoEZOC(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "C:E4")
	put(s, "IR310", "C:F6")
	put(s, "IR159", "C:C5")
	put(s, "NIR9", "C:E5")
	s = run(t, s, German, "attack C:E5 with IR307", 1) // 3 to 2, d1
	if s.unit("NIR9").Loc != LocElim {
		t.Fatal("a unit ending its retreat in an EZOC is eliminated")
	}
	mustLog(t, s, "16.5")
}

func TestRule16_6_HoldByReduction(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "C:E4")
	put(s, "NIR9", "C:E5")
	s.Hold = []string{"NIR9"}
	s = run(t, s, German, "attack C:E5 with IR307", 1)
	if s.unit("NIR9").Loc != "C:E5" || !s.unit("NIR9").Reduced {
		t.Fatal("hold: reduce instead of retreat")
	}
	s.Step = StepLandAllied
	s = run(t, s, Allied, "hold none")
	if len(s.Hold) != 0 {
		t.Fatal("hold none")
	}
}

func TestRule16_7_Advance(t *testing.T) {
	s := duel(t, 1)
	if s.unit("IR307").Loc != "C:E5" {
		t.Fatal("the attacker occupies the vacated hex")
	}
	s = land2(t, StepLandGerman)
	put(s, "IR307", "C:E4")
	put(s, "IR310", "C:D4")
	put(s, "NIR9", "C:E5")
	s2 := run(t, s, German, "attack C:E5 with IR307 IR310 advance IR310", 1) // 6 to 2, 3:1, d2
	if s2.unit("IR310").Loc != "C:E5" || s2.unit("IR307").Loc != "C:E4" {
		t.Fatal("advance IR310")
	}
	s2 = run(t, s, German, "attack C:E5 with IR307 IR310 advance none", 1)
	if s2.occupant("C:E5") != "" {
		t.Fatal("advance none")
	}
	parseErr(t, s, German, "attack C:E5 with IR307 advance IR310", "16.7")
}

func TestRule16_8_CapturePort(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR159", "C:D3")
	parseErr(t, s, German, "move IR159 C:D2", "16.8")
	c := attackValue(s, German, "C:D2", []string{"IR159"}, []string{"C:D2"})
	if c.Def != 1 || c.Column != "3:1" {
		t.Fatalf("an empty port defends with 1: %+v", c)
	}
	s2 := run(t, s, German, "attack C:D2 with IR159", 5) // 3:1, die 5: N
	if s2.controller("Bergen") != Allied {
		t.Fatal("N captures nothing")
	}
	s2 = run(t, s, German, "attack C:D2 with IR159", 4) // 3:1, die 4: r
	if s2.controller("Bergen") != German || s2.unit("IR159").Loc != "C:D2" {
		t.Fatal("r captures the empty port")
	}
}

func TestRule16_9_PortDefence(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR159", "C:D3")
	put(s, "NIR9", "C:D2")
	if c := attackValue(s, German, "C:D2", []string{"IR159"}, []string{"C:D2"}); c.Def != 3 {
		t.Fatalf("a regiment of 2 defending a port: %d, want 3", c.Def)
	}
}

func TestRule16_10_Artillery(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "AR163", "A:E4")
	put(s, "NIR8", "A:E5")
	put(s, "NIR7", "A:E5")
	if c := attackValue(s, German, "A:E5", []string{"AR163"}, []string{"A:E5"}); c.Att != 6 {
		t.Fatalf("artillery against 2 regiments: %d, want 6", c.Att)
	}
	put(s, "NIR10", "A:E5")
	put(s, "NIR9", "A:E5")
	if c := attackValue(s, German, "A:E5", []string{"AR163"}, []string{"A:E5"}); c.Att != 9 {
		t.Fatalf("artillery multiplies at most 3 times: %d", c.Att)
	}
	for _, id := range []string{"NIR8", "NIR7", "NIR10", "NIR9"} {
		put(s, id, LocReserve)
	}
	put(s, "BAT", "A:E5")
	if c := attackValue(s, German, "A:E5", []string{"AR163"}, []string{"A:E5"}); c.Att != 2 {
		t.Fatalf("artillery against a battalion: %d, want 2 (3 halved, rounded up)", c.Att)
	}
}

func TestRule16_11_ArtilleryDefendsWithOne(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "A:E4")
	put(s, "NAR2", "A:E5")
	if c := attackValue(s, German, "A:E5", []string{"IR307"}, []string{"A:E5"}); c.Def != 1 {
		t.Fatalf("artillery alone defends with %d, want 1", c.Def)
	}
	put(s, "NIR8", "A:E5")
	if c := attackValue(s, German, "A:E5", []string{"IR307"}, []string{"A:E5"}); c.Def != 5 {
		t.Fatalf("artillery with infantry: %d, want 5", c.Def)
	}
}

func TestRule16_12_AntiTank(t *testing.T) {
	s := land2(t, StepLandAllied)
	put(s, "PZ1", "A:E4")
	put(s, "BAT", "A:E5")
	if c := attackValue(s, Allied, "A:E4", []string{"BAT"}, []string{"A:E4"}); c.Att != 2 {
		t.Fatalf("AT attacking armor: %d, want 2", c.Att)
	}
	if c := attackValue(s, German, "A:E5", []string{"PZ1"}, []string{"A:E5"}); c.Def != 2 {
		t.Fatalf("AT defending against armor: %d, want 2", c.Def)
	}
}

func TestRule16_13_BlockedRetreat(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "B:D4")
	put(s, "IR310", "B:E5")
	put(s, "NIR1", "B:D5")                                   // behind it Sweden and the lake
	s = run(t, s, German, "attack B:D5 with IR307 IR310", 1) // 6 to 2, 3:1, d2
	if s.unit("NIR1").Loc != LocElim {
		t.Fatal("a retreat into Sweden destroys the unit")
	}
	s2 := land2(t, StepLandAllied)
	put(s2, "PZ1", "C:E5")
	retreat(s2, s2.unit("PZ1"), 1, "C:E4")
	if s2.unit("PZ1").Loc != LocElim {
		t.Fatal("armor retreating more than a hex from a road is destroyed")
	}
}

func TestRule16_14_SeaHexside(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "B:D2")
	put(s, "AR163", "B:D2")
	put(s, "NIR2", "B:E3")
	parseErr(t, s, German, "attack B:E3 with IR307", "16.14")
	parseOK(t, s, German, "attack B:E3 with AR163")
}

func TestRule16_15_RiverHalves(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "A:D3")
	put(s, "AR163", "A:D3")
	put(s, "NIR8", "A:D4")
	if c := attackValue(s, German, "A:D4", []string{"IR307"}, []string{"A:D4"}); c.Att != 2 {
		t.Fatalf("across a river 3 becomes %d, want 2", c.Att)
	}
	if c := attackValue(s, German, "A:D4", []string{"AR163"}, []string{"A:D4"}); c.Att != 3 {
		t.Fatalf("artillery across a river: %d, want 3", c.Att)
	}
}

func TestStandingOrdersSurviveNMR(t *testing.T) {
	s := land2(t, StepLandAllied)
	put(s, "NIR9", "C:E5")
	s = run(t, s, Allied, "hold NIR9\nlosses NIR9")
	s.Step = StepLandAllied
	s = run(t, s, German, "") // the Allies send nothing: default orders
	if len(s.Hold) != 1 || len(s.AlliedLosses) != 1 {
		t.Fatal("standing orders lost by a missed turn")
	}
}

// 13.1: an airlift "to a German controlled airfield in Norway; if he has
// air superiority over the Tactical Map where the destination airfield is
// located". Refused at Sola (Allied), the hint names only airfields the
// same rule accepts: never Aalborg, which is in Denmark.
func TestRule13_1_HintsNameOnlyWhatIsAccepted(t *testing.T) {
	s := land2(t, StepLandGerman)
	s.German = []string{"Aalborg", "Fornebu"}
	s.unit("IR324").Loc = LocAirlift
	// no German aircraft anywhere: no airfield qualifies
	e := parseErr(t, s, German, "airlift IR324 Sola", "13.1")
	if strings.Contains(e.Valid, "Aalborg") || strings.Contains(e.Valid, "Fornebu") {
		t.Errorf("hint %q names an airfield the rule refuses", e.Valid)
	}
	// German air over Map B (5) and none over A: Fornebu qualifies
	s.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "B", Strength: 5}}
	for _, bad := range []string{"airlift IR324 Sola", "airlift IR324 Aalborg", "airlift IR324 Bardufoss"} {
		e = parseErr(t, s, German, bad, "13.1")
		if e.Valid != "Fornebu" {
			t.Errorf("%s: hint %q, want Fornebu", bad, e.Valid)
		}
	}
	for _, af := range strings.Split(e.Valid, ", ") {
		parseOK(t, s, German, "airlift IR324 "+af)
	}
	e = parseErr(t, s, German, "airlift IR236 Fornebu", "13.1") // not reserved
	if e.Valid != "IR324" {
		t.Errorf("hint %q, want the one regiment reserved for air transport", e.Valid)
	}
	// 9.1: the air order's hint names only airfields whose aircraft reach
	// the map: Aalborg (maps A, B) and Fornebu (A to D)
	s.Step = StepAirGerman
	e = parseErr(t, s, German, "air Sola B", "9.1")
	if e.Valid != "Aalborg, Fornebu" {
		t.Errorf("hint %q, want Aalborg, Fornebu", e.Valid)
	}
	for _, af := range strings.Split(e.Valid, ", ") {
		parseOK(t, s, German, "air "+af+" B")
	}
}

// 13.4: "Units may defend themselves, but NOT be moved or attack in the
// turn they have been flown in": from revision 2 an attack with a unit the
// same orders fly in is refused when the orders are read (revision 1
// accepted it and cancelled the attack when it came).
func TestRule13_4_FlownInUnitsDoNotAttack(t *testing.T) {
	s := land2(t, StepLandGerman)
	s.German = []string{"Aalborg", "Sola"}
	s.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "A", Strength: 5}}
	s.unit("IR324").Loc = LocAirlift
	put(s, "NIR8", "A:E3") // next to Sola (A:E2)
	// 13.4 is the rule ("NOT be moved or attack in the turn they have
	// been flown in"), for an attack as for a move.
	e := parseErr(t, s, German, "airlift IR324 Sola\nattack A:E3 with IR324", "13.4")
	if e.Line != 2 || !strings.Contains(e.Msg, "flown in to Sola by line 1") {
		t.Errorf("attack: %+v", e)
	}
	e = parseErr(t, s, German, "airlift IR324 Sola\nmove IR324 A:F2", "13.4")
	if e.Line != 2 || strings.Contains(e.Valid, "IR324") {
		t.Errorf("move: %+v", e)
	}
	s.Revision = 0
	s2 := run(t, s, German, "airlift IR324 Sola\nattack A:E3 with IR324")
	mustLog(t, s2, "attack on A:E3 cancelled: IR324 landed this turn and may not attack (12.7)")
}

// Scenarios worked out by hand from the rulebook text before the engine
// was asked; each comment shows the arithmetic. The CRT columns are the
// data pack's reconstruction (data/tables.txt): land 3:1 reads d2 d2 d1 r
// N a1, land 1:1 d1 r N N a1 a2, land 5:1 d2 d2 d2 d1 r r; naval 1:1 De
// Dr N N N Ar, naval 2:1 De Dr Dr N N Ar.

// 16.2: "Total all attackers Combat Factors (CF) and then that of the
// defender to establish the combat ratio. Attacks with a ratio less than
// 1:2 are not allowed. For each enemy unit in the attackers ZOC's that is
// not attacked 1 CF is subtracted from the attackers total."
//
// IR307 (3) and AR163 (artillery, 3) on A:D3 attack NIR8 (2) and NIR7 (2)
// on A:D4, across the river A:D3/A:D4 that has no bridge; NDR3 stands on
// A:E3, next to A:D3 (not across a river), and is not attacked; German
// aircraft from Aalborg are over Map A in fair weather (5), the Allies
// have none there.
//
//	IR307: 3 halved across the river, rounded up (16.15)       2
//	AR163: 3 times 2 enemy regiments (16.10), not halved       6
//	NDR3 unattacked in the attackers' ZOC (16.2)              -1
//	air superiority, 5 to 0 (9.3)                             +5
//	attack                                                    12
//	defence: NIR8 2 + NIR7 2, no port or airfield             4
//
// 12 to 4 is 3:1; a 3 there is d1: both retreat a hex (16.3) and IR307,
// the first attacker that is not artillery, occupies A:D4 (16.7). The
// ratio rounds down, in the defender's favour: without the aircraft it is
// 7 to 4, column 1:1, where a 2 is r (both reduced). IR307 alone without
// aircraft makes 2 - 1 = 1 to 4, below 1:2: refused.
func TestRule16_2_LandCombatOddsByHand(t *testing.T) {
	setup := func(air bool) *State {
		s := land2(t, StepLandGerman)
		put(s, "IR307", "A:D3")
		put(s, "AR163", "A:D3")
		put(s, "NIR8", "A:D4")
		put(s, "NIR7", "A:D4")
		put(s, "NDR3", "A:E3")
		if air {
			s.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "A", Strength: 5}}
		}
		return s
	}
	s := run(t, setup(true), German, "attack A:D4 with IR307 AR163", 3)
	mustLog(t, s, "german attack on A:D4 with IR307 AR163: 12 to 4, column 3:1, die 3: d1 (16.3)")
	for _, id := range []string{"NIR8", "NIR7"} {
		u := s.unit(id)
		if !onHex(u.Loc) || !adjacent(u.Loc, "A:D4") || !u.RT || u.Reduced {
			t.Errorf("d1: %s at %s (rt %v), want a hex away, marked", id, u.Loc, u.RT)
		}
	}
	if s.unit("IR307").Loc != "A:D4" || s.unit("AR163").Loc != "A:D3" {
		t.Errorf("IR307 at %s, AR163 at %s: IR307 occupies the hex", s.unit("IR307").Loc, s.unit("AR163").Loc)
	}
	s = run(t, setup(false), German, "attack A:D4 with IR307 AR163", 2)
	mustLog(t, s, "7 to 4, column 1:1, die 2: r (16.3)")
	if !s.unit("NIR8").Reduced || !s.unit("NIR7").Reduced || s.unit("NIR8").Loc != "A:D4" {
		t.Error("r: both defenders reduced, in place")
	}
	e := parseErr(t, setup(false), German, "attack A:D4 with IR307", "16.2")
	if !strings.Contains(e.Msg, "1 to 4 is below 1:2") {
		t.Errorf("refusal %q, want 1 to 4", e.Msg)
	}
}

// 15.1: "Any unit moving to a hex next to a bridge may blow the bridge if
// no enemy unit is at the other side." 15.3: "A blown bridge can be
// repaired by staying 2 full turns next to the blown bridge without an
// enemy unit on the other side. At the end of the second turns movement
// phase the marker is removed."
//
// Turn 2: IR307 moves from A:D3 to A:C3 and blows the bridge A:C3/A:C4
// (nobody on A:C4). It stays: turn 3 is its first full turn there, turn 4
// the second, and at the end of the German movement of turn 4 the bridge
// stands again. If it leaves on turn 3 the count is lost; if NIR8 stands
// on A:C4, across the bridge, the turn does not count. The bridge adds 3
// MF to a crossing while it is down (14.3: 1 + 3 = 4).
//
// Revision 1 counted the turn of the blowing as the first, and repaired
// the bridge at the end of turn 3.
func TestRule15_3_BridgesByHand(t *testing.T) {
	key := sideKey("A:C3", "A:C4")
	next := func(s *State, turn int) *State {
		s.Turn, s.Step = turn, StepLandGerman
		setWeather(s, turn, "fair", "fair")
		return s
	}
	start := func(rev int) *State {
		s := land2(t, StepLandGerman)
		s.Revision = rev
		put(s, "IR307", "A:D3")
		s = run(t, s, German, "move IR307 A:C3\nblow A:C3 A:C4")
		if !isBlown(s, key) {
			t.Fatal("the bridge is not blown")
		}
		return s
	}
	s := start(2)
	if c, _ := stepCost(s, &Unit{ID: "Pi163", Side: German}, "A:C3", "A:C4"); c != 4 {
		t.Errorf("crossing the blown bridge costs %d MF, want 4", c)
	}
	s = run(t, next(s, 3), German, "")
	if !isBlown(s, key) || s.Blown[0].Repair != 1 {
		t.Fatalf("after turn 3: %+v, want one full turn counted", s.Blown)
	}
	s = run(t, next(s, 4), German, "")
	if isBlown(s, key) {
		t.Fatal("not repaired at the end of the second full turn's movement")
	}
	mustLog(t, s, "the bridge A:C3/A:C4 is repaired (15.3)")
	// leaving on turn 3 loses the count
	s = run(t, next(start(2), 3), German, "move IR307 A:D3")
	s = run(t, next(s, 4), German, "move IR307 A:C3")
	if !isBlown(s, key) || s.Blown[0].Repair != 0 {
		t.Fatalf("a unit that left: %+v, want no turn counted", s.Blown)
	}
	// an enemy unit on the other side stops the count
	s = start(2)
	put(s, "NIR8", "A:C4")
	s = run(t, next(s, 3), German, "")
	if !isBlown(s, key) || s.Blown[0].Repair != 0 {
		t.Fatalf("an enemy across the bridge: %+v, want no turn counted", s.Blown)
	}
	// revision 1
	s = start(0)
	if s.Blown[0].Repair != 1 {
		t.Fatalf("revision 1: %+v, want the blowing turn counted", s.Blown)
	}
	s = run(t, next(s, 3), German, "")
	if isBlown(s, key) {
		t.Fatal("revision 1 repaired the bridge at the end of turn 3")
	}
}

// 16.2: an attack below 1:2 is refused, and the hint is an order that
// would stand: the same hex attacked by every unit that may attack it.
// From TestRule16_2_LandCombatOddsByHand without aircraft: IR307 alone
// makes 2 (halved across the river) - 1 (NDR3 unattacked) = 1 to 4; with
// AR163 (3 x 2 regiments = 6) it is 7 to 4, 1:1.
func TestRule16_2_TooWeakAttackHintsOneThatStands(t *testing.T) {
	s := land2(t, StepLandGerman)
	put(s, "IR307", "A:D3")
	put(s, "AR163", "A:D3")
	put(s, "NIR8", "A:D4")
	put(s, "NIR7", "A:D4")
	put(s, "NDR3", "A:E3")
	e := parseErr(t, s, German, "attack A:D4 with IR307", "16.2")
	if e.Valid != "attack A:D4 with IR307 AR163 (7 to 4)" {
		t.Fatalf("hint %q", e.Valid)
	}
	parseOK(t, s, German, "attack A:D4 with IR307 AR163")
	// AR163 busy elsewhere is no help: the hint says none stands.
	put(s, "NIR6", "A:C3")
	e = parseErr(t, s, German, "attack A:C3 with AR163\nattack A:D4 with IR307", "16.2")
	if e.Line != 2 || !strings.HasPrefix(e.Valid, "none on A:D4") {
		t.Errorf("line %d, hint %q, want none on line 2", e.Line, e.Valid)
	}
}

// 16.8: "Ports and airfields ... must be attacked to be able to capture
// them": a move into an enemy port or airfield is refused, and every order
// the hint names would itself be accepted. Turn 1, German land phase:
// FJ2 on B:D3 next to Fornebu (B:D2) under 5 German air factors over
// Map B makes 2 + 5 - 2 (NAR1 on B:C3 and NIR2 on B:E4 unattacked) = 5 to
// the airfield's 1: the hint attacks. FJ1 on A:E3 next to Sola, without
// aircraft, makes 2 - 2 (NIR8 on A:D3, NDR3 on A:F3) = 0: no attack, only
// moves.
func TestRule16_8_RefusedMoveHintsOrdersThatStand(t *testing.T) {
	s := toTurnOneLandings(t, 0)
	s.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "B", Strength: 5}}
	for _, c := range []struct {
		order, attack string
	}{{"move FJ2 B:D2", "attack B:D2 with FJ2"}, {"move FJ1 A:E2", ""}} {
		e := parseErr(t, s, German, c.order, "16.8")
		items := strings.Split(e.Valid, "; ")
		if (c.attack != "") != (items[0] == c.attack) || (c.attack == "" && strings.Contains(e.Valid, "attack")) {
			t.Errorf("%s: hint %q, want it to start %q", c.order, e.Valid, c.attack)
		}
		for _, it := range items {
			parseOK(t, s, German, it)
		}
	}
}
