package norway1940

import (
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// playGame plays a whole game with the scripted players, returning the
// final state and the digest of the state after each phase.
func playGame(t *testing.T, secret string, opts ...string) (*State, []string) {
	t.Helper()
	p := enginetest.Scripted{Setup: engine.Setup{Options: opts}, Secret: secret, SetupPhase: "new", Phases: 100,
		PlayerPhase: func(phase string, side engine.Side) string { return phase + "/play/" + string(side) }}.Play(t, Ruleset{})
	s := p.Final().(*State)
	if !s.Over {
		t.Fatalf("game not over after 100 phases (turn %d)", s.Turn)
	}
	return s, p.Digests
}

func TestFullGameScriptedPlayersDeterministic(t *testing.T) {
	full := 0
	for _, seed := range []string{"alpha", "s10", "s23"} {
		a, da := playGame(t, seed)
		b, db := playGame(t, seed)
		if len(da) != len(db) || da[len(da)-1] != db[len(db)-1] {
			t.Fatalf("seed %s: two plays differ", seed)
		}
		r := Ruleset{}.Result(a)
		if r == nil || r.Summary == "" {
			t.Fatalf("seed %s: no result", seed)
		}
		_ = b
		t.Logf("seed %s: %d phases, turn %d: %s (%s) %v", seed, len(da), a.Turn, r.Summary, r.Level, r.Points)
		if a.Turn == 21 && len(da) == 42 {
			full++
		}
	}
	if full == 0 {
		t.Error("no game went the full 21 turns")
	}
}
