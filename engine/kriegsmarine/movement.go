package kriegsmarine

import (
	"fmt"

	"skagerrak/engine"
)

// moderate reports whether a ship has taken moderate damage: flooding up to
// the left value of its flooding capacity (3.418, 8.64).
func moderate(d *UnitDef, u *Unit) bool {
	return d.FloodModerate > 0 && u.Flooding >= d.FloodModerate
}

// baseAllowance is a ship's movement allowance for the turn before weather:
// the printed speed of the turn's parity (3.414, 6.12), halved, rounded up,
// after moderate damage (6.12 "its speed is reduced"; the damaged side's
// values are not transcribed, so halving is reconstructed).
func baseAllowance(d *UnitDef, u *Unit, turn int) int {
	a := d.Speed(turn)
	if moderate(d, u) {
		a = (a + 1) / 2
	}
	return a
}

// evasionSpeed is the sum of both speed values (6.43), after damage.
func evasionSpeed(d *UnitDef, u *Unit) int {
	if moderate(d, u) {
		return (d.SpeedOdd+1)/2 + (d.SpeedEven+1)/2
	}
	return d.EvasionSpeed()
}

// movesSouth reports whether every step of a path from start goes south
// (15.2: towards row A).
func movesSouth(start engine.Hex, path []engine.Hex) bool {
	if len(path) == 0 {
		return false
	}
	prev := start
	for _, h := range path {
		if h.Row >= prev.Row {
			return false
		}
		prev = h
	}
	return true
}

// sheltered reports whether a ship starting its move in h is treated as in a
// gale when the weather is strong wind (15.3: Norwegian coastal and fjord
// hexes, and the light-grey hexes Z16 and AA17).
func sheltered(h engine.Hex) bool {
	if norwegian(h) {
		return true
	}
	hi, ok := TheMap().Info(h)
	if ok && hi.HasTag("light-grey") {
		return true
	}
	return h == engine.Hex{Row: 26, Col: 16} || h == engine.Hex{Row: 27, Col: 17}
}

// weatherAllowance applies the weather to a base allowance (15.0, 15.2,
// 15.3). start is where the move begins (off-map entries pass a zero hex);
// path the hexes entered.
func weatherAllowance(base int, small bool, weather string, on bool, start engine.Hex, path []engine.Hex) int {
	return windAllowance(base, small, weather, on, start, movesSouth(start, path))
}

// windAllowance is weatherAllowance for a move that goes south at every
// step or not (15.2). The allowance never drops below 1 (reconstructed:
// the rulebook's examples stop at 2).
func windAllowance(base int, small bool, weather string, on bool, start engine.Hex, south bool) int {
	if !on {
		return base
	}
	w := weather
	if w == Strong && start.Row > 0 && sheltered(start) {
		w = Gale // 15.3
	}
	cut := weatherCut(w, small)
	if w == Strong && cut > 0 && south {
		cut-- // 15.2
	}
	a := base - cut
	if a < 1 {
		a = 1
	}
	return a
}

// enterable says why a unit of the given kind may not enter h, or "" if it
// may. intervention is the first turn of Allied intervention (0 while
// Norway is neutral).
func enterable(side engine.Side, nation string, sub bool, h engine.Hex, turn, intervention int) (rule, msg string) {
	m := TheMap()
	if !m.Grid().Contains(h) {
		return "3.1", fmt.Sprintf("%s is not on the map (rows A-FF, columns 1-20)", h)
	}
	if sub {
		if !m.SubCanEnter(h) {
			return "6.19", fmt.Sprintf("%s is a land hex; submarines enter sea, coastal and fjord hexes only", h)
		}
	} else if !m.ShipCanEnter(h) {
		return "6.14", fmt.Sprintf("%s is a land hex; ships enter sea, coastal, fjord and port city hexes only", h)
	}
	if side == Allied && nation != "NO" && norwegian(h) && (intervention == 0 || turn < intervention) {
		if intervention == 0 {
			return "6.15", fmt.Sprintf("%s is Norwegian coastal water and Norway is neutral until two turns after a German invasion", h)
		}
		return "6.15", fmt.Sprintf("%s is Norwegian coastal water; Allied ships may enter from turn %d", h, intervention)
	}
	return "", ""
}

// crossable says why a unit may not move from a to b, or "".
func crossable(sub bool, a, b engine.Hex) (rule, msg string) {
	if _, adj := a.DirectionTo(b); !adj {
		return "6.13", fmt.Sprintf("%s is not next to %s; a path names every hex entered", b, a)
	}
	m := TheMap()
	if m.LandHexside(a, b) {
		return "6.14", fmt.Sprintf("the hexside %s/%s is land; ships may not pass along a land hexside", a, b)
	}
	if !sub && !m.ShipCanCross(a, b) {
		return "6.14", fmt.Sprintf("a ship may not move from %s to %s", a, b)
	}
	return "", ""
}

// edge reports whether h is an edge hex of the map (6.18).
func edge(h engine.Hex) bool {
	return h.Row == 1 || h.Row == MapRows || h.Col == 1 || h.Col == MapCols
}

// exitHex reports whether leaving the map from h is a breakout through the
// red border (3.1, 6.18) in rules revision rev: the hexes tagged "exit"
// (FF11-FF18), and in revision 1 also those tagged "exit-r1" (revision 1
// read the border as the whole top edge).
func exitHex(rev engine.Rev, h engine.Hex) bool {
	hi, ok := TheMap().Info(h)
	return ok && (hi.HasTag("exit") || (!rev.Has(RedBorderRight) && hi.HasTag("exit-r1")))
}

// shortestPath finds a shortest legal path from a to b (excluding a) for a
// unit, or nil. It explores hexes in map order so that the result is
// deterministic.
func shortestPath(a, b engine.Hex, ok func(from, to engine.Hex) bool) []engine.Hex {
	if a == b {
		return []engine.Hex{}
	}
	g := TheMap().Grid()
	prev := map[engine.Hex]engine.Hex{a: a}
	queue := []engine.Hex{a}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, n := range h.Neighbors() {
			if !g.Contains(n) {
				continue
			}
			if _, seen := prev[n]; seen {
				continue
			}
			if !ok(h, n) {
				continue
			}
			prev[n] = h
			if n == b {
				var path []engine.Hex
				for x := n; x != a; x = prev[x] {
					path = append([]engine.Hex{x}, path...)
				}
				return path
			}
			queue = append(queue, n)
		}
	}
	return nil
}

// moveOK returns the step predicate for a unit of side/nation/sub.
func moveOK(side engine.Side, nation string, sub bool, turn, intervention int) func(a, b engine.Hex) bool {
	return func(a, b engine.Hex) bool {
		if r, _ := enterable(side, nation, sub, b, turn, intervention); r != "" {
			return false
		}
		r, _ := crossable(sub, a, b)
		return r == ""
	}
}
