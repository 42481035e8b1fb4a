package norge

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

func TestRule1_1_EveryDatumHasASource(t *testing.T) {
	ents, err := dataFS.ReadDir("data")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() == "guide.txt" {
			continue // the player's guide is prose, not data
		}
		b, _ := dataFS.ReadFile("data/" + e.Name())
		for i, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			f := strings.Split(l, "|")
			if strings.TrimSpace(f[len(f)-1]) == "" || len(f) < 3 {
				t.Errorf("%s line %d has no source column", e.Name(), i+1)
			}
		}
	}
}

func TestRule1_2_GermanForces(t *testing.T) {
	land, para, mtn := 0, 0, 0
	for _, u := range data.Units {
		if u.Side != German {
			continue
		}
		land++
		if u.Type == "para" {
			para++
		}
		if u.Type == "mtn" {
			mtn++
		}
	}
	if land != 44 || para != 3 || mtn != 10 {
		t.Fatalf("German land %d para %d mountain %d, want 44, 3, 10", land, para, mtn)
	}
	kinds := map[string]int{}
	for _, sh := range data.Ships {
		if sh.Side == German {
			kinds[sh.Kind]++
		}
	}
	if kinds["bs"] != 5 || kinds["sub"] != 4 || kinds["convoy"] != 6 {
		t.Fatalf("German ships %v", kinds)
	}
	if len(data.Airfields) != 5 {
		t.Fatal("5 airfields carry the 5 fighter and 5 bomber Gruppen")
	}
}

func TestRule1_3_AlliedForces(t *testing.T) {
	land, nor, cav, fmtn := 0, 0, 0, 0
	for _, u := range data.Units {
		if u.Side != Allied {
			continue
		}
		land++
		if u.Nation == "norwegian" {
			nor++
			if u.Type == "cav" {
				cav++
			}
		}
		if u.Nation == "french" && u.Type == "mtn" {
			fmtn++
		}
	}
	if land != 28 || nor != 18 || cav != 3 || fmtn != 2 {
		t.Fatalf("Allied land %d Norwegian %d cavalry %d French mountain %d", land, nor, cav, fmtn)
	}
	kinds := map[string]int{}
	for _, sh := range data.Ships {
		if sh.Side == Allied {
			kinds[sh.Kind]++
		}
	}
	if kinds["bs"] != 4 || kinds["cv"] != 2 || kinds["sub"] != 3 || kinds["convoy"] != 4 {
		t.Fatalf("Allied ships %v", kinds)
	}
}

func TestRule2_1_TenTurns(t *testing.T) {
	s := fresh(t)
	s.Turn, s.Step = 9, StepSubs
	s = run(t, s, German, "")
	if s.Over || s.Turn != 10 || s.Step != StepAirGerman {
		t.Fatalf("after turn 9: turn %d step %d over %v", s.Turn, s.Step, s.Over)
	}
	s.Step = StepSubs
	s = run(t, s, German, "")
	if r := (Ruleset{}); !s.Over || !r.Phase(s).Over || r.Result(s) == nil {
		t.Fatal("the game does not end after turn 10")
	}
}

func TestRule2_2_GermanPoints(t *testing.T) {
	s := bare(t, StepAirGerman)
	put(s, "IR307", "B:B3")
	put(s, "NIR1", "B:A4")
	put(s, "NIR3", "K:C3") // mini maps do not count
	put(s, "NIR4", "K:C2")
	s.German = []string{"Aalborg", "Narvik", "Sola"}
	g, a := Scores(s)
	if g.Total != 4+2+2+2 {
		t.Fatalf("German %d: %v", g.Total, g.Items)
	}
	if a.Total != 3*4+4 {
		t.Fatalf("Allied %d: %v", a.Total, a.Items)
	}
}

func TestRule2_3_AlliedPoints(t *testing.T) {
	s := bare(t, StepAirGerman)
	put(s, "NIR11", "D:C3")
	s.German = []string{"Aalborg", "Fornebu", "Oslo", "Sola", "Vaernes"}
	_, a := Scores(s)
	if a.Total != 6+4 {
		t.Fatalf("Allied %d: %v (Map D 6, Bardufoss 4, no Oslo)", a.Total, a.Items)
	}
}

func TestRule2_4_ShipsSunkOrDamaged(t *testing.T) {
	s := bare(t, StepAirGerman)
	s.German = []string{"Aalborg", "Bardufoss", "Fornebu", "Oslo", "Sola", "Vaernes"}
	g0, a0 := Scores(s)
	s.ship("Bluecher").Sunk, s.ship("Bluecher").Damaged = true, true
	s.ship("Renown").Damaged = true
	s.ship("GC1").Sunk = true
	s.ship("AC1").Damaged = true
	s.ship("U25").Sunk = true // submarines score nothing
	g, a := Scores(s)
	if g.Total-g0.Total != 2+1 || a.Total-a0.Total != 4+2 {
		t.Fatalf("German +%d Allied +%d, want +3 and +6", g.Total-g0.Total, a.Total-a0.Total)
	}
}

func TestRule2_5_FivePointsToWin(t *testing.T) {
	s := bare(t, StepAirGerman)
	s.Over = true
	s.German = []string{"Aalborg", "Bardufoss", "Fornebu", "Narvik", "Oslo", "Sola", "Vaernes"} // German 12
	s.ship("Bluecher").Sunk = true                                                              // Allied 4
	s.ship("Koeln").Damaged = true                                                              // Allied 6
	s.ship("GC1").Sunk = true                                                                   // Allied 8
	r := Ruleset{}.Result(s)
	if r.Winner != "" || r.Points[German] != 12 || r.Points[Allied] != 8 {
		t.Fatalf("12 to 8 must be a draw: %+v", r)
	}
	s.ship("GC1").Sunk, s.ship("GC1").Damaged = false, true // Allied 7
	r = Ruleset{}.Result(s)
	if r.Winner != German {
		t.Fatalf("12 to 7 must be a German win: %+v", r)
	}
}

func TestRule3_2_MiniMaps(t *testing.T) {
	n := 0
	for _, m := range data.Maps {
		if m.Kind == "mini" {
			n++
			if m.Cols != 4 || m.Rows != 5 {
				t.Fatalf("mini map %s is %dx%d, want 4 E-W by 5 N-S", m.ID, m.Cols, m.Rows)
			}
		}
	}
	if n != 4 {
		t.Fatalf("%d mini maps, want 4", n)
	}
}

func TestRule3_3_Calendar(t *testing.T) {
	s := bare(t, StepNavalAllied)
	parseErr(t, s, Allied, "move Warspite B1", "3.3")
	s.Turn = 2
	setWeather(s, 2, "fair", "fair")
	parseOK(t, s, Allied, "move Warspite B1")
}

func TestRule3_4_DistancesBetweenMaps(t *testing.T) {
	// the worked distances of 3.4: A-C 5 hexes, B-C 8, B-D 10
	for _, c := range []struct {
		from, to string
		n        int
	}{{"A:F3", "C:A4", 5}, {"B:F4", "C:D6", 8}, {"B:F5", "D:A3", 10}} {
		if d := landDist(c.from)[c.to]; d != c.n {
			t.Errorf("%s to %s: %d hexes, want %d", c.from, c.to, d, c.n)
		}
	}
}

func TestRule4_2_Sweden(t *testing.T) {
	s := bare(t, StepLandGerman)
	put(s, "IR307", "B:D5")
	parseErr(t, s, German, "move IR307 B:D6", "4.2")
	for _, af := range data.Airfields {
		for _, m := range af.Range {
			if data.landMap(m) == nil {
				t.Fatalf("%s reaches unknown map %s", af.Name, m)
			}
		}
	}
}

func TestRule4_3_SeaAreas(t *testing.T) {
	if maxArea() != 7 {
		t.Fatalf("%d sea areas", maxArea())
	}
	s := bare(t, StepSubs)
	s.ship("U25").Area = 7
	parseErr(t, s, German, "sub U25 8", "4.3")
}

func TestRule4_4_WeatherLine(t *testing.T) {
	for _, m := range data.Maps {
		if m.Kind != "tactical" {
			continue
		}
		want := "S"
		if strings.Contains("DEF", m.ID) {
			want = "N"
		}
		if m.Sector != want {
			t.Fatalf("Map %s in sector %s, want %s", m.ID, m.Sector, want)
		}
	}
}

func TestRule4_6_EntranceHexes(t *testing.T) {
	s := bare(t, StepNavalAllied)
	parseErr(t, s, Allied, "move Renown G1", "10.2")
	parseOK(t, s, Allied, "move Renown B1 North3")
	sail(s, "Renown", "North3")
	parseErr(t, s, Allied, "move Renown North2 off", "10.2")
	s2 := run(t, s, Allied, "move Renown B1 off")
	if sh := s2.ship("Renown"); sh.Loc != "" || sh.Exited != 1 {
		t.Fatalf("Renown at %q exited %d", sh.Loc, sh.Exited)
	}
}

func TestRule4_7_PortsAndAirfields(t *testing.T) {
	if len(data.Ports) != 12 || len(data.Airfields) != 5 {
		t.Fatal("12 ports and 5 airfields")
	}
	s := fresh(t)
	if len(s.German) != 1 || s.German[0] != "Aalborg" {
		t.Fatalf("German control at start: %v", s.German)
	}
}

func TestRule4_8_NoSwedishFjord(t *testing.T) {
	n := data.node("Halden")
	if len(n.Next) != 1 || data.node(n.Next[0]).Kind != "sea" {
		t.Fatalf("Halden is reached only from the sea: %v", n.Next)
	}
}

func TestRule6_2_GermanSetUp(t *testing.T) {
	s := fresh(t)
	ports := map[string]bool{"Oslo": true, "Kristiansand": true, "Bergen": true, "Trondheim": true, "Narvik": true}
	for _, sh := range s.Ships {
		if sh.Side != German || sh.Kind != "bs" {
			continue
		}
		if !ports[sh.Loc] || !sh.Restricted {
			t.Fatalf("%s at %s", sh.ID, sh.Loc)
		}
		delete(ports, sh.Loc)
		n := 0
		for _, id := range sh.Cargo {
			n += thirds(id)
			if tp := unitInfo(id).Type; tp == "arm" || tp == "para" {
				t.Fatalf("%s carries %s (%s)", sh.ID, id, tp)
			}
		}
		if n != 3 {
			t.Fatalf("%s carries %d battalions' worth, want one regiment", sh.ID, n)
		}
	}
	if !adjacent(s.unit("FJ1").Loc, data.airfield("Sola").Hex) || !adjacent(s.unit("FJ2").Loc, data.airfield("Fornebu").Hex) {
		t.Fatal("paras not next to Sola and Fornebu")
	}
	parseOK(t, s, German, "air Aalborg A")
	// the German player's choice of troops, in the set-up phase
	st, _ := Ruleset{}.New(engine.Setup{}, engine.NewManualDice())
	s = st.(*State)
	if PhaseOf(s).ID != "T00-setup" {
		t.Fatal(PhaseOf(s).ID)
	}
	parseErr(t, s, German, "carry Bluecher PZ1", "6.2")
	parseErr(t, s, German, "carry Bluecher Pi163 Pi169", "6.2")
	parseErr(t, s, German, "carry Bluecher IR310", "6.2") // Karlsruhe left empty
	parseErr(t, s, German, "carry Renown IR236", "1.2")
	s = run(t, s, German, "carry Bluecher IR236\ncarry Koeln Pi163 Pi169 Pi181")
	if s.unit("IR236").Loc != "ship:Bluecher" || s.unit("IR307").Loc != LocReserve || s.unit("Pi181").Loc != "ship:Koeln" || s.Setup {
		t.Fatal("set-up choice not applied")
	}
	if strings.Contains(viewJSON(t, s, Allied), "Pi181") {
		t.Fatal("the Allies see the battleships' troops")
	}
}

func TestRule6_3_NorwegianSetUp(t *testing.T) {
	s := fresh(t)
	n := 0
	for _, u := range s.Units {
		if unitInfo(u.ID).Nation == "norwegian" {
			if !data.Hexes[u.Loc].Land {
				t.Fatalf("%s at %s", u.ID, u.Loc)
			}
			n++
		}
	}
	if n != 18 {
		t.Fatal(n)
	}
}

func TestRule6_4_GermanReserves(t *testing.T) {
	s := fresh(t)
	var air, drop []string
	for _, u := range s.Units {
		switch u.Loc {
		case LocAirlift:
			if unitInfo(u.ID).Type != "inf" || unitInfo(u.ID).Size != "reg" {
				t.Fatalf("%s for air transport", u.ID)
			}
			air = append(air, u.ID)
		case LocDrop:
			drop = append(drop, unitInfo(u.ID).Type+"/"+unitInfo(u.ID).Size)
		}
	}
	if len(air) != 4 || strings.Join(drop, ",") != "para/bn,mtn/reg" {
		t.Fatalf("air transport %v, drops %v", air, drop)
	}
}

func TestRule6_5_ConvoysSailFromTurn2(t *testing.T) {
	s := bare(t, StepNavalGerman)
	parseErr(t, s, German, "move GC1 G1", "3.3")
	s = run(t, s, German, "load GC1 IR236\nload GC2 Pi163") // and GC3 stays empty, a decoy
	s.Turn, s.Step = 2, StepNavalGerman
	setWeather(s, 2, "fair", "fair")
	s = run(t, s, German, "move GC1 G1 Skagerrak1\nmove GC3 G2")
	if s.ship("GC1").Loc != "Skagerrak1" || s.ship("GC3").Loc != "G2" {
		t.Fatal("convoys did not sail on turn 2")
	}
}

func TestRule7_1_PhaseSequence(t *testing.T) {
	st, _ := Ruleset{}.New(engine.Setup{}, engine.NewManualDice())
	s := st.(*State)
	if p := PhaseOf(s); p.ID != "T00-setup" || len(p.Owes) != 1 || p.Owes[0] != German {
		t.Fatalf("first phase %+v", p)
	}
	s = run(t, s, German, "")
	want := []string{"T01-air-german", "T01-air-allied", "T01-naval-german", "T01-naval-allied", "T01-land-german", "T01-land-allied", "T01-subs", "T02-air-german"}
	owes := []string{"german", "allied", "german", "allied", "german", "allied", "allied german", "german"}
	for i, w := range want {
		p := PhaseOf(s)
		var o []string
		for _, x := range p.Owes {
			o = append(o, string(x))
		}
		if p.ID != w || strings.Join(o, " ") != owes[i] {
			t.Fatalf("phase %d: %s owed by %v, want %s by %s", i, p.ID, o, w, owes[i])
		}
		if i == len(want)-1 {
			break
		}
		dice := []int{}
		if s.Step == StepAirGerman {
			dice = []int{1, 1}
		}
		if s.Step == StepLandGerman {
			dice = []int{1, 1, 1, 1, 1}
		}
		s = run(t, s, German, "", dice...)
	}
}

func TestRule8_1_TurnOneFair(t *testing.T) {
	s := fresh(t)
	if s.Weather[0] != (Weather{North: "fair", South: "fair"}) {
		t.Fatal(s.Weather)
	}
}

func TestRule8_2_WeatherRolls(t *testing.T) {
	// the weather table of 8.2: 1-3 fair, 4-5 rain, 6 storm; North first
	for _, c := range []struct {
		n, s       int
		north, sth string
	}{{3, 4, "fair", "rain"}, {5, 6, "rain", "storm"}, {1, 2, "fair", "fair"}} {
		s := bare(t, StepAirGerman)
		s = run(t, s, German, "", c.n, c.s)
		if s.Weather[1] != (Weather{North: c.north, South: c.sth}) {
			t.Fatalf("dice %d %d: %v", c.n, c.s, s.Weather[1])
		}
	}
}

func TestRule8_4_SeaTakesWorstWeather(t *testing.T) {
	s := bare(t, StepNavalAllied)
	setWeather(s, 1, "storm", "fair")
	if speed(s, s.ship("Renown")) != 10 {
		t.Fatal("a storm in the North slows ships in the South too")
	}
	setWeather(s, 1, "fair", "rain")
	if speed(s, s.ship("Renown")) != 14 {
		t.Fatal("rain in the South slows ships in the North too")
	}
}

func TestRule8_5_NavalSpeedAndCosts(t *testing.T) {
	s := bare(t, StepNavalAllied)
	for _, c := range []struct {
		w    string
		bs   int
		conv int
	}{{"fair", 16, 10}, {"rain", 14, 10}, {"storm", 10, 10}} {
		setWeather(s, 1, c.w, c.w)
		if speed(s, s.ship("Renown")) != c.bs || speed(s, s.ship("AC1")) != c.conv {
			t.Fatalf("%s: speeds %d %d", c.w, speed(s, s.ship("Renown")), speed(s, s.ship("AC1")))
		}
	}
	for _, c := range []struct {
		from, to string
		cost     int
	}{{"North2", "Stavanger", 1}, {"Norw5", "OfotFjord", 4}, {"OfotFjord", "Norw5", 3}, {"OfotFjord", "Narvik", 1}, {"North3", "Bergen", 4}, {"Bergen", "North4", 3}, {"North3", "North4", 1}} {
		if got := enterCost(c.from, c.to); got != c.cost {
			t.Errorf("%s to %s costs %d, want %d", c.from, c.to, got, c.cost)
		}
	}
	setWeather(s, 1, "storm", "fair")
	s.Turn = 1
	// storm, 10 MF: B2 (entering, 0) Norw1 1, Norw2 1, Norw3 1, NamsFjord 4, back to Norw3 3 = 10
	parseOK(t, s, Allied, "move Renown B2 Norw1 Norw2 Norw3 NamsFjord Norw3")
	parseErr(t, s, Allied, "move Renown B2 Norw1 Norw2 Norw3 NamsFjord Norw3 Norw4", "8.5")
}

func TestRule8_6_RainReducesAir(t *testing.T) {
	s := bare(t, StepAirGerman)
	setWeather(s, 1, "fair", "rain")
	sail(s, "Glorious", "North3")
	s = run(t, s, German, "air Aalborg A", 1, 1)
	if len(s.Air) != 1 || s.Air[0].Strength != 2 {
		t.Fatalf("German air in rain: %+v", s.Air)
	}
	s2 := bare(t, StepAirAllied)
	sail(s2, "Glorious", "North3")
	s2 = run(t, s2, Allied, "air Glorious C")
	if len(s2.Air) != 1 || s2.Air[0].Strength != 2 {
		t.Fatalf("Allied air in fair weather: %+v", s2.Air)
	}
}

func TestRule8_7_StormStopsAirLanding(t *testing.T) {
	s := bare(t, StepLandGerman)
	s.Turn = 6
	setWeather(s, 6, "fair", "storm")
	s.German = append(s.German, "Sola")
	s.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "A", Strength: 5}}
	s.unit("IR324").Loc = LocAirlift
	s.unit("FJ3").Loc = LocDrop
	parseErr(t, s, German, "airlift IR324 Sola", "8.7")
	parseErr(t, s, German, "drop FJ3 D:B2", "8.7")
	setWeather(s, 6, "storm", "fair")
	parseErr(t, s, German, "drop FJ3 D:B2", "8.7")
	parseOK(t, s, German, "drop FJ3 A:B3\nairlift IR324 Sola")
}

func TestRule9_1_GermanAirPerAirfield(t *testing.T) {
	s := bare(t, StepAirGerman)
	s.German = []string{"Aalborg", "Sola"}
	parseOK(t, s, German, "air Aalborg A\nair Sola A")
	parseErr(t, s, German, "air Fornebu A", "9.1")
	parseErr(t, s, German, "air Aalborg A\nair Aalborg B", "9.1")
	s.German = []string{"Aalborg", "Fornebu"}
	setWeather(s, 1, "fair", "storm")
	parseErr(t, s, German, "air Fornebu D", "9.1")
}

func TestRule9_2_CarrierFighters(t *testing.T) {
	s := bare(t, StepAirAllied)
	parseErr(t, s, Allied, "air Glorious C", "9.2")
	sail(s, "Glorious", "North3")
	parseOK(t, s, Allied, "air Glorious C")
	setWeather(s, 1, "storm", "fair")
	parseErr(t, s, Allied, "air Glorious C", "9.2")
}

func TestRule9_2_CarrierReturnRange(t *testing.T) {
	s := bare(t, StepNavalAllied)
	sail(s, "Glorious", "North3")
	s.Air = []AirMission{{Side: Allied, Base: "Glorious", Map: "C", Strength: 2}}
	parseOK(t, s, Allied, "move Glorious North2")                // North2 still reaches C
	parseErr(t, s, Allied, "move Glorious North2 North1", "9.2") // North1 reaches A only
	parseErr(t, s, Allied, "move Glorious B1 off", "9.2")
	s.Air = nil
	parseOK(t, s, Allied, "move Glorious North2 North1")
}

func TestRule9_3_AirRange(t *testing.T) {
	s := bare(t, StepAirGerman)
	parseErr(t, s, German, "air Aalborg C", "9.3")
	s.Step = StepAirAllied
	sail(s, "Glorious", "Norw6")
	parseErr(t, s, Allied, "air Glorious A", "9.3")
}

func TestRule9_3_AirSuperiority(t *testing.T) {
	s := bare(t, StepLandGerman)
	put(s, "IR307", "A:E4")
	put(s, "NIR8", "A:E5")
	c := attackValue(s, German, "A:E5", []string{"IR307"}, []string{"A:E5"})
	if c.Att != 3 || c.Def != 2 || c.Column != "1:1" {
		t.Fatalf("no air: %+v", c)
	}
	s.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "A", Strength: 5}, {Side: Allied, Base: "Glorious", Map: "A", Strength: 2}}
	c = attackValue(s, German, "A:E5", []string{"IR307"}, []string{"A:E5"})
	if c.Att != 6 || c.Def != 2 || c.Column != "3:1" {
		t.Fatalf("German superiority 3 on attack: %+v", c)
	}
	c = attackValue(s, Allied, "A:E4", []string{"NIR8"}, []string{"A:E4"})
	if c.Att != 2 || c.Def != 6 {
		t.Fatalf("German superiority 3 on defence: %+v", c)
	}
}

func TestRule9_4_NoFlightIntoStorm(t *testing.T) {
	s := bare(t, StepAirGerman)
	setWeather(s, 1, "storm", "fair")
	parseErr(t, s, German, "air Aalborg A", "9.4") // Aalborg's aircraft cross a stormy sea
	setWeather(s, 1, "fair", "fair")
	s.German = []string{"Aalborg", "Fornebu"}
	setWeather(s, 1, "storm", "fair")
	parseErr(t, s, German, "air Fornebu D", "9.4")
	parseOK(t, s, German, "air Fornebu C")
}

func TestRule9_5_AirTransportNeedsSuperiority(t *testing.T) {
	s := bare(t, StepLandGerman)
	s.German = []string{"Aalborg", "Sola"}
	s.unit("IR324").Loc = LocAirlift
	parseErr(t, s, German, "airlift IR324 Sola", "9.5")
	s.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "A", Strength: 5}, {Side: Allied, Base: "Glorious", Map: "A", Strength: 2}}
	parseOK(t, s, German, "airlift IR324 Sola")
}

func TestRule17_1_SubsMoveToAdjacentArea(t *testing.T) {
	s := bare(t, StepSubs)
	s.ship("U25").Area = 2
	parseErr(t, s, German, "sub U25 4", "17.1")
	parseErr(t, s, German, "sub U51 6", "3.3")
	s.Turn = 3
	setWeather(s, 3, "fair", "fair")
	s = run(t, s, German, "sub U25 3\nsub U51 6")
	if s.ship("U25").Area != 3 || s.ship("U51").Area != 6 {
		t.Fatal("subs not moved")
	}
	if strings.Contains(viewJSON(t, s, Allied), "U51") {
		t.Fatal("the Allies see a German submarine")
	}
}

func TestRule17_2_NotWhereEnemyConvoy(t *testing.T) {
	s := bare(t, StepSubs)
	s.ship("U25").Area = 2
	sail(s, "AC1", "North2")
	parseErr(t, s, German, "sub U25 3", "17.2")
	parseOK(t, s, German, "sub U25 1")
}

var _ = engine.Side("")

// 6.2, 6.3, 16.1: "he places 1 para unit adjacent to Sola (Map A) and 1 to
// Fornebö (Map B) airfield"; "The Allied player places his 18 Norwegian
// units on the hexes with their ID's". Combat is against an adjacent hex
// (16.1), so enemies never share one: no set-up hex of the data pack holds
// both sides. Fornebu (B:D2) has two land neighbours, B:C3 (NAR1's ID hex)
// and B:D3 (and Oslo's port, B:E3, across a sea hexside): FJ2 starts on
// B:D3. Revision 1 put it on B:C3 with NAR1, and its games still start so.
func TestRule6_2_SetUpHexesHoldOneSide(t *testing.T) {
	for _, rev := range []int{2, 1} {
		st, err := Ruleset{}.New(engine.Setup{Revision: rev}, engine.NewManualDice())
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		sides := map[string]map[engine.Side]bool{}
		for _, u := range s.Units {
			if !onHex(u.Loc) {
				continue
			}
			if sides[u.Loc] == nil {
				sides[u.Loc] = map[engine.Side]bool{}
			}
			sides[u.Loc][u.Side] = true
			if tr := data.Hexes[u.Loc]; !tr.Land || tr.Sweden || tr.Lake {
				t.Errorf("revision %d: %s starts on %s, not a Norwegian land hex", rev, u.ID, u.Loc)
			}
		}
		var shared []string
		for _, h := range sortedKeys(sides) {
			if len(sides[h]) > 1 {
				shared = append(shared, h)
			}
		}
		want := map[int]string{2: "", 1: "B:C3"}[rev]
		if strings.Join(shared, " ") != want {
			t.Errorf("revision %d: hexes holding both sides at set-up: %v, want %q", rev, shared, want)
		}
		fj2 := map[int]string{2: "B:D3", 1: "B:C3"}[rev]
		if s.unit("FJ2").Loc != fj2 || !adjacent(fj2, data.airfield("Fornebu").Hex) {
			t.Errorf("revision %d: FJ2 on %s, want %s next to Fornebu", rev, s.unit("FJ2").Loc, fj2)
		}
		if s.unit("NAR1").Loc != "B:C3" {
			t.Errorf("revision %d: NAR1 on %s, its ID hex is B:C3", rev, s.unit("NAR1").Loc)
		}
		if (rev == 2) != (s.Revision == 2) {
			t.Errorf("revision %d recorded as %d in the state", rev, s.Revision)
		}
	}
}

// 6.2: an order file that leaves a battleship short is refused at the
// line that took its troops, never at "line 0".
func TestRule6_2_SetUpErrorNamesItsLine(t *testing.T) {
	st, _ := Ruleset{}.New(engine.Setup{}, engine.NewManualDice())
	s := st.(*State)
	e := parseErr(t, s, German, "\n# Karlsruhe's regiment to Oslo\ncarry Bluecher IR310\ncarry Koeln IR236", "6.2")
	if e.Line != 3 || e.Text != "carry Bluecher IR310" || !strings.Contains(e.Msg, "Karlsruhe") {
		t.Errorf("error %+v, want line 3 naming Karlsruhe", e)
	}
}
