package norway1940

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"skagerrak/engine"
)

// playGame plays a whole game with the scripted players through the
// Ruleset interface only, with seeded dice, and returns the final state
// and the digest of every state on the way.
func playGame(t *testing.T, secret string, opts ...string) (*State, []string) {
	t.Helper()
	r, err := engine.Lookup("norway1940")
	if err != nil {
		t.Fatal(err)
	}
	pl := r.(engine.Player)
	st, err := r.New(engine.Setup{Options: opts}, engine.NewSeededDice([]byte(secret), "g", "new", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	var digests []string
	for i := 0; i < 100; i++ {
		ph := r.Phase(st)
		if ph.Over {
			break
		}
		orders := map[engine.Side]engine.Orders{}
		texts := map[engine.Side]string{}
		for _, side := range ph.Owes {
			v := r.View(st, side)
			text := pl.Play(v, side, engine.NewSeededDice([]byte(secret), "g", ph.ID+"/play/"+string(side), [32]byte{}))
			o, errs := r.ParseOrders(st, side, text)
			if len(errs) > 0 {
				t.Fatalf("%s: scripted %s orders rejected: %v\n%s", ph.ID, side, errs, text)
			}
			orders[side] = o
			texts[side] = text
		}
		next, err := r.Resolve(st, orders, engine.NewSeededDice([]byte(secret), "g", ph.ID, engine.OrdersDigest(texts)))
		if err != nil {
			t.Fatalf("%s: %v", ph.ID, err)
		}
		b, _ := engine.Canonical(next)
		digests = append(digests, fmt.Sprintf("%x", sha256.Sum256(b)))
		st = next
	}
	s := asState(st)
	if !s.Over {
		t.Fatalf("game not over after 100 phases (turn %d)", s.Turn)
	}
	return s, digests
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
