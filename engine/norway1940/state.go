package norway1940

import (
	"fmt"
	"slices"
	"sort"

	"skagerrak/engine"
)

// The two sides (5.1).
const (
	German engine.Side = "german"
	Allied engine.Side = "allied"
)

// State is the whole game state. It marshals deterministically: slices kept
// sorted, no maps.
type State struct {
	Game     string   `json:"game"`
	Scenario string   `json:"scenario"`
	Options  []string `json:"options"`
	// Revision is the rules revision the game is played under, recorded
	// from revision 2 on (0 reads as 1: see engine/revision.go).
	Revision int             `json:"revision,omitempty"`
	Turn     int             `json:"turn"`
	Phasing  engine.Side     `json:"phasing"`
	Over     bool            `json:"over,omitempty"`
	Weather  Weather         `json:"weather"`
	Units    []*Unit         `json:"units"`
	Fleets   []*Fleet        `json:"fleets"`
	Pools    []*Pool         `json:"pools"`
	Sides    []*SideState    `json:"sides"`
	Control  []Control       `json:"control"`
	Fields   []*Airfield     `json:"airfields"`
	Bats     []*Battery      `json:"batteries"`
	Marks    []*Interdiction `json:"interdiction,omitempty"`
	Works    []*Work         `json:"works,omitempty"`
	Strong   []*Strongpoint  `json:"strongpoints"`
	Depots   []*Depot        `json:"depots,omitempty"`
	SubsOut  []*SubMarker    `json:"subs_deployed,omitempty"`
	// Invaded is set once the German has landed in Norway (18).
	Invaded bool `json:"invaded,omitempty"`
	// AlliedLanded is set once a Franco-British unit has landed (17.1, 18).
	AlliedLanded bool `json:"allied_landed,omitempty"`
	// GermanHold / AlliedHold: the turn since which the side has held all
	// the German target locations at every end of turn; 0 when not (12.3).
	GermanHold int `json:"german_hold,omitempty"`
	AlliedHold int `json:"allied_hold,omitempty"`
	// RailNet is the German railhead control (10.3.7.3): areas German rail
	// movement may use in the next German player-turn.
	RailNet []string       `json:"rail_net,omitempty"`
	NextID  int            `json:"next_id"`
	Events  journal        `json:"events"`
	Result  *engine.Result `json:"result,omitempty"`
	// Pending is set while a player-turn waits for a decision the other
	// side asked to take in person (the short phase, ask.go).
	Pending *Pending `json:"pending,omitempty"`

	// dec hands out the decisions taken in person while a player-turn is
	// resolved; nil otherwise (and in dry runs).
	dec *decider
}

// Weather is the turn's weather by zone (6.2).
type Weather struct {
	Roll   int    `json:"roll,omitempty"`
	South  string `json:"south"`
	Centre string `json:"centre"`
	North  string `json:"north"`
}

// Unit is a land unit or a land supply unit (Type "supply", Steps in
// halves, 7.3).
type Unit struct {
	ID       string      `json:"id"`
	Side     engine.Side `json:"side"`
	Nation   string      `json:"nation"`
	Type     string      `json:"type"`
	Size     string      `json:"size"`
	Mod      int         `json:"mod"`
	Red      int         `json:"red"`
	Move     int         `json:"move"`
	Steps    int         `json:"steps"`
	MaxSteps int         `json:"max_steps"`
	Div      string      `json:"div,omitempty"`
	// Loc is an area, Germany, UK, Para, or "" while embarked (Fleet set).
	Loc   string `json:"loc"`
	Fleet string `json:"fleet,omitempty"`
	Entry int    `json:"entry"`
	Goal  string `json:"goal,omitempty"`
	// Blast markers (8.9.4.3) and the turn the last one was placed.
	Blast     int  `json:"blast,omitempty"`
	BlastTurn int  `json:"blast_turn,omitempty"`
	OOS       bool `json:"oos,omitempty"`
	// Landed is the turn the unit landed by sea or air (7.4.3, 10.3.4).
	Landed  int  `json:"landed,omitempty"`
	Half    bool `json:"half,omitempty"` // may move only half (9.10.1, 8.9.2)
	Strait  bool `json:"strait,omitempty"`
	Dead    bool `json:"dead,omitempty"`
	Returns int  `json:"returns,omitempty"` // HQ return turn (10.2.9)
	Busy    int  `json:"busy,omitempty"`    // turn of the last activity (13.3.1)
	High    bool `json:"high,omitempty"`    // holding higher ground (16.2)
}

// Fleet is a fleet marker at sea or in a port box (9.3, 9.5).
type Fleet struct {
	ID        string      `json:"id"`
	Side      engine.Side `json:"side"`
	Nation    string      `json:"nation"`
	Where     string      `json:"where"`
	Detected  bool        `json:"detected,omitempty"`
	Combat    int         `json:"combat"`
	Transport int         `json:"transport"`
	Decoys    int         `json:"decoys,omitempty"`
	Cargo     []string    `json:"cargo,omitempty"`
	// Carriers are aircraft carriers (9.12): 2 air points each a turn,
	// less their damage; CarrierUsed counts this turn's launches.
	Carriers      int    `json:"carriers,omitempty"`
	CarrierDamage int    `json:"carrier_damage,omitempty"`
	CarrierUsed   int    `json:"carrier_used,omitempty"`
	Goal          string `json:"goal,omitempty"`
	// Failed marks a fleet held in a port box after a failed landing
	// (9.16.1.2); Stuck one paralysed by coastal batteries (15.2.2).
	Failed bool `json:"failed,omitempty"`
	Stuck  int  `json:"stuck,omitempty"`
}

// Pool is naval points in a port (9.6, 9.13.2).
type Pool struct {
	Side      engine.Side `json:"side"`
	Nation    string      `json:"nation"`
	Port      string      `json:"port"`
	Combat    int         `json:"combat"`
	Transport int         `json:"transport"`
	Carriers  int         `json:"carriers,omitempty"`
	Groups    []int       `json:"groups,omitempty"`
}

// SideState is what belongs to one side: decoys, submarines, air, and the
// standing orders for the opponent's player-turn.
type SideState struct {
	Side     engine.Side `json:"side"`
	Decoys   []Count     `json:"decoys"`
	Returned []Count     `json:"returned"`
	Subs     int         `json:"subs"`
	Air      []AirPoints `json:"air"`
	Standing Standing    `json:"standing"`
	Rail     int         `json:"rail_used,omitempty"`
	// Based is air points a carrier has ferried to Norwegian airfields
	// (8.12), by airfield area.
	Based []Count `json:"based,omitempty"`
}

// Count is a number per nation.
type Count struct {
	Nation string `json:"nation"`
	N      int    `json:"n"`
}

// AirPoints tracks one air marker type this turn (8.2.2).
type AirPoints struct {
	Nation   string `json:"nation"`
	Type     string `json:"type"`
	Markers  int    `json:"markers"`
	Strength int    `json:"strength"`
	Used     int    `json:"used"`
}

// Standing orders apply in the opponent's next player-turn (DESIGN.md).
type Standing struct {
	// Keep is fighter markers kept for the opponent's turn (8.9.3.1).
	Keep int `json:"keep,omitempty"`
	// Evade: "weaker" (default), "always" or "never" (9.14.5).
	Evade string `json:"evade,omitempty"`
	// React: attack detected enemy fleets entering a box of an undetected
	// friendly fleet (9.14.4).
	React bool `json:"react,omitempty"`
	// Continue: fight on when winning a round as the defender (9.14.5).
	Continue bool `json:"continue,omitempty"`
	// Ask lists the decisions the side takes in person, in a short phase
	// of the opponent's player-turn, instead of by the orders above:
	// evasion, continue, react, interception (sorted).
	Ask []string `json:"ask,omitempty"`
	// Losses is the order in which the side's units take combat losses
	// (10.5.6, revision 2): the first of them still in a combat takes
	// each loss; the others after them.
	Losses []string `json:"losses,omitempty"`
}

// Control is who controls a land area (12.2.2).
type Control struct {
	Area string      `json:"area"`
	Side engine.Side `json:"side"`
}

// Airfield is the hit state of the airfields of an area (8.10.3).
type Airfield struct {
	Area    string `json:"area"`
	Hits    int    `json:"hits"`
	HitTurn int    `json:"hit_turn,omitempty"`
	Used    int    `json:"used,omitempty"`
}

// Battery is one coastal battery (15).
type Battery struct {
	Area   string      `json:"area"`
	N      int         `json:"n"`
	Owner  engine.Side `json:"owner"`
	Status string      `json:"status"` // active, inoperative, destroyed
}

// Strongpoint is a strongpoint's owner and repair state (13.2).
type Strongpoint struct {
	Area   string      `json:"area"`
	Owner  engine.Side `json:"owner"`
	Usable bool        `json:"usable"`
}

// SubMarker is a group of submarine markers deployed in a naval box
// (9.11); it stays there, open to bombing, until its owner's next naval
// phase.
type SubMarker struct {
	Side engine.Side `json:"side"`
	Box  string      `json:"box"`
	N    int         `json:"n"`
}

// Depot is a 16.4 depot marker: real or a decoy, which no side knows
// until the German flips it by taking its area.
type Depot struct {
	Area    string `json:"area"`
	Real    bool   `json:"real"`
	Flipped bool   `json:"flipped,omitempty"`
	Unit    string `json:"unit,omitempty"` // the German unit holding the +1
	Used    bool   `json:"used,omitempty"`
}

// Interdiction is the interdiction markers in an area (10.3.6).
type Interdiction struct {
	Area  string `json:"area"`
	Count int    `json:"count"`
}

// Work is a fieldwork, city fortification or repair (13, 14.4, 15.3.2).
type Work struct {
	Area  string      `json:"area"`
	Kind  string      `json:"kind"` // fieldwork, fortify, repair-strongpoint, repair-battery
	Side  engine.Side `json:"side"`
	Unit  string      `json:"unit"`
	Start int         `json:"start"`
	Done  bool        `json:"done,omitempty"`
}

// Event is one thing that happened in the last resolved phase, for the
// sides in To (every side when To is empty).
type Event struct {
	Turn int           `json:"turn"`
	To   []engine.Side `json:"to,omitempty"`
	Rule string        `json:"rule,omitempty"`
	Text string        `json:"text"`
}

// SeenBy implements engine.Seer.
func (e Event) SeenBy(side engine.Side) bool { return len(e.To) == 0 || slices.Contains(e.To, side) }

// journal is the game's fog-of-war record of Events.
type journal = engine.Journal[Event]

func (s *State) has(opt string) bool {
	return slices.Contains(s.Options, opt)
}

func (s *State) side(x engine.Side) *SideState {
	for _, ss := range s.Sides {
		if ss.Side == x {
			return ss
		}
	}
	panic("norway1940: no side " + string(x))
}

func other(x engine.Side) engine.Side {
	if x == German {
		return Allied
	}
	return German
}

func (s *State) unit(id string) *Unit {
	for _, u := range s.Units {
		if u.ID == id {
			return u
		}
	}
	return nil
}

func (s *State) fleet(id string) *Fleet {
	for _, f := range s.Fleets {
		if f.ID == id {
			return f
		}
	}
	return nil
}

func (s *State) controller(area string) engine.Side {
	i := sort.Search(len(s.Control), func(i int) bool { return s.Control[i].Area >= area })
	if i < len(s.Control) && s.Control[i].Area == area {
		return s.Control[i].Side
	}
	return ""
}

func (s *State) setControl(area string, x engine.Side) {
	if area == "Sweden" {
		return
	}
	i := sort.Search(len(s.Control), func(i int) bool { return s.Control[i].Area >= area })
	if i < len(s.Control) && s.Control[i].Area == area {
		s.Control[i].Side = x
		return
	}
	s.Control = append(s.Control, Control{})
	copy(s.Control[i+1:], s.Control[i:])
	s.Control[i] = Control{Area: area, Side: x}
}

func (s *State) pool(x engine.Side, nation, port string) *Pool {
	for _, p := range s.Pools {
		if p.Side == x && p.Nation == nation && p.Port == port {
			return p
		}
	}
	p := &Pool{Side: x, Nation: nation, Port: port}
	s.Pools = append(s.Pools, p)
	sort.Slice(s.Pools, func(i, j int) bool {
		a, b := s.Pools[i], s.Pools[j]
		if a.Side != b.Side {
			return a.Side < b.Side
		}
		if a.Nation != b.Nation {
			return a.Nation < b.Nation
		}
		return a.Port < b.Port
	})
	return p
}

func (s *State) airfield(area string) *Airfield {
	for _, a := range s.Fields {
		if a.Area == area {
			return a
		}
	}
	return nil
}

func (s *State) strongpoint(area string) *Strongpoint {
	for _, p := range s.Strong {
		if p.Area == area {
			return p
		}
	}
	return nil
}

func (s *State) marks(area string) int {
	for _, m := range s.Marks {
		if m.Area == area {
			return m.Count
		}
	}
	return 0
}

func (s *State) addMark(area string) {
	for _, m := range s.Marks {
		if m.Area == area {
			m.Count++
			return
		}
	}
	s.Marks = append(s.Marks, &Interdiction{Area: area, Count: 1})
	sort.Slice(s.Marks, func(i, j int) bool { return s.Marks[i].Area < s.Marks[j].Area })
}

func (s *State) work(area string, kind string, x engine.Side) *Work {
	for _, w := range s.Works {
		if w.Area == area && w.Kind == kind && w.Side == x {
			return w
		}
	}
	return nil
}

// unitsIn returns the live, landed units of side x in an area, by ID.
func (s *State) unitsIn(area string, x engine.Side) []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if !u.Dead && u.Loc == area && u.Side == x && u.Fleet == "" {
			out = append(out, u)
		}
	}
	return out
}

// combatIn is unitsIn without supply units.
func (s *State) combatIn(area string, x engine.Side) []*Unit {
	var out []*Unit
	for _, u := range s.unitsIn(area, x) {
		if u.Type != "supply" {
			out = append(out, u)
		}
	}
	return out
}

func (s *State) log(rule, format string, args ...any) {
	s.Events.Add(Event{Turn: s.Turn, Rule: rule, Text: fmt.Sprintf(format, args...)})
}

func (s *State) logTo(x engine.Side, rule, format string, args ...any) {
	s.Events.Add(Event{Turn: s.Turn, To: []engine.Side{x}, Rule: rule, Text: fmt.Sprintf(format, args...)})
}

func (s *State) clone() *State {
	return engine.DeepCopy(s)
}

func (s *State) newID(prefix string) string {
	s.NextID++
	return fmt.Sprintf("%s%d", prefix, s.NextID)
}

// zoneWeather is the weather of a land area's zone (6.1).
func (s *State) zoneWeather(zone string) string {
	switch zone {
	case "S":
		return s.Weather.South
	case "C":
		return s.Weather.Centre
	case "N":
		return s.Weather.North
	}
	return "clear"
}

// areaWeather is the weather in a land area.
func (s *State) areaWeather(area string) string {
	if a, ok := data.AreaByName(area); ok {
		return s.zoneWeather(a.Zone)
	}
	return "clear"
}

// seaWeather is the weather of a sea area: the weather zone of the same
// latitude (reconstructed: the sea areas lie off the three zones).
func (s *State) seaWeather(sea string) string {
	switch sea {
	case "South":
		return s.Weather.South
	case "Centre":
		return s.Weather.Centre
	case "North":
		return s.Weather.North
	}
	return "clear"
}

func (s *State) whereWeather(where string) string {
	if sea := seaOf(where); sea != "" && isBox(where) {
		return s.seaWeather(sea)
	}
	return s.areaWeather(where)
}
