package sweden43

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// playGame plays a whole game of a scenario with the scripted players,
// returning the final state and its digest.
func playGame(t testing.TB, scenario, secret string, opts ...string) (*State, string) {
	t.Helper()
	p := enginetest.Scripted{Setup: engine.Setup{Scenario: scenario, Options: opts}, Secret: secret, SetupPhase: "new", Phases: 60,
		PlayerPhase: func(phase string, _ engine.Side) string { return phase + "/play" }}.Play(t, Ruleset{})
	if len(p.Digests) == 0 || !(Ruleset{}).Phase(p.Final()).Over {
		t.Fatalf("%s: game not over after 60 phases", scenario)
	}
	return asState(p.Final()), p.Digests[len(p.Digests)-1]
}

func TestFullGamesEveryScenarioDeterministic(t *testing.T) {
	for _, sc := range (Ruleset{}).Scenarios() {
		for _, seed := range []string{"alpha", "bravo"} {
			for _, opts := range [][]string{nil, {"terrain32", "incremental"}} {
				a, da := playGame(t, sc.ID, seed, opts...)
				_, db := playGame(t, sc.ID, seed, opts...)
				if da != db {
					t.Fatalf("%s/%s: two plays differ", sc.ID, seed)
				}
				res := (Ruleset{}).Result(a)
				if res == nil || res.Summary == "" {
					t.Fatalf("%s/%s: no result", sc.ID, seed)
				}
				t.Logf("%s %s %v: turn %d: %s", sc.ID, seed, opts, a.Turn, res.Summary)
			}
		}
	}
}

// TestFullGameReplayThroughJSON decodes the state from its JSON before
// every phase, as a replay from a snapshot would, and must end on the
// same digest as the game played in memory.
func TestFullGameReplayThroughJSON(t *testing.T) {
	_, want := playGame(t, "objective", "replay")
	r := Ruleset{}
	st, _ := r.New(engine.Setup{Scenario: "objective"}, engine.NewSeededDice([]byte("replay"), "g", "new", [32]byte{}))
	for i := 0; i < 60 && !r.Phase(st).Over; i++ {
		b, _ := engine.Canonical(st)
		var err error
		if st, err = r.DecodeState(b); err != nil {
			t.Fatal(err)
		}
		ph := r.Phase(st)
		side := ph.Owes[0]
		text := r.Play(r.View(st, side), side, engine.NewSeededDice([]byte("replay"), "g", ph.ID+"/play", [32]byte{}))
		o, errs := r.ParseOrders(st, side, text)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		st, err = r.Resolve(st, map[engine.Side]engine.Orders{side: o}, engine.NewSeededDice([]byte("replay"), "g", ph.ID, engine.OrdersDigest(map[engine.Side]string{side: text})))
		if err != nil {
			t.Fatal(err)
		}
	}
	b, _ := engine.Canonical(st)
	if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != want {
		t.Fatalf("replay through JSON ends on %s, in memory on %s", got, want)
	}
}

// BenchmarkFullGame measures a whole scripted game, players included.
func BenchmarkFullGame(b *testing.B) {
	for i := 0; i < b.N; i++ {
		playGame(b, "objective", "bench")
	}
}
