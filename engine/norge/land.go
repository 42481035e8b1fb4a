package norge

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

func onHex(loc string) bool { return strings.Contains(loc, ":") && !strings.HasPrefix(loc, shipPrefix) }

func sideKind(a, b string) string {
	if hs, ok := data.Sides[sideKey(a, b)]; ok {
		return hs.Kind
	}
	return ""
}

// bridged says whether a river hexside has a standing bridge.
func bridged(s *State, a, b string) bool {
	hs, ok := data.Sides[sideKey(a, b)]
	return ok && hs.Bridge && !isBlown(s, sideKey(a, b))
}

// inEZOC says whether hex is in the zone of control of side's enemies:
// next to an enemy unit, not across a sea or river hexside (14.4, 14.5).
func inEZOC(s *State, hex string, side engine.Side) bool {
	for _, n := range neighbours(hex) {
		if k := sideKind(hex, n); k == "sea" || k == "river" {
			continue
		}
		if s.occupant(n) == enemy(side) {
			return true
		}
	}
	return false
}

// enemyPlace says whether hex is a port or airfield under enemy control.
func enemyPlace(s *State, hex string, side engine.Side) bool {
	t := data.Hexes[hex]
	if t.Port != "" && s.controller(t.Port) != side {
		return true
	}
	return t.Airfld != "" && s.controller(t.Airfld) != side
}

func nearRoad(hex string) bool {
	if data.Hexes[hex].Road > 0 {
		return true
	}
	for _, n := range neighbours(hex) {
		if data.Hexes[n].Road > 0 {
			return true
		}
	}
	return false
}

// stepCost prices one hex of ground movement (14.2-14.7); ok false forbids it.
func stepCost(s *State, u *Unit, from, to string) (int, *problem) {
	in := unitInfo(u.ID)
	if !adjacent(from, to) {
		return 0, fail("14.2", "an adjacent hex", "%s is not next to %s", to, from)
	}
	t := data.Hexes[to]
	switch {
	case t.Lake:
		return 0, fail("14.2", "a land hex", "%s is a lake", to)
	case t.Sweden:
		return 0, fail("4.2", "a Norwegian land hex", "%s is in Sweden", to)
	case !t.Land:
		return 0, fail("14.2", "a land hex", "%s is sea", to)
	}
	k := sideKind(from, to)
	if k == "sea" {
		return 0, fail("14.2", "a move that does not cross a sea hexside", "%s/%s is a sea hexside", from, to)
	}
	if s.occupant(to) == enemy(u.Side) {
		return 0, fail("14.2", "a hex without enemy units", "%s holds enemy units", to)
	}
	if enemyPlace(s, to, u.Side) {
		return 0, fail("16.8", "attack it first", "%s is an enemy port or airfield: it must be attacked to be captured", to)
	}
	if (in.Type == "arm" || in.Type == "art") && !nearRoad(to) {
		return 0, fail("14.7", "road hexes and hexes next to them", "%s may only move on or next to roads", u.ID)
	}
	c := 1
	if t.Port != "" || t.Airfld != "" {
		c++
	}
	if k == "river" && !bridged(s, from, to) {
		c += 3
	}
	if inEZOC(s, from, u.Side) && inEZOC(s, to, u.Side) {
		c++
	}
	return c, nil
}

// allowance is a unit's movement factors for a path (14.3, 14.8).
func allowance(u *Unit, from string, path []string) int {
	in := unitInfo(u.ID)
	ma := in.MF
	allRoad, allMajor, noRoad := data.Hexes[from].Road > 0, data.Hexes[from].Road == 3, true
	for _, h := range path {
		r := data.Hexes[h].Road
		allRoad = allRoad && r > 0
		allMajor = allMajor && r == 3
		noRoad = noRoad && r == 0
	}
	switch {
	case allRoad && allMajor:
		ma += 3
	case allRoad:
		ma += 2
	case noRoad && in.Type != "para" && in.Type != "cav" && in.Type != "mtn":
		ma--
	}
	return ma
}

func canMove(s *State, u *Unit) *problem {
	if !onHex(u.Loc) {
		return fail("14.3", "a unit on a land hex", "%s is not on a land map (%s)", u.ID, u.Loc)
	}
	if u.Landed == s.Turn {
		return fail("12.7", movableUnits(s, u.Side), "%s came ashore or was flown in this turn", u.ID)
	}
	if u.Dropped == s.Turn {
		return fail("13.7", "units not dropped this turn", "%s was air dropped this turn and may not move", u.ID)
	}
	return nil
}

// checkPath validates a ground move along path (hexes entered).
func checkPath(s *State, u *Unit, path []string) *problem {
	if pr := canMove(s, u); pr != nil {
		return pr
	}
	cost, at := 0, u.Loc
	for _, h := range path {
		c, pr := stepCost(s, u, at, h)
		if pr != nil {
			return pr
		}
		cost += c
		at = h
	}
	if ma := allowance(u, u.Loc, path); cost > ma {
		return fail("14.3", fmt.Sprintf("a path of at most %d MF", ma), "the move costs %d MF, more than %s's %d", cost, u.ID, ma)
	}
	return nil
}

// planLand turns a move order's hexes into a checked path; a single far
// hex is reached by the cheapest legal path. A path refused says what
// would be accepted instead (moveHint).
func planLand(s *State, u *Unit, args []string) ([]string, *problem) {
	var hexes []string
	for _, a := range args {
		h, ok := canonHex(a)
		if !ok {
			return nil, fail("14.3", "hexes such as B:E3", "%q is not a land hex", a)
		}
		hexes = append(hexes, h)
	}
	if pr := canMove(s, u); pr != nil {
		return nil, pr
	}
	path, pr := planPath(s, u, hexes)
	if pr != nil {
		pr.valid = moveHint(s, u, hexes[len(hexes)-1])
	}
	return path, pr
}

// moveHint names orders the phase accepts for u instead of a move to
// target that is refused: an attack on target where u alone may make one
// (16.8: an enemy port or airfield is taken by attack), and moves to the
// hexes u can reach nearest target.
func moveHint(s *State, u *Unit, target string) string {
	var out []string
	if adjacent(u.Loc, target) && (s.occupant(target) == enemy(u.Side) || enemyPlace(s, target, u.Side)) &&
		checkAttack(s, u.Side, target, []string{u.ID}, &Orders{}) == nil {
		out = append(out, fmt.Sprintf("attack %s with %s", target, u.ID))
	}
	dist, _ := landCosts(s, u, false)
	var cand []string
	for h := range dist {
		if h != u.Loc && h != target {
			cand = append(cand, h)
		}
	}
	sort.Slice(cand, func(i, j int) bool {
		di, dj := sameMapDist(cand[i], target), sameMapDist(cand[j], target)
		if di != dj {
			return di < dj
		}
		return cand[i] < cand[j]
	})
	for _, h := range cand {
		if _, pr := planPath(s, u, []string{h}); pr == nil {
			out = append(out, "move "+u.ID+" "+h)
		}
		if len(out) == 4 {
			break
		}
	}
	if len(out) == 0 {
		return "none: " + u.ID + " can move nowhere this turn"
	}
	return strings.Join(out, "; ")
}

// planPath is planLand's path for a unit that may move: the hexes given,
// or the cheapest legal path to a single far hex.
func planPath(s *State, u *Unit, hexes []string) ([]string, *problem) {
	if len(hexes) == 1 && !adjacent(u.Loc, hexes[0]) {
		if p := shortestLand(s, u, hexes[0], false); p != nil && checkPath(s, u, p) == nil {
			return p, nil
		}
		if p := shortestLand(s, u, hexes[0], true); p != nil && checkPath(s, u, p) == nil {
			return p, nil
		}
		return nil, fail("14.3", "a hex within reach", "%s cannot reach %s this turn", u.ID, hexes[0])
	}
	if pr := checkPath(s, u, hexes); pr != nil {
		return nil, pr
	}
	return hexes, nil
}

// shortestLand is a cheapest path by step costs (ties by hex name), on
// road hexes only if roads.
func shortestLand(s *State, u *Unit, to string, roads bool) []string {
	_, prev := landCosts(s, u, roads)
	return pathTo(u.Loc, to, prev)
}

// landCosts runs Dijkstra from a unit's hex over the hexes it could reach
// with its largest allowance (movement factor + 3 on roads).
func landCosts(s *State, u *Unit, roads bool) (map[string]int, map[string]string) {
	limit := unitInfo(u.ID).MF + 3
	dist := map[string]int{u.Loc: 0}
	prev := map[string]string{}
	done := map[string]bool{}
	frontier := []string{u.Loc}
	for len(frontier) > 0 {
		bi := 0
		for i, h := range frontier {
			if dist[h] < dist[frontier[bi]] || (dist[h] == dist[frontier[bi]] && h < frontier[bi]) {
				bi = i
			}
		}
		best := frontier[bi]
		frontier = append(frontier[:bi], frontier[bi+1:]...)
		if done[best] {
			continue
		}
		done[best] = true
		for _, n := range neighbours(best) {
			if done[n] || (roads && data.Hexes[n].Road == 0) {
				continue
			}
			c, pr := stepCost(s, u, best, n)
			if pr != nil || dist[best]+c > limit {
				continue
			}
			if d, ok := dist[n]; !ok || dist[best]+c < d || (dist[best]+c == d && best < prev[n]) {
				dist[n] = dist[best] + c
				prev[n] = best
				frontier = append(frontier, n)
			}
		}
	}
	return dist, prev
}

func pathTo(from, to string, prev map[string]string) []string {
	if _, ok := prev[to]; !ok || to == from {
		return nil
	}
	var rev []string
	for at := to; at != from; at = prev[at] {
		rev = append(rev, at)
	}
	out := make([]string, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}

// checkFerry validates the ferry of Map F (14.6) and returns the far end.
func checkFerry(s *State, u *Unit) (string, *problem) {
	if pr := canMove(s, u); pr != nil {
		return "", pr
	}
	for _, k := range sortedKeys(data.Sides) {
		hs := data.Sides[k]
		if hs.Kind != "ferry" {
			continue
		}
		to := ""
		switch u.Loc {
		case hs.A:
			to = hs.B
		case hs.B:
			to = hs.A
		default:
			continue
		}
		if s.occupant(to) == enemy(u.Side) {
			return "", fail("14.6", "a ferry end without enemy units", "the far end %s is enemy occupied", to)
		}
		if enemyPlace(s, to, u.Side) {
			return "", fail("16.8", "attack it first", "%s is an enemy port or airfield", to)
		}
		return to, nil
	}
	return "", fail("14.6", "a unit on a ferry end ("+ferryEnds()+")", "%s is not at a ferry end", u.ID)
}

func ferryEnds() string {
	var out []string
	for _, k := range sortedKeys(data.Sides) {
		if hs := data.Sides[k]; hs.Kind == "ferry" {
			out = append(out, hs.A, hs.B)
		}
	}
	return strings.Join(out, ", ")
}

// combat is the strength of one attack (16.2, 16.9-16.15).
type combat struct {
	Att, Def int
	Column   string
}

func attackValue(s *State, side engine.Side, target string, attackers []string, targets []string) combat {
	var defs []*Unit
	for _, u := range s.unitsAt(target) {
		if u.Side != side {
			defs = append(defs, u)
		}
	}
	defThirds, defArmor, attArmor := 0, false, false
	for _, u := range defs {
		defThirds += thirds(u.ID)
		defArmor = defArmor || unitInfo(u.ID).Type == "arm"
	}
	for _, id := range attackers {
		attArmor = attArmor || unitInfo(id).Type == "arm"
	}
	a := 0
	counted := map[string]bool{}
	for _, id := range attackers {
		u := s.unit(id)
		in := unitInfo(id)
		f := u.cf()
		if in.Type == "art" {
			if defThirds >= 3 {
				m := defThirds / 3
				if m > 3 {
					m = 3
				}
				f *= m
			} else {
				f = (f + 1) / 2
			}
		}
		if in.Type == "at" && defArmor {
			f *= 2
		}
		if in.Type != "art" && sideKind(u.Loc, target) == "river" {
			f = (f + 1) / 2
		}
		a += f
		for _, n := range neighbours(u.Loc) {
			if k := sideKind(u.Loc, n); k == "sea" || k == "river" || containsStr(targets, n) {
				continue
			}
			for _, e := range s.unitsAt(n) {
				if e.Side != side && !counted[e.ID] {
					counted[e.ID] = true
					a--
				}
			}
		}
	}
	m := data.Hexes[target].Map
	a += airBonus(s, m, side)
	d := 0
	allArt := len(defs) > 0
	for _, u := range defs {
		allArt = allArt && unitInfo(u.ID).Type == "art"
	}
	for _, u := range defs {
		f := u.cf()
		if allArt {
			f = 1
		}
		if unitInfo(u.ID).Type == "at" && attArmor {
			f *= 2
		}
		d += f
	}
	t := data.Hexes[target]
	if t.Port != "" || t.Airfld != "" {
		d++
	}
	d += airBonus(s, m, enemy(side))
	return combat{Att: a, Def: d, Column: landColumn(a, d)}
}

func landColumn(a, d int) string {
	if a <= 0 {
		return ""
	}
	if d <= 0 {
		return "5:1"
	}
	if a >= d {
		n := a / d
		if n > 5 {
			n = 5
		}
		return fmt.Sprintf("%d:1", n)
	}
	if 2*a >= d {
		return "1:2"
	}
	return ""
}

func attackTargets(o *Orders) []string {
	var out []string
	for _, ord := range o.List {
		if ord.Verb == "attack" {
			out = append(out, ord.ID)
		}
	}
	return out
}

// checkAttack validates one attack against the positions in s.
func checkAttack(s *State, side engine.Side, target string, attackers []string, o *Orders) *problem {
	t := data.Hexes[target]
	if !t.Land {
		return fail("16.1", "a land hex", "%s is not land", target)
	}
	occ := s.occupant(target)
	if occ == side {
		return fail("16.1", "a hex with enemy units or an enemy port or airfield", "%s holds your own units", target)
	}
	if occ == "" && !enemyPlace(s, target, side) {
		return fail("16.1", "a hex with enemy units or an enemy port or airfield", "there is nothing to attack at %s", target)
	}
	for _, id := range attackers {
		u := s.unit(id)
		if !onHex(u.Loc) || !adjacent(u.Loc, target) {
			return fail("16.1", attackHint(s, side, target, o), "%s is not next to %s", id, target)
		}
		if u.Landed == s.Turn {
			return fail("12.7", movableUnits(s, side), "%s landed this turn and may not attack", id)
		}
		if u.RT {
			return fail("16.4", "units without a retreat marker", "%s retreated and may not attack this phase", id)
		}
		if sideKind(u.Loc, target) == "sea" && unitInfo(id).Type != "art" {
			return fail("16.14", "artillery only across a sea hexside", "%s may not attack across a sea hexside", id)
		}
	}
	c := attackValue(s, side, target, attackers, attackTargets(o))
	if c.Column == "" {
		return fail("16.2", attackHint(s, side, target, o), "%d to %d is below 1:2", c.Att, c.Def)
	}
	return nil
}

// attackHint is what would be accepted instead of an attack on target
// below 1:2 (16.2): the attack by every unit of side next to target that
// may attack it and attacks nothing else, when that makes 1:2 or more.
func attackHint(s *State, side engine.Side, target string, o *Orders) string {
	others := map[string]bool{}
	for _, ord := range o.List {
		if ord.Verb == "attack" && ord.ID != target {
			for _, id := range ord.Args {
				others[id] = true
			}
		}
	}
	var all []string
	for _, n := range neighbours(target) {
		for _, u := range s.unitsAt(n) {
			if u.Side != side || others[u.ID] || u.RT || u.Landed == s.Turn || (sideKind(n, target) == "sea" && unitInfo(u.ID).Type != "art") {
				continue
			}
			all = append(all, u.ID)
		}
	}
	if len(all) == 0 {
		return "none on " + target + ": no unit of yours that may attack it is next to it"
	}
	c := attackValue(s, side, target, all, attackTargets(o))
	if c.Column == "" {
		return fmt.Sprintf("none on %s: every unit of yours that may attack it makes %d to %d", target, c.Att, c.Def)
	}
	return fmt.Sprintf("attack %s with %s (%d to %d)", target, strings.Join(all, " "), c.Att, c.Def)
}

// resolveLand carries out one side's land phase: standing orders, landings,
// embarkations, airlifts and drops, movement, bridges, then attacks.
func resolveLand(s *State, o *Orders, d engine.Dice) {
	side := o.Side
	phaseMark := s.Turn*10 + s.Step
	watch := bridgeWatch(s, side)
	if !o.Keep {
		applyStandingOrders(s, side, o)
	}
	if side == German && s.Turn == 1 {
		landFromBattleships(s, d)
	}
	for _, ord := range o.List {
		if do := beforeMoveOrders[ord.Verb]; do != nil {
			do(s, side, ord, d)
		}
	}
	moveLandUnits(s, side, o)
	blowBridges(s, side, o)
	overstack(s, side)
	repairBridges(s, side, watch)
	resolveAttacks(s, side, o, d)
	clearRetreatMarkers(s, side, phaseMark)
	var hold []string
	for _, id := range s.Hold {
		if s.unit(id).Loc != LocElim {
			hold = append(hold, id)
		}
	}
	s.Hold = hold
}

// applyStandingOrders records side's losses order and its list of units
// that hold.
func applyStandingOrders(s *State, side engine.Side, o *Orders) {
	for _, ord := range o.List {
		if ord.Verb == "losses" {
			setLossOrder(s, side, ord.Args)
		}
		if ord.Verb == "hold" {
			var keep []string
			for _, id := range s.Hold {
				if s.unit(id).Side != side {
					keep = append(keep, id)
				}
			}
			if ord.Args[0] != "none" {
				keep = append(keep, ord.Args...)
			}
			sort.Strings(keep)
			s.Hold = keep
		}
	}
}

// landFromBattleships lands the troops the German battleships carry on
// turn 1 (12.2).
func landFromBattleships(s *State, d engine.Dice) {
	for i := range s.Ships {
		sh := &s.Ships[i]
		if sh.Side == German && sh.Kind == "bs" && len(sh.Cargo) > 0 && !sh.Tried && sh.onMap() {
			disembark(s, sh, d)
		}
	}
}

// beforeMoveOrders carries out the orders of a land phase that come before
// movement, each in the order given.
var beforeMoveOrders = map[string]func(s *State, side engine.Side, ord Order, d engine.Dice){
	"disembark": orderDisembark,
	"embark":    orderEmbark,
	"airlift":   orderAirlift,
	"drop":      orderDrop,
	"sabotage":  orderSabotage,
}

// orderDisembark lands a ship's troops (12).
func orderDisembark(s *State, side engine.Side, ord Order, d engine.Dice) {
	sh := s.ship(ord.ID)
	if sh.Sunk {
		return
	}
	if _, pr := landingPort(s, sh); pr != nil {
		s.logf(side, "disembark %s cancelled: %s (%s)", sh.ID, pr.msg, pr.rule)
		return
	}
	disembark(s, sh, d)
}

// orderEmbark takes units in a port aboard a ship (12.8), or a failed
// landing's troops back aboard (12.2, from revision 2).
func orderEmbark(s *State, side engine.Side, ord Order, _ engine.Dice) {
	sh := s.ship(ord.ID)
	port, pr := embarkPort(s, sh)
	if pr != nil {
		s.logf(side, "embark %s cancelled: %s", sh.ID, pr.msg)
		return
	}
	back := reembarking(s, sh)
	n := 0
	for _, id := range ord.Args {
		u := s.unit(id)
		if back && !containsStr(sh.Ashore, id) {
			continue
		}
		if u.Loc == port.Hex || u.Loc == port.Quay {
			u.Loc = shipPrefix + sh.ID
			sh.Cargo = append(sh.Cargo, id)
			n++
		}
	}
	if back {
		sh.Ashore = nil
	}
	if n > 0 && usesPort(s, sh) {
		s.PortUse = append(s.PortUse, fmt.Sprintf("%d:%s", s.Turn, port.Name))
	}
	if n > 0 {
		rule := "12.8"
		if back {
			rule = "12.2" // a failed landing's troops taken back aboard, from revision 2
		}
		s.logf(side, "%s embarks %s at %s (%s)", sh.ID, strings.Join(ord.Args, " "), port.Name, rule)
		s.logf(enemy(side), "%s %s embarks troops at %s", side, sh.ID, port.Name)
	}
}

// orderAirlift flies a German unit in to an airfield (13.1).
func orderAirlift(s *State, side engine.Side, ord Order, _ engine.Dice) {
	u := s.unit(ord.ID)
	af, pr := checkAirlift(s, u, ord.Args[0])
	if pr != nil {
		s.logf(side, "airlift %s cancelled: %s (%s)", u.ID, pr.msg, pr.rule)
		return
	}
	if u.Loc == LocAirlift {
		s.Airlifts++
	}
	s.AirliftTurn = s.Turn
	u.Loc = data.airfield(af).Hex
	u.Landed = s.Turn
	s.logf("", "German %s flown in to %s (13.1)", u.ID, af)
}

// orderDrop air drops a German unit on a hex (13.5, 13.6).
func orderDrop(s *State, side engine.Side, ord Order, _ engine.Dice) {
	u := s.unit(ord.ID)
	h, pr := checkDrop(s, u, ord.Args[0])
	if pr != nil {
		s.logf(side, "drop %s cancelled: %s (%s)", u.ID, pr.msg, pr.rule)
		return
	}
	u.Loc = h
	u.Dropped = s.Turn
	s.logf("", "German %s air dropped on %s (13.5)", u.ID, h)
	if unitInfo(u.ID).Type == "mtn" {
		u.Reduced = true
		s.logf("", "%s is reduced by the drop (13.6)", u.ID)
	}
}

// orderSabotage is the Allied attempt to blow a bridge (15.2).
func orderSabotage(s *State, side engine.Side, ord Order, d engine.Dice) {
	a, b := ord.Args[0], ord.Args[1]
	if isBlown(s, sideKey(a, b)) || s.occupant(a) == German || s.occupant(b) == German || s.SabotageTurn == s.Turn {
		s.logf(side, "sabotage of %s/%s not possible now (15.2)", a, b)
		return
	}
	s.SabotageTurn = s.Turn
	r := d.Roll(6, "Allied attempt to blow a bridge (15.2)")
	if r <= 4 {
		s.Blown = append(s.Blown, Bridge{Side: sideKey(a, b)})
		s.logf("", "the bridge %s/%s is blown (15.2, die %d)", a, b, r)
	} else {
		s.logf(side, "the attempt on the bridge %s/%s fails (die %d)", a, b, r)
	}
}

// moveLandUnits carries out the move and ferry orders, in the order given.
func moveLandUnits(s *State, side engine.Side, o *Orders) {
	for _, ord := range o.List {
		if ord.Verb != "move" && ord.Verb != "ferry" {
			continue
		}
		u := s.unit(ord.ID)
		if u.Loc == LocElim {
			continue
		}
		if ord.Verb == "ferry" {
			to, pr := checkFerry(s, u)
			if pr != nil {
				s.logf(side, "ferry %s cancelled: %s", u.ID, pr.msg)
				continue
			}
			moveUnit(s, u, to)
			continue
		}
		if pr := checkPath(s, u, ord.Args); pr != nil {
			s.logf(side, "move %s cancelled: %s (%s)", u.ID, pr.msg, pr.rule)
			continue
		}
		moveUnit(s, u, ord.Args[len(ord.Args)-1])
	}
}

// blowBridges carries out the blow orders (15.1).
func blowBridges(s *State, side engine.Side, o *Orders) {
	for _, ord := range o.List {
		if ord.Verb != "blow" {
			continue
		}
		a, b := ord.Args[0], ord.Args[1]
		mine := (s.occupant(a) == side && s.occupant(b) != enemy(side)) || (s.occupant(b) == side && s.occupant(a) != enemy(side))
		if isBlown(s, sideKey(a, b)) || !mine {
			s.logf(side, "blow %s/%s not possible: a unit must stand by the bridge with no enemy across (15.1)", a, b)
			continue
		}
		s.Blown = append(s.Blown, Bridge{Side: sideKey(a, b)})
		s.logf("", "the bridge %s/%s is blown (15.1)", a, b)
	}
}

// resolveAttacks carries out the attack orders (16), in the order given,
// by the attackers still on the map.
func resolveAttacks(s *State, side engine.Side, o *Orders, d engine.Dice) {
	targets := attackTargets(o)
	for _, ord := range o.List {
		if ord.Verb != "attack" {
			continue
		}
		var att []string
		for _, id := range ord.Args {
			if u := s.unit(id); onHex(u.Loc) {
				att = append(att, id)
			}
		}
		if len(att) == 0 {
			continue
		}
		if pr := checkAttack(s, side, ord.ID, att, o); pr != nil {
			s.logf(side, "attack on %s cancelled: %s (%s)", ord.ID, pr.msg, pr.rule)
			continue
		}
		engine.Step(d, "land attacks (16)")
		landAttack(s, side, ord.ID, att, ord.Adv, targets, d)
	}
}

// clearRetreatMarkers applies 16.4: "Remove the RT-marker after their
// attack phase": a defender's marker after its side's next land phase, in
// which it may not attack; from revision 2 an attacker's (a1, a2) after the
// phase it retreated in, which is its attack phase; revision 1 kept it a
// turn longer.
func clearRetreatMarkers(s *State, side engine.Side, phaseMark int) {
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side == side && u.RT && (u.RTStep != phaseMark || s.rev().Has(RetreatMarkerOwnPhase)) {
			u.RT = false
		}
	}
}

// moveUnit puts a unit on a hex; entering a port or airfield takes control.
func moveUnit(s *State, u *Unit, to string) {
	u.Loc = to
	t := data.Hexes[to]
	if t.Port != "" {
		s.setControl(t.Port, u.Side)
	}
	if t.Airfld != "" {
		s.setControl(t.Airfld, u.Side)
	}
}

// overstack eliminates units above the stacking limit at the end of
// movement (12.6, 13.3, 14.1): the owner's choice, his standing losses
// order first, then the weakest.
func overstack(s *State, side engine.Side) {
	seen := map[string]bool{}
	for i := range s.Units {
		h := s.Units[i].Loc
		if s.Units[i].Side != side || !onHex(h) || seen[h] {
			continue
		}
		seen[h] = true
		for s.stackThirds(h, side) > 9 {
			var weakest *Unit
			for _, u := range s.unitsAt(h) {
				if u.Side != side {
					continue
				}
				r, w := s.lossRank(side, u.ID), -1
				if weakest != nil {
					w = s.lossRank(side, weakest.ID)
				}
				switch {
				case weakest == nil:
					weakest = u
				case r >= 0 && (w < 0 || r < w):
					weakest = u
				case r < 0 && w < 0 && u.cf() < weakest.cf():
					weakest = u
				}
			}
			weakest.Loc = LocElim
			s.logf("", "%s %s eliminated: overstacked on %s (14.1)", side, weakest.ID, h)
		}
	}
}

// bridgeWatch lists, for each bridge blown at the start of side's land
// phase, side's units next to it then (15.3, from revision 2).
func bridgeWatch(s *State, side engine.Side) map[string][]string {
	if !s.rev().Has(BridgeRepairFullTurns) {
		return nil
	}
	out := map[string][]string{}
	for _, b := range s.Blown {
		hs := data.Sides[b.Side]
		for _, u := range append(s.unitsAt(hs.A), s.unitsAt(hs.B)...) {
			if u.Side == side {
				out[b.Side] = append(out[b.Side], u.ID)
			}
		}
	}
	return out
}

// repairBridges counts the turns a side stands by a blown bridge with no
// enemy on the other side, at the end of its movement (15.3): "staying 2
// full turns next to the blown bridge". Revision 1 counted every turn that
// ended with a unit there; from revision 2 a turn counts only for a unit
// that was next to the bridge, already blown, when the phase began and
// still is, so the turn a bridge is blown or a unit arrives is no full
// turn.
func repairBridges(s *State, side engine.Side, watch map[string][]string) {
	var keep []Bridge
	for _, b := range s.Blown {
		hs := data.Sides[b.Side]
		by := (s.occupant(hs.A) == side && s.occupant(hs.B) != enemy(side)) || (s.occupant(hs.B) == side && s.occupant(hs.A) != enemy(side))
		if s.rev().Has(BridgeRepairFullTurns) && by {
			by = false
			for _, id := range watch[b.Side] {
				if l := s.unit(id).Loc; l == hs.A || l == hs.B {
					by = true
				}
			}
		}
		switch {
		case by && b.RepairSide == side:
			b.Repair++
		case by:
			b.RepairSide, b.Repair = side, 1
		case b.RepairSide == side:
			b.RepairSide, b.Repair = "", 0
		}
		if b.Repair >= 2 {
			s.logf("", "the bridge %s/%s is repaired (15.3)", hs.A, hs.B)
			continue
		}
		keep = append(keep, b)
	}
	s.Blown = keep
}

func landAttack(s *State, side engine.Side, target string, att []string, adv string, targets []string, d engine.Dice) {
	c := attackValue(s, side, target, att, targets)
	r := d.Roll(6, "land combat at "+target+" (16.3)")
	res := data.LandCRT[c.Column][r-1]
	s.logf("", "%s attack on %s with %s: %d to %d, column %s, die %d: %s (16.3)", side, target, strings.Join(att, " "), c.Att, c.Def, c.Column, r, res)
	mark := s.Turn*10 + s.Step
	var defs []*Unit
	for _, u := range s.unitsAt(target) {
		if u.Side != side {
			defs = append(defs, u)
		}
	}
	switch res {
	case "a1", "a2":
		n := int(res[1] - '0')
		for _, id := range att {
			u := s.unit(id)
			retreat(s, u, n, target)
			if u.Loc != LocElim {
				u.RT, u.RTStep = true, mark
			}
		}
		return
	case "d1", "d2":
		n := int(res[1] - '0')
		for _, u := range defs {
			if containsStr(s.Hold, u.ID) {
				s.logf("", "%s %s reduces itself to hold %s (16.6)", u.Side, u.ID, target)
				reduceUnit(s, u)
				continue
			}
			retreat(s, u, n, att0(s, att))
			if u.Loc != LocElim {
				u.RT, u.RTStep = true, mark
			}
		}
	case "r":
		for _, u := range defs {
			reduceUnit(s, u)
		}
	default:
		return
	}
	if s.occupant(target) != "" {
		return
	}
	t := data.Hexes[target]
	for _, id := range att {
		if adv == "none" || (adv != "" && id != adv) {
			continue
		}
		u := s.unit(id)
		if (adv == "" && unitInfo(id).Type == "art") || sideKind(u.Loc, target) == "sea" || !onHex(u.Loc) {
			continue
		}
		if unitInfo(id).Type == "arm" && !nearRoad(target) {
			continue
		}
		s.logf("", "%s %s advances into %s (16.7)", side, id, target)
		moveUnit(s, u, target)
		return
	}
	if t.Port != "" {
		s.setControl(t.Port, side)
	}
	if t.Airfld != "" {
		s.setControl(t.Airfld, side)
	}
}

func att0(s *State, att []string) string { return s.unit(att[0]).Loc }

// retreat moves a unit n hexes away from a hex (16.3, 16.5, 16.13).
func retreat(s *State, u *Unit, n int, from string) {
	start := u.Loc
	visited := map[string]bool{start: true}
	for i := 0; i < n; i++ {
		cur := u.Loc
		best, bestScore := "", -1<<30
		for _, h := range neighbours(cur) {
			t := data.Hexes[h]
			if !t.Land || visited[h] || sideKind(cur, h) == "sea" || s.occupant(h) == enemy(u.Side) || enemyPlace(s, h, u.Side) {
				continue
			}
			sc := 0
			if sameMapDist(h, from) > sameMapDist(cur, from) {
				sc += 100
			}
			if !inEZOC(s, h, u.Side) {
				sc += 10
			}
			if s.stackThirds(h, u.Side)+thirds(u.ID) <= 9 {
				sc += 5
			}
			if sc > bestScore {
				best, bestScore = h, sc
			}
		}
		if best == "" {
			s.logf("", "%s %s cannot retreat from %s and is eliminated (16.13)", u.Side, u.ID, cur)
			u.Loc = LocElim
			return
		}
		visited[best] = true
		u.Loc = best
	}
	if inEZOC(s, u.Loc, u.Side) {
		s.logf("", "%s %s ends its retreat in an enemy zone of control and is eliminated (16.5)", u.Side, u.ID)
		u.Loc = LocElim
		return
	}
	if unitInfo(u.ID).Type == "arm" && !nearRoad(u.Loc) {
		s.logf("", "%s %s retreats more than 1 hex from a road and is destroyed (16.13)", u.Side, u.ID)
		u.Loc = LocElim
		return
	}
	s.logf("", "%s %s retreats from %s to %s", u.Side, u.ID, start, u.Loc)
}

func sameMapDist(a, b string) int {
	ma, ha, _ := splitHex(a)
	mb, hb, _ := splitHex(b)
	if ma != mb {
		return 99
	}
	return ha.Distance(hb)
}
