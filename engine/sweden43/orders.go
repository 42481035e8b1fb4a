package sweden43

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"skagerrak/engine"
)

// Order is one parsed order line.
type Order struct {
	N     int          `json:"n"`
	Verb  string       `json:"verb"`
	Unit  string       `json:"unit,omitempty"`
	Hexes []engine.Hex `json:"hexes,omitempty"`
	Units []string     `json:"units,omitempty"`
	Flag  string       `json:"flag,omitempty"`
}

// Orders are a side's orders for one phase.
type Orders struct {
	Phase string  `json:"phase"`
	List  []Order `json:"list"`
}

// String writes the order back as an order line.
func (o Order) String() string {
	var w []string
	w = append(w, o.Verb)
	switch o.Verb {
	case "attack":
		w = append(w, o.Hexes[0].String(), "with")
		w = append(w, o.Units...)
		if o.Flag != "" {
			w = append(w, o.Flag)
		}
		return strings.Join(w, " ")
	case "mobilize":
		// mobilize REGIMENT DIVISION (29E): the regiment first, as parsed.
		return strings.Join(append(append(w, o.Units...), o.Unit), " ")
	case "assemble":
		w = append(w, o.Unit)
		w = append(w, o.Units...)
		return strings.Join(w, " ")
	}
	if o.Unit != "" {
		w = append(w, o.Unit)
	}
	for _, h := range o.Hexes {
		w = append(w, h.String())
	}
	if o.Verb == "base" && len(o.Hexes) == 0 {
		w = append(w, "UK")
	}
	if o.Flag != "" {
		w = append(w, o.Flag)
	}
	return strings.Join(w, " ")
}

// stepVerbs lists the orders of a step, from the verb table (an unknown
// step lists the movement phase's).
func stepVerbs(step string) string {
	return Verbs.Valid(stepKind(step), "", 0)
}

// unitByName finds a ground unit by id or alias, any case.
func (c *ctx) unitByName(s string) int {
	s = strings.ToLower(s)
	for i, u := range c.b.Units {
		if strings.ToLower(u.ID) == s {
			return i
		}
	}
	for _, d := range data.Units {
		for _, a := range d.Aliases {
			if strings.ToLower(a) == s {
				return c.find(d.ID)
			}
		}
	}
	return -1
}

func (c *ctx) airByName(s string) int {
	s = strings.ToLower(s)
	for i, a := range c.b.Air {
		if strings.ToLower(a.ID) == s {
			return i
		}
	}
	return -1
}

// ownUnits is the "valid:" text for an unknown unit name s: the side's
// units of that status nearest to it, or all of them.
func (c *ctx) ownUnits(side engine.Side, status, s string) string {
	var ids []string
	for _, u := range c.b.Units {
		if u.Side == side && u.Status == status {
			ids = append(ids, u.ID)
		}
	}
	return engine.Suggest(s, ids)
}

// ownAir is the "valid:" text for an unknown air unit name s.
func (c *ctx) ownAir(side engine.Side, s string) string {
	var ids []string
	for _, a := range c.b.Air {
		if a.Side == side && a.Status != Eliminated {
			ids = append(ids, a.ID)
		}
	}
	return engine.Suggest(s, ids)
}

// nullDice answers 1 to every roll: validation never depends on luck.
type nullDice struct{}

// Roll implements engine.Dice.
func (nullDice) Roll(int, string) int { return 1 }

// applyMove applies one movement-phase order; it returns an error message
// and the rule broken.
func (c *ctx) applyMove(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	switch o.Verb {
	case "place":
		return c.applyPlace(side, o, d, moved)
	case "move", "rail", "land", "drop":
		return c.applyUnitMove(side, o, d, moved)
	case "base":
		return c.applyBase(side, o, d, moved)
	case "replace":
		return c.applyReplace(side, o, d, moved)
	case "rebuild":
		return c.applyRebuild(side, o, d, moved)
	case "mobilize":
		return c.applyMobilize(side, o, d, moved)
	case "assemble":
		return c.applyAssemble(side, o, d, moved)
	}
	return "", "", "unknown order"
}

// applyPlace sets a unit up in its own country (30).
func (c *ctx) applyPlace(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	i := c.find(o.Unit)
	u := c.b.Units[i]
	if moved[u.ID] {
		return "30", "", u.ID + " is already placed"
	}
	if u.Status != OnMap {
		return "30", "", u.ID + " does not set up on the map"
	}
	h := o.Hexes[0]
	want := byte('S')
	if side == German {
		want = 'N'
	}
	if data.CountryAt(h) != want || !data.Land(h) {
		return "30", "a land hex of " + map[byte]string{'S': "Sweden", 'N': "Norway"}[want], data.HexName(h) + " is not in your own country"
	}
	c.b.Units[i].Hex = ""
	c.index()
	if !c.stackOK(h, u.RE2s()) {
		c.b.Units[i].Hex = u.Hex
		c.index()
		return "30", "", "the stacking limit in " + h.String() + " may not be violated"
	}
	moved[u.ID] = true
	c.b.Units[i].Hex = h.String()
	c.index()
	c.log("", fmt.Sprintf("%s deploys at %s (30)", u.ID, data.HexName(h)))
	return
}

// applyUnitMove moves a unit: by land or rail on the map, by an
// amphibious landing or by an air drop.
func (c *ctx) applyUnitMove(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	st := c.st
	i := c.find(o.Unit)
	u := c.b.Units[i]
	if moved[u.ID] {
		return "", "", u.ID + " has already moved this phase"
	}
	switch o.Verb {
	case "land":
		return c.applyLand(side, o, d, moved)
	case "drop":
		return c.applyDrop(side, o, d, moved)
	}
	if u.Status != OnMap {
		switch u.Status {
		case Amph:
			return "26A", c.landingHint(side, u), u.ID + " is not on the map: it lands (26A)"
		case ParaPool:
			return "25C", c.dropHint(side, u), u.ID + " is not on the map: it drops (25C)"
		}
		return "", "", u.ID + " is not on the map"
	}
	if st.Step == "exploit" && !u.CM() {
		return "2", "a c/m unit (armour, assault guns)", u.ID + " is not a c/m unit: only c/m units move in the exploitation phase (" + recon + ")"
	}
	if st.Step == "exploit" && st.rev().Has(ExploitHalfMove) && u.MPUsed*2 > u.Move {
		return "2", "a c/m unit that used no more than half its movement allowance in the movement phase",
			fmt.Sprintf("%s used %d of its %d MP in the movement phase: only c/m units that used no more than half (%d) exploit (reconstructed: standard Europa mechanics)", u.ID, u.MPUsed, u.Move, u.Move/2)
	}
	if o.Verb == "rail" {
		return c.applyRail(side, o, d, moved)
	}
	return c.applyGroundMove(side, o, d, moved)
}

// applyLand lands a regiment of the amphibious force (26A).
func (c *ctx) applyLand(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	st := c.st
	i := c.find(o.Unit)
	u := c.b.Units[i]
	if u.Status != Amph {
		return "26A", "", u.ID + " is not a regiment of the amphibious force waiting to land"
	}
	if st.Turn != 1 {
		return "26A", "", "the amphibious force lands only in the Jul I 43 movement phase"
	}
	h := o.Hexes[0]
	if data.CountryAt(h) != 'S' || !data.Coastal(h) {
		return "26A", c.landingHint(side, u), h.String() + " is not a coastal hex of Sweden"
	}
	if n, held := navalHeld(h); held {
		return "26A", c.landingHint(side, u), n + " is held by Swedish naval forces"
	}
	if c.enemyIn(side, h) || !c.stackOK(h, u.RE2s()) {
		return "26A", c.landingHint(side, u), "cannot land in " + data.HexName(h) + ": enemy units or stacking"
	}
	moved[u.ID] = true
	c.placeUnit(i, h)
	if c.b.NavyOut {
		loss := data.Params["landing-loss"]
		if st.Scenario == "ultra" {
			loss = data.Params["landing-loss-ultra"]
		}
		r := d.Roll(6, "Swedish navy against "+u.ID+" (26A)")
		if r >= loss {
			c.b.Units[i].Status = Eliminated
			c.b.Units[i].Hex = ""
			c.index()
			c.log("", fmt.Sprintf("%s lands at %s; the Swedish navy rolls %d: the regiment is lost at sea (26A)", u.ID, data.HexName(h), r))
		} else {
			c.log("", fmt.Sprintf("%s lands at %s; the Swedish navy rolls %d: landed (26A)", u.ID, data.HexName(h), r))
		}
	} else {
		c.log("", fmt.Sprintf("%s lands at %s (26A)", u.ID, data.HexName(h)))
	}
	return
}

// applyDrop drops an airborne unit (25C).
func (c *ctx) applyDrop(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	i := c.find(o.Unit)
	u := c.b.Units[i]
	if u.Status != ParaPool || u.Type != "para" {
		return "25C", "", u.ID + " is not an airborne unit waiting to drop (each drops once per game)"
	}
	h := o.Hexes[0]
	if data.CountryAt(h) != 'S' || !data.Land(h) {
		return "25C", c.dropHint(side, u), "airborne units drop in Sweden only"
	}
	if c.enemyIn(side, h) || !c.stackOK(h, u.RE2s()) {
		return "25C", c.dropHint(side, u), "cannot drop into " + data.HexName(h) + ": enemy units or stacking"
	}
	if !c.dropInRange(h) {
		return "25C", c.dropHint(side, u), "no German-owned airbase within range of " + h.String()
	}
	moved[u.ID] = true
	c.b.Units[i].Dropped = true
	c.placeUnit(i, h)
	c.log("", fmt.Sprintf("%s drops at %s (25C)", u.ID, data.HexName(h)))
	c.captureCheck(h, side, d)
	return
}

// applyRail moves a unit by rail (7A).
func (c *ctx) applyRail(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	st := c.st
	i := c.find(o.Unit)
	u := c.b.Units[i]
	from, _ := engine.ParseHex(u.Hex)
	if c.ezoc(side, from) || c.owner(from) != side || !data.railHex[from] {
		return "7A", "", u.ID + " is not on a friendly rail hex free of enemy ZOC"
	}
	capKey := "rail-cap-german"
	if side == Allied {
		capKey = "rail-cap-allied"
	}
	if c.b.RailUsed+u.RE2s() > data.Params[capKey] {
		return "7A", "", fmt.Sprintf("the low-volume rail lines carry %d half-REs a turn; %d used", data.Params[capKey], c.b.RailUsed)
	}
	r := c.railReach(side, from, data.Params["rail-hexes"])
	h := o.Hexes[0]
	if _, ok := r[h]; !ok || h == from {
		return "7A", railHint(u, from, h, r), data.HexName(h) + " cannot be reached by rail"
	}
	if !c.stackOK(h, u.RE2s()) {
		return "", "", "stacking limit in " + h.String()
	}
	moved[u.ID] = true
	c.b.RailUsed += u.RE2s()
	if st.rev().Has(ExploitHalfMove) {
		// A rail move spends the unit's movement phase
		// (reconstructed: it may not exploit after it).
		c.b.Units[i].MPUsed = u.Move
	}
	c.b.Units[i].Hex = h.String()
	c.index()
	c.log("", fmt.Sprintf("%s moves by rail to %s", u.ID, data.HexName(h)))
	return
}

// applyGroundMove moves a unit along its waypoints, within its movement
// allowance, stopping where it enters an enemy zone of control.
func (c *ctx) applyGroundMove(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	st := c.st
	i := c.find(o.Unit)
	u := c.b.Units[i]
	from, _ := engine.ParseHex(u.Hex)
	budget := allowance(u)
	at := from
	var path []engine.Hex
	for k, wp := range o.Hexes {
		dist, prev := c.reach(u, at, budget)
		cost, ok := dist[wp]
		if !ok || wp == at {
			rule, why := c.whyUnreachable(u, at, wp, budget)
			return rule, moveHint(o, k, at, dist), fmt.Sprintf("%s cannot reach %s (%s)", u.ID, data.HexName(wp), why)
		}
		if k < len(o.Hexes)-1 && c.ezoc(side, wp) {
			stop := Order{Verb: o.Verb, Unit: o.Unit, Hexes: o.Hexes[:k+1]}
			return "2", stop.String(), "a unit stops on entering an enemy zone of control (" + wp.String() + "; " + recon + ")"
		}
		path = append(path, pathTo(prev, at, wp)...)
		budget -= cost
		at = wp
	}
	if !c.stackOK(at, u.RE2s()) {
		return "", "", "stacking limit in " + at.String()
	}
	moved[u.ID] = true
	if st.rev().Has(ExploitHalfMove) && st.Step == "move" {
		c.b.Units[i].MPUsed += allowance(u) - budget
	}
	c.b.Units[i].Hex = at.String()
	c.index()
	c.log("", fmt.Sprintf("%s moves to %s", u.ID, data.HexName(at)))
	for _, h := range path {
		c.captureCheck(h, side, d)
	}
	return
}

// applyBase rebases an air unit (3F).
func (c *ctx) applyBase(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	st := c.st
	i := c.findAir(o.Unit)
	a := c.b.Air[i]
	if a.Status != OnMap {
		return "", "", a.ID + " is not in play"
	}
	if a.Nation != "german" && a.Nation != "swedish" {
		if len(o.Hexes) != 0 {
			return "3F", "UK", "Western Allied air units base only in the United Kingdom"
		}
		return
	}
	if len(o.Hexes) == 0 {
		return "3F", "", "only Western Allied air units base in the United Kingdom"
	}
	h := o.Hexes[0]
	p, ok := data.PlaceAt(h)
	if !ok || !p.Airbase || c.owner(h) != side {
		return "3F", "", data.HexName(h) + " is not an airbase your side owns"
	}
	if a.Nation == "swedish" && data.CountryAt(h) != 'S' {
		return "3F", "", "Swedish air units base only in Sweden"
	}
	if st.Step != "setup" && airDistance(a, h) > a.Range*2 {
		return "", "", "too far to rebase (twice the range)"
	}
	c.b.Air[i].Base = h.String()
	c.log("", a.ID+" rebases to "+data.HexName(h))
	return
}

// applyReplace brings an eliminated German unit back as a replacement (29B).
func (c *ctx) applyReplace(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	st := c.st
	i := c.find(o.Unit)
	u := c.b.Units[i]
	if side != German {
		return "29B", "", "the Allied player receives no ground replacements"
	}
	if u.Status != Eliminated {
		return "29B", "", u.ID + " is not eliminated"
	}
	if u.Type == "arm" || u.Type == "ag" || u.Type == "para" {
		return "29B", "", "infantry replacements cannot replace armored, assault gun or parachute units"
	}
	cost := map[string]int{"bn": 1, "reg": 2, "div": 6}[u.Size]
	if cost > c.b.ReplHalfREs {
		return "29B", "", fmt.Sprintf("%s costs %s REs; %s left", u.ID, halfStr(cost), halfStr(c.b.ReplHalfREs))
	}
	h := o.Hexes[0]
	okHex := false
	if p, ok := data.PlaceAt(h); ok && c.owner(h) == German {
		if p.IsCity() && data.CountryAt(h) == 'N' {
			okHex = true
		}
		if p.Europa == "5B:2630" || (st.Scenario == "op1" && p.Europa == "5B:3015") {
			okHex = true
		}
	}
	if !okHex || c.enemyIn(side, h) || !c.stackOK(h, u.RE2s()) {
		return "29B", "a German-owned city of Norway or 5B:2630 (Operation I: also 5B:3015)", data.HexName(h) + " is not an entry hex for replacements"
	}
	c.b.ReplHalfREs -= cost
	moved[u.ID] = true
	c.b.Units[i].Reduced = false
	c.placeUnit(i, h)
	c.log(German, fmt.Sprintf("%s replaced at %s for %s REs", u.ID, data.HexName(h), halfStr(cost)))
	return
}

// applyRebuild rebuilds a German infantry division cadre (29B).
func (c *ctx) applyRebuild(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	st := c.st
	i := c.find(o.Unit)
	u := c.b.Units[i]
	// 29B "an infantry division cadre": revision 2 counts a mountain
	// division's cadre as one (mountain infantry).
	infantry := u.Type == "inf" || (st.rev().Has(MountainCadre) && u.Type == "mtn" && u.Size == "div")
	if side != German || u.Status != OnMap || !u.Reduced || !infantry {
		if st.rev().Has(MountainCadre) {
			return "29B", "", u.ID + " is not a German infantry (or mountain) division cadre"
		}
		return "29B", "", u.ID + " is not a German infantry division cadre"
	}
	h, _ := engine.ParseHex(u.Hex)
	if u.OOS || c.ezoc(side, h) {
		return "29B", "", "the cadre must be in supply and not in an enemy ZOC"
	}
	if c.b.ReplHalfREs < 4 {
		return "29B", "", "rebuilding a cadre costs 2 REs"
	}
	if !c.stackOK(h, u.RE2-2) {
		return "", "", "stacking limit in " + h.String()
	}
	c.b.ReplHalfREs -= 4
	c.b.Units[i].Reduced = false
	c.index()
	c.log(German, u.ID+" is rebuilt to full strength (29B)")
	return
}

// applyMobilize mobilizes a Swedish regiment into its division (29E).
func (c *ctx) applyMobilize(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	st := c.st
	di, ri := c.find(o.Unit), c.find(o.Units[0])
	div, reg := c.b.Units[di], c.b.Units[ri]
	if div.Status != Mobilize || div.Turn > st.Turn {
		return "29E", c.available(Mobilize), div.ID + " is not available for mobilization now"
	}
	if reg.Status != OnMap || reg.Type != "inf" || reg.Size != "reg" || reg.Nation != "swedish" {
		return "29E", "", reg.ID + " is not a Swedish infantry regiment in play"
	}
	if moved[reg.ID] {
		return "29E", "", "mobilize before moving the regiment"
	}
	h, _ := engine.ParseHex(reg.Hex)
	if c.stk[h]-reg.RE2+div.RE2 > data.Params["stack-half-res"] {
		return "", "", "stacking limit in " + h.String()
	}
	c.b.Units[ri].Status, c.b.Units[ri].Hex = Absorbed, ""
	c.placeUnit(di, h)
	c.b.Units[di].OOS = reg.OOS
	c.log("", fmt.Sprintf("%s mobilizes into %s at %s (29E)", reg.ID, div.ID, data.HexName(h)))
	return
}

// applyAssemble assembles a Swedish division from three regiments (29F).
func (c *ctx) applyAssemble(side engine.Side, o Order, d engine.Dice, moved map[string]bool) (rule, valid, msg string) {
	st := c.st
	di := c.find(o.Unit)
	div := c.b.Units[di]
	need := 3
	if div.Status == HQAssemble {
		need = 4
	} else if div.Status != Assemble || div.Turn > st.Turn {
		return "29F", c.available(Assemble), div.ID + " is not available for assembly now"
	}
	if len(o.Units) != need {
		if need == 4 {
			return "15C3", "assemble 2Div 2DivHQ R1 R2 R3", "the 2nd Division is formed by its HQ and three infantry regiments"
		}
		return "29F", "assemble DIV R1 R2 R3", "a division is assembled from three Swedish infantry regiments"
	}
	var hex string
	dup := map[string]bool{}
	for _, id := range o.Units {
		if dup[id] {
			return "29F", "three different regiments", id + " is named twice"
		}
		dup[id] = true
	}
	for k, id := range o.Units {
		u := c.b.Units[c.find(id)]
		if u.Status != OnMap {
			return "29F", "", id + " is not on the map"
		}
		if hex == "" {
			hex = u.Hex
		} else if u.Hex != hex {
			return "29F", "", "the units must be in the same hex"
		}
		isHQ := u.Type == "hq"
		if need == 4 && k == 0 {
			if u.ID != "2DivHQ" {
				return "15C3", "", "the first unit must be the 2nd Division HQ"
			}
			continue
		}
		if isHQ || u.Type != "inf" || u.Size != "reg" || u.Nation != "swedish" {
			return "29F", "", id + " is not a Swedish infantry regiment"
		}
	}
	for _, id := range o.Units {
		k := c.find(id)
		c.b.Units[k].Status, c.b.Units[k].Hex = Absorbed, ""
	}
	h, _ := engine.ParseHex(hex)
	c.placeUnit(di, h)
	moved[div.ID] = true
	c.log("", fmt.Sprintf("%s is assembled at %s", div.ID, data.HexName(h)))
	return
}

// whyUnreachable says which rule keeps u from reaching goal from `from`
// with budget MP: the operational limits (3F) when its side may not enter
// goal, the zones of control (2) when the way is there without them, else
// its movement points and the terrain (2).
func (c *ctx) whyUnreachable(u Unit, from, goal engine.Hex, budget int) (rule, why string) {
	switch {
	case !data.Grid.Contains(goal) || !allowed(u.Side, goal):
		return "3F", fmt.Sprintf("%s ground units may not operate in %s", u.Side, data.HexName(goal))
	case c.enemyIn(u.Side, goal):
		return "2", "enemy units hold it"
	}
	if free, _ := c.reachZOC(u, from, budget, false); hasHex(free, goal) {
		return "2", "zones of control: a unit stops on entering an enemy ZOC and may not move from one enemy ZOC hex straight into another (" + recon + ")"
	}
	return "2", fmt.Sprintf("movement %d and terrain costs (%s)", budget, recon)
}

func hasHex(m map[engine.Hex]int, h engine.Hex) bool {
	_, ok := m[h]
	return ok
}

// captureCheck takes h for side when a unit enters it.
func (c *ctx) captureCheck(h engine.Hex, side engine.Side, d engine.Dice) {
	if c.owner(h) != side {
		c.capture(h, side, d)
	}
}

func (c *ctx) available(status string) string {
	var ids []string
	for _, u := range c.b.Units {
		if u.Status == status && u.Turn <= c.st.Turn {
			ids = append(ids, u.ID)
		}
	}
	return strings.Join(ids, ", ")
}

// phaseOrder sorts a movement phase's orders: the initial phase's
// (replace, rebuild, mobilize) first, then movement, then assembly.
func phaseRank(verb string) int {
	switch verb {
	case "replace", "rebuild", "mobilize":
		return 0
	case "assemble":
		return 2
	}
	return 1
}

// moveHint names move orders the phase accepts in place of o, whose k-th
// waypoint is out of reach: o up to that waypoint, ending instead at one of
// the hexes reached from the waypoint before it (dist) nearest the goal.
func moveHint(o Order, k int, at engine.Hex, dist map[engine.Hex]int) string {
	var hs []engine.Hex
	for h := range dist {
		if h != at {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return "none: " + o.Unit + " can move no further than " + at.String()
	}
	nearestFirst(hs, o.Hexes[k])
	var out []string
	for _, h := range hs[:min(3, len(hs))] {
		alt := o
		alt.Hexes = append(slices.Clone(o.Hexes[:k]), h)
		out = append(out, alt.String())
	}
	return strings.Join(out, "; ")
}

// nearestFirst sorts hexes by their distance to goal, then by name.
func nearestFirst(hs []engine.Hex, goal engine.Hex) {
	sort.Slice(hs, func(i, j int) bool {
		di, dj := hs[i].Distance(goal), hs[j].Distance(goal)
		if di != dj {
			return di < dj
		}
		return hs[i].String() < hs[j].String()
	})
}

// navalHeld reports whether h is one of the hexes the Swedish naval forces
// hold (26A: Stockholm, Karlskrona, Goteborg), and which.
func navalHeld(h engine.Hex) (string, bool) {
	for _, n := range []string{"Stockholm", "Karlskrona", "Goteborg"} {
		if h == data.placeHex(n) {
			return n, true
		}
	}
	return "", false
}

// dropInRange reports whether h is within drop range of a German-owned
// airbase (25C, reconstructed range).
func (c *ctx) dropInRange(h engine.Hex) bool {
	for _, p := range data.Places {
		if p.Airbase && c.owner(p.Hex) == German && p.Hex.Distance(h) <= data.Params["drop-range"] {
			return true
		}
	}
	return false
}

// ordersTo writes "VERB UNIT HEX" for the first three hexes of the grid
// where ok holds, nearest Stockholm first (the scenario's objective): an
// error's Valid field of orders the phase accepts.
func ordersTo(verb string, u Unit, ok func(engine.Hex) bool, none string) string {
	st := data.placeHex("Stockholm")
	var hs []engine.Hex
	for _, h := range data.Grid.All() {
		if ok(h) {
			hs = append(hs, h)
		}
	}
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].Distance(st) < hs[j].Distance(st) })
	if len(hs) == 0 {
		return none
	}
	var out []string
	for _, h := range hs[:min(3, len(hs))] {
		out = append(out, verb+" "+u.ID+" "+h.String())
	}
	return strings.Join(out, "; ")
}

// landingHint names landings of u the phase accepts (26A).
func (c *ctx) landingHint(side engine.Side, u Unit) string {
	return ordersTo("land", u, func(h engine.Hex) bool {
		_, held := navalHeld(h)
		return data.CountryAt(h) == 'S' && data.Coastal(h) && !held && !c.enemyIn(side, h) && c.stackOK(h, u.RE2s())
	}, "none: no coastal hex of Sweden is free")
}

// dropHint names drops of u the phase accepts (25C).
func (c *ctx) dropHint(side engine.Side, u Unit) string {
	return ordersTo("drop", u, func(h engine.Hex) bool {
		return data.CountryAt(h) == 'S' && data.Land(h) && !c.enemyIn(side, h) && c.stackOK(h, u.RE2s()) && c.dropInRange(h)
	}, "none: no hex of Sweden within range of a German-owned airbase is free")
}

// railHint names rail moves of u the phase accepts (7A): to the rail
// hexes it reaches nearest the one asked for.
func railHint(u Unit, from, goal engine.Hex, r map[engine.Hex]int) string {
	var hs []engine.Hex
	for h := range r {
		if h != from {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return "none: " + u.ID + " reaches no rail hex from " + from.String()
	}
	nearestFirst(hs, goal)
	var out []string
	for _, h := range hs[:min(3, len(hs))] {
		out = append(out, "rail "+u.ID+" "+h.String())
	}
	return strings.Join(out, "; ")
}
