package kriegsmarine

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// TorpedoTable is the Surface Ship, Submarine and Fortress Torpedo Attack
// Table (PAC #3), 2d6 after modifiers, low rolls good for the attacker:
// "fatal" (roll on the Fatal Flooding Damage Table), "flood" (1 flooding),
// "hit" (1 hit) or "" (a miss). Source: 9.21 example (Oscarsborg: 11
// misses, 7 modified to 3 goes to the fatal flooding table); the rest is
// reconstructed.
var TorpedoTable = engine.MustTable("Torpedo Attack Table",
	engine.TableRow[string]{Lo: -20, Hi: 3, Result: "fatal"},
	engine.TableRow[string]{Lo: 4, Hi: 5, Result: "flood"},
	engine.TableRow[string]{Lo: 6, Hi: 6, Result: "hit"},
	engine.TableRow[string]{Lo: 7, Hi: 20, Result: ""},
)

// Torpedo modifiers. Source: 9.21 example (Oscarsborg -4); German torpedoes
// failed in 1940 (Designer's Notes, 17.5: U-boats use the Allied table only
// with that option; 17.51 German surface ships likewise), reconstructed as
// +2.
const (
	torpFortress = -4
	torpGerman   = 2
)

// FatalFlooding is the Fatal Flooding Damage Table (PAC #3, 8.661), 1d6:
// flooding points and whether the special effects apply. Source: 8.661 (1
// engine damage; 4 and 6 additional flooding) and 9.21 example (4: 2
// flooding points and 1 more on another ship in the hex); the flooding
// counts of 1, 2, 3, 5 and 6 are reconstructed.
var FatalFlooding = map[int]struct {
	Flood           int
	Engine, Another bool
}{
	1: {1, true, false}, 2: {1, false, false}, 3: {2, false, false},
	4: {2, false, true}, 5: {3, false, false}, 6: {1, false, true},
}

// torpedo rolls one torpedo attack on target with a modifier and applies
// the result; it returns what happened.
func (s *State) torpedo(target string, mod int, d engine.Dice, why string) string {
	roll := engine.TwoD6(d, why)
	res := TorpedoTable.Lookup(roll + mod)
	name := def(target).Name
	switch res {
	case "":
		return fmt.Sprintf("torpedo at %s: %d%+d, miss", name, roll, mod)
	case "hit", "flood":
		return fmt.Sprintf("torpedo at %s: %d%+d, %s", name, roll, mod, s.damage(target, res))
	}
	f := FatalFlooding[d.Roll(6, "fatal flooding (8.661)")]
	var out []string
	for i := 0; i < f.Flood; i++ {
		if x := s.damage(target, "flood"); x != "" {
			out = append(out, x)
		}
	}
	if f.Engine && s.unit(target).Where == AtMap && s.unit(target).Disabled == 0 {
		s.unit(target).Disabled = s.Turn
		out = append(out, name+" has engine damage and cannot sail this turn")
	}
	if f.Another && !s.noSpread { // 9.21 example: not on a withdrawal
		h := s.unit(target).Hex
		for _, id := range s.onMap(def(target).Side, h, func(x *UnitDef) bool { return x.Surface() }) {
			if id != target {
				out = append(out, s.damage(id, "flood"))
				break
			}
		}
	}
	return fmt.Sprintf("torpedo at %s: %d%+d, fatal flooding: %s", name, roll, mod, strings.Join(out, ", "))
}

// detected is the set of hexes where side found enemy surface ships this
// turn, by any search (8.11, 8.52).
func (s *State) detected(side engine.Side) map[engine.Hex]bool {
	out := map[engine.Hex]bool{}
	for _, e := range s.Log {
		if e.Turn != s.Turn || e.To != string(side) || e.Count == 0 {
			continue
		}
		if e.Kind == "search" || e.Kind == "passive" || e.Kind == "tracking" {
			if h, ok := onMapHex(e.Hex); ok {
				out[h] = true
			}
		}
	}
	for _, t := range s.Tracks {
		if t.Tracker == side {
			out[t.Hex] = true
		}
	}
	return out
}

// typeRank orders ship types from most to least worth a torpedo or a bomb.
var typeRank = []string{"BB", "BC", "CV", "CONVOY", "AS", "CA", "PD", "ACD", "CL", "AO", "ML", "DD", "TB", "AGP", "PT"}

// chooseTarget picks the biggest type among ids, and among ships of that
// type one at random (8.12).
func (s *State) chooseTarget(ids []string, d engine.Dice, why string) string {
	rank := func(id string) int {
		for i, t := range typeRank {
			if def(id).Type == t {
				return i
			}
		}
		return len(typeRank)
	}
	sort.SliceStable(ids, func(i, j int) bool { return rank(ids[i]) < rank(ids[j]) })
	var same []string
	for _, id := range ids {
		if rank(id) == rank(ids[0]) {
			same = append(same, id)
		}
	}
	if len(same) == 1 {
		return same[0]
	}
	return same[d.Roll(len(same), why)-1]
}

// submarineAttacks is step 1 of the combat phase (8.1): on day turns every
// submarine sharing a hex with enemy surface ships its side detected this
// turn attacks once, the Allies first; the Norwegian A class only once a
// game (9.33). Simultaneous: every target is chosen before any damage.
func (s *State) submarineAttacks(orders map[engine.Side]*Orders, dice engine.Dice) {
	if !IsDay(s.Turn) {
		return
	}
	type attack struct{ sub, target string }
	var attacks []attack
	for _, side := range []engine.Side{Allied, German} {
		seen := s.detected(side)
		for _, u := range s.Units {
			d := def(u.ID)
			if d.Side != side || !d.Sub() || u.Where != AtMap || !seen[u.Hex] {
				continue
			}
			if d.TorpMode == TorpOnce && u.TorpUsed >= d.Torpedo {
				continue
			}
			targets := s.visibleAt(other(side), u.Hex)
			if len(targets) == 0 {
				continue
			}
			targets = preferred(orders[side], u.ID, targets)
			attacks = append(attacks, attack{u.ID, s.chooseTarget(targets, dice, "submarine target (8.12)")})
		}
	}
	for _, a := range attacks {
		mod := 0
		if def(a.sub).Side == German && !s.has(OptTorpedoes) {
			mod = torpGerman
		}
		s.unit(a.sub).TorpUsed++
		h := s.unit(a.sub).Hex
		hp := s.unit(a.target).Hits + s.unit(a.target).Flooding
		if oiler(a.target) {
			s.sink(a.target)
			s.logf("both", "combat", h.String(), "13.2", "Submarine attack at %s by %s: the oiler %s is sunk.", h, def(a.sub).Name, def(a.target).Name)
			s.spentSubmarine(a.sub)
			continue
		}
		res := s.torpedo(a.target, mod, dice, "submarine torpedo attack (8.1)")
		s.logf("both", "combat", h.String(), "8.1", "Submarine attack at %s by %s: %s.", h, def(a.sub).Name, res)
		s.spentSubmarine(a.sub)
		if t := s.unit(a.target); t.Where == AtSunk || t.Hits+t.Flooding > hp {
			s.injuries([]string{a.target}, false, h, dice) // 10.3: hit by a torpedo
		}
	}
}

// spentSubmarine removes a submarine that may attack once a game, the
// Norwegian A Class, once it has (9.33: "After making the torpedo attack,
// remove it from the game"). Revision 1 left it on the map.
func (s *State) spentSubmarine(id string) {
	d, u := def(id), s.unit(id)
	if s.rev() < 2 || d.TorpMode != TorpOnce || u.TorpUsed < d.Torpedo {
		return
	}
	u.Where = AtOut
	s.logf(string(d.Side), "combat", u.Hex.String(), "9.33", "%s has made its one torpedo attack of the game and is removed from the game.", d.Name)
}

// fortressFire is step 3 of the combat phase (8.4, 9.2): a Norwegian
// fortress fires at German surface ships in its hex, after the Fortress
// Effects Table gives its posture; a German-held fortress fires at Allied
// ships with normal defence. From revision 2 the Oslo outer fortress also
// fires at the ships that passed it this turn on their way into Oslo
// (9.21), before Oscarsborg does (fortresses fire in map order, H16
// before I16). start holds where each unit began its move.
func (s *State) fortressFire(abandons []Abandon, visited map[string][]engine.Hex, start map[string]engine.Hex, dice engine.Dice) {
	for _, f := range TheMap().Fortresses() {
		port := fortressPort(f)
		german := s.occupation("port", port) >= 0
		enemy := German
		if german {
			enemy = Allied
		}
		ships := s.fortressTargets(enemy, f, visited)
		if len(ships) == 0 || (enemy == Allied && s.intervention() == 0) {
			continue
		}
		posture, roll := "normal", 0
		if !german {
			roll = dice.Roll(6, "fortress effects (9.2)")
			r := roll
			if f.Fortress == "Oscarsborg" && s.eriksen() {
				r-- // Colonel Eriksen (9.21 example, 10.1)
			}
			posture = FortressTable.Lookup(r)
		}
		torps := 0
		if f.Fortress == "Oscarsborg" || (f.Fortress == "Bergen" && s.has(OptBergenTorpedoes)) {
			torps = 2
			if posture == "halved" {
				torps = 1
			}
		}
		targets := append([]string(nil), ships...)
		if posture == "halved" && torps == 0 {
			targets = targets[:(len(targets)+1)/2]
		}
		// 9.2: knowing the posture, the Germans may give up the port: one
		// leading ship takes the fire, and they all fall back.
		abandon := false
		if !german && posture != "none" {
			for _, a := range abandons {
				if a.Port == port {
					abandon = true
					lead := a.Lead
					if !contains(ships, lead) {
						lead = strongest(s, ships)
					}
					targets = []string{lead}
				}
			}
		}
		s.noSpread = abandon
		var out []string
		if posture != "none" {
			out = s.fortressVolley(f.Hex, targets, torps, dice)
		}
		s.noSpread = false
		if len(out) == 0 {
			out = append(out, "no damage")
		}
		how := fmt.Sprintf("rolled %d, %s defence", roll, posture)
		if german {
			how = "German-held, normal defence"
		}
		if abandon {
			how += ", the Germans withdraw"
		}
		s.logf("both", "combat", f.Hex.String(), "9.2", "Fortress %s (%s) fires: %s.", f.Fortress, how, strings.Join(out, "; "))
		if posture != "none" {
			s.injuries(targets, f.Fortress == "Oscarsborg" && !german, f.Hex, dice)
		}
		if abandon {
			for _, id := range ships {
				if s.unit(id).Where != AtMap {
					continue
				}
				path := visited[id]
				if at, ok := start[id]; ok && s.rev() >= 2 {
					path = append([]engine.Hex{at}, path...)
				}
				s.fallBack(id, f.Hex, path)
			}
		}
	}
}

// fortressTargets are the enemy surface ships a fortress fires at: those
// that stopped in its hex (8.4) and, from revision 2, for the Oslo outer
// fortress those that entered its hex this turn and went on into Oslo
// (9.21: "ships wishing to enter Oslo must first pass the Oslo outer
// fortress at H16, then pass the Oscarsborg fortress"); ships leaving Oslo
// are not entering it. Sorted by id.
func (s *State) fortressTargets(side engine.Side, f HexInfo, visited map[string][]engine.Hex) []string {
	ships := s.onMap(side, f.Hex, func(d *UnitDef) bool { return d.Surface() })
	oslo, ok := portHex(fortressPort(f))
	if s.rev() < 2 || f.Port != "" || !ok {
		return ships
	}
	for _, id := range s.onMap(side, oslo, func(d *UnitDef) bool { return d.Surface() }) {
		if containsHex(visited[id], f.Hex.String()) {
			ships = append(ships, id)
		}
	}
	return sortedIDs(ships)
}

// fortressVolley is a fortress's fire at its targets: gunnery 2 and its
// torpedoes at each (9.2), and what they did.
func (s *State) fortressVolley(h engine.Hex, targets []string, torps int, dice engine.Dice) []string {
	var out []string
	for _, id := range targets {
		if s.unit(id).Where != AtMap {
			continue
		}
		for _, r := range s.fire("", id, 2, h, dice) {
			if x := s.damage(id, r); x != "" {
				out = append(out, x)
			}
		}
		for i := 0; i < torps && s.unit(id).Where == AtMap; i++ {
			out = append(out, s.torpedo(id, torpFortress, dice, "fortress torpedo (9.2)"))
		}
	}
	return out
}

// fortressPort is the port a fortress guards: the port in its hex, or Oslo
// for the Oslo outer fortress (9.21).
func fortressPort(f HexInfo) string {
	if f.Port != "" {
		return f.Port
	}
	return "Oslo"
}

// FortressTable is the Fortress Effects Table (PAC #3, 9.2), 1d6. Source:
// 9.21 example (5 is no defence; 3 less 1 for Colonel Eriksen is normal
// defence), the rest reconstructed.
var FortressTable = engine.MustTable("Fortress Effects Table",
	engine.TableRow[string]{Lo: -5, Hi: 2, Result: "normal"},
	engine.TableRow[string]{Lo: 3, Hi: 4, Result: "halved"},
	engine.TableRow[string]{Lo: 5, Hi: 10, Result: "none"},
)

// AirStrikeTable gives the 2d6 roll an aircraft needs by type to hit, and
// the roll from which its hit is a flooding (8.5). Source: reconstructed —
// the Air Strike Table is not transcribed; dive bombers hit most often,
// torpedo bombers flood; KG Lion and KG Eagle get +1 (3.423 "special
// modifiers").
var AirStrikeTable = map[string]struct{ Hit, Flood int }{
	"B":  {10, 13},
	"DB": {9, 12},
	"T":  {9, 10},
	"F":  {13, 13},
}

// airStrikes is step 4 of the combat phase (8.5): standing strike orders
// are flown when the hex holds enemy surface ships the side detected this
// turn within the aircraft's radius; fighters on cover cancel enemy
// fighters, then bombers (8.522).
func (s *State) airStrikes(orders map[engine.Side]*Orders, dice engine.Dice) {
	if !IsDay(s.Turn) {
		return
	}
	type flight struct {
		unit string
		hex  engine.Hex
	}
	ready := func(id string) bool {
		u := s.unit(id)
		return u.Where == AtBase && !u.Used && (u.Struck == 0 || u.Struck < s.Turn-1)
	}
	cover := map[engine.Side]map[engine.Hex]int{Allied: {}, German: {}}
	for _, side := range []engine.Side{Allied, German} {
		for _, c := range orders[side].Covers {
			if ready(c.Unit) && s.inRadius(c.Unit, c.Hex) {
				cover[side][c.Hex]++
				s.unit(c.Unit).Struck = s.Turn
			}
		}
	}
	for _, side := range []engine.Side{Allied, German} {
		seen := s.detected(side)
		byHex := map[engine.Hex][]string{}
		var hexes []engine.Hex
		for _, st := range orders[side].Strikes {
			if !ready(st.Unit) || !seen[st.Hex] || !s.inRadius(st.Unit, st.Hex) {
				continue
			}
			if side == Allied && norwegian(st.Hex) && (s.InvasionTurn == 0 || s.Turn <= s.InvasionTurn) {
				continue // 9.1: from the turn after the invasion
			}
			if len(byHex[st.Hex]) == 0 {
				hexes = append(hexes, st.Hex)
			}
			byHex[st.Hex] = append(byHex[st.Hex], st.Unit)
		}
		for _, h := range hexes {
			units := byHex[h]
			enemyF := cover[other(side)][h]
			ownF := cover[side][h]
			cancel := enemyF - ownF // 8.522: fighters duel one for one first
			var out []string
			if len(s.visibleAt(other(side), h)) == 0 {
				continue // the ships found here were sunk before the strike
			}
			for _, id := range units {
				s.unit(id).Struck = s.Turn
				if cancel > 0 {
					cancel--
					out = append(out, def(id).Name+" is turned back by fighters")
					continue
				}
				targets := s.visibleAt(other(side), h)
				if len(targets) == 0 {
					break
				}
				t := s.chooseTarget(preferred(orders[side], id, targets), dice, "air strike target (8.521)")
				roll := engine.TwoD6(dice, "air strike (8.5)")
				need := AirStrikeTable[def(id).Type]
				if def(id).Type == "F" {
					need = AirStrikeTable["DB"] // 17.8: a Skua dive bombing
				}
				mod := 0
				if strings.HasPrefix(id, "kglion") || strings.HasPrefix(id, "kgeagle") {
					mod = 1
				}
				res := ""
				switch {
				case oiler(t):
					res = s.damage(t, "sink") // 13.2
				case roll+mod >= need.Flood:
					res = s.damage(t, "flood")
				case roll+mod >= need.Hit:
					res = s.damage(t, "hit")
				default:
					res = "a miss"
				}
				out = append(out, fmt.Sprintf("%s at %s: %d, %s", def(id).Name, def(t).Name, roll+mod, res))
			}
			s.logf("both", "combat", h.String(), "8.5", "%s air strike at %s: %s.", sideName(side), h, strings.Join(out, "; "))
			s.carriersReport(side, units)
			s.injuries(s.onMap(other(side), h, nil), false, h, dice)
		}
	}
}

// inRadius reports whether an aircraft reaches hex h from its base (6.23;
// from the German area by way of A15, 6.22).
func (s *State) inRadius(id string, h engine.Hex) bool {
	u := s.unit(id)
	d := def(id)
	if from, ok := s.baseHex(u.Base); ok {
		return from.Distance(h) <= d.Radius
	}
	return 4+engine.Hex{Row: 1, Col: 15}.Distance(h) <= d.Radius
}

func (s *State) baseHex(base string) (engine.Hex, bool) {
	if h, _, ok := airfieldHex(base); ok {
		return h, true
	}
	if u := s.unit(base); u != nil && u.Where == AtMap {
		return u.Hex, true
	}
	return engine.Hex{}, false
}

// fallBack returns a ship that gave up a port to the hex it came from, or
// the first hex out of it; it may not stop on a Norwegian fortress while
// Germany does not hold its port, so it goes one hex further (9.2, 9.21).
func (s *State) fallBack(id string, from engine.Hex, path []engine.Hex) {
	u := s.unit(id)
	back := engine.Hex{}
	for i := len(path) - 1; i > 0; i-- {
		if path[i] == from && path[i-1] != from {
			back = path[i-1]
			break
		}
	}
	if back.Row == 0 {
		s.leavePort(id, "9.2")
		back = u.Hex
	} else {
		u.Hex = back
	}
	if hi, ok := TheMap().Info(u.Hex); ok && hi.Fortress != "" && s.occupation("port", fortressPort(hi)) < 0 {
		s.leavePort(id, "9.21")
		if u.Hex == back {
			// leavePort does not leave a fortress that is not a port
			for _, n := range u.Hex.Neighbors() {
				ni, ok := TheMap().Info(n)
				if ok && ni.Fortress == "" && ni.Port == "" && TheMap().ShipCanCross(u.Hex, n) {
					u.Hex = n
					break
				}
			}
		}
	}
	s.logf("both", "move", u.Hex.String(), "9.2", "%s falls back to %s.", def(id).Name, u.Hex)
}

// preferred narrows candidate targets to the type a unit's target order
// names, when one of that type is there (8.12, 8.271, 8.521).
func preferred(o *Orders, unit string, ids []string) []string {
	for _, t := range o.Targets {
		if t.Unit != unit {
			continue
		}
		var out []string
		for _, id := range ids {
			if def(id).Type == t.Type {
				out = append(out, id)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return ids
}

// carriersReport: a carrier whose aircraft flew a strike reports its
// position at the end of the combat phase (8.525).
func (s *State) carriersReport(side engine.Side, flyers []string) {
	done := map[string]bool{}
	for _, id := range flyers {
		c := s.unit(id).Base
		cu := s.unit(c)
		if cu == nil || def(c).Carrier == 0 || cu.Where != AtMap || done[c] {
			continue
		}
		done[c] = true
		e := s.logf(string(other(side)), "passive", cu.Hex.String(), "8.525", "The %s carrier that launched the strike is at %s.", sideName(side), cu.Hex)
		e.Count, e.Types = 1, []string{"CV"}
	}
}

// qShips: a Q-ship sharing a hex with Allied surface ships reveals itself
// and fires its gun at one of them (17.7).
func (s *State) qShips(dice engine.Dice) {
	q := s.unit("qships")
	if q == nil || q.Where != AtMap {
		return
	}
	enemies := s.visibleAt(Allied, q.Hex)
	if len(enemies) == 0 {
		return
	}
	t := weakest(s, enemies)
	var out []string
	for _, r := range s.fire("qships", t, s.gunnery("qships"), q.Hex, dice) {
		if x := s.damage(t, r); x != "" {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		out = append(out, "no damage")
	}
	s.logf("both", "combat", q.Hex.String(), "17.7", "German Q-ships at %s unmask and fire at %s: %s.", q.Hex, def(t).Name, strings.Join(out, "; "))
}
