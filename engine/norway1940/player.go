package norway1940

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"skagerrak/engine"
)

// Play implements engine.Player: legal, purposeful orders from a side's
// View alone. Each candidate order is checked with the rules' own code
// against what the View shows, and dropped if it would not be valid.
func (rules) Play(v *View, side engine.Side, dice engine.Dice) string {
	if v == nil || v.Phase.Over {
		return ""
	}
	if v.Ask != nil {
		if v.Ask.Side != side {
			return ""
		}
		return "# scripted " + string(side) + " decision for " + v.Phase.ID + "\n" + strings.Join(answer(v), "\n") + "\n"
	}
	if v.Phasing != side || !contains(sidesStr(v.Phase.Owes), string(side)) {
		return ""
	}
	p := &player{v: v, x: side, s: stateFromView(v), committed: map[string]bool{}}
	p.ctx = newTurnCtx(p.s, side, nil)
	p.s.side(side).Standing.Keep = 0
	if side == German {
		p.german()
	} else {
		p.allied()
	}
	text := strings.Join(p.lines, "\n") + "\n"
	// Belt and braces: drop any line the full parse still rejects.
	base := stateFromView(v)
	for i := 0; i < 20; i++ {
		_, errs := parseOrders(base, side, text)
		if len(errs) == 0 {
			break
		}
		drop := map[int]bool{}
		for _, e := range errs {
			drop[e.Line] = true
		}
		if drop[0] {
			// a whole-file problem: drop the last support, else the last move
			for j := len(p.lines) - 1; j >= 0; j-- {
				if strings.HasPrefix(p.lines[j], "air support") {
					drop[j+1] = true
					break
				}
			}
			for j := len(p.lines) - 1; j >= 0 && len(drop) == 1; j-- {
				if strings.HasPrefix(p.lines[j], "move") || strings.HasPrefix(p.lines[j], "fleet") {
					drop[j+1] = true
					break
				}
			}
		}
		var keep []string
		for j, l := range p.lines {
			if !drop[j+1] {
				keep = append(keep, l)
			}
		}
		p.lines = keep
		text = strings.Join(p.lines, "\n") + "\n"
	}
	return "# scripted " + string(side) + " orders for " + v.Phase.ID + "\n" + text
}

type player struct {
	v     *View
	x     engine.Side
	s     *State // what the View shows, advanced by each accepted order
	ctx   *turnCtx
	lines []string
	// committed units attack where they stand and must not move off.
	committed map[string]bool
	// later holds orders to try again after the land moves (a convoy
	// docking where units are about to leave, 11.1.2 counts at the end).
	later []string
	// convoyBox is where this turn's convoy sails.
	convoyBox string
}

// safeBox is the box of a sea area with no detected enemy fleet and the
// fewest enemy fleet markers, "" when every box holds a detected enemy.
func (p *player) safeBox(sea string) string {
	best, bn := "", 1<<30
	for _, b := range data.BoxesOf(sea) {
		n, danger := 0, false
		for _, f := range p.s.Fleets {
			if f.Side != p.x && f.Where == b {
				n++
				if f.Detected && f.Combat > 0 {
					danger = true
				}
			}
		}
		if !danger && n < bn {
			best, bn = b, n
		}
	}
	return best
}

func (p *player) retry() {
	for _, l := range p.later {
		p.try(l)
	}
	p.later = nil
}

// try checks an order line against the scratch state and keeps it if
// valid, including what only the whole file can break (stacking).
func (p *player) try(line string) bool {
	ls := engine.OrderLines(line)
	if len(ls) != 1 {
		return false
	}
	o, err := parseLine(p.s, p.x, ls[0])
	if err != nil {
		return false
	}
	if _, _, msg := p.ctx.check(o); msg != "" {
		return false
	}
	saved := p.ctx.snapshot()
	p.ctx.exec(o)
	if o.Verb != "air" || o.Kind != "support" {
		if p.ctx.finalCheck() != nil {
			p.ctx = saved
			p.s = saved.s
			return false
		}
	}
	p.lines = append(p.lines, line)
	return true
}

func (p *player) own() []*Unit {
	var out []*Unit
	for _, u := range p.s.Units {
		if u.Side == p.x && !u.Dead {
			out = append(out, u)
		}
	}
	return out
}

func (p *player) freeFleetID() string {
	prefix := "G"
	if p.x == Allied {
		prefix = "A"
	}
	for n := 1; ; n++ {
		id := prefix + strconv.Itoa(n)
		if p.s.fleet(id) == nil {
			return id
		}
	}
}

// value is a unit's expected combat contribution.
func value(u *Unit) float64 {
	switch combatDie(u) {
	case 6:
		return 3.5 + float64(u.modifier())
	case 3:
		return 2 + float64(u.modifier())
	}
	if u.Type == "hq" || u.Type == "aa" {
		return 1
	}
	return 0
}

func (p *player) defence(area string, y engine.Side) float64 {
	t := 0.0
	for _, u := range p.s.combatIn(area, y) {
		t += value(u)
	}
	a := data.Area(area)
	if a.City > 0 && p.s.controller(area) == y {
		t += float64(a.City)
	}
	if sp := p.s.strongpoint(area); sp != nil && sp.Owner == y && sp.Usable {
		t += 2
	}
	return t
}

func (p *player) mobile(u *Unit) bool {
	return !p.committed[u.ID] && data.Graph.Has(u.Loc) && u.Fleet == "" && u.Type != "para" && u.Type != "supply" && u.Blast == 0 && !p.ctx.moved[u.ID] && u.Move > 0
}

// pathTo is the shortest land path from a unit's area to a target.
func pathTo(from, to string) []string {
	path, ok := data.Graph.ShortestPath(from, to, func(e engine.Edge) (int, bool) {
		if e.To == "Sweden" {
			return 0, false
		}
		if e.Kind == "strait" {
			return 2, true
		}
		return 1, true
	})
	if !ok {
		return nil
	}
	return path.Areas[1:]
}

// advance moves a unit along the path to target as far as the rules allow;
// with stopShort it never enters an enemy-held area.
func (p *player) advance(u *Unit, target string, stopShort bool) bool {
	path := pathTo(u.Loc, target)
	for i, a := range path {
		if enemyIn(p.s, a, p.x) {
			if stopShort {
				path = path[:i]
			} else {
				path = path[:i+1]
			}
			break
		}
	}
	for n := len(path); n >= 1; n-- {
		if p.try(fmt.Sprintf("move %s %s", u.ID, strings.Join(path[:n], " "))) {
			return true
		}
	}
	return false
}

// landPlan attacks enemy stacks it can beat and advances on objectives.
func (p *player) landPlan(objectives []string, margin float64) {
	s, x := p.s, p.x
	// Attacks: enemy areas adjacent to our units.
	var enemyAreas []string
	for _, a := range data.Areas {
		if enemyIn(s, a.Name, x) {
			enemyAreas = append(enemyAreas, a.Name)
		}
	}
	for _, e := range enemyAreas {
		p.attackArea(e, margin)
	}
	p.advanceOn(objectives)
}

// attackArea attacks enemy area e with the units in or next to it that
// are free to, when their strength beats the defence by margin (Oslo,
// which decides the sudden-death checks, needs none: 12.4), with bomber
// support.
func (p *player) attackArea(e string, margin float64) {
	var cands []*Unit
	str := 0.0
	for _, u := range p.own() {
		if !p.mobile(u) || u.OOS || (u.Loc != e && dist(u.Loc, e) > 1) {
			continue
		}
		if u.Loc != e && (p.lastGuard(u) || enemyIn(p.s, u.Loc, p.x)) {
			continue // hold a VP area, and fight where the enemy shares our area
		}
		cands = append(cands, u)
		p.committed[u.ID] = true // tentatively, so the garrison count sees it gone
		str += value(u)
	}
	m := margin
	if e == "Oslo" {
		m = 0 // the capital decides the sudden-death checks (12.4)
	}
	if len(cands) == 0 || str < p.defence(e, other(p.x))+m {
		for _, u := range cands {
			delete(p.committed, u.ID)
		}
		return
	}
	for _, u := range cands {
		if u.Loc != e {
			p.try(fmt.Sprintf("move %s %s", u.ID, e))
		}
	}
	for _, u := range cands {
		if u.Loc == e && !p.ctx.mustAttack[e] {
			p.try("attack " + e)
			break
		}
	}
	for _, u := range cands {
		p.committed[u.ID] = true
	}
	if sup := p.supportFor(e); sup != "" && (p.ctx.mustAttack[e] || p.ctx.attackAt[e] != nil) {
		p.try(sup)
	}
}

// advanceOn moves each free unit toward the nearest objective its side
// does not hold, stopping short of the enemy.
func (p *player) advanceOn(objectives []string) {
	s, x := p.s, p.x
	for _, u := range p.own() {
		if !p.mobile(u) || p.garrison(u) {
			continue
		}
		best, bd := "", 99
		for _, o := range objectives {
			if s.controller(o) == x && !enemyIn(s, o, x) {
				continue
			}
			if d := dist(u.Loc, o); d < bd {
				best, bd = o, d
			}
		}
		if best == "" || best == u.Loc {
			continue
		}
		p.advance(u, best, true)
	}
}

// threat is the enemy strength within two areas of a place.
func (p *player) threat(area string) float64 {
	t := 0.0
	for _, e := range p.s.Units {
		if e.Side != p.x && !e.Dead && e.Fleet == "" && data.Graph.Has(e.Loc) && dist(e.Loc, area) <= 2 {
			t += value(e)
		}
	}
	return t
}

// held is the own strength standing (not moving off) in an area.
func (p *player) held(area string) float64 {
	t := 0.0
	for _, w := range p.s.combatIn(area, p.x) {
		if !p.ctx.moved[w.ID] && !p.committed[w.ID] || w.Loc == area && p.ctx.moved[w.ID] {
			t += value(w)
		}
	}
	return t
}

// garrison keeps enough units in a held VP area to face the enemy near
// it: the last one always, more while the enemy nearby is stronger.
func (p *player) garrison(u *Unit) bool {
	if a := data.Area(u.Loc); a.VP > 0 && p.s.controller(u.Loc) == p.x && u.Type != "para" && combatDie(u) > 0 {
		near := 0.0
		for _, e := range p.s.Units {
			if e.Side != p.x && !e.Dead && e.Fleet == "" && data.Graph.Has(e.Loc) && dist(e.Loc, u.Loc) <= 1 {
				near += value(e)
			}
		}
		if p.held(u.Loc)-value(u) < near*0.5 && len(p.s.combatIn(u.Loc, other(p.x))) > 0 {
			return true
		}
	}
	return p.lastGuard(u)
}

// lastGuard keeps the last unit of a held VP area with the enemy near.
func (p *player) lastGuard(u *Unit) bool {
	a := data.Area(u.Loc)
	if a.VP == 0 || p.s.controller(u.Loc) != p.x {
		return false
	}
	if u.Type == "hq" || u.Type == "aa" || u.Type == "para" {
		return false
	}
	n := 0
	for _, w := range p.s.combatIn(u.Loc, p.x) {
		if !p.ctx.moved[w.ID] && combatDie(w) > 0 && w.Type != "para" && !p.committed[w.ID] {
			n++
		}
	}
	if n > 1 {
		return false
	}
	for _, e := range p.s.Units {
		if e.Side != p.x && !e.Dead && data.Graph.Has(e.Loc) && dist(e.Loc, u.Loc) <= 2 {
			return true
		}
	}
	return false
}

func (p *player) supportFor(area string) string {
	if p.ctx.airLeft("bomber") == 0 {
		return ""
	}
	return "air support " + area + " 1"
}

// german plays the German side's turn: the fleets, the convoys and
// decoys from Germany, naval attacks, the air phase, then the land phase
// on every VP location, the capital first (12.4).
func (p *player) german() {
	p.germanFleets()
	p.germanConvoys()
	p.germanDecoys()
	p.subsAndAttacks()
	p.germanAir()
	objectives := vpAreas()
	if p.s.controller("Oslo") != German {
		objectives = []string{"Oslo"}
	}
	p.landPlan(objectives, 1)
	p.makeRoom()
	p.retry()
	p.bombAndFighters()
	p.try("evade weaker")
	p.try("react on")
}

// vpAreas lists the VP locations, in map order.
func vpAreas() []string {
	var out []string
	for _, a := range data.Areas {
		if a.VP > 0 {
			out = append(out, a.Name)
		}
	}
	return out
}

// germanFleets orders each German fleet at sea or in port that has not
// moved yet.
func (p *player) germanFleets() {
	for _, f := range append([]*Fleet(nil), p.s.Fleets...) {
		if f.Side != German || p.ctx.fleetMoved[f.ID] {
			continue
		}
		p.germanFleet(f)
	}
}

// germanFleet sails fleet f toward its goal port and lands there, or
// idles it when it has none.
func (p *player) germanFleet(f *Fleet) {
	goal := p.germanFleetGoal(f)
	if goal == "" {
		p.idleFleet(f)
		return
	}
	gs := data.Area(goal).Sea
	if f.Failed && f.Where == goal {
		p.try("fleet " + f.ID + " to " + goal) // 9.16.1.2: try again
		return
	}
	if isBox(f.Where) && seaOf(f.Where) == gs {
		p.germanLanding(f, goal, gs)
		return
	}
	p.try("fleet " + f.ID + " to " + p.stepToward(f.Where, gs))
}

// germanFleetGoal is the port German fleet f makes for: its task force's
// goal, a grey port the Germans hold in its sea area, or for a convoy its
// first unit's goal (Oslo, or a South port the Germans hold, if that is
// lost).
func (p *player) germanFleetGoal(f *Fleet) string {
	s := p.s
	goal := f.Goal
	if goal == "" && len(f.Cargo) > 0 && isBox(f.Where) && seaOf(f.Where) != "South" {
		for _, q := range data.PortsOf(seaOf(f.Where)) {
			if data.Area(q).Port == "grey" && s.controller(q) == German {
				goal = q
			}
		}
	}
	if goal == "" && len(f.Cargo) > 0 {
		goal = "Oslo"
		if u := s.unit(f.Cargo[0]); u != nil && u.Goal != "" && s.controller(u.Goal) == German {
			goal = u.Goal
		}
		if goal != "Oslo" && (s.controller(goal) != German || enemyIn(s, goal, German)) {
			for _, q := range data.PortsOf("South") {
				if s.controller(q) == German && !enemyIn(s, q, German) {
					goal = q
					break
				}
			}
		}
	}
	return goal
}

// idleFleet moves a German fleet without a goal: a decoy wanders from box
// to box of its sea area (9.8); combat fleets return to Germany, where
// their points escort the next convoys.
func (p *player) idleFleet(f *Fleet) {
	if f.Combat+f.Transport == 0 && isBox(f.Where) {
		boxes := data.BoxesOf(seaOf(f.Where))
		for i, b := range boxes {
			if b == f.Where {
				p.try("fleet " + f.ID + " to " + boxes[(i+1)%len(boxes)])
			}
		}
		return
	}
	switch {
	case f.Where == Germany && f.Combat > 0:
		p.try("fleet " + f.ID + " to South-1")
	case isBox(f.Where) && seaOf(f.Where) == "South":
		p.try("fleet " + f.ID + " to Germany")
	case isBox(f.Where):
		p.try("fleet " + f.ID + " to South-1")
	}
}

// germanLanding enters goal, a port of sea area gs, from the invasion on
// or when the Germans hold it; a convoy that cannot takes another German
// port of the area with room (11.1.2), else it tries again later.
func (p *player) germanLanding(f *Fleet, goal, gs string) {
	s := p.s
	if s.Turn < 4 && s.controller(goal) != German {
		return
	}
	if p.try("fleet " + f.ID + " to " + goal) {
		return
	}
	if f.Goal == "" {
		alts := data.PortsOf(gs)
		sort.SliceStable(alts, func(i, j int) bool { return dist(alts[i], "Oslo") < dist(alts[j], "Oslo") })
		for _, q := range alts {
			if q != goal && s.controller(q) == German && !enemyIn(s, q, German) && p.try("fleet "+f.ID+" to "+q) {
				return
			}
		}
	}
	p.later = append(p.later, "fleet "+f.ID+" to "+goal)
}

// germanConvoys sends the reinforcements by sea: what air transport will
// not carry, one convoy for each destination.
func (p *player) germanConvoys() {
	goals, byGoal, loads := p.germanCargo()
	for _, g := range goals {
		p.germanConvoy(byGoal[g], loads[g], len(goals) > 1)
	}
}

// germanCargo groups the units waiting in Germany by destination (their
// goal while the Germans hold it, else Oslo), up to 8 transport points
// each, leaving out infantry for Oslo while air transports are left from
// turn 6. It returns the destinations sorted.
func (p *player) germanCargo() (goals []string, byGoal map[string][]string, loads map[string]int) {
	s, t := p.s, p.s.Turn
	air := 0
	if t >= 6 {
		air = p.ctx.airLeft("transport")
	}
	byGoal = map[string][]string{}
	loads = map[string]int{}
	for _, u := range p.own() {
		if u.Loc != Germany || u.Entry > t || u.Type == "para" || u.Type == "supply" {
			continue
		}
		g := u.Goal
		if g == "" || s.controller(g) != German {
			g = "Oslo"
		}
		if (u.Type == "inf" || u.Type == "mtn") && air > 0 && g == "Oslo" {
			air--
			continue
		}
		if loads[g]+cargoCost(u) > 8 {
			continue
		}
		if byGoal[g] == nil {
			goals = append(goals, g)
		}
		byGoal[g] = append(byGoal[g], u.ID)
		loads[g] += cargoCost(u)
	}
	sort.Strings(goals)
	return goals, byGoal, loads
}

// germanConvoy forms one convoy from Germany with cargo (load transport
// points) topped up with supplies, escorted by up to 12 combat points (6
// when several convoys sail), to a South box free of the enemy.
func (p *player) germanConvoy(cargo []string, load int, several bool) {
	for _, u := range p.own() {
		if u.Loc == Germany && u.Type == "supply" && !p.ctx.moved[u.ID] && load+cargoCost(u) <= 8 && u.Fleet == "" {
			cargo = append(cargo, u.ID)
			load += cargoCost(u)
		}
	}
	pl := p.poolAt(Germany)
	if pl == nil || pl.Transport < load {
		return
	}
	tp := 8
	if pl.Transport < tp {
		tp = pl.Transport
	}
	esc := pl.Combat
	if esc > 12 {
		esc = 12
	}
	if esc > 6 && several {
		esc = 6
	}
	box := p.safeBox("South")
	if box == "" {
		return // the enemy's fleets hold every box: wait in port
	}
	line := fmt.Sprintf("fleet %s from Germany combat %d transport %d carry %s to %s", p.freeFleetID(), esc, tp, strings.Join(cargo, " "), box)
	if esc == 0 {
		line = fmt.Sprintf("fleet %s from Germany transport %d carry %s to %s", p.freeFleetID(), tp, strings.Join(cargo, " "), box)
	}
	if p.try(line) {
		p.convoyBox = box
	}
}

// germanDecoys sends decoys from Germany (9.8): to screen the convoys from
// the invasion on, and to the outer South boxes in the first turns.
func (p *player) germanDecoys() {
	t := p.s.Turn
	if t >= 4 {
		n := 0
		for _, b := range data.BoxesOf("South") {
			if b == p.convoyBox || n >= 3 {
				continue
			}
			if p.try(fmt.Sprintf("fleet %s from Germany decoys 1 to %s", p.freeFleetID(), b)) {
				n++
			}
		}
	}
	if t <= 2 {
		for _, b := range []string{"South-3", "South-4"} {
			p.try(fmt.Sprintf("fleet %s from Germany decoys 1 to %s", p.freeFleetID(), b))
		}
	}
}

// germanAir orders the German air phase: parachute drops on their goals
// from the invasion on (8.11), recon, and from turn 6 air transports of
// infantry to the airfields that need them most and of supplies to units
// out of supply (8.9.2).
func (p *player) germanAir() {
	t := p.s.Turn
	if t >= 4 {
		for _, u := range p.own() {
			if u.Type == "para" && u.Loc == ParaBox && u.Entry <= t && u.Goal != "" {
				p.try("air para " + u.ID + " " + u.Goal)
			}
		}
	}
	p.recon()
	if t < 6 {
		return
	}
	fields := p.germanFields()
	sort.SliceStable(fields, func(i, j int) bool { return p.need(fields[i]) > p.need(fields[j]) })
	for _, u := range p.own() {
		if u.Loc != Germany || u.Entry > t || (u.Type != "inf" && u.Type != "mtn") {
			continue
		}
		for _, f := range fields {
			if p.try(fmt.Sprintf("air transport %s to %s", u.ID, f)) {
				break
			}
		}
	}
	for _, u := range p.own() {
		if u.Loc == Germany && u.Type == "supply" {
			for _, f := range p.supplyFields() {
				if p.try(fmt.Sprintf("air transport %s to %s", u.ID, f)) {
					break
				}
			}
		}
	}
}

func (p *player) poolAt(port string) *Pool {
	for _, q := range p.s.Pools {
		if q.Side == p.x && q.Port == port && q.Nation != "norwegian" {
			return q
		}
	}
	return nil
}

// germanFields are German-held airfields a transport may reach, the most
// northerly first.
func (p *player) germanFields() []string {
	out := append([]string(nil), ownAirfields(p.s, German)...)
	sort.Slice(out, func(i, j int) bool { return data.Area(out[i]).Lat > data.Area(out[j]).Lat })
	// A threatened capital comes first (12.4).
	for _, n := range append([]string{"Oslo"}, data.Graph.Neighbors("Oslo")...) {
		if enemyIn(p.s, n, German) {
			for i, f := range out {
				if f == "Oslo" {
					out = append([]string{"Oslo"}, append(out[:i:i], out[i+1:]...)...)
					break
				}
			}
			break
		}
	}
	return out
}

// makeRoom moves units out of crowded German airfield areas into
// neighbouring German areas free of the enemy, so that the air transports
// waiting in Germany can land (11.1.2).
func (p *player) makeRoom() {
	waiting := 0
	for _, u := range p.own() {
		if u.Loc == Germany && u.Entry <= p.s.Turn && (u.Type == "inf" || u.Type == "mtn") {
			waiting++
		}
	}
	if waiting == 0 || p.s.Turn < 5 {
		return
	}
	for _, f := range p.germanFields() {
		var regs []*Unit
		for _, u := range p.s.combatIn(f, German) {
			if (u.Size == "reg" || u.Size == "bde") && p.mobile(u) {
				regs = append(regs, u)
			}
		}
		for i, u := range regs {
			if i == 0 {
				continue // one regiment holds the airfield
			}
			for _, n := range data.Graph.Neighbors(f) {
				if n != "Sweden" && p.s.controller(n) == German && !enemyIn(p.s, n, German) && p.try("move "+u.ID+" "+n) {
					break
				}
			}
		}
	}
}

// need is how badly a German airfield area's neighbourhood needs troops:
// the enemy strength near the German-held VP locations within an area of
// it, less the German strength there.
func (p *player) need(field string) float64 {
	n := 0.0
	for _, a := range data.Areas {
		if a.VP > 0 && p.s.controller(a.Name) == German && dist(a.Name, field) <= 1 {
			n += p.threat(a.Name) - p.held(a.Name)
		}
	}
	if field == "Oslo" {
		n += 2
	}
	return n
}

// supplyFields are airfields near German units out of supply.
func (p *player) supplyFields() []string {
	var out []string
	for _, f := range p.germanFields() {
		for _, u := range p.own() {
			if u.OOS && dist(u.Loc, f) <= 2 {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

func (p *player) stepToward(from, goalSea string) string {
	cur := seaOf(from)
	if from == UK {
		return data.BoxesOf(goalSea)[1]
	}
	idx := func(s string) int {
		for i, x := range seaAreas {
			if x == s {
				return i
			}
		}
		return 0
	}
	next := cur
	if !isBox(from) {
		next = homeSeas(from)[0]
	} else if idx(goalSea) > idx(cur) {
		next = seaAreas[idx(cur)+1]
	} else if idx(goalSea) < idx(cur) {
		next = seaAreas[idx(cur)-1]
	}
	return data.BoxesOf(next)[1]
}

func (p *player) subsAndAttacks() {
	s := p.s
	var boxes []string
	for _, f := range s.Fleets {
		if f.Side != p.x && !f.Detected && isBox(f.Where) {
			mine := false
			for _, g := range s.Fleets {
				if g.Side == p.x && g.Where == f.Where && g.Combat > 0 {
					mine = true
				}
			}
			if mine {
				p.try(fmt.Sprintf("sub %s %s 1", f.Where, f.ID))
				boxes = append(boxes, f.Where)
			}
		}
	}
	for _, g := range append([]*Fleet(nil), s.Fleets...) {
		if g.Side != p.x || g.Combat == 0 || !isBox(g.Where) {
			continue
		}
		for _, e := range s.Fleets {
			if e.Side != p.x && e.Where == g.Where && (e.Detected || contains(boxes, e.Where)) && (!e.Detected || e.Combat < g.Combat) {
				if p.try(fmt.Sprintf("fleet %s attack %s", g.ID, e.ID)) {
					break
				}
			}
		}
	}
}

func (p *player) recon() {
	for _, f := range p.s.Fleets {
		if f.Side != p.x && !f.Detected && isBox(f.Where) {
			p.try(fmt.Sprintf("air recon %s %s 1", f.Where, f.ID))
		}
	}
}

func (p *player) bombAndFighters() {
	s := p.s
	if s.Turn >= 4 {
		for _, f := range s.Fleets {
			if f.Side != p.x && f.Detected && isBox(f.Where) {
				p.try(fmt.Sprintf("air bomb %s %s 1", f.Where, f.ID))
			}
		}
		for _, u := range s.Units {
			if u.Side == p.x || u.Dead || !data.Graph.Has(u.Loc) || p.ctx.airLeft("bomber") == 0 {
				continue
			}
			near := false
			for _, w := range p.own() {
				if data.Graph.Has(w.Loc) && dist(w.Loc, u.Loc) <= 1 {
					near = true
				}
			}
			if near {
				p.try(fmt.Sprintf("air bomb %s %s 1", u.Loc, u.ID))
			}
		}
		areas := make([]string, 0)
		for a := range p.ctx.mustAttack {
			areas = append(areas, a)
		}
		sort.Strings(areas)
		for _, a := range areas {
			p.try("air patrol " + a + " 1")
		}
	}
	if n := p.ctx.airLeft("fighter"); n > 0 {
		p.try(fmt.Sprintf("keep fighters %d", n))
	}
}

// allied plays the Allied side's turn: troop convoys from the UK, convoys
// at sea to their ports, combat fleets hunting, naval attacks and recon,
// then after the invasion the land phase on every VP location.
func (p *player) allied() {
	p.alliedConvoys()
	p.alliedConvoysAtSea()
	p.alliedHunt()
	p.subsAndAttacks()
	p.recon()
	objectives := vpAreas()
	if p.s.Invaded {
		p.landPlan(objectives, 3)
	}
	p.retry()
	p.bombAndFighters()
	p.try("evade weaker")
	p.try("react on")
}

// alliedConvoys forms the troop convoys from the UK, one for each landing
// port the units waiting there make for, once Norway is invaded.
func (p *player) alliedConvoys() {
	s, t := p.s, p.s.Turn
	byGoal := map[string][]string{}
	var goals []string
	for _, u := range p.own() {
		if u.Loc == UK && u.Entry <= t && u.Goal != "" {
			if byGoal[u.Goal] == nil {
				goals = append(goals, u.Goal)
			}
			byGoal[u.Goal] = append(byGoal[u.Goal], u.ID)
		}
	}
	sort.Strings(goals)
	for _, g := range goals {
		var cargo []string
		load := 0
		for _, id := range byGoal[g] {
			c := cargoCost(s.unit(id))
			if load+c <= 8 {
				cargo = append(cargo, id)
				load += c
			}
		}
		pl := p.poolAt(UK)
		if pl == nil || pl.Transport < load || !s.Invaded {
			continue
		}
		p.alliedConvoy(pl, g, cargo, load)
	}
}

// alliedConvoy sails cargo (load transport points) from the UK toward
// goal's sea area, escorted by 4 combat points and from turn 5 a carrier
// for air cover (9.12) when the pool has them.
func (p *player) alliedConvoy(pl *Pool, goal string, cargo []string, load int) {
	esc := 0
	if pl.Combat >= 4 {
		esc = 4
	}
	box := data.BoxesOf(data.Area(goal).Sea)[2]
	car := ""
	if pl.Carriers > 0 && esc > 0 && p.s.Turn > 4 {
		car = " carriers 1" // air cover for the landing (9.12)
	}
	line := fmt.Sprintf("fleet %s from UK combat %d transport %d%s carry %s to %s", p.freeFleetID(), esc, load, car, strings.Join(cargo, " "), box)
	if !p.try(line) && esc > 0 {
		p.try(fmt.Sprintf("fleet %s from UK transport %d carry %s to %s", p.freeFleetID(), load, strings.Join(cargo, " "), box))
	}
}

// alliedConvoysAtSea sails the Allied convoys at sea into their goal port,
// or another red port of their sea area, or tries again later.
func (p *player) alliedConvoysAtSea() {
	s := p.s
	for _, f := range append([]*Fleet(nil), s.Fleets...) {
		if f.Side != Allied || p.ctx.fleetMoved[f.ID] || len(f.Cargo) == 0 || !isBox(f.Where) {
			continue
		}
		goal := s.unit(f.Cargo[0]).Goal
		ports := []string{goal}
		for _, q := range data.PortsOf(seaOf(f.Where)) {
			if q != goal && data.Area(q).Port == "red" {
				ports = append(ports, q)
			}
		}
		for _, q := range ports {
			if q != "" && p.try("fleet "+f.ID+" to "+q) {
				break
			}
		}
		if !p.ctx.fleetMoved[f.ID] && goal != "" {
			p.later = append(p.later, "fleet "+f.ID+" to "+goal)
		}
	}
}

// alliedHunt sends the Allied combat fleets without cargo after weaker
// detected German fleets.
func (p *player) alliedHunt() {
	s := p.s
	for _, f := range append([]*Fleet(nil), s.Fleets...) {
		if f.Side != Allied || p.ctx.fleetMoved[f.ID] || f.Combat == 0 || len(f.Cargo) > 0 || !isBox(f.Where) {
			continue
		}
		for _, e := range s.Fleets {
			if e.Side == German && e.Detected && isBox(e.Where) && e.Where != f.Where && e.Combat < f.Combat {
				if p.try("fleet " + f.ID + " to " + e.Where) {
					break
				}
			}
		}
	}
}

// answer is the scripted player's decision in a short phase, from its View:
// evade a stronger attacker, fight on against a weaker enemy, react with
// its strongest fleet when that is stronger than the enemy, and intercept
// as the standing procedure does.
func answer(v *View) []string {
	q := v.Ask
	combat := func(id string) int {
		for _, f := range v.Fleets {
			if f.ID == id {
				return f.Combat
			}
		}
		return 0
	}
	switch q.Kind {
	case AskLosses:
		return lossAnswer(v, q)
	case AskEvasion:
		if q.Own < q.Them {
			return []string{"evade"}
		}
		return []string{"fight"}
	case AskContinue:
		if q.Own > q.Them {
			return []string{"fight on"}
		}
		return []string{"break off"}
	case AskReact:
		best := ""
		for _, id := range q.Fleets {
			if best == "" || combat(id) > combat(best) {
				best = id
			}
		}
		if best != "" && combat(best) > combat(q.Enemy) {
			return []string{"attack with " + best}
		}
		return []string{"pass"}
	}
	return interceptPlan(q.Keep, q.Raids)
}

// lossAnswer distributes combat losses from the View (10.5.6): each step
// to the beaten unit with the most steps left, the elimination to the
// one with the lowest modifier as it will then stand.
func lossAnswer(v *View, q *Question) []string {
	var live []*Unit
	for _, lu := range q.Losses {
		for _, u := range v.Units {
			if u.ID == lu.ID && u.Side == q.Side {
				w := *u
				w.Steps = lu.Steps
				live = append(live, &w)
			}
		}
	}
	return planLosses(live, q.Steps, q.Elim, nil)
}
