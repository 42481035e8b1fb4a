package norway1940

import "skagerrak/engine"

// Revisions implements engine.Reviser: what each rules revision changed,
// one line a rule. A game is played under the revision it was created with
// (State.Revision); every change below keeps the old behaviour for games
// of revision 1 at the point that changed (s.rev() checks).
func (rules) Revisions() []engine.Revision {
	return []engine.Revision{
		{N: 1, Changes: []string{"the rules as first released"}},
		{N: 2, Changes: []string{
			"9.16, 9.16.1: on the invasion turn (turn 4) landings are made only at the ports marked on the map (grey for the German, red for the Allied); the secondary (anchor) ports take landings from turn 5",
			"10.5.6: the owner distributes his combat losses: his standing order \"losses UNIT ...\" (the first of them still in the combat takes each loss), or in person in a short phase (\"ask losses\": \"step UNIT\", \"eliminate UNIT\")",
			"10.5.6: a retreat goes to an adjacent area closest to a supply source of the retreating side; the attacking player's choice (\"retreat AREA\" for beaten defenders, \"fallback AREA\" for his own units) is honoured only among those",
			"10.5.6, 9.16.1.2: the attacker names the retreat of the defenders of a port he lands at this turn (\"attack PORT [with UNITS] [retreat AREA]\")",
			"10.2: a unit eliminated by a combat result has 0 steps left (revision 1 showed -1)",
			"7.4.3: units landing by sea or arriving by air are supplied that turn even if they were out of supply when they left",
			"11.1.5: units eliminated for overstacking are the first of the owner's \"losses\" order in the area, then the weakest",
			"9.10: a fleet's cargo loses, at the owner's choosing, the first unit aboard his \"losses\" order names (else half a supply unit first, as before)",
			"10.5.1: a unit leaving an area it shares with the enemy may go only where it would not be out of supply (unless it is out of supply already, 7.5.1)",
			"15.2.2, 9.16.1.2: a fleet the coastal batteries held undetected in the port box rolls no die for staying detected when it leaves",
			"18: the Allied player attacks no German-held Norwegian port before turn 6 by land either (it was only landings)",
			"9.16, 8.11: a landing's attack order may name the landing troops and the paratroops dropped on the port together",
			"10.5.6: the losses question offers eliminate lines only when the result eliminates a unit",
		}},
	}
}

// rev is the rules revision the game is played under: 1 when the state
// records none.
func (s *State) rev() int {
	if s.Revision < 1 {
		return 1
	}
	return s.Revision
}
