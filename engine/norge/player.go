package norge

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// Play implements engine.Player: a scripted player that orders from its
// View only. It lands troops where it holds ports, flies its aircraft over
// the maps where its troops fight, attacks at 2:1 or better, marches on
// the nearest enemy unit, port or airfield, hunts enemy convoys with its
// battleships and keeps its submarines on the enemy's sea lanes. Every line
// it writes is checked with ParseOrders against the View's own state, and
// any line that fails is dropped, so its orders are always legal.
func (r rules) Play(v *View, side engine.Side, d engine.Dice) string {
	if v == nil || v.Phase.Over || !v.Phase.Awaits(side) {
		return ""
	}
	s := v.Game.clone()
	if s.Setup {
		return setupLines(s)
	}
	var lines []string
	switch s.Step {
	case StepAirGerman, StepAirAllied:
		lines = playAir(s, side)
	case StepNavalGerman, StepNavalAllied:
		lines = playNaval(s, side)
	case StepLandGerman, StepLandAllied:
		lines = playLand(s, side)
	case StepSubs:
		lines = playSubs(s, side, d)
	}
	for try := 0; try < 8; try++ {
		text := strings.Join(lines, "\n") + "\n"
		_, errs := r.ParseOrders(s, side, text)
		if len(errs) == 0 {
			return text
		}
		lines = engine.WithoutFailed(lines, errs)
	}
	return ""
}

// mapScore is how much a side wants air support over a map.
func mapScore(s *State, side engine.Side, m string) int {
	sc := 0
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side || !strings.HasPrefix(u.Loc, m+":") {
			continue
		}
		sc++
		for _, n := range neighbours(u.Loc) {
			if s.occupant(n) == enemy(side) || enemyPlace(s, n, side) {
				sc += 3
				break
			}
		}
	}
	return sc
}

func playAir(s *State, side engine.Side) []string {
	var bases []string
	if side == German {
		for _, af := range data.Airfields {
			bases = append(bases, af.Name)
		}
	} else {
		for _, sh := range s.Ships {
			if sh.Side == side && sh.Kind == "cv" && sh.onMap() {
				bases = append(bases, sh.ID)
			}
		}
	}
	var out []string
	for _, b := range bases {
		best, bestSc := "", -1
		for _, m := range data.Maps {
			if m.Kind != "tactical" {
				continue
			}
			if _, _, pr := checkAir(s, side, b, m.ID); pr != nil {
				continue
			}
			if sc := mapScore(s, side, m.ID); sc > bestSc {
				best, bestSc = m.ID, sc
			}
		}
		if best != "" {
			out = append(out, fmt.Sprintf("air %s %s", b, best))
		}
	}
	return out
}

// navalPlan tracks where the scripted player's ships will end.
type navalPlan struct {
	s    *State
	side engine.Side
	end  map[string]int
	// entry are the side's entrance hexes, targets its convoys' landing
	// targets, nextTarget the one the next convoy to enter sails for.
	entry      []string
	targets    []string
	nextTarget int
}

func (p *navalPlan) free(node string) bool {
	if len(enemyShipsAt(p.s, node, p.side)) > 0 {
		return false
	}
	return p.end[node] == 0
}

// route is the longest prefix of the cheapest way from start to goal that
// fits the budget and ends on a free hex.
func (p *navalPlan) route(start, goal string, budget int, entering bool) []string {
	path, ok := seaGraph.ShortestPath(start, goal, func(e engine.Edge) (int, bool) {
		if e.To != goal && len(enemyShipsAt(p.s, e.To, p.side)) > 0 {
			return 0, false
		}
		return enterCost(e.From, e.To), true
	})
	if !ok {
		return nil
	}
	var hexes []string
	cost := 0
	if entering {
		hexes = []string{start}
	}
	for i := 1; i < len(path.Areas); i++ {
		c := enterCost(path.Areas[i-1], path.Areas[i])
		if cost+c > budget {
			break
		}
		cost += c
		hexes = append(hexes, path.Areas[i])
	}
	for len(hexes) > 0 && !p.free(hexes[len(hexes)-1]) {
		hexes = hexes[:len(hexes)-1]
	}
	return hexes
}

func (p *navalPlan) order(sh *Ship, hexes []string, off bool) string {
	if len(hexes) == 0 && !off {
		return ""
	}
	if sh.Loc != "" {
		p.end[sh.Loc]--
	}
	if len(hexes) > 0 && !off {
		p.end[hexes[len(hexes)-1]]++
	}
	w := append([]string{"move", sh.ID}, hexes...)
	if off {
		w = append(w, "off")
	}
	return strings.Join(w, " ")
}

// landingTargets are the ports a side's convoys sail for: its own ports
// without enemy units, then enemy ports without enemy units.
func landingTargets(s *State, side engine.Side) []string {
	var own, other []string
	order := []string{"Oslo", "Bergen", "Stavanger", "Trondheim", "Narvik", "Kristiansand", "Halden", "Arendal", "Aandalsnes", "Namsos", "Mosjoen", "Harstad"}
	if side == Allied {
		order = []string{"Harstad", "Namsos", "Aandalsnes", "Mosjoen", "Narvik", "Trondheim", "Bergen", "Stavanger", "Kristiansand", "Arendal", "Halden", "Oslo"}
	}
	for _, name := range order {
		p := data.port(name)
		if s.occupant(p.Hex) == enemy(side) {
			continue
		}
		if s.controller(name) == side {
			own = append(own, p.Node)
		} else {
			other = append(other, p.Node)
		}
	}
	return append(own, other...)
}

// playNaval is the scripted player's naval phase: an order for each of
// its convoys, battleships and carriers, in the order of the ships.
func playNaval(s *State, side engine.Side) []string {
	p := &navalPlan{s: s, side: side, end: map[string]int{}}
	for _, sh := range s.Ships {
		if sh.Side == side && sh.onMap() && sh.Kind != "sub" {
			p.end[sh.Loc]++
		}
	}
	p.entry = map[engine.Side][]string{German: {"G2", "G1"}, Allied: {"B2", "B1"}}[side]
	p.targets = landingTargets(s, side)
	var out []string
	for i := range s.Ships {
		sh := &s.Ships[i]
		if sh.Side != side || sh.Sunk || sh.Scrapped || sh.Kind == "sub" {
			continue
		}
		var l string
		switch sh.Kind {
		case "convoy":
			l = convoyLine(p, sh)
		case "bs", "cv":
			l = warshipLine(p, sh)
		}
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// convoyLine is the scripted player's order for a convoy: load in reserve,
// enter for the next landing target, sail loaded for the nearest target,
// or go home empty.
func convoyLine(p *navalPlan, sh *Ship) string {
	s := p.s
	switch {
	case sh.Loc == "" && len(sh.Cargo) == 0:
		if canLoad(s, sh) == nil {
			return loadLine(s, sh)
		}
	case sh.Loc == "" && canEnter(s, sh) == nil && len(p.targets) > 0:
		goal := p.targets[p.nextTarget%len(p.targets)]
		p.nextTarget++
		for _, e := range p.entry {
			if !p.free(e) {
				continue
			}
			return p.order(sh, p.route(e, goal, speed(s, sh), true), false)
		}
	case sh.Loc != "" && len(sh.Cargo) > 0 && portOfNode(sh.Loc) == nil && len(p.targets) > 0:
		best := nearestNode(sh.Loc, p.targets)
		return p.order(sh, p.route(sh.Loc, best, speed(s, sh), false), false)
	case sh.Loc != "" && len(sh.Cargo) == 0:
		return homeward(p, sh, p.entry)
	}
	return ""
}

// warshipLine is the scripted player's order for a battleship or carrier:
// enter, hunt, wait for its troops on the quays (12.2), go home, or sail to
// a station.
func warshipLine(p *navalPlan, sh *Ship) string {
	s := p.s
	if sh.Loc == "" {
		if canEnter(s, sh) != nil {
			return ""
		}
		for _, e := range p.entry {
			if p.free(e) {
				return p.order(sh, []string{e}, false)
			}
		}
		return ""
	}
	if sh.Kind == "bs" && !sh.Restricted {
		if l := huntLine(p, sh); l != "" {
			return l
		}
	}
	if sh.Restricted && len(ashore(s, sh)) > 0 && !reembarking(s, sh) {
		return "" // it waits for its troops on the quays to try again (12.2)
	}
	if sh.Restricted && (sh.Tried || len(sh.Cargo) == 0) {
		return homeward(p, sh, p.entry)
	}
	if !sh.Restricted {
		return toStation(p, sh)
	}
	return ""
}

// stations are where a side's battleships and carriers wait: on the
// enemy's likely routes, clear of the entrance hexes.
var stations = map[engine.Side][]string{
	German: {"Skagerrak2", "Skagerrak3", "North1", "Skagerrak1"},
	Allied: {"North3", "Norw2", "North4", "Norw1", "Norw3", "North2"},
}

// toStation sails a unit that is not on a station to the nearest free one.
func toStation(p *navalPlan, sh *Ship) string {
	if containsStr(stations[sh.Side], sh.Loc) {
		return ""
	}
	for _, st := range stations[sh.Side] {
		if !p.free(st) {
			continue
		}
		r := p.route(sh.Loc, st, speed(p.s, sh), false)
		if len(r) > 0 {
			return p.order(sh, r, false)
		}
	}
	return ""
}

// homeward sails a unit to its entrance hexes and off the board.
func homeward(p *navalPlan, sh *Ship, entry []string) string {
	for _, e := range entry {
		r := p.route(sh.Loc, e, speed(p.s, sh), false)
		if len(r) > 0 && r[len(r)-1] == e {
			return p.order(sh, r, true)
		}
	}
	if data.node(sh.Loc).Kind == entryKind(sh.Side) {
		return p.order(sh, nil, true)
	}
	best := nearestNode(sh.Loc, entry)
	return p.order(sh, p.route(sh.Loc, best, speed(p.s, sh), false), false)
}

// huntLine sends a battleship at the weakest enemy naval unit it can
// reach at 1:1 or better.
func huntLine(p *navalPlan, sh *Ship) string {
	s := p.s
	best, bestDef := "", 1<<30
	for _, x := range s.Ships {
		if x.Side == sh.Side || !x.onMap() || x.Kind == "sub" {
			continue
		}
		k := data.node(x.Loc).Kind
		if k == "port" {
			continue
		}
		def := 0
		for _, y := range enemyShipsAt(s, x.Loc, sh.Side) {
			def += y.cf()
		}
		if sh.cf() < def || def >= bestDef {
			continue
		}
		path, ok := seaGraph.ShortestPath(sh.Loc, x.Loc, func(e engine.Edge) (int, bool) {
			if e.To != x.Loc && len(enemyShipsAt(s, e.To, sh.Side)) > 0 {
				return 0, false
			}
			return enterCost(e.From, e.To), true
		})
		if ok && path.Cost <= speed(s, sh) {
			best, bestDef = x.Loc, def
		}
	}
	if best == "" {
		return ""
	}
	path, _ := seaGraph.ShortestPath(sh.Loc, best, func(e engine.Edge) (int, bool) {
		if e.To != best && len(enemyShipsAt(s, e.To, sh.Side)) > 0 {
			return 0, false
		}
		return enterCost(e.From, e.To), true
	})
	return p.order(sh, path.Areas[1:], false)
}

func nearestNode(from string, goals []string) string {
	best, bc := goals[0], 1<<30
	for _, g := range goals {
		p, ok := seaGraph.ShortestPath(from, g, func(e engine.Edge) (int, bool) { return enterCost(e.From, e.To), true })
		if ok && p.Cost < bc {
			best, bc = g, p.Cost
		}
	}
	return best
}

func loadLine(s *State, sh *Ship) string {
	var ids []string
	total := 0
	for _, u := range s.Units {
		if u.Side != sh.Side || u.Loc != LocReserve || unitInfo(u.ID).Avail > s.Turn+1 {
			continue
		}
		if total+thirds(u.ID) > 9 {
			continue
		}
		total += thirds(u.ID)
		ids = append(ids, u.ID)
	}
	if len(ids) == 0 {
		return ""
	}
	return "load " + sh.ID + " " + strings.Join(ids, " ")
}

// playLand is the scripted player's land phase: airlifts and drops,
// marches, landings, attacks and the hold order, each seeing the moves
// before it on a scratch copy of the state.
func playLand(s *State, side engine.Side) []string {
	var out []string
	scr := s.clone()
	if side == German {
		out = append(out, airborneLines(s, scr)...)
	}
	out = append(out, marchLines(scr, side)...)
	out = append(out, landingLines(s, scr, side)...)
	out = append(out, attackLines(scr, side)...)
	return append(out, holdLine(scr, side))
}

// airborneLines flies in the first German unit waiting for air transport
// that an airfield takes (13.1), then air drops the units waiting for it
// (13.5). scr, the scratch state, follows them.
func airborneLines(s, scr *State) []string {
	side := German
	var out []string
	for _, u := range s.Units {
		if u.Loc != LocAirlift && !(u.Loc == LocDrop && unitInfo(u.ID).Type == "mtn") {
			continue
		}
		done := false
		for _, af := range data.Airfields {
			if _, pr := checkAirlift(s, &u, af.Name); pr == nil && s.stackThirds(af.Hex, side)+thirds(u.ID) <= 9 {
				out = append(out, "airlift "+u.ID+" "+af.Name)
				scr.unit(u.ID).Loc, scr.unit(u.ID).Landed = af.Hex, s.Turn
				done = true
				break
			}
		}
		if done {
			break
		}
	}
	for _, u := range s.Units {
		if u.Loc != LocDrop || scr.unit(u.ID).Loc != LocDrop {
			continue
		}
		if h := dropHex(scr, &u); h != "" {
			out = append(out, "drop "+u.ID+" "+h)
			scr.unit(u.ID).Loc, scr.unit(u.ID).Dropped = h, s.Turn
		}
	}
	return out
}

// marchLines keeps garrisons of ports and airfields in place and marches
// the others on the nearest objective; scr follows the moves.
func marchLines(scr *State, side engine.Side) []string {
	var out []string
	for i := range scr.Units {
		u := &scr.Units[i]
		if u.Side != side || canMove(scr, u) != nil || nextToEnemy(scr, u.Loc, side) {
			continue
		}
		t := data.Hexes[u.Loc]
		if (t.Port != "" || t.Airfld != "") && scr.stackThirds(u.Loc, side) <= thirds(u.ID) {
			continue
		}
		goal := nearestObjective(scr, landDist(u.Loc), side)
		if goal == "" {
			continue
		}
		if best, path := marchToward(scr, u, goal); best != "" {
			out = append(out, "move "+u.ID+" "+strings.Join(path, " "))
			u.Loc = best
		}
	}
	return out
}

// marchToward is the hex u can reach this phase, by road first, that is
// nearest goal with room to stack, and the path there; "" if none is
// nearer than where u stands.
func marchToward(scr *State, u *Unit, goal string) (best string, bestPath []string) {
	side := u.Side
	toGoal := landDist(goal)
	bd := toGoal[u.Loc]
	for _, roads := range []bool{true, false} {
		cost, prev := landCosts(scr, u, roads)
		for _, h := range sortedKeys(cost) {
			dd, ok := toGoal[h]
			if !ok || dd >= bd || scr.stackThirds(h, side)+thirds(u.ID) > 9 {
				continue
			}
			p := pathTo(u.Loc, h, prev)
			if len(p) == 0 || checkPath(scr, u, p) != nil {
				continue
			}
			best, bd, bestPath = h, dd, p
		}
	}
	return best, bestPath
}

// landingLines has troops a failed landing left on the quays try again, or
// go back aboard once the enemy holds the port (12.2), and lands troops
// where the quays have room after the moves.
func landingLines(s, scr *State, side engine.Side) []string {
	var out []string
	for i := range s.Ships {
		sh := &s.Ships[i]
		if sh.Side != side {
			continue
		}
		switch {
		case reembarking(s, sh):
			if _, pr := embarkPort(s, sh); pr == nil {
				out = append(out, "embark "+sh.ID+" "+ashoreNames(s, sh))
			}
		case retrying(s, sh):
			if _, pr := landingPort(s, sh); pr == nil {
				out = append(out, "disembark "+sh.ID)
			}
		}
	}
	for _, sh := range s.Ships {
		if sh.Side != side || !sh.onMap() || len(sh.Cargo) == 0 || (s.Turn == 1 && sh.Kind == "bs" && !sh.Tried) {
			continue
		}
		port, pr := landingPort(s, &sh)
		if pr != nil {
			continue
		}
		to := port.Quay
		if sh.Kind == "bs" {
			to = port.Hex
		}
		n := 0
		for _, id := range sh.Cargo {
			n += thirds(id)
		}
		if scr.stackThirds(to, side)+n <= 9 {
			out = append(out, "disembark "+sh.ID)
		}
	}
	return out
}

// attackLines attacks at 2:1 or better, or on empty enemy ports and
// airfields, each unit in one attack.
func attackLines(scr *State, side engine.Side) []string {
	var out []string
	used := map[string]bool{}
	var targets []string
	for _, h := range sortedKeys(data.Hexes) {
		if !data.Hexes[h].Land {
			continue
		}
		if scr.occupant(h) == enemy(side) || (scr.occupant(h) == "" && enemyPlace(scr, h, side)) {
			targets = append(targets, h)
		}
	}
	fake := &Orders{}
	for _, h := range targets {
		var att []string
		for _, n := range neighbours(h) {
			for _, u := range scr.unitsAt(n) {
				if u.Side == side && !used[u.ID] && !u.RT && u.Landed != scr.Turn && (sideKind(n, h) != "sea" || unitInfo(u.ID).Type == "art") {
					att = append(att, u.ID)
				}
			}
		}
		if len(att) == 0 {
			continue
		}
		fake.List = append(fake.List, Order{Verb: "attack", ID: h})
		if !goodAttack(scr, side, h, att, fake) {
			fake.List = fake.List[:len(fake.List)-1]
			continue
		}
		for _, id := range att {
			used[id] = true
		}
		out = append(out, "attack "+h+" with "+strings.Join(att, " "))
	}
	return out
}

// goodAttack tells whether the attack by att on h, with the attacks in
// fake, is worth making: 2:1 or better; 1:1 on a port or airfield, or from
// turn 5 on when time runs short.
func goodAttack(scr *State, side engine.Side, h string, att []string, fake *Orders) bool {
	c := attackValue(scr, side, h, att, attackTargets(fake))
	t := data.Hexes[h]
	good := c.Column != "" && c.Column != "1:2" && c.Column != "1:1"
	if scr.occupant(h) == "" || t.Port != "" || t.Airfld != "" || scr.Turn >= 5 {
		good = c.Column != "" && c.Column != "1:2"
	}
	return good
}

// holdLine holds every unit of side in a port or on an airfield.
func holdLine(scr *State, side engine.Side) string {
	var hold []string
	for _, u := range scr.Units {
		t := data.Hexes[u.Loc]
		if u.Side == side && onHex(u.Loc) && (t.Port != "" || t.Airfld != "") {
			hold = append(hold, u.ID)
		}
	}
	sort.Strings(hold)
	if len(hold) > 0 {
		return "hold " + strings.Join(hold, " ")
	}
	return "hold none"
}

// landDist is the number of hexes from a hex to every land hex, through
// land and links (enemy units ignored).
func landDist(from string) map[string]int {
	dist := map[string]int{from: 0}
	queue := []string{from}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, n := range neighbours(h) {
			t := data.Hexes[n]
			if _, seen := dist[n]; seen || !t.Land || sideKind(h, n) == "sea" {
				continue
			}
			dist[n] = dist[h] + 1
			queue = append(queue, n)
		}
	}
	return dist
}

func nextToEnemy(s *State, hex string, side engine.Side) bool {
	for _, n := range neighbours(hex) {
		if s.occupant(n) == enemy(side) || (s.occupant(n) == "" && enemyPlace(s, n, side)) {
			return true
		}
	}
	return false
}

func nearestObjective(s *State, dist map[string]int, side engine.Side) string {
	best, bd := "", 1<<30
	for _, h := range sortedKeys(dist) {
		if s.occupant(h) == enemy(side) || (s.occupant(h) == "" && enemyPlace(s, h, side)) {
			if d := dist[h]; d < bd {
				best, bd = h, d
			}
		}
	}
	return best
}

// dropHex is a hex next to an enemy port or airfield where a drop is legal.
func dropHex(s *State, u *Unit) string {
	for _, h := range sortedKeys(data.Hexes) {
		t := data.Hexes[h]
		if !t.Land || !t.Tactics {
			continue
		}
		if _, pr := checkDrop(s, u, h); pr != nil {
			continue
		}
		if s.stackThirds(h, German)+thirds(u.ID) > 9 {
			continue
		}
		for _, n := range neighbours(h) {
			if s.occupant(n) == "" && enemyPlace(s, n, German) {
				return h
			}
		}
	}
	return ""
}

func playSubs(s *State, side engine.Side, d engine.Dice) []string {
	lanes := map[engine.Side][]int{German: {4, 5, 3}, Allied: {1, 2, 3}}[side]
	var out []string
	for _, sh := range s.Ships {
		if sh.Side != side || sh.Kind != "sub" || sh.Sunk {
			continue
		}
		want := lanes[0]
		if d != nil {
			want = lanes[(d.Roll(6, "scripted submarine lane")-1)%len(lanes)]
		}
		if sh.Area == 0 {
			if checkSub(s, &sh, want) == nil {
				out = append(out, fmt.Sprintf("sub %s %d", sh.ID, want))
			}
			continue
		}
		next := sh.Area
		if want > sh.Area {
			next++
		} else if want < sh.Area {
			next--
		}
		if next != sh.Area && checkSub(s, &sh, next) == nil {
			out = append(out, fmt.Sprintf("sub %s %d", sh.ID, next))
		}
	}
	return out
}
