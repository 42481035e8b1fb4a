// Package kriegsmarine is the ruleset of "Norway 1940: The Kriegsmarine
// Strikes" (Hitler Strikes North), the double-blind naval game of the
// German invasion of Norway, 8-11 April 1940, played by email.
//
// # The game
//
// Two sides, "allied" (who also run the Norwegian and Danish forces) and
// "german". The German objective is drawn in secret at set-up from the
// target determination table (4.1): Invasion of Norway or Commerce Raiding.
// The game has 18 turns of five hours, five a day (night, morning, noon,
// afternoon, evening), starting on the night of 8 April. Each turn is a
// phase, "T01" to "T18", in which both sides send one order file with their
// movement, their searches and their standing encounter choices; the
// adjudicator then resolves the whole turn: reinforcements and weather
// (5.1), movement with tracked groups first (5.2, 6.1, 6.44), the Allied
// then the German searches with their encounters (5.4, 6.3, 6.4), the
// passive reports (6.37), combat (5.5) and the end of turn (5.6). Each side
// is told only what the rules let it know (its View). The decisions the
// rulebook takes in the middle of a turn (the encounter choice, 6.41; the
// declarations of each battle round and the end-of-round check, 8.24,
// 8.26-8.28) come from standing orders given with the turn's orders, or,
// where a player asked to decide in person, from a short phase inside the
// turn (see "Decisions in person" below). With standing orders only, the
// phases of a game are exactly T01 to T18.
//
// # Order files
//
// After the Game:, Phase: and Side: header lines, one order a line. Unit
// names are case-insensitive, spaces, dots and hyphens do not matter, and
// umlauts may be written plain ("Lutzow", "Luetzow", "LÜTZOW"); most units
// have aliases ("KGV", "Flot I", "U47"). A '#' starts a comment. Hexes are
// named as printed: row letters A..Z, AA..FF (south to north), then the
// column 1..20 (west to east), e.g. Q13.
//
//	move UNIT[, UNIT ...] HEX HEX ... [off]
//	    Move the units along a path: every hex entered, in order, each
//	    next to the one before (6.13). The path costs one point a hex; the
//	    allowance is the printed speed of the turn's parity (3.414: odd
//	    turns the left value), halved by moderate damage, cut by weather
//	    (15.0-15.3): the order form and the View give it ("allowance",
//	    and in strong wind "allowance_south" for a move that goes south
//	    at every step). Ships enter only sea, coastal, fjord and port hexes
//	    and never cross a land hexside (6.14); submarines sea, coastal and
//	    fjord hexes (6.19). Allied ships stay out of Norwegian coastal
//	    waters until two turns after the German invasion (6.15, 9.1).
//	    "off" leaves the map from an edge hex for one more point (6.18);
//	    through the red border, the top edge's sea hexes FF11-FF18 (3.1;
//	    rules revision 1: the whole top edge), that is a breakout.
//	enter UNIT[, UNIT ...] ARROW [HEX ...] [off]
//	enter UNIT ARROW spend N
//	    German ships in the German area enter through an arrow hex
//	    (A12-A17, A19), paying the arrow's number in movement points
//	    (6.16). A ship that cannot pay it all this turn spends its whole
//	    allowance (or N with "spend") off the map and pays the rest later.
//	search air HEX
//	search air AIRCRAFT HEX
//	    An air search of any hex, on day turns only, at most three a turn
//	    (6.32, 6.35). Air searches are abstract: naming an aircraft unit is
//	    allowed and changes nothing.
//	search surface UNIT        (or: search UNIT)
//	    A surface search of the hex where UNIT ends its move: one a hex
//	    (6.33); submarines only on day turns (6.35). Finding enemy surface
//	    ships leads at once to an encounter (6.36, 6.41).
//	encounter UNIT|all track|evade|fight|ask
//	    The standing encounter choice (6.41) of the group UNIT is in when
//	    an encounter happens this turn; "all" sets the side's default. The
//	    choice of a group is that of its first unit (by id) with an order,
//	    else the default, else track for the Allies and evade for the
//	    Germans. In ports and fjords evade counts as fight (6.41 note).
//	    "ask" decides the group's encounter in person when it happens (see
//	    below); its standing choice, the deadline default, is then the one
//	    these rules give with the ask lines left out.
//	combat ask
//	    Decide each round of this turn's surface battles in person (8.24,
//	    8.26-8.28; see below). The standing combat orders of the turn
//	    (escort, restrict, target, torpedoes) are then the deadline
//	    default.
//	split UNIT[, UNIT ...]
//	    (option "splitting", 6.43) Before the evasion determination, the
//	    named units of a tracked stack form a group of their own.
//	rebase AIRCRAFT to BASE
//	    Transfer an aircraft unit on a day turn to an airfield or carrier
//	    within twice its radius (6.21; from the German area by way of A15,
//	    6.22). The unit is then face down for the turn (6.27).
//	detach DESTROYER from FLOTILLA
//	    (option "independent-destroyers", 12.0) Detach an independent
//	    destroyer; the flotilla takes one hit.
//	strike AIRCRAFT HEX
//	    A standing air strike (8.5): flown in the combat phase of a day turn
//	    if your searches (passive reports included) found enemy surface
//	    ships in HEX this turn, within the aircraft's radius (6.23). Not on
//	    the turn of a transfer, nor on the turn after a strike (8.51).
//	cover FIGHTER HEX
//	    Fighter cover over HEX (8.522): fighters cancel each other one for
//	    one, and each fighter left turns back one enemy bomber.
//	airborne UNIT AIRFIELD
//	    (German, day turns from the invasion, 6.28; from rules revision 2
//	    also the day turn whose moves in the same orders begin it) Land an
//	    airborne unit
//	    on Sola, Fornebu or Kjevik; resolved in the combat phase (8.7),
//	    then once against the port next to the airfield (9.52).
//	escort SHIP[, SHIP ...]
//	    Ships to escort in the first round of any battle this turn (8.27),
//	    as far as the side's destroyer, torpedo boat and (rules revision
//	    2) minelayer task forces and numbers allow.
//	restrict
//	    Declare restricted fire in every round of every battle (8.26).
//	torpedoes UNIT N
//	    UNIT fires at most N torpedo points a round this turn (8.28); by
//	    default all it may. For a submarine (rules revision 2) "torpedoes
//	    SUB 0" holds its attack this turn (8.0: attacking is not
//	    compulsory).
//	target UNIT TYPE
//	    The ship type (BB, CA, DD, CONVOY, ...) UNIT goes for this turn with
//	    its guns (8.271) and (rules revision 2) its torpedoes (8.28), its
//	    torpedoes as a submarine (8.12) or its bombs (8.521), when one is
//	    there. In a special pursuit battle (rules revision 2) the first
//	    German ship with a target order is the one that fires (8.3).
//	disguise
//	    (German) Report CA as BB and BB as CA this turn (6.46).
//	abandon PORT [LEAD]
//	    (German) If the fortress of PORT defends this turn, give the port up:
//	    only LEAD (or the strongest ship) is fired on and every German ship
//	    there falls back (9.2, 9.21).
//	expose PORT SHIP[, SHIP ...]
//	    (German, rules revision 2) If the fortress of PORT has no torpedoes
//	    and defends at half this turn, it fires at these ships, in this
//	    order, up to half the German ships there (rounded up); the rest of
//	    that half by name (9.2: "the German player chooses which ships are
//	    fired upon").
//	schlesien
//	    (German, option "danish") If Denmark resists, Schlesien fights the
//	    Danish ships for one round (17.31 option 1).
//	end game
//	    (German, Commerce Raiding) Victory in hand: the game ends after this
//	    turn (6.18).
//	scramble
//	scramble cancel
//	    (German) Declare the Air Emergency Scramble, once a game (6.29), or
//	    end it at the end of this turn (6.291).
//	pass
//	    Nothing this turn (an empty file does the same).
//
// Submarines attack by themselves (8.1): on a day turn, a submarine in a
// hex where its side found enemy surface ships fires at the biggest (or
// the type of its target order), unless "torpedoes SUB 0" holds it. Ships
// in a battle fire their gunnery and every torpedo they may; the standing
// encounter choice also decides, after each round, whether the group fights
// on (8.24: "fight" continues), unless the side decides in person; a
// battle has no round limit (8.25; rules revision 1 stopped at 6), and one
// in which neither side has anything left to fire ends. Norwegian
// fortresses fire at German ships in their hex, German-held ones at Allied
// ships (9.2); the Oslo outer fortress also at ships that pass it on their
// way into Oslo (9.21, rules revision 2).
//
// Every line is checked against what the side knows; a bad line is
// rejected with its line number, the rule it breaks and what would be
// valid. Units tracking an enemy take no move order: they follow the group
// they track (6.44); a tracked group moves along one path (6.44).
//
// # Decisions in person
//
// When an encounter involving a group whose order is "ask" happens, or a
// round of a battle of a side that wrote "combat ask" is about to be
// fought, the turn stops there and a short phase opens, owed only by the
// side(s) that asked: "T05-encounter" (then "T05-encounter-2", ... for
// later ones in the same turn) or "T05-combat", "T05-combat-2", ... (one
// a battle round). The asking side's View shows the turn as far as it
// went and its question (View.Decision): the hex, its own units, the
// enemy's ship types as reported (6.41, 6.46) or seen in battle (8.21),
// the battle rounds so far, the lines valid now and the deadline default.
// The other side is not waited for and sees the turn's start until the
// turn is resolved. Only these lines are valid in a short phase:
//
//	track|evade|fight        (encounter; also "encounter CHOICE")
//	    The encounter choice (6.41); evade is refused in a port or fjord.
//	fight|evade              (combat, from round 2)
//	    The end-of-round check of the round just fought (8.24); without
//	    it, the group's standing choice.
//	restrict                 (combat) restricted fire this round (8.26)
//	escort SHIP[, SHIP ...]  (combat, round 1) escorted ships (8.27)
//	target UNIT TYPE         (combat) gunnery target type (8.221)
//	torpedoes UNIT N         (combat) torpedo cap this round (8.28)
//	standing
//	    As the turn's orders say: the standing encounter choice, or the
//	    standing combat declarations and choice. This is the DefaultOrders
//	    of a short phase, taken at its deadline.
//	pass                     (or an empty file)
//	    Nothing declared: in combat no restricted fire, no escort, targets
//	    and torpedoes as without orders, the standing 8.24 choice.
//
// A combat decision replaces the turn's combat declarations for its round.
// Resolving a short phase replays the turn from its start with the same
// orders, the same dice and the answers given so far, and goes on with the
// phase's dice where it stopped: the result is the one the same choices
// given as standing orders would have had with the same dice. The turn
// then finishes, or stops again at the next decision asked for.
//
// # Data
//
// data/units.tsv and data/aircraft.tsv hold every counter with its source:
// the rule that states a value, or "reconstructed" with the reason (the
// rulebook transcribes neither the counters nor the charts). The charts,
// each with its source, are Go tables: TargetTable, WeatherTable,
// EncounterTable and EvasionTable (tables.go), GunneryTable (combat.go),
// TorpedoTable and FatalFlooding (torpedoes.go), FortressTable
// (fortresses.go), AirStrikeTable (airstrikes.go), PortTable and AirborneTable (ports.go), MoraleTable
// (norway.go), CommanderInjury (commanders.go), and the German Historical
// Plan the scripted German player follows (player.go). Ruleset.Rules lists
// every section of the rulebook, its status and its tests.
//
// # Scenario and options
//
// One scenario, "historical" (also "default"). The optional rules are
// options of the game's Setup: weather (15.0), independent-destroyers
// (12.0), splitting (6.43), commanders (10.0), wilfred (11.0),
// oiler-supply (13.1, 13.3), graf-zeppelin and bismarck with the Allied
// answers bismarck-hood, bismarck-strasbourg or bismarck-french (4.5),
// q-ships (17.7), danish (17.3), norwegian-fighters (17.1), wehrmacht
// (17.15), kgv-guns (17.2), torpedoes-work (17.5), bergen-torpedoes (17.6),
// skua-fighter (17.8), furious-gladiators (17.14) and choose-invasion (the
// 4.1 optional choice).
package kriegsmarine
