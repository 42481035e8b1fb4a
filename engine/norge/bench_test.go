package norge

import (
	"testing"

	"skagerrak/engine"
)

// BenchmarkReplay replays a recorded scripted game: Resolve only, as the
// adjudicator's replay does.
func BenchmarkReplay(b *testing.B) {
	r := Ruleset{}
	type step struct {
		orders map[engine.Side]engine.Orders
		rolls  []engine.Roll
	}
	var steps []step
	st, _ := r.New(engine.Setup{}, engine.NewManualDice())
	start := st
	for !r.Phase(st).Over {
		ph := r.Phase(st)
		o := map[engine.Side]engine.Orders{}
		for _, side := range ph.Owes {
			text := r.Play(r.View(st, side), side, engine.NewSeededDice([]byte("b"), "g", ph.ID+string(side), [32]byte{}))
			oo, _ := r.ParseOrders(st, side, text)
			o[side] = oo
		}
		d := engine.NewSeededDice([]byte("b"), "g", ph.ID, [32]byte{})
		st, _ = r.Resolve(st, o, d)
		steps = append(steps, step{o, d.Rolls()})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := start
		for _, x := range steps {
			s, _ = r.Resolve(s, x.orders, engine.NewReplayDice(x.rolls))
		}
	}
}
