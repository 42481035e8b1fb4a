package norway1940

import "testing"

func TestRule9_14_4_UndetectedFleetsReact(t *testing.T) {
	s := bare(t, 8, German)
	g := fleetAt(s, "G20", German, "South-1", 4, 0)
	g.Detected = true
	fleetAt(s, "A20", Allied, "South-2", 8, 0)
	s.side(Allied).Standing.React = true
	// reaction: German evasion 6 fails; rounds: 6 vs 1, ...
	next, _ := play(t, s, "fleet G20 to South-2\n", 6, 6, 1)
	if !logHas(next, "attacks the detected fleet G20 entering South-2") {
		t.Errorf("the undetected Allied fleet should react:\n%s", logText(next))
	}
	s.side(Allied).Standing.React = false
	next, _ = play(t, s, "fleet G20 to South-2\n")
	if logHas(next, "attacks the detected") {
		t.Error("react off: no reaction")
	}
}

func TestRule15_2_3_BatteriesFireInLaterTurns(t *testing.T) {
	s := bare(t, 8, Allied)
	f := fleetAt(s, "G20", German, "Bergen", 4, 0)
	f.Failed, f.Detected = true, true
	next, _ := play(t, s, "", 6, 1, 1, 6, 1, 1)
	if !logHas(next, "coastal batteries at Bergen fire on fleet G20: 2 hit(s)") || next.fleet("G20").Combat != 2 {
		t.Errorf("the Bergen batteries fire in the Allied naval combat step:\n%s", logText(next))
	}
}

func TestRule10_2_9_HQReturnsTwoTurnsLater(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Hamar")
	put(s, "HQS", "Hamar")
	put(s, "IR4", "Hamar")
	s.setControl("Oslo", German)
	next, _ := play(t, s, "attack Hamar\n", 6, 1)
	for next.Turn < 10 {
		if next.Turn == 9 && next.unit("HQS").Dead == false && next.unit("HQS").Loc != "Hamar" {
			break
		}
		next, _ = play(t, next, "")
	}
	hq := next.unit("HQS")
	if hq.Dead || hq.Steps != 1 {
		t.Errorf("the HQ should be back by turn 10: %+v\n%s", hq, logText(next))
	}
}

func TestRule13_2_2_CapturedStrongpointNeedsRepair(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "340", "Oslo")
	for _, a := range []string{"Oslo", "Bergen", "Trondheim", "Narvik"} {
		s.setControl(a, German) // enough VP to pass the turn 11 check
	}
	next, _ := play(t, s, "move 340 Kongsvinger\n")
	sp := next.strongpoint("Kongsvinger")
	if sp.Owner != German || sp.Usable {
		t.Fatalf("a captured strongpoint is German but unusable: %+v", sp)
	}
	for next.Phasing != German {
		next, _ = play(t, next, "")
	}
	next, _ = play(t, next, "repair 340\n")
	for next.Turn < 11 {
		next, _ = play(t, next, "")
	}
	if !next.strongpoint("Kongsvinger").Usable {
		t.Error("two full turns of repair make it usable")
	}
}

func TestRule15_3_2_EngineersRepairBatteries(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Kristiansand", German)
	for _, b := range s.Bats {
		if b.Area == "Kristiansand" {
			b.Owner, b.Status = German, "inoperative"
		}
	}
	put(s, "169E", "Kristiansand")
	put(s, "340", "Kristiansand")
	if e := parseErr(t, s, "repair 340\n"); e.Rule != "15.3.2" {
		t.Errorf("infantry repairing a battery: rule %q", e.Rule)
	}
	next, _ := play(t, s, "repair 169E\n")
	for next.Turn < 10 || next.Phasing != Allied {
		next, _ = play(t, next, "")
	}
	for _, b := range next.Bats {
		if b.Area == "Kristiansand" && b.Status != "active" {
			t.Errorf("battery %+v should be repaired", b)
		}
	}
}

func TestRule10_3_7_2_RailLimit(t *testing.T) {
	s := bare(t, 10, German)
	for _, a := range []string{"Oslo", "Hamar", "Tretten"} {
		s.setControl(a, German)
	}
	s.RailNet = germanRailNet(s)
	text := ""
	for _, id := range []string{"340", "345", "362", "355", "367"} {
		put(s, id, "Oslo")
		text += "rail " + id + " Hamar Tretten\n"
	}
	_, errs := parseOrders(s, German, text)
	found := false
	for _, e := range errs {
		found = found || (e.Rule == "10.3.7.2" && e.Line == 5)
	}
	if !found {
		t.Errorf("a fifth German unit by rail, line 5: %v", errs)
	}
}

func TestRule9_10_1_UnloadedTroopsMoveHalf(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Oslo", German)
	f := fleetAt(s, "G20", German, "South-1", 0, 6)
	for _, id := range []string{"340", "345"} {
		u := put(s, id, "")
		u.Loc, u.Fleet = "", f.ID
		f.Cargo = append(f.Cargo, id)
	}
	parseOK(t, s, "fleet G20 to Oslo\nmove 340 Oslo Hamar\n") // half of 2 +1 by road... halved: 1
	if e := parseErr(t, s, "fleet G20 to Oslo\nmove 340 Oslo Hamar Tretten\n"); e.Rule != "10.3" {
		t.Errorf("two areas after unloading: rule %q", e.Rule)
	}
}

func TestRule10_3_4_LandedUnitsStay(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Egersund", Allied)
	f := fleetAt(s, "G20", German, "South-2", 0, 3)
	u := put(s, "340", "")
	u.Loc, u.Fleet = "", f.ID
	f.Cargo = []string{"340"}
	next, _ := play(t, s, "fleet G20 to Egersund\n")
	if next.unit("340").Loc != "Egersund" || next.unit("340").Landed != 8 {
		t.Fatalf("340 should land at Egersund:\n%s", logText(next))
	}
	next.Phasing = German
	if e := parseErr(t, next, "move 340 Evje\n"); e.Rule != "10.3.4" {
		t.Errorf("moving on the landing turn: rule %q", e.Rule)
	}
}

func TestRule12_2_2_ControlByMovingThrough(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "340", "Oslo")
	next, _ := play(t, s, "move 340 Oslo Hamar Elverum\n")
	if next.controller("Hamar") != German || next.controller("Elverum") != German {
		t.Error("areas passed through change hands (12.2.2)")
	}
}

func TestRule11_1_5_OverstackLosesUnits(t *testing.T) {
	s := bare(t, 8, German)
	for _, id := range []string{"340", "345", "362"} {
		put(s, id, "Oslo")
	}
	next, _ := play(t, s, "")
	dead := 0
	for _, id := range []string{"340", "345", "362"} {
		if next.unit(id).Dead {
			dead++
		}
	}
	if dead != 1 {
		t.Errorf("%d units eliminated, want 1", dead)
	}
}

func TestRule9_15_4_AnchoredShipsSurrenderOrFlee(t *testing.T) {
	s := bare(t, 4, German)
	g := fleetAt(s, "G3", German, "South-4", 12, 0)
	u := put(s, "159", "")
	u.Loc, u.Fleet = "", "G3"
	g.Cargo = []string{"159"}
	for _, b := range s.Bats {
		b.Status = "destroyed"
	}
	p := s.pool(Allied, "norwegian", "Bergen")
	p.Combat, p.Groups = 4, []int{4}
	// anchored group active (1); G3 round 1: 6 (+2) 4 hits; anchored 1;
	// surrender roll 2: they surrender.
	next, _ := play(t, s, "fleet G3 to Bergen\n", 1, 6, 1, 2)
	if !logHas(next, "surrender") && !logHas(next, "sunk") {
		t.Errorf("the beaten anchored ships should surrender or sink:\n%s", logText(next))
	}
	if next.controller("Bergen") != German {
		t.Errorf("the landing goes ahead:\n%s", logText(next))
	}
}

func TestRule9_11_BombingDeployedSubmarines(t *testing.T) {
	s := bare(t, 8, Allied)
	fleetAt(s, "G20", German, "South-2", 6, 0)
	subs := s.side(Allied).Subs
	next, _ := play(t, s, "sub South-2 G20 2\n", 1)
	if len(next.SubsOut) != 1 || next.SubsOut[0].N != 2 {
		t.Fatalf("two submarines stay deployed in South-2: %+v", next.SubsOut)
	}
	if len(viewOf(next, German).SubsOut) != 1 {
		t.Error("deployed submarine markers are on the map for both sides")
	}
	// German bombers: one marker, three dice: 6 6 1.
	n2, _ := play(t, next, "air bomb South-2 sub 1\n", 6, 6, 1)
	if got := n2.side(Allied).Subs; got != subs-2 {
		t.Errorf("British submarines %d, want %d after two hits", got, subs-2)
	}
	if e := parseErr(t, next, "air bomb South-3 sub 1\n"); e.Rule != "9.11" {
		t.Errorf("no submarines there: rule %q", e.Rule)
	}
}

func TestRule8_9_2_TwoSupplyUnitsAMarker(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Oslo", German)
	a, b := supplyAt(s, Germany), supplyAt(s, Germany)
	next, _ := play(t, s, "air transport "+a.ID+" "+b.ID+" to Oslo\n")
	if next.unit(a.ID).Loc != "Oslo" || next.unit(b.ID).Loc != "Oslo" {
		t.Error("one transport marker carries two supply units")
	}
	used := 0
	for _, p := range next.side(German).Air {
		if p.Type == "transport" {
			used += p.Used
		}
	}
	put(s, "340", Germany)
	if e := parseErr(t, s, "air transport 340 "+a.ID+" to Oslo\n"); e.Rule != "8.9.2" {
		t.Errorf("a regiment and a supply unit in one marker: rule %q", e.Rule)
	}
}

func TestRule8_11_4_ParatroopsWithheldFromCityDefence(t *testing.T) {
	s := bare(t, 8, Allied)
	put(s, "FJ1", "Stavanger")
	put(s, "193", "Stavanger")
	put(s, "IR8", "Stavanger")
	s.setControl("Stavanger", German)
	next, _ := play(t, s, "attack Stavanger\n", 1, 6)
	if !logHas(next, "paratroops at Stavanger are withheld") || logHas(next, "FJ1 rolls") {
		t.Errorf("FJ1 should be withheld:\n%s", logText(next))
	}
}

func TestRule12_2_4_1_EmbarkationNotice(t *testing.T) {
	s := bare(t, 19, Allied)
	put(s, "24G", "Harstad")
	put(s, "146", "Namsos")
	next, _ := play(t, s, "")
	if !logHas(next, "has not embarked half the British troops") {
		t.Errorf("turn 19 notice missing:\n%s", logText(next))
	}
}

func TestRule9_15_9_FleetMarkerInPort(t *testing.T) {
	s := bare(t, 8, Allied)
	p := s.pool(Allied, "norwegian", "Bergen")
	p.Combat = 4
	next, _ := play(t, s, "fleet A20 from Bergen decoys 1 to Bergen\nfleet A21 from Bergen combat 4 to Bergen\n")
	if f := next.fleet("A20"); f == nil || f.Where != "Bergen" || f.Detected {
		t.Fatalf("a decoy fleet marker stays undetected in the Bergen port box: %+v", f)
	}
	next.Phasing = German
	g := fleetAt(next, "G20", German, "South-4", 8, 0)
	u := put(next, "159", "")
	u.Loc, u.Fleet = "", g.ID
	g.Cargo = []string{"159"}
	for _, b := range next.Bats {
		b.Status = "destroyed"
	}
	// the decoy is revealed; A21 (4) fights G20 (8): 6+1 (4 hits) against 1
	n2, _ := play(t, next, "fleet G20 to Bergen\n", 6, 1, 1, 1)
	if !logHas(n2, "fleet A20 was only a decoy") || n2.fleet("A21") != nil {
		t.Errorf("the port-box fleets should be revealed and fought:\n%s", logText(n2))
	}
	if n2.controller("Bergen") != German {
		t.Errorf("the landing goes ahead once the port is clear:\n%s", logText(n2))
	}
}
