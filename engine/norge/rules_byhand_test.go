package norge

import (
	"strings"
	"testing"
)

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

// 9.3: "Aircraft may fly to any Tactical Map ... to add their combat
// factor to EACH attack AND defense in combat on that map. ... If both
// players have air units, the difference between them is used for the
// player in combat which has air superiority." 8.6: "in fair weather the
// front side is used, in rainy weather the (reduced) backside is used."
//
// Turn 4, fair: the fighters and bombers of Aalborg and of Fornebu
// (German) fly to Map B, 2 + 3 = 5 each (reconstructed factors), 10 in
// all; Glorious, at Skagerrak2, sends its fighter (2) to Map B. The
// Germans have superiority over B by 10 - 2 = 8; the Allies add nothing.
//
//	FJ2 (2) on B:D3 against NAR1 alone on B:C3 (artillery alone
//	defends with 1, 16.11): 2 + 8 = 10 to 1, the 5:1 column; a 4 is d1.
//	NIR1 (2) against IR307 (3): 2 to 3 + 8 = 11, below 1:2: refused.
//
// In rain the backs count: 1 + 1 = 2 a German airfield, 1 for the
// fighter: superiority 4 - 1 = 3.
func TestRule9_3_AirSuperiorityByHand(t *testing.T) {
	for _, c := range []struct {
		weather  string
		german   int
		allied   int
		superior int
	}{{"fair", 10, 2, 8}, {"rain", 4, 1, 3}} {
		s := bare(t, StepAirGerman)
		s.Turn = 4
		setWeather(s, 4, "fair", c.weather)
		s.German = []string{"Aalborg", "Fornebu"}
		sail(s, "Glorious", "Skagerrak2")
		s = run(t, s, German, "air Aalborg B\nair Fornebu B", 1, 1) // the weather of turn 5 first (8.2)
		s = run(t, s, Allied, "air Glorious B")
		if g, a := airOver(s, "B"); g != c.german || a != c.allied || airBonus(s, "B", German) != c.superior || airBonus(s, "B", Allied) != 0 {
			t.Fatalf("%s: over Map B German %d, Allied %d, superiority %d; want %d, %d, %d", c.weather, g, a, airBonus(s, "B", German), c.german, c.allied, c.superior)
		}
		if airBonus(s, "A", German) != 0 || airBonus(s, "A", Allied) != 0 {
			t.Fatalf("%s: aircraft count on a map they did not fly to", c.weather)
		}
		if c.weather != "fair" {
			continue
		}
		s.Step = StepLandGerman
		put(s, "FJ2", "B:D3")
		put(s, "NAR1", "B:C3")
		s2 := run(t, s, German, "attack B:C3 with FJ2", 4)
		mustLog(t, s2, "german attack on B:C3 with FJ2: 10 to 1, column 5:1, die 4: d1 (16.3)")
		s.Step = StepLandAllied
		put(s, "IR307", "B:B4")
		put(s, "NIR1", "B:B3")
		e := parseErr(t, s, Allied, "attack B:B4 with NIR1", "16.2")
		if !strings.Contains(e.Msg, "2 to 11 is below 1:2") {
			t.Errorf("refusal %q, want 2 to 11", e.Msg)
		}
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
