package sweden43

import "skagerrak/engine"

// The changes each rules revision made (engine.Change), in the order the
// revision list shows them; the rules ask for them by name where they fork
// (st.rev().Has(CRTEuropaCore)), so a game keeps the rules of the revision
// it was created with (State.Revision, omitted for revision 1).
var (
	CRTEuropaCore      = engine.Change{In: 2, Text: "2: the Combat Results Table of the Europa core: the published 2:1 column (1 AR, 2 AS, 3 AS, 4 EX, 5 HX, 6 DR), the rest reconstructed around it, modified rolls -1 to 8, every cell marked known or reconstructed; results AS (attack stalled) and EX (exchange) added, HX costs the attacker at least half the defender's strength"}
	AttackHalvings     = engine.Change{In: 2, Text: "2: attack strengths halved (exactly, halvings compounding) attacking into mountain (but mountain units), full and partial cities, across a river (a major river quarters), by unsupported units and by units out of supply, artillery not halved by rivers or cities; rivers give no die modifier"}
	ArmourEffects      = engine.Change{In: 2, Text: "2: armour effects by proportion of REs: attacker +3/+2/+1 (all, half, a seventh with AEC), defender AECD -2/-2/-1, or ATEC -4/-2/-1 against a full or half AEC attacker; none in No AEC terrain"}
	ExploitHalfMove    = engine.Change{In: 2, Text: "2: exploitation: only c/m units that used no more than half their movement allowance in the movement phase"}
	IncrementalFaces   = engine.Change{In: 2, Text: "34A: no incremental dice when the odds have no fraction; 00 on the ten-sided dice never raises the odds (34A1 and 34A2 alike); a ten-sided die's 0 face reads 0"}
	MountainCadre      = engine.Change{In: 2, Text: "29B: an infantry division cadre includes a mountain division's (the 2Mtn cadre may be rebuilt)"}
	SurrenderToCome    = engine.Change{In: 2, Text: "28B1: a surrender removes the Allied forces still to come as well"}
	DivisionZOC        = engine.Change{In: 2, Text: "2: zones of control: only divisions at full strength exert them; leaving an enemy ZOC costs 2 MP more (was 1), moving straight from one enemy ZOC into another 3 MP more (was forbidden)"}
	BreakoutAtTurnOpen = engine.Change{In: 3, Text: "26A: the Swedish navy's breakout roll is made as the German Jul I 43 turn opens (\"the Allied player rolls two dice at the start of the German Jul I 43 turn\"), so that the German's report of the turn states the result before he writes his orders, and a manual-dice game asks for the two dice then; revisions 1 and 2 rolled them as the German movement phase resolved, after his orders"}
)

// changes lists every revision change, oldest revision first.
var changes = []engine.Change{CRTEuropaCore, AttackHalvings, ArmourEffects, ExploitHalfMove, IncrementalFaces, MountainCadre, SurrenderToCome, DivisionZOC, BreakoutAtTurnOpen}

// Revisions implements engine.Reviser: the revision list built from the
// changes.
func (rules) Revisions() []engine.Revision { return engine.RevisionsOf(changes...) }

// rev is the rules revision the game is played under.
func (s *State) rev() engine.Rev { return engine.RevOf(s.Revision) }
