package kriegsmarine

import (
	"skagerrak/engine"
)

// OptSupply is the fleet oiler supply rule (13.1, 13.3), part of the
// optional 13.0.
const OptSupply = "oiler-supply"

// RowS is the row of the map's "column S" (13.0, 13.3; 6.37): the supply
// limit counts hexes moved in row S and north of it.
const RowS = 19

// supplyLimit is how far a German destroyer, torpedo boat or minelayer may
// move north of row S without supply (13.3).
const supplyLimit = 14

// needsSupply reports whether a unit counts its movement north of row S
// (13.0: German TB, ML and DD).
func needsSupply(d *UnitDef) bool {
	return d.Side == German && (d.Type == "DD" || d.Type == "TB" || d.Type == "ML")
}

// countNorth adds the hexes a unit entered in row S or north to its count
// and sinks it once past the limit (13.3).
func (s *State) countNorth(id string, path []engine.Hex) {
	if !s.has(OptSupply) || !needsSupply(def(id)) {
		return
	}
	u := s.unit(id)
	for _, h := range path {
		if h.Row >= RowS {
			u.North++
		}
	}
	if len(path) > 0 {
		u.Supplying = 0 // 13.1: supply stops when the ship moves
	}
	if u.North > supplyLimit && u.Where == AtMap {
		s.sink(id)
		s.logf("german", "move", u.Hex.String(), "13.3", "%s has steamed %d hexes north of row S without supply and is lost.", def(id).Name, u.North)
	}
}

// supplyPhase: an oiler in a fjord (or a port, on the invasion objective)
// supplies one ship a turn of a unit that stays with it: an ML, a torpedo
// boat task force or an independent destroyer in one turn, a destroyer
// task force one destroyer a turn (13.1). Only a finished supply counts.
func (s *State) supplyPhase(moved map[string]bool) {
	if !s.has(OptSupply) {
		return
	}
	busy := map[string]bool{}
	for _, ao := range s.Units {
		if ao.Where != AtMap || def(ao.ID).Type != "AO" || moved[ao.ID] || busy[ao.ID] {
			continue
		}
		hi, _ := TheMap().Info(ao.Hex)
		if !hi.Fjord && (hi.Port == "" || s.Objective.Result.Kind == ObjRaiding) {
			continue
		}
		for i := range s.Units {
			u := &s.Units[i]
			d := def(u.ID)
			if u.Where != AtMap || u.Hex != ao.Hex || !needsSupply(d) || u.North == 0 || moved[u.ID] {
				continue
			}
			busy[ao.ID] = true
			u.Supplying++
			need := 1
			if d.Type == "DD" && d.TaskForce() {
				need = d.Ships - u.Hits
			}
			if u.Supplying >= need {
				u.North, u.Supplying = 0, 0
				s.logf("german", "supply", u.Hex.String(), "13.1", "%s is supplied by %s.", d.Name, def(ao.ID).Name)
			} else {
				s.logf("german", "supply", u.Hex.String(), "13.1", "%s takes on fuel from %s (%d of %d).", d.Name, def(ao.ID).Name, u.Supplying, need)
			}
			break
		}
	}
}
