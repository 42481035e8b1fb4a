package norway1940

import (
	"strings"
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

// 10.2.7 CAVALRY with 10.2.5: cavalry counts with the infantry arm, so
// cavalry and artillery attack together and earn "Infantry + artillery:
// +1" (10.5.4). By hand: DR1 (cavalry regiment, 0) rolls 4; AR2 (artillery
// regiment, +1) rolls a d3 of 2 (face 4): 4+2+1, +1 combined arms = 8.
// The German 340 (+2) rolls 1, +1 for Hamar's city (14.1): 4.
// Differential 4: "3-4: retreat 1 area" (10.5.3).
func TestRule10_2_7_CavalryIsInfantryForCombinedArms(t *testing.T) {
	s := bare(t, 8, Allied)
	put(s, "DR1", "Hamar")
	put(s, "AR2", "Hamar")
	put(s, "340", "Hamar")
	next, _ := play(t, s, "attack Hamar\n", 4, 4, 1)
	if !logHas(next, "combat at Hamar: allied 8 [+4 DR1 rolls d6, +2 AR2 rolls d3, +1 AR2 modifier, +1 combined arms (10.5.4)] against german 4") {
		t.Errorf("cavalry and artillery: want 8 against 4:\n%s", logText(next))
	}
	if !logHas(next, "differential 4 for allied: retreat one area") || next.unit("340").Loc == "Hamar" {
		t.Errorf("340 should retreat:\n%s", logText(next))
	}
}

// 10.5.5: "Any unit attacking enemy units across a strait must deduct 2
// from its combat roll." By hand: 159 crosses from Bergen to Stavanger (a
// strait, 2 movement points of its 2) and attacks IR8: 6+2-2 = 6; IR8
// rolls 1, +1 for Stavanger's city = 2. Differential 4: a retreat.
func TestRule10_5_5_AttackAcrossAStrait(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Bergen")
	put(s, "IR8", "Stavanger")
	next, _ := play(t, s, "move 159 Stavanger\n", 6, 1)
	if !logHas(next, "german 6 [+6 159 rolls d6, +2 159 modifier, -2 159 across a strait (10.5.5)] against allied 2") {
		t.Errorf("the strait costs 2:\n%s", logText(next))
	}
	if next.unit("IR8").Loc == "Stavanger" {
		t.Errorf("IR8 should retreat on a differential of 4:\n%s", logText(next))
	}
}

// 10.5.7: "Over stacking situations caused by retreat are allowed." By
// hand: the 10.5.8 combat (12 against 6) sends IR14 to Evje, the only area
// open with Kristiansand and Stavanger German-held, where IR7, IR8 and AB1
// already make 3+3+1 = 7 battalion equivalents: with IR14, 10. Nothing is
// eliminated for it at the end of the German player-turn (11.1.5 counts
// the phasing player's stacks).
func TestRule10_5_7_RetreatMayOverstack(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Egersund")
	put(s, "169A", "Egersund")
	put(s, "IR14", "Egersund")
	put(s, "193", "Stavanger")
	put(s, "340", "Kristiansand")
	s.setControl("Stavanger", German)
	s.setControl("Kristiansand", German)
	for _, id := range []string{"IR7", "IR8", "AB1"} {
		put(s, id, "Evje")
	}
	next, _ := play(t, s, "attack Egersund\n", 5, 3, 6)
	if next.unit("IR14").Loc != "Evje" {
		t.Fatalf("IR14 in %s:\n%s", next.unit("IR14").Loc, logText(next))
	}
	if _, m := stackingProblem(next, "Evje", Allied); m == "" {
		t.Fatal("Evje should be overstacked")
	}
	for _, id := range []string{"IR7", "IR8", "AB1", "IR14"} {
		if next.unit(id).Dead {
			t.Errorf("%s eliminated for the overstack a retreat caused:\n%s", id, logText(next))
		}
	}
}

// 11.1.4: "For combat purposes, each side can stack in an area up to its
// maximum (Exception: Allied Side Disorganization)": every unit of both
// sides in the area rolls (340, 345, the engineer battalion 169E free of
// stacking; IR4 and DR2); before turn 6 the Norwegians fight with one
// regiment and one battalion (18): of IR4, IR5 and AB1 only IR4 and AB1.
func TestRule11_1_4_EveryUnitFightsButTheDisorganisedNorwegians(t *testing.T) {
	s := bare(t, 8, German)
	for _, id := range []string{"340", "345", "169E", "IR4", "DR2"} {
		put(s, id, "Hamar")
	}
	next, d := play(t, s, "attack Hamar\n", 3, 3, 3, 3, 3)
	for _, id := range []string{"340", "345", "169E", "IR4", "DR2"} {
		if !logHas(next, id+" rolls") {
			t.Errorf("%s did not fight:\n%s", id, logText(next))
		}
	}
	if d.Used() != 5 {
		t.Errorf("%d dice rolled, want 5", d.Used())
	}
	n := bare(t, 5, Allied)
	for _, id := range []string{"IR4", "IR5", "AB1", "340"} {
		put(n, id, "Hamar")
	}
	next, _ = play(t, n, "attack Hamar\n", 3, 3, 3)
	if !logHas(next, "IR4 rolls") || logHas(next, "IR5 rolls") || !logHas(next, "AB1 rolls") {
		t.Errorf("turn 5: one regiment and one battalion attack:\n%s", logText(next))
	}
}

// 13.3.4: "A captured Fieldwork is removed from play ... An abandoned
// fieldwork is, also, eliminated." The Allied fieldwork at Elverum goes
// when the German 340 moves into the empty area; the one at Tretten, its
// builder gone, goes in the Allied reorganisation.
func TestRule13_3_4_CapturedOrAbandonedFieldworksGo(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "340", "Hamar")
	s.Works = []*Work{{Area: "Elverum", Kind: "fieldwork", Side: Allied, Unit: "IR5", Start: 5, Done: true},
		{Area: "Tretten", Kind: "fieldwork", Side: Allied, Unit: "DR1", Start: 5, Done: true}}
	next, _ := play(t, s, "move 340 Elverum\n")
	if w := next.work("Elverum", "fieldwork", Allied); w != nil {
		t.Errorf("the captured fieldwork stays: %+v", w)
	}
	if w := next.work("Tretten", "fieldwork", Allied); w != nil || !logHas(next, "the abandoned fieldwork at Tretten is removed") {
		t.Errorf("the abandoned fieldwork stays (the Allied reorganisation follows the German player-turn):\n%s", logText(next))
	}
}

// 13.3.5: "Parachute units cannot build Fieldworks."
func TestRule13_3_5_ParatroopsCannotBuild(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "FJ1", "Stavanger")
	s.setControl("Stavanger", German)
	supplyAt(s, "Stavanger")
	if e := parseErr(t, s, "build fieldwork FJ1\n"); e.Rule != "13.3.5" {
		t.Errorf("paratroops building: %+v", e)
	}
}

// 13.3.6: "If an area contains two fortifications (a fortified city and a
// fieldwork) with several defending units, all the units must defend in a
// single fortification ... The defender is free to choose which one": he
// takes the better. Narvik (+2, 14.2) with a fieldwork (+1): +2, not +3;
// Steinkjer, an unrated city (+0), with a fieldwork: +1; a fortified
// Narvik with a fieldwork: +3.
func TestRule13_3_6_OneFortificationTheBetter(t *testing.T) {
	for _, c := range []struct {
		area    string
		fortify bool
		want    string
	}{{"Narvik", false, "+2 city/fieldwork"}, {"Steinkjer", false, "+1 city/fieldwork"}, {"Narvik", true, "+3 city/fieldwork"}} {
		s := bare(t, 8, German)
		put(s, "139", c.area)
		put(s, "IR13", c.area)
		s.Works = []*Work{{Area: c.area, Kind: "fieldwork", Side: Allied, Unit: "IR13", Start: 5, Done: true}}
		if c.fortify {
			s.Works = append(s.Works, &Work{Area: c.area, Kind: "fortify", Side: Allied, Unit: "IR13", Start: 5, Done: true})
		}
		next, _ := play(t, s, "attack "+c.area+"\n", 1, 1)
		if !logHas(next, c.want) || strings.Count(logText(next), "city/fieldwork") != 1 {
			t.Errorf("%s (fortified %v): want %s once:\n%s", c.area, c.fortify, c.want, logText(next))
		}
	}
}

// TestRule10_2_EliminatedOutrightRevealsNoStepsLeft: random play found a
// revision 1 unit eliminated by an "A" result left at -1 steps (applyResult
// zeroes its steps, then takes one more). 10.2: a unit is eliminated when
// it has lost its steps, so the final report shows IR1 (2 steps) as
// eliminated with 0 of 2 steps. The state keeps -1, as revision 1's
// recorded games do; revision 2 eliminates at 0.
func TestRule10_2_EliminatedOutrightRevealsNoStepsLeft(t *testing.T) {
	s := bare(t, 5, German)
	s.Revision = 0 // revision 1
	u := put(s, "IR1", "Fredrikstad")
	c := &turnCtx{s: s, x: German}
	c.applyResult("Fredrikstad", Allied, []*Unit{u}, "A", "", false)
	if !u.Dead || u.Steps != -1 {
		t.Fatalf("revision 1 keeps its recorded state: dead %v, steps %d", u.Dead, u.Steps)
	}
	if rv := (Ruleset{}).Reveal(s); !strings.Contains(rv, "IR1      inf  eliminated, 0/2 steps") {
		t.Errorf("the reveal does not show IR1 eliminated with 0 of 2 steps:\n%s", rv)
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
