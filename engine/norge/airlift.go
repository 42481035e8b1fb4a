package norge

import "strings"

// checkAirlift validates the air transport of u to the airfield name
// (13.1, 13.2, 9.5, 8.7) and returns the airfield's name. Where it names
// what would be valid, that is only what the same checks accept now.
func checkAirlift(s *State, u *Unit, name string) (string, *problem) {
	if u.Side != German {
		return "", fail("13.1", "German units", "only the Germans fly troops in")
	}
	in := unitInfo(u.ID)
	switch {
	case u.Loc == LocAirlift:
		if s.Airlifts >= 4 {
			return "", fail("13.1", airliftUnits(s), "the 4 air transports are used up")
		}
	case u.Loc == LocDrop && in.Type == "mtn":
		if in.Avail > s.Turn {
			return "", fail("13.2", "from turn 6", "%s arrives on turn %d", u.ID, in.Avail)
		}
	default:
		return "", fail("13.1", airliftUnits(s), "%s is not reserved for air transport", u.ID)
	}
	if s.AirliftTurn == s.Turn {
		return "", fail("13.1", "one a turn", "a regiment has already been flown in this turn")
	}
	af := data.airfield(name)
	if af == nil || af.Hex == "-" {
		return "", fail("13.1", airliftFields(s), "%q is not an airfield in Norway", name)
	}
	if pr := airliftTo(s, af); pr != nil {
		return "", pr
	}
	return af.Name, nil
}

// airliftTo is what stops an air transport landing on airfield af now, or
// nil.
func airliftTo(s *State, af *AirfieldInfo) *problem {
	if s.controller(af.Name) != German {
		return fail("13.1", airliftFields(s), "%s is not under German control", af.Name)
	}
	m := data.Hexes[af.Hex].Map
	if airBonus(s, m, German) <= 0 {
		return fail("9.5", airliftFields(s), "no German air superiority over Map %s", m)
	}
	if s.weatherOf(af.Sector) == "storm" || s.weatherOf("S") == "storm" {
		return fail("8.7", airliftFields(s), "storm: no air transport to %s", af.Name)
	}
	if s.occupant(af.Hex) == Allied {
		return fail("12.4", airliftFields(s), "%s holds Allied units", af.Name)
	}
	return nil
}

// airliftFields lists the airfields an air transport may land on now: in
// Norway, German, under German air superiority, out of storm and free of
// Allied units.
func airliftFields(s *State) string {
	var ok []string
	for i := range data.Airfields {
		af := &data.Airfields[i]
		if af.Hex == "-" {
			continue
		}
		if s.controller(af.Name) != German {
			continue
		}
		m := data.Hexes[af.Hex].Map
		if airBonus(s, m, German) <= 0 || s.weatherOf(af.Sector) == "storm" || s.weatherOf("S") == "storm" || s.occupant(af.Hex) == Allied {
			continue
		}
		ok = append(ok, af.Name)
	}
	if len(ok) == 0 {
		return "no airfield this turn (an air transport needs a German airfield in Norway, German air superiority over its map and no storm there or in the South)"
	}
	return strings.Join(ok, ", ")
}

// airliftUnits lists the units that may be flown in now (13.1, 13.2).
func airliftUnits(s *State) string {
	var ok []string
	for _, u := range s.Units {
		in := unitInfo(u.ID)
		switch {
		case u.Side != German:
		case u.Loc == LocAirlift && s.Airlifts < 4, u.Loc == LocDrop && in.Type == "mtn" && in.Avail <= s.Turn:
			ok = append(ok, u.ID)
		}
	}
	if len(ok) == 0 {
		return "none: the 4 air transports are used up"
	}
	return strings.Join(ok, ", ")
}

func checkDrop(s *State, u *Unit, name string) (string, *problem) {
	if u.Side != German || u.Loc != LocDrop {
		return "", fail("13.5", "the para battalion or mountain regiment reserved for drops", "%s is not reserved for an air drop", u.ID)
	}
	if s.Turn < 6 || unitInfo(u.ID).Avail > s.Turn {
		return "", fail("13.5", "from turn 6", "air drops begin on turn 6")
	}
	h, ok := canonHex(name)
	if !ok || !data.Hexes[h].Land {
		return "", fail("13.5", "a land hex in Norway", "%q is not a land hex", name)
	}
	if s.occupant(h) == Allied || enemyPlace(s, h, German) {
		return "", fail("13.5", "a hex not occupied or controlled by the enemy", "%s is enemy occupied or controlled", h)
	}
	if s.weatherOf(data.Hexes[h].Sector) == "storm" || s.weatherOf("S") == "storm" {
		return "", fail("8.7", "no storm there or in the South", "storm: no air drop")
	}
	return h, nil
}

// germanBases lists the German airfields whose aircraft may fly to map m
// now (9.1-9.4), for the hint of an air order.
func germanBases(s *State, m *LandMap) string {
	var ok []string
	for i := range data.Airfields {
		af := &data.Airfields[i]
		if s.controller(af.Name) == German && s.weatherOf(af.Sector) != "storm" &&
			!(af.Oversea && s.seaWeather() == "storm") && containsStr(af.Range, m.ID) {
			ok = append(ok, af.Name)
		}
	}
	if len(ok) == 0 {
		return "no German airfield reaches Map " + m.ID + " this turn"
	}
	return strings.Join(ok, ", ")
}
