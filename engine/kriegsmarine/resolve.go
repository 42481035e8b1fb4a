package kriegsmarine

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// resolveTurn plays the open turn: the rest of the reinforcement phase
// (12.0 detachments), movement (5.2, 6.1, 6.2, with tracked groups first,
// 6.44), the alternating search phase (5.4, 6.3, 6.4), the passive reports
// (6.37), the combat phase (5.5, 8.x) and the end of the turn (5.6), then
// the next turn's reinforcement phase (5.1).
func (s *State) resolveTurn(orders map[engine.Side]*Orders, dice engine.Dice) {
	s.disguise = orders[German].Disguise
	defer func() { s.disguise = false }()
	for _, side := range []engine.Side{Allied, German} {
		s.detaches(side, orders[side])
	}
	if orders[German].Scramble && s.Scramble == "" {
		s.Scramble = "active"
		for i := range s.Units {
			if def(s.Units[i].ID).Entry == "eau" {
				s.Units[i].Where, s.Units[i].Base = AtBase, "German area"
			}
		}
		s.logf("both", "scramble", "", "6.29", "Germany declares an Air Emergency Scramble: the Allies score 2 VP each day turn while it lasts.")
	}
	for _, side := range []engine.Side{Allied, German} {
		s.rebases(side, orders[side])
	}
	visited := map[string][]engine.Hex{}
	moved := map[string]bool{}
	start := map[string]engine.Hex{}
	for _, u := range s.Units {
		if u.Where == AtMap {
			start[u.ID] = u.Hex
		}
	}
	s.trackedMovement(orders, dice, visited, moved)
	for _, side := range []engine.Side{Allied, German} {
		for _, mv := range orders[side].Moves {
			for _, id := range mv.Units {
				if !moved[id] {
					s.moveUnit(id, mv, visited)
					moved[id] = true
				}
			}
		}
	}
	s.withdrawals(visited, moved)
	// Units that did not move stop where they are (6.37 "stop").
	for _, u := range s.Units {
		if u.Where == AtMap && !moved[u.ID] {
			visited[u.ID] = []engine.Hex{u.Hex}
		}
	}
	s.checkInvasion(visited)
	s.danishResistance(orders, dice)

	contact := map[engine.Hex]bool{}
	s.searchPhase(Allied, orders, contact, dice)
	s.searchPhase(German, orders, contact, dice)
	s.passiveReports(visited)
	s.combatPhase(orders, visited, start, dice)
	s.convoyCheck()
	s.supplyPhase(moved)
	if orders[German].Cancel && s.Scramble == "active" {
		s.Scramble = "over" // 6.291: cancelled in the end of turn phase
		s.logf("both", "scramble", "", "6.291", "Germany cancels the Air Emergency Scramble.")
	}
	if orders[German].EndGame {
		s.logf("both", "end", "", "6.18", "The German player holds victory in hand and ends the game after turn %d.", s.Turn)
		s.Turn = LastTurn
	}
	s.endTurn(dice)
}

func (s *State) detaches(side engine.Side, o *Orders) {
	for _, x := range o.Detaches {
		dd, fl := s.unit(x.Destroyer), s.unit(x.Flotilla)
		if dd == nil || fl == nil || dd.Where != AtDetach || fl.Where != AtMap {
			continue
		}
		fl.Hits++ // 12.0: the task force takes 1 hit for the ship it gives up
		if s.rev().Has(DetachedNotLost) {
			fl.Detached++ // 16.3: a destroyer detached is not one lost
		}
		dd.Where, dd.Hex = AtMap, fl.Hex
		s.logf(string(side), "arrival", fl.Hex.String(), "12.0", "%s is detached from %s at %s.", def(dd.ID).Name, def(fl.ID).Name, fl.Hex)
	}
}

func (s *State) rebases(side engine.Side, o *Orders) {
	for _, r := range o.Rebases {
		u := s.unit(r.Unit)
		if u == nil || u.Where != AtBase || u.Used {
			continue
		}
		u.Base, u.Used = r.Base, true // 6.27: a transferred unit is face down
		name := r.Base
		if d, ok := UnitByID(r.Base); ok {
			name = d.Name
		}
		s.logf(string(side), "move", "", "6.21", "%s transfers to %s.", def(r.Unit).Name, name)
	}
}

// moveUnit carries out one unit's part of a move order.
func (s *State) moveUnit(id string, mv Move, visited map[string][]engine.Hex) {
	u := s.unit(id)
	d := def(id)
	if mv.Enter {
		if u.Where != AtHeld && u.Where != AtReserve {
			return
		}
		spend := mv.Spend
		if spend == 0 && len(mv.Path) == 0 && !mv.Off {
			// "enter UNIT ARROW": as far as the unit's allowance goes (6.16).
			cost, _ := TheMap().EntryCost(mv.Arrow)
			remaining := cost
			if u.Arrow == mv.Arrow {
				remaining -= u.Spent
			}
			if allow := weatherAllowance(baseAllowance(d, u, s.Turn), d.Small(), s.Weather, s.has(OptWeather), engine.Hex{}, nil); allow < remaining {
				spend = allow
			}
		}
		if spend > 0 {
			if u.Arrow != mv.Arrow {
				u.Arrow, u.Spent = mv.Arrow, 0
			}
			u.Spent += spend
			cost, _ := TheMap().EntryCost(mv.Arrow)
			s.logf(string(d.Side), "move", mv.Arrow.String(), "6.16", "%s spends %d off the map towards %s (%d of %d).", d.Name, spend, mv.Arrow, u.Spent, cost)
			return
		}
		if u.Where == AtReserve {
			u.Committed = true // 16.3
		}
		u.Where, u.Hex, u.Arrow, u.Spent = AtMap, mv.Arrow, engine.Hex{}, 0
		visited[id] = append(visited[id], mv.Arrow)
	}
	if u.Where != AtMap {
		return
	}
	for _, h := range mv.Path {
		u.Hex = h
		visited[id] = append(visited[id], h)
	}
	s.countNorth(id, mv.Path)
	if len(visited[id]) == 0 {
		visited[id] = []engine.Hex{u.Hex}
	}
	if mv.Off {
		from := u.Hex
		if exitHex(s.rev(), from) {
			u.Where = AtBrokeOut
			s.logf(string(d.Side), "move", from.String(), "6.18", "%s leaves the map from %s through the red border: a breakout.", d.Name, from)
		} else {
			u.Where = AtExited
			s.logf(string(d.Side), "move", from.String(), "6.18", "%s leaves the map from %s and may not return.", d.Name, from)
		}
	}
}

// trackedMovement: at the start of the movement phase every tracked group
// makes an evasion determination (6.44); groups that fail move first and
// their trackers follow them.
func (s *State) trackedMovement(orders map[engine.Side]*Orders, dice engine.Dice, visited map[string][]engine.Hex, moved map[string]bool) {
	old := s.Tracks
	s.Tracks = nil
	for _, t := range old {
		tracked := s.stillAt(t.TrackedUnits, t.Hex)
		trackers := s.stillAt(t.TrackerUnits, t.Hex)
		if len(tracked) == 0 || len(trackers) == 0 {
			continue
		}
		groups := groupsOf(tracked, orders[t.Tracked].Splits)
		// 6.43: one tracking group a tracked group; trackers are handed
		// out fastest first; groups left without one evade automatically.
		sort.SliceStable(trackers, func(i, j int) bool {
			return s.evasion(trackers[i]) > s.evasion(trackers[j])
		})
		assign := make([][]string, len(groups))
		for i, id := range trackers {
			if i < len(groups) {
				assign[i] = []string{id}
			} else {
				assign[0] = append(assign[0], id)
			}
		}
		if len(groups) > 1 {
			s.logf("both", "tracking", t.Hex.String(), "6.43", "The tracked stack at %s splits into %d groups.", t.Hex, len(groups))
		}
		for gi, g := range groups {
			if len(assign[gi]) == 0 {
				s.logf("both", "evasion", t.Hex.String(), "6.43", "A split group at %s has no tracker and evades automatically.", t.Hex)
				continue
			}
			ev, tr := s.minEvasion(g), s.minEvasion(assign[gi])
			roll := engine.TwoD6(dice, "evasion determination (6.44)") + s.evasionMod(g, assign[gi])
			if evades(ev, tr, roll) {
				s.logf("both", "evasion", t.Hex.String(), "6.44", "Evasion determination at %s: speed %d against %d, rolled %d (evades on %d or less): evasion succeeds, tracking ends.", t.Hex, ev, tr, roll, EvasionTable.Lookup(ev-tr))
				continue
			}
			s.logf("both", "evasion", t.Hex.String(), "6.44", "Evasion determination at %s: speed %d against %d, rolled %d (evades on %d or less): evasion fails, the tracked group moves first.", t.Hex, ev, tr, roll, EvasionTable.Lookup(ev-tr))
			// The tracked group moves first (6.44).
			for _, mv := range orders[t.Tracked].Moves {
				for _, id := range mv.Units {
					if contains(g, id) && !moved[id] {
						s.moveUnit(id, mv, visited)
						moved[id] = true
					}
				}
			}
			for _, id := range g {
				moved[id] = true
				if len(visited[id]) == 0 {
					visited[id] = []engine.Hex{s.unit(id).Hex}
				}
			}
			lead := s.unit(g[0])
			if lead.Where != AtMap {
				s.logf(string(t.Tracker), "tracking", t.Hex.String(), "6.45", "The group tracked from %s leaves the map; contact is lost.", t.Hex)
				for _, id := range assign[gi] {
					moved[id] = true
					visited[id] = []engine.Hex{s.unit(id).Hex}
				}
				continue
			}
			target := lead.Hex
			s.follow(t, g, assign[gi], target, visited, moved)
		}
	}
}

// follow moves a tracking group after the group it tracks (6.44): it moves
// to the tracked group's hex, or as close as it can, and then tracking ends.
func (s *State) follow(t Track, tracked, trackers []string, target engine.Hex, visited map[string][]engine.Hex, moved map[string]bool) {
	from := s.unit(trackers[0]).Hex
	allow := 99
	var nation string
	for _, id := range trackers {
		d := def(id)
		u := s.unit(id)
		a := weatherAllowance(baseAllowance(d, u, s.Turn), d.Small(), s.Weather, s.has(OptWeather), from, nil)
		if a < allow {
			allow = a
		}
		if nation == "" || d.Nation != "NO" {
			nation = d.Nation
		}
	}
	path := shortestPath(from, target, moveOK(t.Tracker, nation, false, s.Turn, s.intervention()))
	reached := path != nil && len(path) <= allow
	if path != nil && len(path) > allow {
		path = path[:allow]
	}
	for _, id := range trackers {
		u := s.unit(id)
		visited[id] = []engine.Hex{u.Hex}
		if len(path) > 0 {
			visited[id] = nil
			for _, h := range path {
				u.Hex = h
				visited[id] = append(visited[id], h)
			}
			s.countNorth(id, path)
		}
		moved[id] = true
	}
	nt := Track{Tracker: t.Tracker, TrackerUnits: sortedIDs(trackers), Tracked: t.Tracked, TrackedUnits: sortedIDs(tracked), Hex: target, Since: t.Since,
		TrackedSpeed: s.minEvasion(tracked), TrackerSpeed: s.minEvasion(trackers)}
	if !reached {
		at := from
		if len(path) > 0 {
			at = path[len(path)-1]
		}
		e := s.logf(string(t.Tracker), "tracking", target.String(), "6.44", "The tracked group stops at %s (%s); your trackers reach only %s and lose contact.", target, strings.Join(s.reported(tracked), ", "), at)
		e.Types, e.Count = s.reported(tracked), len(tracked)
		s.logf(string(t.Tracked), "tracking", target.String(), "6.45", "The enemy tracking your group could not follow it to %s: tracking ends.", target)
		return
	}
	nt.TrackedTypes = s.reported(tracked)
	e := s.logf(string(t.Tracker), "tracking", target.String(), "6.44", "The tracked group moves to %s: %d unit(s), %s, slowest speed %d; your trackers follow and keep contact.", target, len(tracked), strings.Join(nt.TrackedTypes, ", "), nt.TrackedSpeed)
	e.Types, e.Count = nt.TrackedTypes, len(tracked)
	s.logf(string(t.Tracked), "tracking", target.String(), "6.44", "Your tracked group stops at %s; the enemy (%s) follows and keeps tracking.", target, strings.Join(typesOf(trackers), ", "))
	s.Tracks = append(s.Tracks, nt)
}

func (s *State) stillAt(ids []string, h engine.Hex) []string {
	var out []string
	for _, id := range ids {
		if u := s.unit(id); u != nil && u.Where == AtMap && u.Hex == h {
			out = append(out, id)
		}
	}
	return out
}

func (s *State) evasion(id string) int { return evasionSpeed(def(id), s.unit(id)) }

// minEvasion is the evasion speed of a group: its slowest unit (6.43, 6.44).
func (s *State) minEvasion(ids []string) int {
	m := 0
	for i, id := range ids {
		if e := s.evasion(id); i == 0 || e < m {
			m = e
		}
	}
	return m
}

// checkInvasion: a German surface ship other than an oiler entering a
// Norwegian coastal, fjord or port hex invades Norway (9.1).
func (s *State) checkInvasion(visited map[string][]engine.Hex) {
	if s.InvasionTurn != 0 {
		return
	}
	for _, u := range s.Units {
		d := def(u.ID)
		if d.Side != German || !d.Surface() || d.Type == "AO" || d.Type == "UF" {
			continue // oilers (9.1) and the disguised Q-ships (17.7) invade nothing
		}
		for _, h := range visited[u.ID] {
			if norwegian(h) {
				s.InvasionTurn = s.Turn
				s.logf("both", "invasion", "", "9.1", "Germany invades Norway this turn. Allied ships may enter Norwegian waters, and Norwegian units move, from turn %d.", s.intervention())
				for i := range s.Units {
					if w := &s.Units[i]; w.Where == AtWaiting && def(w.ID).Entry == "weserubung" {
						w.Where = AtBase // 17.12
						s.logf("german", "arrival", "", "17.12", "%s arrives for Weserübung day at %s.", def(w.ID).Name, baseName(w.Base))
					}
				}
				return
			}
		}
	}
}

// searchable reports whether a search sees the unit (6.34: not submarines,
// Q-ships or aircraft; 13.0: not an oiler on a coastal hex, except
// Nordmark, 13.4).
func searchable(d *UnitDef, h engine.Hex) bool {
	if !d.Surface() || d.Type == "UF" {
		return false
	}
	if d.Type == "AO" && d.ID != "nordmark" {
		if hi, ok := TheMap().Info(h); ok && hi.Terrain != Sea {
			return false
		}
	}
	return true
}

func (s *State) visibleAt(side engine.Side, h engine.Hex) []string {
	return s.onMap(side, h, func(d *UnitDef) bool { return searchable(d, h) })
}

func sideName(side engine.Side) string {
	if side == Allied {
		return "Allied"
	}
	return "German"
}

// searchPhase carries out one side's active searches in the order written
// (6.31-6.36). Surface searches that find enemy surface ships lead to an
// encounter at once (6.36).
func (s *State) searchPhase(side engine.Side, orders map[engine.Side]*Orders, contact map[engine.Hex]bool, dice engine.Dice) {
	enemy := other(side)
	for _, sr := range orders[side].Searches {
		h := sr.Hex
		how := "Air search"
		if sr.Kind == "surface" {
			u := s.unit(sr.Unit)
			if u == nil || u.Where != AtMap {
				s.logf(string(side), "search", "", "6.33", "%s is not on the map and cannot search.", def(sr.Unit).Name)
				continue
			}
			h = u.Hex
			how = "Surface search by " + def(sr.Unit).Name
		} else if !IsDay(s.Turn) {
			continue
		}
		found := s.visibleAt(enemy, h)
		types := s.reported(found)
		if len(found) == 0 {
			e := s.logf(string(side), "search", h.String(), "6.34", "%s of %s: no enemy surface ships.", how, h)
			e.Types = nil
		} else {
			e := s.logf(string(side), "search", h.String(), "6.34", "%s of %s: enemy surface ships found: %s.", how, h, countTypes(types))
			e.Types, e.Count = types, len(found)
		}
		if len(found) == 0 {
			s.logf(string(enemy), "searched", h.String(), "6.34", "The %s player searches %s: nothing of yours is there to report.", sideName(side), h)
		} else {
			e := s.logf(string(enemy), "searched", h.String(), "6.34", "The %s player searches %s and finds your ships there: you report %s.", sideName(side), h, countTypes(types))
			e.Types, e.Count = types, len(found)
		}
		if len(found) > 0 && sr.Kind == "surface" {
			s.encounter(side, h, orders, contact, dice)
		}
	}
}

// countTypes prints ["BB","DD","DD"] as "1 BB, 2 DD".
func countTypes(types []string) string {
	var out []string
	for i := 0; i < len(types); {
		j := i
		for j < len(types) && types[j] == types[i] {
			j++
		}
		out = append(out, fmt.Sprintf("%d %s", j-i, types[i]))
		i = j
	}
	return strings.Join(out, ", ")
}

// choiceOf is a group's standing encounter choice (6.41): the first unit of
// the group (by id) with an order, else the side's default, else Track for
// the Allies and Evade for the Germans (reconstructed defaults). "ask"
// lines are left out: this is also the default of a decision taken in
// person. In ports and fjords Evade is not allowed and counts as Fight
// (6.41 note).
func choiceOf(side engine.Side, o *Orders, group []string, h engine.Hex) string {
	choice := ""
	for _, id := range sortedIDs(group) {
		for _, e := range o.Encounters {
			if e.Unit == id && choice == "" && e.Choice != ChoiceAsk {
				choice = e.Choice
			}
		}
	}
	if choice == "" {
		for _, e := range o.Encounters {
			if e.Unit == "" && e.Choice != ChoiceAsk {
				choice = e.Choice
			}
		}
	}
	if choice == "" {
		choice = ChoiceEvade
		if side == Allied {
			choice = ChoiceTrack
		}
	}
	if choice == ChoiceEvade && portOrFjord(h) {
		choice = ChoiceFight
	}
	return choice
}

func portOrFjord(h engine.Hex) bool {
	hi, ok := TheMap().Info(h)
	return ok && (hi.Port != "" || hi.Fjord)
}

// encounter resolves the encounter in hex h (6.41-6.42).
func (s *State) encounter(searcher engine.Side, h engine.Hex, orders map[engine.Side]*Orders, contact map[engine.Hex]bool, dice engine.Dice) {
	if contact[h] {
		return
	}
	allied := s.visibleAt(Allied, h)
	german := s.visibleAt(German, h)
	if len(allied) == 0 || len(german) == 0 {
		// A submarine's find: no encounter (6.33, 6.41 note); only the
		// searcher knows a submarine searched.
		s.logf(string(searcher), "encounter", h.String(), "6.41", "Submarine contact at %s: submarines take no part in encounters or tracking; the ships found may be attacked by day (8.1).", h)
		return
	}
	contact[h] = true
	senior, junior, sg, jg := encounterSeniority(allied, german)
	sc := choiceOf(senior, orders[senior], sg, h)
	jc := choiceOf(junior, orders[junior], jg, h)
	sc, jc = s.askEncounter(orders, allied, german, h, senior, junior, sc, jc)
	res := EncounterTable[sc][jc]
	e := s.logf("both", "encounter", h.String(), "6.41", "Encounter at %s: %s %s chooses %s, %s %s chooses %s: %s.",
		h, sideName(senior), countTypes(s.reported(sg)), sc, sideName(junior), countTypes(s.reported(jg)), jc, res)
	e.Types, e.Count = append(s.reported(sg), s.reported(jg)...), len(sg)+len(jg)
	sort.Strings(e.Types)
	switch res {
	case ResTrack:
		s.addTrack(senior, sg, junior, jg, h)
	case ResEvadeTrack:
		if !s.evasionRoll(h, jg, sg, "evasion determination (6.42)", dice) {
			s.addTrack(senior, sg, junior, jg, h)
		}
	case ResEvadeEngage:
		ev, tr := jg, sg
		if sc == ChoiceEvade {
			ev, tr = sg, jg
		}
		if !s.evasionRoll(h, ev, tr, "evasion determination (6.41)", dice) {
			s.addEngagement(h, ResEngage, allied, german)
		}
	case ResEngage:
		s.addEngagement(h, ResEngage, allied, german)
		s.Engagements[len(s.Engagements)-1].TrackAfter = sc == ChoiceFight
	case ResPursuit:
		s.addEngagement(h, ResPursuit, allied, german)
		// 8.3: "After the above combat ends, the Germans (or the
		// Norwegian/Danish forces) must make an evasion determination",
		// whichever side chose Fight and whichever Track (rules revision
		// 2); revision 1 made it only when the tracking side chose Track.
		s.Engagements[len(s.Engagements)-1].TrackAfter = sc == ChoiceTrack || s.rev().Has(PursuitEvasionAlways)
	}
}

// encounterSeniority orders the sides of an encounter (6.41): the Allies
// track; the Germans track pure Norwegian or Danish forces. It returns the
// senior and junior side and their ships.
func encounterSeniority(allied, german []string) (senior, junior engine.Side, sg, jg []string) {
	senior, junior = Allied, German
	sg, jg = allied, german
	pure := true
	for _, id := range allied {
		if n := def(id).Nation; n != "NO" && n != "DK" {
			pure = false
		}
	}
	if pure {
		senior, junior, sg, jg = German, Allied, german, allied
	}
	return senior, junior, sg, jg
}

// askEncounter: a side that asked decides in person, now (6.41); it
// returns the senior's and junior's choices, as decided or as ordered.
func (s *State) askEncounter(orders map[engine.Side]*Orders, allied, german []string, h engine.Hex, senior, junior engine.Side, sc, jc string) (string, string) {
	var qs []Question
	for _, side := range []engine.Side{Allied, German} {
		own, enemy := allied, german
		if side == German {
			own, enemy = german, allied
		}
		if asksEncounter(orders[side], own) {
			qs = append(qs, s.encounterQuestion(side, orders[side], own, enemy, h))
		}
	}
	if ans := s.decide(DecideEncounter, qs); ans != nil {
		if d, ok := ans[senior]; ok {
			sc = decidedChoice(d, sc, h)
		}
		if d, ok := ans[junior]; ok {
			jc = decidedChoice(d, jc, h)
		}
	}
	return sc, jc
}

// evasionRoll is an evasion determination at h (6.44): the evading ships
// ev against the trackers tr, on the Evasion Table; it logs the roll and
// reports whether they evade.
func (s *State) evasionRoll(h engine.Hex, ev, tr []string, why string, dice engine.Dice) bool {
	es, ts := s.minEvasion(ev), s.minEvasion(tr)
	roll := engine.TwoD6(dice, why) + s.evasionMod(ev, tr)
	ok := evades(es, ts, roll)
	word := "fails"
	if ok {
		word = "succeeds"
	}
	s.logf("both", "evasion", h.String(), "6.44", "Evasion determination at %s: speed %d against %d, rolled %d (evades on %d or less): evasion %s.", h, es, ts, roll, EvasionTable.Lookup(es-ts), word)
	return ok
}

func (s *State) addTrack(tracker engine.Side, tu []string, tracked engine.Side, du []string, h engine.Hex) {
	for _, t := range s.Tracks {
		for _, id := range du {
			if contains(t.TrackedUnits, id) {
				return
			}
		}
	}
	t := Track{Tracker: tracker, TrackerUnits: sortedIDs(tu), Tracked: tracked, TrackedUnits: sortedIDs(du), Hex: h, Since: s.Turn,
		TrackedSpeed: s.minEvasion(du), TrackerSpeed: s.minEvasion(tu), TrackedTypes: s.reported(du)}
	s.Tracks = append(s.Tracks, t)
	e := s.logf(string(tracker), "tracking", h.String(), "6.42", "You track the enemy group at %s: %d unit(s), %s, slowest speed %d (6.46).", h, len(du), countTypes(t.TrackedTypes), t.TrackedSpeed)
	e.Types, e.Count = t.TrackedTypes, len(du)
	s.logf(string(tracked), "tracking", h.String(), "6.42", "Your group at %s is tracked; it makes an evasion determination at the start of next turn's movement.", h)
}

func (s *State) addEngagement(h engine.Hex, kind string, allied, german []string) {
	s.Engagements = append(s.Engagements, Engagement{Turn: s.Turn, Hex: h, Kind: kind, Allied: sortedIDs(allied), German: sortedIDs(german)})
}

// scottish is the set of hexes within 3 of Scottish land (6.37).
func nearScotland(h engine.Hex) bool {
	m := TheMap()
	for _, x := range m.Grid().Within(h, 3) {
		if hi, ok := m.Info(x); ok && hi.HasCountry("UK") {
			return true
		}
	}
	return false
}

func nearArrow(h engine.Hex) bool {
	m := TheMap()
	for _, x := range m.Grid().Within(h, 3) {
		if _, ok := m.EntryCost(x); ok {
			return true
		}
	}
	return false
}

// passiveSpecial reports whether a unit of side stopping in or passing h
// must be reported (6.37 and the Special Search Hexes sheet), taking the
// column-S exemption (6.37) and fog (15.1) into account.
func (s *State) passiveSpecial(side engine.Side, d *UnitDef, h engine.Hex) bool {
	if !searchable(d, h) {
		return false
	}
	m := TheMap()
	if m.IsCoastal(h, "NO") || m.IsCoastal(h, "SE") || m.IsCoastal(h, "DK") {
		switch {
		case m.IsCoastal(h, "NO") && side == Allied && s.InvasionTurn > 0 && h.Row >= 19:
			// 6.37: after the invasion, Allied ships in row S and north
			// need not report on the Norwegian coast.
		case m.IsCoastal(h, "NO") && s.fog():
			// 15.1: fog hides ships on the Norwegian coast.
		default:
			return true
		}
	}
	if side == Allied {
		return nearArrow(h)
	}
	if nearScotland(h) {
		return true
	}
	hi, _ := m.Info(h)
	return hi.Terrain != Sea && (hi.HasTag("orkney") || hi.HasTag("shetland") || hi.HasTag("scapa-flow"))
}

// fog reports whether fog lies on the Norwegian coast this turn (15.1).
func (s *State) fog() bool {
	if !s.has(OptWeather) || s.Weather != Light {
		return false
	}
	p := TimeOfDay(s.Turn)
	return p == "evening" || p == "night" || p == "morning"
}

// passiveReports makes the passive geographic reports after all searches
// (6.37): the number of units, without types, in each special hex a side's
// surface ships stopped in or passed through.
func (s *State) passiveReports(visited map[string][]engine.Hex) {
	for _, side := range []engine.Side{Allied, German} {
		count := map[engine.Hex]map[string]bool{}
		for _, u := range s.Units {
			d := def(u.ID)
			if d.Side != side {
				continue
			}
			for _, h := range visited[u.ID] {
				if s.passiveSpecial(side, d, h) {
					if count[h] == nil {
						count[h] = map[string]bool{}
					}
					count[h][u.ID] = true
				}
			}
		}
		for _, h := range engine.SortedHexes(count) {
			n := len(count[h])
			e := s.logf(string(other(side)), "passive", h.String(), "6.37", "Passive report: the %s player has %d unit(s) at %s.", sideName(side), n, h)
			e.Count = n
			e = s.logf(string(side), "reported", h.String(), "6.37", "You report %d unit(s) at %s (passive report).", n, h)
			e.Count = n
		}
	}
}

// combatPhase resolves the engagements of this turn (5.5, 8.x).
func (s *State) combatPhase(orders map[engine.Side]*Orders, visited map[string][]engine.Hex, start map[string]engine.Hex, dice engine.Dice) {
	s.lonelyOilers()
	s.submarineAttacks(orders, dice)
	fight := func() {
		for i := range s.Engagements {
			g := &s.Engagements[i]
			if g.Turn != s.Turn || g.Outcome != "" {
				continue
			}
			s.battle(g, orders, dice)
		}
	}
	fight()
	s.qShips(dice)
	s.fortressFire(orders[German].Abandons, orders[German].Exposes, visited, start, dice)
	// 9.3: the Norwegian ships meet the Germans who came through the
	// fortress.
	s.norwegianDefence(dice)
	fight()
	s.airStrikes(orders, dice)
	if IsDay(s.Turn) {
		s.airbornePhase(orders[German].Drops, dice)
	}
	s.wilfredPhase(dice)
	s.portPhase(dice)
}

// endTurn is the end of turn phase (5.6) and the next reinforcement phase.
func (s *State) endTurn(dice engine.Dice) {
	if s.Turn == 10 {
		// 16.41: ML Flot 20 and the destroyers with it must be at Scapa
		// Flow by the evening of 9 April.
		scapa, _ := portHex("Scapa Flow")
		for _, id := range []string{"mlflot20", "ddflot12"} {
			u := s.unit(id)
			if u != nil && u.Where != AtOut && !(u.Where == AtMap && u.Hex == scapa) && u.Where != AtSunk {
				s.Late = append(s.Late, id)
				s.logf("allied", "score", "", "16.41", "%s is not at Scapa Flow by the evening of 9 April: 1 VP to Germany, counted at the end (16.0).", def(id).Name)
			}
		}
	}
	s.Turn++
	if s.Turn > LastTurn {
		s.Over = true
		s.Result = s.result()
		s.logf("both", "end", "", "16.0", "The game ends after turn %d. %s", LastTurn, s.Result.Summary)
		s.logf("allied", "end", "", "4.1", "The German objective is revealed: rolled %d, %s.", s.Objective.Roll, describeObjective(s.Objective))
		return
	}
	s.startTurn(dice)
}

// withdrawals moves the "R" ships home with all their movement (14.0),
// and ships with engine damage home at half speed (8.661).
func (s *State) withdrawals(visited map[string][]engine.Hex, moved map[string]bool) {
	s.limpHome(visited, moved)
	scapa, ok := portHex("Scapa Flow")
	if !ok {
		return
	}
	for _, id := range WithdrawalR {
		if !s.forcedHome(id) || moved[id] {
			continue
		}
		u, d := s.unit(id), def(id)
		allow := weatherAllowance(baseAllowance(d, u, s.Turn), d.Small(), s.Weather, s.has(OptWeather), u.Hex, nil)
		path := shortestPath(u.Hex, scapa, moveOK(d.Side, d.Nation, d.Sub(), s.Turn, s.intervention()))
		if len(path) > allow {
			path = path[:allow]
		}
		s.moveUnit(id, Move{Units: []string{id}, Path: path}, visited)
		moved[id] = true
		if u.Hex == scapa {
			u.Returned = true
			s.logf("allied", "move", scapa.String(), "14.0", "%s is back at Scapa Flow and refuels.", d.Name)
		} else {
			s.logf("allied", "move", u.Hex.String(), "14.0", "%s, short of fuel, steams for Scapa Flow and reaches %s.", d.Name, u.Hex)
		}
	}
}

// homePorts are where a ship with engine damage may limp to (8.661): a
// friendly port city; the Germans leave by the south edge instead.
func (s *State) limpTarget(d *UnitDef, from engine.Hex) (engine.Hex, bool) {
	var cands []engine.Hex
	switch {
	case d.Side == German:
		for c := 1; c <= MapCols; c++ {
			if h := (engine.Hex{Row: 1, Col: c}); TheMap().ShipCanEnter(h) {
				cands = append(cands, h)
			}
		}
	case d.Nation == "NO":
		for _, p := range norwegianPorts() {
			if s.occupation("port", p.Port) < 0 {
				cands = append(cands, p.Hex)
			}
		}
	default:
		for _, p := range TheMap().Ports() {
			if p.HasCountry("UK") {
				cands = append(cands, p.Hex)
			}
		}
	}
	best, bd := engine.Hex{}, -1
	for _, h := range cands {
		if dist := from.Distance(h); bd < 0 || dist < bd {
			best, bd = h, dist
		}
	}
	return best, bd >= 0
}

func (s *State) limpHome(visited map[string][]engine.Hex, moved map[string]bool) {
	for i := range s.Units {
		u := &s.Units[i]
		d := def(u.ID)
		forced := u.ForcedHome && u.Disabled == 0
		if (u.Disabled == 0 && !forced) || (u.Disabled >= s.Turn && !forced) || u.Home || u.Where != AtMap || moved[u.ID] {
			continue
		}
		target, ok := s.limpTarget(d, u.Hex)
		if !ok {
			continue
		}
		allow := (baseAllowance(d, u, s.Turn) + 1) / 2
		if forced {
			allow = weatherAllowance(baseAllowance(d, u, s.Turn), d.Small(), s.Weather, s.has(OptWeather), u.Hex, nil) // 8.662: at its current maximum speed
		}
		path := shortestPath(u.Hex, target, moveOK(d.Side, d.Nation, d.Sub(), s.Turn, s.intervention()))
		off := false
		if len(path) > allow {
			path = path[:allow]
		} else if d.Side == German && len(path)+1 <= allow {
			off = true
		}
		s.moveUnit(u.ID, Move{Units: []string{u.ID}, Path: path, Off: off}, visited)
		moved[u.ID] = true
		if u.Where == AtMap && u.Hex == target && d.Side != German {
			u.Home = true
		}
		if forced {
			s.logf(string(d.Side), "move", u.Hex.String(), "8.662", "%s is forced to return to port.", d.Name)
		} else {
			s.logf(string(d.Side), "move", u.Hex.String(), "8.661", "%s limps home with engine damage.", d.Name)
		}
	}
}
