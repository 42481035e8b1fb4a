// Package norge is the ruleset of "Norge: the first battle between the
// Germans and the Allies": a strategic hex map for naval and air units, six
// tactical hex maps and four mini maps for land units, 10 turns, secret
// submarine positions and convoy contents.
//
// # Rule numbers
//
// The rulebook numbers nothing. skagerrak numbers its headings in the order
// of the text and its paragraphs within each heading, and every rule
// reference (order errors, report lines, test names, Rules) uses these
// numbers:
//
//	1 Components               10 Phase 3: Naval Movement/Combat
//	2 Victory Conditions       11 Preparation of Convoys
//	3 Maps, Units and Markers  12 Phase 4: Naval Transport/Disembarkment
//	4 The Strategic Map        13 Air Transport & Air Drops
//	5 The 6 Tactical Maps      14 Ground Unit Movement
//	6 Set Up of the Game       15 Blow & Repair of Bridges
//	7 Turn Sequence            16 Combat
//	8 Phase 1: Weather         17 Phase 5: Secret Movement of Subs
//	9 Phase 2: Placement of Air Units
//
// so 12.2 is the second paragraph of Phase 4 (the German landings of turn
// 1) and 16.10 the tenth paragraph of Combat (artillery). Rules lists them
// all with their status.
//
// # Sides and phases
//
// The sides are "german" and "allied". The game opens with a set-up phase,
// T00-setup, in which the German player chooses the troops on his five
// battleships (6.2). Each of the 10 turns (2.1) then has seven phases, the
// five of rule 7 with phases 2, 3 and 4 split into the German and the
// Allied half, as the rulebook has the German player act first:
//
//	T01-air-german     the weather of the next turn is rolled (8.2); German
//	                   aircraft are placed (9)
//	T01-air-allied     Allied carrier fighters are placed (9.2)
//	T01-naval-german   German naval movement, combat and convoy loading (10, 11)
//	T01-naval-allied   the same for the Allies
//	T01-land-german    German landings, air transport and drops, ground
//	                   movement and combat (12-16)
//	T01-land-allied    the same for the Allies
//	T01-subs           both sides move and place submarines, secretly (17)
//
// Convoy loading and submarine orders are secret: the other side's view
// never shows a convoy's cargo, an off-board unit or a submarine.
//
// # Order syntax
//
// One order a line; "#" starts a comment; words are separated by blanks;
// unit, ship, hex, map and airfield names are case-insensitive and land
// units have aliases (IR307 or 307, NIR1 or N1). Land hexes are written
// MAP:HEX, e.g. B:E3 (Oslo); Strategic Map hexes by name (North3, OsloFjord,
// G1). Orders are carried out in the sequence of play whatever their order
// in the file.
//
// Set-up (6.2):
//
//	carry Bluecher IR307           # a regiment, or 3 battalions, no armor or para
//
// Air phase (9):
//
//	air Aalborg B         # German: the fighter and bomber of an airfield to Map B
//	air Glorious C        # Allied: a carrier's fighter to Map C
//
// Naval phases (10, 11):
//
//	move Renown B2 Norw1 Norw2     # hex by hex; an off-board ship starts at an entrance hex
//	move Renown Norw2              # one far hex: the cheapest way there
//	move GC1 North1 Skagerrak1 G1 off   # "off" leaves the board from an entrance hex
//	load GC2 IR236 IR334 IR359     # load a convoy off the board for next turn (11.1)
//	merge GC3 GC4                  # two reduced empty convoys make one (11.2)
//	intercept off                  # standing: decline defensive combat (10.9)
//	losses GC3 Bluecher            # standing: what you give up first when you choose (10.8)
//
// A battleship that enters a hex with enemy naval units stops and attacks
// them (10.8). Other units pass through such hexes and may be fired on
// (10.9).
//
// Land phases (12-16). The battleships' landings of turn 1 are made by
// themselves at the start of the German land phase; from rules revision 2
// a failed landing leaves its troops, reduced, on the quays hex:
//
//	disembark GC1                  # land a convoy's troops in its port (12.1)
//	embark GC1 IR307 IR310         # take troops on in port (12.8)
//	disembark Bluecher             # a failed landing's troops on the quays try again (12.2)
//	embark Bluecher IR307          # or go back aboard once the enemy holds the port (12.2)
//	airlift IR324 Fornebu          # German air transport (13.1)
//	drop FJ3 A:D4                  # German air drop, from turn 6 (13.5)
//	move IR307 B:E4 B:D4           # hex by hex, or one far hex for the cheapest path
//	ferry B4                       # the ferry of Map F (14.6)
//	blow A:B3 A:B4                 # blow the bridge between two hexes (15.1)
//	sabotage A:B3 A:B4             # Allied roll to blow a bridge, 1-4 (15.2)
//	attack B:D2 with NIR1 NIR4     # one combat against one hex (16.1)
//	attack B:D2 with NIR1 NIR4 advance NIR4   # who occupies the hex if it is won (16.7)
//	hold NIR2 NIR4 | hold none     # standing: reduce instead of retreating (16.6)
//	losses Pi163 IR236 | losses none   # standing: who goes first when overstacked (12.6)
//
// Standing orders (intercept, losses, hold) stay in force until changed,
// also when a side sends no orders.
//
// Submarine phase (17):
//
//	sub U25 3                      # move to an adjacent sea area, or place a new one
//
// # Maps
//
// Tactical Maps: A Stavanger and Sola, B Oslo and Fornebu, C Bergen, D
// Trondheim and Vaernes, E Namsos and Mosjoen, F Narvik, Harstad and
// Bardufoss. Mini maps: K Kristiansand, R Arendal, H Halden, N Aandalsnes.
// Road corridors between the maps: AC, BC, BD and EF, one hex wide. A
// Tactical Map is 6 by 6 hexes, a mini map 4 by 5, row A in the south;
// links join the edge hexes of neighbouring maps. The Strategic Map is a chain of named sea,
// fjord and port hexes from the entrance hexes G1, G2 (German) and B1, B2
// (British) to the 12 ports, in 7 numbered sea areas.
//
// # Data
//
// The data pack (data/*.txt) holds the maps, the forces, the ports and
// airfields, the Strategic Map and the tables; every line ends with its
// source: the rule it comes from, or "reconstructed" and why. The rulebook
// prints no map, no counter values and no chart, so most of it is
// reconstructed; Rules says which rules rest on reconstructed data.
package norge
