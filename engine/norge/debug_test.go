package norge

import (
	"fmt"
	"os"
	"testing"

	"skagerrak/engine"
)

func TestDebugLog(t *testing.T) {
	if os.Getenv("NORGE_DEBUG") == "" {
		t.Skip()
	}
	r := Ruleset{}
	st, _ := r.New(engine.Setup{}, engine.NewManualDice())
	secret := []byte("alpha")
	for !r.Phase(st).Over {
		ph := r.Phase(st)
		orders := map[engine.Side]engine.Orders{}
		for _, side := range ph.Owes {
			text := r.Play(r.View(st, side), side, engine.NewSeededDice(secret, "g", ph.ID+"/"+string(side), [32]byte{}))
			if os.Getenv("NORGE_DEBUG") == "orders" {
				fmt.Printf("== %s %s\n%s", ph.ID, side, text)
			}
			o, _ := r.ParseOrders(st, side, text)
			orders[side] = o
		}
		st, _ = r.Resolve(st, orders, engine.NewSeededDice(secret, "g", ph.ID, [32]byte{}))
	}
	s := asState(st)
	if os.Getenv("NORGE_DEBUG") != "orders" {
		for _, e := range s.Log {
			fmt.Printf("T%d %s [%s] %s\n", e.Turn, stepNames[e.Step], e.To, e.Text)
		}
	}
	fmt.Println(r.Report(r.View(s, German), German))
}
