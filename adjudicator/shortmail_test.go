package adjudicator

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// quietRace is the race where german orders only on odd turns, and whose
// map shows nothing that changes: a side that owes nothing then gets its
// report without the map.
type quietRace struct{ enginetest.Race }

func (quietRace) Name() string { return "quietrace" }

func (r quietRace) Phase(s engine.State) engine.Phase {
	p := r.Race.Phase(s)
	if !p.Over && s.(*enginetest.RaceState).Turn%2 == 0 {
		p.Owes = []engine.Side{"allied"}
	}
	return p
}

func (r quietRace) Resolve(s engine.State, orders map[engine.Side]engine.Orders, d engine.Dice) (engine.State, error) {
	all := map[engine.Side]engine.Orders{}
	for _, side := range r.Sides() {
		all[side] = r.DefaultOrders(s, side)
		if o, ok := orders[side]; ok {
			all[side] = o
		}
	}
	return r.Race.Resolve(s, all, d)
}

func (quietRace) Picture(engine.View, engine.Side) ([]byte, error) {
	return []byte("the same map"), nil
}

var quietOnce sync.Once

// TestShortMailWithoutAnUnchangedMap: german owes nothing on turn 2, and
// its map has not changed since its last report, so its report of turn 1
// comes for information, without the map, and says so; allied, who owes
// orders, gets the form and the map.
func TestShortMailWithoutAnUnchangedMap(t *testing.T) {
	quietOnce.Do(func() { engine.Register(quietRace{}) })
	h, clk, _ := newHost(t)
	spec := raceSpec("q1")
	spec.Ruleset = "quietrace"
	if _, err := h.Create(spec); err != nil {
		t.Fatal(err)
	}
	var out outbox
	if _, err := h.Flush(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Hour)
	submit(t, h, "q1", "allied", orders("q1", "T01", "allied", "advance 1"))
	submit(t, h, "q1", "german", orders("q1", "T01", "german", "advance 1"))
	if _, err := h.Flush(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	hasMap := func(m Mail) bool {
		for _, a := range m.Attachments {
			if a.Name == "map.png" {
				return true
			}
		}
		return false
	}
	g := out.to("g@example.org")
	a := out.to("a@example.org")
	if len(g) != 3 || len(a) != 3 {
		t.Fatalf("german got %v, allied %v", subjects(g), subjects(a))
	}
	if first := g[0]; !hasMap(first) || !strings.Contains(first.Subject, "your orders for T01 are due") {
		t.Errorf("german's first report: %q, map %v", first.Subject, hasMap(first))
	}
	info := g[2]
	if info.Subject != "[skagerrak] q1: T01 resolved, for information (german)" || hasMap(info) || strings.Contains(info.Text, "Your order form") ||
		!strings.Contains(flatText(info.Text), "Your map has not changed since the last one you were sent: it is not attached.") {
		t.Errorf("german's report for information: %q, map %v:\n%s", info.Subject, hasMap(info), info.Text)
	}
	if due := a[2]; !hasMap(due) || !strings.Contains(due.Subject, "your orders for T02 are due") || !strings.Contains(due.Text, "Your order form") {
		t.Errorf("allied's report: %q, map %v", due.Subject, hasMap(due))
	}
}
