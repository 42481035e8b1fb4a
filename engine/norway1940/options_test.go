package norway1940

import (
	"testing"

	"skagerrak/engine"
)

func TestRule16_1_AmphibiousLandingsAnywhere(t *testing.T) {
	s := bare(t, 8, Allied)
	f := fleetAt(s, "A20", Allied, "South-1", 2, 3)
	u := put(s, "146", "")
	u.Loc, u.Fleet = "", f.ID
	f.Cargo = []string{"146"}
	s.setControl("Oslo", German)
	if e := parseErr(t, s, "fleet A20 to Oslo\n"); e.Rule != "10.4" {
		t.Errorf("Allied at a grey port: rule %q, want 10.4", e.Rule)
	}
	s.Options = []string{OptAmphibAnywhere}
	parseOK(t, s, "fleet A20 to Oslo\n")
}

func TestRule16_1_1_PortCapacity(t *testing.T) {
	s := bare(t, 8, German)
	s.setControl("Egersund", Allied)
	f := fleetAt(s, "G20", German, "South-2", 0, 8)
	for _, id := range []string{"340", "345"} {
		u := put(s, id, "")
		u.Loc, u.Fleet = "", f.ID
		f.Cargo = append(f.Cargo, id)
	}
	next, _ := play(t, s, "fleet G20 to Egersund\n")
	landed := 0
	for _, id := range []string{"340", "345"} {
		if next.unit(id).Loc == "Egersund" {
			landed++
		}
	}
	if landed != 1 {
		t.Errorf("a minor port lands 3 transport points a turn: %d regiments landed", landed)
	}
}

func TestRule16_3_ChainOfCommand(t *testing.T) {
	s := bare(t, 8, German)
	s.Options = []string{OptChainOfCommand}
	put(s, "159", "Egersund") // 69 Div
	put(s, "310", "Egersund") // 163 Div
	put(s, "IR14", "Egersund")
	next, _ := play(t, s, "attack Egersund\n", 3, 3, 3)
	if !logHas(next, "-1 mixed divisions") {
		t.Errorf("no chain of command penalty:\n%s", logText(next))
	}
	put(s, "HQ21", "Egersund")
	next, _ = play(t, s, "attack Egersund\n", 3, 3, 3)
	if logHas(next, "mixed divisions") {
		t.Errorf("an HQ voids the penalty:\n%s", logText(next))
	}
}

func TestRule16_5_NarvikEmergencyAirSupply(t *testing.T) {
	s := bare(t, 8, German)
	for _, a := range []string{"Narvik", "Trondheim", "Stjordal", "Oslo"} {
		s.setControl(a, German)
	}
	sup := supplyAt(s, Germany)
	if e := parseErr(t, s, "air emergency "+sup.ID+" to Narvik\n"); e.Rule != "16.5" {
		t.Errorf("without the option: rule %q", e.Rule)
	}
	s.Options = []string{OptNarvikAirSupply}
	next, _ := play(t, s, "air emergency "+sup.ID+" to Narvik\n", 5)
	if u := next.unit(sup.ID); u.Loc != "Narvik" || u.Steps != 1 || u.Dead {
		t.Errorf("a 5 lands half a supply unit at Narvik: %+v", u)
	}
	next, _ = play(t, s, "air emergency "+sup.ID+" to Narvik\n", 3)
	if !next.unit(sup.ID).Dead {
		t.Error("a 3 loses the supplies")
	}
}

func TestRule16_6_SpecialAirUnits(t *testing.T) {
	s := bare(t, 8, German)
	s.Options = []string{OptSpecialAir}
	resetAir(s)
	s.setControl("Oslo", German)
	n := put(s, "IR5", "Elverum")
	stuka := false
	for _, a := range s.side(German).Air {
		if a.Nation == "stuka" && a.Markers == 3 && a.Strength == 1 {
			stuka = true
		}
	}
	if !stuka {
		t.Fatalf("no Stuka markers: %+v", s.side(German).Air)
	}
	// With the Stukas, the German bombers are 5 markers of 3 and the Stukas
	// come after them; fly all 5 regular markers first over other targets.
	next, _ := play(t, s, "air bomb Elverum IR5 2\n", 5, 5, 5, 5, 5, 5)
	if next.unit(n.ID).Blast != 0 {
		t.Errorf("regular German bombers hit only on a 6")
	}
	s2 := bare(t, 8, German)
	s2.Options = []string{OptSpecialAir}
	resetAir(s2)
	for i := range s2.side(German).Air {
		if a := &s2.side(German).Air[i]; a.Type == "bomber" && a.Nation == "german" {
			a.Used = a.Markers
		}
	}
	put(s2, "IR5", "Elverum")
	next, _ = play(t, s2, "air bomb Elverum IR5 1\n", 5)
	if next.unit("IR5").Blast != 1 {
		t.Errorf("a Stuka hits on a 5:\n%s", logText(next))
	}
}

func TestContradictionOptions(t *testing.T) {
	s := &State{}
	if evadeMax(s, -7) != 1 {
		t.Error("the -6 row as printed: 1 evades")
	}
	s.Options = []string{OptInterceptMono}
	if evadeMax(s, -7) != 6 {
		t.Error("interception-monotone: 1-6 evades")
	}
	if data.CBDetect.Lookup(5) != "detected" || data.CBDetectNote.Lookup(5) != "undetected" {
		t.Error("15.2.1 detects on 5-6, the footnote on a 6")
	}
	if data.Anchored.Lookup(3) != "inactive" || data.AnchoredAlt.Lookup(3) != "active" {
		t.Error("anchored 1-2 by default, 1-3 with the option")
	}
	b := bare(t, 8, Allied)
	if len(targets(b)) <= 6 {
		t.Error("every VP location is a target by default")
	}
	b.Options = []string{OptDecisivePorts}
	if len(targets(b)) != 6 {
		t.Errorf("grey ports only: %v", targets(b))
	}
}

func TestRule7_4_4_RetreatLosesHalfTheSupplies(t *testing.T) {
	for _, opt := range []string{"", OptRetreatLoses} {
		s := bare(t, 8, Allied)
		if opt != "" {
			s.Options = []string{opt}
		}
		put(s, "24G", "Hamar")
		put(s, "340", "Hamar")
		sup := supplyAt(s, "Hamar")
		s.setControl("Hamar", German)
		s.setControl("Oslo", German)
		// 24G rolls 6 (+2), 340 rolls 1 (+2, +1 city): differential 4, a
		// retreat.
		next, _ := play(t, s, "attack Hamar\n", 6, 1)
		u := next.unit(sup.ID)
		if opt == "" && (u.Dead || u.Steps != 1) {
			t.Errorf("7.4.4: half the supplies lost, got %+v\n%s", u, logText(next))
		}
		if opt != "" && !u.Dead {
			t.Errorf("10.5.6: all the supplies lost, got %+v", u)
		}
	}
}

func TestSupportRollOption(t *testing.T) {
	s := bare(t, 8, German)
	s.Options = []string{OptSupportRoll}
	put(s, "159", "Egersund")
	put(s, "IR14", "Egersund")
	// support dice 1 1 6: one point counts
	next, _ := play(t, s, "attack Egersund\nair support Egersund 1\n", 1, 1, 6, 1, 1)
	if !logHas(next, "+1 bomber support") {
		t.Errorf("support-roll: one 6 of three dice:\n%s", logText(next))
	}
	_ = engine.StatusImplemented
}

func TestRule16_4_CaptureOfNorwegianEquipment(t *testing.T) {
	st, err := Ruleset{}.New(engine.Setup{Options: []string{OptNorwegianDepots}}, engine.NewSeededDice([]byte("depots"), "g", "new", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	real := 0
	for _, d := range s.Depots {
		if d.Real {
			real++
		}
	}
	if len(s.Depots) != 6 || real != 3 {
		t.Fatalf("depots %d, real %d: want 6 markers, 3 real", len(s.Depots), real)
	}
	b := bare(t, 8, German)
	b.Depots = []*Depot{{Area: "Voss", Real: true}, {Area: "Bang", Real: false}}
	put(b, "159", "Gol")
	put(b, "IR10", "Bergen")
	next, _ := play(t, b, "move 159 Voss\n")
	if d := next.Depots[0]; !d.Flipped || d.Unit != "159" {
		t.Fatalf("the Voss depot should be flipped for 159: %+v", d)
	}
	for _, v := range []engine.Side{German, Allied} {
		for _, d := range viewOf(next, v).Depots {
			if d.Area == "Bang" && d.Real {
				t.Error("an unflipped marker's identity shows")
			}
		}
	}
	next.Phasing = German
	next.Turn = 9
	next2, _ := play(t, next, "move 159 Bergen\n", 1, 1)
	if !logHas(next2, "+1 159 captured Norwegian equipment") || !next2.Depots[0].Used {
		t.Errorf("the depot's +1 should be used once:\n%s", logText(next2))
	}
}

func TestRule16_2_GroundElevation(t *testing.T) {
	s := bare(t, 8, Allied)
	put(s, "IR5", "Elverum")
	if e := parseErr(t, s, "climb IR5\n"); e.Rule != "16.2" {
		t.Errorf("without the option: rule %q", e.Rule)
	}
	s.Options = []string{OptElevation}
	put(s, "IR4", "Bang")
	// Bang-Tretten is cross-country: 1 + 1 for the heights = 2.
	parseOK(t, s, "move IR4 Tretten high\n")
	parseOK(t, s, "move IR4 Tretten Hamar high\n") // entered by rail: no penalty (16.2.3)
	s2 := bare(t, 8, Allied)
	s2.Options = []string{OptElevation}
	put(s2, "IR4", "Tretten")
	if e := parseErr(t, s2, "move IR4 Bang Gol high\n"); e.Rule != "10.3" {
		t.Errorf("two areas cross-country and the heights: rule %q", e.Rule)
	}
	parseOK(t, s2, "move IR4 Bang Gol\n")
	next, _ := play(t, s, "climb IR5\n")
	if !next.unit("IR5").High {
		t.Fatal("IR5 should hold the higher ground")
	}
	next.Phasing = German
	put(next, "340", "Hamar")
	put(next, "138", "Hamar")
	n2, _ := play(t, next, "move 340 Elverum\nmove 138 Elverum\n", 3, 3, 3)
	if !logHas(n2, "-1 340 attacking higher ground") || logHas(n2, "138 attacking higher ground") {
		t.Errorf("-1 for attacking the heights, mountain troops excepted:\n%s", logText(n2))
	}
}
