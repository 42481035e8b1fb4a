package kampen

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

func newGame(t *testing.T, seed string) *State {
	t.Helper()
	st, err := Ruleset{}.New(engine.Setup{}, engine.NewSeededDice([]byte(seed), "g", "new", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func TestRule1_1_SetupAsTheText(t *testing.T) {
	s := newGame(t, "x")
	want := map[string]int{
		"german/oslo": 3, "german/gjovik": 3, "german/honefoss": 2, "german/kongsvinger": 2,
		"german/kongsberg": 1, "german/trondheim": 1,
		"norwegian/hamar": 2, "norwegian/valdres": 2, "norwegian/lillehammer": 1, "norwegian/oppdal": 1,
		"allied/andalsnes": 2, "allied/dombas": 2,
	}
	got := map[string]int{}
	for _, x := range s.Stacks {
		got[string(x.Side)+"/"+x.Area] = x.N
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("set-up %v, want %v", got, want)
	}
	if s.total(German) != 12 || s.total(Norwegian) != 6 || s.total(Allied) != 4 {
		t.Errorf("totals %d/%d/%d, want 12/6/4", s.total(German), s.total(Norwegian), s.total(Allied))
	}
	if ph := (Ruleset{}).Phase(s); ph.ID != "R01-german-move" || !slices.Equal(ph.Owes, []engine.Side{German}) {
		t.Errorf("first phase %+v, want Germany's move", ph)
	}
}

func TestRule1_2_DecksShuffledWithTheDice(t *testing.T) {
	a, b, c := newGame(t, "a"), newGame(t, "a"), newGame(t, "b")
	want := map[engine.Side]map[string]int{
		German: {"panzer": 2, "ingeniorkompani": 2, "speidertropp": 2, "rask-forflytning": 3,
			"fallskjermtropp": 2, "bombefly": 2, "jagerbomber": 2, "artilleri": 1},
		Norwegian: {"bakhold": 2, "sprengt-bro": 1, "veisperring": 3, "rask-forflytning": 2},
		Allied: {"jagerfly": 2, "panservernkanon": 2, "ubat": 1, "forsterkninger": 1,
			"stridsvogn": 1, "fremmedlegionaer": 1},
	}
	sizes := map[engine.Side][2]int{German: {16, 5}, Norwegian: {8, 3}, Allied: {8, 3}}
	for _, side := range turnOrder {
		d := a.deck(side)
		all := append(append([]string{}, d.Hand...), d.Draw...)
		got := map[string]int{}
		for _, id := range all {
			got[id]++
		}
		if fmt.Sprint(got) != fmt.Sprint(want[side]) {
			t.Errorf("%s deck %v, want %v", side, got, want[side])
		}
		if len(all) != sizes[side][0] || len(d.Hand) != sizes[side][1] {
			t.Errorf("%s: %d cards, %d in hand; want %v", side, len(all), len(d.Hand), sizes[side])
		}
		if !slices.Equal(d.Draw, b.deck(side).Draw) || !slices.Equal(d.Hand, b.deck(side).Hand) {
			t.Errorf("%s: the same dice dealt different decks", side)
		}
	}
	if slices.Equal(append(a.German.Hand, a.German.Draw...), append(c.German.Hand, c.German.Draw...)) {
		t.Error("different dice dealt the same German deck")
	}
}

func TestRule1_4_ThreeSidesTwoCamps(t *testing.T) {
	if got := (Ruleset{}).Sides(); !slices.Equal(got, []engine.Side{Allied, German, Norwegian}) {
		t.Errorf("Sides() = %v", got)
	}
	if !enemies(German, Norwegian) || !enemies(German, Allied) || enemies(Norwegian, Allied) {
		t.Error("Norway and the Allies must fight Germany together")
	}
	for _, r := range (Ruleset{}).Rules() {
		if r.Section == "1.4" && !strings.Contains(r.Note, "holding both the Norwegian and the Allied keys") {
			t.Errorf("Rules 1.4 does not say how two players play: %q", r.Note)
		}
	}
}

// lastCard is a German reinforcement step with one face-down card left.
func lastCard(stacks ...Stack) *State {
	s := scene(German, StepReinforce, stacks...)
	s.German.Draw = []string{"artilleri"}
	give(s, German, "panzer", "panzer", "bombefly", "bombefly")
	s.German.UsedSince = true
	return s
}

func TestRule1_5_GermanyWinsHoldingAllFour(t *testing.T) {
	s := lastCard(at(German, "lillehammer", 1), at(German, "hamar", 1), at(German, "oppdal", 1),
		at(German, "tynset", 1), at(Norwegian, "valdres", 3), at(Allied, "dombas", 2))
	s = run(t, s, map[engine.Side]string{German: "place oslo 1"})
	r := (Ruleset{}).Result(s)
	if !s.Over || r == nil || r.Winner != German || r.Points[German] != 4 {
		t.Fatalf("result %+v, want a German win holding 4", r)
	}
	if !(Ruleset{}).Phase(s).Over {
		t.Error("phase not over")
	}
}

func TestRule1_5_NorwayAndAlliesWinHoldingOne(t *testing.T) {
	s := lastCard(at(German, "lillehammer", 1), at(German, "hamar", 1), at(German, "oppdal", 1),
		at(Allied, "tynset", 1))
	s = run(t, s, nil)
	r := (Ruleset{}).Result(s)
	if r == nil || r.Winner != Norwegian || r.Level != "joint" || r.Points[German] != 3 {
		t.Fatalf("result %+v, want a joint Norwegian-Allied win", r)
	}
	if !strings.Contains(r.Summary, "Tynset") {
		t.Errorf("summary %q does not name Tynset", r.Summary)
	}
}

func TestRule2_1_OneAreaARound(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 3), at(Norwegian, "dombas", 1))
	parse(t, s, German, "move gjovik lillehammer 3")
	errs := parseErr(t, s, German, "move Gjøvik Dombås")
	if !hasRule(errs, "4.1") {
		t.Errorf("errors %v, want rule 4.1", errs)
	}
	errs = parseErr(t, s, German, "move gjovik hamar 2\nmove gjovik valdres 2")
	if len(errs) != 1 || errs[0].Line != 2 || errs[0].Valid != "at most 1" {
		t.Errorf("errors %v, want line 2 with at most 1", errs)
	}
}

func TestRule2_3_BoardHoldsEveryNamedPlace(t *testing.T) {
	for _, name := range []string{"Oslo", "Gjøvik", "Hønefoss", "Kongsvinger", "Kongsberg", "Trondheim",
		"Hamar", "Valdres", "Lillehammer", "Oppdal", "Åndalsnes", "Dombås", "Tynset"} {
		id, ok := lookupArea(name)
		if !ok || AreaName(id) != name {
			t.Errorf("%s is not an area (%q)", name, id)
		}
	}
	reach := data.Graph.Reachable("oslo", 100, func(engine.Edge) (int, bool) { return 1, true })
	if len(reach) != len(data.Areas) {
		t.Errorf("%d of %d areas reachable from Oslo", len(reach), len(data.Areas))
	}
	for _, l := range data.Links {
		if l.Source == "" {
			t.Errorf("link %s-%s has no reason", l.A, l.B)
		}
	}
}

func TestRule2_4_MjosaIsAFjord(t *testing.T) {
	if EdgeKind("gjovik", "hamar") != "fjord" || EdgeKind("hamar", "lillehammer") != "land" {
		t.Fatal("Mjøsa must be the fjord border of Hamar and Gjøvik")
	}
	// Crossing is movement as normal; attacking across halves the dice.
	s := scene(German, StepMove, at(German, "gjovik", 5), at(Norwegian, "hamar", 1))
	s = run(t, s, map[engine.Side]string{German: "move gjovik hamar 5"})
	if len(s.Groups) != 1 || !s.Groups[0].Fjord {
		t.Fatalf("groups %+v, want one across the fjord", s.Groups)
	}
	// 5 battalions across the lake: 2 dice; the defender 1.
	s = run(t, s, map[engine.Side]string{Norwegian: ""}, 6, 6, 2)
	if s.count("hamar", German) != 5 || s.count("hamar", Norwegian) != 0 {
		t.Errorf("Hamar: %v", s.Stacks)
	}
}

func TestRule2_4_ControlIsHoldingWithABattalion(t *testing.T) {
	s := scene(German, StepMove, at(German, "hamar", 1), at(Allied, "dombas", 1), at(Norwegian, "dombas", 1))
	if s.holder("hamar") != German || s.holder("tynset") != "" || s.holder("dombas") != Norwegian {
		t.Errorf("holders %q %q %q", s.holder("hamar"), s.holder("tynset"), s.holder("dombas"))
	}
}

func TestRule2_5_NorwayReshufflesOthersDoNot(t *testing.T) {
	s := scene(Norwegian, StepReinforce, at(Norwegian, "hamar", 1))
	s.Norwegian.Draw = nil
	s.Norwegian.Used = []string{"bakhold", "veisperring", "sprengt-bro", "veisperring"}
	s = runWith(t, s, nil, engine.NewSeededDice([]byte("k"), "g", "p", [32]byte{}))
	if len(s.Norwegian.Hand) != 3 || len(s.Norwegian.Draw) != 1 || len(s.Norwegian.Used) != 0 {
		t.Errorf("Norway after reshuffle: %+v", s.Norwegian)
	}
	a := scene(Allied, StepReinforce, at(Allied, "dombas", 1))
	a.Allied.Draw = nil
	a.Allied.Used = []string{"jagerfly", "ubat"}
	give(a, Allied, "stridsvogn")
	a = run(t, a, nil)
	if len(a.Allied.Hand) != 1 || len(a.Allied.Used) != 2 {
		t.Errorf("the Allies drew from their used cards: %+v", a.Allied)
	}
}

func TestRule2_6_UsedCardsGoFaceUpUnderTheDeck(t *testing.T) {
	s := scene(German, StepReinforce, at(German, "oslo", 1), at(Norwegian, "hamar", 1))
	s.German.Draw = []string{"panzer", "bombefly", "artilleri"}
	give(s, German, "speidertropp", "rask-forflytning", "jagerbomber", "fallskjermtropp", "ingeniorkompani")
	s = run(t, s, map[engine.Side]string{German: "trade speidertropp rask-forflytning\nplace oslo 2"})
	if !slices.Equal(s.German.Used, []string{"speidertropp", "rask-forflytning"}) {
		t.Errorf("used %v", s.German.Used)
	}
	if !slices.Equal(s.German.Draw, []string{"artilleri"}) || !slices.Contains(s.German.Hand, "panzer") || !slices.Contains(s.German.Hand, "bombefly") {
		t.Errorf("Germany did not draw from the top: draw %v hand %v", s.German.Draw, s.German.Hand)
	}
	if s.count("oslo", German) != 3 {
		t.Errorf("Oslo %d, want 3 (1 + free + traded)", s.count("oslo", German))
	}
}

func TestRule2_7_CardsOnlyInTheirSteps(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 2), at(Norwegian, "hamar", 1))
	give(s, German, "ingeniorkompani", "bombefly")
	errs := parseErr(t, s, German, "move oslo hamar 2\nattack hamar ingeniorkompani")
	if !hasRule(errs, "5.3.1") {
		t.Errorf("Ingeniørkompani accepted as an attack card: %v", errs)
	}
	errs = parseErr(t, s, German, "defend hamar bombefly")
	if !hasRule(errs, "3.1") {
		t.Errorf("a defend order accepted in the move step: %v", errs)
	}
	d := scene(Norwegian, StepDefend, at(German, "hamar", 1))
	d.Combats = []Combat{{Area: "hamar", Attacker: Norwegian}}
	d.Groups = []Group{{Side: Norwegian, From: "elverum", To: "hamar", N: 2}}
	give(d, German, "bombefly", "artilleri")
	errs = parseErr(t, d, German, "defend hamar bombefly")
	if !hasRule(errs, "5.3.2") {
		t.Errorf("Bombefly accepted as a defence card: %v", errs)
	}
	parse(t, d, German, "defend hamar artilleri")
}

func TestRule2_8_ThreeSymbolsABattalion(t *testing.T) {
	cases := []struct {
		side  engine.Side
		cards []string
		want  int
	}{
		{Allied, []string{"forsterkninger"}, 1},
		{Allied, []string{"forsterkninger", "fremmedlegionaer"}, 2},
		{Norwegian, []string{"veisperring", "veisperring"}, 0},
		{Norwegian, []string{"sprengt-bro", "rask-forflytning", "veisperring"}, 1},
		{Norwegian, []string{"sprengt-bro", "rask-forflytning", "rask-forflytning"}, 2},
		{German, nil, 1},
		{German, []string{"speidertropp", "panzer"}, 2},
	}
	for _, c := range cases {
		if got := Reinforcements(c.side, c.cards); got != c.want {
			t.Errorf("%s %v: %d battalions, want %d", c.side, c.cards, got, c.want)
		}
	}
	if c, _ := data.Card(Allied, "forsterkninger"); c.Symbols != 5 {
		t.Errorf("Forsterkninger has %d symbols, the text says 5", c.Symbols)
	}
}

func TestRule3_RoundOrderAndOwedOrders(t *testing.T) {
	r := Ruleset{}
	s := newGame(t, "order")
	var ids []string
	for i := 0; i < 7; i++ {
		ph := r.Phase(s)
		ids = append(ids, ph.ID+"="+fmt.Sprint(ph.Owes))
		s = run(t, s, nil)
	}
	want := "R01-german-move=[german] R01-german-reinforce=[german] R01-norwegian-move=[norwegian] " +
		"R01-norwegian-reinforce=[norwegian] R01-allied-move=[allied] R01-allied-reinforce=[allied] R02-german-move=[german]"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("phases\n%s\nwant\n%s", got, want)
	}
	// A German move opens the defenders' phase for the camp that answers.
	s = scene(German, StepMove, at(German, "oslo", 2), at(Allied, "hamar", 1), at(German, "gjovik", 1))
	give(s, Norwegian, "veisperring")
	b := s.clone()
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 2"})
	if got := s.owes(); !slices.Equal(got, []engine.Side{Allied, Norwegian}) {
		t.Errorf("defend phase owed by %v, want allied and norwegian", got)
	}
	// Without a card Norway has nothing to answer a move it does not fight.
	b.Norwegian.Hand = nil
	b = run(t, b, map[engine.Side]string{German: "move oslo hamar 2"})
	if got := b.owes(); !slices.Equal(got, []engine.Side{Allied}) {
		t.Errorf("defend phase owed by %v, want allied", got)
	}
	g := scene(German, StepMove, at(German, "oslo", 2), at(Norwegian, "valdres", 1))
	g = run(t, g, map[engine.Side]string{German: "move oslo hamar 2"})
	if g.Step != StepReinforce || g.count("hamar", German) != 2 {
		t.Errorf("a move no one answers goes straight on: step %s, %v", g.Step, g.Stacks)
	}
	n := scene(Norwegian, StepMove, at(Norwegian, "valdres", 2), at(German, "gjovik", 1))
	n = run(t, n, map[engine.Side]string{Norwegian: "move valdres gjovik 2"})
	if got := n.owes(); n.Step != StepDefend || !slices.Equal(got, []engine.Side{German}) {
		t.Errorf("Norwegian attack: step %s owed by %v", n.Step, got)
	}
}

func TestRule4_1_RaskForflytningTwoAreas(t *testing.T) {
	s := scene(German, StepMove, at(German, "kongsvinger", 2), at(Norwegian, "hamar", 1))
	give(s, German, "rask-forflytning")
	errs := parseErr(t, s, German, "rapid kongsvinger oslo hamar elverum 2")
	if !hasRule(errs, "4.1") {
		t.Errorf("three areas accepted: %v", errs)
	}
	give(s, Norwegian, "bakhold")
	s = run(t, s, map[engine.Side]string{German: "rapid kongsvinger elverum rena 2"})
	s = run(t, s, map[engine.Side]string{Norwegian: ""})
	if s.count("rena", German) != 2 || !slices.Equal(s.German.Used, []string{"rask-forflytning"}) {
		t.Errorf("Rena %d, used %v", s.count("rena", German), s.German.Used)
	}
	b := scene(German, StepMove, at(German, "oslo", 2), at(Norwegian, "hamar", 1))
	give(b, German, "rask-forflytning")
	if errs := parseErr(t, b, German, "rapid oslo hamar elverum 2"); !hasRule(errs, "4.2") {
		t.Errorf("a rapid move through an enemy area: %v", errs)
	}
}

func TestRule4_2_MovingIntoAnEnemyAreaIsAnAttack(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 3), at(Norwegian, "lillehammer", 1))
	s = run(t, s, map[engine.Side]string{German: "move gjovik lillehammer 2\nmove gjovik valdres"})
	if len(s.Combats) != 1 || s.Combats[0].Area != "lillehammer" || s.Step != StepDefend {
		t.Fatalf("combats %+v step %s", s.Combats, s.Step)
	}
	v := (Ruleset{}).View(s, Norwegian).(*View)
	if len(v.Groups) != 2 || v.Groups[0].To != "lillehammer" || v.Groups[0].N != 2 {
		t.Errorf("Norway does not see the Germans at the border: %+v", v.Groups)
	}
	if s.count("lillehammer", German) != 0 || s.count("gjovik", German) != 0 {
		t.Errorf("attackers must wait at the border: %v", s.Stacks)
	}
}

func TestRule4_3_GroupsFromSeveralAreasGoBackToTheirOwn(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 2), at(German, "elverum", 2), at(Norwegian, "hamar", 3))
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 2\nmove elverum hamar 2"})
	// Attacker 4 dice of 1, defender 3 dice of 3: the defence holds.
	s = run(t, s, map[engine.Side]string{Norwegian: ""}, 2, 2, 3, 3, 6, 6, 6)
	if s.count("oslo", German) != 2 || s.count("elverum", German) != 2 || s.count("hamar", Norwegian) != 3 {
		t.Errorf("after the failed attack: %v", s.Stacks)
	}
	if s.Step != StepReinforce || len(s.Groups) != 0 {
		t.Errorf("step %s groups %v", s.Step, s.Groups)
	}
}

func TestRule4_4_VeisperringStopsTwoOfOneGroup(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 3), at(German, "elverum", 1), at(Norwegian, "hamar", 1))
	give(s, Norwegian, "veisperring")
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 3\nmove elverum hamar 1"})
	// One German from Oslo and one from Elverum fight: 2 dice against 1.
	s = run(t, s, map[engine.Side]string{Norwegian: "block veisperring hamar from oslo"}, 2, 2, 6)
	if s.count("oslo", German) != 3 || s.count("elverum", German) != 1 || s.count("hamar", Norwegian) != 1 {
		t.Errorf("after Veisperring: %v", s.Stacks)
	}
	if !slices.Equal(s.Norwegian.Used, []string{"veisperring"}) {
		t.Errorf("Norwegian used %v", s.Norwegian.Used)
	}
}

func TestRule4_4_SprengtBroStopsEveryGroup(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 2), at(German, "elverum", 2), at(Norwegian, "hamar", 1))
	give(s, Norwegian, "sprengt-bro")
	give(s, German, "panzer")
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 2\nmove elverum hamar 2\nattack hamar panzer"})
	s = run(t, s, map[engine.Side]string{Norwegian: "block blown-bridge Hamar"})
	if s.count("oslo", German) != 2 || s.count("elverum", German) != 2 || s.count("hamar", Norwegian) != 1 {
		t.Errorf("after Sprengt bro: %v", s.Stacks)
	}
	if !slices.Equal(s.German.Hand, []string{"panzer"}) || len(s.German.Used) != 0 {
		t.Errorf("the Panzer of a combat that never happened goes back to the hand: hand %v used %v", s.German.Hand, s.German.Used)
	}
}

func TestRule4_4_IngeniorkompaniCancelsABlock(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 3), at(Norwegian, "hamar", 1))
	give(s, Norwegian, "veisperring")
	give(s, German, "ingeniorkompani")
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 3\nengineer on"})
	if v := (Ruleset{}).View(s, Norwegian).(*View); v.Hidden != nil {
		t.Error("Norway sees the German standing orders")
	}
	s = run(t, s, map[engine.Side]string{Norwegian: "block roadblock hamar"}, 6, 6, 6, 2)
	if s.count("hamar", German) != 3 || !slices.Equal(s.German.Used, []string{"ingeniorkompani"}) || !slices.Equal(s.Norwegian.Used, []string{"veisperring"}) {
		t.Errorf("after Ingeniørkompani: %v, used %v / %v", s.Stacks, s.German.Used, s.Norwegian.Used)
	}
}

func TestRule4_4_FleeWithRaskForflytning(t *testing.T) {
	s := scene(German, StepMove, at(German, "oslo", 3), at(German, "gjovik", 1), at(Norwegian, "hamar", 2))
	give(s, Norwegian, "rask-forflytning")
	s = run(t, s, map[engine.Side]string{German: "move oslo hamar 3"})
	if errs := parseErr(t, s, Norwegian, "flee hamar gjovik"); !hasRule(errs, "4.4") {
		t.Errorf("flight into a German area: %v", errs)
	}
	s = run(t, s, map[engine.Side]string{Norwegian: "flee hamar elverum"})
	if s.count("elverum", Norwegian) != 2 || s.count("hamar", German) != 3 {
		t.Errorf("after the flight: %v", s.Stacks)
	}
}

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

func TestRule6_1_GermanReinforcements(t *testing.T) {
	s := scene(German, StepReinforce, at(German, "oslo", 1), at(Norwegian, "drammen", 1), at(Norwegian, "hamar", 1))
	give(s, German, "speidertropp", "panzer", "bombefly")
	for text, rule := range map[string]string{
		"place hamar":                      "6.1",
		"place drammen":                    "6.1",
		"place lillehammer":                "6.1",
		"place oslo 2":                     "6",
		"trade speidertropp\nplace oslo 2": "6",
	} {
		if errs := parseErr(t, s, German, text); !hasRule(errs, rule) {
			t.Errorf("%q: errors %v, want rule %s", text, errs, rule)
		}
	}
	s = run(t, s, map[engine.Side]string{German: "trade speidertropp panzer\nplace oslo\nplace larvik"})
	if s.count("oslo", German) != 2 || s.count("larvik", German) != 1 {
		t.Errorf("after the reinforcements: %v", s.Stacks)
	}
}

func TestRule6_2_NorwegianReinforcements(t *testing.T) {
	s := scene(Norwegian, StepReinforce, at(German, "oslo", 1), at(Allied, "dombas", 1))
	give(s, Norwegian, "sprengt-bro", "rask-forflytning", "rask-forflytning")
	for text, rule := range map[string]string{
		"trade sprengt-bro rask-forflytning rask-forflytning\nplace hamar 2":                           "6.2",
		"trade sprengt-bro rask-forflytning rask-forflytning\nplace hamar\nplace hamar":                "6.2",
		"trade sprengt-bro rask-forflytning rask-forflytning\nplace oslo":                              "6.2",
		"trade sprengt-bro rask-forflytning rask-forflytning\nplace hamar\nplace tynset\nplace oppdal": "6",
	} {
		if errs := parseErr(t, s, Norwegian, text); !hasRule(errs, rule) {
			t.Errorf("%q: errors %v, want rule %s", text, errs, rule)
		}
	}
	s = run(t, s, map[engine.Side]string{Norwegian: "trade sprengt-bro rask-forflytning rask-forflytning\nplace dombas\nplace kongsberg"})
	if s.count("dombas", Norwegian) != 1 || s.count("kongsberg", Norwegian) != 1 {
		t.Errorf("after the reinforcements: %v", s.Stacks)
	}
}

func TestRule6_3_AlliedReinforcements(t *testing.T) {
	s := scene(Allied, StepReinforce, at(German, "trondheim", 1))
	give(s, Allied, "forsterkninger")
	for _, a := range []string{"oslo", "larvik", "valdres", "trondheim"} {
		if errs := parseErr(t, s, Allied, "trade forsterkninger\nplace "+a); !hasRule(errs, "6.3") {
			t.Errorf("place %s: %v", a, errs)
		}
	}
	s = run(t, s, map[engine.Side]string{Allied: "trade forsterkninger\nplace molde"})
	if s.count("molde", Allied) != 1 {
		t.Errorf("after the reinforcements: %v", s.Stacks)
	}
}

func TestRule6_3_UbatSinksAGermanReinforcement(t *testing.T) {
	s := scene(Allied, StepReinforce, at(German, "oslo", 1), at(Allied, "andalsnes", 1))
	give(s, Allied, "ubat")
	s.Allied.UsedSince = true
	s = run(t, s, map[engine.Side]string{Allied: "submarine on"})
	if !s.Submarine {
		t.Fatal("standing order not kept")
	}
	if v := (Ruleset{}).View(s, German).(*View); v.Submarine {
		t.Error("Germany sees the Allied standing order")
	}
	s.Turn, s.Step = German, StepReinforce
	s = run(t, s, map[engine.Side]string{German: "place oslo"})
	if s.count("oslo", German) != 1 || !slices.Contains(s.Allied.Used, "ubat") {
		t.Errorf("Ubåt did not sink the free battalion: %v, allied used %v", s.Stacks, s.Allied.Used)
	}
}

func TestRule7_DrawToHandSize(t *testing.T) {
	s := scene(German, StepReinforce, at(German, "oslo", 1), at(Norwegian, "hamar", 1))
	give(s, German, "panzer")
	s.German.UsedSince = true
	s = run(t, s, nil)
	if len(s.German.Hand) != 5 {
		t.Errorf("German hand %d, want 5", len(s.German.Hand))
	}
	if s.German.UsedSince {
		t.Error("UsedSince not reset at the end of the round")
	}
	n := scene(Norwegian, StepReinforce, at(Norwegian, "hamar", 1))
	n = run(t, n, nil)
	if len(n.Norwegian.Hand) != 3 {
		t.Errorf("Norwegian hand %d, want 3", len(n.Norwegian.Hand))
	}
}

func TestRule7_DiscardWhenNoCardWasUsed(t *testing.T) {
	s := scene(German, StepReinforce, at(German, "oslo", 1), at(Norwegian, "hamar", 1))
	s.German.Draw = []string{"speidertropp", "artilleri"}
	give(s, German, "panzer", "panzer", "bombefly", "bombefly", "jagerbomber")
	s = run(t, s, map[engine.Side]string{German: "discard jagerbomber"})
	if !slices.Equal(s.German.Used, []string{"jagerbomber"}) || !slices.Contains(s.German.Hand, "speidertropp") || len(s.German.Hand) != 5 {
		t.Errorf("after the discard: hand %v used %v", s.German.Hand, s.German.Used)
	}
	// Norway never discards.
	n := scene(Norwegian, StepReinforce, at(Norwegian, "hamar", 1))
	give(n, Norwegian, "bakhold", "bakhold", "veisperring")
	n = run(t, n, nil)
	if len(n.Norwegian.Used) != 0 {
		t.Errorf("Norway discarded %v", n.Norwegian.Used)
	}
	// The Allies, their deck spent, keep their hand.
	a := scene(Allied, StepReinforce, at(Allied, "dombas", 1))
	a.Allied.Draw = nil
	give(a, Allied, "ubat")
	a = run(t, a, nil)
	if !slices.Equal(a.Allied.Hand, []string{"ubat"}) {
		t.Errorf("the Allies discarded with no deck: %v", a.Allied.Hand)
	}
}

func TestRule7_1_GameEndsOnTheLastGermanCard(t *testing.T) {
	s := lastCard(at(German, "oslo", 1), at(Norwegian, "hamar", 1))
	s.German.Draw = []string{"artilleri", "panzer"}
	s.German.Hand = s.German.Hand[:3]
	s = run(t, s, nil)
	if !s.Over || len(s.German.Draw) != 0 || len(s.German.Hand) != 5 {
		t.Errorf("over %v, draw %v, hand %v", s.Over, s.German.Draw, s.German.Hand)
	}
	if (Ruleset{}).Phase(s).ID != "over" {
		t.Error("phase not over")
	}
	if _, err := (Ruleset{}).Resolve(s, nil, engine.NewManualDice()); err == nil {
		t.Error("Resolve after the end")
	}
}

func TestRule7_1_WipeoutEndsTheGame(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 2), at(Norwegian, "lillehammer", 1))
	s = run(t, s, map[engine.Side]string{German: "move gjovik lillehammer 2"})
	s = run(t, s, map[engine.Side]string{Norwegian: ""}, 1, 6, 2)
	r := (Ruleset{}).Result(s)
	if r == nil || r.Winner != German {
		t.Errorf("result %+v, want a German win by destruction", r)
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

// 2.5: "Tyskland og De allierte får ingen flere nye kort når de har brukt
// opp kortene i bunken sin, mens Norge får stokke om de brukte kortene når
// kortbunken deres er tom"; 2.9: Norway "Stokker om kortene når de har
// brukt alle kortene".
//
// Norway, no cards in hand or deck and four used (bakhold, veisperring,
// sprengt-bro, rask-forflytning), draws to 3 in its round: the used cards
// are shuffled with the dice, one roll a card from the last (Fisher-Yates,
// data pack): roll 1 of 4 swaps the fourth with the first (rask-
// forflytning, veisperring, sprengt-bro, bakhold), roll 3 of 3 and roll 2
// of 2 leave the rest. Norway draws the top three; bakhold stays face
// down. With one card left face down (veisperring) and two used, Norway
// draws veisperring first, then shuffles the two (roll 1 of 2 swaps
// them: sprengt-bro, bakhold) and draws both.
func TestRule2_5_NorwayReshufflesItsUsedCards(t *testing.T) {
	s := scene(Norwegian, StepReinforce, at(Norwegian, "hamar", 1))
	s.Norwegian.Draw = nil
	s.Norwegian.Used = []string{"bakhold", "veisperring", "sprengt-bro", "rask-forflytning"}
	s = shuffled(t, s, engine.Roll{Sides: 4, Value: 1}, engine.Roll{Sides: 3, Value: 3}, engine.Roll{Sides: 2, Value: 2})
	if got := strings.Join(s.Norwegian.Hand, " "); got != "rask-forflytning veisperring sprengt-bro" {
		t.Errorf("hand %q, want rask-forflytning veisperring sprengt-bro", got)
	}
	if strings.Join(s.Norwegian.Draw, " ") != "bakhold" || len(s.Norwegian.Used) != 0 {
		t.Errorf("deck %v used %v, want bakhold face down and nothing used", s.Norwegian.Draw, s.Norwegian.Used)
	}
	// With manual dice each roll says what it picks: the first, a d4,
	// which of the four cards goes fourth.
	m := scene(Norwegian, StepReinforce, at(Norwegian, "hamar", 1))
	m.Norwegian.Draw = nil
	m.Norwegian.Used = []string{"bakhold", "veisperring", "sprengt-bro", "rask-forflytning"}
	d := enginetest.ThenOnes()
	runWith(t, m, nil, d)
	if w := d.Wanted(); len(w) != 3 || w[0].Sides != 4 || w[0].Why != "Norway reshuffles its used cards: which of the first 4 cards becomes card 4 of the new deck" {
		t.Errorf("the reshuffle's rolls: %+v", w)
	}
	n := scene(Norwegian, StepReinforce, at(Norwegian, "hamar", 1))
	n.Norwegian.Draw = []string{"veisperring"}
	n.Norwegian.Used = []string{"bakhold", "sprengt-bro"}
	n = shuffled(t, n, engine.Roll{Sides: 2, Value: 1})
	if got := strings.Join(n.Norwegian.Hand, " "); got != "veisperring sprengt-bro bakhold" || len(n.Norwegian.Draw) != 0 {
		t.Errorf("hand %q deck %v, want veisperring sprengt-bro bakhold and an empty deck", got, n.Norwegian.Draw)
	}
}

// shuffled resolves Norway's reinforcement step with exactly the given
// rolls: the dice a shuffle asks for must be these, of these sizes.
func shuffled(t *testing.T, s *State, rolls ...engine.Roll) *State {
	t.Helper()
	d := engine.NewReplayDice(rolls)
	next := runWith(t, s, nil, d)
	if err := d.Err(); err != nil || d.Used() != len(rolls) || d.Short() > 0 {
		t.Fatalf("the shuffle's dice: %v; %d of %d used, %d short", err, d.Used(), len(rolls), d.Short())
	}
	return next
}

// 3 (the round's phases) and 2.9 (what differs between the countries):
// the order form and the hints of refused orders name only the orders the
// side itself gives. The Allies have no paratroops, reactions or
// engineers; Germany, defending, neither blocks nor flees; Norway discards
// nothing (7).
func TestRule3_FormAndHintsNameOnlyTheSidesOwnOrders(t *testing.T) {
	r := Ruleset{}
	form := func(s *State, side engine.Side) string { return r.OrderForm(r.View(s, side), side) }
	s := scene(Allied, StepMove, at(Allied, "dombas", 2), at(German, "trondheim", 1))
	if f := form(s, Allied); strings.Contains(f, "para ") || strings.Contains(f, "engineer") || strings.Contains(f, "react") || !strings.Contains(f, "move FROM TO") {
		t.Errorf("the Allied move form:\n%s", f)
	}
	errs := parseErr(t, s, Allied, "move dombas tynset 2\nengineer on")
	if errs[0].Line != 2 || errs[0].Valid != "move, attack" {
		t.Errorf("engineer by the Allies: %+v, want line 2 and valid \"move, attack\"", errs[0])
	}
	g := scene(Norwegian, StepMove, at(Norwegian, "hamar", 2), at(German, "lillehammer", 1))
	g = run(t, g, map[engine.Side]string{Norwegian: "move hamar lillehammer 2"})
	if g.Step != StepDefend {
		t.Fatalf("at %s, want Germany's answer", g.phaseID())
	}
	if f := form(g, German); strings.Contains(f, "block") || strings.Contains(f, "flee") || !strings.Contains(f, "defend AREA") {
		t.Errorf("the German defence form:\n%s", f)
	}
	n := scene(German, StepMove, at(German, "gjovik", 3), at(Norwegian, "lillehammer", 1))
	n = run(t, n, map[engine.Side]string{German: "move gjovik lillehammer 3"})
	if f := form(n, Norwegian); !strings.Contains(f, "block CARD AREA") || !strings.Contains(f, "flee AREA TO") {
		t.Errorf("the Norwegian answer in the German round:\n%s", f)
	}
	w := scene(Norwegian, StepReinforce, at(Norwegian, "hamar", 1))
	if f := form(w, Norwegian); strings.Contains(f, "discard") || strings.Contains(f, "submarine") {
		t.Errorf("the Norwegian reinforcement form:\n%s", f)
	}
}

// 6: "3 forsterkningssymboler tilsvarer én ny bataljon"; 6.1: Germany's
// free battalion. Speidertropp (2 symbols) and Ingeniørkompani (2) make 4
// symbols: 1 battalion, and the free one, 2 in all. Placing 3 is refused
// with a placement that stands.
func TestRule6_PlacingTooManyHintsAPlacementThatStands(t *testing.T) {
	s := scene(German, StepReinforce, at(German, "oslo", 1))
	give(s, German, "speidertropp", "ingeniorkompani")
	errs := parseErr(t, s, German, "trade speidertropp ingeniorkompani\nplace oslo 3")
	if errs[0].Line != 2 || errs[0].Valid != "place oslo 2 (2 battalion(s) in all)" {
		t.Fatalf("%+v", errs[0])
	}
	parse(t, s, German, "trade speidertropp ingeniorkompani\nplace oslo 2")
	errs = parseErr(t, s, German, "trade speidertropp ingeniorkompani\nplace oslo 2\nplace drammen 1")
	if errs[0].Line != 3 || !strings.HasPrefix(errs[0].Valid, "no more place orders") {
		t.Errorf("%+v", errs[0])
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
