package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// Scenarios refereed by hand in round 2 (issue 17's method): each outcome
// was worked out from the rulebook text, with the arithmetic in the
// comment, then played through the CLI with manual dice; where the engine
// disagreed, the fix is in rules revision 2 and revision 1 keeps what it
// did.

// TestRule8_3_EveryPursuitEndsInAnEvasionDetermination: 8.3 "when one
// player chooses Fight and the other chooses Track, a special pursuit
// battle is triggered ... After the above combat ends, the Germans (or the
// Norwegian/Danish forces) must make an evasion determination". Arethusa
// finds Hipper at B12 on the morning of 8 April (turn 2); the Allies
// choose fight, the Germans track: a pursuit battle. Hipper fires as
// gunnery 2 (two rolls, 1+1 and 1+1: 2 is nothing against a cruiser),
// Arethusa answers with 1 (1+1, nothing). Then the evasion determination:
// Hipper 5+4 = 9 against Arethusa 5+5 = 10, -1: evades on 2-4 (the 6.44
// example); 3+3 = 6 fails, so Arethusa tracks Hipper. 8 dice.
//
// Revision 1 made the determination only when the Allies chose Track: 6
// dice, no tracking.
func TestRule8_3_EveryPursuitEndsInAnEvasionDetermination(t *testing.T) {
	for rev, dice := range map[int][]int{1: ones(6), 2: append(ones(6), 3, 3)} {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		s.Turn = 2
		put(t, s, "arethusa", "B12")
		put(t, s, "hipper", "B12")
		s, _ = resolveExactly(t, s, "search surface Arethusa\nencounter Arethusa fight", "encounter all track", dice...)
		if logWith(s, 2, "Encounter at B12", "pursuit") == nil {
			t.Fatalf("revision %d: no pursuit battle: %v", rev, s.Log)
		}
		tracked := len(s.Tracks) == 1 && s.Tracks[0].Tracker == Allied && strings.Join(s.Tracks[0].TrackedUnits, ",") == "hipper"
		if tracked != (rev == 2) {
			t.Errorf("revision %d: tracks %+v", rev, s.Tracks)
		}
	}
}

// TestRule8_3_TheGermanPlayerChoosesWhoFires: 8.3 "The German player
// selects 1 of his own ships in the combat hex and fires". Arethusa and
// Glowworm meet Hipper and Emden at B12 (turn 2); the Allies track (their
// standing default), the Germans fight: a pursuit battle. The German order
// "target Emden DD" is his choice: Emden fires as gunnery 2 at Glowworm.
// 5+5 = 10 hits a destroyer (9-12 on the light column): Glowworm, hit
// capacity 1, sinks and cannot answer (8.3, revision 2); 1+1 misses. The
// evasion determination: the Germans' slowest, Emden 4+4 = 8, against
// Arethusa's 10 (Glowworm is gone), -2: evades on 2-3; 1+1 = 2 evades.
// 6 dice. Without his order the engine would fire his strongest ship,
// Hipper, at the Allies' strongest, Arethusa.
func TestRule8_3_TheGermanPlayerChoosesWhoFires(t *testing.T) {
	s := newGameRev(t, 2, nil)
	clearMap(s)
	s.Turn = 2
	for _, id := range []string{"arethusa", "glowworm", "hipper", "emden"} {
		put(t, s, id, "B12")
	}
	s, _ = resolveExactly(t, s, "search surface Arethusa", "encounter all fight\ntarget Emden DD", 5, 5, 1, 1, 1, 1)
	if e := logWith(s, 2, "Special pursuit battle", "Emden fires at Glowworm", "Glowworm is sunk before it can answer"); e == nil {
		t.Fatalf("the pursuit battle did not follow the German's choice: %v", s.Log)
	}
	if s.unit("glowworm").Where != AtSunk || len(s.Tracks) != 0 {
		t.Errorf("Glowworm %s, tracks %+v: sunk, and the Germans evade", s.unit("glowworm").Where, s.Tracks)
	}
}

// TestRule8_28_TargetOrdersAimTorpedoes: 8.28 "After allocating torpedo
// strength to targets"; the 8.23 example: "Glasgow may make a torpedo
// attack against any 1 German surface ship taking part". Arethusa finds
// DD Flot I and Hipper at B12 (turn 2) and fights; her order "target
// Arethusa DD" names her target. The Germans want to evade: the evasion
// determination first (6.41), their slowest Hipper 9 against 10, evades on
// 2-4: 6+6 fails, a battle. Round 1: Arethusa's gunnery 2 at DD Flot I,
// DD Flot I's 4 and Hipper's 4 at Arethusa, every roll 1+1 (nothing): 20
// dice; the Germans hold their torpedoes. Arethusa's one torpedo goes at
// DD Flot I: 1+1 = 2, the fatal flooding table (3 or less), a 2: 1
// flooding, which a destroyer task force takes as a hit (8.64): DD Flot I
// loses a ship. The 8.24 check: Arethusa (5) fights, the Germans (slowest
// 4) evade, a difference of 1: combat ends. 25 dice.
//
// Revision 1 always sent torpedoes at the biggest ship: Hipper floods and
// takes moderate damage (flooding 1/1), which halves her speed to 2, so
// the Allies, 3 faster, fight on (8.24); the later rounds of 1+1 change
// nothing, and revision 1 stops at 6.
func TestRule8_28_TargetOrdersAimTorpedoes(t *testing.T) {
	dice := append(append([]int{6, 6}, ones(20)...), 1, 1, 2)
	for rev, want := range map[int]string{1: "hipper", 2: "ddfloti"} {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		s.Turn = 2
		for _, id := range []string{"arethusa", "ddfloti", "hipper"} {
			put(t, s, id, "B12")
		}
		allied := "search surface Arethusa\nencounter Arethusa fight\ntarget Arethusa DD"
		german := "encounter all evade\ntorpedoes DD Flot I 0\ntorpedoes Hipper 0"
		if rev == 2 {
			s, _ = resolveExactly(t, s, allied, german, dice...)
		} else {
			s = resolve(t, s, allied, german, append(dice, ones(200)...)...)
		}
		dd, hipper := s.unit("ddfloti"), s.unit("hipper")
		got := ""
		switch {
		case dd.Hits == 1 && hipper.Flooding == 0:
			got = "ddfloti"
		case dd.Hits == 0 && hipper.Flooding == 1:
			got = "hipper"
		}
		if got != want {
			t.Errorf("revision %d: DD Flot I %+v, Hipper %+v; want the torpedo at %s", rev, dd, hipper, want)
		}
	}
}

// TestRule8_0_ASubmarineMayHoldItsAttack: 8.0 "Each step resolves the
// attacks of all units of the corresponding type (those wishing to attack;
// attacking is not compulsory)". U-47 finds Renown at K8 by day (turn 2);
// "torpedoes U-47 0" holds her attack: no torpedo is rolled, Renown is
// untouched. Revision 1 had no way to hold it: the line is refused (3.417).
func TestRule8_0_ASubmarineMayHoldItsAttack(t *testing.T) {
	s := newGameRev(t, 2, nil)
	clearMap(s)
	s.Turn = 2
	put(t, s, "u47", "K8")
	put(t, s, "renown", "K8")
	s, _ = resolveExactly(t, s, "", "search surface U-47\ntorpedoes U-47 0")
	if r := s.unit("renown"); r.Hits+r.Flooding != 0 || logWith(s, 2, "Submarine attack") != nil {
		t.Errorf("U-47 attacked although held: Renown %+v", r)
	}
	s1 := newGameRev(t, 1, nil)
	clearMap(s1)
	s1.Turn = 2
	put(t, s1, "u47", "K8")
	rejects(t, s1, German, "torpedoes U-47 0", 1, "3.417")
}

// TestRule16_3_ADetachedDestroyerIsNotALostOne: 12.0 "select any 1
// destroyer task force; it receives 1 point of hit damage (showing that
// this destroyer task force has separated 1 independent destroyer)"; 16.3
// gives the Allies 1 VP for "each German DD destroyed". DD Flot I (5
// ships) detaches Hans Lüdemann at A12: no destroyer is destroyed, 0 VP
// (revision 1 counted the hit: 1 VP). If DD Flot I is then sunk, its 4
// remaining destroyers score 4 (revision 1: all 5 ships of the counter);
// Hans Lüdemann sunk as well scores his own 1: 5 destroyers, 5 VP.
func TestRule16_3_ADetachedDestroyerIsNotALostOne(t *testing.T) {
	allied := func(s *State) int {
		n := 0
		for _, l := range s.score() {
			if l.Side == Allied {
				n += l.Points
			}
		}
		return n
	}
	for rev, want := range map[int][3]int{1: {1, 5, 6}, 2: {0, 4, 5}} {
		s := newGameRev(t, rev, []string{OptIndependent})
		clearMap(s)
		put(t, s, "ddfloti", "A12")
		s, _ = resolveExactly(t, s, "", "detach Hans Lüdemann from DD Flot I")
		if u := s.unit("hanslude"); u.Where != AtMap || s.unit("ddfloti").Hits != 1 {
			t.Fatalf("revision %d: Hans Lüdemann %+v, DD Flot I %+v", rev, u, s.unit("ddfloti"))
		}
		got := [3]int{allied(s)}
		s.unit("ddfloti").Where = AtSunk
		got[1] = allied(s)
		s.unit("hanslude").Where = AtSunk
		got[2] = allied(s)
		if got != want {
			t.Errorf("revision %d: Allied VP after the detachment, the flotilla sunk, Lüdemann sunk: %v, want %v", rev, got, want)
		}
	}
}

// TestRule9_43_OccupationAfterTwoTurnsTakesTheAirfieldsAtOnce: 9.43
// "Occupation after 2 turns: ... At the start of the turn on which the
// occupation marker is placed, the port city, the fortress in that city
// and the adjacent airfields are all occupied by Germany". Hipper and
// Emden lie in Stavanger (no fortress) on the morning of 8 April (turn 2);
// the occupation roll is 2, occupation after 2 turns: turn 4. On turn 3
// they stay (nothing is rolled). At the start of turn 4 Stavanger and Sola
// (F11, next to it) are German; Sola is snow-free, so German aircraft use
// it from turn 5 (9.621). Revision 1 took Sola a turn later (turn 5,
// usable 6), as after a port taken in step 6.
func TestRule9_43_OccupationAfterTwoTurnsTakesTheAirfieldsAtOnce(t *testing.T) {
	for rev, want := range map[int][2]int{1: {5, 6}, 2: {4, 5}} {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		s.Turn = 2
		put(t, s, "hipper", "G12")
		put(t, s, "emden", "G12")
		s, _ = resolveExactly(t, s, "", "", 2)
		s, _ = resolveExactly(t, s, "", "")
		if s.Turn != 4 || s.occupation("port", "Stavanger") < 0 {
			t.Fatalf("revision %d: turn %d, occupied %+v", rev, s.Turn, s.Occupied)
		}
		i := s.occupation("airfield", "Sola")
		if i < 0 {
			t.Fatalf("revision %d: Sola not occupied: %+v", rev, s.Occupied)
		}
		if o := s.Occupied[i]; [2]int{o.Turn, o.Usable} != want {
			t.Errorf("revision %d: Sola occupied from %d, usable %d; want %v", rev, o.Turn, o.Usable, want)
		}
	}
}

// TestFogOfWar_WhereShipsFallBackIsSecret: 6.11, 9.2: where German ships
// fell back from a port is told only to the Germans from revision 2
// (revision 1 told both sides); the set-up, dice and what each side reads
// are in the scenario files.
func TestFogOfWar_WhereShipsFallBackIsSecret(t *testing.T) {
	runScenarioFile(t, "testdata/scenarios/9.2_where_ships_fall_back_revision_1.txt")
	runScenarioFile(t, "testdata/scenarios/9.2_where_ships_fall_back_is_secret.txt")
}

// TestFogOfWar_WhereNorwegiansWithdrawIsSecret: 9.31: the Germans learn
// that Tordenskjold withdrew from Oslo, not where; the set-up, dice and
// what each side reads are in the scenario file.
func TestFogOfWar_WhereNorwegiansWithdrawIsSecret(t *testing.T) {
	runScenarioFile(t, "testdata/scenarios/9.31_norwegian_withdrawal_is_secret.txt")
}

// TestRule9_2_TheGermanPlayerChoosesTheHalfFiredAt: 9.2 "Halved defence:
// ... Other fortresses make 1 gunnery attack against half of the German
// surface ships that remain (rounded up; the German player chooses which
// ships are fired upon)". Karlsruhe, TB Flot II and S-Boat Flot I lie in
// Kristiansand on the night of 8 April; the German player orders "expose
// Kristiansand Karlsruhe, TB Flot II". The fortress rolls 3, halved
// defence: half of 3 rounded up is 2 ships, Karlsruhe and TB Flot II, 2
// gunnery rolls each: 5+5 = 10 hits (a cruiser and a torpedo boat alike),
// 1+1 nothing. Then the three attempt the port: 5, occupied. 10 dice.
// S-Boat Flot I is not fired at. Without the order the half is taken by
// name: Karlsruhe and S-Boat Flot I.
func TestRule9_2_TheGermanPlayerChoosesTheHalfFiredAt(t *testing.T) {
	for order, want := range map[string]string{"expose Kristiansand Karlsruhe, TB Flot II": "tbflotii", "": "sboatfloti"} {
		s := newGameRev(t, 2, nil)
		clearMap(s)
		for _, id := range []string{"karlsruhe", "tbflotii", "sboatfloti"} {
			put(t, s, id, "E14")
		}
		s, _ = resolveExactly(t, s, "", order, 3, 5, 5, 1, 1, 5, 5, 1, 1, 5)
		for _, id := range []string{"karlsruhe", "tbflotii", "sboatfloti"} {
			hit := id == "karlsruhe" || id == want
			if got := s.unit(id).Hits; got != map[bool]int{true: 1, false: 0}[hit] {
				t.Errorf("order %q: %s has %d hits", order, def(id).Name, got)
			}
		}
		if s.occupation("port", "Kristiansand") < 0 {
			t.Errorf("order %q: Kristiansand not occupied on a 5", order)
		}
	}
	s1 := newGameRev(t, 1, nil)
	rejects(t, s1, German, "expose Kristiansand Karlsruhe", 1, "")
}

// TestMoveHintsAreOrdersThatWouldBeAccepted: a refused move's "valid"
// hint is a line the same orders would accept (6.12, 6.15, 6.16): the
// path cut where the unit must stop. Arethusa (B12, allowance 5 on turn
// 2) asked for 7 open-sea hexes is offered her first 5; Glowworm (S10), whose path
// runs into Norwegian waters before the invasion (6.15), is offered the
// hexes before R14; Scharnhorst entering at A12 (4 points) with 3 hexes
// beyond on a 5-point turn is offered A12 and one hex.
func TestMoveHintsAreOrdersThatWouldBeAccepted(t *testing.T) {
	s := newGameRev(t, 2, nil)
	clearMap(s)
	s.Turn = 2
	put(t, s, "arethusa", "B12")
	put(t, s, "glowworm", "S10")
	s.unit("scharnhorst").Where = AtHeld
	for _, c := range []struct {
		side       engine.Side
		line, want string
	}{
		{Allied, "move Arethusa C12 D12 D11 C11 B11 B10 B9", "move Arethusa C12 D12 D11 C11 B11"},
		{Allied, "move Glowworm R10 R11 R12 R13 R14", "move Glowworm R10 R11 R12 R13"},
		{German, "enter Scharnhorst A12 B12 C12 D12", "enter Scharnhorst A12 B12"},
	} {
		_, errs := Ruleset{}.ParseOrders(s, c.side, c.line)
		if len(errs) != 1 || errs[0].Line != 1 || errs[0].Valid != c.want {
			t.Errorf("%q: %+v, want the hint %q", c.line, errs, c.want)
			continue
		}
		if _, errs := (Ruleset{}).ParseOrders(s, c.side, errs[0].Valid); len(errs) > 0 {
			t.Errorf("the hint %q is refused: %v", c.want, errs)
		}
	}
}

// TestRule6_15_NorwegianShipsShowNoAllowanceBeforeTheyMayMove: 6.15
// "Norwegian units may move only 2 turns after the German invasion of
// Norway". On turn 1 the order form showed Norge (3-2) with "allowance 3",
// which no line could use; from revision 2 the View gives 0 and the form
// says she may not move yet. After an invasion on turn 1 she moves from
// turn 3, an odd turn: allowance 3 (3.414).
func TestRule6_15_NorwegianShipsShowNoAllowanceBeforeTheyMayMove(t *testing.T) {
	for _, rev := range []int{1, 2} {
		s := newGameRev(t, rev, nil)
		norge := func(s *State) UnitView {
			for _, u := range s.view(Allied).Units {
				if u.ID == "norge" {
					return u
				}
			}
			t.Fatal("no Norge in the Allied view")
			return UnitView{}
		}
		u := norge(s)
		if (u.Allowance == 0 && u.Idle) != (rev == 2) || (rev == 1 && u.Allowance != 3) {
			t.Errorf("revision %d, turn 1: Norge %+v", rev, u)
		}
		if rev == 2 && !strings.Contains(unitNow(u), "may not move yet (6.15)") {
			t.Errorf("revision 2: the form says %q", unitNow(u))
		}
		s.InvasionTurn, s.Turn = 1, 3
		if u := norge(s); u.Idle || u.Allowance != 3 {
			t.Errorf("revision %d, turn 3 after an invasion on turn 1: Norge %+v, want allowance 3", rev, u)
		}
	}
}

// TestRule15_0_NoWeatherWithoutTheOption: 15.0 "if both players agree
// before the game, they may choose not to use the weather rules". Without
// the option a report said "Weather: gale" (4.61's marker), a gale that
// cuts nothing (TB Flot I keeps its allowance 5 on turn 1): from revision
// 2 the report, the form and the set-up say the weather rules are not
// used. With the option the gale is shown, and the torpedo boats lose a
// point (15.0: DD, TB and PT -1 in a gale).
func TestRule15_0_NoWeatherWithoutTheOption(t *testing.T) {
	for _, c := range []struct {
		rev   int
		opts  []string
		note  string
		allow int
	}{{2, nil, "No weather rules in this game", 5}, {1, nil, "Weather: gale", 5}, {2, []string{OptWeather}, "Weather: gale", 4}} {
		s := newGameRev(t, c.rev, c.opts)
		v := s.view(German)
		if got := weatherNote(v); !strings.HasPrefix(got, c.note) {
			t.Errorf("revision %d, options %v: %q, want %q", c.rev, c.opts, got, c.note)
		}
		for _, u := range v.Units {
			if u.ID == "tbfloti" && u.Allowance != c.allow {
				t.Errorf("revision %d, options %v: TB Flot I allowance %d, want %d", c.rev, c.opts, u.Allowance, c.allow)
			}
		}
	}
	if logWith(newGameRev(t, 2, nil), 1, "weather rules are not used") == nil {
		t.Error("revision 2 without the option: the set-up does not say the weather rules are not used")
	}
}
