package sweden43

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// Play implements engine.Player: legal, purposeful orders from the View
// alone. The Germans drive on the nearest Swedish cities (Stockholm first
// in Operation II, the zone B cities in Operation I) and attack at 2:1 or
// better with air support; the Allies mobilize and assemble divisions,
// gather on the threatened cities and counter-attack at 2:1 or better.
func (Ruleset) Play(ev engine.View, side engine.Side, _ engine.Dice) string {
	v := asView(ev)
	if v.Over || len(v.Phase.Owes) == 0 || v.Phase.Owes[0] != side {
		return ""
	}
	st := stateOf(v)
	var lines []string
	if v.Step == "setup" {
		return "# the order of battle's set-up stands\n"
	}
	if v.Step != "combat" {
		lines = planMove(st, side)
	} else {
		lines = planCombat(st, side)
	}
	// keep only what the rules accept
	for k := 0; k < 8; k++ {
		_, errs := parseOrders(st, side, strings.Join(lines, "\n"))
		if len(errs) == 0 {
			break
		}
		bad := map[int]bool{}
		for _, e := range errs {
			bad[e.Line] = true
		}
		var keep []string
		for i, l := range lines {
			if !bad[i+1] {
				keep = append(keep, l)
			}
		}
		if len(keep) == len(lines) {
			break
		}
		lines = keep
	}
	if len(lines) == 0 {
		return "# no orders: all units stand\n"
	}
	return strings.Join(lines, "\n") + "\n"
}

// objectives returns the hexes side's units head for, best first.
func objectives(c *ctx, side engine.Side) []engine.Hex {
	var out []engine.Hex
	if side == German {
		for _, p := range data.Places {
			if !p.IsCity() || data.CountryAt(p.Hex) != 'S' || c.owner(p.Hex) == German || !mainland(p) {
				continue
			}
			if c.st.Scenario == "op1" && p.Zone != "B" {
				continue
			}
			if c.st.Scenario == "op2" && p.Name != "Stockholm" && c.owner(data.placeHex("Stockholm")) != German {
				continue
			}
			out = append(out, p.Hex)
		}
		return out
	}
	// Allied: own cities, nearest the enemy first
	type tc struct {
		h engine.Hex
		d int
	}
	var ts []tc
	for _, p := range data.Places {
		if !p.IsCity() || data.CountryAt(p.Hex) != 'S' || c.owner(p.Hex) != Allied {
			continue
		}
		d := 1 << 20
		for _, u := range c.b.Units {
			if u.Side == German && u.Status == OnMap {
				h, _ := engine.ParseHex(u.Hex)
				d = min(d, h.Distance(p.Hex))
			}
		}
		if p.Name == "Stockholm" {
			d -= 6
		}
		ts = append(ts, tc{p.Hex, d})
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].d < ts[j].d })
	for i, t := range ts {
		if i >= 6 {
			break
		}
		out = append(out, t.h)
	}
	return out
}

func nearest(from engine.Hex, hs []engine.Hex) (engine.Hex, bool) {
	best, ok, bd := engine.Hex{}, false, 0
	for _, h := range hs {
		if d := from.Distance(h); !ok || d < bd {
			best, ok, bd = h, true, d
		}
	}
	return best, ok
}

func planMove(st *State, side engine.Side) []string {
	work := st.Clone()
	c := newCtx(work)
	moved := map[string]bool{}
	var lines []string
	try := func(line string) {
		l := engine.OrderLines(line)[0]
		o, e := c.parse(side, l, st.Step)
		if e != nil {
			return
		}
		if _, _, msg := c.applyMove(side, o, nullDice{}, moved); msg == "" {
			lines = append(lines, line)
		}
	}
	objs := objectives(c, side)
	switch {
	case st.Step == "exploit":
		// only c/m units move in the exploitation phase
	case side == German:
		for _, u := range st.Board.Units {
			if u.Side == German && u.Status == Eliminated && u.Type == "inf" {
				try("replace " + u.ID + " " + data.placeHex("Oslo").String())
			}
		}
		for _, u := range st.Board.Units {
			if u.Side == German && u.Status == OnMap && u.Reduced && u.Type == "inf" {
				try("rebuild " + u.ID)
			}
		}
		for _, u := range st.Board.Units {
			if u.Status == Amph {
				try("land " + u.ID + " " + defaultLanding(c, u.ID).String())
			}
		}
		for _, u := range st.Board.Units {
			if u.Status != ParaPool {
				continue
			}
			for _, h := range objs {
				if _, held := c.occ[h]; !held {
					try("drop " + u.ID + " " + h.String())
					if moved[u.ID] {
						break
					}
				}
			}
		}
	default:
		for _, u := range st.Board.Units {
			if u.Side != Allied || u.Status != Mobilize || u.Turn > st.Turn {
				continue
			}
			for _, r := range c.b.Units {
				if r.Status == OnMap && r.Type == "inf" && r.Size == "reg" && r.Nation == "swedish" {
					n := len(lines)
					try("mobilize " + r.ID + " " + u.ID)
					if len(lines) > n {
						break
					}
				}
			}
		}
	}
	ids := []string{}
	for _, u := range c.b.Units {
		if u.Side == side && u.Status == OnMap && !moved[u.ID] {
			ids = append(ids, u.ID)
		}
	}
	for _, id := range ids {
		i := c.find(id)
		u := c.b.Units[i]
		from, _ := engine.ParseHex(u.Hex)
		if side == Allied && c.ezoc(side, from) {
			continue // hold the line
		}
		if side == Allied {
			if p, ok := data.PlaceAt(from); ok && p.IsCity() && c.stk[from] <= 4 && len(objs) > 0 && from.Distance(objs[0]) > 0 {
				// keep one unit in each city
				alone := len(c.unitsAt(from)) == 1
				if alone {
					continue
				}
			}
		}
		obj, ok := nearest(from, objs)
		if !ok {
			continue
		}
		dist, _ := c.reach(u, from, allowance(u))
		best, bestD := from, from.Distance(obj)
		var cands []engine.Hex
		for h := range dist {
			cands = append(cands, h)
		}
		sort.Slice(cands, func(a, b int) bool {
			if cands[a].Row != cands[b].Row {
				return cands[a].Row < cands[b].Row
			}
			return cands[a].Col < cands[b].Col
		})
		for _, h := range cands {
			if h == from || !c.stackOK(h, u.RE2s()) {
				continue
			}
			if d := h.Distance(obj); d < bestD {
				best, bestD = h, d
			}
		}
		if best != from {
			try("move " + u.ID + " " + best.String())
		}
	}
	if side == Allied && st.Step == "move" {
		for _, u := range st.Board.Units {
			if u.Side != Allied || (u.Status != Assemble && u.Status != HQAssemble) || u.Turn > st.Turn {
				continue
			}
			hexes := map[string][]string{}
			var order []string
			for _, r := range c.b.Units {
				if r.Status == OnMap && r.Type == "inf" && r.Size == "reg" && r.Nation == "swedish" {
					if _, ok := hexes[r.Hex]; !ok {
						order = append(order, r.Hex)
					}
					hexes[r.Hex] = append(hexes[r.Hex], r.ID)
				}
			}
			for _, h := range order {
				regs := hexes[h]
				if len(regs) < 3 {
					continue
				}
				line := "assemble " + u.ID + " "
				if u.Status == HQAssemble {
					hq := c.b.Units[c.find("2DivHQ")]
					if hq.Status != OnMap || hq.Hex != h {
						continue
					}
					line += "2DivHQ "
				}
				n := len(lines)
				try(line + strings.Join(regs[:3], " "))
				if len(lines) > n {
					break
				}
			}
		}
	}
	return lines
}

func planCombat(st *State, side engine.Side) []string {
	c := newCtx(st.Clone())
	used := map[string]bool{}
	airUsed := map[string]bool{}
	var lines []string
	var targets []engine.Hex
	seen := map[engine.Hex]bool{}
	for _, u := range c.b.Units {
		if u.Side == side || u.Status != OnMap {
			continue
		}
		h, _ := engine.ParseHex(u.Hex)
		if !seen[h] {
			seen[h] = true
			targets = append(targets, h)
		}
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i].String() < targets[j].String() })
	for _, t := range targets {
		var ids []string
		a2 := 0
		for _, n := range t.Neighbors() {
			for _, i := range c.unitsAt(n) {
				u := c.b.Units[i]
				if av, _ := u.Strength(); u.Side == side && av > 0 && !used[u.ID] {
					ids = append(ids, u.ID)
					a2 += c.attackHalves(u, t)
				}
			}
		}
		if len(ids) == 0 {
			continue
		}
		d2 := 0
		for _, i := range c.unitsAt(t) {
			_, dv := c.b.Units[i].Strength()
			d2 += dv * 2
		}
		var air []string
		bomb := 0
		var esc string
		for _, a := range c.b.Air {
			if a.Side != side || a.Status != OnMap || a.Flown == st.Turn || airUsed[a.ID] || airDistance(a, t) > a.Range {
				continue
			}
			if a.Type == "B" && len(air) < 2 {
				air = append(air, a.ID)
				bomb += a.Bomb
			} else if a.Type == "F" && esc == "" {
				esc = a.ID
			}
		}
		need := 200
		if a2+bomb*2 < d2*need/100 {
			continue
		}
		for _, id := range ids {
			used[id] = true
		}
		lines = append(lines, fmt.Sprintf("attack %s with %s advance", t, strings.Join(ids, " ")))
		if a2 >= d2*need/100 && side == Allied {
			air = nil // save the bombers
		}
		for _, id := range air {
			airUsed[id] = true
			lines = append(lines, fmt.Sprintf("air %s %s", id, t))
		}
		if esc != "" && len(air) > 0 {
			airUsed[esc] = true
			lines = append(lines, fmt.Sprintf("air %s %s close", esc, t))
		}
	}
	return lines
}
