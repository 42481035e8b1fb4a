package norway1940

import "skagerrak/engine"

// The changes each rules revision made (engine.Change), in the order the
// revision list shows them, one line a rule. A game is played under the
// revision it was created with (State.Revision); every change keeps the
// old behaviour for games of revision 1 at the point that changed, asking
// for it by name (s.rev().Has(...)).
var (
	InvasionMarkedPortsOnly = engine.Change{In: 2, Text: "9.16, 9.16.1: on the invasion turn (turn 4) landings are made only at the ports marked on the map (grey for the German, red for the Allied); the secondary (anchor) ports take landings from turn 5"}
	OwnerDistributesLosses  = engine.Change{In: 2, Text: "10.5.6: the owner distributes his combat losses: his standing order \"losses UNIT ...\" (the first of them still in the combat takes each loss), or in person in a short phase (\"ask losses\": \"step UNIT\", \"eliminate UNIT\")"}
	RetreatTowardSupply     = engine.Change{In: 2, Text: "10.5.6: a retreat goes to an adjacent area closest to a supply source of the retreating side; the attacking player's choice (\"retreat AREA\" for beaten defenders, \"fallback AREA\" for his own units) is honoured only among those"}
	LandingAttackRetreat    = engine.Change{In: 2, Text: "10.5.6, 9.16.1.2: the attacker names the retreat of the defenders of a port he lands at this turn (\"attack PORT [with UNITS] [retreat AREA]\")"}
	EliminatedZeroSteps     = engine.Change{In: 2, Text: "10.2: a unit eliminated by a combat result has 0 steps left (revision 1 showed -1)"}
	ArrivalsSupplied        = engine.Change{In: 2, Text: "7.4.3: units landing by sea or arriving by air are supplied that turn even if they were out of supply when they left"}
	OverstackingByLosses    = engine.Change{In: 2, Text: "11.1.5: units eliminated for overstacking are the first of the owner's \"losses\" order in the area, then the weakest"}
	CargoLossesChosen       = engine.Change{In: 2, Text: "9.10: a fleet's cargo loses, at the owner's choosing, the first unit aboard his \"losses\" order names (else half a supply unit first, as before)"}
	LeaveOnlyIntoSupply     = engine.Change{In: 2, Text: "10.5.1: a unit leaving an area it shares with the enemy may go only where it would not be out of supply (unless it is out of supply already, 7.5.1)"}
	BatteryHeldNoRoll       = engine.Change{In: 2, Text: "15.2.2, 9.16.1.2: a fleet the coastal batteries held undetected in the port box rolls no die for staying detected when it leaves"}
	NoEarlyPortAttack       = engine.Change{In: 2, Text: "18: the Allied player attacks no German-held Norwegian port before turn 6 by land either (it was only landings)"}
	LandingWithParatroops   = engine.Change{In: 2, Text: "9.16, 8.11: a landing's attack order may name the landing troops and the paratroops dropped on the port together"}
	LossesEliminateLines    = engine.Change{In: 2, Text: "10.5.6: the losses question offers eliminate lines only when the result eliminates a unit"}
	DockEmptyReport         = engine.Change{In: 2, Text: "9.10.1: a fleet that docks with nothing aboard is reported as docking (revision 1 said it unloaded nothing)"}
)

// changes lists every revision change, oldest revision first, in the
// order the revision list shows them.
var changes = []engine.Change{InvasionMarkedPortsOnly, OwnerDistributesLosses, RetreatTowardSupply, LandingAttackRetreat, EliminatedZeroSteps, ArrivalsSupplied, OverstackingByLosses, CargoLossesChosen, LeaveOnlyIntoSupply, BatteryHeldNoRoll, NoEarlyPortAttack, LandingWithParatroops, LossesEliminateLines, DockEmptyReport}

// Revisions implements engine.Reviser: the revision list built from the
// changes.
func (rules) Revisions() []engine.Revision { return engine.RevisionsOf(changes...) }

// rev is the rules revision the game is played under: 1 when the state
// records none.
func (s *State) rev() engine.Rev { return engine.RevOf(s.Revision) }

// rev is the View's rules revision (see State.rev).
func (v *View) rev() engine.Rev { return engine.RevOf(v.Revision) }
