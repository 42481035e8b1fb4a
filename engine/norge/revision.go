package norge

import "skagerrak/engine"

// Revisions implements engine.Reviser: what each revision of the rules
// changed. A game is played under the revision it was created with; the
// code keeps every earlier revision's behaviour where a later one forks,
// behind a check of State.rev.
func (rules) Revisions() []engine.Revision {
	return []engine.Revision{
		{N: 1, Changes: []string{"the rules as first released"}},
		{N: 2, Changes: []string{
			"6.2, 16.1: the para battalion next to Fornebu (FJ2) starts on B:D3, no longer on B:C3 with the Norwegian artillery NAR1: enemies never share a hex",
			"12.2: a failed landing from a battleship puts its troops on the quays hex, reduced, instead of keeping them aboard; next turn they try again (disembark SHIP), unless the enemy holds the port, when the battleship may embark them again (embark SHIP UNIT ...)",
			"11.4: a battleship's landing no longer counts as the one convoy a port may serve in a turn; a disembark order for a battleship's first landing on turn 1, which is made by itself, is refused (12.2)",
			"12.3: a convoy's failed landing likewise leaves its troops on the quays, reduced (\"Same rules as for battleships\"); the reduced convoy may take them back once the enemy holds the port",
			"12.5: a battleship's landing in a port under German control always succeeds, as a convoy's does",
			"12.1, 16.1: no landing onto a quays hex held by enemy units",
			"12.7, 13.4: an attack order with a unit flown in by the same orders is refused when the orders are read (13.4), instead of being cancelled when they are carried out",
			"12.2, 12.7: a move, ferry or attack order for the troops a battleship's new landing takes from the quays into the port (disembark SHIP in the same orders) is refused when the orders are read, instead of being cancelled when they are carried out; taking those troops back aboard is logged under 12.2",
			"16.4: an attacker that retreats (a1, a2) loses its RT marker at the end of its own attack phase, the one it retreated in, and may attack next turn; revision 1 kept the marker through its next attack phase",
			"15.3: a blown bridge is repaired after \"2 full turns\" next to it: the turn it is blown, or a unit arrives, no longer counts as one",
		}},
	}
}

// rev1Starts are the set-up hexes of revision 1 where the data pack has
// since been corrected.
var rev1Starts = map[string]string{"FJ2": "B:C3"}
