package kriegsmarine

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// PlanGroup is one task group of the German Historical Plan (PAC #1, 3.21):
// its ships, the entry arrow it uses and its destination. Source:
// reconstructed — the plan card is not transcribed; the groups are those of
// Operation Weserübung (Narvik, Trondheim, Bergen, Kristiansand, Oslo) and
// the battlecruisers covering the Narvik group.
type PlanGroup struct {
	Name  string
	Units []string
	Arrow string
	Port  string // destination port, or "" for Station
	// Station is a sea hex to hold when Port is "".
	Station string
}

// HistoricalPlan is the German Historical Plan used by the scripted German
// player on the invasion objective.
var HistoricalPlan = []PlanGroup{
	{Name: "Group 1 (Narvik)", Units: []string{"ddfloti", "ddflotii"}, Arrow: "A12", Port: "Narvik"},
	{Name: "Covering force", Units: []string{"scharnhorst", "gneisenau", "bismarck", "grafzeppelin"}, Arrow: "A12", Station: "X11"},
	{Name: "Group 2 (Trondheim)", Units: []string{"hipper", "ddflotiii"}, Arrow: "A13", Port: "Trondheim"},
	{Name: "Group 3 (Bergen)", Units: []string{"koln", "konigsberg", "tbfloti", "sboatfloti"}, Arrow: "A14", Port: "Bergen"},
	{Name: "Group 4 (Kristiansand)", Units: []string{"karlsruhe", "tbflotii", "sboatflotii", "tsingtau"}, Arrow: "A15", Port: "Kristiansand"},
	{Name: "Group 5 (Oslo)", Units: []string{"blucher", "lutzow", "emden", "tbflotiii"}, Arrow: "A17", Port: "Oslo"},
	{Name: "Group 6 (Stavanger)", Units: []string{"richardbeitzen", "brummer"}, Arrow: "A14", Port: "Stavanger"},
	{Name: "Oilers", Units: []string{"aonord", "aokattegat"}, Port: "Narvik"},
	{Name: "Oilers (Trondheim)", Units: []string{"aoskagerrak"}, Port: "Trondheim"},
}

// alliedStations are the sea areas the scripted Allied player watches when
// it has no fresh contact (reconstructed: the approaches to the Norwegian
// ports and the German entry arrows, outside Norwegian waters).
var alliedStations = []string{"K8", "F10", "P10", "X12", "H8", "C11", "M6", "T9"}

// Play implements engine.Player: legal orders for the open turn, made from
// the side's View only.
func (rules) Play(v *View, side engine.Side, dice engine.Dice) string {
	if v == nil || v.Over {
		return ""
	}
	var lines []string
	switch {
	case v.Decision != nil:
		lines = decisionPlay(v)
	case side == German:
		lines = germanPlay(v)
	default:
		lines = alliedPlay(v)
	}
	// Keep only lines the rules accept: drop each offending line and
	// check again, so that the result is always legal.
	for tries := 0; tries < 50; tries++ {
		_, errs := parseOrders(v, strings.Join(lines, "\n"))
		if len(errs) == 0 {
			break
		}
		bad := errs[0].Line - 1
		if bad < 0 || bad >= len(lines) {
			lines = nil
			break
		}
		lines[bad] = "# dropped: " + strings.ReplaceAll(lines[bad], "#", "")
	}
	return strings.Join(lines, "\n") + "\n"
}

type mover struct {
	v     *View
	lines []string
	done  map[string]bool
	// final is where each unit ordered to move ends (off the map: absent).
	final map[string]engine.Hex
	gone  map[string]bool
}

// finalHex is where a unit ends this turn, as ordered so far.
func (m *mover) finalHex(u UnitView) (engine.Hex, bool) {
	if m.gone[u.ID] {
		return engine.Hex{}, false
	}
	if h, ok := m.final[u.ID]; ok {
		return h, true
	}
	if u.Where != AtMap {
		return engine.Hex{}, false
	}
	h, err := engine.ParseHex(u.Hex)
	return h, err == nil
}

func (m *mover) record(ids []string, path []engine.Hex, off bool) {
	for _, id := range ids {
		switch {
		case off:
			m.gone[id] = true
		case len(path) > 0:
			m.final[id] = path[len(path)-1]
		}
	}
}

func (m *mover) unitHex(u *UnitView) engine.Hex {
	h, _ := engine.ParseHex(u.Hex)
	return h
}

// allowance is the smallest allowance of the units this turn, from where
// they are, not counting the strong wind's south bonus (15.2).
func (m *mover) allowance(ids []string) int {
	a := 99
	for _, id := range ids {
		u := m.v.unit(id)
		x := u.Allowance
		if x < a {
			a = x
		}
	}
	return a
}

func (m *mover) names(ids []string) string {
	var n []string
	for _, id := range ids {
		n = append(n, def(id).Name)
	}
	return strings.Join(n, ", ")
}

func (m *mover) stepOK(ids []string) func(a, b engine.Hex) bool {
	sub := true
	nation := ""
	for _, id := range ids {
		d := def(id)
		if !d.Sub() {
			sub = false
		}
		if nation == "" || d.Nation != "NO" {
			nation = d.Nation
		}
	}
	inner := moveOK(m.v.Side, nation, sub, m.v.Turn, m.v.Intervention)
	return func(a, b engine.Hex) bool {
		if isArrow(a) {
			r, _ := crossableFrom(sub, a, b)
			rr, _ := enterable(m.v.Side, nation, sub, b, m.v.Turn, m.v.Intervention)
			return r == "" && rr == ""
		}
		return inner(a, b)
	}
}

// moveTowards orders a group in one hex towards target; off leaves the map
// from target when it is reached with a point to spare.
func (m *mover) moveTowards(ids []string, target engine.Hex, off bool) {
	if len(ids) == 0 {
		return
	}
	start := m.unitHex(m.v.unit(ids[0]))
	allow := m.allowance(ids)
	path := shortestPath(start, target, m.stepOK(ids))
	if path == nil {
		// Unreachable: head for the nearest hex to it that can be reached.
		near, ok := snap(target, func(h engine.Hex) bool { return shortestPath(start, h, m.stepOK(ids)) != nil })
		if !ok {
			return
		}
		path = shortestPath(start, near, m.stepOK(ids))
		off = false
	}
	leave := false
	if len(path) > allow {
		path = path[:allow]
	} else if off && len(path)+1 <= allow && edge(target) {
		leave = true
	}
	path = m.supplyBudget(ids, path)
	for _, id := range ids {
		m.done[id] = true
	}
	if len(path) == 0 && !leave {
		return
	}
	line := "move " + m.names(ids)
	for _, h := range path {
		line += " " + h.String()
	}
	if leave {
		line += " off"
	}
	m.record(ids, path, leave)
	m.lines = append(m.lines, line)
}

// enterTowards orders held German ships in through an arrow towards target.
func (m *mover) enterTowards(ids []string, arrow engine.Hex, target engine.Hex, off bool) {
	cost, ok := TheMap().EntryCost(arrow)
	if !ok {
		return
	}
	allow := m.allowance(ids)
	remaining := cost
	for _, id := range ids {
		u := m.v.unit(id)
		if u.Arrow == arrow.String() && cost-u.Spent < remaining {
			remaining = cost - u.Spent
		}
		if u.Arrow != arrow.String() && u.Spent > 0 {
			remaining = cost
		}
	}
	for _, id := range ids {
		m.done[id] = true
	}
	// Units that spent different amounts enter separately.
	for _, id := range ids[1:] {
		if m.v.unit(id).Spent != m.v.unit(ids[0]).Spent {
			for _, x := range ids {
				m.enterTowards([]string{x}, arrow, target, off)
			}
			return
		}
	}
	if allow < remaining {
		m.lines = append(m.lines, fmt.Sprintf("enter %s %s", m.names(ids), arrow))
		m.record(ids, nil, true) // still off the map
		return
	}
	line := fmt.Sprintf("enter %s %s", m.names(ids), arrow)
	path := shortestPath(arrow, target, m.stepOK(ids))
	left := allow - remaining
	if len(path) > left {
		path = path[:left]
	}
	for _, h := range path {
		line += " " + h.String()
	}
	leave := off && len(path) > 0 && path[len(path)-1] == target && len(path)+1 <= left
	if leave {
		line += " off"
	}
	m.record(ids, append([]engine.Hex{arrow}, path...), leave)
	m.lines = append(m.lines, line)
}

// stacks groups the given units that are on the map by hex, in hex order.
func (m *mover) stacks(ids []string) [][]string {
	by := map[string][]string{}
	var keys []string
	for _, id := range ids {
		u := m.v.unit(id)
		if u == nil || u.Where != AtMap || m.done[id] {
			continue
		}
		if _, ok := by[u.Hex]; !ok {
			keys = append(keys, u.Hex)
		}
		by[u.Hex] = append(by[u.Hex], id)
	}
	sort.Strings(keys)
	var out [][]string
	for _, k := range keys {
		out = append(out, by[k])
	}
	return out
}

// trackedFirst moves the side's tracked groups as one (6.44): towards
// target(group).
func (m *mover) trackedFirst(target func(ids []string) (engine.Hex, bool)) {
	for _, t := range m.v.Tracked {
		var ids []string
		for _, id := range t.Units {
			if u := m.v.unit(id); u != nil && u.Where == AtMap && u.Hex == t.Hex && !u.Disabled && !u.Returning {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		if h, ok := target(ids); ok {
			m.moveTowards(ids, h, false)
		}
		for _, id := range ids {
			m.done[id] = true
		}
	}
	for _, t := range m.v.Tracking {
		for _, id := range t.Units {
			m.done[id] = true // trackers follow by themselves (6.44)
		}
	}
}

// newMover starts the scripted orders of side's player ("German" or
// "Allied") with their heading line.
func newMover(v *View, side string) *mover {
	m := &mover{v: v, done: map[string]bool{}, final: map[string]engine.Hex{}, gone: map[string]bool{}}
	m.lines = append(m.lines, fmt.Sprintf("# %s, %s orders by the scripted player", TurnTitle(v.Turn), side))
	return m
}

func germanPlay(v *View) []string {
	m := newMover(v, "German")
	aim := germanAim{v: v, raiding: v.Objective != nil && v.Objective.Result.Kind == ObjRaiding}
	m.trackedFirst(func(ids []string) (engine.Hex, bool) {
		from := m.unitHex(v.unit(ids[0]))
		h, _, ok := aim.destination(ids[0], from)
		return h, ok
	})
	m.enterHeld(aim)
	m.sailToDestinations(aim)
	recent := recentContacts(v, 2)
	m.closeWithUboats(recent)
	if v.DayTurn {
		m.rebaseBombersForward()
		m.germanAirSearches(recent)
		m.strikes()
	}
	m.germanSurfaceSearches(recent)
	if v.DayTurn && v.InvasionTurn > 0 {
		m.airborneLandings()
	}
	// 6.18: every designated raider out: victory in hand, end the game.
	if aim.raiding && raidersOut(v, v.Objective.Result.Raiders) {
		m.lines = append(m.lines, "end game")
	}
	m.lines = append(m.lines, "encounter all evade")
	for _, u := range v.Units {
		if u.Where == AtMap && !u.Sub && !u.Air && (u.Type == "BC" || u.Type == "BB") && !aim.raiding {
			m.lines = append(m.lines, "encounter "+u.Name+" fight")
		}
	}
	return m.lines
}

// germanAim is where the scripted German player sends its ships: the
// nearest exit when raiding (6.18), else each ship's Historical Plan
// group's port or station (3.21).
type germanAim struct {
	v       *View
	raiding bool
}

// nearestExit is the exit hex on the map's edge nearest to from.
func (a germanAim) nearestExit(from engine.Hex) (engine.Hex, bool) {
	best, bd := engine.Hex{}, -1
	for _, h := range TheMap().Grid().All() {
		if !edge(h) || !exitHex(a.v.rev(), h) || !TheMap().ShipCanEnter(h) {
			continue
		}
		if d := from.Distance(h); bd < 0 || d < bd {
			best, bd = h, d
		}
	}
	return best, bd >= 0
}

// planGroupOf is the Historical Plan group a unit sails with.
func planGroupOf(id string) (PlanGroup, bool) {
	for _, g := range HistoricalPlan {
		if contains(g.Units, id) {
			return g, true
		}
	}
	return PlanGroup{}, false
}

// destination is where unit id, now at from, is going; off says it leaves
// the map there.
func (a germanAim) destination(id string, from engine.Hex) (h engine.Hex, off, ok bool) {
	if a.raiding {
		h, ok := a.nearestExit(from)
		return h, true, ok
	}
	g, ok := planGroupOf(id)
	if !ok {
		return engine.Hex{}, false, false
	}
	if g.Port != "" {
		h, ok := portHex(g.Port)
		return h, false, ok
	}
	h, err := engine.ParseHex(g.Station)
	return h, false, err == nil
}

// enterHeld brings the held ships (and, after the invasion turn, the
// reserve) in by plan group, or all together through A12 when raiding.
func (m *mover) enterHeld(aim germanAim) {
	v := m.v
	held := map[string][]string{}
	var keys []string
	for _, u := range v.Units {
		if m.done[u.ID] || u.Air || !waitingToEnter(v, u) {
			continue
		}
		key := "raid"
		arrow := "A12"
		if !aim.raiding {
			g, ok := planGroupOf(u.ID)
			if !ok {
				continue
			}
			key, arrow = g.Name, g.Arrow
		}
		if _, ok := held[key]; !ok {
			keys = append(keys, key+"|"+arrow)
		}
		held[key] = append(held[key], u.ID)
	}
	for _, k := range keys {
		key, arrowName, _ := strings.Cut(k, "|")
		ids := held[key]
		arrow, _ := engine.ParseHex(arrowName)
		target, off, ok := aim.destination(ids[0], arrow)
		if !ok {
			continue
		}
		m.enterTowards(ids, arrow, target, off)
	}
}

// waitingToEnter reports whether a German ship is off the map waiting to
// come on: held, or in reserve once the invasion turn is past.
func waitingToEnter(v *View, u UnitView) bool {
	return u.Where == AtHeld || (u.Where == AtReserve && v.InvasionTurn > 0 && v.Turn > v.InvasionTurn)
}

// sailToDestinations moves the German surface ships on the map, stack by
// stack, each towards its destination.
func (m *mover) sailToDestinations(aim germanAim) {
	v := m.v
	var onMap []string
	for _, u := range v.Units {
		if u.Where == AtMap && !u.Air && !u.Sub && !m.done[u.ID] && !u.Disabled {
			onMap = append(onMap, u.ID)
		}
	}
	for _, st := range m.stacks(onMap) {
		byDest := map[engine.Hex][]string{}
		var order []engine.Hex
		offs := map[engine.Hex]bool{}
		for _, id := range st {
			from := m.unitHex(v.unit(id))
			h, off, ok := aim.destination(id, from)
			if !ok || h == from && !off {
				continue
			}
			if _, seen := byDest[h]; !seen {
				order = append(order, h)
			}
			byDest[h] = append(byDest[h], id)
			offs[h] = off
		}
		for _, h := range order {
			m.moveTowards(byDest[h], h, offs[h])
		}
	}
}

// closeWithUboats: U-boats close on Allied ships reported nearby, to
// attack by day (8.1).
func (m *mover) closeWithUboats(recent []engine.Hex) {
	for _, u := range m.v.Units {
		if !u.Sub || u.Where != AtMap || m.done[u.ID] {
			continue
		}
		from := m.unitHex(&u)
		for _, c := range recent {
			if d := from.Distance(c); d > 0 && d <= 4 {
				m.moveTowards([]string{u.ID}, c, false)
				break
			}
		}
	}
}

// rebaseBombersForward: the bombers move up to Norwegian airfields Germany
// holds (6.21, 9.61), one to each airfield a turn.
func (m *mover) rebaseBombersForward() {
	v := m.v
	for _, o := range v.Occupied {
		if o.Kind != "airfield" || v.Turn < o.Usable {
			continue
		}
		p := &parser{v: v, o: &Orders{}}
		for _, u := range v.Units {
			if u.Air && u.Where == AtBase && u.Base == "German area" && !u.Used && !m.done[u.ID] && (u.Type == "B" || u.Type == "DB") {
				if msg, _ := p.checkRebase(u.ID, o.Place); msg == "" {
					m.lines = append(m.lines, "rebase "+u.Name+" to "+o.Place)
					m.done[u.ID] = true
					break
				}
			}
		}
	}
}

// germanAirSearches: air searches by day where Allied ships were last
// reported, then towards Scapa Flow, three in all.
func (m *mover) germanAirSearches(recent []engine.Hex) {
	n := 0
	for _, c := range recent {
		if n < 3 {
			m.lines = append(m.lines, "search air "+c.String())
			n++
		}
	}
	for _, s := range []string{"H5", "K7", "F6"} {
		if n < 3 && !containsHex(recent, s) {
			m.lines = append(m.lines, "search air "+s)
			n++
		}
	}
}

// germanSurfaceSearches: a surface search only where an enemy was seen,
// and by every U-boat by day; one a hex.
func (m *mover) germanSurfaceSearches(recent []engine.Hex) {
	v := m.v
	searched := map[string]bool{}
	for _, u := range v.Units {
		final, ok := m.finalHex(u)
		if !ok || u.Air || searched[final.String()] {
			continue
		}
		if u.Sub && !v.DayTurn {
			continue
		}
		if containsHex(recent, final.String()) || (u.Sub && v.DayTurn) {
			searched[final.String()] = true
			m.lines = append(m.lines, "search surface "+u.Name)
		}
	}
}

// airborneLandings: the airborne troops go for the snow-free airfields
// (6.28), skipping those taken already or held by Norwegian fighters
// (17.13).
func (m *mover) airborneLandings() {
	v := m.v
	targets := []string{"Sola", "Fornebu", "Kjevik"}
	k := 0
	for _, u := range v.Units {
		if u.Type != "AB" || u.Where != AtBase {
			continue
		}
		for k < len(targets) && (usableByGermany(v, targets[k]) || (contains(v.Options, OptNorFighters) && targets[k] == "Fornebu")) {
			k++ // taken already, or Norwegian fighters there (17.13)
		}
		if k < len(targets) {
			m.lines = append(m.lines, "airborne "+u.Name+" "+targets[k])
			k++
		}
	}
}

// raidersOut reports whether every designated raider has broken out (6.18).
func raidersOut(v *View, raiders []string) bool {
	out := len(raiders) > 0
	for _, id := range raiders {
		if u := v.unit(id); u == nil || u.Where != AtBrokeOut {
			out = false
		}
	}
	return out
}

func containsHex(list []engine.Hex, s string) bool {
	for _, h := range list {
		if h.String() == s {
			return true
		}
	}
	return false
}

// recentContacts lists the hexes where enemy ships were reported in the
// last n turns, newest first, without repeats.
func recentContacts(v *View, n int) []engine.Hex {
	var out []engine.Hex
	seen := map[string]bool{}
	for i := len(v.Reports) - 1; i >= 0; i-- {
		e := v.Reports[i]
		if e.Turn < v.Turn-n {
			break
		}
		switch e.Kind {
		case "search", "passive", "tracking", "encounter":
		default:
			continue
		}
		if e.Hex == "" || e.Count == 0 || seen[e.Hex] {
			continue
		}
		if h, ok := onMapHex(e.Hex); ok {
			seen[e.Hex] = true
			out = append(out, h)
		}
	}
	return out
}

func alliedPlay(v *View) []string {
	m := newMover(v, "Allied")
	recent := recentContacts(v, 1)
	m.trackedFirst(func(ids []string) (engine.Hex, bool) {
		h, err := engine.ParseHex(alliedStations[0])
		return h, err == nil
	})
	m.convoyWest()
	m.minelayersHome()
	m.carryWilfredForce()
	m.huntContacts(recent)
	if v.DayTurn {
		m.alliedAirSearches()
		m.strikes()
	}
	m.alliedSurfaceSearches()
	m.lines = append(m.lines, "encounter all track")
	for _, u := range v.Units {
		if u.Where == AtMap && (u.Type == "BB" || u.Type == "BC") {
			m.lines = append(m.lines, "encounter "+u.Name+" fight")
		}
	}
	return m.lines
}

// convoyWest: the HN25 convoy and its escort make for the west edge
// (14.1); while the escort is tracking or tracked, the convoy waits.
func (m *mover) convoyWest() {
	v := m.v
	c := v.unit("hn25")
	if c == nil || c.Where != AtMap || m.done["hn25"] || c.Disabled {
		return
	}
	ids := []string{"hn25"}
	busy := false
	if e := v.unit(v.ConvoyEscort); e != nil && e.Where == AtMap && e.Hex == c.Hex && !e.Disabled && !e.Returning {
		if m.done[e.ID] {
			busy = true // the escort is tracking or tracked: the convoy waits with it
		}
		ids = append(ids, e.ID)
	}
	if busy {
		m.done["hn25"] = true
	}
	from := m.unitHex(c)
	best, bd := engine.Hex{}, -1
	for r := 7; r <= 11; r++ {
		h := engine.Hex{Row: r, Col: 1}
		if TheMap().ShipCanEnter(h) && (bd < 0 || from.Distance(h) < bd) {
			best, bd = h, from.Distance(h)
		}
	}
	if bd >= 0 && !busy {
		m.moveTowards(ids, best, true)
	}
}

// minelayersHome: the Vestfjord minelayers and their destroyers go home to
// Scapa Flow and wait there until the evening of 9 April (16.41).
func (m *mover) minelayersHome() {
	v := m.v
	scapa, _ := portHex("Scapa Flow")
	for _, id := range []string{"mlflot20", "ddflot12"} {
		u := v.unit(id)
		if u == nil || u.Where != AtMap || m.done[id] || u.Disabled || u.Returning || v.Turn > 10 {
			continue
		}
		if u.Hex == scapa.String() {
			m.done[id] = true // wait there until the evening of 9 April
			continue
		}
		m.moveTowards([]string{id}, scapa, false)
	}
}

// carryWilfredForce: the 4th Echelon carries the Wilfred Force to a
// Norwegian port Germany does not hold, once Allied ships may enter
// Norwegian waters (11.1).
func (m *mover) carryWilfredForce() {
	v := m.v
	if v.Wilfred == nil || v.Wilfred.Status != "aboard" {
		return
	}
	var ids []string
	for _, id := range FourthEchelon {
		if u := v.unit(id); u != nil && u.Where == AtMap && !u.Disabled && !u.Returning && !m.done[id] {
			ids = append(ids, id)
		}
	}
	if len(ids) > 0 && v.Intervention > 0 && v.Turn >= v.Intervention {
		if best, ok := nearestFreePort(v, m.unitHex(v.unit(ids[0]))); ok {
			m.moveTowards(ids, best, false)
		}
	}
	for _, id := range ids {
		m.done[id] = true
	}
}

// nearestFreePort is the Norwegian port nearest to from that Germany has
// neither taken nor is taking.
func nearestFreePort(v *View, from engine.Hex) (engine.Hex, bool) {
	best, bd := engine.Hex{}, -1
	for _, p := range norwegianPorts() {
		held := false
		for _, o := range v.Occupied {
			if o.Place == p.Port && (o.Kind == "port" || o.Kind == "pending") {
				held = true
			}
		}
		if !held && (bd < 0 || from.Distance(p.Hex) < bd) {
			best, bd = p.Hex, from.Distance(p.Hex)
		}
	}
	return best, bd >= 0
}

// huntContacts sends the Allied ships on the map after the recent
// contacts: each stack goes for the nearest contact no other stack has
// taken, so that the fleet spreads over the contacts it has; a stack with
// none watches a station.
func (m *mover) huntContacts(recent []engine.Hex) {
	v := m.v
	var ships []string
	for _, u := range v.Units {
		if u.Where == AtMap && !u.Air && !m.done[u.ID] && u.Nation != "NO" && u.Nation != "DK" && !u.Returning && !u.Disabled {
			ships = append(ships, u.ID)
		}
	}
	claimed := map[engine.Hex]bool{}
	for i, st := range m.stacks(ships) {
		from := m.unitHex(v.unit(st[0]))
		target, found := nearestUnclaimed(from, recent, claimed)
		if found {
			claimed[target] = true
		} else {
			target, _ = engine.ParseHex(alliedStations[(i+v.Turn/5)%len(alliedStations)])
		}
		target = offFortressGuns(v, target)
		if target == from {
			continue
		}
		// Surface ships and submarines move separately (6.19).
		var surf, subs []string
		for _, id := range st {
			if def(id).Sub() {
				subs = append(subs, id)
			} else {
				surf = append(surf, id)
			}
		}
		m.moveTowards(surf, target, false)
		if len(subs) > 0 && found {
			m.moveTowards(subs, target, false)
		}
	}
}

// nearestUnclaimed is the contact within 14 hexes of from that is nearest
// and not yet claimed.
func nearestUnclaimed(from engine.Hex, recent []engine.Hex, claimed map[engine.Hex]bool) (engine.Hex, bool) {
	var target engine.Hex
	best := -1
	for _, c := range recent {
		if d := from.Distance(c); d <= 14 && !claimed[c] && (best < 0 || d < best) {
			target, best = c, d
		}
	}
	return target, best >= 0
}

// offFortressGuns keeps out of the guns of German-held fortresses (9.2):
// a target under them becomes the nearest open sea hex off the port.
func offFortressGuns(v *View, target engine.Hex) engine.Hex {
	if hostileFort(v, target) {
		if near, ok := snap(target, func(h engine.Hex) bool {
			return h != target && !hostileFort(v, h) && TheMap().ShipCanEnter(h) && !portOrFjord(h)
		}); ok {
			return near
		}
	}
	return target
}

// alliedAirSearches: three air searches by day, around the contacts of the
// last three turns first, then along the patrol line.
func (m *mover) alliedAirSearches() {
	v := m.v
	n := 0
	for _, c := range recentContacts(v, 3) {
		for _, x := range hexAndNeighbors(c) {
			if n < 3 && TheMap().Grid().Contains(x) && TheMap().ShipCanEnter(x) {
				m.lines = append(m.lines, "search air "+x.String())
				n++
			}
		}
	}
	patrol := []string{"E11", "J9", "P11", "G10", "M10", "C13", "U12", "L9"}
	for k := 0; n < 3 && k < len(patrol); k++ {
		m.lines = append(m.lines, "search air "+patrol[(k+v.Turn)%len(patrol)])
		n++
	}
}

// alliedSurfaceSearches: a surface search from every hex where Allied
// ships end the turn (submarines by day only), one a hex.
func (m *mover) alliedSurfaceSearches() {
	v := m.v
	searched := map[string]bool{}
	for _, u := range v.Units {
		if u.Air || (u.Sub && !v.DayTurn) {
			continue
		}
		fh, ok := m.finalHex(u)
		if !ok {
			continue
		}
		final := fh.String()
		if searched[final] {
			continue
		}
		searched[final] = true
		m.lines = append(m.lines, "search surface "+u.Name)
	}
}

// OrderForm implements engine.OrderFormer: a commented order form for the
// side's next orders, listing its units and what it may do.
func (rules) OrderForm(v *View, side engine.Side) string {
	if v == nil {
		return ""
	}
	var b strings.Builder
	if v.Over {
		fmt.Fprintf(&b, "# The game is over; no orders are owed.\n")
		return b.String()
	}
	if q := v.Decision; q != nil {
		fmt.Fprintf(&b, "# %s.\n", v.Title)
		for _, l := range strings.Split(strings.TrimRight(describeQuestion(v, q), "\n"), "\n") {
			fmt.Fprintf(&b, "# %s\n", l)
		}
		b.WriteString("# \"standing\" keeps what your turn orders said.\n\n")
		if q.Kind == DecideEncounter {
			fmt.Fprintf(&b, "%s\n", q.DefaultChoice)
		} else {
			b.WriteString("standing\n")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "# %s. %s.", v.Title, weatherNote(v))
	if v.DayTurn {
		b.WriteString(" Day turn: up to 3 air searches (6.32).\n")
	} else {
		b.WriteString(" Night turn: surface searches only, none by submarines (6.35).\n")
	}
	if v.InvasionTurn > 0 {
		fmt.Fprintf(&b, "# Germany invaded Norway on turn %d; Allied intervention from turn %d (9.1).\n", v.InvasionTurn, v.Intervention)
	} else {
		b.WriteString("# Norway is neutral: Allied ships stay out of Norwegian coastal hexes (6.15).\n")
	}
	b.WriteString("# One order a line; " + engine.GuidePointer + ".\n")
	b.WriteString(Verbs.Summary(PhaseTurn, side, int(v.rev())))
	for _, t := range v.Tracking {
		fmt.Fprintf(&b, "# You track %s at %s with %s; they follow by themselves (6.44).\n", countTypes(t.Enemy), t.Hex, strings.Join(t.Units, ", "))
	}
	for _, t := range v.Tracked {
		fmt.Fprintf(&b, "# Your group at %s (%s) is tracked: it moves together (6.44).\n", t.Hex, strings.Join(t.Units, ", "))
	}
	b.WriteString("#\n# Your units:\n")
	for _, u := range v.Units {
		switch u.Where {
		case AtMap:
			fmt.Fprintf(&b, "#   %-22s %-4s at %-5s speed %s, %s\n", u.Name, u.Type, u.Hex, u.Speed, unitNow(u))
		case AtHeld:
			extra := ""
			if u.Spent > 0 {
				extra = fmt.Sprintf(", %d spent towards %s", u.Spent, u.Arrow)
			}
			fmt.Fprintf(&b, "#   %-22s %-4s in the German area, %s%s\n", u.Name, u.Type, unitNow(u), extra)
		case AtBase:
			used := ""
			if u.Used {
				used = " (face down)"
			}
			fmt.Fprintf(&b, "#   %-22s %-4s at %s, radius %d%s\n", u.Name, u.Type, baseName(u.Base), u.Radius, used)
		case AtWaiting:
			fmt.Fprintf(&b, "#   %-22s %-4s arrives turn %d at %s\n", u.Name, u.Type, u.Arrive, u.ArriveAt)
		}
	}
	b.WriteString("\n")
	if side == Allied {
		b.WriteString("encounter all track\n")
	} else {
		b.WriteString("encounter all evade\n")
	}
	return b.String()
}

// weatherNote says the weather for a report: the level, or, from rules
// revision 2, that the optional weather rules are not in this game (15.0:
// "they may choose not to use the weather rules"), rather than a gale
// that changes nothing.
func weatherNote(v *View) string {
	if !v.WeatherOn && v.rev().Has(NoWeatherNote) {
		return "No weather rules in this game (15.0 is optional)"
	}
	return "Weather: " + v.Weather
}

// unitNow says what a ship can do this turn, as its View has it: its
// movement allowance after damage and weather (6.12, 15.0-15.3) and its
// gunnery after damage (8.62-8.662).
func unitNow(u UnitView) string {
	out := fmt.Sprintf("allowance %d", u.Allowance)
	if u.Idle {
		out = "may not move yet (6.15)"
	}
	if u.AllowanceSouth > 0 {
		out += fmt.Sprintf(" (%d moving south, 15.2)", u.AllowanceSouth)
	}
	if !u.Sub {
		out += fmt.Sprintf(", gunnery %d", u.Gunnery)
	}
	return out
}

func hexAndNeighbors(h engine.Hex) []engine.Hex {
	n := h.Neighbors()
	return append([]engine.Hex{h}, n[:]...)
}

// strikes orders every ready bomber at the first of the searched hexes in
// its radius: a standing order, flown only if the search finds ships there
// (8.5).
func (m *mover) strikes() {
	var hexes []engine.Hex
	for _, l := range m.lines {
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == "search" && f[1] == "air" {
			if h, ok := onMapHex(f[2]); ok {
				hexes = append(hexes, h)
			}
		}
	}
	p := &parser{v: m.v, o: &Orders{}}
	for _, u := range m.v.Units {
		if !u.Air || u.Where != AtBase || u.Used || m.done[u.ID] || (u.Struck != 0 && u.Struck >= m.v.Turn-1) {
			continue
		}
		if u.Type != "B" && u.Type != "DB" && u.Type != "T" {
			continue
		}
		for i, h := range hexes {
			if d, ok := p.airDistance(u.ID, h); ok && d <= u.Radius {
				m.lines = append(m.lines, "strike "+u.Name+" "+h.String())
				hexes = append(hexes[i+1:], hexes[:i+1]...)
				break
			}
		}
	}
}

// hostileFort reports whether h holds a fortress Germany holds (9.2).
func hostileFort(v *View, h engine.Hex) bool {
	hi, ok := TheMap().Info(h)
	if !ok || hi.Fortress == "" {
		return false
	}
	port := fortressPort(hi)
	for _, o := range v.Occupied {
		if o.Kind == "port" && o.Place == port {
			return true
		}
	}
	return false
}

// supplyBudget cuts a path so that no ship of the group steams past the
// 14 hexes north of row S it may go without supply (13.3).
func (m *mover) supplyBudget(ids []string, path []engine.Hex) []engine.Hex {
	if !contains(m.v.Options, OptSupply) {
		return path
	}
	budget := 99
	for _, id := range ids {
		if needsSupply(def(id)) {
			if b := supplyLimit - m.v.unit(id).North; b < budget {
				budget = b
			}
		}
	}
	for i, h := range path {
		if h.Row >= RowS {
			budget--
		}
		if budget < 0 {
			return path[:i]
		}
	}
	return path
}

// shipWeight is a rough fighting value of a ship type, for the scripted
// players' decisions taken in person.
func shipWeight(t string) int {
	switch t {
	case "BB":
		return 8
	case "BC", "PD":
		return 6
	case "CV", "CA":
		return 4
	case "CL":
		return 3
	case "DD", "ML":
		return 2
	}
	return 1
}

// decisionPlay answers a short decision phase from the View: fight when
// the side's ships outweigh the enemy's as reported, else the side's usual
// choice (the Allies track, the Germans evade, 6.41); in a battle, fight on
// while not outweighed (8.24).
func decisionPlay(v *View) []string {
	q := v.Decision
	own, enemy := 0, 0
	for _, id := range q.Units {
		if u := v.unit(id); u != nil && u.Where == AtMap {
			own += shipWeight(u.Type)
		}
	}
	for _, t := range q.Enemy {
		enemy += shipWeight(t)
	}
	switch q.Kind {
	case DecideEncounter:
		switch {
		case own > enemy+enemy/2:
			return []string{ChoiceFight}
		case v.Side == Allied || q.InPort:
			return []string{ChoiceTrack}
		}
		return []string{ChoiceEvade}
	case DecideCombat:
		if q.Round > 1 {
			if own >= enemy {
				return []string{ChoiceFight}
			}
			return []string{ChoiceEvade}
		}
		return []string{"pass"}
	}
	return []string{"standing"}
}
