package sweden43

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// Play implements engine.Player: legal, purposeful orders from the View
// alone. The Germans play for the scenario's victory (31B): Stockholm, whose
// capture or attack may make Sweden surrender (28B1), and the other cities
// (the zone B cities in Operation I); they take undefended cities as they
// pass, attack the defended ones at the best odds their adjacent units and
// bombers make (2:1 or better, 1.5:1 against a city they must have), and
// under revision 2 keep their c/m units within half their allowance in the
// movement phase so that they exploit. The Allies mobilize and assemble
// divisions, hold their cities (Stockholm first, the most threatened next),
// keep a unit in each, and counter-attack only at 2:1 or better.
func (rules) Play(v View, side engine.Side, _ engine.Dice) string {
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
		keep := engine.WithoutFailed(lines, errs)
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

// objDistance scores a hex for a unit heading for its side's objectives:
// the distance to the nearest, Stockholm counting as nearer by the weight
// the scenario gives it (the Germans' key to a surrender in the basic and
// ULTRA scenarios, their only aim in Operation II), and an objective city
// the side can take by entering it (no enemy in it) best of all.
func objDistance(c *ctx, side engine.Side, h engine.Hex, objs []engine.Hex) int {
	sth := data.placeHex("Stockholm")
	best := 1 << 20
	for _, o := range objs {
		if h == o {
			return -100 // reach never ends in an enemy-held hex
		}
		d := h.Distance(o) * 2
		if o == sth && side == German && c.st.Scenario != "op1" {
			d -= 6
		}
		best = min(best, d)
	}
	return best
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

// planMove is the scripted player's movement or exploitation phase:
// arrivals (German) or mobilization (Allied), the march on the objectives,
// then the Allied assemblies.
func planMove(st *State, side engine.Side) []string {
	work := st.Clone()
	c := newCtx(work)
	p := &movePlan{st: st, side: side, c: c, moved: map[string]bool{}}
	p.objs = objectives(c, side)
	switch {
	case st.Step == "exploit":
		// only c/m units move in the exploitation phase
	case side == German:
		p.germanArrivals()
	default:
		p.mobilize()
	}
	p.march()
	if side == Allied && st.Step == "move" {
		p.assemble()
	}
	return p.lines
}

// movePlan is the scripted player's plan for a movement or exploitation
// phase: each order is applied to a working copy of the state as it is
// written, so that the next one sees its effect.
type movePlan struct {
	st    *State
	side  engine.Side
	c     *ctx // on the working copy
	moved map[string]bool
	lines []string
	objs  []engine.Hex // the objectives, best first
}

// try keeps line if the rules accept it now, and reports whether they did.
func (p *movePlan) try(line string) bool {
	l := engine.OrderLines(line)[0]
	o, e := p.c.parse(p.side, l, p.st.Step)
	if e != nil {
		return false
	}
	if _, _, msg := p.c.applyMove(p.side, o, nullDice{}, p.moved); msg == "" {
		p.lines = append(p.lines, line)
		return true
	}
	return false
}

// germanArrivals replaces eliminated infantry at Oslo, rebuilds reduced
// infantry, lands the amphibious units and drops the paratroops on the
// first empty objective.
func (p *movePlan) germanArrivals() {
	st, c := p.st, p.c
	for _, u := range st.Board.Units {
		if u.Side == German && u.Status == Eliminated && u.Type == "inf" {
			p.try("replace " + u.ID + " " + data.placeHex("Oslo").String())
		}
	}
	for _, u := range st.Board.Units {
		if u.Side == German && u.Status == OnMap && u.Reduced && u.Type == "inf" {
			p.try("rebuild " + u.ID)
		}
	}
	for _, u := range st.Board.Units {
		if u.Status == Amph {
			p.try("land " + u.ID + " " + defaultLanding(c, u.ID).String())
		}
	}
	for _, u := range st.Board.Units {
		if u.Status != ParaPool {
			continue
		}
		for _, h := range p.objs {
			if _, held := c.occ[h]; !held {
				p.try("drop " + u.ID + " " + h.String())
				if p.moved[u.ID] {
					break
				}
			}
		}
	}
}

// mobilize mobilizes each Allied division due, from the first Swedish
// infantry regiment that may.
func (p *movePlan) mobilize() {
	for _, u := range p.st.Board.Units {
		if u.Side != Allied || u.Status != Mobilize || u.Turn > p.st.Turn {
			continue
		}
		for _, r := range p.c.b.Units {
			if r.Status == OnMap && r.Type == "inf" && r.Size == "reg" && r.Nation == "swedish" {
				if p.try("mobilize " + r.ID + " " + u.ID) {
					break
				}
			}
		}
	}
}

// march moves each of the side's units on the map that has not moved yet
// toward the objectives; Allied units next to the enemy hold the line, and
// the last unit in a city stays.
func (p *movePlan) march() {
	c, side := p.c, p.side
	ids := []string{}
	for _, u := range c.b.Units {
		if u.Side == side && u.Status == OnMap && !p.moved[u.ID] {
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
			if pl, ok := data.PlaceAt(from); ok && pl.IsCity() && c.stk[from] <= 4 && len(p.objs) > 0 && from.Distance(p.objs[0]) > 0 {
				// keep one unit in each city
				alone := len(c.unitsAt(from)) == 1
				if alone {
					continue
				}
			}
		}
		if len(p.objs) == 0 {
			continue
		}
		if best := p.bestHex(u, from); best != from {
			p.try("move " + u.ID + " " + best.String())
		}
	}
}

// bestHex is the hex u may reach from from, with room to stack, nearest
// the objectives; the first by row and column of equals. Under revision 2
// a German c/m unit moves only half its allowance in the movement phase,
// which keeps it free to exploit.
func (p *movePlan) bestHex(u Unit, from engine.Hex) engine.Hex {
	c, side := p.c, p.side
	budget := allowance(u)
	if side == German && u.CM() && p.st.Step == "move" && p.st.rev().Has(ExploitHalfMove) {
		budget = u.Move / 2
	}
	dist, _ := c.reach(u, from, budget)
	best, bestD := from, objDistance(c, side, from, p.objs)
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
		if d := objDistance(c, side, h, p.objs); d < bestD {
			best, bestD = h, d
		}
	}
	return best
}

// assemble assembles each Allied division due from the first three Swedish
// infantry regiments in one hex (with 2DivHQ there for an HQ assembly).
func (p *movePlan) assemble() {
	c := p.c
	for _, u := range p.st.Board.Units {
		if u.Side != Allied || (u.Status != Assemble && u.Status != HQAssemble) || u.Turn > p.st.Turn {
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
			if p.try(line + strings.Join(regs[:3], " ")) {
				break
			}
		}
	}
}

// target is an enemy-held hex a side may attack, with what it would take.
type target struct {
	hex    engine.Hex
	units  []string
	air    []string
	escort string
	hund   int
	col    int
}

func planCombat(st *State, side engine.Side) []string {
	c := newCtx(st.Clone())
	used := map[string]bool{}
	airUsed := map[string]bool{}
	var lines []string
	objs := map[engine.Hex]bool{}
	for _, o := range objectives(c, side) {
		objs[o] = true
	}
	sth := data.placeHex("Stockholm")
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
	// Stockholm first, then the objective cities, then the rest; within
	// each, in hex order.
	prio := func(h engine.Hex) int {
		switch {
		case h == sth && side == German:
			return 0
		case objs[h] || side == Allied:
			return 1
		}
		return 2
	}
	sort.Slice(targets, func(i, j int) bool {
		if pi, pj := prio(targets[i]), prio(targets[j]); pi != pj {
			return pi < pj
		}
		return targets[i].String() < targets[j].String()
	})
	for _, h := range targets {
		tg := c.bestAttack(side, h, used, airUsed)
		if tg == nil {
			continue
		}
		need := 200
		if side == German && prio(h) < 2 {
			need = 150 // 28B1: at 1.5:1 Stockholm rolls for surrender
		}
		if tg.hund < need {
			continue
		}
		for _, id := range tg.units {
			used[id] = true
		}
		lines = append(lines, fmt.Sprintf("attack %s with %s advance", h, strings.Join(tg.units, " ")))
		for _, id := range tg.air {
			airUsed[id] = true
			lines = append(lines, fmt.Sprintf("air %s %s", id, h))
		}
		if tg.escort != "" {
			airUsed[tg.escort] = true
			lines = append(lines, fmt.Sprintf("air %s %s close", tg.escort, h))
		}
	}
	return lines
}

// bestAttack is the strongest attack side can make on h with the units
// next to it and the bombers in range not yet committed: every ground unit
// that adds strength, and the bombers the odds need (the Germans take them
// all; the Allies keep theirs unless the attack needs them for 2:1). Odds
// are computed as the rules of the game's revision do, with no air losses.
func (c *ctx) bestAttack(side engine.Side, h engine.Hex, used, airUsed map[string]bool) *target {
	var att []int
	def := append([]int(nil), c.unitsAt(h)...)
	for _, n := range h.Neighbors() {
		for _, i := range c.unitsAt(n) {
			u := c.b.Units[i]
			if av, _ := u.Strength(); u.Side == side && av > 0 && !used[u.ID] {
				att = append(att, i)
			}
		}
	}
	if len(att) == 0 || len(def) == 0 {
		return nil
	}
	tg := &target{hex: h}
	for _, i := range att {
		tg.units = append(tg.units, c.b.Units[i].ID)
	}
	var bombers []AirUnit
	for _, a := range c.b.Air {
		if a.Side != side || a.Status != OnMap || a.Flown == c.st.Turn || airUsed[a.ID] || airDistance(a, h) > a.Range {
			continue
		}
		if a.Type == "B" {
			bombers = append(bombers, a)
		} else if tg.escort == "" {
			tg.escort = a.ID
		}
	}
	bomb := 0
	tg.col, tg.hund, _, _ = c.odds(side, h, att, def, 0)
	for _, a := range bombers {
		if side == Allied && tg.hund >= 200 {
			break
		}
		bomb += a.Bomb
		tg.air = append(tg.air, a.ID)
		tg.col, tg.hund, _, _ = c.odds(side, h, att, def, bomb)
	}
	if len(tg.air) == 0 {
		tg.escort = ""
	}
	return tg
}
