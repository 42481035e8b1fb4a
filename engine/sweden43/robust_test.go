package sweden43

import (
	"math/rand/v2"
	"strings"
	"testing"

	"skagerrak/engine"
)

// TestRobust_GarbageOrdersNeverPanic feeds random order lines made of real
// words to every phase of a game: each is accepted or rejected with a line
// error, never a panic, and accepted orders always resolve.
func TestRobust_GarbageOrdersNeverPanic(t *testing.T) {
	words := []string{"move", "rail", "land", "drop", "base", "replace", "rebuild", "mobilize", "assemble", "attack", "air", "with", "advance", "close", "to",
		"25Pz", "196Inf", "181Inf", "Amph1", "Para1", "fj2", "I1", "I2", "K1", "2Div", "2DivHQ", "1Div", "4Div", "JG5a", "StG1", "F8", "RAF1", "UK",
		"Stockholm", "Oslo", "Q18", "R17", "5B:5026", "513:2630", "ZZ9", "A0", "", "###", "1Div", "I1"}
	rng := rand.New(rand.NewPCG(1, 2))
	r := Ruleset{}
	n := 0
	eachPhase(t, "objective", "robust", func(st *State, side engine.Side) {
		if st.Over {
			return
		}
		for k := 0; k < 60; k++ {
			var b strings.Builder
			for l := 0; l < 1+rng.IntN(4); l++ {
				for w := 0; w < 1+rng.IntN(7); w++ {
					b.WriteString(words[rng.IntN(len(words))] + " ")
				}
				b.WriteString("\n")
			}
			o, errs := r.ParseOrders(st, side, b.String())
			for _, e := range errs {
				if e.Msg == "" || e.Rule == "" || e.Valid == "" {
					t.Fatalf("bare error %+v for %q", e, b.String())
				}
			}
			if len(errs) == 0 {
				if _, err := r.Resolve(st, map[engine.Side]engine.Orders{side: o}, engine.NewSeededDice([]byte("r"), "g", "p", [32]byte{})); err != nil {
					t.Fatal(err)
				}
				n++
			}
		}
	})
	t.Logf("%d random order files accepted and resolved", n)
}

func TestRobust_AssembleNeedsThreeDifferentRegiments(t *testing.T) {
	st := at(bare(t, "objective", "I1@Stockholm", "I10@Stockholm", "I8@Stockholm"), 3, 1, "move")
	if errs := parseErr(st, "assemble 1Div I1 I1 I1"); len(errs) != 1 {
		t.Fatalf("one regiment named three times: %v", errs)
	}
}
