package norge

import (
	"fmt"
	"slices"

	"skagerrak/engine"
)

// The two sides (rule 1).
const (
	German engine.Side = "german"
	Allied engine.Side = "allied"
)

// Steps of a turn: the five phases of rule 7, with phases 2, 3 and 4 split
// into the German and the Allied half as the rulebook orders them.
const (
	StepAirGerman = iota
	StepAirAllied
	StepNavalGerman
	StepNavalAllied
	StepLandGerman
	StepLandAllied
	StepSubs
)

// turnStages is the turn's sequence, indexed by the Step constants: each
// stage's name (in phase IDs and the order table's kinds), title and the
// side that owes orders.
var turnStages = engine.Sequence{
	{Name: "air-german", Title: "phases 1 and 2: weather, German placement of air units", Owes: []engine.Side{German}},
	{Name: "air-allied", Title: "phase 2: Allied placement of air units", Owes: []engine.Side{Allied}},
	{Name: "naval-german", Title: "phase 3: German naval movement and combat, convoys", Owes: []engine.Side{German}},
	{Name: "naval-allied", Title: "phase 3: Allied naval movement and combat, convoys", Owes: []engine.Side{Allied}},
	{Name: "land-german", Title: "phase 4: German landings, air transport, ground movement and combat", Owes: []engine.Side{German}},
	{Name: "land-allied", Title: "phase 4: Allied landings, ground movement and combat", Owes: []engine.Side{Allied}},
	{Name: "subs", Title: "phase 5: secret submarine movement and placement", Owes: []engine.Side{Allied, German}},
}

// Turns is the length of the game (2.1).
const Turns = 10

// Locations of land units that are not on a land hex.
const (
	LocReserve = "reserve" // off-map, for convoys (6.5)
	LocAirlift = "airlift" // the regiments for air transport (6.4)
	LocDrop    = "drop"    // the units for air drops (6.4)
	LocElim    = "eliminated"
	shipPrefix = "ship:"
)

// Unit is one land unit.
type Unit struct {
	ID      string      `json:"id"`
	Side    engine.Side `json:"side"`
	Loc     string      `json:"loc"`
	Reduced bool        `json:"reduced,omitempty"`
	// Landed is the turn the unit came ashore or was flown in (12.7, 13.4).
	Landed int `json:"landed,omitempty"`
	// Dropped is the turn the unit was air dropped (13.7).
	Dropped int `json:"dropped,omitempty"`
	// RT is the retreat marker (16.4); RTStep is the phase it was placed.
	RT     bool `json:"rt,omitempty"`
	RTStep int  `json:"rt_step,omitempty"`
}

// Ship is one naval unit: battleship, carrier, convoy or submarine.
type Ship struct {
	ID   string      `json:"id"`
	Side engine.Side `json:"side"`
	Kind string      `json:"kind"`
	// Loc is the Strategic Map hex, "" off-board.
	Loc     string `json:"loc,omitempty"`
	Reduced bool   `json:"reduced,omitempty"`
	Damaged bool   `json:"damaged,omitempty"`
	Sunk    bool   `json:"sunk,omitempty"`
	// Scrapped marks a convoy merged into another (11.2).
	Scrapped bool `json:"scrapped,omitempty"`
	// Area is a submarine's numbered sea area, 0 while not placed.
	Area int `json:"area,omitempty"`
	// Exited is the last turn the unit left the board (10.2, 11.3).
	Exited int `json:"exited,omitempty"`
	// Restricted marks the German battleships of the set-up (10.7).
	Restricted bool `json:"restricted,omitempty"`
	// Loaded is the turn a convoy was last loaded (11.3).
	Loaded int      `json:"loaded,omitempty"`
	Cargo  []string `json:"cargo,omitempty"`
	// Tried marks a battleship that has made its landing attempt (12.2).
	Tried bool `json:"tried,omitempty"`
	// Ashore are the troops a battleship's failed landing left on the
	// quays hex, who may try again next turn or embark again (12.2; from
	// revision 2).
	Ashore []string `json:"ashore,omitempty"`
}

// AirMission is one air placement for the current turn (9.1-9.3).
type AirMission struct {
	Side     engine.Side `json:"side"`
	Base     string      `json:"base"`
	Map      string      `json:"map"`
	Strength int         `json:"strength"`
}

// Bridge is a blown bridge (15.1-15.3).
type Bridge struct {
	Side string `json:"side"` // hexside key "A:B3|A:B4"
	// Repair counts whole turns a side has stood next to it (15.3).
	RepairSide engine.Side `json:"repair_side,omitempty"`
	Repair     int         `json:"repair,omitempty"`
}

// Weather is the weather of one turn (8.1, 8.2).
type Weather struct {
	North string `json:"north"`
	South string `json:"south"`
}

// Event is one line of a report. To "" is seen by both sides.
type Event struct {
	Turn int         `json:"turn"`
	Step int         `json:"step"`
	To   engine.Side `json:"to,omitempty"`
	Text string      `json:"text"`
}

// SeenBy implements engine.Seer.
func (e Event) SeenBy(side engine.Side) bool { return engine.SeenByOne(e.To, side) }

// journal is the game's fog-of-war record of Events.
type journal = engine.Journal[Event]

// State is the whole game.
type State struct {
	// Revision is the rules revision the game is played under, recorded
	// from revision 2 on (0 is revision 1; see Revisions).
	Revision int  `json:"revision,omitempty"`
	Turn     int  `json:"turn"`
	Step     int  `json:"step"`
	Over     bool `json:"over,omitempty"`
	// Setup is true until the German player has chosen his battleships'
	// troops (6.2).
	Setup bool `json:"setup,omitempty"`
	// Weather[t-1] is turn t's weather; the next turn's is rolled in phase 1.
	Weather []Weather    `json:"weather"`
	Units   []Unit       `json:"units"`
	Ships   []Ship       `json:"ships"`
	Air     []AirMission `json:"air,omitempty"`
	// German lists the ports and airfields under German control (4.7).
	German []string `json:"german"`
	Blown  []Bridge `json:"blown,omitempty"`
	// Airlifts counts German air transports made (13.1); AirliftTurn the last.
	Airlifts    int `json:"airlifts,omitempty"`
	AirliftTurn int `json:"airlift_turn,omitempty"`
	// SabotageTurn is the last turn the Allies rolled to blow a bridge (15.2).
	SabotageTurn int `json:"sabotage_turn,omitempty"`
	// PortUse lists "turn:port" for ports where a convoy (dis)embarked (11.4).
	PortUse []string `json:"port_use,omitempty"`
	// Hold lists units whose owner reduces them instead of retreating (16.6).
	Hold []string `json:"hold,omitempty"`
	// GermanLosses and AlliedLosses are each side's standing choice of the
	// units it gives up first when the owner chooses (10.8, 12.6).
	GermanLosses []string `json:"german_losses,omitempty"`
	AlliedLosses []string `json:"allied_losses,omitempty"`
	// NoIntercept lists sides that decline defensive naval combat (10.9).
	NoIntercept []engine.Side `json:"no_intercept,omitempty"`
	Log         journal       `json:"log,omitempty"`
}

// clone is a deep copy of s.
func (s *State) clone() *State {
	c := *s
	c.Weather = append([]Weather(nil), s.Weather...)
	c.Units = append([]Unit(nil), s.Units...)
	c.Ships = make([]Ship, len(s.Ships))
	for i, sh := range s.Ships {
		sh.Cargo = append([]string(nil), sh.Cargo...)
		sh.Ashore = append([]string(nil), sh.Ashore...)
		c.Ships[i] = sh
	}
	c.Air = append([]AirMission(nil), s.Air...)
	c.German = append([]string(nil), s.German...)
	c.Blown = append([]Bridge(nil), s.Blown...)
	c.PortUse = append([]string(nil), s.PortUse...)
	c.Hold = append([]string(nil), s.Hold...)
	c.GermanLosses = append([]string(nil), s.GermanLosses...)
	c.AlliedLosses = append([]string(nil), s.AlliedLosses...)
	c.NoIntercept = append([]engine.Side(nil), s.NoIntercept...)
	c.Log = append([]Event(nil), s.Log...)
	return &c
}

// rev is the rules revision of the game (see Revisions).
func (s *State) rev() engine.Rev { return engine.RevOf(s.Revision) }

func enemy(side engine.Side) engine.Side {
	if side == German {
		return Allied
	}
	return German
}

func (s *State) logf(to engine.Side, format string, args ...any) {
	s.Log.Add(Event{Turn: s.Turn, Step: s.Step, To: to, Text: fmt.Sprintf(format, args...)})
}

func (s *State) unit(id string) *Unit {
	return engine.Find(s.Units, func(x *Unit) bool { return x.ID == id })
}

func (s *State) ship(id string) *Ship {
	return engine.Find(s.Ships, func(x *Ship) bool { return x.ID == id })
}

func unitInfo(id string) *UnitInfo {
	return engine.Find(data.Units, func(x *UnitInfo) bool { return x.ID == id })
}

func shipInfo(id string) *ShipInfo {
	return engine.Find(data.Ships, func(x *ShipInfo) bool { return x.ID == id })
}

// weatherOf is the turn's weather in a sector ("N" or "S").
func (s *State) weatherOf(sector string) string {
	if s.Turn < 1 || s.Turn > len(s.Weather) {
		return "fair"
	}
	w := s.Weather[s.Turn-1]
	if sector == "N" {
		return w.North
	}
	return w.South
}

// seaWeather is the worse of the two sectors (8.4).
func (s *State) seaWeather() string {
	rank := map[string]int{"fair": 0, "rain": 1, "storm": 2}
	n, so := s.weatherOf("N"), s.weatherOf("S")
	if rank[n] > rank[so] {
		return n
	}
	return so
}

func (s *State) isGerman(place string) bool {
	return slices.Contains(s.German, place)
}

// controller of a port or airfield by name.
func (s *State) controller(place string) engine.Side {
	if s.isGerman(place) {
		return German
	}
	return Allied
}

func (s *State) setControl(place string, side engine.Side) {
	has := s.isGerman(place)
	if side == German && !has {
		s.German = insertSorted(s.German, place)
		s.logf("", "%s passes under German control", place)
	}
	if side == Allied && has {
		var out []string
		for _, p := range s.German {
			if p != place {
				out = append(out, p)
			}
		}
		s.German = out
		s.logf("", "%s passes under Allied control", place)
	}
}

func insertSorted(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	out := append([]string(nil), xs...)
	out = append(out, x)
	for i := len(out) - 1; i > 0 && out[i] < out[i-1]; i-- {
		out[i], out[i-1] = out[i-1], out[i]
	}
	return out
}

func containsStr(xs []string, x string) bool {
	return slices.Contains(xs, x)
}

// unitsAt lists the live land units on a hex, in state order.
func (s *State) unitsAt(hex string) []*Unit {
	var out []*Unit
	for i := range s.Units {
		if s.Units[i].Loc == hex {
			out = append(out, &s.Units[i])
		}
	}
	return out
}

func (s *State) occupant(hex string) engine.Side {
	for i := range s.Units {
		if s.Units[i].Loc == hex {
			return s.Units[i].Side
		}
	}
	return ""
}

// cf is a unit's printed combat factor, front or back.
func (u *Unit) cf() int {
	in := unitInfo(u.ID)
	if u.Reduced {
		return in.Red
	}
	return in.CF
}

// thirds is a unit's size in battalions: a regiment is 3 (14.1), a
// brigade 6 (11.1).
func thirds(id string) int {
	switch unitInfo(id).Size {
	case "bn":
		return 1
	case "bde":
		return 6
	}
	return 3
}

func (s *State) stackThirds(hex string, side engine.Side) int {
	n := 0
	for _, u := range s.unitsAt(hex) {
		if u.Side == side {
			n += thirds(u.ID)
		}
	}
	return n
}

// shipCF is a naval unit's factor, front or back.
func (sh *Ship) cf() int {
	in := shipInfo(sh.ID)
	if sh.Reduced {
		return in.Red
	}
	return in.CF
}

func (sh *Ship) onMap() bool { return sh.Loc != "" && !sh.Sunk && !sh.Scrapped }

func (s *State) shipsAt(node string) []*Ship {
	var out []*Ship
	for i := range s.Ships {
		if s.Ships[i].Loc == node && s.Ships[i].onMap() {
			out = append(out, &s.Ships[i])
		}
	}
	return out
}

// losses is side's standing order of losses.
func (s *State) losses(side engine.Side) []string {
	if side == German {
		return s.GermanLosses
	}
	return s.AlliedLosses
}

func (s *State) setLosses(side engine.Side, ids []string) {
	if side == German {
		s.GermanLosses = ids
	} else {
		s.AlliedLosses = ids
	}
}

// rank is the place of id in side's losses order, or -1.
func (s *State) lossRank(side engine.Side, id string) int {
	for i, x := range s.losses(side) {
		if x == id {
			return i
		}
	}
	return -1
}
