package kriegsmarine

import (
	"fmt"

	"skagerrak/engine"
)

// Turns and time (2.0, 5.0): 18 turns of about five hours, five a day
// (night, morning, noon, afternoon, evening), the first the night of 8 April
// 1940. Source: reconstructed — the Turn Record Track (PAC #1) is not
// transcribed; this calendar puts the 9.62 example (Trondheim taken on the
// morning of 9 April, Vaernes usable the morning of 10 April) and 16.41 (the
// evening of 9 April) on whole turns.
const (
	LastTurn  = 18
	FirstDay  = 8
	TurnsADay = 5
)

var partNames = [TurnsADay]string{"night", "morning", "noon", "afternoon", "evening"}

// TimeOfDay names the part of the day of turn t.
func TimeOfDay(t int) string { return partNames[(t-1)%TurnsADay] }

// Day returns the April date of turn t.
func Day(t int) int { return FirstDay + (t-1)/TurnsADay }

// IsDay reports whether turn t is a day turn (5.0: morning, noon, afternoon).
func IsDay(t int) bool {
	p := TimeOfDay(t)
	return p == "morning" || p == "noon" || p == "afternoon"
}

// WeatherTurn reports whether the weather is determined at the start of turn
// t (5.1, 15.0: morning and afternoon turns, the "W" squares).
func WeatherTurn(t int) bool {
	p := TimeOfDay(t)
	return p == "morning" || p == "afternoon"
}

// TurnTitle describes turn t for people: "Turn 7, 9 April morning".
func TurnTitle(t int) string {
	return fmt.Sprintf("Turn %d, %d April %s", t, Day(t), TimeOfDay(t))
}

// Objectives of the German player (4.1).
const (
	ObjInvasion = "invasion" // Invasion of Norway
	ObjRaiding  = "raiding"  // Commerce Raiding
)

// TargetResult is one line of the German Target Determination Table (4.1).
type TargetResult struct {
	Kind string `json:"kind"`
	// Raiders are the ships that must break out through the red border
	// (6.18, 16.4: 5 VP each).
	Raiders []string `json:"raiders,omitempty"`
	// Support are named ships entering play with them (4.43).
	Support []string `json:"support,omitempty"`
	// Draw is "CA/CL xN": N ships drawn at random from the German heavy and
	// light cruisers not already listed (4.43 example).
	DrawCruisers int `json:"draw_cruisers,omitempty"`
	// UBs are the submarines supporting the objective (4.431).
	UBs    []string `json:"ubs,omitempty"`
	Source string   `json:"source"`
}

// TargetTable is the German Target Determination Table (PAC #2), rolled
// with 2d6. Source: reconstructed — the chart is not transcribed. What the
// text fixes: a 2 forces Bismarck to break out (4.51); objectives are
// Commerce Raiding or Invasion of Norway (4.1); raiding brings fewer units,
// named ships and drawn cruisers (4.43); Nordmark enters only when a result
// lists it (13.4). Invasion, the historical choice, is the likeliest result.
var TargetTable = engine.MustTable("German Target Determination Table",
	engine.TableRow[TargetResult]{Lo: 2, Hi: 2, Result: TargetResult{Kind: ObjRaiding, Raiders: []string{"bismarck"}, Support: []string{"nordmark"}, UBs: []string{"u47", "u48"}, Source: "4.51: a 2 requires Bismarck to leave the map; support reconstructed"}},
	engine.TableRow[TargetResult]{Lo: 3, Hi: 3, Result: TargetResult{Kind: ObjRaiding, Raiders: []string{"scharnhorst", "gneisenau"}, DrawCruisers: 2, Support: []string{"ddfloti", "nordmark"}, UBs: []string{"u47", "ubgroup1"}, Source: "reconstructed: the 4.43 example 'CA or CL x2'"}},
	engine.TableRow[TargetResult]{Lo: 4, Hi: 4, Result: TargetResult{Kind: ObjRaiding, Raiders: []string{"lutzow"}, DrawCruisers: 1, Support: []string{"tbfloti"}, UBs: []string{"u48"}, Source: "reconstructed: Lützow was meant to break out after Oslo"}},
	engine.TableRow[TargetResult]{Lo: 5, Hi: 5, Result: TargetResult{Kind: ObjRaiding, Raiders: []string{"hipper"}, Support: []string{"scharnhorst", "gneisenau", "ddfloti"}, UBs: []string{"u46", "ubgroup2"}, Source: "reconstructed"}},
	engine.TableRow[TargetResult]{Lo: 6, Hi: 9, Result: TargetResult{Kind: ObjInvasion, Source: "reconstructed: the historical objective, likeliest on 2d6"}},
	engine.TableRow[TargetResult]{Lo: 10, Hi: 10, Result: TargetResult{Kind: ObjRaiding, Raiders: []string{"scharnhorst"}, DrawCruisers: 2, Support: []string{"gneisenau"}, UBs: []string{"u47", "u46"}, Source: "reconstructed"}},
	engine.TableRow[TargetResult]{Lo: 11, Hi: 11, Result: TargetResult{Kind: ObjRaiding, Raiders: []string{"lutzow", "hipper"}, Support: []string{"nordmark", "ddflotii"}, UBs: []string{"ubgroup1"}, Source: "reconstructed"}},
	engine.TableRow[TargetResult]{Lo: 12, Hi: 12, Result: TargetResult{Kind: ObjRaiding, Raiders: []string{"scharnhorst", "gneisenau", "lutzow"}, Support: []string{"hipper", "nordmark"}, UBs: []string{"u47", "u48", "ubgroup2"}, Source: "reconstructed"}},
)

// Weather levels (15.0): calm, light wind, gale, strong wind. The game
// starts in a gale (4.61).
const (
	Calm   = "calm"
	Light  = "light"
	Gale   = "gale"
	Strong = "strong"
)

var weatherLevels = []string{Calm, Light, Gale, Strong}

func weatherIndex(w string) int {
	for i, l := range weatherLevels {
		if l == w {
			return i
		}
	}
	return 2
}

// WeatherTable is the Weather Table of PAC #1: 2d6, the change of weather
// level, clamped between calm and strong wind (15.0). Source: reconstructed —
// the chart is not transcribed; symmetric, with no change likeliest.
var WeatherTable = engine.MustTable("Weather Table",
	engine.TableRow[int]{Lo: 2, Hi: 3, Result: -2},
	engine.TableRow[int]{Lo: 4, Hi: 5, Result: -1},
	engine.TableRow[int]{Lo: 6, Hi: 8, Result: 0},
	engine.TableRow[int]{Lo: 9, Hi: 10, Result: 1},
	engine.TableRow[int]{Lo: 11, Hi: 12, Result: 2},
)

// nextWeather applies a 2d6 roll of the Weather Table to w.
func nextWeather(w string, roll int) string {
	i := weatherIndex(w) + WeatherTable.Lookup(roll)
	if i < 0 {
		i = 0
	}
	if i > 3 {
		i = 3
	}
	return weatherLevels[i]
}

// weatherCut is the Weather Level Table: how many points a weather level
// takes off a unit's movement allowance. small is true for DD, TB and PT.
// Source: 15.0 (gale: DD, TB and PT -1) and 15.2 example (strong wind: a
// destroyer -3); larger ships -1 in strong wind is reconstructed.
func weatherCut(w string, small bool) int {
	switch w {
	case Gale:
		if small {
			return 1
		}
	case Strong:
		if small {
			return 3
		}
		return 1
	}
	return 0
}

// Encounter choices (6.41).
const (
	ChoiceTrack = "track"
	ChoiceEvade = "evade"
	ChoiceFight = "fight"
)

// Encounter results (6.41).
const (
	ResEngage      = "engagement"       // one round or more of surface combat (8.2)
	ResPursuit     = "pursuit"          // special pursuit battle (8.3)
	ResNoContact   = "no contact"       // nothing happens
	ResEvadeTrack  = "evasion"          // evasion determination; failure means tracking (6.42)
	ResTrack       = "tracking"         // tracking succeeds (6.42)
	ResEvadeEngage = "evasion or fight" // evasion determination; failure means engagement
)

// EncounterTable is the Encounter Table of PAC #3, indexed by the choice of
// the side that may track (the Allies; the Germans against Norwegians or
// Danes alone, 6.41) and the choice of the other side. Source: 6.41, 6.44
// example (Track against Evade: evasion determination), 8.3 (Fight against
// Track: special pursuit battle); the other cells are reconstructed from the
// meaning of the choices.
var EncounterTable = map[string]map[string]string{
	ChoiceTrack: {ChoiceTrack: ResTrack, ChoiceEvade: ResEvadeTrack, ChoiceFight: ResPursuit},
	ChoiceEvade: {ChoiceTrack: ResNoContact, ChoiceEvade: ResNoContact, ChoiceFight: ResEvadeEngage},
	ChoiceFight: {ChoiceTrack: ResPursuit, ChoiceEvade: ResEvadeEngage, ChoiceFight: ResEngage},
}

// EvasionTable is the Evasion Determination Table of PAC #3: by the evader's
// evasion speed minus the tracker's (6.43), the highest 2d6 roll that
// evades. Source: 6.44 example (9 against 10 evades on 2-4); the other rows
// are reconstructed at one step of the roll per point of speed.
var EvasionTable = engine.MustTable("Evasion Determination Table",
	engine.TableRow[int]{Lo: -99, Hi: -3, Result: 2},
	engine.TableRow[int]{Lo: -2, Hi: -2, Result: 3},
	engine.TableRow[int]{Lo: -1, Hi: -1, Result: 4},
	engine.TableRow[int]{Lo: 0, Hi: 0, Result: 5},
	engine.TableRow[int]{Lo: 1, Hi: 1, Result: 6},
	engine.TableRow[int]{Lo: 2, Hi: 2, Result: 7},
	engine.TableRow[int]{Lo: 3, Hi: 3, Result: 8},
	engine.TableRow[int]{Lo: 4, Hi: 99, Result: 9},
)

// evades reports whether a 2d6 roll evades at the given speeds (6.44).
func evades(evader, tracker, roll int) bool {
	return roll <= EvasionTable.Lookup(evader-tracker)
}

// Port VP (16.2).
var PortVP = map[string]int{"Oslo": 15, "Narvik": 15, "Kristiansand": 5, "Stavanger": 5, "Bergen": 6, "Trondheim": 10}

// Option IDs (4.5, 12.0, 15.0, 17.x).
const (
	OptWeather      = "weather"
	OptIndependent  = "independent-destroyers"
	OptGrafZeppelin = "graf-zeppelin"
	OptBismarck     = "bismarck"
	OptBismarckHood = "bismarck-hood"
	OptBismarckStr  = "bismarck-strasbourg"
	OptBismarckFr   = "bismarck-french"
	OptSplitting    = "splitting"
	OptQShips       = "q-ships"
	OptDanish       = "danish"
	OptNorFighters  = "norwegian-fighters"
	OptInvasion     = "choose-invasion"
	OptKGV          = "kgv-guns"
	OptSkua         = "skua-fighter"
	OptGladiators   = "furious-gladiators"
	OptTorpedoes    = "torpedoes-work"
	OptBergenTorp   = "bergen-torpedoes"
)

// OptBergenTorpedoes is the option of 17.6.
const OptBergenTorpedoes = OptBergenTorp

// WithdrawalR are the British ships marked "R" on the Turn Record Track:
// from turn 5 they must use all their movement to return to Scapa Flow
// (14.0). Source: reconstructed — the track is not transcribed; Birmingham
// and the ON25 escort were the ships short of fuel on 8-9 April 1940.
var WithdrawalR = []string{"birmingham", "ddflot3"}

// WithdrawalTurn is the turn the "R" ships turn for home (14.0).
const WithdrawalTurn = 5
