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
	cover := s.flyCover(orders)
	for _, side := range []engine.Side{Allied, German} {
		hexes, byHex := s.strikesByHex(side, orders[side])
		for _, h := range hexes {
			units := byHex[h]
			enemyF := cover[other(side)][h]
			ownF := cover[side][h]
			cancel := enemyF - ownF // 8.522: fighters duel one for one first
			if len(s.visibleAt(other(side), h)) == 0 {
				continue // the ships found here were sunk before the strike
			}
			s.strikeHex(side, h, units, cancel, orders[side], dice)
		}
	}
}

// strikeReady reports whether an aircraft unit may fly a strike or cover
// mission now: face up at a base, and not struck the turn before.
func (s *State) strikeReady(id string) bool {
	u := s.unit(id)
	return u.Where == AtBase && !u.Used && (u.Struck == 0 || u.Struck < s.Turn-1)
}

// flyCover flies both sides' fighter cover orders that are ready and in
// radius; it returns how many fighters each side has over each hex (8.522).
func (s *State) flyCover(orders map[engine.Side]*Orders) map[engine.Side]map[engine.Hex]int {
	cover := map[engine.Side]map[engine.Hex]int{Allied: {}, German: {}}
	for _, side := range []engine.Side{Allied, German} {
		for _, c := range orders[side].Covers {
			if s.strikeReady(c.Unit) && s.inRadius(c.Unit, c.Hex) {
				cover[side][c.Hex]++
				s.unit(c.Unit).Struck = s.Turn
			}
		}
	}
	return cover
}

// strikesByHex gathers the side's strike orders that fly: ready, in
// radius, at a hex where it detected enemy ships this turn, and (for the
// Allies) not in Norway before the turn after the invasion (9.1); by hex,
// in the order first ordered.
func (s *State) strikesByHex(side engine.Side, o *Orders) ([]engine.Hex, map[engine.Hex][]string) {
	seen := s.detected(side)
	byHex := map[engine.Hex][]string{}
	var hexes []engine.Hex
	for _, st := range o.Strikes {
		if !s.strikeReady(st.Unit) || !seen[st.Hex] || !s.inRadius(st.Unit, st.Hex) {
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
	return hexes, byHex
}

// strikeHex flies the side's strike at hex h: the first cancel units are
// turned back by fighters (8.522), each other one attacks a target there
// (8.521); then the result is logged and the carriers and injuries follow.
func (s *State) strikeHex(side engine.Side, h engine.Hex, units []string, cancel int, o *Orders, dice engine.Dice) {
	var out []string
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
		t := s.chooseTarget(preferred(o, id, targets), dice, "air strike target (8.521)")
		out = append(out, s.strikeAt(id, t, dice))
	}
	s.logf("both", "combat", h.String(), "8.5", "%s air strike at %s: %s.", sideName(side), h, strings.Join(out, "; "))
	s.carriersReport(side, units)
	s.injuries(s.onMap(other(side), h, nil), false, h, dice)
}

// strikeAt rolls aircraft unit id's attack on ship t on the Air Strike
// Table (8.5; a Skua as a dive bomber, 17.8; KG Lion and KG Eagle +1; an
// oiler hit sinks, 13.2) and says what happened.
func (s *State) strikeAt(id, t string, dice engine.Dice) string {
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
	return fmt.Sprintf("%s at %s: %d, %s", def(id).Name, def(t).Name, roll+mod, res)
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
