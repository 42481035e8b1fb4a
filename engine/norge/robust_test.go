package norge

import (
	"testing"
)

// TestGarbageOrdersNeverPanic feeds malformed and out-of-place orders to
// every phase of a game; each must come back as line errors.
func TestGarbageOrdersNeverPanic(t *testing.T) {
	r := Ruleset{}
	garbage := []string{"move", "move Renown", "move IR307", "move IR307 Z:Z9", "move Renown Atlantis", "attack", "attack A:C3",
		"attack A:C3 with", "attack Q:Q1 with IR307", "air", "air Aalborg", "air Aalborg Z", "sub", "sub U25 x", "sub U25 99",
		"blow A:B3 C:C3", "blow x y", "sabotage A:B3", "load GC1", "load GC1 Nobody", "merge GC1", "merge GC1 GC1",
		"disembark", "disembark Nobody", "embark GC1", "airlift IR324", "airlift IR324 Nowhere", "drop FJ3", "drop FJ3 K:K99",
		"ferry", "hold", "intercept maybe", "move U25 North1", "attack A:C3 with Renown", "load Renown IR236",
		"\u00e6\u00f8\u00e5 \u0000", "move IR307 A:C3 A:C3 A:C3", "air Glorious A B"}
	eachPhase(t, "garbage", func(s *State) {
		if s.Over {
			return
		}
		for _, side := range r.Sides() {
			for _, g := range garbage {
				_, errs := r.ParseOrders(s, side, g)
				if len(errs) == 0 {
					t.Fatalf("%s %s: %q accepted", PhaseOf(s).ID, side, g)
				}
				for _, e := range errs {
					if e.Line != 1 || e.Rule == "" || e.Valid == "" || e.Msg == "" {
						t.Fatalf("%s %s: %q: incomplete error %+v", PhaseOf(s).ID, side, g, e)
					}
				}
			}
		}
	})
}
