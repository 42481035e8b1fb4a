package kriegsmarine

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// ScoreLine is one reason for victory points (16.0).
type ScoreLine struct {
	Side   engine.Side `json:"side"`
	Points int         `json:"points"`
	Why    string      `json:"why"`
	Rule   string      `json:"rule"`
}

// victoryCount is what the victory levels are decided on (16.5).
type victoryCount struct {
	points map[engine.Side]int
	// germanPorts are the Norwegian ports Germany occupies, oslo whether
	// Oslo is among them; alliedPorts those the Allies occupy.
	germanPorts int
	oslo        bool
	alliedPorts int
	// capitalSunk counts each side's BB, BC and CV sunk.
	capitalSunk map[engine.Side]int
}

// level is the winner and the victory level (16.51-16.54; "" for a draw).
// Strategic: Germany occupies 5 of the 6 ports with Oslo; the Allies
// occupy 3 ports or sink 2 German BB, BC or CV, an operational victory
// instead if 3 of theirs were sunk (16.53). Operational: 25 VP more
// (16.52). Tactical: the Germans 10 more, the Allies 5 more (16.51).
func (v victoryCount) level() (engine.Side, string) {
	diff := v.points[German] - v.points[Allied]
	switch {
	case v.germanPorts >= 5 && v.oslo:
		return German, "strategic"
	case v.alliedPorts >= 3 || v.capitalSunk[German] >= 2:
		if v.capitalSunk[Allied] >= 3 {
			return Allied, "operational"
		}
		return Allied, "strategic"
	case diff >= 25:
		return German, "operational"
	case -diff >= 25:
		return Allied, "operational"
	case diff >= 10:
		return German, "tactical"
	case -diff >= 5:
		return Allied, "tactical"
	}
	return "", ""
}

// score counts both sides' victory points (16.1-16.4). Allied destroyers
// and minelayers score 1 VP for every 2 sunk, rounded up (16.4); German
// destroyer task forces score 1 VP a destroyer lost and torpedo boat task
// forces 1 VP when annihilated (16.3, which this data pack follows over the
// sheet's starred figures).
func (s *State) score() []ScoreLine {
	var sc scoreSheet
	small := 0
	for _, u := range s.Units {
		d := def(u.ID)
		if d.Type == "AB" && u.Where == AtSunk {
			sc.add(Allied, 1, "16.3", "%s lost", d.Name)
		}
		if d.Air {
			continue
		}
		sunk := u.Where == AtSunk
		if d.Side == German && u.Where == AtMap && u.Disabled > 0 {
			sunk = true // 16.3: unable to sail on the map at the end
		}
		switch d.Side {
		case Allied:
			if !sunk {
				continue
			}
			if d.Type == "DD" || d.Type == "ML" {
				small++
				continue
			}
			sc.add(German, d.VPValue()/2, "16.4", "%s sunk", d.Name)
		case German:
			s.scoreGermanShip(&sc, u, d, sunk)
		}
	}
	sc.add(Allied, 2*s.ScrambleTurns, "6.292", "%d day turn(s) of Air Emergency Scramble", s.ScrambleTurns)
	sc.add(German, (small+1)/2, "16.4", "%d Allied destroyer or minelayer units sunk", small)
	for _, id := range s.Late {
		sc.add(German, 1, "16.41", "%s late at Scapa Flow", def(id).Name)
	}
	if s.Objective.Result.Kind == ObjInvasion {
		for _, p := range s.alliedPorts() {
			sc.add(Allied, 2*PortVP[p], "16.3", "%s held by the Wilfred Force", p)
		}
	}
	if s.Objective.Result.Kind == ObjInvasion {
		for _, o := range s.Occupied {
			if o.Kind == "port" {
				sc.add(German, PortVP[o.Place], "16.2", "%s occupied", o.Place)
			}
		}
	}
	return sc
}

// scoreSheet is the victory points scored so far, one line a reason.
type scoreSheet []ScoreLine

// add scores n points to side for the reason given; nothing when n is 0.
func (sc *scoreSheet) add(side engine.Side, n int, rule, format string, args ...any) {
	if n != 0 {
		*sc = append(*sc, ScoreLine{Side: side, Points: n, Rule: rule, Why: fmt.Sprintf(format, args...)})
	}
}

// scoreGermanShip scores a German ship: the Allies for its loss (16.3),
// for its being committed, Germany for its breaking out (16.4).
func (s *State) scoreGermanShip(sc *scoreSheet, u Unit, d *UnitDef, sunk bool) {
	switch {
	case d.Type == "DD" && d.TaskForce():
		// 16.3 "each German DD destroyed": the hits of a task
		// force are its destroyers lost (8.65), less those it
		// detached as independent destroyers (12.0), which score
		// on their own when sunk.
		lost := u.Hits
		if sunk {
			lost = d.Ships
		}
		lost -= u.Detached
		sc.add(Allied, lost, "16.3", "%d destroyer(s) of %s lost", lost, d.Name)
	case d.Type == "TB" && sunk:
		sc.add(Allied, 1, "16.3", "%s annihilated", d.Name)
	case sunk:
		sc.add(Allied, d.VPValue()/2, "16.3", "%s sunk", d.Name)
	}
	if u.Committed {
		sc.add(Allied, 1, "16.3", "%s committed", d.Name)
	}
	if u.Where == AtBrokeOut {
		switch {
		case contains(s.Objective.Result.Raiders, u.ID):
			sc.add(German, 5, "16.4", "%s breaks out as a designated commerce raider", d.Name)
		case u.ID == "lutzow" && s.Objective.Result.Kind == ObjInvasion:
			sc.add(German, 3, "16.4", "Lützow breaks out")
		}
	}
}

// alliedPorts are the Norwegian ports the Allies occupy (16.3, 16.53).
// Only the Wilfred Force occupies ports for the Allies (9.46: "Allied
// ships cannot occupy Norwegian port cities"; 11.1: its landing "counts as
// automatic Allied occupation"), and it lands once, so there is one at
// most; ports held by neither side are not the Allies' (4.62, 9.44).
func (s *State) alliedPorts() []string {
	if s.Wilfred.Status == "landed" && s.Wilfred.Held {
		return []string{s.Wilfred.Port}
	}
	return nil
}

// result decides the game (16.5).
func (s *State) result() *engine.Result {
	pts := map[engine.Side]int{Allied: 0, German: 0}
	for _, l := range s.score() {
		pts[l.Side] += l.Points
	}
	v := victoryCount{points: pts, capitalSunk: map[engine.Side]int{}, alliedPorts: len(s.alliedPorts())}
	for _, o := range s.Occupied {
		if o.Kind == "port" {
			v.germanPorts++
			if o.Place == "Oslo" {
				v.oslo = true
			}
		}
	}
	for _, u := range s.Units {
		d := def(u.ID)
		if u.Where == AtSunk && (d.Type == "BB" || d.Type == "BC" || d.Type == "CV") {
			v.capitalSunk[d.Side]++
		}
	}
	r := &engine.Result{Points: pts}
	r.Winner, r.Level = v.level()
	var parts []string
	for _, l := range s.score() {
		parts = append(parts, fmt.Sprintf("%s +%d %s", sideName(l.Side), l.Points, l.Why))
	}
	detail := "no VP scored"
	if len(parts) > 0 {
		detail = strings.Join(parts, "; ")
	}
	if r.Winner == "" {
		r.Summary = fmt.Sprintf("Draw: Allies %d VP, Germany %d VP (%s).", pts[Allied], pts[German], detail)
	} else {
		r.Summary = fmt.Sprintf("%s %s victory: Allies %d VP, Germany %d VP (%s).", sideName(r.Winner), r.Level, pts[Allied], pts[German], detail)
	}
	return r
}
