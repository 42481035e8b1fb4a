package enginetest

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"skagerrak/engine"
)

// Race has one more order, for the tests of what stops a resolution (no
// scripted player gives it): "dawdle" makes the phase's resolution loop
// for ever, each step a moment's work that also keeps a line (so that,
// unbounded, it would eat memory too); "dawdle slowly" makes each step
// take about a millisecond, so that a resolution is still going when a
// test signals the process. Only the step budget (engine.OverBudget) or
// the context (engine.Stopped) ends them.

// Dawdle modes of RaceOrders.N: a dawdling side advances nothing.
const (
	dawdle       = -1
	dawdleSlowly = -2
)

// parseDawdle reads a dawdle order, or reports false.
func parseDawdle(text string) (RaceOrders, bool) {
	switch strings.Join(strings.Fields(strings.ToLower(text)), " ") {
	case "dawdle":
		return RaceOrders{N: dawdle}, true
	case "dawdle slowly":
		return RaceOrders{N: dawdleSlowly}, true
	}
	return RaceOrders{}, false
}

// formatDawdle writes a dawdle order back as written, or "".
func formatDawdle(o RaceOrders) string {
	switch o.N {
	case dawdle:
		return "dawdle\n"
	case dawdleSlowly:
		return "dawdle slowly\n"
	}
	return ""
}

// dawdling loops for ever if a side dawdles.
func dawdling(orders map[engine.Side]RaceOrders, d engine.Dice) {
	var kept []string
	for _, side := range []engine.Side{"allied", "german"} {
		switch orders[side].N {
		case dawdle:
			loop(d, side, 0, &kept)
		case dawdleSlowly:
			loop(d, side, 1<<18, &kept)
		}
	}
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
