package sweden43

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// playGame plays a whole game of a scenario with the scripted players,
// returning the final state and its digest.
func playGame(t testing.TB, scenario, secret string, opts ...string) (*State, string) {
	t.Helper()
	p := playScripted(t, scenario, secret, opts...)
	return p.Final().(*State), p.Digests[len(p.Digests)-1]
}

func playScripted(t testing.TB, scenario, secret string, opts ...string) enginetest.Played {
	t.Helper()
	p := enginetest.Scripted{Setup: engine.Setup{Scenario: scenario, Options: opts}, Secret: secret, SetupPhase: "new", Phases: 60,
		PlayerPhase: func(phase string, _ engine.Side) string { return phase + "/play" }}.Play(t, Ruleset{})
	if len(p.Digests) == 0 || !(Ruleset{}).Phase(p.Final()).Over {
		t.Fatalf("%s: game not over after 60 phases", scenario)
	}
	return p
}

var combatResult = regexp.MustCompile(`-> (AE|AH|AR|AS|EX|HX|DR|DH|DE)$`)

// TestFullGamesEveryScenarioDeterministic plays every scenario, with and
// without the options, from two secrets, twice each: the two plays are the
// same. The scripted Germans play to win (31B) and the Swedes defend: in
// every game a Swedish city falls to the Germans; across the games every
// result of the combat results table occurs, c/m units exploit, Sweden
// rolls for surrender (28B1), and each side wins some.
func TestFullGamesEveryScenarioDeterministic(t *testing.T) {
	results := map[string]int{}
	winners := map[engine.Side]int{}
	exploits, surrenderRolls := 0, 0
	for _, sc := range (Ruleset{}).Scenarios() {
		for _, seed := range []string{"alpha", "bravo"} {
			for _, opts := range [][]string{nil, {"terrain32", "incremental"}} {
				p := playScripted(t, sc.ID, seed, opts...)
				a := p.Final().(*State)
				if db := playScripted(t, sc.ID, seed, opts...).Digests; db[len(db)-1] != p.Digests[len(p.Digests)-1] {
					t.Fatalf("%s/%s: two plays differ", sc.ID, seed)
				}
				res := (Ruleset{}).Result(a)
				if res == nil || res.Summary == "" {
					t.Fatalf("%s/%s: no result", sc.ID, seed)
				}
				winners[res.Winner]++
				fallen := citiesFallen(p)
				if len(fallen) == 0 {
					t.Errorf("%s %s %v: no Swedish city changed hands", sc.ID, seed, opts)
				}
				for _, e := range a.Log {
					if m := combatResult.FindStringSubmatch(e.Text); m != nil {
						results[m[1]]++
					}
					if strings.Contains(e.Text, "Swedish surrender roll") {
						surrenderRolls++
					}
				}
				exploits += exploitMoves(p)
				t.Logf("%s %s %v: turn %d: %s; cities fallen %v", sc.ID, seed, opts, a.Turn, res.Summary, fallen)
			}
		}
	}
	t.Logf("results %v, exploitation moves %d, surrender rolls %d, winners %v", results, exploits, surrenderRolls, winners)
	for r := range resultRank {
		if results[r] == 0 {
			t.Errorf("no %s in any game", r)
		}
	}
	if exploits == 0 || surrenderRolls == 0 || winners[German] == 0 || winners[Allied] == 0 {
		t.Errorf("exploitation moves %d, surrender rolls %d, winners %v: want some of each, and both sides winning", exploits, surrenderRolls, winners)
	}
}

// citiesFallen lists the Swedish cities German owned at some point of a
// game.
func citiesFallen(p enginetest.Played) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range p.States {
		c := newCtx(s.(*State))
		for _, pl := range data.Places {
			if pl.IsCity() && data.CountryAt(pl.Hex) == 'S' && c.owner(pl.Hex) == German && !seen[pl.Name] {
				seen[pl.Name] = true
				out = append(out, pl.Name)
			}
		}
	}
	return out
}

// exploitMoves counts the units that moved in an exploitation phase.
func exploitMoves(p enginetest.Played) int {
	n := 0
	for i := 0; i+1 < len(p.States); i++ {
		before, after := p.States[i].(*State), p.States[i+1].(*State)
		if before.Step != "exploit" {
			continue
		}
		for k, u := range before.Board.Units {
			if u.Status == OnMap && after.Board.Units[k].Status == OnMap && after.Board.Units[k].Hex != u.Hex {
				n++
			}
		}
	}
	return n
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
