package kampen

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// playGame plays a whole game with the scripted players through the
// engine.Ruleset interface only, with seeded dice, and returns the final
// state and the digest of every state on the way.
func playGame(t *testing.T, secret string) (*State, []string) {
	t.Helper()
	s, d, _ := playGameStates(t, secret)
	return s, d
}

// playGameStates is playGame that also returns every state the game went
// through, the first included.
func playGameStates(t *testing.T, secret string) (*State, []string, []*State) {
	t.Helper()
	p := enginetest.Scripted{Secret: secret, SetupPhase: "new", Phases: 400,
		PlayerPhase: func(phase string, side engine.Side) string { return phase + "/play/" + string(side) }}.Play(t, Ruleset{})
	var states []*State
	for _, st := range p.States {
		states = append(states, st.(*State))
	}
	s := p.Final().(*State)
	if !s.Over {
		t.Fatalf("game not over after 400 phases (round %d)", s.Round)
	}
	return s, p.Digests, states
}

func TestFullGameScriptedPlayersDeterministic(t *testing.T) {
	wins := map[engine.Side]int{}
	for _, seed := range []string{"alpha", "beta", "gamma", "delta", "s5", "s6"} {
		a, da := playGame(t, seed)
		b, db := playGame(t, seed)
		if strings.Join(da, ",") != strings.Join(db, ",") {
			t.Fatalf("seed %s: two plays differ", seed)
		}
		r := Ruleset{}.Result(a)
		if r == nil || r.Summary == "" {
			t.Fatalf("seed %s: no result", seed)
		}
		_ = b
		wins[r.Winner]++
		t.Logf("seed %s: round %d, %d phases: %s", seed, a.Round, len(da), r.Summary)
	}
	t.Logf("wins: %v", wins)
}
