package enginetest

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"sync"

	"skagerrak/engine"
)

// Loop, "looptest", is Race with one more order, for the tests of what
// stops a resolution: "dawdle" makes the phase's resolution loop for ever,
// each step a moment's work that also keeps a line (so that, unbounded, it
// would eat memory too); "dawdle slowly" makes each step take about a
// millisecond, so that a resolution is still going when a test signals the
// process. Only the step budget (engine.OverBudget) or the context
// (engine.Stopped) ends them. Without a dawdle a game of Loop is a game of
// Race. It is registered by RegisterLoop, apart from Race, so that nothing
// that plays every registered ruleset comes across it unasked.
type Loop struct{ Race }

// Dawdle modes of RaceOrders.N: a dawdling side advances nothing.
const (
	dawdle       = -1
	dawdleSlowly = -2
)

// Name implements engine.Ruleset, as do the methods below.
func (Loop) Name() string  { return "looptest" }
func (Loop) Title() string { return "Loop (test ruleset whose resolutions may never end)" }

// ParseOrders reads Race's orders, and "dawdle" and "dawdle slowly".
func (r Loop) ParseOrders(s engine.State, side engine.Side, text string) (engine.Orders, []engine.LineError) {
	switch strings.Join(strings.Fields(strings.ToLower(text)), " ") {
	case "dawdle":
		return RaceOrders{N: dawdle}, nil
	case "dawdle slowly":
		return RaceOrders{N: dawdleSlowly}, nil
	}
	return r.Race.ParseOrders(s, side, text)
}

// FormatOrders writes the dawdles back as written.
func (r Loop) FormatOrders(s engine.State, side engine.Side, o engine.Orders) string {
	switch o.(RaceOrders).N {
	case dawdle:
		return "dawdle\n"
	case dawdleSlowly:
		return "dawdle slowly\n"
	}
	return r.Race.FormatOrders(s, side, o)
}

// Resolve is Race's, unless a side dawdles: then it loops, a step at a
// time, until its budget is spent or its context ends.
func (r Loop) Resolve(s engine.State, orders map[engine.Side]engine.Orders, d engine.Dice) (next engine.State, err error) {
	defer engine.Halted(&err)
	d = engine.Bound(d)
	var kept []string
	for _, side := range []engine.Side{"allied", "german"} {
		switch orders[side].(RaceOrders).N {
		case dawdle:
			loop(d, side, 0, &kept)
		case dawdleSlowly:
			loop(d, side, 1<<18, &kept)
		}
	}
	return r.Race.Resolve(s, orders, d)
}

// loop steps for ever, keeping a line in kept each step and hashing work
// bytes.
func loop(d engine.Dice, side engine.Side, work int, kept *[]string) {
	buf := make([]byte, work+1)
	for i := 0; ; i++ {
		engine.Step(d, string(side)+" dawdling")
		sum := sha256.Sum256(buf)
		buf[0] = sum[0]
		*kept = append(*kept, fmt.Sprintf("%s dawdles, step %d", side, i))
	}
}

var loopOnce sync.Once

// RegisterLoop registers Loop as "looptest" (once; later calls do nothing).
func RegisterLoop() { loopOnce.Do(func() { engine.Register(Loop{}) }) }
