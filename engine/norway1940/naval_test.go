package norway1940

import (
	"encoding/json"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

func TestRule9_14_5_NavalCombatExample(t *testing.T) {
	s := bare(t, 8, Allied)
	g := fleetAt(s, "G20", German, "South-3", 6, 4)
	for i := 0; i < 2; i++ {
		u := supplyAt(s, "")
		u.Loc, u.Fleet = "", g.ID
		g.Cargo = append(g.Cargo, u.ID)
	}
	fleetAt(s, "A20", Allied, "South-4", 10, 0)
	// submarine detection 6; German evasion 4 (fails: differential 5 evades
	// on 1-2); Allied combat roll 3 (+2 = 5: 2 hits), German 6 (3 hits).
	next, _ := play(t, s, "fleet A20 to South-3\nsub South-3 G20 1\nfleet A20 attack G20\n", 6, 4, 3, 6)
	for _, want := range []string{"detect fleet G20 (rolled 6)", "fleet A20 (11 combat) attacks fleet G20 (6 combat)", "G20 fails to evade (rolled 4", "A20 rolls 3 (5), 2 hit(s) on G20", "G20 rolls 6 (6), 3 hit(s) on A20"} {
		if !logHas(next, want) {
			t.Errorf("missing %q in:\n%s", want, logText(next))
		}
	}
	if f := next.fleet("G20"); f == nil || f.Combat != 4 || f.Transport != 4 || !f.Detected {
		t.Errorf("G20 = %+v, want 4 combat and its 4 transports, detected", f)
	}
	if f := next.fleet("A20"); f == nil || f.Combat != 7 {
		t.Errorf("A20 = %+v, want 7 combat", f)
	}
	if logHas(next, "round 2") {
		t.Error("the German won the round and chose not to go on")
	}
}

func TestRule9_14_5_NavalBonusFloorOption(t *testing.T) {
	s := &State{}
	if navalBonus(s, 5) != 2 {
		t.Error("default: +2 for a differential of 5 (the 9.14.5 example)")
	}
	s.Options = []string{OptNavalBonusFloor}
	if navalBonus(s, 5) != 1 || navalBonus(s, 8) != 2 {
		t.Error("naval-bonus-floor: +1 per full 4 points")
	}
}

func TestRule9_6_FleetDeploymentExample(t *testing.T) {
	s := bare(t, 8, German)
	s.pool(German, "german", Germany).Combat = 18
	s.pool(German, "german", Germany).Transport = 4
	next, _ := play(t, s, "fleet G11 from Germany combat 12 to South-1\nfleet G12 from Germany decoys 1 to South-2\nfleet G13 from Germany combat 6 transport 4 to South-3\n")
	for id, want := range map[string][2]int{"G11": {12, 0}, "G12": {0, 0}, "G13": {6, 4}} {
		f := next.fleet(id)
		if f == nil || f.Combat != want[0] || f.Transport != want[1] || f.Detected {
			t.Errorf("%s = %+v", id, f)
		}
	}
	v := viewOf(next, Allied)
	for _, f := range v.Fleets {
		if f.Side == German && (f.Combat != 0 || f.Transport != 0 || f.Decoys != 0) {
			t.Errorf("the Allied sees the contents of undetected %s: %+v", f.ID, f)
		}
	}
}

func TestRule9_9_SplitExample(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Bergen", German)
	s.setControl("Stavanger", German)
	fleetAt(s, "G20", German, "South-4", 4, 2)
	next, _ := play(t, s, "fleet G20 split G21 transport 2 to Stavanger\nfleet G20 to Bergen\n")
	if p := next.pool(German, "german", "Stavanger"); p.Transport != 2 {
		t.Errorf("Stavanger pool %+v, want the 2 split-off points", p)
	}
	if p := next.pool(German, "german", "Bergen"); p.Combat != 4 {
		t.Errorf("Bergen pool %+v, want the other 4 points", p)
	}
}

func TestRule9_13_2_SeaAreaPointsExample(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Narvik", German)
	s.pool(German, "german", "Kristiansand").Combat = 22
	s.setControl("Kristiansand", German)
	s.pool(German, "german", "Narvik").Combat = 8
	if e := parseErr(t, s, "fleet G20 from Narvik combat 8 to South-1\n"); e.Rule != "10.4.1" {
		t.Errorf("Narvik points into the South area: rule %q", e.Rule)
	}
	parseOK(t, s, "fleet G20 from Narvik combat 8 to North-1\nfleet G21 from Kristiansand combat 12 to South-1\nfleet G22 from Kristiansand combat 10 to South-2\n")
}

func TestRule10_4_1_TrondheimTransportExample(t *testing.T) {
	s := bare(t, 8, German)
	f := fleetAt(s, "G20", German, "South-2", 2, 4)
	u := put(s, "340", "")
	u.Loc, u.Fleet = "", f.ID
	f.Cargo = []string{"340"}
	if e := parseErr(t, s, "fleet G20 to Trondheim\n"); e.Rule != "10.4.1" {
		t.Errorf("South to Trondheim at once: rule %q, want 10.4.1", e.Rule)
	}
	next, _ := play(t, s, "fleet G20 to Centre-2\n")
	for next.Phasing != German {
		next, _ = play(t, next, "")
	}
	parseOK(t, next, "fleet G20 to Trondheim\n")
}

func TestRule9_13_4_FleetLimits(t *testing.T) {
	s := bare(t, 8, German)
	s.pool(German, "german", Germany).Combat = 20
	if e := parseErr(t, s, "fleet G20 from Germany combat 13 to South-1\n"); e.Rule != "9.13.4" {
		t.Errorf("13 combat points: rule %q", e.Rule)
	}
	a := bare(t, 8, Allied)
	a.pool(Allied, "british", UK).Combat = 40
	if e := parseErr(t, a, "fleet A20 from UK combat 2 to North-1\nfleet A21 from UK combat 2 to North-2\nfleet A22 from UK combat 2 to North-3\nfleet A23 from UK combat 2 to North-4\n"); e.Rule != "9.13.4" {
		t.Errorf("every North box: rule %q, want 9.13.4", e.Rule)
	}
}

func TestRule9_8_DecoyRemovedOnDetection(t *testing.T) {
	s := bare(t, 8, Allied)
	g := fleetAt(s, "G20", German, "South-2", 0, 0)
	g.Decoys = 1
	before := s.side(German).Decoys[0].N
	next, _ := play(t, s, "air recon South-2 G20 1\n", 6)
	if next.fleet("G20") != nil {
		t.Error("a detected decoy fleet is removed")
	}
	if !logHas(next, "was only a decoy") {
		t.Errorf("no decoy message:\n%s", logText(next))
	}
	// returned decoys come back in the German reorganisation (9.8.1)
	if got := next.side(German).Decoys[0].N; got != before+1 {
		t.Errorf("German decoys available %d, want %d", got, before+1)
	}
}

func TestRule9_11_SubmarinesGroupedDetectOnFive(t *testing.T) {
	s := bare(t, 8, Allied)
	fleetAt(s, "G20", German, "South-2", 6, 0)
	next, _ := play(t, s, "sub South-2 G20 1\n", 5)
	if next.fleet("G20").Detected {
		t.Error("one submarine needs a 6")
	}
	next, _ = play(t, s, "sub South-2 G20 3\n", 5)
	if !next.fleet("G20").Detected {
		t.Error("three grouped submarines detect on a 5")
	}
	if e := parseErr(t, s, "sub South-2 G20 4\n"); e.Rule != "9.11" {
		t.Errorf("four submarines: rule %q", e.Rule)
	}
}

func TestRule9_10_2_UnescortedTransportsEliminated(t *testing.T) {
	s := bare(t, 8, Allied)
	g := fleetAt(s, "G20", German, "South-2", 0, 4)
	g.Detected = true
	fleetAt(s, "A20", Allied, "South-2", 4, 0)
	next, _ := play(t, s, "fleet A20 attack G20\n")
	if next.fleet("G20") != nil {
		t.Errorf("an unescorted transport fleet is eliminated in clear weather:\n%s", logText(next))
	}
}

func TestRule9_15_PortAttackInvasionTurn(t *testing.T) {
	s := bare(t, 4, German)
	s.Invaded = false
	g := fleetAt(s, "G3", German, "South-4", 6, 0)
	u := put(s, "159", "")
	u.Loc, u.Fleet = "", "G3"
	g.Cargo = []string{"159"}
	// Coastal batteries do not detect (1); the seven anchored groups at
	// Bergen all roll 3+ (not ready): all captured; no garrison.
	next, _ := play(t, s, "fleet G3 to Bergen\n", 1, 3, 3, 3, 3, 3, 3, 3, 1, 1)
	if p := next.pool(German, "german", "Bergen"); p.Combat != 8+6 {
		t.Errorf("German pool at Bergen %+v, want the 8 captured points and the fleet's 6:\n%s", p, logText(next))
	}
	if next.controller("Bergen") != German || next.unit("159").Loc != "Bergen" {
		t.Errorf("the landing should take Bergen:\n%s", logText(next))
	}
	if !next.Invaded {
		t.Error("Norway is invaded")
	}
}

func TestRule15_2_CoastalBatteriesParalyseTheInvader(t *testing.T) {
	s := bare(t, 4, German)
	g := fleetAt(s, "G3", German, "South-4", 6, 0)
	u := put(s, "159", "")
	u.Loc, u.Fleet = "", "G3"
	g.Cargo = []string{"159"}
	// detection 5; two batteries fire three times each: 6 6 1 1 1 1.
	next, _ := play(t, s, "fleet G3 to Bergen\n", 5, 6, 6, 1, 1, 1, 1)
	f := next.fleet("G3")
	if f == nil || f.Stuck != 4 || f.Combat != 4 || next.controller("Bergen") == German {
		t.Errorf("fleet %+v: two hits stop the landing:\n%s", f, logText(next))
	}
}

func TestRule9_16_1_2_FailedLandingReembarks(t *testing.T) {
	s := bare(t, 8, Allied)
	s.setControl("Namsos", German)
	put(s, "138", "Namsos")
	f := fleetAt(s, "A20", Allied, "Centre-3", 2, 3)
	u := put(s, "146", "")
	u.Loc, u.Fleet = "", f.ID
	f.Cargo = []string{"146"}
	// 146 rolls 2, 138 rolls 6 (+2): differential 6, a step and a retreat:
	// the landing fails.
	next, _ := play(t, s, "fleet A20 to Namsos\n", 2, 6)
	nf := next.fleet("A20")
	if nf == nil || !nf.Failed || !nf.Detected || len(nf.Cargo) != 1 {
		t.Fatalf("fleet %+v: the landing should fail and the brigade re-embark:\n%s", nf, logText(next))
	}
}

func TestFogOfWarViewDoesNotShowUndetectedFleets(t *testing.T) {
	s := bare(t, 8, German)
	fleetAt(s, "A20", Allied, "Centre-3", 9, 4)
	b, _ := json.Marshal(viewOf(s, German))
	if strings.Contains(string(b), `"combat":9`) {
		t.Error("the German view shows the undetected Allied fleet's combat points")
	}
}

func TestRule9_13_1_InvasionTaskForcesFixed(t *testing.T) {
	st, _ := Ruleset{}.New(engine.Setup{}, enginetest.ThenOnes())
	s := st.(*State)
	if e := parseErr(t, s, "fleet G4 split G20 combat 2 to South-2\n"); e.Rule != "9.13.1" {
		t.Errorf("splitting a task force on turn 1: rule %q", e.Rule)
	}
	if e := parseErr(t, s, "fleet G4 merge G7\n"); e.Rule != "9.13.1" {
		t.Errorf("merging task forces on turn 1: rule %q", e.Rule)
	}
	s.Turn = 5
	parseOK(t, s, "fleet G4 merge G7\n")
}

// 9.16: "Amphibious landings can only be conducted against ports marked on
// the map (grey for the German, red for the Allies)"; 9.16.1: "In any turn
// following the invasion turn ... On secondary ports (displaying an
// anchor), up to the equivalent of 3 naval transport points may land." So
// on turn 4, the invasion turn, a German landing at Egersund (an anchor
// port) is refused, and the hint is the grey ports of the South sea area
// (Bergen, Kristiansand, Oslo, Stavanger); on turn 5 Egersund takes it.
func TestRule9_16_1_AnchorPortsOnlyAfterTheInvasionTurn(t *testing.T) {
	setup := func(turn int) *State {
		s := bare(t, turn, German)
		s.Invaded = turn > 4
		g := fleetAt(s, "G6", German, "South-4", 2, 0)
		u := put(s, "193", "")
		u.Loc, u.Fleet = "", g.ID
		g.Cargo = []string{"193"}
		return s
	}
	e := parseErr(t, setup(4), "fleet G6 to Egersund\n")
	if e.Rule != "9.16.1" || e.Line != 1 || e.Valid != "a port marked for your landings: Bergen, Kristiansand, Oslo, Stavanger" {
		t.Errorf("an anchor port on the invasion turn: %+v", e)
	}
	parseOK(t, setup(4), "fleet G6 to Stavanger\n")
	next, _ := play(t, setup(5), "fleet G6 to Egersund\n")
	if next.unit("193").Loc != "Egersund" || next.controller("Egersund") != German {
		t.Errorf("turn 5: the landing at Egersund goes ahead:\n%s", logText(next))
	}
	r1 := setup(4)
	r1.Revision = 0
	parseOK(t, r1, "fleet G6 to Egersund\n") // revision 1 took it
}

// 9.13.3: "Fleets are moved first (both combat and transport) and when
// done with them, the phasing player deploys his submarines". The
// submarine line comes first in the file, but A20 moves into South-3
// before the submarine looks for G20 there, and attacks after it is found
// (9.14.1). By hand: the submarine rolls 6, a detection; G20 (2) against
// A20's 8 +1 for the submarine (9.11): differential 7, the +6 row of the
// Interception Table, 1 evades; G20 (evade weaker) rolls 3 and fails.
// A20 rolls 6, +2 for a differential of 7 (+1 per 4 or part, 9.14.5): 8,
// 4 hits, G20 is sunk; G20 rolls 1: no hit.
func TestRule9_13_3_FleetsMoveBeforeSubmarines(t *testing.T) {
	s := bare(t, 8, Allied)
	fleetAt(s, "A20", Allied, "South-2", 8, 0)
	fleetAt(s, "G20", German, "South-3", 2, 0)
	next, _ := play(t, s, "sub South-3 G20 1\nfleet A20 to South-3\nfleet A20 attack G20 rounds 1\n", 6, 3, 6, 1)
	log := logText(next)
	move, found, attack := strings.Index(log, "fleet A20 moves from South-2 to South-3"), strings.Index(log, "submarines in South-3 detect fleet G20"), strings.Index(log, "fleet A20 (9 combat) attacks fleet G20 (2 combat)")
	if move < 0 || found < move || attack < found {
		t.Errorf("move, then submarines, then combat:\n%s", log)
	}
	if next.fleet("G20") != nil || next.fleet("A20").Combat != 8 {
		t.Errorf("G20 sunk, A20 whole:\n%s", log)
	}
}

// 9.15.8: "In the turns following the Invasion Turn ... any enemy fleets
// present will be free from any special rolls and will fight normally."
// Turn 5 at Bergen (batteries destroyed): no readiness roll, nothing
// captured; all 8 anchored Norwegian points fight G3 (6). By hand, the
// differential is -2: G3 +0, the Norwegians +1. Round 1: G3 6 (3 hits,
// 8 to 5), Norwegians 1+1 (none); continuation 1 goes on. Round 2:
// differential 1, G3 +1: 6+1, 4 hits (5 to 1); Norwegians 1: none;
// continuation 1. Round 3: differential 5, +2: 1+2, 1 hit: the last point
// is sunk. 159 lands; the German pool at Bergen is G3's 6, no captured
// points.
func TestRule9_15_8_AnchoredFleetsFightNormallyAfterTheInvasionTurn(t *testing.T) {
	s := bare(t, 5, German)
	g := fleetAt(s, "G3", German, "South-4", 6, 0)
	u := put(s, "159", "")
	u.Loc, u.Fleet = "", "G3"
	g.Cargo = []string{"159"}
	for _, b := range s.Bats {
		b.Status = "destroyed"
	}
	next, d := play(t, s, "fleet G3 to Bergen\n", 6, 1, 1, 6, 1, 1, 1, 1)
	if d.Used() != 8 || logHas(next, "ready to fight") || logHas(next, "captured") {
		t.Errorf("no readiness roll, no capture (%d dice):\n%s", d.Used(), logText(next))
	}
	if p := next.pool(German, "german", "Bergen"); p.Combat != 6 || next.pool(Allied, "norwegian", "Bergen").Combat != 0 {
		t.Errorf("German pool %+v:\n%s", p, logText(next))
	}
	if next.controller("Bergen") != German || next.unit("159").Loc != "Bergen" {
		t.Errorf("the landing goes ahead:\n%s", logText(next))
	}
}

// 9.4: "Norwegian naval points may only be used by Norwegians": a
// Norwegian fleet does not merge with a British one, and a fleet formed
// from Bergen's Norwegian points is Norwegian.
func TestRule9_4_NorwegianPointsStayNorwegian(t *testing.T) {
	s := bare(t, 8, Allied)
	fleetAt(s, "A20", Allied, "South-4", 4, 0)
	n := fleetAt(s, "A21", Allied, "South-4", 2, 0)
	n.Nation = "norwegian"
	if e := parseErr(t, s, "fleet A20 merge A21\n"); e.Rule != "9.4" {
		t.Errorf("a British and a Norwegian fleet merging: %+v", e)
	}
	next, _ := play(t, s, "fleet A22 from Bergen combat 3 to South-4\n", 1)
	if f := next.fleet("A22"); f == nil || f.Nation != "norwegian" {
		t.Errorf("fleet from Bergen: %+v", f)
	}
}
