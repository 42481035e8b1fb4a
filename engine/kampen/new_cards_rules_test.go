package kampen

import (
	"slices"
	"testing"

	"skagerrak/engine"
)

// Rules tests of chapter 7 of the text (seeds 003), Fase 4: Nye
// spillekort (new cards): each outcome worked out by hand from the rule it
// cites.

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
