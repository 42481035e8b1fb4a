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

// score counts both sides' victory points (16.1-16.4). Allied destroyers
// and minelayers score 1 VP for every 2 sunk, rounded up (16.4); German
// destroyer task forces score 1 VP a destroyer lost and torpedo boat task
// forces 1 VP when annihilated (16.3, which this data pack follows over the
// sheet's starred figures).
func (s *State) score() []ScoreLine {
	var out []ScoreLine
	add := func(side engine.Side, n int, rule, format string, args ...any) {
		if n != 0 {
			out = append(out, ScoreLine{Side: side, Points: n, Rule: rule, Why: fmt.Sprintf(format, args...)})
		}
	}
	small := 0
	for _, u := range s.Units {
		d := def(u.ID)
		if d.Type == "AB" && u.Where == AtSunk {
			add(Allied, 1, "16.3", "%s lost", d.Name)
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
			add(German, d.VPValue()/2, "16.4", "%s sunk", d.Name)
		case German:
			switch {
			case d.Type == "DD" && d.TaskForce():
				lost := u.Hits
				if sunk {
					lost = d.Ships
				}
				add(Allied, lost, "16.3", "%d destroyer(s) of %s lost", lost, d.Name)
			case d.Type == "TB" && sunk:
				add(Allied, 1, "16.3", "%s annihilated", d.Name)
			case sunk:
				add(Allied, d.VPValue()/2, "16.3", "%s sunk", d.Name)
			}
			if u.Committed {
				add(Allied, 1, "16.3", "%s committed", d.Name)
			}
			if u.Where == AtBrokeOut {
				switch {
				case contains(s.Objective.Result.Raiders, u.ID):
					add(German, 5, "16.4", "%s breaks out as a designated commerce raider", d.Name)
				case u.ID == "lutzow" && s.Objective.Result.Kind == ObjInvasion:
					add(German, 3, "16.4", "Lützow breaks out")
				}
			}
		}
	}
	add(Allied, 2*s.ScrambleTurns, "6.292", "%d day turn(s) of Air Emergency Scramble", s.ScrambleTurns)
	add(German, (small+1)/2, "16.4", "%d Allied destroyer or minelayer units sunk", small)
	for _, id := range s.Late {
		add(German, 1, "16.41", "%s late at Scapa Flow", def(id).Name)
	}
	if s.Objective.Result.Kind == ObjInvasion && s.Wilfred.Held && s.Wilfred.Status == "landed" {
		add(Allied, 2*PortVP[s.Wilfred.Port], "16.3", "%s held by the Wilfred Force", s.Wilfred.Port)
	}
	if s.Objective.Result.Kind == ObjInvasion {
		for _, o := range s.Occupied {
			if o.Kind == "port" {
				add(German, PortVP[o.Place], "16.2", "%s occupied", o.Place)
			}
		}
	}
	return out
}

// result decides the game (16.5).
func (s *State) result() *engine.Result {
	pts := map[engine.Side]int{Allied: 0, German: 0}
	for _, l := range s.score() {
		pts[l.Side] += l.Points
	}
	ports, oslo := 0, false
	for _, o := range s.Occupied {
		if o.Kind == "port" {
			ports++
			if o.Place == "Oslo" {
				oslo = true
			}
		}
	}
	capitalSunk := map[engine.Side]int{}
	for _, u := range s.Units {
		d := def(u.ID)
		if u.Where == AtSunk && (d.Type == "BB" || d.Type == "BC" || d.Type == "CV") {
			capitalSunk[d.Side]++
		}
	}
	r := &engine.Result{Points: pts}
	diff := pts[German] - pts[Allied]
	switch {
	case ports >= 5 && oslo:
		r.Winner, r.Level = German, "strategic"
	case capitalSunk[German] >= 2:
		r.Winner, r.Level = Allied, "strategic"
		if capitalSunk[Allied] >= 3 {
			r.Level = "operational"
		}
	case diff >= 25:
		r.Winner, r.Level = German, "operational"
	case -diff >= 25:
		r.Winner, r.Level = Allied, "operational"
	case diff >= 10:
		r.Winner, r.Level = German, "tactical"
	case -diff >= 5:
		r.Winner, r.Level = Allied, "tactical"
	}
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
