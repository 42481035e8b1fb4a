package kriegsmarine

import "skagerrak/engine"

// Rules revisions (engine/revision.go): a game keeps the revision it was
// created with. Revision 2 changed what the first hand-computed scenarios
// found wrong; each change below is asked for by name where the rules fork
// (s.rev().Has(CombatNoRoundCap)), so that a game of revision 1 plays on
// exactly as it began. The revision list is built from them, in this order.
var (
	RedBorderRight          = engine.Change{In: 2, Text: "3.1: the red border is the top edge's sea hexes right of the middle, FF11-FF18 (was the whole top edge, FF1-FF18)"}
	AirborneInvasionTurn    = engine.Change{In: 2, Text: "6.28: airborne troops may land on the day turn whose moves begin the invasion"}
	CombatNoRoundCap        = engine.Change{In: 2, Text: "8.25: a battle has no round limit (was 6): it goes on until one side is gone, the 8.24 check ends it, or neither side has anything left to fire"}
	MinelayerEscorts        = engine.Change{In: 2, Text: "8.27: minelayer task forces of 2 ships or more give escorts like destroyer and torpedo boat task forces"}
	PursuitTargetAfloat     = engine.Change{In: 2, Text: "8.3: the ship fired on in a special pursuit battle returns fire only if it is still afloat"}
	FallBackFromFirstHex    = engine.Change{In: 2, Text: "9.2: ships that give up a port fall back to the hex they came from, also when the port was the first hex of their move"}
	OsloOuterFortressFires  = engine.Change{In: 2, Text: "9.21: the Oslo outer fortress (H16) fires at ships passing it on their way into Oslo, before Oscarsborg"}
	WithdrawBeyondOsloOuter = engine.Change{In: 2, Text: "9.31: Norwegian ships withdrawing from Oslo go beyond the Oslo outer fortress"}
	ASubmarineRemoved       = engine.Change{In: 2, Text: "9.33: the A Class submarine is removed from the game after its torpedo attack"}
	RepulseBeyondOsloOuter  = engine.Change{In: 2, Text: "9.43: German ships repulsed from Oslo retreat a further hex, beyond the Oslo outer fortress"}
	SubmarineHoldsAttack    = engine.Change{In: 2, Text: "8.0, 8.1: a submarine holds its attack with \"torpedoes SUB 0\" (attacking is not compulsory)"}
	PursuitEvasionAlways    = engine.Change{In: 2, Text: "8.3: every special pursuit battle ends with the evasion determination, whichever side chose fight; the German player's target order chooses the ship that fires and its target"}
	TargetAimsTorpedoes     = engine.Change{In: 2, Text: "8.28: a unit's target order aims its torpedoes too (it was always the biggest ship)"}
	ExposeByOrder           = engine.Change{In: 2, Text: "9.2: on halved defence a fortress without torpedoes fires at the half of the German ships the German order \"expose PORT SHIP, ...\" names (they were taken by name)"}
	WithdrawalToldOwner     = engine.Change{In: 2, Text: "9.2, 9.31: where ships fell back or withdrew is told only to their owner"}
	AirfieldsWithPort       = engine.Change{In: 2, Text: "9.43: an occupation after 2 turns takes the port's airfields at the start of the turn it falls due (was a turn later)"}
	NoWeatherNote           = engine.Change{In: 2, Text: "15.0: without the weather option the reports say the weather rules are not used (they showed a gale that changed nothing)"}
	NeutralAllowanceZero    = engine.Change{In: 2, Text: "6.15: Norwegian and Danish ships show allowance 0 until they may move (the View showed their printed allowance)"}
	DetachedNotLost         = engine.Change{In: 2, Text: "12.0, 16.3: a destroyer detached from a German task force scores no Allied VP as a destroyer destroyed"}
)

// changes lists every revision change, oldest revision first, in the
// order the revision list shows them.
var changes = []engine.Change{RedBorderRight, AirborneInvasionTurn, CombatNoRoundCap, MinelayerEscorts, PursuitTargetAfloat, FallBackFromFirstHex, OsloOuterFortressFires, WithdrawBeyondOsloOuter, ASubmarineRemoved, RepulseBeyondOsloOuter, SubmarineHoldsAttack, PursuitEvasionAlways, TargetAimsTorpedoes, ExposeByOrder, WithdrawalToldOwner, AirfieldsWithPort, NoWeatherNote, NeutralAllowanceZero, DetachedNotLost}

// Revisions implements engine.Reviser: the revision list built from the
// changes.
func (rules) Revisions() []engine.Revision { return engine.RevisionsOf(changes...) }

// rev is the rules revision the game is played under: the state records it
// from revision 2 on, so a state without one is revision 1.
func (s *State) rev() engine.Rev { return engine.RevOf(s.Revision) }

// rev is the View's rules revision (see State.rev).
func (v *View) rev() engine.Rev { return engine.RevOf(v.Revision) }
