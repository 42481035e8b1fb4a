package norway1940

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// egersund: the 10.5.8 stack (159 and its artillery 169A) at Egersund
// against IR14; Kristiansand and Stavanger, next to Egersund, are free.
func egersund(t *testing.T) *State {
	s := bare(t, 8, German)
	put(s, "159", "Egersund")
	put(s, "169A", "Egersund")
	put(s, "IR14", "Egersund")
	return s
}

// 10.5.6: "the attacking player chooses where the losing units are to
// retreat. A retreat must be conducted towards the closest supply source."
// By hand: the Allied supply sources are the cities and ports not German
// (7.2). Next to Egersund are Kristiansand and Stavanger (ports: sources
// themselves, distance 0) and Evje (no city, one area from Kristiansand:
// distance 1). So IR14 may retreat to Kristiansand or Stavanger, not Evje.
// Faces 5, 3, 6 give the 10.5.8 differential of 6 (a step and a retreat).
func TestRule10_5_6_RetreatTowardsTheClosestSupplySource(t *testing.T) {
	s := egersund(t)
	e := parseErr(t, s, "attack Egersund retreat Evje\n")
	if e.Rule != "10.5.6" || e.Valid != "retreat Kristiansand | retreat Stavanger" {
		t.Errorf("a retreat away from the closest supply source: %+v", e)
	}
	next, _ := play(t, s, "attack Egersund retreat Stavanger\n", 5, 3, 6)
	if u := next.unit("IR14"); u.Loc != "Stavanger" || u.Steps != 1 {
		t.Errorf("the attacker's choice among the closest: IR14 %+v\n%s", u, logText(next))
	}
	// Naming none, the first of them (the attacker's default).
	next, _ = play(t, egersund(t), "attack Egersund\n", 5, 3, 6)
	if u := next.unit("IR14"); u.Loc != "Kristiansand" {
		t.Errorf("no retreat named: IR14 in %s, want Kristiansand", u.Loc)
	}
	// Revision 1 honoured any free adjacent area.
	r1 := egersund(t)
	r1.Revision = 0
	next, _ = play(t, r1, "attack Egersund retreat Evje\n", 5, 3, 6)
	if u := next.unit("IR14"); u.Loc != "Evje" {
		t.Errorf("revision 1: IR14 in %s, want Evje", u.Loc)
	}
}

// 10.5.6: the attacking player chooses the retreat of his own beaten
// units too ("fallback AREA"). By hand: the German holds Oslo, Kristiansand
// and Stavanger, all linked to Oslo by areas free of Allied units (Oslo,
// Drammen, Kongsberg, Arendal, Kristiansand; Oslo, Honefoss, Gol, Voss,
// Bergen, Stavanger), so both are German supply sources (7.2) next to
// Egersund; Evje is one area further. 159 alone rolls 1: 1+2 = 3 (infantry
// only: combined arms 0); IR14 rolls 6: 6. Differential 3 for the Allied:
// "3-4: retreat 1 area" (10.5.3), no step lost.
func TestRule10_5_6_AttackerChoosesHisOwnFallback(t *testing.T) {
	setup := func() *State {
		s := bare(t, 8, German)
		put(s, "159", "Egersund")
		put(s, "IR14", "Egersund")
		for _, a := range []string{"Oslo", "Kristiansand", "Stavanger"} {
			s.setControl(a, German)
		}
		return s
	}
	if e := parseErr(t, setup(), "attack Egersund fallback Evje\n"); e.Rule != "10.5.6" || e.Valid != "fallback Kristiansand | fallback Stavanger" {
		t.Errorf("a fallback away from the closest supply source: %+v", e)
	}
	next, _ := play(t, setup(), "attack Egersund fallback Stavanger\n", 1, 6)
	if u := next.unit("159"); u.Loc != "Stavanger" || u.Steps != 2 {
		t.Errorf("159 %+v, want it back in Stavanger with both steps:\n%s", u, logText(next))
	}
	next, _ = play(t, setup(), "attack Egersund\n", 1, 6)
	if u := next.unit("159"); u.Loc != "Kristiansand" {
		t.Errorf("no fallback named: 159 in %s, want Kristiansand", u.Loc)
	}
	r1 := setup()
	r1.Revision = 0
	if e := parseErr(t, r1, "attack Egersund fallback Stavanger\n"); e.Rule != "10.5" {
		t.Errorf("revision 1 has no fallback: %+v", e)
	}
}

// lossesSetup: 159 and 169A attack Egersund, held by IR8 and IR14 (both
// infantry regiments of 2 steps, modifier 0; IR8 comes first in the order
// of battle). Faces 6, 4 for the Germans: 6+2 and d3 2+2, +1 combined
// arms = 13; faces 3, 2 for IR8 and IR14: 5. Differential 8: "7-8: retreat
// 1 area + 1 step losses", read as 2 (data/tables.txt).
func lossesSetup(t *testing.T, phasing engine.Side) *State {
	s := egersund(t)
	s.Phasing = phasing
	put(s, "IR8", "Egersund")
	return s
}

var lossesDice = []int{6, 4, 3, 2}

// 10.5.6: "the owner always chooses how to distribute his combat losses."
// Without a losses order the two steps go as revision 1 did: the first to
// the unit with the most steps (a tie: IR8, first), the second to IR14
// (now the one with more): each keeps one step and they retreat. The
// Allied "losses IR14" in his own player-turn puts both on IR14, which is
// eliminated with 0 steps; IR8 retreats whole.
func TestRule10_5_6_OwnerDistributesHisLosses(t *testing.T) {
	plain, _ := play(t, lossesSetup(t, German), "attack Egersund\n", lossesDice...)
	if a, b := plain.unit("IR8"), plain.unit("IR14"); a.Steps != 1 || b.Steps != 1 || a.Loc != "Kristiansand" || b.Loc != "Kristiansand" {
		t.Errorf("default distribution: IR8 %+v IR14 %+v\n%s", a, b, logText(plain))
	}
	s := lossesSetup(t, Allied)
	supplyAt(s, "Egersund") // the German stack supplied on turn 9 (7.4.2)
	if e := parseErr(t, s, "losses 159\n"); e.Rule != "10.5.6" {
		t.Errorf("a losses order naming an enemy unit: %+v", e)
	}
	// The Allied player-turn of turn 8, then the weather of turn 9 (face 1:
	// clear everywhere).
	mid, _ := play(t, s, "losses IR14 IR8\n", 1)
	if got := strings.Join(mid.side(Allied).Standing.Losses, " "); got != "IR14 IR8" || mid.Phasing != German || mid.Turn != 9 {
		t.Fatalf("standing losses %q in %s", got, PhaseOf(mid).ID)
	}
	next, _ := play(t, mid, "attack Egersund\n", lossesDice...)
	a, b := next.unit("IR8"), next.unit("IR14")
	if !b.Dead || b.Steps != 0 || a.Steps != 2 || a.Loc != "Kristiansand" {
		t.Errorf("the owner's order: IR8 %+v, IR14 %+v\n%s", a, b, logText(next))
	}
	if got := formatOrder(parseOK(t, s, "losses ir14 8IR\n").Lines[0]); got != "losses IR14 IR8" {
		t.Errorf("formatted %q", got)
	}
}

// 10.2: "A unit is eliminated when it loses 2 steps in combat." An "all
// units eliminated" result leaves IR14 with 0 steps, not -1. By hand:
// faces 6, 6: 6+2, d3 3+2, +1 = 14 against face 1: 1; differential 13:
// "11+: all units eliminated" (10.5.3).
func TestRule10_2_AllUnitsEliminatedHaveNoStepsLeft(t *testing.T) {
	next, _ := play(t, egersund(t), "attack Egersund\n", 6, 6, 1)
	if u := next.unit("IR14"); !u.Dead || u.Steps != 0 {
		t.Errorf("IR14 %+v, want eliminated with 0 steps", u)
	}
	for _, u := range viewOf(next, Allied).Units {
		if u.ID == "IR14" && u.Steps != 0 {
			t.Errorf("the Allied view shows IR14 with %d steps", u.Steps)
		}
	}
	r1 := egersund(t)
	r1.Revision = 0
	if next, _ = play(t, r1, "attack Egersund\n", 6, 6, 1); next.unit("IR14").Steps != -1 {
		t.Errorf("revision 1 kept its -1: %+v", next.unit("IR14"))
	}
}

// 10.5.6 in person: with "ask losses" the Allied takes the distribution in
// a short phase owed by him alone; the same decision gives the same
// outcome as the standing order.
func TestRule10_5_6_AskLossesShortPhase(t *testing.T) {
	r := Ruleset{}
	s := lossesSetup(t, German)
	s.side(Allied).Standing.Ask = []string{AskLosses}
	mid, _ := resolveWith(t, s, German, "attack Egersund\n", lossesDice)
	ph := r.Phase(mid)
	if ph.ID != "T08-german-react" || len(ph.Owes) != 1 || ph.Owes[0] != Allied || !strings.Contains(ph.Title, "10.5.6") {
		t.Fatalf("short phase %+v", ph)
	}
	q := r.View(mid, Allied).(*View).Ask
	if q == nil || q.Kind != AskLosses || q.Rule != "10.5.6" || q.Box != "Egersund" || q.Steps != 2 || q.Elim != 0 || len(q.Losses) != 2 {
		t.Fatalf("question %+v", q)
	}
	if got := strings.Join(q.Default, ";"); got != "step IR8;step IR14" {
		t.Errorf("default %q, want the standing distribution", got)
	}
	if got := r.FormatOrders(mid, Allied, r.DefaultOrders(mid, Allied)); got != "step IR8\nstep IR14\n" {
		t.Errorf("DefaultOrders %q", got)
	}
	for bad, why := range map[string]string{
		"step IR14\nstep IR14\nstep IR14\n": "IR14 has no step left",
		"step IR14\n":                       "1 step loss(es) and 0",
		"eliminate IR8\nstep IR14\n":        "1 step loss(es) and 1",
		"step 159\nstep IR14\n":             "not one of your beaten units",
		"pass\n":                            "not a decision of this phase",
	} {
		_, errs := r.ParseOrders(mid, Allied, bad)
		if len(errs) == 0 || errs[0].Rule != "10.5.6" || !strings.Contains(errs[0].Msg, why) {
			t.Errorf("%q: %v, want %q", bad, errs, why)
		}
	}
	end, _ := resolveWith(t, mid, Allied, "step ir14\nSTEP IR14\n", nil)
	if end.Pending != nil || !end.unit("IR14").Dead || end.unit("IR8").Steps != 2 {
		t.Fatalf("after the decision: %s, IR8 %+v IR14 %+v", PhaseOf(end).ID, end.unit("IR8"), end.unit("IR14"))
	}
	std := lossesSetup(t, German)
	std.side(Allied).Standing.Losses = []string{"IR14"}
	want, _ := resolveWith(t, std, German, "attack Egersund\n", lossesDice)
	sameOutcome(t, "losses in person vs the standing order", end, want)
}

// 9.16, 10.5.6: after an amphibious landing the attacker names the
// retreat of the port's defenders. By hand: the Allied brigade 146 lands
// at Namsos, held by the German 138; 146 rolls 6 (modifier 0) = 6, 138
// rolls 1 +2 = 3, Namsos an unrated city (+0): differential 3, "retreat 1
// area". The German holds Oslo and Trondheim and Steinkjer (an unrated
// city, a source), linked to Oslo by the Dovre line and Stjordal: of the
// areas next to Namsos, Steinkjer is a source (distance 0) and Grong one
// area from it, so 138 retreats to Steinkjer; "retreat Grong" is refused.
func TestRule10_5_6_AttackerNamesTheRetreatAfterALanding(t *testing.T) {
	setup := func() *State {
		s := bare(t, 8, Allied)
		for _, a := range []string{"Namsos", "Oslo", "Trondheim", "Steinkjer"} {
			s.setControl(a, German)
		}
		put(s, "138", "Namsos")
		f := fleetAt(s, "A20", Allied, "Centre-3", 2, 3)
		u := put(s, "146", "")
		u.Loc, u.Fleet = "", f.ID
		f.Cargo = []string{"146"}
		return s
	}
	e := parseErr(t, setup(), "fleet A20 to Namsos\nattack Namsos retreat Grong\n")
	if e.Rule != "10.5.6" || e.Line != 2 || e.Valid != "retreat Steinkjer" {
		t.Errorf("retreat away from the closest source: %+v", e)
	}
	if e := parseErr(t, setup(), "fleet A20 to Namsos\nattack Namsos fallback Grong\n"); e.Rule != "10.5.6" || !strings.Contains(e.Msg, "re-embark") {
		t.Errorf("a landing force has no fallback: %+v", e)
	}
	if e := parseErr(t, setup(), "fleet A20 to Namsos\nattack Namsos with 24G\n"); e.Rule != "10.5" {
		t.Errorf("a unit not landing there: %+v", e)
	}
	next, _ := play(t, setup(), "fleet A20 to Namsos\nattack Namsos with 146 retreat Steinkjer\n", 6, 1)
	if u := next.unit("138"); u.Loc != "Steinkjer" || next.unit("146").Loc != "Namsos" || next.controller("Namsos") != Allied {
		t.Errorf("138 in %s, 146 in %s:\n%s", u.Loc, next.unit("146").Loc, logText(next))
	}
	r1 := setup()
	r1.Revision = 0
	if e := parseErr(t, r1, "fleet A20 to Namsos\nattack Namsos retreat Steinkjer\n"); e.Rule != "10.5" || e.Line != 2 {
		t.Errorf("revision 1 refused the attack order of a landing: %+v", e)
	}
}

// 11.1.5: "the owning player must eliminate enough units of his choosing".
// By hand: Hamar holds the German 340, 345 and 362 (3 regiments, 9
// battalion equivalents, 2 over the limit of 7) at the end of the German
// player-turn; the German's losses order names 362: it goes, not the
// first of the weakest.
func TestRule11_1_5_OverstackLosesTheUnitsTheOwnerNames(t *testing.T) {
	s := bare(t, 8, German)
	for _, id := range []string{"340", "345", "362"} {
		put(s, id, "Hamar")
	}
	next, _ := play(t, s, "losses 362\n")
	if !next.unit("362").Dead || next.unit("340").Dead || next.unit("345").Dead {
		t.Errorf("the owner's choice: %s", logText(next))
	}
}
