package norway1940

import (
	"strings"
	"testing"

	"skagerrak/engine/enginetest"
)

func TestRule8_9_1_ReconGroupedDetectsOnFive(t *testing.T) {
	s := bare(t, 8, German)
	fleetAt(s, "A20", Allied, "South-2", 6, 0)
	next, _ := play(t, s, "air recon South-2 A20 1\n", 5)
	if next.fleet("A20").Detected {
		t.Error("one recon point needs a 6")
	}
	next, _ = play(t, s, "air recon South-2 A20 3\n", 5)
	if !next.fleet("A20").Detected {
		t.Error("three grouped recon points detect on a 5")
	}
	if e := parseErr(t, s, "air recon North-2 A20 1\n"); e.Rule != "9.13.6" {
		t.Errorf("no fleet there: rule %q", e.Rule)
	}
}

func TestRule8_5_1_ReconRange(t *testing.T) {
	s := bare(t, 8, German)
	fleetAt(s, "A20", Allied, "North-2", 6, 0)
	if e := parseErr(t, s, "air recon North-2 A20 1\n"); e.Rule != "8.5.1" {
		t.Errorf("North boxes from Germany: rule %q, want 8.5.1", e.Rule)
	}
}

func TestRule8_9_2_AirTransport(t *testing.T) {
	s := bare(t, 5, German)
	s.setControl("Oslo", German)
	u := put(s, "340", Germany)
	u.Entry = 5
	if e := parseErr(t, s, "air transport 340 to Oslo\n"); e.Rule != "18" {
		t.Errorf("troops by air on turn 5: rule %q, want 18", e.Rule)
	}
	sup := supplyAt(s, Germany)
	parseOK(t, s, "air transport "+sup.ID+" to Oslo\n")
	s.Turn = 6
	next, _ := play(t, s, "air transport 340 to Oslo\n")
	if v := next.unit("340"); v.Loc != "Oslo" || v.Landed != 6 {
		t.Errorf("340 in %s, landed %d", v.Loc, v.Landed)
	}
	put(s, "169A", Germany)
	if e := parseErr(t, s, "air transport 169A to Oslo\n"); e.Rule != "8.9.2" {
		t.Errorf("artillery by air: rule %q", e.Rule)
	}
	s.setControl("Stjordal", German)
	if e := parseErr(t, s, "air transport 340 to Narvik\n"); e.Rule != "8.9.2" && e.Rule != "8.5.1" && e.Rule != "8.10.2" {
		t.Errorf("Narvik from Germany: rule %q", e.Rule)
	}
}

func TestRule8_9_3_1_KeptFightersIntercept(t *testing.T) {
	s := bare(t, 8, Allied)
	put(s, "340", "Hamar")
	put(s, "IR5", "Elverum")
	s.setControl("Hamar", German)
	s.setControl("Stjordal", Allied)
	s.side(German).Standing.Keep = 4
	// Norwegian bombers fly from Stjordal... too far; use a southern field.
	s.setControl("Oslo", Allied)
	next, _ := play(t, s, "air bomb Hamar 340 1\nair patrol Hamar 1\n", 6)
	if !logHas(next, "turned back by fighters") || next.unit("340").Blast != 0 {
		t.Errorf("four kept German fighters neutralise the escort and turn back the bomber:\n%s", logText(next))
	}
	if got := next.side(German).Standing.Keep; got != 2 {
		t.Errorf("kept fighters left %d, want 2 (one for the escort, one for the bomber)", got)
	}
}

func TestRule8_9_4_3_BlastMarkers(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Oslo", German)
	put(s, "159", "Oslo")
	n := put(s, "IR5", "Elverum")
	// a German bomber marker rolls three dice: 6 1 6
	next, _ := play(t, s, "air bomb Elverum IR5 1\n", 6, 1, 6)
	if u := next.unit(n.ID); u.Blast != 2 {
		t.Fatalf("IR5 blast markers %d, want 2:\n%s", u.Blast, logText(next))
	}
	if e := parseErr(t, next, "move IR5 Hamar\n"); e.Rule != "8.9.4.3" {
		t.Errorf("a blasted unit moving: rule %q", e.Rule)
	}
	// 5.2.2: placed on turn 8, the first marker goes in turn 10's
	// reorganisation, one a turn.
	for next.Turn < 10 {
		next, _ = play(t, next, "")
	}
	for next.Phasing != Allied {
		next, _ = play(t, next, "")
	}
	if u := next.unit(n.ID); u.Blast != 1 {
		t.Errorf("turn 10: %d blast markers, want 1", u.Blast)
	}
}

func TestRule8_9_4_1_LandSupportLimits(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Egersund")
	put(s, "IR14", "Egersund")
	if e := parseErr(t, s, "attack Egersund\nair support Egersund 2\n"); e.Rule != "8.9.4.1.2" && e.Rule != "10.5.4" {
		t.Errorf("two German bomber markers in support: rule %q", e.Rule)
	}
	if e := parseErr(t, s, "air support Hamar 1\n"); e.Rule != "8.9.4.1" {
		t.Errorf("support without an attack: rule %q", e.Rule)
	}
	next, _ := play(t, s, "attack Egersund\nair support Egersund 1\n", 1, 6)
	if !logHas(next, "+3 bomber support") || !logHas(next, "+1 combined arms") {
		t.Errorf("a German bomber marker adds +3 and the air arm:\n%s", logText(next))
	}
}

func TestRule10_3_6_Interdiction(t *testing.T) {
	s := bare(t, 8, German)
	next, _ := play(t, s, "air interdict Hamar 1\n", 6, 6, 1)
	if next.marks("Hamar") != 2 {
		t.Fatalf("interdiction markers %d, want 2", next.marks("Hamar"))
	}
	for next.Turn < 9 {
		next, _ = play(t, next, "")
	}
	if next.marks("Hamar") != 1 {
		t.Errorf("one marker is removed each turn: %d left", next.marks("Hamar"))
	}
}

func TestRule8_11_ParachuteUnits(t *testing.T) {
	s := bare(t, 4, German)
	s.Invaded = false
	u := s.unit("FJ1")
	u.Dead, u.Loc = false, ParaBox
	if e := parseErr(t, s, "air para FJ1 Bergen\n"); e.Rule != "8.8" {
		t.Errorf("drop on Bergen: rule %q, want 8.8", e.Rule)
	}
	next, _ := play(t, s, "air para FJ1 Stavanger\n")
	if next.unit("FJ1").Loc != "Stavanger" || next.controller("Stavanger") != German {
		t.Fatalf("FJ1 should drop on and take the empty Stavanger")
	}
	for next.Phasing != German {
		next, _ = play(t, next, "")
	}
	if e := parseErr(t, next, "move FJ1 Egersund\n"); e.Rule != "8.11.3" {
		t.Errorf("moving a dropped parachute unit: rule %q", e.Rule)
	}
}

func TestRule8_10_3_AirfieldHits(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Oslo", German)
	put(s, "159", "Oslo")
	// three dice of one German marker, all hits
	next, _ := play(t, s, "air bomb Stavanger airfield 1\n", 6, 6, 6)
	if af := next.airfield("Stavanger"); af.Hits != 3 {
		t.Fatalf("hits %d, want 3", af.Hits)
	}
	next.setControl("Stavanger", German)
	for next.Phasing != German {
		next, _ = play(t, next, "")
	}
	u := put(next, "340", Germany)
	u.Entry = 1
	if e := parseErr(t, next, "air transport 340 to Stavanger\n"); e.Rule != "8.9.2" {
		t.Errorf("an airfield with 3 hits: rule %q", e.Rule)
	}
}

func TestRule8_12_RAFOverNorway(t *testing.T) {
	s := bare(t, 8, Allied)
	put(s, "340", "Hamar")
	for _, f := range s.Fields {
		s.setControl(f.Area, German)
	}
	if e := parseErr(t, s, "air bomb Hamar 340 1\n"); e.Rule != "8.9.4" && e.Rule != "8.12" {
		t.Errorf("RAF bombers over Norway without Norwegian airfields: rule %q", e.Rule)
	}
}

func TestRule9_12_AircraftCarriers(t *testing.T) {
	s := bare(t, 8, Allied)
	f := fleetAt(s, "A20", Allied, "Centre-2", 6, 0)
	f.Carriers = 1
	put(s, "138", "Trondheim")
	put(s, "159", "Storen")
	put(s, "340", "Stjordal")
	for _, a := range []string{"Trondheim", "Storen", "Stjordal"} {
		s.setControl(a, German)
	}
	for _, fld := range s.Fields {
		s.setControl(fld.Area, German) // no Norwegian airfield: only the carrier
	}
	next, _ := play(t, s, "air bomb Trondheim 138 1\nair bomb Storen 159 1\n", 6, 6)
	if !next.fleet("A20").Detected || next.unit("138").Blast != 1 {
		t.Fatalf("the carrier's planes bomb Trondheim and reveal the fleet:\n%s", logText(next))
	}
	if e := parseErr(t, s, "air bomb Trondheim 138 1\nair bomb Storen 159 1\nair bomb Stjordal 340 1\n"); e.Rule != "8.9.4" {
		t.Errorf("a carrier launches 2 air points a turn: rule %q", e.Rule)
	}
	// German bombers hit the revealed carrier first; two hits sink it.
	g := bare(t, 8, German)
	c := fleetAt(g, "A20", Allied, "South-2", 6, 0)
	c.Carriers, c.Detected = 1, true
	next, _ = play(t, g, "air bomb South-2 A20 1\n", 6, 6, 6)
	if a := next.fleet("A20"); a.Carriers != 0 || a.Combat != 5 {
		t.Errorf("fleet after three hits: %+v", a)
	}
}

func TestRule8_10_1_AirfieldCapacity(t *testing.T) {
	s := bare(t, 8, German)
	for _, fld := range s.Fields {
		s.setControl(fld.Area, Allied)
	}
	s.setControl("Bodo", German)
	put(s, "IR14", "Mo")
	put(s, "EB6", "Narvik")
	put(s, "IR15", "Elvegardsmoen")
	// 6 air points at Bodo: two German bomber markers of 3.
	parseOK(t, s, "air bomb Mo IR14 1\nair bomb Narvik EB6 1\n")
	if e := parseErr(t, s, "air bomb Mo IR14 1\nair bomb Narvik EB6 1\nair bomb Elvegardsmoen IR15 1\n"); e.Rule != "8.9.4" {
		t.Errorf("a third marker from Bodo: rule %q", e.Rule)
	}
	s.airfield("Bodo").Hits = 1
	if e := parseErr(t, s, "air bomb Mo IR14 1\nair bomb Narvik EB6 1\n"); e.Rule != "8.9.4" {
		t.Errorf("a hit takes 2 points of room: rule %q", e.Rule)
	}
}

// 8.9.3.1 example: six German escorts make three kept Norwegian fighters
// fruitless; four kept German fighters against three Norwegian escorts
// turn back one bomber.
func TestRule8_9_3_1_KeptFightersExample(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Oslo", German)
	s.setControl("Drammen", German)
	put(s, "340", "Drammen")
	put(s, "IR5", "Hamar")
	s.side(Allied).Standing.Keep = 3
	next, _ := play(t, s, "air patrol Hamar 6\nair bomb Hamar IR5 1\nkeep fighters 4\n", 1, 1, 1)
	if logHas(next, "intercept") {
		t.Errorf("three Norwegian fighters against six escorts stay home:\n%s", logText(next))
	}
	if next.side(German).Standing.Keep != 4 {
		t.Fatalf("the German keeps 4 fighters")
	}
	// The Norwegian turn: three escorts and the bomber over Drammen, flown
	// from Kristiansand.
	for i := range next.side(Allied).Air {
		if a := &next.side(Allied).Air[i]; a.Type == "fighter" && a.Nation == "norwegian" {
			a.Used = 0
		}
	}
	n2, _ := play(t, next, "air patrol Drammen 3\nair bomb Drammen 340 1\n", 6)
	if !logHas(n2, "turned back by fighters") || n2.unit("340").Blast != 0 {
		t.Errorf("the fourth German fighter turns the bomber back:\n%s", logText(n2))
	}
}

// 8.9.5 example: one Allied fighter neutralises the German fighter over
// the fleet, and the bombers attack it.
func TestRule8_9_5_BombingExample(t *testing.T) {
	s := bare(t, 8, Allied)
	g := fleetAt(s, "G20", German, "South-2", 6, 0)
	g.Detected = true
	s.side(German).Standing.Keep = 1
	f := fleetAt(s, "A20", Allied, "South-3", 4, 0)
	f.Carriers = 2
	next, _ := play(t, s, "air patrol South-2 1\nair bomb South-2 G20 3\n", 6, 6, 1)
	if logHas(next, "turned back") || next.fleet("G20").Combat != 4 {
		t.Errorf("the escort neutralises the German fighter and the bombers hit twice:\n%s", logText(next))
	}
}

// 5.2.2 example: a blast marker placed on turn 4 cannot go on turn 5 and
// goes on turn 6.
func TestRule5_2_2_HitRemovalExample(t *testing.T) {
	s := bare(t, 4, Allied)
	u := put(s, "340", "Hamar")
	u.Blast, u.BlastTurn = 1, 4
	next, _ := play(t, s, "") // to turn 5, German reorganisation
	if next.unit("340").Blast != 1 {
		t.Fatal("turn 5: the marker stays")
	}
	next, _ = play(t, next, "")
	next, _ = play(t, next, "") // turn 6
	if next.unit("340").Blast != 0 {
		t.Fatal("turn 6: the marker is removed")
	}
}

func TestRule8_12_CarriersFerryPlanesToNorway(t *testing.T) {
	s := bare(t, 12, Allied)
	f := fleetAt(s, "A20", Allied, "North-3", 4, 0)
	f.Carriers = 1
	if e := parseErr(t, s, "air ferry Bardufoss 2\n"); e.Rule != "8.12" {
		t.Errorf("before turn 13: rule %q", e.Rule)
	}
	s.Turn = 13
	if e := parseErr(t, s, "air ferry Bardufoss 3\n"); e.Rule != "9.12" {
		t.Errorf("more than the carrier holds: rule %q", e.Rule)
	}
	if e := parseErr(t, s, "air ferry Kristiansand 1\n"); e.Rule != "8.12" {
		t.Errorf("south of Dombas: rule %q", e.Rule)
	}
	next, _ := play(t, s, "air ferry Bardufoss 2\n")
	if basedAt(next, "Bardufoss") != 2 {
		t.Fatalf("based %v", next.side(Allied).Based)
	}
	next.Fleets = nil // the carrier sails home; the planes stay
	next.Phasing = Allied
	put(next, "139", "Narvik")
	c := newTurnCtx(next, Allied, nil)
	if n, b := c.pick("fighter", "Narvik", 2); n != "british" || b != "Bardufoss" {
		t.Errorf("British fighters over Narvik from %q (%q), want Bardufoss", b, n)
	}
	capture(next, "Bardufoss", German)
	if basedAt(next, "Bardufoss") != 0 {
		t.Error("the based planes are lost with the airfield")
	}
}

// 8.10.4: "In his own Supply Phase, a player may remove one hit marker",
// after a full turn (5.2.2). By hand: two hits on the German-held Sola
// airfield on turn 8 stay on turn 9, one goes on turn 10, the other on
// turn 11; the German reorganisation leaves the Allied Kjevik's hit alone,
// the Allied one removes it.
func TestRule8_10_4_OneHitMarkerRemovedATurn(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Stavanger", German)
	sola, kjevik := s.airfield("Stavanger"), s.airfield("Kristiansand")
	sola.Hits, sola.HitTurn = 2, 8
	kjevik.Hits, kjevik.HitTurn = 1, 8
	for turn, want := range map[int]int{9: 2, 10: 1, 11: 0} {
		c := s.clone()
		for c.Turn = 9; c.Turn <= turn; c.Turn++ {
			reorg(c, German, enginetest.ThenOnes())
		}
		if got := c.airfield("Stavanger").Hits; got != want {
			t.Errorf("turn %d: Sola %d hits, want %d", turn, got, want)
		}
	}
	c := s.clone()
	c.Turn = 10
	reorg(c, German, enginetest.ThenOnes())
	if c.airfield("Kristiansand").Hits != 1 {
		t.Error("the German removed a hit from an Allied airfield")
	}
	reorg(c, Allied, enginetest.ThenOnes())
	if c.airfield("Kristiansand").Hits != 0 {
		t.Error("the Allied reorganisation removes its airfield's hit")
	}
}

// 8.10.5: "The German player may use Danish airfields by turn 4 (10 April)
// and those Norwegian airfields captured ... by turn 5". A German bomber
// reaches Kristiansand from Denmark on turn 4 (one area from the Danish
// range); Steinkjer, far north, only from the captured Vaernes airfield
// (Stjordal, one area away), usable from turn 5.
func TestRule8_10_5_DanishThenCapturedAirfields(t *testing.T) {
	s := bare(t, 4, German)
	put(s, "IR7", "Kristiansand")
	put(s, "IR13", "Steinkjer")
	s.setControl("Stjordal", German)
	parseOK(t, s, "air bomb Kristiansand IR7 1\n")
	if e := parseErr(t, s, "air bomb Steinkjer IR13 1\n"); e.Rule != "8.9.4" || !contains([]string{e.Msg}, "Steinkjer is out of bomber range, or no base in range has room left (8.10.1)") {
		t.Errorf("turn 4: no base reaches Steinkjer: %+v", e)
	}
	s.Turn = 5
	parseOK(t, s, "air bomb Steinkjer IR13 1\n")
	s.Turn = 3
	if e := parseErr(t, s, "air bomb Kristiansand IR7 1\n"); e.Rule != "18" {
		t.Errorf("turn 3: %+v", e)
	}
}

// 8.2.1: "the Norwegians do lose [their air points] if all their airfields
// are enemy controlled"; the German and the British never do.
func TestRule8_2_1_NorwegianAirPointsLostWithTheirAirfields(t *testing.T) {
	s := bare(t, 8, German)
	markers := func(nation string) int {
		n := 0
		for _, ss := range s.Sides {
			for _, a := range ss.Air {
				if a.Nation == nation {
					n += a.Markers
				}
			}
		}
		return n
	}
	if markers("norwegian") != 5 {
		t.Fatalf("Norwegian markers %d, want 3 fighters, 1 bomber, 1 recon (data/air.txt)", markers("norwegian"))
	}
	for _, f := range s.Fields {
		s.setControl(f.Area, German)
	}
	resetAir(s)
	if markers("norwegian") != 0 || markers("british") != 11 || markers("german") != 24 {
		t.Errorf("every airfield German: Norwegian %d, British %d, German %d markers", markers("norwegian"), markers("british"), markers("german"))
	}
	s.setControl("Bardufoss", Allied)
	resetAir(s)
	if markers("norwegian") != 5 {
		t.Error("one Norwegian airfield back: the air points come back")
	}
}

// 8.9.4.1.1: "Up to 3 Allied bomber markers may be present at once in a
// land area". Two carriers (4 air points) and the British bombers: three
// markers over Trondheim are accepted, a fourth is refused.
func TestRule8_9_4_1_1_ThreeAlliedBombersAnArea(t *testing.T) {
	s := bare(t, 8, Allied)
	f := fleetAt(s, "A20", Allied, "Centre-2", 4, 0)
	f.Carriers = 2
	put(s, "138", "Trondheim")
	line := "air bomb Trondheim 138 1\n"
	parseOK(t, s, strings.Repeat(line, 3))
	if e := parseErr(t, s, strings.Repeat(line, 4)); e.Rule != "8.9.4.1.1" || e.Line != 4 {
		t.Errorf("a fourth Allied bomber marker: %+v", e)
	}
}

// 8.9.4.2: "In a sea box, more than 3 bombers may be present, but they
// must attack different targets. A given target cannot be attacked by
// more than 3 bomber air points." A German bomber marker is 3 points: a
// second one on A20 is refused, one on A21 in the same box is not.
func TestRule8_9_4_2_ThreeBomberPointsATargetAtSea(t *testing.T) {
	s := bare(t, 8, German)
	for _, id := range []string{"A20", "A21"} {
		fleetAt(s, id, Allied, "South-2", 4, 0).Detected = true
	}
	if e := parseErr(t, s, "air bomb South-2 A20 1\nair bomb South-2 A20 1\n"); e.Rule != "8.9.4.2" || e.Line != 2 {
		t.Errorf("6 bomber points on one fleet: %+v", e)
	}
	parseOK(t, s, "air bomb South-2 A20 1\nair bomb South-2 A21 1\n")
}

// 15.3, 15.3.1: "A Coastal Battery is rendered inoperative ... By air
// bombing. It takes one hit". By hand: a German bomber marker rolls 6, 1,
// 1 over Bergen: one hit, one of Bergen's two batteries is inoperative. In
// the Allied naval combat step only the other fires on the German fleet
// held in the port box (15.2.3): three dice, 6, 6, 1: two hits, 4 combat
// points to 2; then the weather of turn 9.
func TestRule15_3_1_BombingSilencesABattery(t *testing.T) {
	s := bare(t, 8, German)
	g := fleetAt(s, "G20", German, "Bergen", 4, 0)
	g.Failed, g.Detected = true, true
	next, _ := play(t, s, "air bomb Bergen battery 1\n", 6, 1, 1)
	var states []string
	for _, b := range next.Bats {
		if b.Area == "Bergen" {
			states = append(states, b.Status)
		}
	}
	if strings.Join(states, " ") != "inoperative active" {
		t.Fatalf("Bergen batteries %v:\n%s", states, logText(next))
	}
	end, d := play(t, next, "", 6, 6, 1, 1)
	if d.Used() != 4 || end.fleet("G20").Combat != 2 {
		t.Errorf("one battery fires three shots: %d dice, G20 %+v\n%s", d.Used(), end.fleet("G20"), logText(end))
	}
	for _, b := range end.Bats {
		if b.Area == "Bergen" && b.N == 1 && b.Status != "inoperative" {
			t.Errorf("the bombed battery recovered by itself: %+v", b)
		}
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
