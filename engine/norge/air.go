package norge

import (
	"strconv"
	"strings"

	"skagerrak/engine"
)

// Air factors (data/tables.txt "air" rows, reconstructed): a German
// airfield's fighter and bomber, an Allied carrier's fighter; front side in
// fair weather, back side in rain (8.6).
func airFactor(side engine.Side, weather string) int {
	switch {
	case side == German && weather == "fair":
		return 2 + 3
	case side == German:
		return 1 + 1
	case weather == "fair":
		return 2
	}
	return 1
}

// checkAir validates an air placement (9.1-9.4) and returns the canonical
// base and map.
func checkAir(s *State, side engine.Side, baseName, mapName string) (string, string, *problem) {
	m := data.landMap(mapName)
	if m == nil || m.Kind != "tactical" {
		return "", "", fail("9.3", "a Tactical Map A-F", "%q is not a Tactical Map", mapName)
	}
	if s.weatherOf(m.Sector) == "storm" {
		return "", "", fail("9.4", "a map whose sector is not stormy", "aircraft may not fly into the stormy %s sector (Map %s)", sectorName(m.Sector), m.ID)
	}
	if side == German {
		af := data.airfield(baseName)
		if af == nil {
			return "", "", fail("9.1", germanBases(s, m), "%q is not an airfield", baseName)
		}
		if s.controller(af.Name) != German {
			return "", "", fail("9.1", germanBases(s, m), "%s is not under German control", af.Name)
		}
		if s.weatherOf(af.Sector) == "storm" {
			return "", "", fail("9.1", germanBases(s, m), "no aircraft are placed at %s in a storm", af.Name)
		}
		if af.Oversea && s.seaWeather() == "storm" {
			return "", "", fail("9.4", germanBases(s, m), "aircraft from %s would fly over a stormy sea", af.Name)
		}
		if !containsStr(af.Range, m.ID) {
			return "", "", fail("9.3", "maps "+strings.Join(af.Range, ", "), "Map %s is out of range of %s", m.ID, af.Name)
		}
		return af.Name, m.ID, nil
	}
	sh, pr := findShip(s, side, baseName)
	if pr != nil {
		return "", "", pr
	}
	if sh.Kind != "cv" || !sh.onMap() {
		return "", "", fail("9.2", "a carrier at sea", "%s is not a carrier at sea", sh.ID)
	}
	if s.seaWeather() == "storm" {
		return "", "", fail("9.2", "fair or rainy seas", "no fighters fly from carriers in a storm")
	}
	n := data.node(sh.Loc)
	if !containsStr(n.Carrier, m.ID) {
		return "", "", fail("9.3", "maps "+strings.Join(n.Carrier, ", "), "Map %s is out of range of %s at %s", m.ID, sh.ID, sh.Loc)
	}
	return sh.ID, m.ID, nil
}

func sectorName(s string) string {
	if s == "N" {
		return "northern"
	}
	return "southern"
}

func resolveAir(s *State, o *Orders) {
	for _, ord := range o.List {
		base, m, pr := checkAir(s, o.Side, ord.ID, ord.Args[0])
		if pr != nil {
			s.logf(o.Side, "air %s %s cancelled: %s (%s)", ord.ID, ord.Args[0], pr.msg, pr.rule)
			continue
		}
		w := s.weatherOf(data.landMap(m).Sector)
		f := airFactor(o.Side, w)
		s.Air = append(s.Air, AirMission{Side: o.Side, Base: base, Map: m, Strength: f})
		s.logf("", "%s aircraft from %s over Map %s: %d combat factors (%s)", o.Side, base, m, f, w)
	}
}

// airOver is each side's air factor over a map (9.3).
func airOver(s *State, m string) (g, a int) {
	for _, am := range s.Air {
		if am.Map != m {
			continue
		}
		if am.Side == German {
			g += am.Strength
		} else {
			a += am.Strength
		}
	}
	return g, a
}

// airBonus is what side adds to each attack and defence on map m: the
// difference of air factors, for the side with air superiority (9.3).
func airBonus(s *State, m string, side engine.Side) int {
	g, a := airOver(s, m)
	if side == German && g > a {
		return g - a
	}
	if side == Allied && a > g {
		return a - g
	}
	return 0
}

// checkSub validates a submarine's move or placement (17.1, 17.2).
func checkSub(s *State, sh *Ship, area int) *problem {
	if sh.Kind != "sub" {
		return fail("17.1", "a submarine", "%s is not a submarine", sh.ID)
	}
	if area < 1 || area > maxArea() {
		return fail("4.3", "a sea area 1-"+strconv.Itoa(maxArea()), "there is no sea area %d", area)
	}
	if sh.Area == 0 {
		if shipInfo(sh.ID).Avail > s.Turn {
			return fail("3.3", "a submarine on the calendar for this turn", "%s arrives on turn %d", sh.ID, shipInfo(sh.ID).Avail)
		}
	} else if area != sh.Area && area != sh.Area-1 && area != sh.Area+1 {
		return fail("17.1", adjAreas(s, sh), "%s in area %d may only move to an adjacent area", sh.ID, sh.Area)
	}
	if enemyConvoyIn(s, sh.Side, area) {
		return fail("17.2", "an area without enemy convoys", "an enemy convoy is in sea area %d", area)
	}
	return nil
}

// adjAreas lists where a placed submarine may go: its area or a
// neighbouring one, without an enemy convoy (17.1, 17.2).
func adjAreas(s *State, sh *Ship) string {
	var out []string
	for _, x := range []int{sh.Area - 1, sh.Area, sh.Area + 1} {
		if x >= 1 && x <= maxArea() && !enemyConvoyIn(s, sh.Side, x) {
			out = append(out, strconv.Itoa(x))
		}
	}
	if len(out) == 0 {
		return "none: enemy convoys are in every area within reach"
	}
	return "sea area " + strings.Join(out, " or ")
}

func maxArea() int {
	m := 0
	for _, n := range data.Sea {
		if n.Area > m {
			m = n.Area
		}
	}
	return m
}

func enemyConvoyIn(s *State, side engine.Side, area int) bool {
	for i := range s.Ships {
		sh := &s.Ships[i]
		if sh.Side != side && sh.Kind == "convoy" && sh.onMap() && data.node(sh.Loc).Area == area {
			return true
		}
	}
	return false
}

func resolveSubs(s *State, o *Orders) {
	for _, ord := range o.List {
		sh := s.ship(ord.ID)
		n, _ := strconv.Atoi(ord.Args[0])
		if sh == nil || sh.Sunk {
			continue
		}
		if pr := checkSub(s, sh, n); pr != nil {
			s.logf(o.Side, "sub %s: %s (%s)", sh.ID, pr.msg, pr.rule)
			continue
		}
		if sh.Area == 0 {
			s.logf(o.Side, "%s placed in sea area %d", sh.ID, n)
		} else if sh.Area != n {
			s.logf(o.Side, "%s moves to sea area %d", sh.ID, n)
		}
		sh.Area = n
	}
}
