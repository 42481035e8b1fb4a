package kriegsmarine

import (
	"fmt"
	"strings"

	"skagerrak/engine"
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
