// Package sweden43 is the "sweden43" ruleset: Objective: Sweden, the
// Europa scenario of a German invasion of Sweden in July 1943, with its
// ULTRA, Operation I and Operation II scenarios.
//
// The text amends the Balkan Front rules, which it does not include. Rules
// revision 2 (Revisions) plays the Europa core as it is known: the
// published cells of the combat results table exact and marked, the rest
// reconstructed around them, the published halvings, armour effects and
// zones of control; revision 1, which games created before it keep, played
// a minimum of standard Europa mechanics reconstructed without them. What
// is reconstructed (movement points, supply lines, stacking, air and AA
// tables, the rest of the CRT) is in data/tables.txt and marked so. The map
// (data/map.txt, places.txt, rails.txt, rivers.txt) is a reconstructed hex
// grid of Sweden and eastern Norway; the orders of battle (units.txt,
// air.txt) are reconstructed where the text does not give them. Rules()
// lists every numbered rule of the text with its status.
//
// # Turns and phases
//
// Two set-up phases come first (30): "T0-allied-setup", then
// "T0-german-setup", with orders
//
//	place UNIT HEX             deploy a unit anywhere in your own country
//	base AIRUNIT HEX|UK        base an air unit
//
// (no orders keeps the order of battle's set-up).
//
// Six game turns, Jul I 43 to Sep II 43 (31A). Each has two player turns,
// German first (Allied first in ULTRA, 30); each player turn has a
// movement phase (which begins with the initial phase's arrivals,
// replacements and supply), a combat phase and an exploitation phase in
// which c/m units move again, under revision 2 only those that used no more
// than half their movement allowance in the movement phase (reconstructed:
// standard Europa mechanics).
// Only the phasing player owes orders. Phase IDs read "T3-german-move",
// "T3-german-combat", "T3-german-exploit".
//
// # Order syntax
//
// One order a line, "#" starts a comment, unit names in any case (ids such
// as 25Pz, I1, 2DivHQ, or aliases). A HEX is a grid hex ("R18"), a place
// ("Stockholm") or a Europa hex number the text quotes ("5B:5026").
//
// Movement phase:
//
//	move UNIT HEX [HEX ...]    move through each HEX in turn (cheapest path)
//	rail UNIT HEX              rail move along friendly rail lines (7A)
//	land UNIT HEX              amphibious landing, Jul I only (26A)
//	drop UNIT HEX              airborne drop in Sweden, once a game (25C)
//	base AIRUNIT HEX|UK        rebase an air unit (3F)
//	replace UNIT HEX           German replacement (29B)
//	rebuild UNIT               German infantry cadre to full strength (29B)
//	mobilize REGIMENT DIVISION Swedish mobilization (29E)
//	assemble DIVISION [2DivHQ] R1 R2 R3   Swedish assembly (29F, 15C3)
//
// Replacements, rebuilding and mobilization happen first (the initial
// phase), then movement in the order written, then assembly.
//
// Exploitation phase: move orders for c/m units (armour, assault guns).
//
// # Dice
//
// Combat rolls one die; the incremental odds of 34A two ten-sided dice,
// the 00-90 die for the tens and the 0-9 die for the units. With manual
// dice each is given as the die shows (the 00-90 die by its tens digit, a
// 0 face as 0), in the order the waiting resolution lists them.
//
// Combat phase:
//
//	attack HEX with UNIT UNIT ... [advance]
//	air AIRUNIT HEX [close]    ground support or escort for the attack on
//	                           HEX; "close" flies close escort (20C1)
//
// Attacks are resolved in the order written; each unit attacks once and
// each hex is attacked once a phase. With "advance" the surviving
// attackers (not artillery) move into a hex the defenders have left.
//
// # What each side sees
//
// Europa is played on an open map, so a View shows every unit on the map,
// every hex's owner and every combat. Each side's own order of battle still
// to come (reinforcements, divisions to mobilize or assemble, the
// amphibious and airborne forces not yet committed) and the German
// replacement pool are hidden from the other side. Reports are plain text
// at 72 columns with a picture of the map; the order form is the scripted
// player's suggestion, which ParseOrders accepts unchanged.
package sweden43
