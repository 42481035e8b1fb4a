package sweden43

import (
	"skagerrak/engine"
	"slices"
)

// Sides of the game (Rule 3B).
const (
	German engine.Side = "german"
	Allied engine.Side = "allied"
)

// Unit status values.
const (
	OnMap       = "map"
	Amph        = "amph"        // amphibious force waiting to land (26A)
	ParaPool    = "para"        // airborne unit not yet dropped (25C)
	Pending     = "pending"     // reinforcement not yet arrived (29A)
	Mobilize    = "mobilize"    // division that may be mobilized (29E)
	Assemble    = "assemble"    // division that may be assembled (29F)
	HQAssemble  = "hq-assemble" // division the 2nd Division HQ may form (15C3)
	Eliminated  = "eliminated"
	Absorbed    = "absorbed"    // regiment absorbed into a division
	Neutralized = "neutralized" // Rule 3F
)

// Unit is a ground unit in play or waiting.
type Unit struct {
	ID      string      `json:"id"`
	Side    engine.Side `json:"side"`
	Nation  string      `json:"nation"`
	Type    string      `json:"type"`
	Size    string      `json:"size"`
	Att     int         `json:"att"`
	Def     int         `json:"def"`
	Move    int         `json:"move"`
	RE2     int         `json:"re2"`
	Cadre   int         `json:"cadre,omitempty"`
	Reduced bool        `json:"reduced,omitempty"`
	AEC     bool        `json:"aec,omitempty"`
	ATEC    bool        `json:"atec,omitempty"`
	Status  string      `json:"status"`
	Hex     string      `json:"hex,omitempty"`
	Turn    int         `json:"turn,omitempty"`
	Arrive  string      `json:"arrive,omitempty"`
	// OOS is set when the unit was out of supply at the start of its
	// side's last movement phase (12).
	OOS bool `json:"oos,omitempty"`
	// Dropped is set once an airborne unit has dropped (25C).
	Dropped bool `json:"dropped,omitempty"`
	// Restricted names the restricted supply source the unit draws on (12C2).
	Restricted string `json:"restricted,omitempty"`
	// MPUsed is what the unit spent in its side's last movement phase
	// (revision 2: exploitation eligibility).
	MPUsed int `json:"mp_used,omitempty"`
}

// stillToCome reports whether a unit is not yet in play but will or may
// be: a reinforcement, a division to mobilize or assemble, the amphibious
// or airborne force.
func stillToCome(u Unit) bool {
	return u.Status != OnMap && u.Status != Eliminated && u.Status != Absorbed && u.Status != Neutralized
}

// Strength returns the unit's attack and defense strength now.
func (u Unit) Strength() (att, def int) {
	if u.Reduced {
		return u.Cadre, u.Cadre
	}
	return u.Att, u.Def
}

// Mot reports whether the unit moves as motorized/artillery (c/m or art).
func (u Unit) Mot() bool { return u.Type == "arm" || u.Type == "ag" || u.Type == "art" }

// CM reports whether the unit is a c/m unit (22A1 intrinsic AA).
func (u Unit) CM() bool { return u.Type == "arm" || u.Type == "ag" }

// RE2s returns the unit's size in half regiment equivalents.
func (u Unit) RE2s() int {
	if u.Reduced {
		return 2
	}
	return u.RE2
}

// AirUnit is an air unit.
type AirUnit struct {
	ID     string      `json:"id"`
	Side   engine.Side `json:"side"`
	Nation string      `json:"nation"`
	Type   string      `json:"type"`
	Att    int         `json:"att"`
	Def    int         `json:"def"`
	Bomb   int         `json:"bomb"`
	Range  int         `json:"range"`
	Base   string      `json:"base"`
	Status string      `json:"status"`
	// Flown is the game turn the unit last flew (a mission or a patrol).
	Flown int `json:"flown,omitempty"`
}

// Event is one line of the game's record. All events are public: Europa
// is played on an open map.
type Event struct {
	Turn int    `json:"turn"`
	Text string `json:"text"`
	// Only, when set, is the one side that may see the event.
	Only engine.Side `json:"only,omitempty"`
}

// SeenBy implements engine.Seer.
func (e Event) SeenBy(side engine.Side) bool { return engine.SeenByOne(e.Only, side) }

// journal is the game's fog-of-war record of Events.
type journal = engine.Journal[Event]

// Board is everything on and beside the map. A View carries a Board too,
// with what the side may not know taken out.
type Board struct {
	Units []Unit    `json:"units"`
	Air   []AirUnit `json:"air"`
	// Owner holds the hexes whose owner differs from the start of the game
	// (30: German Norway and Denmark, Allied Sweden): hex name -> side.
	Owner map[string]engine.Side `json:"owner"`
	// ReplHalfREs is the German infantry replacement pool, in half REs (29B).
	ReplHalfREs int `json:"repl_half_res"`
	// RailUsed is the half-REs moved by rail this player turn (7A).
	RailUsed int `json:"rail_used,omitempty"`
	// NavyOut is set when Swedish naval elements broke out (26A).
	NavyOut bool `json:"navy_out,omitempty"`
	// NoMoreSurrender is set once Sweden held after Stockholm fell (28B1).
	NoMoreSurrender bool `json:"no_more_surrender,omitempty"`
	// Surrendered is set when Sweden surrendered (28B1).
	Surrendered bool `json:"surrendered,omitempty"`
}

// State is the whole game.
type State struct {
	// Revision is the rules revision (Revisions), omitted for revision 1.
	Revision int      `json:"revision,omitempty"`
	Scenario string   `json:"scenario"`
	Options  []string `json:"options"`
	// Turn is the game turn, 1 (Jul I 43) to 6 (Sep II 43); 0 while the
	// players deploy.
	Turn int `json:"turn"`
	// Player is 0 for the first player turn of the game turn, 1 for the second.
	Player int `json:"player"`
	// Step is "move", "combat" or "exploit" (the movement, combat and
	// exploitation phases of a player turn), or "setup" (turn 0: the
	// deployment of Rule 30).
	Step  string  `json:"step"`
	Over  bool    `json:"over,omitempty"`
	Board Board   `json:"board"`
	Log   journal `json:"log"`
}

// Clone returns a deep copy of the state.
func (s *State) Clone() *State {
	c := *s
	c.Options = append([]string(nil), s.Options...)
	c.Board = s.Board.Clone()
	c.Log = append([]Event(nil), s.Log...)
	return &c
}

// Clone returns a deep copy of the board.
func (b Board) Clone() Board {
	c := b
	c.Units = append([]Unit(nil), b.Units...)
	c.Air = append([]AirUnit(nil), b.Air...)
	c.Owner = make(map[string]engine.Side, len(b.Owner))
	for k, v := range b.Owner {
		c.Owner[k] = v
	}
	return c
}

// has reports whether an option is on.
func (s *State) has(id string) bool {
	return slices.Contains(s.Options, id)
}

// phasing returns the side whose player turn it is.
func (s *State) phasing() engine.Side {
	if s.Step == "setup" {
		// 30: the Allied player deploys first, the German second.
		if s.Player == 0 {
			return Allied
		}
		return German
	}
	sd, _ := data.scenarioDef(s.Scenario)
	first := sd.First
	if s.Player == 0 {
		return first
	}
	return other(first)
}

func other(s engine.Side) engine.Side {
	if s == German {
		return Allied
	}
	return German
}

// turnNames are the game turns of Rule 31A.
var turnNames = []string{"set-up", "Jul I 43", "Jul II 43", "Aug I 43", "Aug II 43", "Sep I 43", "Sep II 43"}

// TurnName names game turn t.
func TurnName(t int) string {
	if t >= 0 && t < len(turnNames) {
		return turnNames[t]
	}
	return "after Sep II 43"
}
