package sweden43

import (
	"sort"

	"skagerrak/engine"
)

// ctx is a board being worked on, with the indexes the rules need.
type ctx struct {
	st  *State
	b   *Board
	occ map[engine.Hex]engine.Side
	stk map[engine.Hex]int
	// zoc holds the hexes whose units exert a zone of control, by side:
	// every unit under revision 1, divisions (not cadres) under revision 2
	// (Europa, published: brigades, regiments and battalions exert none).
	zoc map[engine.Hex]engine.Side
}

func newCtx(st *State) *ctx {
	c := &ctx{st: st, b: &st.Board}
	c.index()
	return c
}

func (c *ctx) index() {
	c.occ = map[engine.Hex]engine.Side{}
	c.stk = map[engine.Hex]int{}
	c.zoc = map[engine.Hex]engine.Side{}
	divisionZOC := c.st.rev().Has(DivisionZOC)
	for _, u := range c.b.Units {
		if u.Status != OnMap {
			continue
		}
		h, err := engine.ParseHex(u.Hex)
		if err != nil {
			continue
		}
		c.occ[h] = u.Side
		c.stk[h] += u.RE2s()
		if !divisionZOC || (u.Size == "div" && !u.Reduced) {
			c.zoc[h] = u.Side
		}
	}
}

func (c *ctx) opt32() bool { return c.st.has("terrain32") }

// owner returns the side owning h (30, 28A).
func (c *ctx) owner(h engine.Hex) engine.Side {
	if s, ok := c.b.Owner[h.String()]; ok {
		return s
	}
	switch data.CountryAt(h) {
	case 'S':
		return Allied
	case 'N', 'D':
		return German
	}
	return ""
}

func (c *ctx) setOwner(h engine.Hex, s engine.Side) {
	if !data.Land(h) || c.owner(h) == s {
		return
	}
	def := engine.Side("")
	switch data.CountryAt(h) {
	case 'S':
		def = Allied
	case 'N', 'D':
		def = German
	}
	if def == s {
		delete(c.b.Owner, h.String())
	} else {
		c.b.Owner[h.String()] = s
	}
	// Air units based in a captured hex are lost (reconstructed: Air Unit
	// Escape Summary not included).
	for i := range c.b.Air {
		a := &c.b.Air[i]
		if a.Status == OnMap && a.Base == h.String() && a.Side != s {
			a.Status = Eliminated
			c.log("", "air unit "+a.ID+" lost when its base "+data.HexName(h)+" was captured")
		}
	}
}

func (c *ctx) log(only engine.Side, text string) {
	c.st.Log.Add(Event{Turn: c.st.Turn, Text: text, Only: only})
}

// allowed reports whether side's ground units may operate in h (3F).
func allowed(side engine.Side, h engine.Hex) bool {
	if !data.Land(h) {
		return false
	}
	switch data.CountryAt(h) {
	case 'S':
		return true
	case 'N':
		return side == German
	}
	return false
}

// unitsAt returns the indexes of the units on the map in h.
func (c *ctx) unitsAt(h engine.Hex) []int {
	var out []int
	name := h.String()
	for i, u := range c.b.Units {
		if u.Status == OnMap && u.Hex == name {
			out = append(out, i)
		}
	}
	return out
}

func (c *ctx) find(id string) int {
	for i, u := range c.b.Units {
		if u.ID == id {
			return i
		}
	}
	return -1
}

func (c *ctx) findAir(id string) int {
	for i, a := range c.b.Air {
		if a.ID == id {
			return i
		}
	}
	return -1
}

// ezoc reports whether h is in a zone of control of side's enemy.
func (c *ctx) ezoc(side engine.Side, h engine.Hex) bool {
	for _, n := range h.Neighbors() {
		if s, ok := c.zoc[n]; ok && s != side && data.Land(h) {
			return true
		}
	}
	return false
}

func (c *ctx) enemyIn(side engine.Side, h engine.Hex) bool {
	s, ok := c.occ[h]
	return ok && s != side
}

// terrainOf returns the terrain line that applies to h.
func (c *ctx) terrainOf(h engine.Hex) Terrain {
	switch data.TerrainAt(h) {
	case 'r':
		return data.Terrains["rough"]
	case 'm':
		return data.Terrains["mountain"]
	case 'f':
		if c.opt32() {
			return data.Terrains["forest32"]
		}
		return data.Terrains["forest"]
	case 'i':
		if c.opt32() {
			return data.Terrains["ilake32"]
		}
		return data.Terrains["ilake"]
	}
	return data.Terrains["clear"]
}

// mpCost is what entering h costs u.
func (c *ctx) mpCost(u Unit, h engine.Hex) int {
	t := c.terrainOf(h)
	switch {
	case u.Mot():
		return t.MPMot
	case u.Type == "cav":
		return t.MPCav
	case u.Type == "mtn":
		return t.MPMtn
	}
	return t.MPOther
}

// allowance is u's movement allowance this phase (halved out of supply).
func allowance(u Unit) int {
	if u.OOS {
		return max(1, u.Move/2)
	}
	return u.Move
}

type node struct {
	h    engine.Hex
	cost int
}

// nodeFirst orders a search's queue: cheapest first, then by hex.
func nodeFirst(a, b node) bool {
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if a.h.Row != b.h.Row {
		return a.h.Row < b.h.Row
	}
	return a.h.Col < b.h.Col
}

// reach returns the cheapest cost of every hex u can reach from `from` with
// budget MPs, and the previous hex of each (zones of control: a unit stops
// on entering an enemy ZOC, pays extra to leave one and may not move from
// one enemy ZOC hex straight into another).
func (c *ctx) reach(u Unit, from engine.Hex, budget int) (map[engine.Hex]int, map[engine.Hex]engine.Hex) {
	return c.reachZOC(u, from, budget, true)
}

// reachZOC is reach, with the zones of control heeded or (zoc false, to
// tell why a hex cannot be reached) not.
func (c *ctx) reachZOC(u Unit, from engine.Hex, budget int, zoc bool) (map[engine.Hex]int, map[engine.Hex]engine.Hex) {
	dist := map[engine.Hex]int{from: 0}
	prev := map[engine.Hex]engine.Hex{}
	q := engine.NewQueue(nodeFirst, node{h: from})
	// Leaving an enemy ZOC costs exit MP more; moving straight from one
	// into another is forbidden under revision 1 and costs zz MP more (in
	// place of exit) under revision 2.
	exit, zz := data.Params["zoc-exit-mp"], -1
	if c.st.rev().Has(DivisionZOC) {
		exit, zz = data.Params["zoc-exit-mp-2"], data.Params["zoc-to-zoc-mp-2"]
	}
	for q.Len() > 0 {
		n := q.Pop()
		if n.cost > dist[n.h] {
			continue
		}
		inZ := zoc && c.ezoc(u.Side, n.h)
		if inZ && n.h != from {
			continue
		}
		for _, m := range n.h.Neighbors() {
			if !data.Grid.Contains(m) || !allowed(u.Side, m) || c.enemyIn(u.Side, m) {
				continue
			}
			mz := zoc && c.ezoc(u.Side, m)
			if inZ && mz && zz < 0 {
				continue
			}
			cost := n.cost + c.mpCost(u, m)
			switch {
			case inZ && mz:
				cost += zz
			case inZ:
				cost += exit
			}
			if cost > budget {
				// A unit may always move one hex (standard Europa mechanics).
				if !(n.h == from && n.cost == 0 && !inZ) {
					continue
				}
			}
			if d, ok := dist[m]; !ok || cost < d {
				dist[m] = cost
				prev[m] = n.h
				q.Push(node{h: m, cost: cost})
			}
		}
	}
	return dist, prev
}

func pathTo(prev map[engine.Hex]engine.Hex, from, to engine.Hex) []engine.Hex {
	var rev []engine.Hex
	for h := to; h != from; h = prev[h] {
		rev = append(rev, h)
	}
	out := make([]engine.Hex, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
	}
	return out
}

// railReach returns the rail hexes reachable from h for side: along rail
// hexsides, through friendly-owned hexes free of enemy units and zones of
// control, up to n hexes (7A rail movement).
func (c *ctx) railReach(side engine.Side, h engine.Hex, n int) map[engine.Hex]int {
	return c.railTrace(side, h, n, true)
}

// railTrace follows rail lines from h through friendly-owned hexes; strict
// also keeps it out of enemy units and zones of control. Supply (12C1: "a
// rail line ... entirely through friendly-owned hexes") is not strict.
func (c *ctx) railTrace(side engine.Side, h engine.Hex, n int, strict bool) map[engine.Hex]int {
	dist := map[engine.Hex]int{h: 0}
	frontier := []engine.Hex{h}
	for step := 1; step <= n && len(frontier) > 0; step++ {
		var next []engine.Hex
		for _, x := range frontier {
			for _, m := range x.Neighbors() {
				if _, seen := dist[m]; seen || !data.Rail(x, m) || !allowed(side, m) || c.owner(m) != side {
					continue
				}
				if strict && (c.enemyIn(side, m) || c.ezoc(side, m)) {
					continue
				}
				dist[m] = step
				next = append(next, m)
			}
		}
		frontier = next
	}
	return dist
}

// stackOK reports whether adding re2 half-REs to h keeps the stack legal.
func (c *ctx) stackOK(h engine.Hex, re2 int) bool {
	return c.stk[h]+re2 <= data.Params["stack-half-res"]
}

// placeUnit puts unit i in h and takes ownership of h.
func (c *ctx) placeUnit(i int, h engine.Hex) {
	u := &c.b.Units[i]
	u.Status = OnMap
	u.Hex = h.String()
	u.OOS, u.Restricted = false, ""
	c.setOwner(h, u.Side)
	c.index()
}

// supplySources returns the full supply sources of side and the restricted
// ones with their capacity in half-REs (12C).
func (c *ctx) supplySources(side engine.Side) (full map[engine.Hex]bool, restricted []restrictedSource) {
	full = map[engine.Hex]bool{}
	if side == German {
		for _, p := range data.Places {
			cc := data.CountryAt(p.Hex)
			if p.Port && (cc == 'N' || cc == 'S') && c.owner(p.Hex) == German {
				full[p.Hex] = true
			}
		}
		return full, nil
	}
	var cities []engine.Hex
	for _, p := range data.Places {
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' && c.owner(p.Hex) == Allied && !c.enemyIn(Allied, p.Hex) {
			cities = append(cities, p.Hex)
		}
	}
	for _, a := range cities {
		r := c.railTrace(Allied, a, 1000, false)
		for _, b := range cities {
			if b != a {
				if _, ok := r[b]; ok {
					full[a] = true
					break
				}
			}
		}
	}
	for _, rs := range restrictedSources {
		h := data.placeHex(rs.Name)
		if !full[h] && c.owner(h) == Allied && !c.enemyIn(Allied, h) {
			restricted = append(restricted, restrictedSource{Name: rs.Name, Hex: h, Cap: rs.Cap})
		}
	}
	return full, restricted
}

type restrictedSource struct {
	Name string
	Hex  engine.Hex
	Cap  int // half-REs
}

// restrictedSources are Rule 12C2's (REs doubled to half-REs).
var restrictedSources = []restrictedSource{{Name: "Stockholm", Cap: 10}, {Name: "Goteborg", Cap: 6}, {Name: "Umea", Cap: 6}, {Name: "Malmo", Cap: 6}}

func (d *Data) placeHex(name string) engine.Hex {
	p, _ := d.PlaceByName(name)
	return p.Hex
}

// supplyLine returns the hexes u at h can trace a supply line to: up to
// supply-hexes hexes through hexes free of enemy units, not entering enemy
// zones of control unless friendly units are there.
func (c *ctx) supplyArea(side engine.Side, h engine.Hex) map[engine.Hex]bool {
	n := data.Params["supply-hexes"]
	seen := map[engine.Hex]bool{h: true}
	frontier := []engine.Hex{h}
	for step := 0; step < n; step++ {
		var next []engine.Hex
		for _, x := range frontier {
			for _, m := range x.Neighbors() {
				if seen[m] || !allowed(side, m) || c.enemyIn(side, m) {
					continue
				}
				if c.ezoc(side, m) && c.occ[m] != side {
					continue
				}
				seen[m] = true
				next = append(next, m)
			}
		}
		frontier = next
	}
	return seen
}

// computeSupply marks side's units in or out of supply (12).
func (c *ctx) computeSupply(side engine.Side) {
	full, restricted := c.supplySources(side)
	// rail hexes connected to a full source
	railOK := map[engine.Hex]bool{}
	srcs := make([]engine.Hex, 0, len(full))
	for h := range full {
		srcs = append(srcs, h)
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].String() < srcs[j].String() })
	for _, h := range srcs {
		if data.railHex[h] {
			for x := range c.railTrace(side, h, 1000, false) {
				railOK[x] = true
			}
		}
	}
	used := map[string]int{}
	for i := range c.b.Units {
		u := &c.b.Units[i]
		if u.Side != side || u.Status != OnMap {
			continue
		}
		h, _ := engine.ParseHex(u.Hex)
		area := c.supplyArea(side, h)
		ok := false
		for x := range area {
			if full[x] || railOK[x] {
				ok = true
				break
			}
		}
		u.Restricted = ""
		if !ok {
			for _, rs := range restricted {
				if area[rs.Hex] && used[rs.Name]+u.RE2s() <= rs.Cap {
					used[rs.Name] += u.RE2s()
					u.Restricted = rs.Name
					ok = true
					break
				}
			}
		}
		if u.OOS != !ok {
			if ok {
				c.log("", u.ID+" is back in supply")
			} else {
				c.log("", u.ID+" is out of supply")
			}
		}
		u.OOS = !ok
	}
}
