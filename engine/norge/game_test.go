package norge

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// playGame plays a whole game with the scripted players, returning the
// final state and a digest over every state it went through.
func playGame(t *testing.T, seed string) (*State, [32]byte) {
	t.Helper()
	p := enginetest.Scripted{Secret: seed, Phases: 200,
		PlayerPhase: func(phase string, side engine.Side) string { return phase + "/" + string(side) }}.Play(t, Ruleset{})
	if !(Ruleset{}).Phase(p.Final()).Over {
		t.Fatal("game did not end")
	}
	h := sha256.New()
	for _, st := range p.States[1:] {
		b, _ := json.Marshal(st)
		h.Write(b)
	}
	var d [32]byte
	copy(d[:], h.Sum(nil))
	return p.Final().(*State), d
}

func TestFullGameScripted(t *testing.T) {
	for _, seed := range []string{"alpha", "bravo", "charlie"} {
		s, d1 := playGame(t, seed)
		_, d2 := playGame(t, seed)
		if d1 != d2 {
			t.Fatalf("seed %s: two plays differ", seed)
		}
		res := Ruleset{}.Result(s)
		if res == nil {
			t.Fatal("no result")
		}
		fmt.Printf("seed %s: %s\n", seed, res.Summary)
	}
}
