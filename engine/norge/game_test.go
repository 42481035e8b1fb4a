package norge

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"testing"

	"skagerrak/engine"
)

// playGame plays a whole game with the scripted players through the
// Ruleset interface and returns the final state and the digest of every
// state along the way.
func playGame(t *testing.T, seed string) (*State, [32]byte) {
	t.Helper()
	var r engine.Ruleset = Ruleset{}
	secret := []byte(seed)
	st, err := r.New(engine.Setup{}, engine.NewSeededDice(secret, "g", "setup", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	pl := r.(engine.Player)
	h := sha256.New()
	for i := 0; i < 200 && !r.Phase(st).Over; i++ {
		ph := r.Phase(st)
		orders := map[engine.Side]engine.Orders{}
		texts := map[engine.Side]string{}
		for _, side := range ph.Owes {
			v := r.View(st, side)
			text := pl.Play(v, side, engine.NewSeededDice(secret, "g", ph.ID+"/"+string(side), [32]byte{}))
			o, errs := r.ParseOrders(st, side, text)
			if len(errs) > 0 {
				t.Fatalf("%s %s: scripted orders rejected: %v\n%s", ph.ID, side, errs, text)
			}
			orders[side] = o
			texts[side] = text
		}
		before, _ := json.Marshal(st)
		next, err := r.Resolve(st, orders, engine.NewSeededDice(secret, "g", ph.ID, engine.OrdersDigest(texts)))
		if err != nil {
			t.Fatalf("%s: %v", ph.ID, err)
		}
		after, _ := json.Marshal(st)
		if string(before) != string(after) {
			t.Fatalf("%s: Resolve modified its input", ph.ID)
		}
		b, _ := json.Marshal(next)
		h.Write(b)
		st = next
	}
	if !r.Phase(st).Over {
		t.Fatal("game did not end")
	}
	var d [32]byte
	copy(d[:], h.Sum(nil))
	return asState(st), d
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
