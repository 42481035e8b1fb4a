package norge

import "skagerrak/engine"

// PhaseSetup is the kind of the set-up phase in the verb table; the other
// kinds are the stage names (turnStages: air-german, naval-allied, ...).
const PhaseSetup = "setup"

// phaseKind is the verb table's kind of the open phase of s.
func phaseKind(s *State) string {
	if s.Setup {
		return PhaseSetup
	}
	return turnStages[s.Step].PhaseKind()
}

var (
	airSteps   = []string{"air-german", "air-allied"}
	navalSteps = []string{"naval-german", "naval-allied"}
	landSteps  = []string{"land-german", "land-allied"}
)

// Verbs is the table of Norge's orders: the orders each phase takes, the
// parser's hints, and the guide's order syntax.
var Verbs = engine.Verbs{
	{Name: "air", Rule: "9.3", Usage: "air BASE MAP",
		Doc:     "Places the air units of an airfield or carrier over a Tactical Map (A-F) within its range.",
		Args:    []engine.Arg{{Name: "BASE", Doc: "an airfield you hold or your carrier"}, {Name: "MAP", Doc: "a Tactical Map letter, A to F"}},
		Words:   engine.Takes(2, 2),
		Phases:  airSteps,
		Example: engine.Example{Phase: "T01-air-german", Side: German, Line: "air Aalborg A"}},
	{Name: "carry", Rule: "6.2", Usage: "carry BATTLESHIP UNIT ...",
		Doc:    "At set-up, the troops each German battleship carries: 1 regiment or 3 battalions, no armor or para.",
		Words:  engine.Takes(2, engine.Many),
		Phases: []string{PhaseSetup}, Sides: []engine.Side{German},
		Example: engine.Example{Phase: "T00-setup", Side: German, Line: "carry Bluecher IR307"}},
	{Name: "disembark", Rule: "12.1", Usage: "disembark SHIP",
		Doc:     "Lands the troops of a convoy or battleship in the port it lies in.",
		Words:   engine.Takes(1, 1),
		Phases:  landSteps,
		Example: engine.Example{Phase: "T02-land-german", Side: German, Line: "disembark Bluecher", Setup: "Bluecher's troops on the quays of Oslo after a failed landing"}},
	{Name: "embark", Rule: "12.8", Usage: "embark CONVOY UNIT ...",
		Doc:     "Takes units in a port aboard a convoy (or, 12.2, a battleship takes back the troops of its failed landing).",
		Words:   engine.Takes(2, engine.Many),
		Phases:  landSteps,
		Example: engine.Example{Phase: "T02-land-german", Side: German, Line: "embark Bluecher IR307", Setup: "Bluecher's troops on the quays of Oslo, which the enemy now holds"}},
	{Name: "airlift", Rule: "13.1", Usage: "airlift UNIT AIRFIELD",
		Doc:    "Flies a unit reserved for air transport to an airfield you hold, one a turn.",
		Words:  engine.Takes(2, 2),
		Phases: []string{"land-german"}, Sides: []engine.Side{German},
		Example: engine.Example{Phase: "T02-land-german", Side: German, Line: "airlift IR324 Sola", Setup: "IR324 reserved for air transport, Sola German, air units over map A"}},
	{Name: "drop", Rule: "13.5", Usage: "drop UNIT HEX",
		Doc:    "Drops paratroops (from turn 6) on a hex free of the enemy.",
		Words:  engine.Takes(2, 2),
		Phases: []string{"land-german"}, Sides: []engine.Side{German},
		Example: engine.Example{Phase: "T06-land-german", Side: German, Line: "drop FJ3 A:D4", Setup: "FJ3 ready to drop, fair weather"}},
	{Name: "move", Rule: "14.3", Usage: "move SHIP HEX [HEX ...] [off] | move UNIT HEX [HEX ...]",
		Doc:     "In a naval phase moves a ship or convoy along sea areas (10.1; off-board ships start at an entrance); in a land phase moves a unit hex by hex (14.3).",
		Args:    []engine.Arg{{Name: "HEX", Doc: "a sea area (North3, Skagerrak2, B2) or a land hex as MAP:HEX (B:C3)"}},
		Words:   engine.Takes(2, engine.Many),
		Phases:  append(append([]string{}, navalSteps...), landSteps...),
		Example: engine.Example{Phase: "T01-land-allied", Side: Allied, Line: "move NIR1 B:C3"}},
	{Name: "load", Rule: "11.1", Usage: "load CONVOY UNIT ...",
		Doc:     "Loads units in reserve onto a convoy off the board: at most 3 regiment equivalents; it sails next turn.",
		Words:   engine.Takes(2, engine.Many),
		Phases:  navalSteps,
		Example: engine.Example{Phase: "T01-naval-german", Side: German, Line: "load GC1 IR236 IR334 IR359"}},
	{Name: "merge", Rule: "11.2", Usage: "merge CONVOY CONVOY",
		Doc:     "Merges two empty reduced convoys off the board into one.",
		Words:   engine.Takes(2, 2),
		Phases:  navalSteps,
		Example: engine.Example{Phase: "T02-naval-german", Side: German, Line: "merge GC1 GC2", Setup: "GC1 and GC2 empty and reduced, off the board"}},
	{Name: "intercept", Rule: "10.9", Usage: "intercept on|off",
		Doc:     "Standing order: your ships intercept enemy ships that come within reach.",
		Words:   engine.Takes(1, 1),
		Phases:  navalSteps,
		Example: engine.Example{Phase: "T01-naval-german", Side: German, Line: "intercept off"}},
	{Name: "ferry", Rule: "14.6", Usage: "ferry UNIT",
		Doc:     "Ferries a unit across the fjord at its ferry crossing.",
		Words:   engine.Takes(1, 1),
		Phases:  landSteps,
		Example: engine.Example{Phase: "T02-land-allied", Side: Allied, Line: "ferry B4", Setup: "B4 at the ferry F:E2"}},
	{Name: "blow", Rule: "15.1", Usage: "blow HEX HEX",
		Doc:     "Blows the bridge between two hexes next to your unit.",
		Words:   engine.Takes(2, 2),
		Phases:  landSteps,
		Example: engine.Example{Phase: "T02-land-allied", Side: Allied, Line: "blow B:D4 B:D5", Setup: "NIR2 at B:D4 by the bridge"}},
	{Name: "sabotage", Rule: "15.2", Usage: "sabotage HEX HEX",
		Doc:    "The Allies roll to blow a bridge anywhere, one a turn (1-4 blows it).",
		Words:  engine.Takes(2, 2),
		Phases: []string{"land-allied"}, Sides: []engine.Side{Allied},
		Example: engine.Example{Phase: "T01-land-allied", Side: Allied, Line: "sabotage B:D4 B:D5"}},
	{Name: "attack", Rule: "16.1", Usage: "attack HEX with UNIT [UNIT ...] [advance UNIT|none]",
		Doc:     "Attacks an enemy-held land hex with adjacent units; advance names the unit that takes the hex if it is won (16.7).",
		Words:   engine.Takes(3, engine.Many),
		Phases:  landSteps,
		Example: engine.Example{Phase: "T01-land-allied", Side: Allied, Line: "attack B:F3 with NIR4"}},
	{Name: "hold", Rule: "16.6", Usage: "hold UNIT [UNIT ...] | hold none",
		Doc:     "Standing order: units that hold their hex rather than retreat when beaten.",
		Words:   engine.Takes(1, engine.Many),
		Phases:  landSteps,
		Example: engine.Example{Phase: "T01-land-german", Side: German, Line: "hold none"}},
	{Name: "losses", Rule: "10.8", Usage: "losses UNIT|SHIP ... | losses none",
		Doc:     "Who goes first when you choose losses (10.8, 12.6).",
		Words:   engine.Takes(1, engine.Many),
		Phases:  append(append([]string{}, navalSteps...), landSteps...),
		Example: engine.Example{Phase: "T01-naval-german", Side: German, Line: "losses none"}},
	{Name: "sub", Rule: "17.1", Usage: "sub SUB AREA",
		Doc:     "Moves a submarine secretly to an adjacent sea area, or places a new one anywhere.",
		Args:    []engine.Arg{{Name: "AREA", Doc: "a sea area number, 1-7"}},
		Words:   engine.Takes(2, 2),
		Phases:  []string{"subs"},
		Example: engine.Example{Phase: "T01-subs", Side: Allied, Line: "sub Truant 2"}},
}
