package kriegsmarine

import (
	"fmt"
	"slices"
	"sort"

	"skagerrak/engine"
)

// Where a unit is.
const (
	AtMap      = "map"       // on the map at Hex
	AtHeld     = "held"      // German, off the map in the German area (4.422)
	AtBase     = "base"      // aircraft at its base (Base)
	AtWaiting  = "waiting"   // reinforcement not yet arrived (Arrive)
	AtReserve  = "reserve"   // German reserve ship (4.424)
	AtDetach   = "detach"    // independent destroyer not yet detached (12.0)
	AtOut      = "out"       // not in this game (option or objective)
	AtExited   = "exited"    // moved off the map (6.18)
	AtBrokeOut = "broke-out" // broke out through the red border (6.18)
	AtSunk     = "sunk"
	AtLanded   = "landed" // airborne troops on the airfield they took (8.7)
)

// State is the whole game: it marshals to JSON deterministically (slices
// sorted, maps only with string keys).
type State struct {
	Version int `json:"version"`
	// Revision is the rules revision the game is played under, recorded
	// from revision 2 on (see rev and engine/revision.go).
	Revision int      `json:"revision,omitempty"`
	Scenario string   `json:"scenario"`
	Options  []string `json:"options,omitempty"`
	// Turn is the open turn, 1..18; 19 once the game is over.
	Turn    int    `json:"turn"`
	Over    bool   `json:"over,omitempty"`
	Weather string `json:"weather"`
	// Objective is the secret German objective (4.1).
	Objective Objective `json:"objective"`
	// InvasionTurn is the turn a German surface ship first entered a
	// Norwegian coastal, fjord or port hex (9.1); 0 before.
	InvasionTurn int `json:"invasion_turn,omitempty"`
	// Units holds every unit of the data pack, sorted by id.
	Units []Unit `json:"units"`
	// Tracks are the tracking contacts carried into the next turn (6.42).
	Tracks []Track `json:"tracks,omitempty"`
	// Log is every report ever made, in order; each entry says who sees it.
	Log engine.Journal[Entry] `json:"log,omitempty"`
	// Engagements are the battles the encounter table gave this game.
	Engagements []Engagement `json:"engagements,omitempty"`
	// Occupied are the Norwegian ports Germany holds (8.8, 9.4).
	Occupied []Occupation `json:"occupied,omitempty"`
	// Scramble is the Air Emergency Scramble: "", "active" or "over" (6.29);
	// ScrambleTurns counts the day turns it was in effect (6.292: 2 VP each
	// to the Allies).
	Scramble      string `json:"scramble,omitempty"`
	ScrambleTurns int    `json:"scramble_turns,omitempty"`
	// Wilfred is the Wilfred Force (option wilfred, 11.0).
	Wilfred Wilfred `json:"wilfred"`
	// WehrmachtPlaced is set once the Wehrmacht marker is down (17.15).
	WehrmachtPlaced bool `json:"wehrmacht_placed,omitempty"`
	// DanishRoll is the Danish resistance roll (17.3), DanesFrom the turn
	// the Allies command the Danish ships (17.31).
	DanishRoll int `json:"danish_roll,omitempty"`
	DanesFrom  int `json:"danes_from,omitempty"`
	// Commanders are the commander markers (option commanders, 10.0).
	Commanders []Commander `json:"commanders,omitempty"`
	// ConvoyEscort is the destroyer task force escorting HN25 (14.1).
	ConvoyEscort string `json:"convoy_escort,omitempty"`
	// Late are the units that missed Scapa Flow by the evening of 9 April (16.41).
	Late []string `json:"late,omitempty"`
	// Result is the outcome once Over.
	Result *engine.Result `json:"result,omitempty"`
	// Pending is set while the turn waits for a decision taken in person
	// (6.41, 8.24): the fields above are then the turn's start.
	Pending *Pending `json:"pending,omitempty"`

	// disguise is set while a turn resolves if the Germans report their
	// CA as BB and BB as CA this turn (6.46).
	disguise bool
	// noSpread is set while fortress fire hits ships withdrawing from a
	// port: the fatal flooding table's extra flooding is not applied
	// (9.21 example).
	noSpread bool
	// run is set while a turn resolves: the decisions taken in person.
	run *turnRun
}

// Objective is the German objective drawn at set-up (4.1).
type Objective struct {
	Roll   int          `json:"roll"`
	Result TargetResult `json:"result"`
	// Cruisers are the cruisers drawn for "CA/CL xN" (4.43).
	Cruisers []string `json:"cruisers,omitempty"`
}

// Unit is the changing part of one counter; UnitDef holds the printed part.
type Unit struct {
	ID    string     `json:"id"`
	Where string     `json:"where"`
	Hex   engine.Hex `json:"hex"`
	// Arrive is the turn a waiting reinforcement comes on (5.1).
	Arrive int `json:"arrive,omitempty"`
	// ArrivePort is where it comes on.
	ArrivePort string `json:"arrive_port,omitempty"`
	// Arrow and Spent record movement spent off the map towards an entry
	// arrow (6.16).
	Arrow engine.Hex `json:"arrow"`
	Spent int        `json:"spent,omitempty"`
	// Damage (8.6).
	Hits     int `json:"hits,omitempty"`
	Flooding int `json:"flooding,omitempty"`
	// Detached counts the hits of a destroyer task force that are the
	// independent destroyers it gave up (12.0), not destroyers lost
	// (16.3); recorded from rules revision 2.
	Detached int `json:"detached,omitempty"`
	TorpUsed int `json:"torp_used,omitempty"`
	// TorpTurn counts the torpedo points fired this turn (3.411, 8.281).
	TorpTurn int `json:"torp_turn,omitempty"`
	// Aircraft: current base (airfield name, carrier unit id or "German
	// area") and whether the counter is face down (6.27, 8.51).
	Base string `json:"base,omitempty"`
	Used bool   `json:"used,omitempty"`
	// Struck is the last turn the aircraft flew a strike or cover; it
	// cannot fly on the turn after (8.51).
	Struck int `json:"struck,omitempty"`
	// Disabled is the turn a ship took engine damage (8.661): no gunnery or
	// torpedoes any more, and from the next turn it limps home at half
	// speed; Home is set once it got there (it may not leave again).
	Disabled int  `json:"disabled,omitempty"`
	Home     bool `json:"home,omitempty"`
	// HalfTurn is the turn a ship's hits reached half its capacity: from
	// the next turn it fires no torpedoes (8.62).
	HalfTurn int `json:"half_turn,omitempty"`
	// Gunnery special damage (8.662): Silenced rounds without fire,
	// GunHalved for the rest of the game, ForcedHome back to port.
	Silenced   int  `json:"silenced,omitempty"`
	GunHalved  bool `json:"gun_halved,omitempty"`
	ForcedHome bool `json:"forced_home,omitempty"`
	// Returned is set once an "R" ship reached Scapa Flow (14.0).
	Returned bool `json:"returned,omitempty"`
	// North counts the hexes moved north of row S since the last supply;
	// Supplying the turns of supply so far (13.1, 13.3).
	North     int `json:"north,omitempty"`
	Supplying int `json:"supplying,omitempty"`
	// Resolute marks a Norwegian ship that survived battle on the invasion
	// turn: no more morale tests or forced withdrawals (9.32).
	Resolute bool `json:"resolute,omitempty"`
	// Committed is set once a German reserve ship entered play (16.3).
	Committed bool `json:"committed,omitempty"`
}

// Track is a tracking contact (6.42): Tracker's units keep contact with
// Tracked's units in Hex.
type Track struct {
	Tracker       engine.Side `json:"tracker"`
	TrackerUnits  []string    `json:"tracker_units"`
	Tracked       engine.Side `json:"tracked"`
	TrackedUnits  []string    `json:"tracked_units"`
	Hex           engine.Hex  `json:"hex"`
	Since         int         `json:"since"`
	TrackedTypes  []string    `json:"tracked_types,omitempty"`
	TrackedSpeed  int         `json:"tracked_speed"`
	TrackerSpeed  int         `json:"tracker_speed"`
	TrackedReport string      `json:"tracked_report,omitempty"`
}

// Engagement is a battle position placed by the encounter table (6.41).
type Engagement struct {
	Turn    int        `json:"turn"`
	Hex     engine.Hex `json:"hex"`
	Kind    string     `json:"kind"` // ResEngage or ResPursuit
	Allied  []string   `json:"allied"`
	German  []string   `json:"german"`
	Outcome string     `json:"outcome,omitempty"`
	// Norwegian marks a battle with Norwegian ships defending their port
	// (9.3): one round, then they withdraw (9.31).
	Norwegian bool `json:"norwegian,omitempty"`
	// Danish marks Schlesien's one round against the Danes (17.31).
	Danish bool `json:"danish,omitempty"`
	// TrackAfter is set when the battle ends with an evasion
	// determination: after a battle the side that may track chose fight
	// in (8.24), after every pursuit battle (8.3; revision 1: only when
	// the side that may track chose track).
	TrackAfter bool `json:"track_after,omitempty"`
}

// Occupation is a Norwegian port or airfield held by Germany (8.8, 9.4,
// 9.5): taken on Turn, usable by German aircraft from Usable (9.62).
type Occupation struct {
	Kind   string `json:"kind"` // "port" or "airfield"
	Place  string `json:"place"`
	Hex    string `json:"hex"`
	Turn   int    `json:"turn"`
	Usable int    `json:"usable,omitempty"`
}

// Entry is one line of a report. To says which side sees it: "allied",
// "german" or "both".
type Entry struct {
	Turn int    `json:"turn"`
	To   string `json:"to"`
	// Kind: "search", "searched", "passive", "encounter", "evasion",
	// "tracking", "weather", "arrival", "move", "combat", "setup", "end".
	Kind  string `json:"kind"`
	Hex   string `json:"hex,omitempty"`
	Count int    `json:"count,omitempty"`
	// Types lists the ship types seen, sorted, e.g. ["BB","DD","DD"].
	Types []string `json:"types,omitempty"`
	Rule  string   `json:"rule,omitempty"`
	Text  string   `json:"text"`
}

// SeenBy implements engine.Seer: side sees the entries to it and to both.
func (e Entry) SeenBy(side engine.Side) bool { return e.To == "both" || e.To == string(side) }

func (s *State) clone() *State {
	return engine.DeepCopy(s)
}

func (s *State) unit(id string) *Unit {
	i := sort.Search(len(s.Units), func(i int) bool { return s.Units[i].ID >= id })
	if i < len(s.Units) && s.Units[i].ID == id {
		return &s.Units[i]
	}
	return nil
}

func (s *State) has(opt string) bool {
	return slices.Contains(s.Options, opt)
}

func (s *State) logf(to, kind string, hex string, rule, format string, args ...any) *Entry {
	return s.Log.Add(Entry{Turn: s.Turn, To: to, Kind: kind, Hex: hex, Rule: rule, Text: fmt.Sprintf(format, args...)})
}

// ownMovef logs where a ship of side went on a move it made by itself
// (a fall back, a withdrawal, leaving a port). The enemy does not see it
// (6.11: ships move in secret; 9.31: the Germans may not track Norwegian
// ships withdrawing): from rules revision 2 only side is told; revision 1
// told both sides.
func (s *State) ownMovef(side engine.Side, hex, rule, format string, args ...any) *Entry {
	to := "both"
	if s.rev().Has(WithdrawalToldOwner) {
		to = string(side)
	}
	return s.logf(to, "move", hex, rule, format, args...)
}

// intervention is the first turn Allied ships may enter Norwegian coastal
// hexes and Norwegian units may move (6.15, 9.1): two turns after the
// invasion. 0 while Norway is neutral.
func (s *State) intervention() int {
	if s.InvasionTurn == 0 {
		return 0
	}
	return s.InvasionTurn + 2
}

// onMap returns the ids of side's units on the map in hex h, sorted.
func (s *State) onMap(side engine.Side, h engine.Hex, keep func(*UnitDef) bool) []string {
	var out []string
	for _, u := range s.Units {
		d := def(u.ID)
		if d.Side == side && u.Where == AtMap && u.Hex == h && (keep == nil || keep(d)) {
			out = append(out, u.ID)
		}
	}
	return out
}

func typesOf(ids []string) []string {
	var out []string
	for _, id := range ids {
		out = append(out, def(id).Type)
	}
	sort.Strings(out)
	return out
}

func other(side engine.Side) engine.Side {
	if side == Allied {
		return German
	}
	return Allied
}

// forcedHome reports whether a ship must return to Scapa Flow this turn (14.0).
func (s *State) forcedHome(id string) bool {
	u := s.unit(id)
	return s.Turn >= WithdrawalTurn && contains(WithdrawalR, id) && u.Where == AtMap && !u.Returned
}

// convoyCheck destroys the HN25 convoy when its escort is annihilated (14.1).
func (s *State) convoyCheck() {
	c := s.unit("hn25")
	if c == nil || c.Where != AtMap || s.ConvoyEscort == "" {
		return
	}
	if e := s.unit(s.ConvoyEscort); e.Where == AtSunk {
		c.Where = AtSunk
		s.logf("both", "combat", c.Hex.String(), "14.1", "The HN25 convoy's escort is annihilated: the convoy is destroyed.")
	}
}

// reported is how a group's types are told to the enemy: as they are, or,
// for German ships on a turn the Germans chose to (6.46), with CA and BB
// swapped.
func (s *State) reported(ids []string) []string {
	out := typesOf(ids)
	if !s.disguise || len(ids) == 0 || def(ids[0]).Side != German {
		return out
	}
	for i, t := range out {
		switch t {
		case "CA":
			out[i] = "BB"
		case "BB":
			out[i] = "CA"
		}
	}
	sort.Strings(out)
	return out
}
