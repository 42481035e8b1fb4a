package kampen

import (
	"slices"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// Rules tests of chapter 2 of the text (seeds 003), Terninger, brikker,
// brett og kort (dice, pieces, board and cards): each outcome worked out by
// hand from the rule it cites.

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
