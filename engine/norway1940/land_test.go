package norway1940

import (
	"testing"
)

// 10.5.8 example: "the 69th German Division, 159 infantry regiment
// (modifier +2) and an artillery regiment from the same division
// (modifier +2) attack the Norwegian 6th Infantry Division, 14th Regt.
// (modifier 0) near Egersund (it is not defending inside the city). The
// Germans roll 5 in 1d6 for the 159th Regt. +2 = 7. They roll 1d3 for the
// artillery, and they get 2, +2 = 4. The Norwegian regiment rolls 6 with
// no modifiers. The total score for the German is 7+4+1 (combined arms;
// infantry + artillery) = 12, while the Norwegian has 6. The differential
// is 6 in German's favour (12-6=6) which results in 1 step loss for the
// Norwegian regiment and a retreat from the area. The Norwegian regiment
// retreats to Evje."
//
// By hand: the 10.5.3 table gives "5-6: retreat 1 area + 1 step loss";
// IR14 goes from 2 steps to 1. For the retreat to be Evje "towards the
// closest supply source" (10.5.6) the Germans hold, as on the invasion,
// Kristiansand and Stavanger, the two other areas next to Egersund: a
// retreat never enters an enemy CZ, so Evje is the one area left, with or
// without the attacker naming it. Faces 5, 3, 6: the artillery's d3 of 2
// is the d6 face 3 (engine.ManualDice: (3*3+5)/6 = 2).
func TestRule10_5_8_CombatExample(t *testing.T) {
	for _, order := range []string{"attack Egersund with 159 169A retreat Evje\n", "attack Egersund\n"} {
		s := bare(t, 8, German)
		put(s, "159", "Egersund")
		put(s, "169A", "Egersund")
		n := put(s, "IR14", "Egersund")
		put(s, "193", "Stavanger")
		put(s, "340", "Kristiansand")
		s.setControl("Stavanger", German)
		s.setControl("Kristiansand", German)
		next, _ := play(t, s, order, 5, 3, 6)
		for _, want := range []string{
			"combat at Egersund: german 12 [+5 159 rolls d6, +2 159 modifier, +2 169A rolls d3, +2 169A modifier, +1 combined arms (10.5.4)] against allied 6 [+6 IR14 rolls d6]",
			"differential 6 for german: retreat and 1 step loss",
			"IR14 retreat from Egersund to Evje",
		} {
			if !logHas(next, want) {
				t.Errorf("%q: the log lacks %q:\n%s", order, want, logText(next))
			}
		}
		n = next.unit(n.ID)
		if n.Steps != 1 || n.Loc != "Evje" {
			t.Errorf("%q: IR14 has %d steps in %s, want one step lost and a retreat to Evje", order, n.Steps, n.Loc)
		}
		if next.controller("Egersund") != German {
			t.Error("the Germans should hold Egersund")
		}
	}
}

// The 10.5.8 example as revision 1 played it: the attacker's "retreat
// Evje" honoured although Kristiansand and Stavanger, free and Allied, are
// supply sources next to Egersund.
func TestRule10_5_8_CombatExampleRevision1(t *testing.T) {
	s := bare(t, 8, German)
	s.Revision = 0
	put(s, "159", "Egersund")
	put(s, "169A", "Egersund")
	n := put(s, "IR14", "Egersund")
	next, _ := play(t, s, "attack Egersund with 159 169A retreat Evje\n", 5, 3, 6)
	if u := next.unit(n.ID); u.Steps != 1 || u.Loc != "Evje" {
		t.Errorf("IR14: steps %d in %s, want one step lost and a retreat to Evje", u.Steps, u.Loc)
	}
}

func TestRule10_5_3_GameTablesPageOption(t *testing.T) {
	s := bare(t, 8, German)
	s.Options = []string{OptCombatTablePage}
	put(s, "159", "Egersund")
	put(s, "169A", "Egersund")
	put(s, "IR14", "Egersund")
	next, _ := play(t, s, "attack Egersund\n", 5, 3, 6)
	if !next.unit("IR14").Dead {
		t.Errorf("differential 6 on the Game Tables page eliminates a unit:\n%s", logText(next))
	}
}

func TestRule10_5_4_CombinedArmsTable(t *testing.T) {
	cases := []struct {
		inf, art, arm, air bool
		want               int
	}{
		{true, false, false, false, 0}, {false, false, false, true, 0},
		{false, true, false, false, -1}, {false, false, true, false, -1},
		{false, true, true, false, 0},
		{true, true, false, false, 1}, {true, false, true, false, 1}, {true, false, false, true, 1},
		{true, true, true, false, 2}, {true, true, false, true, 2},
		{true, true, true, true, 3},
	}
	for _, c := range cases {
		if got := combinedArms(c.inf, c.art, c.arm, c.air); got != c.want {
			t.Errorf("combinedArms(%v,%v,%v,%v) = %d, want %d", c.inf, c.art, c.arm, c.air, got, c.want)
		}
	}
}

func TestRule10_2_6_AAVoidsSupportOsloExample(t *testing.T) {
	if got := effectiveSupport(2, 1); got != 1 {
		t.Errorf("two bombers against one AA: %d effective, want 1", got)
	}
	s := bare(t, 8, German)
	put(s, "159", "Oslo")
	put(s, "IR2", "Oslo")
	put(s, "AAOslo", "Oslo")
	next, _ := play(t, s, "attack Oslo\nair support Oslo 1\n", 3, 3)
	if logHas(next, "bomber support") {
		t.Errorf("the Oslo AA should void the German bomber's support:\n%s", logText(next))
	}
}

func TestRule10_3_159thRegimentMovementExample(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Oslo")
	parseOK(t, s, "move 159 Oslo Hamar Tretten Kvam\n") // 3 areas by road
	if e := parseErr(t, s, "move 159 Oslo Hamar Tretten Kvam Dombas\n"); e.Rule != "10.3" {
		t.Errorf("four areas by road: rule %q, want 10.3", e.Rule)
	}
	s2 := bare(t, 8, German)
	put(s2, "159", "Kongsvinger")
	parseOK(t, s2, "move 159 Fredrikstad Oslo\n") // 2 areas, one cross-country
	if e := parseErr(t, s2, "move 159 Fredrikstad Oslo Drammen\n"); e.Rule != "10.3" {
		t.Errorf("three areas off the road: rule %q, want 10.3", e.Rule)
	}
}

func TestRule10_3_5_StraitCrossingCostsTwo(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Bergen")
	parseOK(t, s, "move 159 Stavanger\n")
	if e := parseErr(t, s, "move 159 Stavanger Egersund\n"); e.Rule != "10.3" {
		t.Errorf("strait then road: rule %q, want 10.3", e.Rule)
	}
}

func TestRule10_3_3_AlwaysOneArea(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "169A", "Bergen") // movement 1, the strait costs 2
	parseOK(t, s, "move 169A Stavanger\n")
}

func TestRule10_3_2_EnemyAreaStopsMovement(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Oslo")
	put(s, "IR4", "Hamar")
	if e := parseErr(t, s, "move 159 Hamar Tretten\n"); e.Rule != "10.3.2" {
		t.Errorf("rule %q, want 10.3.2", e.Rule)
	}
	next, _ := play(t, s, "move 159 Hamar\n", 6, 1)
	if !logHas(next, "combat at Hamar") {
		t.Errorf("entering an enemy area forces an attack (10.3.2):\n%s", logText(next))
	}
}

func TestRule10_3_6_InterdictionStopsRoadMovement(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Oslo")
	s.addMark("Hamar")
	if e := parseErr(t, s, "move 159 Hamar Tretten\n"); e.Rule != "10.3.6" {
		t.Errorf("rule %q, want 10.3.6", e.Rule)
	}
	parseOK(t, s, "move 159 Hamar\n")
}

func TestRule10_3_7_RailMovement(t *testing.T) {
	s := bare(t, 10, German)
	put(s, "340", "Oslo")
	for _, a := range []string{"Oslo", "Hamar", "Tretten", "Kvam", "Dombas"} {
		s.setControl(a, German)
	}
	s.RailNet = germanRailNet(s)
	parseOK(t, s, "rail 340 Oslo Hamar Tretten Kvam Dombas\n")
	s.setControl("Dombas", "allied")
	s.RailNet = germanRailNet(s)
	if e := parseErr(t, s, "rail 340 Oslo Hamar Tretten Kvam Dombas\n"); e.Rule != "10.3.7.3" {
		t.Errorf("beyond the railhead: rule %q, want 10.3.7.3", e.Rule)
	}
}

func TestRule10_5_6_RetreatImpossibleCostsAStep(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Narvik")
	n := put(s, "EB6", "Narvik")
	put(s, "139", "Elvegardsmoen")
	put(s, "138", "Bjornfjell")
	s.setControl("Narvik", German)
	// Bodo is across a strait but free: block it too.
	put(s, "193", "Bodo")
	next, _ := play(t, s, "attack Narvik with 159\n", 6, 1)
	if !next.unit(n.ID).Dead {
		t.Errorf("EB6 (2 steps) loses one step in combat and one for not retreating:\n%s", logText(next))
	}
}

func TestRule11_1_2_StackingLimit(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "340", "Oslo")
	put(s, "345", "Oslo")
	put(s, "362", "Oslo")
	if e := parseErr(t, s, "move 340 Hamar\nmove 345 Hamar\nmove 362 Hamar\n"); e.Rule != "11.1.2" {
		t.Errorf("three regiments: rule %q, want 11.1.2", e.Rule)
	}
	put(s, "169E", "Oslo")
	parseOK(t, s, "move 340 Hamar\nmove 345 Hamar\nmove 169E Hamar\n")
}

func TestRule13_2_1_StrongpointHolds(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Kongsvinger")
	ar := put(s, "AR1", "Kongsvinger")
	// 159: 6+2 = 8; AR1: d3 1 +1, -1 combined arms, +2 strongpoint = 3.
	next, _ := play(t, s, "attack Kongsvinger\n", 6, 1)
	if !logHas(next, "+2 strongpoint") {
		t.Fatalf("no strongpoint bonus:\n%s", logText(next))
	}
	if u := next.unit(ar.ID); u.Loc != "Kongsvinger" || u.Steps != 1 {
		t.Errorf("AR1 in %s with %d steps: it takes the loss but holds the strongpoint", u.Loc, u.Steps)
	}
}

func TestRule13_3_FieldworkTakesTwoFullTurns(t *testing.T) {
	s := bare(t, 8, Allied)
	put(s, "IR5", "Elverum")
	next, _ := play(t, s, "build fieldwork IR5\n")
	if w := next.work("Elverum", "fieldwork", Allied); w == nil || w.Done {
		t.Fatal("the fieldwork should be under construction")
	}
	for next.Turn < 10 || next.Phasing != Allied {
		next, _ = play(t, next, "")
	}
	if w := next.work("Elverum", "fieldwork", Allied); w == nil || !w.Done {
		t.Fatal("the fieldwork should be finished after two full turns")
	}
}

func TestRule14_2_NarvikFortifiedIsPlusThree(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "139", "Narvik")
	put(s, "EB6", "Narvik")
	s.Works = append(s.Works, &Work{Area: "Narvik", Kind: "fortify", Side: Allied, Unit: "EB6", Start: 5, Done: true})
	next, _ := play(t, s, "attack Narvik\n", 1, 1)
	if !logHas(next, "+3 city/fieldwork") {
		t.Errorf("fortified Narvik should give +3:\n%s", logText(next))
	}
}

func TestRule10_2_8_TwoEngineersRollOneD6(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Kongsvinger")
	put(s, "169E", "Kongsvinger")
	put(s, "234E", "Kongsvinger")
	put(s, "AR1", "Kongsvinger")
	next, _ := play(t, s, "attack Kongsvinger\n", 1, 6, 1)
	if !logHas(next, "169E rolls d6") || logHas(next, "234E rolls") || !logHas(next, "+1 engineers (10.2.8)") {
		t.Errorf("two engineers roll one d6 and add +1 once against the strongpoint:\n%s", logText(next))
	}
}

func TestRule14_1_SharedCityBothClaimTheBonus(t *testing.T) {
	s := bare(t, 8, Allied)
	put(s, "159", "Bergen")
	put(s, "IR9", "Bergen")
	s.setControl("Bergen", German) // the Germans landed; the Norwegians stayed
	next, _ := play(t, s, "attack Bergen\n", 1, 1)
	if !logHas(next, "+1 city") {
		t.Errorf("the German defending the shared city claims its bonus:\n%s", logText(next))
	}
	s.Phasing = German
	next, _ = play(t, s, "attack Bergen\n", 1, 1)
	if !logHas(next, "+1 city") {
		t.Errorf("the Norwegian defending the shared city claims its bonus too:\n%s", logText(next))
	}
}

func TestRule13_2_1_StrongpointUnitsNeedNotAttack(t *testing.T) {
	s := bare(t, 8, Allied)
	put(s, "IR1", "Kongsvinger")
	put(s, "340", "Kongsvinger")
	put(s, "IR5", "Elverum")
	s.setControl("Kongsvinger", Allied)
	// IR5 enters: it attacks, the units in the strongpoint need not.
	next, _ := play(t, s, "move IR5 Kongsvinger\n", 6, 1)
	if !logHas(next, "IR5 rolls") || logHas(next, "IR1 rolls") {
		t.Errorf("only the unit that moved in attacks:\n%s", logText(next))
	}
}
