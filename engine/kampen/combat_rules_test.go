package kampen

import (
	"slices"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// Rules tests of chapter 5 of the text (seeds 003), Fase 2: Kamp
// (combat): each outcome worked out by hand from the rule it cites.

func TestRule5_1_NorwayAndAlliesDefendTogether(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 2), at(Norwegian, "hamar", 3), at(Allied, "hamar", 3))
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 2"})
	// German 2 dice: two Zs. Joint defence: 5 dice, not 6.
	s = run(t, s, map[engine.Side]string{Norwegian: "losses allied", Allied: "losses allied"}, 1, 1, 4, 4, 4, 4, 4)
	if s.count("hamar", Allied) != 1 || s.count("hamar", Norwegian) != 3 || s.count("oslo", German) != 2 {
		t.Errorf("after the joint defence: %v", s.Stacks)
	}
}

func TestRule5_2_DiceFromBattalions(t *testing.T) {
	cases := [][3]int{{7, 0, 5}, {0, 4, 2}, {3, 4, 4}, {5, 3, 5}, {0, 1, 0}, {1, 0, 1}}
	for _, c := range cases {
		if got := BattalionDice(c[0], c[1]); got != c[2] {
			t.Errorf("BattalionDice(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
	// Seven battalions roll five dice; a Panzer's two come on top.
	s := scene(German, StepMove, at(German, "oslo", 7), at(Norwegian, "hamar", 1))
	give(s, German, "panzer")
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 7\nattack hamar panzer"})
	run(t, s, map[engine.Side]string{Norwegian: ""}, 2, 2, 2, 2, 2, 2, 2, 6)
}

func TestRule5_2_ZKillsABattalion(t *testing.T) {
	if f := data.Faces[0]; !f.Z || f.Points != 0 {
		t.Fatalf("face 1 %+v, want the Z", f)
	}
	s := scene(Norwegian, StepMove, at(Norwegian, "valdres", 2), at(German, "gjovik", 3))
	s = run(t, s, map[engine.Side]string{Norwegian: "move valdres gjovik 2"})
	// Norway rolls Z and 3: 3 points, one German dead. Germany rolls
	// three dice (its dead one too) for 3 points: a tie, the defence holds.
	s = run(t, s, map[engine.Side]string{German: ""}, 1, 6, 2, 2, 2)
	if s.count("gjovik", German) != 2 || s.count("valdres", Norwegian) != 2 {
		t.Errorf("after the Z: %v", s.Stacks)
	}
}

func TestRule5_3_FullCombatSequence(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 3), at(Norwegian, "lillehammer", 2))
	give(s, German, "panzer")
	give(s, Norwegian, "bakhold")
	s = run(t, s, map[engine.Side]string{German: "move gjovik lillehammer 3\nattack lillehammer panzer"})
	if v := (Ruleset{}).View(s, Norwegian).(*View); len(v.Combats) != 1 || !slices.Equal(v.Combats[0].Cards, []string{"panzer"}) {
		t.Fatalf("Norway does not see the Panzer played: %+v", v.Combats)
	}
	// Germany 3+2 dice: 3 3 Z 1 2 = 9, one Z. Norway 2+2 dice (its dead
	// battalion rolls too): 3 3 3 Z = 9, one Z. A tie: the defence holds.
	s = run(t, s, map[engine.Side]string{Norwegian: "defend lillehammer bakhold"}, 6, 6, 1, 2, 4, 6, 6, 6, 1)
	if s.count("lillehammer", Norwegian) != 1 || s.count("gjovik", German) != 2 {
		t.Errorf("after the combat: %v", s.Stacks)
	}
	if !slices.Equal(s.German.Used, []string{"panzer"}) || !slices.Equal(s.Norwegian.Used, []string{"bakhold"}) || !s.Norwegian.UsedSince {
		t.Errorf("cards used: %v / %v", s.German.Used, s.Norwegian.Used)
	}
}

func TestRule5_3_AttackerChoosesTheOrder(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 2), at(German, "oslo", 2), at(Norwegian, "lillehammer", 1), at(Norwegian, "hamar", 1))
	s = run(t, s, map[engine.Side]string{German: "move gjovik lillehammer 2\nmove oslo hamar 2\nattack lillehammer\nattack hamar"})
	if len(s.Combats) != 2 || s.Combats[0].Area != "lillehammer" {
		t.Errorf("combats %+v, want Lillehammer first", s.Combats)
	}
	s2 := scene(German, StepMove, at(German, "gjovik", 2), at(German, "oslo", 2), at(Norwegian, "lillehammer", 1), at(Norwegian, "hamar", 1))
	s2 = run(t, s2, map[engine.Side]string{German: "move gjovik lillehammer 2\nmove oslo hamar 2"})
	if s2.Combats[0].Area != "hamar" {
		t.Errorf("combats %+v, want alphabetical without attack lines", s2.Combats)
	}
}

func TestRule5_3_1_OneCardOfATypeInACombat(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 3), at(Norwegian, "lillehammer", 2))
	give(s, German, "panzer", "panzer")
	errs := parseErr(t, s, German, "move gjovik lillehammer 3\nattack lillehammer panzer panzer")
	if !hasRule(errs, "5.3.1") {
		t.Errorf("two Panzer in one combat: %v", errs)
	}
	errs = parseErr(t, s, German, "attack lillehammer panzer")
	if !hasRule(errs, "4.2") {
		t.Errorf("cards for an attack no one makes: %v", errs)
	}
}

func TestRule5_3_2_JagerflyCancelsBombefly(t *testing.T) {
	s := scene(German, StepMove, at(German, "kvam", 2), at(Allied, "dombas", 1))
	give(s, German, "bombefly")
	give(s, Allied, "jagerfly")
	s = run(t, s, map[engine.Side]string{German: "move kvam dombas 2\nattack dombas bombefly"})
	// Bombefly cancelled: Germany 2 dice; the Allies 1 + 1 for Jagerfly.
	s = run(t, s, map[engine.Side]string{Allied: "defend dombas fighters"}, 4, 4, 2, 2)
	if s.count("dombas", German) != 2 || s.count("dombas", Allied) != 0 {
		t.Errorf("after the combat: %v", s.Stacks)
	}
	if !slices.Equal(s.German.Used, []string{"bombefly"}) {
		t.Errorf("a cancelled card is still used: %v", s.German.Used)
	}
}

func TestRule5_3_3_JagerbomberAnswersJagerfly(t *testing.T) {
	s := scene(German, StepMove, at(German, "kvam", 2), at(Allied, "dombas", 1))
	give(s, German, "bombefly", "jagerbomber", "speidertropp")
	give(s, Allied, "jagerfly")
	s = run(t, s, map[engine.Side]string{German: "move kvam dombas 2\nattack dombas bombefly\nreact dombas jagerbomber speidertropp"})
	// Jagerbomber cancels Jagerfly, so the Bombefly counts: Germany 4 dice,
	// the Allies 1. Speidertropp finds no Bakhold and stays in the hand.
	s = run(t, s, map[engine.Side]string{Allied: "defend dombas jagerfly"}, 2, 2, 2, 2, 6)
	if !slices.Equal(s.German.Used, []string{"jagerbomber", "bombefly"}) || !slices.Equal(s.German.Hand, []string{"speidertropp"}) {
		t.Errorf("German used %v hand %v", s.German.Used, s.German.Hand)
	}
	if s.count("dombas", German) != 2 {
		t.Errorf("after the combat: %v", s.Stacks)
	}
}

func TestRule5_3_5_DefenderRollsForItsDead(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 2), at(Norwegian, "lillehammer", 1))
	s = run(t, s, map[engine.Side]string{German: "move gjovik lillehammer 2"})
	// Two Zs kill the one defender, who still rolls: a 3 beats 0.
	s = run(t, s, map[engine.Side]string{Norwegian: ""}, 1, 1, 6)
	if s.count("lillehammer", Norwegian) != 0 || s.count("lillehammer", German) != 0 || s.count("gjovik", German) != 2 {
		t.Errorf("after the combat: %v", s.Stacks)
	}
}

func TestRule5_3_6_GermanyDecidesWhenTheAlliesDisagree(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 2), at(Norwegian, "hamar", 2), at(Allied, "hamar", 2))
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 2\nlosses allied"})
	s = run(t, s, map[engine.Side]string{Norwegian: "losses allied", Allied: "losses norwegian"}, 1, 2, 6, 6, 6, 6)
	if s.count("hamar", Allied) != 1 || s.count("hamar", Norwegian) != 2 {
		t.Errorf("Germany chose the Allied loss: %v", s.Stacks)
	}
	if errs := parseErr(t, s, German, "losses danish"); len(errs) != 1 {
		t.Errorf("errors %v", errs)
	}
}

func TestRule5_3_6_AttackerChoosesItsDead(t *testing.T) {
	for _, c := range []struct {
		first        string
		oslo, elverm int
	}{{" first elverum", 2, 0}, {"", 1, 1}} {
		s := scene(German, StepMove, at(German, "oslo", 3), at(German, "elverum", 1), at(Norwegian, "hamar", 4))
		s = run(t, s, map[engine.Side]string{German: "move oslo hamar 3\nmove elverum hamar\nattack hamar" + c.first})
		// Germany 4 points; Norway 6 points and two Zs.
		s = run(t, s, map[engine.Side]string{Norwegian: ""}, 2, 2, 2, 2, 1, 1, 6, 6)
		if s.count("oslo", German) != c.oslo || s.count("elverum", German) != c.elverm {
			t.Errorf("%q: after the losses %v", c.first, s.Stacks)
		}
	}
	s := scene(German, StepMove, at(German, "oslo", 3), at(German, "elverum", 1), at(Norwegian, "hamar", 4))
	if errs := parseErr(t, s, German, "move oslo hamar 3\nattack hamar first elverum"); !hasRule(errs, "5.3.6") {
		t.Errorf("first from an area that does not attack: %v", errs)
	}
}

func TestRule5_3_7_DefenderWinsTies(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 1), at(Norwegian, "hamar", 1))
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar"})
	s = run(t, s, map[engine.Side]string{Norwegian: ""}, 4, 5)
	if s.count("hamar", Norwegian) != 1 || s.count("oslo", German) != 1 {
		t.Errorf("a tie is the defender's: %v", s.Stacks)
	}
}

func TestRule5_3_8_RetreatRules(t *testing.T) {
	// Germany attacks Hamar from Oslo and Elverum; Gjøvik is German.
	// Norway may not retreat to Oslo (an attacker's area) and goes to
	// Lillehammer, all together with the Allies.
	s := scene(German, StepMove, at(German, "oslo", 3), at(German, "elverum", 2), at(German, "gjovik", 1),
		at(Norwegian, "hamar", 1), at(Allied, "hamar", 1))
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 3\nmove elverum hamar 2"})
	if errs := parseErr(t, s, Allied, "retreat hamar gjovik"); !hasRule(errs, "5.3.8") {
		t.Errorf("Allied retreat across Mjøsa: %v", errs)
	}
	s = run(t, s, map[engine.Side]string{Norwegian: "retreat hamar oslo", Allied: ""}, 6, 6, 6, 6, 6, 2, 2)
	if s.count("lillehammer", Norwegian) != 1 || s.count("lillehammer", Allied) != 1 || s.count("hamar", German) != 5 {
		t.Errorf("after the retreat: %v", s.Stacks)
	}
	// Norwegians may retreat across the lake; the Allies may not.
	n := scene(German, StepMove, at(German, "oslo", 1), at(German, "elverum", 1), at(German, "lillehammer", 1),
		at(Norwegian, "hamar", 1))
	n = run(t, n, map[engine.Side]string{German: "move oslo hamar\nmove elverum hamar\nmove lillehammer hamar"})
	n = run(t, n, map[engine.Side]string{Norwegian: "retreat hamar gjovik"}, 6, 6, 6, 2)
	if n.count("gjovik", Norwegian) != 1 {
		t.Errorf("Norway did not retreat across Mjøsa: %v", n.Stacks)
	}
	a := scene(German, StepMove, at(German, "oslo", 1), at(German, "elverum", 1), at(German, "lillehammer", 1),
		at(Allied, "hamar", 1))
	a = run(t, a, map[engine.Side]string{German: "move oslo hamar\nmove elverum hamar\nmove lillehammer hamar"})
	a = run(t, a, map[engine.Side]string{Allied: ""}, 6, 6, 6, 2)
	if a.total(Allied) != 0 {
		t.Errorf("the Allies escaped across Mjøsa: %v", a.Stacks)
	}
}

func TestRule5_3_8_SurroundedDefenderIsLost(t *testing.T) {
	s := scene(Norwegian, StepMove, at(Norwegian, "rena", 2), at(Norwegian, "hamar", 2), at(German, "elverum", 2), at(Norwegian, "oslo", 1))
	s.Stacks = nil
	for _, x := range []Stack{at(Norwegian, "rena", 2), at(Norwegian, "hamar", 2), at(German, "elverum", 2), at(Norwegian, "kongsvinger", 1)} {
		s.add(x.Area, x.Side, x.N)
	}
	s = run(t, s, map[engine.Side]string{Norwegian: "move rena elverum 2\nmove hamar elverum 2\nmove kongsvinger elverum"})
	s = run(t, s, map[engine.Side]string{German: ""}, 6, 6, 6, 6, 6, 2, 2)
	if s.total(German) != 0 || s.count("elverum", Norwegian) != 5 {
		t.Errorf("the surrounded Germans were not lost: %v", s.Stacks)
	}
	if !s.Over || s.Winner != Norwegian {
		t.Errorf("every German destroyed: over %v winner %q", s.Over, s.Winner)
	}
}

// 5.2: "Man kan maksimalt få kampterninger fra 5 bataljoner i hver enkelt
// kamp ... Norge og De allierte får maksimalt uttelling for 5 bataljoner
// til sammen dersom de forsvarer seg sammen i et område." Card dice "kommer
// i tillegg" (come on top).
//
// Five German battalions attack Hamar from Oslo, held by 3 Norwegian and
// 3 Allied battalions: Germany rolls 5 dice, the joint defence 5, not 6.
// With the faces of data/dice.txt (1 Z, 2-3 one pip, 4-5 two, 6 three):
//
//	Germany 6 6 6 6 4 = 3+3+3+3+2 = 14, no Z
//	defence 6 6 6 4 4 = 3+3+3+2+2 = 13, no Z
//
// 14 beats 13: Germany takes Hamar with all 5, the defenders retreat
// together. A sixth defence die is rolled only for a card: with the
// Allies' Fremmedlegionær (1 die) a 4 more makes 15, and the defence
// holds. Every die supplied must be used, no more: the cap is counted.
func TestRule5_2_JointDefenceRollsAtMostFiveDice(t *testing.T) {
	start := func() *State {
		s := scene(German, StepMove, at(German, "oslo", 5), at(Norwegian, "hamar", 3), at(Allied, "hamar", 3))
		give(s, Allied, "fremmedlegionaer")
		return run(t, s, map[engine.Side]string{German: "move oslo hamar 5"})
	}
	s := run(t, start(), map[engine.Side]string{Norwegian: "", Allied: ""}, 6, 6, 6, 6, 4, 6, 6, 6, 4, 4)
	if s.count("hamar", German) != 5 || s.count("hamar", Norwegian)+s.count("hamar", Allied) != 0 {
		t.Fatalf("14 to 13: Germany takes Hamar: %v", s.Stacks)
	}
	moved := ""
	for _, st := range s.Stacks {
		if st.Side != German && st.N == 3 {
			moved += st.Area + " "
		}
	}
	if strings.Count(moved, " ") != 2 || strings.Split(moved, " ")[0] != strings.Split(moved, " ")[1] {
		t.Errorf("the defenders retreat together, 3 and 3: %v", s.Stacks)
	}
	s = run(t, start(), map[engine.Side]string{Norwegian: "", Allied: "defend hamar fremmedlegionaer"}, 6, 6, 6, 6, 4, 6, 6, 6, 4, 4, 4)
	if s.count("hamar", Norwegian) != 3 || s.count("hamar", Allied) != 3 || s.count("oslo", German) != 5 {
		t.Fatalf("14 to 15 with the card's die: the defence holds: %v", s.Stacks)
	}
}

// 5.2: "Hver bataljon representerer en terning i kamp"; the faces of the
// custom die are reconstructed (data/dice.txt). A referee rolling manual
// dice is told, with each roll, which face of the combat die each value
// of a d6 stands for.
func TestRule5_2_EachCombatRollSaysWhichFaceIsWhich(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 1), at(Norwegian, "lillehammer", 1))
	s = run(t, s, map[engine.Side]string{German: "move gjovik lillehammer 1"})
	d := enginetest.ThenOnes()
	runWith(t, s, map[engine.Side]string{Norwegian: ""}, d)
	w := d.Wanted()
	if len(w) != 2 || !strings.HasSuffix(w[0].Why, "(d6 for the combat die: 1 Z, 2-3 1 pip, 4-5 2 pips, 6 3 pips)") {
		t.Fatalf("rolls wanted: %+v", w)
	}
}
