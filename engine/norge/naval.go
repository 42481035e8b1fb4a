package norge

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

var seaGraph = func() *engine.AreaGraph {
	g := engine.NewAreaGraph()
	for _, n := range data.Sea {
		g.AddArea(n.Name)
	}
	for _, n := range data.Sea {
		for _, m := range n.Next {
			if err := g.Connect(n.Name, m, "sea"); err != nil {
				panic("norge: " + err.Error())
			}
		}
	}
	return g
}()

// speed is a naval unit's movement factors this turn (8.5).
func speed(s *State, sh *Ship) int {
	if sh.Kind == "convoy" {
		return 10
	}
	switch s.seaWeather() {
	case "rain":
		return 14
	case "storm":
		return 10
	}
	return 16
}

func fjordLike(name string) bool {
	n := data.node(name)
	return n != nil && (n.Kind == "fjord" || name == "Bergen")
}

// enterCost is the cost of entering hex to from hex from (8.5, 10.1).
func enterCost(from, to string) int {
	n := data.node(to)
	switch {
	case fjordLike(to):
		return 4
	case n.Kind == "port":
		return 1
	case fjordLike(from):
		return 3
	}
	return 1
}

func entryKind(side engine.Side) string { return "entry-" + string(side) }

// canEnter says whether an off-board naval unit may come on this turn.
func canEnter(s *State, sh *Ship) *problem {
	in := shipInfo(sh.ID)
	if in.Avail > s.Turn {
		return fail("3.3", "units of the calendar up to this turn", "%s arrives on turn %d", sh.ID, in.Avail)
	}
	if sh.Exited > 0 && sh.Exited > s.Turn-2 {
		return fail("10.7", "a unit that has stayed a whole turn off the board", "%s left the board on turn %d and must stay off a whole turn", sh.ID, sh.Exited)
	}
	if sh.Kind == "convoy" && sh.Loaded == s.Turn {
		return fail("11.3", "a convoy loaded on an earlier turn", "%s is loaded this turn for the next turn", sh.ID)
	}
	return nil
}

// planNaval validates a naval move and returns the hexes entered.
func planNaval(s *State, sh *Ship, args []string) ([]string, bool, *problem) {
	if sh.Kind == "sub" {
		return nil, false, fail("17.1", "sub SUB AREA in phase 5", "submarines move secretly in phase 5")
	}
	off := false
	if len(args) > 0 && strings.EqualFold(args[len(args)-1], "off") {
		off = true
		args = args[:len(args)-1]
	}
	var hexes []string
	for _, a := range args {
		n, pr := findNode(a)
		if pr != nil {
			return nil, false, pr
		}
		hexes = append(hexes, n.Name)
	}
	start := sh.Loc
	budget := speed(s, sh)
	var path []string
	if start == "" {
		if pr := canEnter(s, sh); pr != nil {
			return nil, false, pr
		}
		if len(hexes) == 0 || data.node(hexes[0]).Kind != entryKind(sh.Side) {
			return nil, false, fail("10.2", entryHint(s, sh, args, off), "%s enters the board by one of your entrance hexes", sh.ID)
		}
		start = hexes[0]
		path = []string{start}
		hexes = hexes[1:]
	}
	if len(hexes) == 1 && hexes[0] != start && !seaGraph.Adjacent(start, hexes[0]) {
		p, ok := seaGraph.ShortestPath(start, hexes[0], func(e engine.Edge) (int, bool) { return enterCost(e.From, e.To), true })
		if !ok {
			return nil, false, fail("10.1", "a hex the unit can reach", "no way from %s to %s", start, hexes[0])
		}
		hexes = p.Areas[1:]
	}
	cost, at := 0, start
	for _, h := range hexes {
		if !seaGraph.Adjacent(at, h) {
			return nil, false, fail("10.1", strings.Join(seaGraph.Neighbors(at), " "), "%s is not next to %s", h, at)
		}
		cost += enterCost(at, h)
		at = h
		path = append(path, h)
	}
	if cost > budget {
		return nil, false, fail("8.5", fmt.Sprintf("at most %d MF", budget), "the move costs %d MF, more than %s's %d", cost, sh.ID, budget)
	}
	if off && data.node(at).Kind != entryKind(sh.Side) {
		return nil, false, fail("10.2", entries(sh.Side), "%s leaves the board only from one of your entrance hexes", sh.ID)
	}
	if len(path) == 0 && !off {
		return nil, false, fail("10.1", "a hex to move to", "%s does not move", sh.ID)
	}
	if m := fighterOver(s, sh); m != "" && (off || !returnOK(s, sh, at)) {
		return nil, false, fail("9.2", "a hex from which a fighter reaches Map "+m, "%s's fighter is over Map %s and must be able to land on it again", sh.ID, m)
	}
	return path, off, nil
}

// fighterOver is the map a carrier's fighter flies over this turn, or "".
func fighterOver(s *State, sh *Ship) string {
	if sh.Kind != "cv" {
		return ""
	}
	for _, am := range s.Air {
		if am.Base == sh.ID {
			return am.Map
		}
	}
	return ""
}

// returnOK says whether a carrier at node can take its fighter back (9.2).
func returnOK(s *State, sh *Ship, node string) bool {
	m := fighterOver(s, sh)
	return m == "" || containsStr(data.node(node).Carrier, m)
}

// entryHint is what would be accepted for an off-board unit's move that
// does not start at an entrance hex (10.2): the same move from each of the
// side's entrance hexes where it stands, else the entrance hexes.
func entryHint(s *State, sh *Ship, args []string, off bool) string {
	var out []string
	for _, n := range data.Sea {
		if n.Kind != entryKind(sh.Side) {
			continue
		}
		try := append([]string{n.Name}, args...)
		if off {
			try = append(try, "off")
		}
		if _, _, pr := planNaval(s, sh, try); pr == nil {
			out = append(out, "move "+sh.ID+" "+strings.Join(try, " "))
		}
	}
	if len(out) == 0 {
		return "a move from " + entries(sh.Side)
	}
	return strings.Join(out, "; ")
}

func entries(side engine.Side) string {
	var out []string
	for _, n := range data.Sea {
		if n.Kind == entryKind(side) {
			out = append(out, n.Name)
		}
	}
	return strings.Join(out, " or ")
}

// stackOK checks the naval stacking limits of a hex (10.3, 10.4).
func stackOK(s *State, node string, side engine.Side) bool {
	var mine []*Ship
	for _, sh := range s.shipsAt(node) {
		if sh.Side == side {
			mine = append(mine, sh)
		}
	}
	k := data.node(node).Kind
	if k == "port" || k == "fjord" {
		return len(mine) <= 1
	}
	if len(mine) <= 1 {
		return true
	}
	if len(mine) > 2 {
		return false
	}
	return mine[0].Kind == "bs" || mine[1].Kind == "bs"
}

// canLoad checks that a convoy may be loaded (11.1, 11.3).
func canLoad(s *State, sh *Ship) *problem {
	if sh.Kind != "convoy" {
		return fail("11.1", "a convoy", "%s is not a convoy", sh.ID)
	}
	if sh.Loc != "" {
		return fail("11.1", "a convoy off the board", "%s is at sea; load it off the board or embark in port (12.8)", sh.ID)
	}
	if sh.Reduced {
		return fail("11.1", "a convoy that is not reduced", "%s is reduced (merge two reduced convoys first, 11.2)", sh.ID)
	}
	if sh.Exited == s.Turn {
		return fail("11.3", "a convoy that left the board on an earlier turn", "%s left the board this turn and needs a turn to load", sh.ID)
	}
	if shipInfo(sh.ID).Avail > s.Turn+1 {
		return fail("3.3", "a convoy available next turn", "%s arrives on turn %d", sh.ID, shipInfo(sh.ID).Avail)
	}
	return nil
}

func resolveNaval(s *State, o *Orders, d engine.Dice) {
	side := o.Side
	for _, ord := range o.List {
		switch ord.Verb {
		case "losses":
			setLossOrder(s, side, ord.Args)
		case "intercept":
			var out []engine.Side
			for _, x := range s.NoIntercept {
				if x != side {
					out = append(out, x)
				}
			}
			if ord.Args[0] == "off" {
				out = append(out, side)
			}
			s.NoIntercept = out
		case "load":
			sh := s.ship(ord.ID)
			if pr := canLoad(s, sh); pr != nil {
				s.logf(side, "load %s cancelled: %s", sh.ID, pr.msg)
				continue
			}
			for _, id := range sh.Cargo {
				s.unit(id).Loc = LocReserve
			}
			sh.Cargo = nil
			for _, id := range ord.Args {
				u := s.unit(id)
				if u.Loc != LocReserve {
					continue
				}
				u.Loc = shipPrefix + sh.ID
				sh.Cargo = append(sh.Cargo, id)
			}
			sh.Loaded = s.Turn
			s.logf(side, "%s loaded for next turn: %s (11.1)", sh.ID, cargoText(sh))
		case "merge":
			a, b := s.ship(ord.ID), s.ship(ord.Args[0])
			if !a.Reduced || !b.Reduced || a.Loc != "" || b.Loc != "" {
				continue
			}
			a.Reduced = false
			b.Scrapped = true
			s.logf(side, "%s and %s merged into one full-strength convoy %s (11.2)", a.ID, b.ID, a.ID)
		}
	}
	for _, ord := range o.List {
		if ord.Verb != "move" {
			continue
		}
		sh := s.ship(ord.ID)
		if sh == nil || sh.Sunk || sh.Scrapped {
			continue
		}
		path := ord.Args
		off := len(path) > 0 && path[len(path)-1] == "off"
		if off {
			path = path[:len(path)-1]
		}
		moveShip(s, sh, path, off, d)
	}
	subAmbush(s, side, d)
}

func cargoText(sh *Ship) string {
	if len(sh.Cargo) == 0 {
		return "empty"
	}
	return strings.Join(sh.Cargo, " ")
}

func enemyShipsAt(s *State, node string, side engine.Side) []*Ship {
	var out []*Ship
	for _, sh := range s.shipsAt(node) {
		if sh.Side != side {
			out = append(out, sh)
		}
	}
	return out
}

// moveShip carries out one naval move, hex by hex (10.1-10.9).
func moveShip(s *State, sh *Ship, path []string, off bool, d engine.Dice) {
	side := sh.Side
	from := sh.Loc
	if from == "" && len(path) > 0 {
		if pr := canEnter(s, sh); pr != nil {
			s.logf(side, "%s cannot enter: %s", sh.ID, pr.msg)
			return
		}
	}
	trail, ended := steam(s, sh, path, d)
	if ended {
		return
	}
	final, ok := settleShip(s, sh, from, trail)
	if ok && off && data.node(final).Kind == entryKind(side) && fighterOver(s, sh) == "" {
		leaveBoard(s, sh, final)
	}
}

// steam moves sh along path hex by hex within its speed (10.1, 10.2): a
// battleship attacks the first enemy it meets at sea (ended is true), other
// ships pass enemies and may be intercepted. trail holds the hexes sh may
// end its move in.
func steam(s *State, sh *Ship, path []string, d engine.Dice) (trail []string, ended bool) {
	side := sh.Side
	from := sh.Loc
	budget, spent := speed(s, sh), 0
	cur := from
	for i, h := range path {
		engine.Step(d, "ship movement")
		c := 0
		if !(i == 0 && from == "") {
			c = enterCost(cur, h)
		}
		if spent+c > budget {
			break
		}
		enemies := enemyShipsAt(s, h, side)
		kind := data.node(h).Kind
		if len(enemies) > 0 && kind != "port" && sh.Kind == "bs" && !sh.Restricted {
			spent += c
			cur = h
			sh.Loc = h
			s.logf("", "%s moves to %s and attacks", sh.ID, h)
			navalAttack(s, h, side, d)
			return nil, true
		}
		if len(enemies) > 0 {
			if i == len(path)-1 || kind == "port" {
				break
			}
			spent += c
			cur = h
			sh.Loc = h
			trail = append(trail, h)
			interceptAt(s, sh, h, d)
			if sh.Sunk {
				return nil, true
			}
			continue
		}
		spent += c
		cur = h
		trail = append(trail, h)
	}
	return trail, false
}

// settleShip stops sh at the last hex of its trail where stacking allows
// (10.3, 10.4), or back where it came from; ok is false when a ship
// entering the board finds nowhere to stop.
func settleShip(s *State, sh *Ship, from string, trail []string) (final string, ok bool) {
	side := sh.Side
	final = from
	for i := len(trail) - 1; i >= 0; i-- {
		sh.Loc = trail[i]
		if len(enemyShipsAt(s, trail[i], side)) == 0 && stackOK(s, trail[i], side) && returnOK(s, sh, trail[i]) {
			final = trail[i]
			break
		}
	}
	sh.Loc = final
	if final != from {
		sh.Ashore = nil // its troops on the quays stay there (12.2)
	}
	if final == "" {
		s.logf(side, "%s could not enter the board", sh.ID)
		return final, false
	}
	if from == "" {
		sh.Restricted = false
	}
	if final != from {
		s.logf("", "%s %s moves to %s", side, sh.ID, final)
	}
	return final, true
}

// leaveBoard takes sh off the board at its entry node final; a battleship's
// troops go home with it into reserve (12.2).
func leaveBoard(s *State, sh *Ship, final string) {
	side := sh.Side
	sh.Loc = ""
	sh.Exited = s.Turn
	s.logf("", "%s %s leaves the board at %s", side, sh.ID, final)
	if sh.Kind == "bs" {
		for _, id := range sh.Cargo {
			s.unit(id).Loc = LocReserve
			s.logf(side, "%s returns home with %s and goes into reserve (12.2)", id, sh.ID)
		}
		sh.Cargo = nil
	}
}

// navalColumn is the naval CRT column of attack a against defence d.
func navalColumn(a, dd int) string {
	if dd <= 0 {
		dd = 1
	}
	if a >= dd {
		n := a / dd
		if n > 4 {
			n = 4
		}
		return fmt.Sprintf("%d:1", n)
	}
	if 2*a >= dd {
		return "1:2"
	}
	return ""
}

// navalAttack resolves an attack by side's battleships in hex (10.8).
func navalAttack(s *State, hex string, side engine.Side, d engine.Dice) {
	var att, def []*Ship
	for _, sh := range s.shipsAt(hex) {
		if sh.Side == side && sh.Kind == "bs" && !sh.Restricted {
			att = append(att, sh)
		} else if sh.Side != side {
			def = append(def, sh)
		}
	}
	a, df := 0, 0
	for _, x := range att {
		a += x.cf()
	}
	for _, x := range def {
		df += x.cf()
	}
	col := navalColumn(a, df)
	if col == "" || len(def) == 0 {
		s.logf("", "no naval combat at %s: %d to %d is below 1:2 (10.8)", hex, a, df)
		return
	}
	r := d.Roll(6, "naval combat at "+hex+" (10.8)")
	res := data.NavalCRT[col][r-1]
	s.logf("", "naval combat at %s: %d to %d, column %s, die %d: %s (10.8)", hex, a, df, col, r, res)
	applyNaval(s, res, att, def)
}

func applyNaval(s *State, res string, att, def []*Ship) {
	switch res {
	case "Ar":
		if len(att) > 0 {
			damageShip(s, pickVictim(s, att, false), false)
		}
	case "Dr":
		damageShip(s, pickVictim(s, def, false), false)
	case "De":
		damageShip(s, pickVictim(s, def, true), true)
	}
}

// pickVictim is the owner's choice of the unit to reduce or sink: the first
// of them in the owner's standing losses order, else the one that costs
// the fewest victory points, empty convoys before loaded ones.
func pickVictim(s *State, ships []*Ship, sink bool) *Ship {
	var chosen *Ship
	for _, sh := range ships {
		r := s.lossRank(sh.Side, sh.ID)
		if r >= 0 && (chosen == nil || r < s.lossRank(chosen.Side, chosen.ID)) {
			chosen = sh
		}
	}
	if chosen != nil {
		return chosen
	}
	best, bestCost := ships[0], 1<<30
	for _, sh := range ships {
		c := 0
		big := sh.Kind != "convoy"
		switch {
		case sink || sh.Reduced:
			c = 20
			if big {
				c = 40
			}
		default:
			c = 10
			if big {
				c = 20
			}
		}
		c += len(sh.Cargo) * 3
		if c < bestCost {
			best, bestCost = sh, c
		}
	}
	return best
}

// damageShip reduces a naval unit, or sinks it if reduced or if sink
// (10.8); a convoy's cargo is reduced or eliminated with it.
func damageShip(s *State, sh *Ship, sink bool) {
	if sink || sh.Reduced {
		sh.Sunk = true
		sh.Damaged = true
		s.logf("", "%s %s is sunk", sh.Side, sh.ID)
		for _, id := range sh.Cargo {
			s.unit(id).Loc = LocElim
			s.logf(sh.Side, "%s is lost with %s (10.8)", id, sh.ID)
		}
		sh.Cargo = nil
		sh.Loc = ""
		return
	}
	sh.Reduced = true
	sh.Damaged = true
	s.logf("", "%s %s is damaged (reduced)", sh.Side, sh.ID)
	var keep []string
	for _, id := range sh.Cargo {
		u := s.unit(id)
		if reduceUnit(s, u) {
			keep = append(keep, id)
		}
	}
	sh.Cargo = keep
}

// reduceUnit flips a land unit, or eliminates a reduced one; it reports
// whether the unit survives.
func reduceUnit(s *State, u *Unit) bool {
	if u.Reduced {
		u.Loc = LocElim
		s.logf(u.Side, "%s is eliminated", u.ID)
		return false
	}
	u.Reduced = true
	s.logf(u.Side, "%s is reduced", u.ID)
	return true
}

// interceptAt is defensive combat by the enemy battleships of a hex that
// sh moves through (10.9): adverse results are ignored.
func interceptAt(s *State, sh *Ship, hex string, d engine.Dice) {
	k := data.node(hex).Kind
	if k == "port" {
		return
	}
	foe := enemy(sh.Side)
	for _, x := range s.NoIntercept {
		if x == foe {
			return
		}
	}
	a := 0
	for _, x := range s.shipsAt(hex) {
		if x.Side == sh.Side && x.Kind == "bs" && x != sh {
			return // negated by a battleship that moved in first (10.9)
		}
		if x.Side == foe && x.Kind == "bs" && !x.Restricted {
			a += x.cf()
		}
	}
	if a == 0 {
		return
	}
	col := navalColumn(a, sh.cf())
	if col == "" {
		return
	}
	r := d.Roll(6, "defensive naval combat at "+hex+" (10.9)")
	res := data.NavalCRT[col][r-1]
	s.logf("", "defensive fire at %s on %s: %d to %d, column %s, die %d: %s (10.9)", hex, sh.ID, a, sh.cf(), col, r, res)
	if res == "Dr" || res == "De" {
		damageShip(s, sh, res == "De")
	}
}

// subAmbush: each enemy submarine in a sea area where side's naval units
// ended their movement attacks one of them, on the submarine ratio chart
// (1.1; the procedure is reconstructed, see Rules).
func subAmbush(s *State, side engine.Side, d engine.Dice) {
	for i := range s.Ships {
		sub := &s.Ships[i]
		if sub.Side == side || sub.Kind != "sub" || sub.Sunk || sub.Area == 0 {
			continue
		}
		var targets []*Ship
		for j := range s.Ships {
			t := &s.Ships[j]
			if t.Side == side && t.onMap() && data.node(t.Loc).Area == sub.Area {
				targets = append(targets, t)
			}
		}
		if len(targets) == 0 {
			continue
		}
		t := subTarget(targets)
		col := data.SubRatio[t.Kind]
		r := d.Roll(6, "submarine attack (subratio chart)")
		res := data.NavalCRT[col][r-1]
		s.logf(side, "a submarine attacks %s at %s in sea area %d: column %s, die %d: %s", t.ID, t.Loc, sub.Area, col, r, res)
		s.logf(sub.Side, "%s attacks %s %s at %s: column %s, die %d: %s", sub.ID, side, t.ID, t.Loc, col, r, res)
		switch res {
		case "Ar":
			if sub.Reduced {
				sub.Sunk = true
				sub.Damaged = true
				s.logf("", "a %s submarine is sunk in sea area %d", sub.Side, sub.Area)
				sub.Area = 0
			} else {
				sub.Reduced = true
				sub.Damaged = true
				s.logf(sub.Side, "%s is damaged", sub.ID)
			}
		case "Dr", "De":
			damageShip(s, t, res == "De")
		}
	}
}

// subTarget picks a submarine's target: convoys, then carriers, then
// battleships (the sub's owner's choice, scripted; it cannot see cargo).
func subTarget(ts []*Ship) *Ship {
	rank := func(sh *Ship) int {
		switch sh.Kind {
		case "convoy":
			return 0
		case "cv":
			return 1
		}
		return 2
	}
	best := ts[0]
	for _, t := range ts[1:] {
		if rank(t) < rank(best) {
			best = t
		}
	}
	return best
}

func setLossOrder(s *State, side engine.Side, ids []string) {
	if len(ids) == 1 && ids[0] == "none" {
		s.setLosses(side, nil)
		return
	}
	s.setLosses(side, append([]string(nil), ids...))
}
