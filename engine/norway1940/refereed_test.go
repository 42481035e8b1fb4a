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

// TestRule18_TheOsloLandingAsRefereed is the Oslo landing of 9 April as
// refereed through the CLI. G5 (6 combat points) lands 307 at Oslo; the
// batteries roll 1 for detection (15.2.1: 1-4 undetected) and do not
// fire; FJ2 drops on Oslo (8.8, 8.11: always successful) and the German
// attacks with both ("attack Oslo with 307 FJ2 retreat Fredrikstad": the
// landing troops and the paratroops dropped on the port). 307 rolls 4 +2,
// FJ2 rolls 3 on its d3 (a 6 of the test's d6 faces) +2, +3 for the Oslo landing (18): 14. IR2 rolls 6
// +0, +1 for the AA battalion with it (10.2.6), +2 for Oslo's city (14.1):
// 9. Differential 5: retreat and 1 step loss (10.5.3). The Allied player,
// who asks to take his losses in person, is offered only step lines (the
// result eliminates no unit) and gives the step to AAOslo, its only step:
// it is eliminated; IR2 retreats to Fredrikstad, the German's choice and
// a supply source (a port not German, 7.2). Oslo is German (3 VP); the
// batteries roll 1, captured, and 6, destroyed (15.3.3).
func TestRule18_TheOsloLandingAsRefereed(t *testing.T) {
	r := Ruleset{}
	s := bare(t, 4, German)
	s.Invaded, s.AlliedLanded = false, false
	g := fleetAt(s, "G5", German, "South-2", 6, 0)
	u := put(s, "307", "")
	u.Loc, u.Fleet = "", "G5"
	g.Cargo = []string{"307"}
	put(s, "FJ2", "Para")
	put(s, "IR2", "Oslo")
	put(s, "AAOslo", "Oslo")
	s.side(Allied).Standing.Ask = []string{AskLosses}
	mid, _ := resolveWith(t, s, German, "fleet G5 to Oslo\nair para FJ2 Oslo\nattack Oslo with 307 FJ2 retreat Fredrikstad\n", []int{1, 4, 6, 6})
	q := r.View(mid, Allied).(*View).Ask
	if q == nil || q.Kind != AskLosses || q.Steps != 1 || q.Elim != 0 {
		t.Fatalf("question %+v\n%s", q, logText(mid))
	}
	if got := strings.Join(q.Choices, " | "); got != "step IR2 | step AAOslo" && got != "step AAOslo | step IR2" {
		t.Errorf("choices %q: a result that eliminates no unit offers only step lines", got)
	}
	end, d := resolveWith(t, mid, Allied, "step AAOslo\n", []int{1, 6})
	if d.Used() != 2 {
		t.Errorf("%d dice after the decision, want the 2 battery rolls", d.Used())
	}
	if !end.unit("AAOslo").Dead || end.unit("IR2").Steps != 2 || end.unit("IR2").Loc != "Fredrikstad" || end.controller("Oslo") != German {
		t.Errorf("AAOslo %+v, IR2 %+v, Oslo %s\n%s", end.unit("AAOslo"), end.unit("IR2"), end.controller("Oslo"), logText(end))
	}
	var bats []string
	for _, b := range end.Bats {
		if b.Area == "Oslo" {
			bats = append(bats, string(b.Owner)+" "+b.Status)
		}
	}
	if strings.Join(bats, ", ") != "german active, allied destroyed" {
		t.Errorf("Oslo batteries %v, want one captured and one destroyed", bats)
	}
}
