package kriegsmarine

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"testing"

	"skagerrak/engine"
)

// playGame plays a whole game with the scripted players straight through
// the Ruleset, and returns the final state and every state's digest.
func playGame(t *testing.T, setup engine.Setup, seed string) (*State, []string) {
	t.Helper()
	r := Ruleset{}
	secret := []byte(seed)
	st, err := r.New(setup, engine.NewSeededDice(secret, "g", "setup", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	var digests []string
	for i := 0; i < 40; i++ {
		ph := r.Phase(st)
		if ph.Over {
			break
		}
		texts := map[engine.Side]string{}
		orders := map[engine.Side]engine.Orders{}
		for _, side := range ph.Owes {
			pd := engine.NewSeededDice(secret, "g", ph.ID+string(side), [32]byte{})
			text := r.Play(r.View(st, side), side, pd)
			o, errs := r.ParseOrders(st, side, text)
			if len(errs) > 0 {
				t.Fatalf("%s %s: scripted orders rejected: %v\n%s", ph.ID, side, errs, text)
			}
			texts[side] = text
			orders[side] = o
		}
		next, err := r.Resolve(st, orders, engine.NewSeededDice(secret, "g", ph.ID, engine.OrdersDigest(texts)))
		if err != nil {
			t.Fatal(err)
		}
		st = next
		b, _ := json.Marshal(st)
		digests = append(digests, fmt.Sprintf("%x", sha256.Sum256(b)))
	}
	return asState(st), digests
}

func TestFullGameScriptedPlayers(t *testing.T) {
	s, _ := playGame(t, engine.Setup{}, "seed-1")
	if !s.Over || s.Result == nil {
		t.Fatalf("game not over after 18 turns: turn %d", s.Turn)
	}
	kinds := map[string]int{}
	for _, e := range s.Log {
		kinds[e.Kind]++
	}
	t.Logf("objective %s, kinds %v, result %s", s.Objective.Result.Kind, kinds, s.Result.Summary)
}
