package kriegsmarine

import (
	"fmt"
	"strings"
	"testing"

	"skagerrak/engine"
)

// handCount scores a finished game the way a player with pencil and paper
// would, from the lists of 16.2-16.41 as the rulebook prints them (not from
// the data pack's VP column), and the final state's facts.
func handCount(s *State) map[engine.Side]int {
	pts := map[engine.Side]int{}
	invasion := s.Objective.Result.Kind == ObjInvasion
	// 16.3: what the Allies score for German losses, by type or by name.
	germanVP := func(name, typ string) int {
		switch {
		case name == "Emden" || name == "Nordmark":
			return 3
		case name == "Lützow":
			return 10
		case name == "Graf Zeppelin":
			return 25
		case name == "Bismarck":
			return 30
		}
		return map[string]int{"ML": 1, "CL": 4, "CA": 8, "BC": 20}[typ]
	}
	// 16.4: what the Germans score for Allied losses.
	alliedVP := func(name, typ string) int {
		switch name {
		case "Penelope", "Arethusa", "Galatea":
			return 1
		case "Furious", "Repulse", "Renown":
			return 10
		case "Valiant", "Warspite":
			return 12
		case "Rodney", "Dunkerque", "Strasbourg":
			return 15
		case "Richelieu", "King George V", "Ark Royal":
			return 18
		case "Hood":
			return 20
		case "HN25 Convoy":
			return 10
		}
		return map[string]int{"CL": 2, "CA": 3}[typ]
	}
	small := 0
	for _, u := range s.Units {
		d := def(u.ID)
		if d.Type == "AB" && u.Where == AtSunk {
			pts[Allied]++ // each German airborne unit lost
		}
		if d.Air {
			continue
		}
		sunk := u.Where == AtSunk || (d.Side == German && u.Where == AtMap && u.Disabled > 0)
		switch d.Side {
		case German:
			switch {
			case d.Type == "DD" && d.TaskForce():
				lost := u.Hits
				if sunk {
					lost = d.Ships
				}
				pts[Allied] += lost // each German DD destroyed
			case d.Type == "TB" && sunk:
				pts[Allied]++ // TB task force annihilated
			case d.Type == "DD" && sunk:
				pts[Allied]++
			case sunk:
				pts[Allied] += germanVP(d.Name, d.Type)
			}
			if u.Committed {
				pts[Allied]++ // Brummer, Richard Beitzen committed
			}
			if u.Where == AtBrokeOut && contains(s.Objective.Result.Raiders, u.ID) {
				pts[German] += 5
			} else if u.Where == AtBrokeOut && u.ID == "lutzow" && invasion {
				pts[German] += 3
			}
		case Allied:
			if !sunk {
				continue
			}
			if d.Type == "DD" || d.Type == "ML" {
				small++
			} else {
				pts[German] += alliedVP(d.Name, d.Type)
			}
		}
	}
	pts[German] += (small + 1) / 2 // each 2 Allied DD or ML, rounded up
	pts[Allied] += 2 * s.ScrambleTurns
	pts[German] += len(s.Late) // 16.41
	if invasion {
		port := map[string]int{"Oslo": 15, "Narvik": 15, "Kristiansand": 5, "Stavanger": 5, "Bergen": 6, "Trondheim": 10}
		for _, o := range s.Occupied {
			if o.Kind == "port" {
				pts[German] += port[o.Place]
			}
		}
		if s.Wilfred.Held && s.Wilfred.Status == "landed" {
			pts[Allied] += 2 * port[s.Wilfred.Port]
		}
	}
	return pts
}

// handLevel applies 16.5 to the hand count.
func handLevel(s *State, pts map[engine.Side]int) (engine.Side, string) {
	ports, oslo := 0, false
	for _, o := range s.Occupied {
		if o.Kind == "port" {
			ports++
			oslo = oslo || o.Place == "Oslo"
		}
	}
	capital := map[engine.Side]int{}
	for _, u := range s.Units {
		if d := def(u.ID); u.Where == AtSunk && (d.Type == "BB" || d.Type == "BC" || d.Type == "CV") {
			capital[d.Side]++
		}
	}
	// 16.53: the Allies occupy ports only with the Wilfred Force, one at
	// most (9.46, 11.1).
	alliedPorts := 0
	if s.Wilfred.Held && s.Wilfred.Status == "landed" {
		alliedPorts = 1
	}
	alliedWay := capital[German] >= 2 || alliedPorts >= 3
	diff := pts[German] - pts[Allied]
	switch {
	case ports >= 5 && oslo:
		return German, "strategic"
	case alliedWay && capital[Allied] >= 3:
		return Allied, "operational"
	case alliedWay:
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

// TestRule16_VictoryHandCountBothObjectives plays scripted games of both
// objectives to the end and checks the victory points and level of the
// result against the hand count of 16.2-16.5.
func TestRule16_VictoryHandCountBothObjectives(t *testing.T) {
	seen := map[string]int{}
	for i := 0; i < 40 && (seen[ObjInvasion] < 3 || seen[ObjRaiding] < 3); i++ {
		s, _ := playGame(t, engine.Setup{}, fmt.Sprint("vp-", i))
		kind := s.Objective.Result.Kind
		if seen[kind] >= 3 {
			continue
		}
		seen[kind]++
		r := s.result()
		want := handCount(s)
		t.Logf("seed %d, %s, turn %d: %.90s", i, kind, s.Turn, r.Summary)
		if r.Points[Allied] != want[Allied] || r.Points[German] != want[German] {
			t.Errorf("seed %d (%s): result %d-%d, hand count %d-%d\n%s", i, kind, r.Points[Allied], r.Points[German], want[Allied], want[German], r.Summary)
		}
		w, lvl := handLevel(s, want)
		if r.Winner != w || r.Level != lvl {
			t.Errorf("seed %d (%s): result %s %s, hand count %s %s", i, kind, r.Winner, r.Level, w, lvl)
		}
		if !strings.Contains(r.Summary, fmt.Sprintf("Allies %d VP, Germany %d VP", want[Allied], want[German])) {
			t.Errorf("seed %d: the summary does not state the points: %s", i, r.Summary)
		}
	}
	if seen[ObjInvasion] == 0 || seen[ObjRaiding] == 0 {
		t.Fatalf("objectives played: %v; want both", seen)
	}
}
