package kriegsmarine

import (
	"fmt"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// Rules tests of chapter 16, Victory Conditions, of the rulebook (seeds
// 000): each outcome worked out by hand from the rule it cites.

func TestRule16_41_VestfjordForceLateAtScapaFlow(t *testing.T) {
	s := newGame(t, nil)
	s.Turn = 10
	s = resolve(t, s, "", "")
	if len(s.Late) != 2 {
		t.Fatalf("late %v, want ML Flot 20 and DD Flot 12", s.Late)
	}
	pts := 0
	for _, l := range s.score() {
		if l.Rule == "16.41" {
			pts += l.Points
		}
	}
	if pts != 2 {
		t.Errorf("16.41 points %d, want 2", pts)
	}
}

func TestRule16_5_VictoryLevels(t *testing.T) {
	s := newGame(t, nil)
	r := s.result()
	if r.Winner != "" || !strings.HasPrefix(r.Summary, "Draw") {
		t.Fatalf("no VP: %+v", r)
	}
	s.unit("blucher").Where = AtSunk // 8 VP: tactical needs 5 more
	if r := s.result(); r.Winner != Allied || r.Level != "tactical" || r.Points[Allied] != 8 {
		t.Fatalf("Blücher sunk: %+v", r)
	}
	s.unit("scharnhorst").Where = AtSunk
	s.unit("gneisenau").Where = AtSunk // 2 German BC sunk: strategic (16.53)
	if r := s.result(); r.Winner != Allied || r.Level != "strategic" {
		t.Fatalf("two BC sunk: %+v", r)
	}
	s = newGame(t, nil)
	for _, p := range []string{"Oslo", "Narvik", "Bergen", "Trondheim", "Stavanger"} {
		s.occupyPort(p, enginetest.ThenOnes())
	}
	if r := s.result(); r.Winner != German || r.Level != "strategic" || r.Points[German] != 51 {
		t.Fatalf("five ports with Oslo: %+v", r)
	}
}

// TestRule16_53_AlliedStrategicVictory: 16.53 "The Allied player must
// occupy at least 3 Norwegian port cities, or sink at least 2 German BB,
// BC or CV. But if the Allied player's BB, BC or CV are sunk at least 3
// times, the level is downgraded to an operational victory." Only the
// Wilfred Force occupies ports for the Allies (9.46, 11.1), one at most.
func TestRule16_53_AlliedStrategicVictory(t *testing.T) {
	none := map[engine.Side]int{Allied: 0, German: 0}
	for _, c := range []struct {
		name        string
		alliedPorts int
		sunk        map[engine.Side]int
		points      map[engine.Side]int
		winner      engine.Side
		level       string
	}{
		{"3 ports", 3, map[engine.Side]int{}, none, Allied, "strategic"},
		{"3 ports, 3 Allied capital ships sunk", 3, map[engine.Side]int{Allied: 3}, none, Allied, "operational"},
		{"2 ports: a draw on equal points", 2, map[engine.Side]int{}, none, "", ""},
		{"2 German capital ships sunk", 0, map[engine.Side]int{German: 2}, none, Allied, "strategic"},
		{"2 ports and Allies 5 VP ahead: tactical", 2, map[engine.Side]int{}, map[engine.Side]int{Allied: 5, German: 0}, Allied, "tactical"},
	} {
		w, l := victoryCount{points: c.points, alliedPorts: c.alliedPorts, capitalSunk: c.sunk}.level()
		if w != c.winner || l != c.level {
			t.Errorf("%s: %q %q, want %q %q", c.name, w, l, c.winner, c.level)
		}
	}
	s := newGame(t, []string{OptWilfred})
	s.Wilfred = Wilfred{Status: "landed", Port: "Bergen", Held: true}
	if p := s.alliedPorts(); len(p) != 1 || p[0] != "Bergen" {
		t.Errorf("Allied ports %v, want Bergen (the Wilfred Force)", p)
	}
	s.Wilfred.Held = false
	if p := s.alliedPorts(); len(p) != 0 {
		t.Errorf("Allied ports %v: the force landed at a German port holds none until it retakes it", p)
	}
}

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

// TestRule16_3_ADetachedDestroyerIsNotALostOne: 12.0 "select any 1
// destroyer task force; it receives 1 point of hit damage (showing that
// this destroyer task force has separated 1 independent destroyer)"; 16.3
// gives the Allies 1 VP for "each German DD destroyed". DD Flot I (5
// ships) detaches Hans Lüdemann at A12: no destroyer is destroyed, 0 VP
// (revision 1 counted the hit: 1 VP). If DD Flot I is then sunk, its 4
// remaining destroyers score 4 (revision 1: all 5 ships of the counter);
// Hans Lüdemann sunk as well scores his own 1: 5 destroyers, 5 VP.
func TestRule16_3_ADetachedDestroyerIsNotALostOne(t *testing.T) {
	allied := func(s *State) int {
		n := 0
		for _, l := range s.score() {
			if l.Side == Allied {
				n += l.Points
			}
		}
		return n
	}
	for rev, want := range map[int][3]int{1: {1, 5, 6}, 2: {0, 4, 5}} {
		s := newGameRev(t, rev, []string{OptIndependent})
		clearMap(s)
		put(t, s, "ddfloti", "A12")
		s, _ = resolveExactly(t, s, "", "detach Hans Lüdemann from DD Flot I")
		if u := s.unit("hanslude"); u.Where != AtMap || s.unit("ddfloti").Hits != 1 {
			t.Fatalf("revision %d: Hans Lüdemann %+v, DD Flot I %+v", rev, u, s.unit("ddfloti"))
		}
		got := [3]int{allied(s)}
		s.unit("ddfloti").Where = AtSunk
		got[1] = allied(s)
		s.unit("hanslude").Where = AtSunk
		got[2] = allied(s)
		if got != want {
			t.Errorf("revision %d: Allied VP after the detachment, the flotilla sunk, Lüdemann sunk: %v, want %v", rev, got, want)
		}
	}
}
