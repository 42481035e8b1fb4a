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
			if holdsFire(orders[side], u.ID) {
				continue // 8.0: attacking is not compulsory
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

// holdsFire reports whether a submarine's orders hold its attack this
// turn ("torpedoes SUB 0", rules revision 2).
func holdsFire(o *Orders, id string) bool {
	for _, c := range o.TorpCaps {
		if c.Unit == id && c.Points == 0 {
			return true
		}
	}
	return false
}

// spentSubmarine removes a submarine that may attack once a game, the
// Norwegian A Class, once it has (9.33: "After making the torpedo attack,
// remove it from the game"). Revision 1 left it on the map.
func (s *State) spentSubmarine(id string) {
	d, u := def(id), s.unit(id)
	if !s.rev().Has(ASubmarineRemoved) || d.TorpMode != TorpOnce || u.TorpUsed < d.Torpedo {
		return
	}
	u.Where = AtOut
	s.logf(string(d.Side), "combat", u.Hex.String(), "9.33", "%s has made its one torpedo attack of the game and is removed from the game.", d.Name)
}
