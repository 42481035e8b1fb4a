package sweden43

import "skagerrak/engine"

// Revisions implements engine.Reviser. Revision 1 is the rules as first
// released; a game keeps the revision it was created with (State.Revision,
// omitted for revision 1), and the rules check it where they changed.
func (rules) Revisions() []engine.Revision {
	return []engine.Revision{
		{N: 1, Changes: []string{"the rules as first released"}},
		{N: 2, Changes: []string{
			"2: the Combat Results Table of the Europa core: the published 2:1 column (1 AR, 2 AS, 3 AS, 4 EX, 5 HX, 6 DR), the rest reconstructed around it, modified rolls -1 to 8, every cell marked known or reconstructed; results AS (attack stalled) and EX (exchange) added, HX costs the attacker at least half the defender's strength",
			"2: attack strengths halved (exactly, halvings compounding) attacking into mountain (but mountain units), full and partial cities, across a river (a major river quarters), by unsupported units and by units out of supply, artillery not halved by rivers or cities; rivers give no die modifier",
			"2: armour effects by proportion of REs: attacker +3/+2/+1 (all, half, a seventh with AEC), defender AECD -2/-2/-1, or ATEC -4/-2/-1 against a full or half AEC attacker; none in No AEC terrain",
			"2: exploitation: only c/m units that used no more than half their movement allowance in the movement phase",
			"34A: no incremental dice when the odds have no fraction; 00 on the ten-sided dice never raises the odds (34A1 and 34A2 alike); a ten-sided die's 0 face reads 0",
			"29B: an infantry division cadre includes a mountain division's (the 2Mtn cadre may be rebuilt)",
			"28B1: a surrender removes the Allied forces still to come as well",
		}},
		{N: 3, Changes: []string{
			"26A: the Swedish navy's breakout roll is made as the German Jul I 43 turn opens (\"the Allied player rolls two dice at the start of the German Jul I 43 turn\"), so that the German's report of the turn states the result before he writes his orders, and a manual-dice game asks for the two dice then; revisions 1 and 2 rolled them as the German movement phase resolved, after his orders",
		}},
	}
}

// rev is the rules revision the game is played under.
func (s *State) rev() int {
	if s.Revision == 0 {
		return 1
	}
	return s.Revision
}
