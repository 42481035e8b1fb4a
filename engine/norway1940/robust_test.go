package norway1940

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// Malformed order files never panic and every bad line gets an error with
// a rule and what would be valid.
func TestParseOrdersMalformedLinesNeverPanic(t *testing.T) {
	bad := []string{
		"fleet", "fleet G1", "fleet G1 from", "fleet G1 from Germany", "fleet G1 from Germany combat", "fleet G1 from Germany combat x to South-1",
		"fleet G1 from Narnia to South-1", "fleet G1 split", "fleet G1 split G9 to", "fleet G1 merge", "fleet G1 attack", "fleet G1 attack A1 rounds 9",
		"fleet G1 fly", "fleet g1 to", "sub", "sub South-1", "sub Nowhere A1", "sub South-1 A1 x", "air", "air recon", "air recon South-1",
		"air recon Nowhere A1", "air recon South-1 A1 7", "air transport", "air transport 340", "air transport 340 to", "air transport 340 to Oslo from",
		"air transport 340 to Oslo from Mars", "air transport nobody to Oslo", "air para", "air para FJ1", "air bomb", "air bomb Oslo", "air bomb Oslo IR2 x",
		"air patrol", "air patrol Oslo x", "air interdict Nowhere", "air support", "air dance Oslo", "move", "move 159", "move 159 Atlantis",
		"rail 159", "attack", "attack Oslo with", "attack Oslo with nobody", "attack Oslo retreat", "attack Oslo retreat Atlantis", "attack Oslo 159",
		"build", "build fieldwork", "build castle 159", "repair", "keep", "keep fighters", "keep fighters -1", "keep bombers 2", "evade", "evade maybe",
		"react", "react maybe", "continue 3", "climb", "move 159 high", "Game: x", "::::", "fleet G1 to South-1 extra",
	}
	r := Ruleset{}
	st, _ := r.New(engine.Setup{}, enginetest.ThenOnes())
	states := []engine.State{st}
	mid, _ := playGame(t, "robust")
	states = append(states, mid)
	// A short phase (the Allied asked evasion): only decision lines.
	short, _ := resolveWith(t, evasionSetup(t, Standing{Evade: "weaker", Ask: []string{AskEvasion}}), German, evasionOrders, rolls)
	states = append(states, short)
	bad = append(bad, "evade now", "fight on", "attack with", "attack with G1", "intercept", "intercept Oslo x", "pass", "ask", "ask maybe", "ask all none")
	for _, st := range states {
		s := st.(*State)
		side := s.Phasing
		if s.Pending != nil {
			side = s.Pending.Ask.Side
		}
		if s.Over {
			side = German
		}
		for _, l := range bad {
			_, errs := r.ParseOrders(st, side, l+"\n")
			for _, e := range errs {
				if e.Rule == "" || e.Valid == "" || e.Msg == "" {
					t.Errorf("%q: error without rule or valid: %+v", l, e)
				}
			}
			if len(errs) == 0 && !strings.HasPrefix(l, "Game:") && !strings.HasPrefix(l, "keep fighters -1") {
				t.Logf("%q accepted", l)
			}
		}
		_, errs := r.ParseOrders(st, side, strings.Join(bad, "\n"))
		if len(errs) == 0 {
			t.Error("a file of bad lines is accepted")
		}
	}
}
