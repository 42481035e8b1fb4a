package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// Rules tests of chapter 9, Norway, of the rulebook (seeds 000): each
// outcome worked out by hand from the rule it cites.

func TestRule9_62_VaernesUsableFromMorningOf10April(t *testing.T) {
	// Trondheim is occupied on the morning turn of 9 April.
	if TimeOfDay(7) != "morning" || Day(7) != 9 {
		t.Fatalf("turn 7 is %d April %s", Day(7), TimeOfDay(7))
	}
	s := newGame(t, nil)
	s.Turn = 7
	s.occupyPort("Trondheim", enginetest.ThenOnes())
	var vaernes *Occupation
	for i, o := range s.Occupied {
		if o.Kind == "airfield" && o.Place == "Vaernes" {
			vaernes = &s.Occupied[i]
		}
	}
	if vaernes == nil {
		t.Fatalf("occupied %+v: Vaernes next to Trondheim is occupied with it (9.51)", s.Occupied)
	}
	if vaernes.Turn != 8 || vaernes.Usable != 12 {
		t.Fatalf("Vaernes occupied turn %d, usable turn %d; want 8 (noon 9 April) and 12", vaernes.Turn, vaernes.Usable)
	}
	if Day(12) != 10 || TimeOfDay(12) != "morning" {
		t.Errorf("turn 12 is %d April %s, want the morning of 10 April", Day(12), TimeOfDay(12))
	}
}

func TestRule9_44_PortLapsesWithoutAGermanShip(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	s.Turn = 7
	bergen, _ := portHex("Bergen")
	put(t, s, "koln", bergen.String())
	put(t, s, "konigsberg", bergen.String())
	s = resolve(t, s, "", "", 5, 6) // 9.2: a 5 is no defence; 9.43: a 6 occupies
	if s.occupation("port", "Bergen") < 0 {
		t.Fatalf("Bergen not occupied: %+v", s.Occupied)
	}
	out := shortestPath(bergen, hex(t, "J9"), moveOK(German, "DE", false, 8, 9))
	s = resolve(t, s, "", "move Köln, Königsberg "+out[0].String())
	if s.occupation("port", "Bergen") >= 0 {
		t.Fatalf("Bergen still occupied with no German ship in it")
	}
}

func TestRule9_21_OscarsborgSinksBlucher(t *testing.T) {
	s := newGame(t, []string{OptCommanders})
	clearMap(s)
	put(t, s, "blucher", "I16")
	// Fortress effects 3, less 1 for Colonel Eriksen: normal defence.
	// Gunnery 7 and 8: in the fjord, 8 is a hit. Torpedoes: 11 misses, 7
	// less 4 is 3: the fatal flooding table, 4: 2 flooding, Blücher sinks.
	// Colonel Eriksen took part: his injury roll, 1, leaves him unharmed.
	s = resolve(t, s, "", "", 3, 3, 4, 4, 4, 5, 6, 3, 4, 4, 1)
	if w := s.unit("blucher").Where; w != AtSunk {
		t.Fatalf("Blücher %s, want sunk", w)
	}
	found := false
	for _, e := range reportsTo(s, Allied, 1) {
		if e.Rule == "9.2" && strings.Contains(e.Text, "normal defence") && strings.Contains(e.Text, "fatal flooding") {
			found = true
		}
	}
	if !found {
		t.Errorf("no report of Oscarsborg's fire")
	}
	// A 5 is no defence (9.21 example, the Oslo outer fortress).
	if FortressTable.Lookup(5) != "none" || FortressTable.Lookup(3) == "normal" || FortressTable.Lookup(2) != "normal" {
		t.Errorf("Fortress Effects Table does not give the 9.21 example")
	}
}

func TestRule9_3_NorwegianMoraleAndWithdrawal(t *testing.T) {
	s := newGame(t, nil)
	narvik, _ := portHex("Narvik")
	for id := range map[string]bool{"norge": true, "eidsvold": true} {
		if s.unit(id).Hex != narvik {
			t.Fatalf("%s not at Narvik", id)
		}
	}
	put(t, s, "ddfloti", narvik.String())
	put(t, s, "ddflotii", narvik.String())
	// Morale: Eidsvold 2 surrenders, Norge 5 fights one round (the rest of
	// the dice run short and roll 1s), then withdraws (9.31).
	md := enginetest.ThenOnes(2, 5)
	n, err := Ruleset{}.Resolve(s, map[engine.Side]engine.Orders{Allied: &Orders{}, German: &Orders{}}, md)
	if err != nil {
		t.Fatal(err)
	}
	s = n.(*State)
	if w := s.unit("eidsvold").Where; w != AtOut {
		t.Errorf("Eidsvold %s, want surrendered", w)
	}
	nu := s.unit("norge")
	if nu.Where == AtMap && (nu.Hex == narvik || !nu.Resolute) {
		t.Errorf("Norge %+v: after one round she leaves Narvik, proven (9.31, 9.32)", nu)
	}
	rounds := 0
	for _, e := range s.Log {
		if e.Kind == "combat" && strings.Contains(e.Text, "round 2") {
			rounds++
		}
	}
	if rounds != 0 {
		t.Error("a Norwegian port battle lasted more than one round")
	}
}

// TestRule9_21_OscarsborgExampleWithdrawal plays the 9.21 example: the
// Germans reach Oslo past the outer fortress, Oscarsborg (with Colonel
// Eriksen) defends normally, the German player withdraws, Blücher as the
// leading ship takes the fire and sinks, the others fall back beyond the
// outer fortress unharmed.
func TestRule9_21_OscarsborgExampleWithdrawal(t *testing.T) {
	s := newGame(t, []string{OptCommanders})
	clearMap(s)
	ids := []string{"blucher", "lutzow", "emden", "tbflotiii"}
	for _, id := range ids {
		put(t, s, id, "H16")
	}
	// Fortress effects 3, less 1 for Eriksen: normal. Gunnery 7 and 8 (a
	// hit in the fjord). Torpedoes 11 (a miss) and 7 (less 4: the fatal
	// flooding table), which gives 4: 2 flooding points, Blücher sinks;
	// the extra flooding of a 4 is not applied on a withdrawal. Eriksen's
	// injury roll: 1.
	s = resolve(t, s, "", "move Blücher, Lützow, Emden, TB Flot III I16\nabandon Oslo Blücher", 3, 3, 4, 4, 4, 5, 6, 3, 4, 4, 1)
	if w := s.unit("blucher").Where; w != AtSunk {
		t.Fatalf("Blücher %s, want sunk", w)
	}
	for _, id := range ids[1:] {
		u := s.unit(id)
		if u.Where != AtMap || u.Hits != 0 || u.Flooding != 0 {
			t.Errorf("%s %+v: only the leading ship is fired upon", def(id).Name, u)
		}
		if u.Hex == hex(t, "I16") || u.Hex == hex(t, "H16") {
			t.Errorf("%s at %s: it falls back beyond the Oslo outer fortress", def(id).Name, u.Hex)
		}
	}
	if s.occupation("port", "Oslo") >= 0 {
		t.Error("Oslo occupied after a withdrawal")
	}
}

func TestRule9_1_InvasionExampleTimings(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	bergen, _ := portHex("Bergen")
	s.InvasionTurn = 7 // Germany invades on the morning of 9 April
	s.Occupied = []Occupation{{Kind: "port", Place: "Bergen", Hex: bergen.String(), Turn: 7}}
	put(t, s, "koln", bergen.String())
	put(t, s, "renown", "I10")
	s.Turn = 8 // noon: Allied aircraft may attack at Bergen
	s8 := resolve(t, s, "search air "+bergen.String()+"\nstrike Lossiemouth 1 "+bergen.String(), "", 6, 6)
	struck := false
	for _, e := range reportsTo(s8, Allied, 8) {
		if e.Rule == "8.5" {
			struck = true
		}
	}
	if !struck {
		t.Error("no Allied air strike at Bergen on the turn after the invasion")
	}
	path := shortestPath(hex(t, "I10"), bergen, moveOK(Allied, "UK", false, 9, 9))
	var p []string
	for _, h := range path {
		p = append(p, h.String())
	}
	rejects(t, s, Allied, "move Renown "+strings.Join(p, " "), 1, "6.15")
	s.Turn = 9 // afternoon: Allied ships may enter Bergen
	parse(t, s, Allied, "move Renown "+strings.Join(p, " "))
}

// TestRule9_21_OuterFortressFiresAtShipsPassingIntoOslo: 9.21 "ships
// wishing to enter Oslo must first pass the Oslo outer fortress at H16,
// then pass the Oscarsborg fortress", and its example resolves the outer
// fortress first, then Oscarsborg. Four German ships move G16-H16-I16 on
// the night of 8 April.
//
// Revision 2: H16 rolls 1 on the Fortress Effects Table, normal defence:
// each of the 4 ships that passed it takes one gunnery attack of 2 rolls
// (9.2); every roll 1+1 = 2 misses (2 is nothing on every class of the
// Gunnery Table): 16 dice. Oscarsborg then rolls 5, no defence. At step 6
// four German units in Oslo attempt it (8.8, 9.42): 4, occupied. 18 dice.
//
// Revision 1 fired at ships where they stopped only: Oscarsborg 5, no
// defence, then the port 4: 2 dice.
func TestRule9_21_OuterFortressFiresAtShipsPassingIntoOslo(t *testing.T) {
	ids := []string{"blucher", "lutzow", "emden", "tbflotiii"}
	order := "move Blücher, Lützow, Emden, TB Flot III H16 I16"
	for _, rev := range []int{1, 2} {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		for _, id := range ids {
			put(t, s, id, "G16")
		}
		dice := []int{5, 4}
		if rev == 2 {
			dice = append([]int{1}, append(ones(16), 5, 4)...)
		}
		s, rolls := resolveExactly(t, s, "", order, dice...)
		outer := logWith(s, 1, "Fortress Oslo outer")
		if (outer != nil) != (rev == 2) {
			t.Errorf("revision %d: the Oslo outer fortress fired: %v", rev, outer)
		}
		if rev == 2 && (!strings.Contains(outer.Text, "rolled 1, normal defence") || rolls[0].Why != "fortress effects (9.2)") {
			t.Errorf("revision 2: the outer fortress first, normal defence: %q, first roll %q", outer.Text, rolls[0].Why)
		}
		if logWith(s, 1, "Fortress Oscarsborg", "rolled 5, none defence") == nil {
			t.Errorf("revision %d: Oscarsborg after: %v", rev, s.Log)
		}
		for _, id := range ids {
			if u := s.unit(id); u.Where != AtMap || u.Hex != hex(t, "I16") || u.Hits != 0 {
				t.Errorf("revision %d: %s %+v, want in Oslo unharmed", rev, def(id).Name, u)
			}
		}
		if s.occupation("port", "Oslo") < 0 {
			t.Errorf("revision %d: Oslo not occupied after a 4 (9.43)", rev)
		}
	}
}

// TestRule9_21_LeavingOsloIsNotEnteringIt: Hipper, in Oslo, steams out
// I16-H16-G16: 9.21 concerns "ships wishing to enter Oslo", and she stops
// in neither fortress hex (8.4), so no fortress fires and no die is rolled.
func TestRule9_21_LeavingOsloIsNotEnteringIt(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	s.InvasionTurn = 1
	put(t, s, "hipper", "I16")
	s, _ = resolveExactly(t, s, "", "move Hipper H16 G16")
	if logWith(s, 1, "Fortress") != nil || s.unit("hipper").Hex != hex(t, "G16") {
		t.Errorf("Hipper at %s; fortress log %v", s.unit("hipper").Hex, logWith(s, 1, "Fortress"))
	}
}

// TestRule9_21_GivingUpAtTheOuterFortress: the same four ships pass H16
// for Oslo; H16 rolls 1, normal defence, and the Germans give the port up
// (9.2 "abandon Oslo Blücher"): only the leading Blücher is fired on, 2
// rolls of 1+1, both miss (4 dice); all four "fall back to the hex they
// were in before entering" the fortress: G16. Oscarsborg has no one to
// fire at and Oslo no German ship: 5 dice in all.
func TestRule9_21_GivingUpAtTheOuterFortress(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	ids := []string{"blucher", "lutzow", "emden", "tbflotiii"}
	for _, id := range ids {
		put(t, s, id, "G16")
	}
	s, _ = resolveExactly(t, s, "", "move Blücher, Lützow, Emden, TB Flot III H16 I16\nabandon Oslo Blücher", 1, 1, 1, 1, 1)
	for _, id := range ids {
		if u := s.unit(id); u.Hex != hex(t, "G16") {
			t.Errorf("%s at %s, want back at G16", def(id).Name, u.Hex)
		}
	}
	if logWith(s, 1, "Fortress Oscarsborg") != nil || s.occupation("port", "Oslo") >= 0 {
		t.Error("Oscarsborg fired or Oslo fell after the Germans gave it up at the outer fortress")
	}
}

// TestRule9_43_RepulsedFromOsloRetreatBeyondTheOuterFortress: 9.43 "Retreat:
// ... All German surface ships in the port city hex retreat 1 hex (if the
// port is Oslo, they retreat a further hex to outside the Oslo outer
// fortress)". Hipper and Emden lie in Oslo; Oscarsborg rolls 5, no
// defence; the occupation roll is 1, retreat. One hex out of Oslo is H16
// (Oslo's only sea neighbour), and one further, the first neighbour of H16
// that is neither port nor fortress (I17 and H17 are land): G17. Revision
// 1 stopped them at H16.
func TestRule9_43_RepulsedFromOsloRetreatBeyondTheOuterFortress(t *testing.T) {
	for rev, want := range map[int]string{1: "H16", 2: "G17"} {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		s.InvasionTurn = 1
		put(t, s, "hipper", "I16")
		put(t, s, "emden", "I16")
		s, _ = resolveExactly(t, s, "", "", 5, 1)
		for _, id := range []string{"hipper", "emden"} {
			if h := s.unit(id).Hex; h != hex(t, want) {
				t.Errorf("revision %d: %s at %s, want %s", rev, def(id).Name, h, want)
			}
		}
	}
}

// TestRule9_31_NorwegiansLeaveOsloBeyondTheOuterFortress: 9.31 "If the port
// city is Oslo, the Norwegian ships must withdraw to a hex outside the
// Oslo outer fortress". On the invasion night Brummer moves from H16 into
// Oslo, where Tordenskjold lies. H16 does not fire (Brummer did not enter
// it this turn); Oscarsborg rolls 5, no defence; Tordenskjold's morale roll
// is 4, she fights (9.3); one round: her gunnery 2 (2 rolls), Brummer's 1
// doubled at night (8.29: 2 rolls), all 1+1, misses; neither carries
// torpedoes. Then she withdraws: one hex to H16 and, in revision 2, one
// further to G17 (as 9.43). 10 dice.
func TestRule9_31_NorwegiansLeaveOsloBeyondTheOuterFortress(t *testing.T) {
	for rev, want := range map[int]string{1: "H16", 2: "G17"} {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		put(t, s, "brummer", "H16")
		put(t, s, "tordenskjold", "I16")
		s, _ = resolveExactly(t, s, "", "move Brummer I16", append([]int{5, 4}, ones(8)...)...)
		if h := s.unit("tordenskjold").Hex; h != hex(t, want) {
			t.Errorf("revision %d: Tordenskjold withdrew to %s, want %s", rev, h, want)
		}
		if !s.unit("tordenskjold").Resolute {
			t.Errorf("revision %d: Tordenskjold fought on the invasion turn: she fights on (9.32)", rev)
		}
	}
}

// TestRule9_621_SnowFreeAirfieldUsableNextTurn: 9.621 "After Germany
// occupies a snow-free airfield, it may be used starting from the next
// turn." Sola (snow-free, 6.28) is taken by airborne troops on turn 2:
// German aircraft may transfer there from turn 3 (a day turn), not on
// turn 2. KG Lion 1 from the German area: 4 to A15 (6.22) and 10 more to
// F11 is 14, within twice its radius of 14 (6.21).
func TestRule9_621_SnowFreeAirfieldUsableNextTurn(t *testing.T) {
	if u := airfieldUsable(2, true); u != 3 {
		t.Errorf("snow-free airfield taken on turn 2 usable on turn %d, want 3", u)
	}
	s := newGame(t, nil)
	clearMap(s)
	s.Turn = 2
	put(t, s, "hipper", "H9")
	s, _ = resolveExactly(t, s, "", "airborne FJ 1 Sola\nmove Hipper H10", 3, 4)
	if d := 4 + hex(t, "A15").Distance(hex(t, "F11")); d > 28 {
		t.Fatalf("Sola is %d from the German area: the test needs it within 28", d)
	}
	parse(t, s, German, "rebase KG Lion 1 to Sola")
	s.Turn = 2
	rejects(t, s, German, "rebase KG Lion 1 to Sola", 1, "9.61")
}

// TestRule9_33_AClassRemovedAfterItsAttack: 9.33 "The Norwegian submarine A
// Class may make only 1 torpedo attack during the game. After making the
// torpedo attack, remove it from the game." By day it finds Hipper in its
// hex (6.33) and attacks (8.11): 6+6 = 12, a miss on the Torpedo Attack
// Table. Revision 2 then removes it; revision 1 left it on the map, spent.
func TestRule9_33_AClassRemovedAfterItsAttack(t *testing.T) {
	for _, rev := range []int{1, 2} {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		s.Turn = 2
		put(t, s, "aclass", "K8")
		put(t, s, "hipper", "K8")
		s, _ = resolveExactly(t, s, "search surface A Class", "", 6, 6)
		u := s.unit("aclass")
		if u.TorpUsed != 1 || logWith(s, 2, "Submarine attack", "A Class") == nil {
			t.Fatalf("revision %d: the A Class did not attack: %+v", rev, u)
		}
		want := AtMap
		if rev == 2 {
			want = AtOut
		}
		if u.Where != want {
			t.Errorf("revision %d: the A Class is %s after its attack, want %s", rev, u.Where, want)
		}
		if rev == 2 && s.view(Allied).unit("aclass") != nil {
			t.Error("the removed A Class is still in the Allied view")
		}
	}
}

// TestRule9_2_FallBackToTheHexBefore: 9.2 on giving up a port: "all German
// surface ships that attempted to occupy the port city fall back to the
// hex they were in before entering the port city". Köln and Königsberg
// move from J10 straight into Bergen (J11); the fortress rolls 1, normal
// defence, and they give the port up: Köln leads and takes 2 gunnery
// rolls, 1+1 each, misses (5 dice in all); both go back to J10. Revision 1
// did not know a ship's start hex when the port was the first hex of its
// move, and took it out to the first hex around Bergen instead.
func TestRule9_2_FallBackToTheHexBefore(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "koln", "J10")
	put(t, s, "konigsberg", "J10")
	s, _ = resolveExactly(t, s, "", "move Köln, Königsberg J11\nabandon Bergen Köln", 1, 1, 1, 1, 1)
	for _, id := range []string{"koln", "konigsberg"} {
		if h := s.unit(id).Hex; h != hex(t, "J10") {
			t.Errorf("%s fell back to %s, want J10", def(id).Name, h)
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
