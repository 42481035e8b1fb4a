package norway1940

import (
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

func TestRule6_2_WeatherExample(t *testing.T) {
	s := bare(t, 6, German)
	startTurn(s, enginetest.ThenOnes(3))
	if s.Weather.Centre != "clear" || s.Weather.South != "clear" || s.Weather.North != "bad" {
		t.Errorf("a 3: %+v, want clear, clear and bad weather in the North", s.Weather)
	}
	s = bare(t, 5, German)
	d := enginetest.ThenOnes()
	startTurn(s, d)
	if d.Short() != 0 || s.Weather.Roll != 0 {
		t.Error("no weather roll before turn 6 (6.1)")
	}
}

func TestRule6_3_StormAndThunderstorm(t *testing.T) {
	s := bare(t, 8, German)
	s.Weather = Weather{South: "storm", Centre: "thunder", North: "thunder"}
	put(s, "159", "Oslo")
	if e := parseErr(t, s, "move 159 Hamar Elverum\n"); e.Rule != "10.3" {
		t.Errorf("storm halves movement: rule %q", e.Rule)
	}
	parseOK(t, s, "move 159 Hamar\n")
	put(s, "340", "Tretten")
	if e := parseErr(t, s, "move 340 Kvam\n"); e.Rule != "6.3.4" {
		t.Errorf("thunderstorm: rule %q, want 6.3.4", e.Rule)
	}
	put(s, "138", "Tretten")
	parseOK(t, s, "move 138 Kvam\n") // mountain troops move half
	if e := parseErr(t, s, "air recon South-2 A1 1\n"); e.Rule != "6.3.3" && e.Rule != "9.13.6" {
		t.Errorf("recon in the storm: rule %q", e.Rule)
	}
	fleetAt(s, "A20", Allied, "South-2", 4, 0)
	if e := parseErr(t, s, "air recon South-2 A20 1\n"); e.Rule != "6.3.3" {
		t.Errorf("recon in the storm: rule %q, want 6.3.3", e.Rule)
	}
}

func TestRule6_3_4_FleetsRunFromThunderstorm(t *testing.T) {
	s := bare(t, 8, German)
	s.Weather = Weather{South: "thunder", Centre: "clear", North: "clear"}
	fleetAt(s, "G20", German, "South-2", 4, 0)
	next, _ := play(t, s, "")
	if next.fleet("G20") != nil || next.pool(German, "german", Germany).Combat != 4 {
		t.Errorf("the fleet should run for port:\n%s", logText(next))
	}
}

func TestRule6_3_3_StormHidesMovingFleets(t *testing.T) {
	s := bare(t, 8, German)
	s.Weather = Weather{South: "storm", Centre: "clear", North: "clear"}
	f := fleetAt(s, "G20", German, "South-2", 4, 0)
	f.Detected = true
	next, _ := play(t, s, "fleet G20 to South-3\n")
	if next.fleet("G20").Detected {
		t.Error("a detected fleet moving in the storm becomes undetected")
	}
}

func TestRule7_SupplyFromTurn7(t *testing.T) {
	s := bare(t, 6, German)
	u := put(s, "340", "Hamar")
	reorg(s, German, enginetest.ThenOnes())
	if u.OOS {
		t.Error("every unit is supplied before turn 7 (7.1)")
	}
	s.Turn = 7
	reorg(s, German, enginetest.ThenOnes())
	if !u.OOS {
		t.Error("turn 7, Oslo not German: out of supply")
	}
	sup := supplyAt(s, "Elverum")
	reorg(s, German, enginetest.ThenOnes())
	if u.OOS {
		t.Error("a supply unit one area away supplies (7.4.2)")
	}
	sup.Dead = true
	s.setControl("Oslo", German)
	reorg(s, German, enginetest.ThenOnes())
	if u.OOS {
		t.Error("Hamar traces by rail to German Oslo (7.2, 7.4.1)")
	}
	put(s, "IR2", "Oslo")
	reorg(s, German, enginetest.ThenOnes())
	if !u.OOS {
		t.Error("an enemy unit in Oslo cuts the paths through it")
	}
	v := put(s, "345", "Oslo")
	reorg(s, German, enginetest.ThenOnes())
	if v.OOS {
		t.Error("German-held Oslo still supplies the Germans in it")
	}
}

func TestRule7_5_UnsuppliedCannotAttack(t *testing.T) {
	s := bare(t, 8, German)
	u := put(s, "340", "Hamar")
	u.OOS = true
	put(s, "IR5", "Elverum")
	if e := parseErr(t, s, "move 340 Elverum\n"); e.Rule != "7.5" {
		t.Errorf("rule %q, want 7.5", e.Rule)
	}
	s2 := bare(t, 8, German)
	put(s2, "340", "Hamar")
	n := put(s2, "IR5", "Elverum")
	n.OOS = true
	next, _ := play(t, s2, "move 340 Elverum\n", 1, 1)
	if !logHas(next, "defender out of supply") {
		t.Errorf("attacker +1 against unsupplied defenders:\n%s", logText(next))
	}
}

func TestRule7_3_GermanSupplyUnitsCannotBeStockpiled(t *testing.T) {
	s := bare(t, 6, German)
	startTurn(s, enginetest.ThenOnes(1))
	n := 0
	for _, u := range s.Units {
		if u.Type == "supply" && u.Loc == Germany && !u.Dead {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d supply units in Germany, want 2", n)
	}
	next, _ := play(t, s, "")
	for _, u := range next.Units {
		if u.Type == "supply" && u.Loc == Germany && !u.Dead {
			t.Errorf("%s was not shipped and should be lost", u.ID)
		}
	}
}

func holdAll(s *State, x engine.Side) {
	for _, a := range targets(s) {
		s.setControl(a, x)
	}
}

func TestRule12_4_1_SuddenDeathTurn11(t *testing.T) {
	s := bare(t, 10, Allied)
	s.setControl("Kristiansand", German)
	s.setControl("Bergen", German)
	s.setControl("Trondheim", German)
	s.setControl("Hamar", German) // 7 VP
	next, _ := play(t, s, "")
	if !next.Over || next.Result.Winner != Allied || next.Result.Level != "sudden death" {
		t.Fatalf("7 VP on turn 11: %+v", next.Result)
	}
	s.setControl("Elverum", German) // 8 VP
	next, _ = play(t, s, "")
	if next.Over {
		t.Fatalf("8 VP is enough on turn 11: %+v", next.Result)
	}
}

func TestRule12_4_2_SuddenDeathTurn14(t *testing.T) {
	s := bare(t, 13, Allied)
	for _, a := range []string{"Kristiansand", "Bergen", "Trondheim", "Stavanger"} {
		s.setControl(a, German) // 8 VP without Oslo
	}
	next, _ := play(t, s, "")
	if !next.Over || next.Result.Winner != Allied {
		t.Fatal("turn 14 without Oslo: Allied sudden death")
	}
	s.setControl("Oslo", German)
	if next, _ = play(t, s, ""); next.Over {
		t.Fatal("Oslo and 8 VP hold on turn 14")
	}
}

func TestRule12_4_3_SuddenDeathTurn17(t *testing.T) {
	s := bare(t, 16, Allied)
	for _, a := range []string{"Oslo", "Kristiansand", "Bergen", "Trondheim", "Stavanger"} {
		s.setControl(a, German) // Oslo and 8 VP
	}
	next, _ := play(t, s, "")
	if !next.Over || next.Result.Winner != Allied {
		t.Fatal("turn 17 needs Oslo and 10 VP")
	}
	s.setControl("Narvik", German)
	if next, _ = play(t, s, ""); next.Over {
		t.Fatal("Oslo and 10 VP hold on turn 17")
	}
}

func TestRule12_3_1_GermanDecisiveAfterTwoFullTurns(t *testing.T) {
	s := bare(t, 7, Allied)
	holdAll(s, German)
	next, _ := play(t, s, "") // end of turn 7: held since 7
	for i := 0; i < 2 && !next.Over; i++ {
		next, _ = play(t, next, "")
		next, _ = play(t, next, "")
	}
	if !next.Over || next.Result.Winner != German || next.Result.Level != "decisive" || next.Turn != 9 {
		t.Fatalf("German decisive victory at the end of turn 9 expected, got turn %d %+v", next.Turn, next.Result)
	}
}

func TestRule12_3_2_AlliedDecisiveFromTurn10(t *testing.T) {
	s := bare(t, 9, Allied)
	endTurn(s) // the Allied holds every target at the end of turn 9
	if s.Over {
		t.Fatal("no Allied decisive victory before turn 10")
	}
	s.Turn = 10
	endTurn(s)
	if s.Over {
		t.Fatal("one full turn from turn 10 is not enough")
	}
	s.Turn = 11
	endTurn(s)
	if !s.Over || s.Result.Winner != Allied || s.Result.Level != "decisive" {
		t.Fatalf("turns 10 and 11 held: %+v", s.Result)
	}
	s = bare(t, 10, Allied)
	s.setControl("Hamar", German)
	endTurn(s)
	s.setControl("Hamar", Allied)
	s.Turn = 11
	endTurn(s)
	if s.Over {
		t.Fatal("Hamar was lost in turn 10: not two full turns")
	}
}

func TestRule12_2_VictoryByPoints(t *testing.T) {
	s := bare(t, 21, Allied)
	holdAll(s, German)
	s.setControl("Harstad", Allied)
	s.setControl("Bodo", Allied)
	put(s, "24G", "Harstad")
	next, _ := play(t, s, "")
	r := next.Result
	if r == nil || r.Level != "points" {
		t.Fatalf("result %+v", r)
	}
	// Allied: 2 VP - 2 for the withdrawal - 1 for the brigade in Norway.
	if r.Points[Allied] != -1 || r.Winner != German {
		t.Errorf("points %v winner %s", r.Points, r.Winner)
	}
	s2 := bare(t, 21, Allied)
	next, _ = play(t, s2, "")
	if next.Result.Winner != Allied {
		t.Error("the Allied holding everything wins on points")
	}
}

func TestRule18_FirstTurnRules(t *testing.T) {
	st, _ := Ruleset{}.New(engine.Setup{}, enginetest.ThenOnes())
	s := st.(*State)
	s.Phasing = Allied
	if e := parseErr(t, s, "move IR2 Drammen\n"); e.Rule != "18" {
		t.Errorf("Norwegians before the invasion: rule %q", e.Rule)
	}
	if e := parseErr(t, s, "fleet A9 from UK combat 12 to North-2\n"); e.Rule != "18" {
		t.Errorf("more than half the British naval points: rule %q", e.Rule)
	}
	s.Phasing = German
	if e := parseErr(t, s, "fleet G1 to South-1\nfleet G1 to Narvik\n"); e.Rule == "" {
		t.Error("a fleet moves once")
	}
	// The invasion turn +1.
	b := bare(t, 4, German)
	put(b, "159", "Egersund")
	put(b, "IR14", "Egersund")
	next, _ := play(t, b, "attack Egersund\n", 1, 1)
	if !logHas(next, "+1 invasion turn") {
		t.Errorf("no +1 on the invasion turn:\n%s", logText(next))
	}
}

func TestRule18_TrondheimGarrisonRoll(t *testing.T) {
	s := bare(t, 4, German)
	g := fleetAt(s, "G2", German, "Centre-2", 6, 0)
	u := put(s, "138", "")
	u.Loc, u.Fleet = "", g.ID
	g.Cargo = []string{"138"}
	put(s, "EB5", "Trondheim")
	s.pool(Allied, "norwegian", "Trondheim").Combat = 0
	for _, b := range s.Bats {
		b.Status = "destroyed"
	}
	// garrison roll 2: the engineers withdraw; Trondheim falls.
	next, _ := play(t, s, "fleet G2 to Trondheim\n", 2)
	if next.unit("EB5").Loc == "Trondheim" || next.controller("Trondheim") != German {
		t.Errorf("the garrison should withdraw:\n%s", logText(next))
	}
	s.Options = []string{OptGarrisonSurrend}
	next, _ = play(t, s, "fleet G2 to Trondheim\n", 2)
	if !next.unit("EB5").Dead {
		t.Error("option garrison-surrender: the garrison surrenders")
	}
}

func TestRule17_1_FifthDivisionStaysNorthOfDombas(t *testing.T) {
	s := bare(t, 8, Allied)
	s.AlliedLanded = false
	put(s, "IR12", "Dombas")
	if e := parseErr(t, s, "move IR12 Kvam\n"); e.Rule != "17.1" {
		t.Errorf("rule %q, want 17.1", e.Rule)
	}
	put(s, "IR13", "Stjordal")
	put(s, "138", "Trondheim")
	if e := parseErr(t, s, "move IR13 Trondheim\n"); e.Rule != "17.1" {
		t.Errorf("attacking Trondheim before the Allied landing: rule %q", e.Rule)
	}
	s.AlliedLanded = true
	parseOK(t, s, "move IR12 Kvam\n")
}

func TestRule18_NorwegianDisorganisationStacking(t *testing.T) {
	s := bare(t, 5, Allied)
	put(s, "IR5", "Elverum")
	put(s, "IR4", "Hamar")
	if e := parseErr(t, s, "move IR4 Elverum\n"); e.Rule != "18" {
		t.Errorf("two Norwegian regiments before turn 6: rule %q", e.Rule)
	}
	s.Turn = 6
	parseOK(t, s, "move IR4 Elverum\n")
}

func TestRule18_FrancoBritishLandingFreesTheNorwegians(t *testing.T) {
	s := bare(t, 9, Allied)
	s.AlliedLanded = false
	f := fleetAt(s, "A20", Allied, "Centre-3", 0, 3)
	u := put(s, "146", "")
	u.Loc, u.Fleet = "", f.ID
	f.Cargo = []string{"146"}
	next, _ := play(t, s, "fleet A20 to Namsos\n")
	if !next.AlliedLanded {
		t.Error("unloading British troops at an Allied port is a Franco-British landing")
	}
}

// 7.4.3: "Any units conducting an amphibious landing are fully supplied
// for the turn they conduct the landing. Likewise, air transported units
// are fully supplied for the turn they reach their target airfield." 193
// sailed from a port where it was out of supply; landing at Stavanger it
// is supplied and attacks: 6+2 = 8 against IR8's 1, +1 for the city = 2,
// differential 6, a step and a retreat. 340, out of supply at
// Kristiansand (Kjevik), flies to the German-held airfield of Dombas: it
// is supplied there. Revision 1 kept the old flag: 193 could not
// attack and the landing failed.
func TestRule7_4_3_LandedUnitsAreSupplied(t *testing.T) {
	setup := func() *State {
		s := bare(t, 8, German)
		g := fleetAt(s, "G20", German, "South-3", 2, 4)
		u := put(s, "193", "")
		u.Loc, u.Fleet, u.OOS = "", g.ID, true
		g.Cargo = []string{"193"}
		put(s, "IR8", "Stavanger")
		s.setControl("Kristiansand", German)
		s.setControl("Dombas", German)
		a := put(s, "340", "Kristiansand")
		a.OOS = true
		return s
	}
	next, _ := play(t, setup(), "fleet G20 to Stavanger\nair transport 340 to Dombas from Kristiansand\n", 6, 1)
	if u := next.unit("193"); u.OOS || u.Loc != "Stavanger" || next.controller("Stavanger") != German {
		t.Errorf("193 %+v lands supplied and takes Stavanger:\n%s", u, logText(next))
	}
	if u := next.unit("340"); u.OOS || u.Loc != "Dombas" {
		t.Errorf("340 %+v arrives by air supplied", u)
	}
	r1 := setup()
	r1.Revision = 0
	old, _ := play(t, r1, "fleet G20 to Stavanger\n", 6, 1)
	if old.controller("Stavanger") == German {
		t.Errorf("revision 1: the out-of-supply flag stopped the attack:\n%s", logText(old))
	}
}

// 7.6: "Naval and Air units are always supplied and do not spend any kind
// of supply." On turn 10, with Oslo not German (no German supply source,
// 7.2), the German reorganisation marks the land unit out of supply, while
// a German fleet at sea still attacks and the German air points are whole.
func TestRule7_6_NavalAndAirUnitsNeedNoSupply(t *testing.T) {
	s := bare(t, 10, German)
	u := put(s, "340", "Hamar")
	reorg(s, German, enginetest.ThenOnes())
	if !u.OOS {
		t.Fatal("340 should be out of supply on turn 10")
	}
	for _, a := range s.side(German).Air {
		if a.Used != 0 || a.Markers == 0 {
			t.Errorf("German air %+v", a)
		}
	}
	fleetAt(s, "G20", German, "North-2", 6, 0)
	fleetAt(s, "A20", Allied, "North-2", 2, 0).Detected = true
	parseOK(t, s, "fleet G20 attack A20\n")
}

// 7.7: "Supply units move as infantry units. They have a 2-movement factor
// and are restricted as infantry units by weather conditions." By road, 2
// +1 = 3 areas (10.3): Oslo, Hamar, Tretten, Kvam; four are too many. In
// a storm in the South (halved: 3/2 = 1) one area, the least any unit
// moves (10.3.3); in a thunderstorm none.
func TestRule7_7_SupplyUnitsMoveAsInfantry(t *testing.T) {
	s := bare(t, 8, German)
	sup := supplyAt(s, "Oslo")
	parseOK(t, s, "move "+sup.ID+" Hamar Tretten Kvam\n")
	if e := parseErr(t, s, "move "+sup.ID+" Hamar Tretten Kvam Dombas\n"); e.Rule != "10.3" {
		t.Errorf("four areas: %+v", e)
	}
	s.Weather = Weather{South: "storm", Centre: "clear", North: "clear"}
	parseOK(t, s, "move "+sup.ID+" Hamar\n")
	if e := parseErr(t, s, "move "+sup.ID+" Hamar Tretten\n"); e.Rule != "10.3" {
		t.Errorf("two areas in the storm: %+v", e)
	}
	s.Weather.South = "thunder"
	if e := parseErr(t, s, "move "+sup.ID+" Hamar\n"); e.Rule != "6.3.4" {
		t.Errorf("the thunderstorm: %+v", e)
	}
}
