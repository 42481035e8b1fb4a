package kampen

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"skagerrak/engine"
)

// playGame plays a whole game with the scripted players through the
// engine.Ruleset interface only, with seeded dice, and returns the final
// state and the digest of every state on the way.
func playGame(t *testing.T, secret string) (*State, []string) {
	t.Helper()
	s, d, _ := playGameStates(t, secret)
	return s, d
}

// playGameStates is playGame that also returns every state the game went
// through, the first included.
func playGameStates(t *testing.T, secret string) (*State, []string, []*State) {
	t.Helper()
	r, err := engine.Lookup("kampen")
	if err != nil {
		t.Fatal(err)
	}
	pl := r.(engine.Player)
	st, err := r.New(engine.Setup{}, engine.NewSeededDice([]byte(secret), "g", "new", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	var digests []string
	states := []*State{asState(st)}
	for i := 0; i < 400; i++ {
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
		before, _ := engine.Canonical(st)
		next, err := r.Resolve(st, orders, engine.NewSeededDice([]byte(secret), "g", ph.ID, engine.OrdersDigest(texts)))
		if err != nil {
			t.Fatalf("%s: %v", ph.ID, err)
		}
		after, _ := engine.Canonical(st)
		if string(before) != string(after) {
			t.Fatalf("%s: Resolve modified its input state", ph.ID)
		}
		b, _ := engine.Canonical(next)
		digests = append(digests, fmt.Sprintf("%x", sha256.Sum256(b)))
		st = next
		states = append(states, asState(st))
	}
	s := asState(st)
	if !s.Over {
		t.Fatalf("game not over after 400 phases (round %d)", s.Round)
	}
	return s, digests, states
}

func TestFullGameScriptedPlayersDeterministic(t *testing.T) {
	wins := map[engine.Side]int{}
	for _, seed := range []string{"alpha", "beta", "gamma", "delta", "s5", "s6"} {
		a, da := playGame(t, seed)
		b, db := playGame(t, seed)
		if strings.Join(da, ",") != strings.Join(db, ",") {
			t.Fatalf("seed %s: two plays differ", seed)
		}
		r := Ruleset{}.Result(a)
		if r == nil || r.Summary == "" {
			t.Fatalf("seed %s: no result", seed)
		}
		_ = b
		wins[r.Winner]++
		t.Logf("seed %s: round %d, %d phases: %s", seed, a.Round, len(da), r.Summary)
	}
	t.Logf("wins: %v", wins)
}
