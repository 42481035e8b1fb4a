package kriegsmarine

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// fortressFire is step 3 of the combat phase (8.4, 9.2): a Norwegian
// fortress fires at German surface ships in its hex, after the Fortress
// Effects Table gives its posture; a German-held fortress fires at Allied
// ships with normal defence. From revision 2 the Oslo outer fortress also
// fires at the ships that passed it this turn on their way into Oslo
// (9.21), before Oscarsborg does (fortresses fire in map order, H16
// before I16). start holds where each unit began its move.
func (s *State) fortressFire(abandons []Abandon, exposes []Expose, visited map[string][]engine.Hex, start map[string]engine.Hex, dice engine.Dice) {
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
		posture, roll := s.fortressPosture(f, german, dice)
		torps := s.fortressTorpedoes(f, posture)
		targets := append([]string(nil), ships...)
		if posture == "halved" && torps == 0 {
			targets = halfFiredAt(ships, exposes, port)
		}
		abandon := false
		if !german && posture != "none" {
			targets, abandon = s.abandonPort(abandons, port, ships, targets)
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
			s.fallBackFromFortress(f.Hex, ships, visited, start)
		}
	}
}

// fortressPosture is a fortress's defence this turn and the roll that gave
// it: a Norwegian fortress rolls on the Fortress Effects Table (9.2; at
// Oscarsborg Colonel Eriksen takes 1 off, 10.1), a German-held one fires
// with normal defence without a roll.
func (s *State) fortressPosture(f HexInfo, german bool, dice engine.Dice) (posture string, roll int) {
	posture = "normal"
	if !german {
		roll = dice.Roll(6, "fortress effects (9.2)")
		r := roll
		if f.Fortress == "Oscarsborg" && s.eriksen() {
			r-- // Colonel Eriksen (9.21 example, 10.1)
		}
		posture = FortressTable.Lookup(r)
	}
	return posture, roll
}

// fortressTorpedoes is how many torpedoes a fortress fires: two at
// Oscarsborg, and at Bergen with its secret tubes (17.6), one on halved
// defence.
func (s *State) fortressTorpedoes(f HexInfo, posture string) int {
	torps := 0
	if f.Fortress == "Oscarsborg" || (f.Fortress == "Bergen" && s.has(OptBergenTorpedoes)) {
		torps = 2
		if posture == "halved" {
			torps = 1
		}
	}
	return torps
}

// abandonPort: knowing the posture, the Germans may give up the port
// (9.2): one leading ship takes the fire, and they all fall back. It
// returns the ships fired at and whether they abandon.
func (s *State) abandonPort(abandons []Abandon, port string, ships, targets []string) ([]string, bool) {
	abandon := false
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
	return targets, abandon
}

// fallBackFromFortress moves the ships that abandoned the port at hex back
// along their way in (from their first hex from revision 2).
func (s *State) fallBackFromFortress(hex engine.Hex, ships []string, visited map[string][]engine.Hex, start map[string]engine.Hex) {
	for _, id := range ships {
		if s.unit(id).Where != AtMap {
			continue
		}
		path := visited[id]
		if at, ok := start[id]; ok && s.rev().Has(FallBackFromFirstHex) {
			path = append([]engine.Hex{at}, path...)
		}
		s.fallBack(id, hex, path)
	}
}

// halfFiredAt is the half (rounded up) of ships a fortress without
// torpedoes fires at on halved defence (9.2: "the German player chooses
// which ships are fired upon"): those his expose order names for the
// port, in its order, then the others by id.
func halfFiredAt(ships []string, exposes []Expose, port string) []string {
	n := (len(ships) + 1) / 2
	var out []string
	for _, x := range exposes {
		if x.Port != port {
			continue
		}
		for _, id := range x.Units {
			if len(out) < n && contains(ships, id) && !contains(out, id) {
				out = append(out, id)
			}
		}
	}
	for _, id := range ships {
		if len(out) < n && !contains(out, id) {
			out = append(out, id)
		}
	}
	return out
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
	if !s.rev().Has(OsloOuterFortressFires) || f.Port != "" || !ok {
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
	s.ownMovef(German, u.Hex.String(), "9.2", "%s falls back to %s.", def(id).Name, u.Hex)
}
