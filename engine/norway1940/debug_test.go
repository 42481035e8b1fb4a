package norway1940

import (
	"os"
	"testing"

	"skagerrak/engine"
)

func TestDebugGame(t *testing.T) {
	if os.Getenv("N40DEBUG") == "" {
		t.Skip()
	}
	r := Ruleset{}
	secret := os.Getenv("N40DEBUG")
	st, _ := r.New(engine.Setup{}, engine.NewSeededDice([]byte(secret), "g", "new", [32]byte{}))
	for i := 0; i < 100; i++ {
		ph := r.Phase(st)
		if ph.Over {
			break
		}
		side := ph.Owes[0]
		text := r.Play(r.View(st, side), side, nil)
		o, errs := r.ParseOrders(st, side, text)
		t.Logf("==== %s\n%s", ph.ID, text)
		if len(errs) > 0 {
			t.Fatalf("%v", errs)
		}
		st, _ = r.Resolve(st, map[engine.Side]engine.Orders{side: o}, engine.NewSeededDice([]byte(secret), "g", ph.ID, [32]byte{}))
		for _, e := range asState(st).Events {
			t.Logf("  %v [%s] %s", e.To, e.Rule, e.Text)
		}
	}
	t.Logf("%+v", asState(st).Result)
}
