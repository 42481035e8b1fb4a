package kriegsmarine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"skagerrak/engine"
)

// fallbackPorts are the hexes of the ports the set-up needs, used only when
// the map data does not name the port. Source: reconstructed by projecting
// the towns' coordinates with the map's calibration (notes on the map).
var fallbackPorts = map[string]string{
	"scapa flow": "G3", "narvik": "CC19", "oslo": "I16", "bergen": "J11",
	"trondheim": "Q15", "stavanger": "G12", "kristiansand": "E14", "frederikshavn": "D16",
}

// portHex returns the hex of the named port.
func portHex(name string) (engine.Hex, bool) {
	if hi, ok := TheMap().Port(name); ok {
		return hi.Hex, true
	}
	if s, ok := fallbackPorts[strings.ToLower(name)]; ok {
		h, err := engine.ParseHex(s)
		return h, err == nil
	}
	return engine.Hex{}, false
}

// airfieldHex returns the hex of the named airfield.
//
// The answer is the first airfield in map order whose name equals name
// case-insensitively or folded (normName); the folded names are indexed
// once, so that the order parser does not walk the map for every base.
func airfieldHex(name string) (engine.Hex, *Airfield, bool) {
	list, index := airfieldIndex()
	i, ok := index[normName(name)]
	if !ok {
		i = len(list)
	}
	for j := 0; j < i; j++ {
		if strings.EqualFold(list[j].Airfield.Name, name) {
			i, ok = j, true
			break
		}
	}
	if !ok {
		return engine.Hex{}, nil, false
	}
	af := *list[i].Airfield
	return list[i].Hex, &af, true
}

var (
	airfieldsOnce  sync.Once
	airfieldsList  []HexInfo
	airfieldsIndex map[string]int
)

// airfieldIndex is the map's airfields in map order and the index of the
// first with each folded name.
func airfieldIndex() ([]HexInfo, map[string]int) {
	airfieldsOnce.Do(func() {
		airfieldsList = TheMap().Airfields()
		airfieldsIndex = map[string]int{}
		for i, hi := range airfieldsList {
			if _, dup := airfieldsIndex[normName(hi.Airfield.Name)]; !dup {
				airfieldsIndex[normName(hi.Airfield.Name)] = i
			}
		}
	})
	return airfieldsList, airfieldsIndex
}

// norwegian reports whether h is a Norwegian coastal, fjord or port hex
// (6.15, 9.1).
func norwegian(h engine.Hex) bool { return TheMap().IsCoastal(h, "NO") }

// nearCoast reports whether h is within n hexes of a coastal hex of one of
// the countries, not counting the coastal hexes' own distance (4.423).
func nearCoast(h engine.Hex, n int, countries ...string) bool {
	m := TheMap()
	for _, x := range m.Grid().Within(h, n) {
		for _, c := range countries {
			if m.IsCoastal(x, c) {
				return true
			}
		}
	}
	return false
}

// snap returns the hex nearest to want (then first in map order) for which
// ok holds.
func snap(want engine.Hex, ok func(engine.Hex) bool) (engine.Hex, bool) {
	g := TheMap().Grid()
	for r := 0; r <= g.Rows+g.Cols; r++ {
		for _, h := range g.Within(want, r) {
			if h.Distance(want) == r && ok(h) {
				return h, true
			}
		}
	}
	return engine.Hex{}, false
}

func newState(setup engine.Setup, dice engine.Dice) (*State, error) {
	s := &State{Version: 1, Scenario: "historical", Turn: 1, Weather: Gale}
	rev, err := engine.RevisionOf(Ruleset{}, setup)
	if err != nil {
		return nil, err
	}
	s.Revision = engine.Rev(rev).Recorded()
	bismarckReplies, err := s.takeSetup(setup)
	if err != nil {
		return nil, err
	}
	roll := s.determineTarget(dice)
	obj := s.Objective.Result
	// 4.51: a 2 forces Bismarck into play; the Allied answer defaults to
	// Hood and King George V (reconstructed default, 4.5 option 1).
	bismarck := s.has(OptBismarck) || contains(obj.Raiders, "bismarck")
	if bismarck && bismarckReplies == 0 {
		s.Options = append(s.Options, OptBismarckHood)
		sort.Strings(s.Options)
	}
	if !bismarck && bismarckReplies > 0 {
		return nil, fmt.Errorf("kriegsmarine: an Allied answer to Bismarck (4.5) needs the bismarck option")
	}
	s.drawCruisers(dice)
	for _, d := range Units() {
		u := Unit{ID: d.ID, Where: AtOut}
		if d.Option != "" && !s.has(d.Option) && !(d.ID == "bismarck" && bismarck) {
			s.Units = append(s.Units, u)
			continue
		}
		if err := s.place(&u, d, bismarck); err != nil {
			return nil, err
		}
		s.Units = append(s.Units, u)
	}
	sort.Slice(s.Units, func(i, j int) bool { return s.Units[i].ID < s.Units[j].ID })
	s.placeCommanders()
	s.logSetup(roll, bismarck)
	s.startTurn(dice)
	return s, nil
}

// takeSetup checks the scenario and options asked for and records the
// options, sorted; it counts the Allied answers to Bismarck chosen (4.5),
// at most one.
func (s *State) takeSetup(setup engine.Setup) (bismarckReplies int, err error) {
	if setup.Scenario != "" && setup.Scenario != "historical" && setup.Scenario != "default" {
		return 0, fmt.Errorf("kriegsmarine: unknown scenario %q (known: historical)", setup.Scenario)
	}
	known := map[string]bool{}
	for _, o := range options {
		known[o.ID] = true
	}
	for _, o := range setup.Options {
		if !known[o] {
			return 0, fmt.Errorf("kriegsmarine: unknown option %q", o)
		}
		s.Options = append(s.Options, o)
	}
	sort.Strings(s.Options)
	for _, o := range []string{OptBismarckHood, OptBismarckStr, OptBismarckFr} {
		if s.has(o) {
			bismarckReplies++
		}
	}
	if bismarckReplies > 1 {
		return 0, fmt.Errorf("kriegsmarine: the Allies choose one answer to Bismarck (4.5): bismarck-hood, bismarck-strasbourg or bismarck-french")
	}
	return bismarckReplies, nil
}

// determineTarget is the German target determination (4.1), secretly, with
// 2d6; it returns the roll.
func (s *State) determineTarget(dice engine.Dice) int {
	roll := engine.TwoD6(dice, "German target determination (4.1)")
	s.Objective = Objective{Roll: roll, Result: TargetTable.Lookup(roll)}
	if s.has(OptInvasion) {
		// 4.1 optional rule: after rolling, the German player may take
		// the Invasion of Norway directly.
		s.Objective.Result = TargetTable.Lookup(7)
	}
	return roll
}

// drawCruisers draws the objective's "CA or CL xN" at random from the
// cruisers not named (4.43).
func (s *State) drawCruisers(dice engine.Dice) {
	obj := s.Objective.Result
	if obj.DrawCruisers <= 0 {
		return
	}
	var pool []string
	for _, d := range Units() {
		if d.Side == German && (d.Type == "CA" || d.Type == "CL") && !contains(obj.Raiders, d.ID) && !contains(obj.Support, d.ID) {
			pool = append(pool, d.ID)
		}
	}
	for i := 0; i < obj.DrawCruisers && len(pool) > 0; i++ {
		k := dice.Roll(len(pool), "cruiser drawn from the cup (4.43)") - 1
		s.Objective.Cruisers = append(s.Objective.Cruisers, pool[k])
		pool = append(pool[:k], pool[k+1:]...)
	}
	sort.Strings(s.Objective.Cruisers)
}

// logSetup writes the set-up's journal: the target rolled (4.1), the
// weather (4.61), Bismarck's answer (4.5), the Allied set-up (4.3) and
// the Norwegian ships in port the Germans know of (4.21).
func (s *State) logSetup(roll int, bismarck bool) {
	s.logf("german", "setup", "", "4.1", "German target determination: rolled %d: %s", roll, describeObjective(s.Objective))
	if s.has(OptWeather) || !s.rev().Has(NoWeatherNote) {
		s.logf("both", "setup", "", "4.61", "The weather starts as gale.")
	} else {
		s.logf("both", "setup", "", "15.0", "The optional weather rules are not used in this game.")
	}
	if bismarck {
		s.logf("both", "setup", "", "4.5", "Bismarck is in play; the Allied answer is %s.", bismarckAnswer(s))
	}
	s.logf("allied", "setup", "", "4.3", "The Allied forces are set up; reinforcements arrive as the turn record track says.")
	for _, p := range []string{"Narvik", "Oslo", "Bergen"} {
		if h, ok := portHex(p); ok {
			n := len(s.onMap(Allied, h, func(d *UnitDef) bool { return d.Surface() && d.Nation == "NO" }))
			if n > 0 {
				e := s.logf("german", "setup", h.String(), "4.21", "Norwegian forces: %d surface unit(s) at %s.", n, p)
				e.Count = n
			}
		}
	}
}

func bismarckAnswer(s *State) string {
	switch {
	case s.has(OptBismarckStr):
		return "Strasbourg and Dunkerque with the third wave"
	case s.has(OptBismarckFr):
		return "Richelieu, Suffren and the French 2nd destroyer flotilla with the third wave"
	}
	return "Hood and King George V with the second wave"
}

// place puts a unit where the set-up tables, the objective and the options
// say (4.2-4.5, 12.0).
func (s *State) place(u *Unit, d *UnitDef, bismarck bool) error {
	obj := s.Objective.Result
	kind, arg, _ := strings.Cut(d.Entry, ":")
	if d.Air {
		placeAircraft(u, d, kind)
		return nil
	}
	if d.Side == German && kind != "ub" && kind != "ao" && kind != "reserve" && kind != "detach" && kind != "danish" && kind != "qship" {
		if s.germanInPlay(d, kind, bismarck) {
			u.Where = AtHeld
		}
		return nil
	}
	switch kind {
	case "map", "ub", "ao":
		return s.placeOnMap(u, d, kind, arg)
	case "port":
		h, ok := portHex(arg)
		if !ok {
			return fmt.Errorf("unit %s: unknown port %q", d.ID, arg)
		}
		u.Where, u.Hex = AtMap, h
	case "wave":
		t, p, _ := strings.Cut(arg, ":")
		n, err := strconv.Atoi(t)
		if err != nil {
			return fmt.Errorf("unit %s: wave turn %q", d.ID, t)
		}
		u.Where, u.Arrive, u.ArrivePort = AtWaiting, n, p
	case "qship":
		n, _ := strconv.Atoi(arg)
		u.Where, u.Arrive = AtWaiting, n
	case "hn25":
		u.Where, u.Arrive, u.ArrivePort = AtWaiting, ConvoyTurn, "Bergen"
	case "reserve":
		if obj.Kind == ObjInvasion {
			u.Where = AtReserve
		}
	case "detach":
		if s.has(OptIndependent) {
			u.Where = AtDetach
		}
	case "raiding":
		if contains(obj.Support, d.ID) || contains(obj.Raiders, d.ID) {
			u.Where = AtHeld
		}
	}
	return nil
}

// placeAircraft puts an aircraft unit at its base, or waiting for the
// invasion turn (17.12), or out of play.
func placeAircraft(u *Unit, d *UnitDef, kind string) {
	switch kind {
	case "setup":
		u.Where, u.Base = AtBase, d.Base
	case "carrier":
		u.Base = d.Base
		u.Where = AtBase
	case "option":
		u.Where, u.Base = AtBase, d.Base
	case "weserubung":
		u.Where, u.Base = AtWaiting, d.Base // 17.12: on the invasion turn
	default:
		u.Where = AtOut
	}
}

// germanInPlay reports whether a ship of the German fleet is held off the
// map to enter: on the invasion every non-optional ship (4.42), on a raid
// only the listed raiders and support (4.43); Bismarck and Graf Zeppelin
// by their options (4.5).
func (s *State) germanInPlay(d *UnitDef, kind string, bismarck bool) bool {
	obj := s.Objective.Result
	inPlay := false
	if obj.Kind == ObjInvasion {
		inPlay = kind == "held"
	} else {
		inPlay = contains(obj.Raiders, d.ID) || contains(obj.Support, d.ID) || contains(s.Objective.Cruisers, d.ID)
	}
	if d.ID == "bismarck" || d.ID == "grafzeppelin" {
		inPlay = (d.ID == "bismarck" && bismarck) || (d.ID == "grafzeppelin" && s.has(OptGrafZeppelin))
	}
	return inPlay
}

// placeOnMap sets up a ship on the map in the legal hex nearest to the
// one its set-up entry names (kind "map", "ub" for U-boats, "ao" for
// oilers); U-boats not on a raiding objective's list and oilers on a
// raid stay out.
func (s *State) placeOnMap(u *Unit, d *UnitDef, kind, arg string) error {
	obj := s.Objective.Result
	want, err := engine.ParseHex(arg)
	if err != nil {
		return fmt.Errorf("unit %s: %w", d.ID, err)
	}
	if kind == "ub" {
		if obj.Kind == ObjRaiding && !contains(obj.UBs, d.ID) {
			return nil
		}
	}
	if kind == "ao" && obj.Kind != ObjInvasion {
		return nil
	}
	h, found := snap(want, func(h engine.Hex) bool { return setupHexOK(d, kind, h) })
	if !found {
		return fmt.Errorf("unit %s: no legal set-up hex near %s", d.ID, arg)
	}
	u.Where, u.Hex = AtMap, h
	return nil
}

// setupHexOK reports whether a ship may set up in h: water it can enter,
// U-boats not within 3 hexes of the Scottish, Danish or Norwegian coasts
// (4.423), oilers where 4.421 says, Allied ships out of neutral Norway
// (6.15).
func setupHexOK(d *UnitDef, kind string, h engine.Hex) bool {
	m := TheMap()
	if d.Sub() {
		if !m.SubCanEnter(h) {
			return false
		}
	} else if !m.ShipCanEnter(h) {
		return false
	}
	switch kind {
	case "ub":
		// 4.423: not within 3 hexes of the Scottish, Danish or Norwegian coasts.
		return !nearCoast(h, 3, "UK", "DK", "NO")
	case "ao":
		// 4.421: the North AO in row FF, the others in row L or south.
		if d.ID == "aonord" {
			return h.Row == 32 && m.Grid().Contains(h)
		}
		return h.Row <= 12 && !norwegian(h)
	}
	if d.Side == Allied && d.Nation != "NO" && norwegian(h) {
		return false // 6.15: Norway is neutral at the start
	}
	return true
}

// startTurn is the reinforcement phase (5.1) of s.Turn: aircraft turned
// face up (5.12), arrivals, and the weather on morning and afternoon turns.
func (s *State) startTurn(dice engine.Dice) {
	for i := range s.Units {
		u := &s.Units[i]
		d := def(u.ID)
		if d.Air {
			u.Used = false // 5.12
		}
		u.TorpTurn, u.Silenced = 0, 0
		if u.ID == "hn25" && u.Where == AtWaiting && u.Arrive == s.Turn {
			s.placeConvoy(u)
			continue
		}
		if u.Where == AtWaiting && u.Arrive == s.Turn {
			h, ok := portHex(u.ArrivePort)
			if strings.HasPrefix(d.Entry, "qship") {
				// 14.2, 17.7: on a Norwegian coastal hex within 2 of
				// Bergen, Stavanger or Kristiansand; the scripted choice
				// (reconstructed) is the one nearest Bergen.
				bergen, _ := portHex("Bergen")
				h, ok = snap(bergen, func(x engine.Hex) bool {
					hi, _ := TheMap().Info(x)
					return norwegian(x) && x.Distance(bergen) <= 2 && hi.Port == "" && TheMap().ShipCanEnter(x)
				})
				u.ArrivePort = "the coast near Bergen"
			}
			if !ok {
				continue
			}
			u.Where, u.Hex = AtMap, h
			e := s.logf(string(d.Side), "arrival", h.String(), "5.1", "%s (%s) arrives at %s.", d.Name, d.Type, u.ArrivePort)
			e.Count = 1
		}
	}
	s.pendingOccupations(dice)
	s.wilfredEnters()
	s.wehrmacht(dice)
	if s.Scramble == "active" && IsDay(s.Turn) {
		s.ScrambleTurns++ // 6.292: 2 VP to the Allies each day turn
	}
	if s.has(OptWeather) && WeatherTurn(s.Turn) && s.Turn > 1 {
		roll := engine.TwoD6(dice, "weather (15.0)")
		w := nextWeather(s.Weather, roll)
		s.logf("both", "weather", "", "15.0", "Weather determination: rolled %d, the weather goes from %s to %s.", roll, s.Weather, w)
		s.Weather = w
	}
}

func describeObjective(o Objective) string {
	r := o.Result
	if r.Kind == ObjInvasion {
		return "Invasion of Norway (every German ship not marked optional is held off the map, 4.42)"
	}
	var names []string
	for _, id := range r.Raiders {
		names = append(names, def(id).Name)
	}
	var sup []string
	for _, id := range append(append([]string(nil), r.Support...), o.Cruisers...) {
		sup = append(sup, def(id).Name)
	}
	for _, id := range r.UBs {
		sup = append(sup, def(id).Name)
	}
	return fmt.Sprintf("Commerce Raiding: %s must break out through the red border; support: %s (4.43)", strings.Join(names, ", "), strings.Join(sup, ", "))
}

func contains(list []string, s string) bool {
	return slices.Contains(list, s)
}

// ConvoyTurn is the turn the HN25 convoy sails (14.1).
const ConvoyTurn = 10

// placeConvoy puts the HN25 convoy with a destroyer task force within 3
// hexes of Bergen, or alone within 2 hexes of Bergen if there is none
// (14.1, 14.11). The escort chosen is the nearest (then first by id): the
// scripted choice stands for the Allied player's.
func (s *State) placeConvoy(u *Unit) {
	bergen, ok := portHex("Bergen")
	if !ok {
		return
	}
	best, bd := "", 99
	for _, x := range s.Units {
		d := def(x.ID)
		if d.Side != Allied || d.Type != "DD" || !d.TaskForce() || d.Nation == "NO" || x.Where != AtMap || x.Hits >= d.Ships || x.Disabled > 0 || s.forcedHome(x.ID) {
			continue
		}
		if dist := x.Hex.Distance(bergen); dist <= 3 && dist < bd {
			best, bd = x.ID, dist
		}
	}
	if best != "" {
		u.Where, u.Hex = AtMap, s.unit(best).Hex
		s.ConvoyEscort = best
		s.logf("allied", "arrival", u.Hex.String(), "14.1", "The HN25 convoy sails from %s with %s as escort: take it off the map between G1 and K1.", u.Hex, def(best).Name)
		return
	}
	h, found := snap(bergen, func(x engine.Hex) bool {
		return x.Distance(bergen) <= 2 && TheMap().ShipCanEnter(x) && !portOrFjord(x)
	})
	if !found {
		return
	}
	u.Where, u.Hex = AtMap, h
	s.logf("allied", "arrival", h.String(), "14.11", "No destroyer task force is within 3 hexes of Bergen: the HN25 convoy sails alone from %s.", h)
}

// convoyExit reports whether a convoy may leave the map from h: the west
// edge between G1 and K1 (14.1).
func convoyExit(h engine.Hex) bool { return h.Col == 1 && h.Row >= 7 && h.Row <= 11 }
