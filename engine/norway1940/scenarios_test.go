package norway1940

import (
	"strings"
	"testing"
)

// Scenarios worked out by hand from the rulebook and played through
// Resolve, player-turn after player-turn, with the dice given.

// Supply from turn 7 (7.1, 7.2, 7.4.2, 7.5, 7.5.1). The Allied player-turn
// of turn 6 ends; turn 7's weather rolls 1 (clear in every zone, 6.2). The
// German reorganisation of turn 7 is the first that checks supply: Oslo is
// not German, so the German has no supply source (7.2); 340 at Hamar is
// out of supply; 362, sharing Dombas with IR11, every area around it
// Allied, is out of supply and surrounded: it loses a step (7.5.1); 193 at
// Stavanger is supplied by the supply unit one area away at Egersund
// (7.4.2). 340 cannot attack IR4 at Tretten (7.5) but may move. In the
// Allied player-turn IR4 attacks it at Hamar: IR4 rolls 6, +1 against an
// unsupplied defender (7.5) = 7; 340 rolls 1, +2 = 3 (the Allied holds
// Hamar's city: no city bonus for the German entered by IR4, 14.1):
// differential 4, a retreat (10.5.3). Turn 8's weather rolls 1; 362, still
// surrounded and unsupplied, loses its last step.
func TestScenario7_SupplyFromTurn7(t *testing.T) {
	s := bare(t, 6, Allied)
	put(s, "340", "Hamar")
	put(s, "IR4", "Tretten")
	put(s, "362", "Dombas")
	put(s, "IR11", "Dombas")
	put(s, "193", "Stavanger")
	supplyAt(s, "Egersund")
	t7, _ := play(t, s, "", 1)
	if t7.Turn != 7 || t7.Phasing != German {
		t.Fatalf("phase %s", PhaseOf(t7).ID)
	}
	if !t7.unit("340").OOS || !t7.unit("362").OOS || t7.unit("193").OOS {
		t.Errorf("turn 7 supply: 340 %v, 362 %v, 193 %v; want out, out, supplied", t7.unit("340").OOS, t7.unit("362").OOS, t7.unit("193").OOS)
	}
	if t7.unit("362").Steps != 1 || !logHas(t7, "362, surrounded and out of supply at Dombas, loses a step") {
		t.Errorf("7.5.1: 362 %+v\n%s", t7.unit("362"), logText(t7))
	}
	if e := parseErr(t, t7, "move 340 Tretten\n"); e.Rule != "7.5" {
		t.Errorf("an unsupplied unit attacking: %+v", e)
	}
	if e := parseErr(t, t7, "attack Dombas with 362\n"); e.Rule != "7.5" {
		t.Errorf("an unsupplied unit attacking where it stands: %+v", e)
	}
	parseOK(t, t7, "move 340 Elverum\n") // 7.5: "they can move"
	a7, _ := play(t, t7, "")
	t8, _ := play(t, a7, "move IR4 Hamar\n", 6, 1, 1)
	if !logHas(t8, "allied 7 [+6 IR4 rolls d6, +1 defender out of supply (7.5)] against german 3") {
		t.Errorf("the attacker's +1 against the unsupplied 340:\n%s", logText(t8))
	}
	if t8.unit("340").Loc == "Hamar" || t8.controller("Hamar") != Allied {
		t.Errorf("340 retreats from Hamar:\n%s", logText(t8))
	}
	if u := t8.unit("362"); !u.Dead || u.Steps != 0 {
		t.Errorf("turn 8: 362 %+v, want its last step lost", u)
	}
}

// Coastal batteries at Oslo on the invasion turn (15.2.1, 15.2.2, 15.3.3,
// 15.2.3). G5 (6 combat points) brings 163 into Oslo, undefended. The two
// batteries roll 5 to detect it (15.2.1: 5-6 detected) and fire three
// times each (6, 1, 1 and 1, 1, 1): one hit, G5 down to 5; fewer than two
// hits, so the landing goes ahead (15.2.2). On the successful landing each
// battery rolls (15.3.3): 2, captured; 5, inoperative. In the next German
// player-turn the captured battery fires for its new owner at the Allied
// fleet held in the Oslo port box (15.2.3): 6, 6, 6, three hits, A20 from
// 4 to 1; the inoperative one does not fire.
func TestScenario15_CoastalBatteriesAtOslo(t *testing.T) {
	s := bare(t, 4, German)
	s.Invaded = false
	g := fleetAt(s, "G5", German, "South-1", 6, 0)
	u := put(s, "163", "")
	u.Loc, u.Fleet = "", g.ID
	g.Cargo = []string{"163"}
	next, d := play(t, s, "fleet G5 to Oslo\n", 5, 6, 1, 1, 1, 1, 1, 2, 5)
	if d.Used() != 9 {
		t.Errorf("%d dice, want 1 detection, 6 shots and 2 landing rolls", d.Used())
	}
	for _, want := range []string{"the coastal batteries at Oslo detect the fleet G5 (rolled 5)", "the coastal batteries at Oslo score 1 hit(s) on fleet G5",
		"fleet G5 lands 163 at Oslo", "coastal battery 1 at Oslo: captured (rolled 2)", "coastal battery 2 at Oslo: inoperative (rolled 5)"} {
		if !logHas(next, want) {
			t.Errorf("the log lacks %q:\n%s", want, logText(next))
		}
	}
	if p := next.pool(German, "german", "Oslo"); p.Combat != 5 || next.controller("Oslo") != German {
		t.Errorf("G5 docks at Oslo with 5 points: %+v", p)
	}
	var bats []string
	for _, b := range next.Bats {
		if b.Area == "Oslo" {
			bats = append(bats, string(b.Owner)+" "+b.Status)
		}
	}
	if strings.Join(bats, ", ") != "german active, german inoperative" {
		t.Errorf("Oslo batteries: %v", bats)
	}
	a := fleetAt(next, "A20", Allied, "Oslo", 4, 0)
	a.Failed, a.Detected = true, true
	t5, _ := play(t, next, "") // the Allied player-turn of turn 4
	t5b, d := play(t, t5, "", 6, 6, 6)
	if d.Used() != 3 || t5b.fleet("A20") == nil || t5b.fleet("A20").Combat != 1 {
		t.Errorf("the captured battery fires three shots: %d dice, A20 %+v\n%s", d.Used(), t5b.fleet("A20"), logText(t5b))
	}
}

// Anchored fleets at Bergen on the invasion turn (9.15.1 to 9.15.3,
// 15.2.1, 15.3.3, 18). G3 (6 combat) brings 159. The batteries roll 3:
// G3 is not detected (15.2.1: 1-4), so they do not fire, and the anchored
// Norwegian groups (17.2: 2+1+1+1+1+1+1) roll for readiness (9.15.2: 1-2
// fight): 1, 3, 4, 5, 6, 3, 2 — the first group (2) and the last (1) are
// ready: 3 of 8 points fight, 5 cannot. Combat, the anchored ships unable
// to evade: differential 3, G3 +1. Round 1: G3 4+1 = 5, 2 hits (3 to 1);
// the Norwegians 1: none. G3 won: the Continuation Table's 1 goes on.
// Round 2: differential 5, +2: 3+2 = 5, 2 hits: the last point sunk; the
// Norwegians 2: none. All the anchored points that could fight are sunk,
// so the 5 others are captured (9.15.3). 159 lands; each battery rolls
// (15.3.3): 1, captured; 6, destroyed. The supply ships sailed ahead land
// their supply unit (18); G3 docks: the German pool at Bergen is 5 + 6.
func TestScenario9_15_AnchoredFleetsAtBergen(t *testing.T) {
	s := bare(t, 4, German)
	s.Invaded = false
	g := fleetAt(s, "G3", German, "South-4", 6, 0)
	u := put(s, "159", "")
	u.Loc, u.Fleet = "", g.ID
	g.Cargo = []string{"159"}
	next, d := play(t, s, "fleet G3 to Bergen\n", 3, 1, 3, 4, 5, 6, 3, 2, 4, 1, 1, 3, 2, 1, 6)
	if d.Used() != 15 {
		t.Errorf("%d dice used, want 15", d.Used())
	}
	for _, want := range []string{"do not detect the fleet G3 (rolled 3)", "at Bergen 3 of 8 anchored naval points are ready to fight",
		"5 naval points anchored at Bergen cannot fight back", "fleet anchored-Bergen is sunk", "5 naval points anchored at Bergen are captured",
		"coastal battery 1 at Bergen: captured (rolled 1)", "coastal battery 2 at Bergen: destroyed (rolled 6)", "the supply ships sailed ahead land supply unit"} {
		if !logHas(next, want) {
			t.Errorf("the log lacks %q:\n%s", want, logText(next))
		}
	}
	if p := next.pool(German, "german", "Bergen"); p.Combat != 11 {
		t.Errorf("German pool at Bergen %+v, want 5 captured + 6", p)
	}
	if p := next.pool(Allied, "norwegian", "Bergen"); p.Combat != 0 {
		t.Errorf("Norwegian pool at Bergen %+v", p)
	}
	if next.controller("Bergen") != German || next.unit("159").Loc != "Bergen" || !next.Invaded {
		t.Errorf("the landing takes Bergen:\n%s", logText(next))
	}
}
