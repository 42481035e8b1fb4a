package norway1940

import (
	"strings"
	"testing"
)

// Scenarios refereed by hand in round 2 (issue 17's method): worked out
// from the rulebook text, played through the CLI with manual dice, and,
// where the engine disagreed, fixed in rules revision 2 (revision 1 keeps
// what it did).

// TestRule18_NoAlliedAttackOnGermanPortsBeforeTurn6: 18 "The Allied player
// cannot attack Norwegian ports controlled by the Germans until the April
// 11th turn" (turn 6, data/calendar.txt). On the invasion turn the German
// 310 takes Kristiansand and IR7 retreats to Egersund; in the Allied
// player-turn of turn 4 "move IR7 Kristiansand" would attack the German-held
// port by land: refused (rule 18). On turn 6 it is allowed. Revision 1
// barred only the landings and accepted the move.
func TestRule18_NoAlliedAttackOnGermanPortsBeforeTurn6(t *testing.T) {
	for _, c := range []struct {
		rev, turn int
		refused   bool
	}{{2, 4, true}, {2, 5, true}, {2, 6, false}, {1, 4, false}} {
		s := bare(t, c.turn, Allied)
		if c.rev == 1 {
			s.Revision = 0
		}
		put(s, "310", "Kristiansand")
		s.setControl("Kristiansand", German)
		put(s, "IR7", "Egersund")
		_, errs := parseOrders(s, Allied, "move IR7 Kristiansand\n")
		if got := len(errs) > 0; got != c.refused {
			t.Errorf("revision %d, turn %d: errors %v, want refused %v", c.rev, c.turn, errs, c.refused)
			continue
		}
		if c.refused && (errs[0].Rule != "18" || errs[0].Line != 1 || !strings.Contains(errs[0].Msg, "April 11th")) {
			t.Errorf("revision %d, turn %d: %+v, want line 1, rule 18", c.rev, c.turn, errs[0])
		}
	}
}

// TestRule15_2_2_AFleetHeldUndetectedRollsNothingLeaving: 15.2.2 "The
// fleet would be stuck as undetected in the port box, unable to move until
// the next game turn"; 9.16.1.2's die on leaving ("on 1-3, the fleet
// remains detected; on 4-6, the fleet becomes undetected") is for a fleet
// whose landing failed and that was detected. G3, paralysed at Bergen on
// turn 4 and undetected, sails to South-4 on turn 5: no die, and it stays
// undetected. A fleet whose landing failed in combat (detected, 9.7.4)
// rolls it: 4, undetected. Revision 1 rolled the die for both.
func TestRule15_2_2_AFleetHeldUndetectedRollsNothingLeaving(t *testing.T) {
	for _, c := range []struct {
		rev      int
		detected bool
		dice     int
	}{{2, false, 0}, {2, true, 1}, {1, false, 1}} {
		s := bare(t, 5, German)
		if c.rev == 1 {
			s.Revision = 0
		}
		g := fleetAt(s, "G3", German, "Bergen", 4, 0)
		g.Failed, g.Detected = true, c.detected
		g.Stuck = map[bool]int{false: 4, true: 0}[c.detected]
		u := put(s, "159", "")
		u.Loc, u.Fleet = "", "G3"
		g.Cargo = []string{"159"}
		next, d := play(t, s, "fleet G3 to South-4\n", 4)
		if d.Used() != c.dice {
			t.Errorf("revision %d, detected %v: %d dice rolled, want %d\n%s", c.rev, c.detected, d.Used(), c.dice, logText(next))
		}
		if f := next.fleet("G3"); f == nil || f.Where != "South-4" || f.Detected {
			t.Errorf("revision %d, detected %v: fleet %+v, want undetected in South-4", c.rev, c.detected, f)
		}
	}
}

// TestRule9_10_TheOwnerChoosesTheCargoLost: 9.10 "4 transport points may
// carry a regimental land unit and ½ a supply unit. If the transport
// fleet suffers one loss in naval combat, ½ a supply unit or a step from
// the regimental unit would be lost, at the owner's choosing." A German
// fleet of 4 transport points carries 159 (3 points) and half a supply
// unit (1); one loss leaves 3 points for 4 of cargo: one point is lost.
// With his standing order "losses 159" the German keeps the supplies and
// 159 loses a step; without one the half supply unit goes. Revision 1
// always took the supplies.
func TestRule9_10_TheOwnerChoosesTheCargoLost(t *testing.T) {
	for _, c := range []struct {
		rev    int
		losses []string
		step   bool // 159 loses the step (else the supplies go)
	}{{2, []string{"159"}, true}, {2, nil, false}, {1, []string{"159"}, false}} {
		s := bare(t, 8, German)
		if c.rev == 1 {
			s.Revision = 0
		}
		f := fleetAt(s, "G8", German, "South-2", 0, 4)
		u := put(s, "159", "")
		u.Loc, u.Fleet = "", "G8"
		sup := supplyAt(s, "")
		sup.Steps, sup.Fleet = 1, "G8"
		f.Cargo = []string{"159", sup.ID}
		s.side(German).Standing.Losses = c.losses
		takeNavalLosses(s, f, 1)
		gotStep := s.unit("159").Steps == 1 && !sup.Dead
		gotSup := s.unit("159").Steps == 2 && sup.Dead
		if (c.step && !gotStep) || (!c.step && !gotSup) {
			t.Errorf("revision %d, losses %v: 159 %d steps, supplies dead %v", c.rev, c.losses, s.unit("159").Steps, sup.Dead)
		}
	}
}

// TestRule10_5_1_LeavingTheEnemyOnlyForASuppliedArea: 10.5.1 "Units
// starting their Movement Phase sharing an area with enemy units may
// attack or move to another area ... where the unit wouldn't be out of
// supply." Turn 8, Oslo Allied: the German has no supply source (7.2), so
// 340 at Hamar (which IR4 shares) is supplied only by the supply unit
// stacked with it (7.4.2: stacked or within one area). "move 340 Elverum"
// stays within one area of it: accepted. "move 340 Elverum Alvdal" ends
// two areas away, out of supply: refused (10.5.1). Revision 1 accepted
// both.
func TestRule10_5_1_LeavingTheEnemyOnlyForASuppliedArea(t *testing.T) {
	for _, rev := range []int{1, 2} {
		s := bare(t, 8, German)
		if rev == 1 {
			s.Revision = 0
		}
		put(s, "340", "Hamar")
		put(s, "IR4", "Hamar")
		supplyAt(s, "Hamar")
		parseOK(t, s, "move 340 Elverum\n")
		_, errs := parseOrders(s, German, "move 340 Elverum Alvdal\n")
		if refused := len(errs) > 0; refused != (rev == 2) {
			t.Errorf("revision %d: %v", rev, errs)
		} else if refused && (errs[0].Rule != "10.5.1" || errs[0].Line != 1) {
			t.Errorf("revision %d: %+v, want line 1, rule 10.5.1", rev, errs[0])
		}
	}
}
