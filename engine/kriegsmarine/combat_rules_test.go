package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// Rules tests of chapter 8, Combat, of the rulebook (seeds 000): each
// outcome worked out by hand from the rule it cites.

func TestRule8_3_FightAgainstTrackGivesPursuitBattle(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "arethusa", "K8")
	put(t, s, "scharnhorst", "K8")
	put(t, s, "hipper", "K8")
	// Scharnhorst fires 2 rolls (2+2 and 3+3 miss), Arethusa answers with
	// 1 (2+2 misses), then the Germans evade: 6+6 fails.
	s = resolve(t, s, "search surface Arethusa\nencounter all track", "encounter all fight", 1, 1, 2, 2, 1, 1, 6, 6)
	if len(s.Engagements) != 1 || s.Engagements[0].Kind != ResPursuit {
		t.Fatalf("engagements %+v, want a special pursuit battle", s.Engagements)
	}
	if len(s.Tracks) != 1 || s.Tracks[0].Tracker != Allied || len(s.Tracks[0].TrackedUnits) != 2 {
		t.Fatalf("tracks %+v: after the pursuit battle Arethusa tracks Scharnhorst and Hipper", s.Tracks)
	}
}

func TestRule8_64_ScharnhorstFlooding3Of3(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "scharnhorst", "K8")
	for i := 0; i < 2; i++ {
		s.damage("scharnhorst", "flood")
	}
	if moderate(def("scharnhorst"), s.unit("scharnhorst")) {
		t.Fatal("moderate after 2 flooding")
	}
	s.damage("scharnhorst", "flood")
	if !moderate(def("scharnhorst"), s.unit("scharnhorst")) || s.gunnery("scharnhorst") != 4 {
		t.Fatalf("after 3 flooding: moderate %v, gunnery %d (want halved 7 -> 4)", moderate(def("scharnhorst"), s.unit("scharnhorst")), s.gunnery("scharnhorst"))
	}
	for i := 0; i < 3; i++ {
		s.damage("scharnhorst", "flood")
	}
	if s.unit("scharnhorst").Where != AtSunk {
		t.Fatal("Scharnhorst afloat after 3 more flooding")
	}
}

func TestRule8_62_HipperGunneryHalvedAtTwoHits(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "hipper", "K8")
	s.damage("hipper", "hit")
	if s.gunnery("hipper") != 4 {
		t.Fatalf("gunnery %d after 1 hit", s.gunnery("hipper"))
	}
	s.damage("hipper", "hit")
	if s.gunnery("hipper") != 2 {
		t.Fatalf("gunnery %d after 2 hits, want 2 (8.62 example)", s.gunnery("hipper"))
	}
	s.damage("hipper", "hit")
	s.damage("hipper", "hit")
	if s.unit("hipper").Where != AtSunk {
		t.Fatal("Hipper afloat with 4 hits")
	}
}

func TestRule8_23_GlasgowAgainstKarlsruhe(t *testing.T) {
	// CL against CL: 7 hits only a ship that cannot sail, 8 only in a
	// fjord hex, 5 and 6 nothing.
	tab := GunneryTable[gunneryClass("CL")]
	for roll, want := range map[int]string{5: "", 6: "", 7: "immobile", 8: "fjord"} {
		if got := tab.Lookup(roll); got != want {
			t.Errorf("roll %d: %q, want %q", roll, got, want)
		}
	}
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "glasgow", "K8")
	put(t, s, "karlsruhe", "K8")
	if g := s.gunnery("glasgow"); g != 4 {
		t.Fatalf("Glasgow gunnery %d, want 4", g)
	}
	got := s.fire("glasgow", "karlsruhe", 4, hex(t, "K8"), enginetest.ThenOnes(3, 4, 4, 4, 2, 3, 3, 3))
	if len(got) != 0 {
		t.Fatalf("7, 8, 5, 6 in open sea hit: %v", got)
	}
}

func TestRule8_1_SubmarineAttacksByDay(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "u47", "K8")
	put(t, s, "renown", "K8")
	s.Turn = 2
	// 1+1 = 2, +2 for German torpedoes in 1940: 4, a flooding.
	s = resolve(t, s, "", "search surface U-47", 1, 1)
	if f := s.unit("renown").Flooding; f != 1 {
		t.Fatalf("Renown flooding %d, want 1", f)
	}
	for _, e := range s.Log {
		if e.Kind == "encounter" && !strings.Contains(e.Text, "Submarine contact") {
			t.Errorf("a submarine search made an encounter: %s", e.Text)
		}
	}
	// No attacks at night.
	s.Turn = 5
	s = resolve(t, s, "", "")
	if f := s.unit("renown").Flooding; f != 1 {
		t.Fatalf("a night attack: flooding %d", f)
	}
}

func TestRule8_5_AirStrikesAndFighterCover(t *testing.T) {
	s := newGame(t, []string{OptGrafZeppelin})
	clearMap(s)
	// An open sea hex where no passive report finds Hipper (6.37).
	at := ""
	for _, c := range []string{"M6", "N7", "L6", "O8", "M8", "N9"} {
		if h := hex(t, c); TheMap().ShipCanEnter(h) && !s.passiveSpecial(German, def("hipper"), h) {
			at = c
			break
		}
	}
	if at == "" {
		t.Fatal("no open sea hex")
	}
	put(t, s, "hipper", at)
	s.Turn = 2
	rejects(t, s, Allied, "strike Lossiemouth 1 FF20", 1, "6.23")
	rejects(t, s, Allied, "cover Lossiemouth 1 "+at, 1, "8.522")
	// The Allies find Hipper by air and strike: 5+5 = 10 hits for a B.
	s1 := resolve(t, s, "search air "+at+"\nstrike Lossiemouth 1 "+at, "", 5, 5)
	if h := s1.unit("hipper").Hits; h != 1 {
		t.Fatalf("Hipper hits %d, want 1", h)
	}
	rejects(t, s1, Allied, "strike Lossiemouth 1 "+at, 1, "8.51")
	// Without a find, no strike.
	s2 := resolve(t, s, "strike Lossiemouth 1 "+at, "")
	if h := s2.unit("hipper").Hits; h != 0 {
		t.Fatalf("a strike without a find hit Hipper")
	}
	// A German fighter over the hex turns the bomber back (8.522).
	put(t, s, "grafzeppelin", at)
	s3 := resolve(t, s, "search air "+at+"\nstrike Lossiemouth 1 "+at, "cover Graf Zeppelin Me 109T 1 "+at)
	if h := s3.unit("hipper").Hits; h != 0 {
		t.Fatalf("the strike went through the fighter cover")
	}
}

func TestRule8_281_HoodAndRodneyOneTorpedoATurn(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "rodney", "K8")
	if n := s.torpAvailable("rodney"); n != 1 {
		t.Fatalf("Rodney may fire %d, want 1 a turn", n)
	}
	s.unit("rodney").TorpUsed, s.unit("rodney").TorpTurn = 1, 1
	if n := s.torpAvailable("rodney"); n != 0 {
		t.Fatalf("Rodney fires %d more this turn", n)
	}
	s.unit("rodney").TorpTurn = 0 // next turn
	if n := s.torpAvailable("rodney"); n != 1 {
		t.Fatalf("Rodney's second point: %d", n)
	}
	s.unit("rodney").TorpUsed = 2
	if n := s.torpAvailable("rodney"); n != 0 {
		t.Fatalf("Rodney has fired both points and still has %d", n)
	}
}

func TestRule8_28_DestroyerFlotillaTorpedoes(t *testing.T) {
	s := newGame(t, nil, 1, 2, 1, 1) // raiding: German destroyers may reload
	clearMap(s)
	put(t, s, "ddfloti", "K8")
	if n := s.torpAvailable("ddfloti"); n != 5 {
		t.Fatalf("DD Flot I fires %d, want 5 (8.28 example)", n)
	}
	s.unit("ddfloti").TorpUsed, s.unit("ddfloti").TorpTurn = 3, 3
	if n := s.torpAvailable("ddfloti"); n != 2 {
		t.Fatalf("after 3 points, %d left this turn, want 2", n)
	}
	s.unit("ddfloti").TorpUsed, s.unit("ddfloti").TorpTurn = 5, 0
	if n := s.torpAvailable("ddfloti"); n != 5 {
		t.Fatalf("reloaded next turn: %d, want 5 (8.282)", n)
	}
	// On the invasion objective German destroyers do not reload (9.1, 8.282).
	s2 := newGame(t, nil)
	s2.unit("ddfloti").TorpUsed = 5
	if n := s2.torpAvailable("ddfloti"); n != 0 {
		t.Fatalf("invasion destroyers reload %d", n)
	}
	// A task force loses torpedo strength with its ships (8.65).
	s.unit("ddfloti").TorpUsed, s.unit("ddfloti").Hits = 0, 2
	if n := s.torpAvailable("ddfloti"); n != 3 {
		t.Fatalf("with 2 ships lost: %d, want 3", n)
	}
}

func TestRule8_24_EndOfRoundChoices(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "rodney", "K8") // speed 4-3
	put(t, s, "hipper", "K8") // speed 5-4
	g := &Engagement{Hex: hex(t, "K8"), Allied: []string{"rodney"}, German: []string{"hipper"}}
	fight := &Orders{Encounters: []EncounterOrder{{Choice: ChoiceFight}}}
	evade := &Orders{Encounters: []EncounterOrder{{Choice: ChoiceEvade}}}
	if !s.battleGoesOn(g, map[engine.Side]*Orders{Allied: fight, German: fight}, nil) {
		t.Error("both fight: the battle must go on")
	}
	if s.battleGoesOn(g, map[engine.Side]*Orders{Allied: evade, German: evade}, nil) {
		t.Error("both end: the battle must end")
	}
	// Turn 1: Rodney 4, Hipper 5: within 1, it ends.
	if s.battleGoesOn(g, map[engine.Side]*Orders{Allied: fight, German: evade}, nil) {
		t.Error("speeds within 1: the battle must end")
	}
	put(t, s, "ddflot4", "K8") // no help: the slowest ship counts
	g.Allied = []string{"rodney", "ddflot4"}
	if s.battleGoesOn(g, map[engine.Side]*Orders{Allied: fight, German: evade}, nil) {
		t.Error("the slowest Allied ship is Rodney: the battle must end")
	}
	g.Allied = []string{"ddflot4"}
	put(t, s, "emden", "K8")
	g.German = []string{"emden"} // 4 against 5: within 1
	s.Turn = 2                   // Emden 4, DD Flot 4 5
	if s.battleGoesOn(g, map[engine.Side]*Orders{Allied: fight, German: evade}, nil) {
		t.Error("5 against 4 is within 1")
	}
	put(t, s, "schlesien", "K8")
	g.German = []string{"schlesien"} // 3 against 5: the faster fighter decides
	if !s.battleGoesOn(g, map[engine.Side]*Orders{Allied: fight, German: evade}, nil) {
		t.Error("the Allies are 2 faster and fight on")
	}
}

func TestRule8_661_EngineDamageLimpsHome(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "hipper", "K8")
	put(t, s, "renown", "K9")
	// A torpedo roll of 2 is fatal; the fatal flooding die 1 is engine damage.
	s.torpedo("hipper", 0, enginetest.ThenOnes(1, 1, 1), "test")
	u := s.unit("hipper")
	if u.Disabled != 1 || s.gunnery("hipper") != 0 || s.torpAvailable("hipper") != 0 {
		t.Fatalf("Hipper %+v gunnery %d: engine damage takes guns and torpedoes", u, s.gunnery("hipper"))
	}
	rejects(t, s, German, "move Hipper K9", 1, "8.661")
	start := u.Hex
	s = resolve(t, s, "", "")
	if s.unit("hipper").Hex != start {
		t.Fatal("Hipper moved on the turn of its engine damage")
	}
	s = resolve(t, s, "", "")
	h := s.unit("hipper").Hex
	if h.Distance(start) > 2 || h.Row >= start.Row {
		t.Fatalf("Hipper at %s: want at most 2 hexes (half of 4) south of %s", h, start)
	}
	// 16.3: a German ship unable to sail on the map counts as sunk.
	found := false
	for _, l := range s.score() {
		if l.Side == Allied && strings.Contains(l.Why, "Hipper") {
			found = true
		}
	}
	if !found {
		t.Error("a disabled German ship does not score for the Allies")
	}
}

func TestRule8_27_EscortExample(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	at := ""
	for _, c := range []string{"M6", "N7", "L6", "O8", "M8"} {
		if hi, _ := TheMap().Info(hex(t, c)); hi.Terrain == Sea {
			at = c
			break
		}
	}
	s.Turn = 2 // a day turn: no escort at night (8.29)
	for _, id := range []string{"scharnhorst", "emden", "tbfloti", "tbflotii", "rodney", "warspite", "galatea"} {
		put(t, s, id, at)
	}
	orders := map[engine.Side]engine.Orders{
		Allied: parse(t, s, Allied, "search surface Rodney\nencounter all fight"),
		German: parse(t, s, German, "escort Scharnhorst, Emden\nrestrict\nencounter all fight"),
	}
	n, err := Ruleset{}.Resolve(s, orders, engine.NewSeededDice([]byte("escort"), "g", "T02", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	var battle string
	for _, e := range n.(*State).Log {
		if e.Kind == "combat" && e.Rule == "8.2" {
			battle = e.Text
		}
	}
	round1, _, _ := strings.Cut(battle, " | ")
	for _, bad := range []string{"fires at Scharnhorst", "fires at Emden", "Scharnhorst fires", "Emden fires"} {
		if strings.Contains(round1, bad) {
			t.Errorf("round 1 %q contains %q: escorted ships are no gunnery targets and do not fire their guns (8.27)", round1, bad)
		}
	}
	for _, want := range []string{"Scharnhorst is escorted", "Emden is escorted", "restricted fire"} {
		if !strings.Contains(round1, want) {
			t.Errorf("round 1 %q lacks %q", round1, want)
		}
	}
	s.unit("emden").Flooding = 1
	if s.mayRestrict([]string{"scharnhorst", "emden"}) {
		t.Error("restricted fire declared with a moderately damaged ship (8.26)")
	}
}

func TestRule8_662_GunnerySpecialDamage(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "hipper", "K8")
	put(t, s, "emden", "K8")
	// A 12 hits a cruiser and rolls on the special damage table.
	got := s.fire("renown", "hipper", 1, hex(t, "K8"), enginetest.ThenOnes(6, 6, 3, 3))
	if len(got) != 2 || got[0] != "flood" || got[1] != "special:6" {
		t.Fatalf("a 12: %v", got)
	}
	s.damage("hipper", "special:6")
	if g := s.gunnery("hipper"); g != 2 {
		t.Errorf("gunnery %d after result 6, want 4 halved", g)
	}
	s.damage("hipper", "special:7")
	if s.unit("emden").Hits != 1 {
		t.Errorf("result 7 did not hit the other ship in the hex")
	}
	s.damage("hipper", "special:10")
	if u := s.unit("hipper"); u.Hits != 1 || u.TorpUsed != 1 {
		t.Errorf("result 10 with torpedoes aboard: %+v", u)
	}
	s.damage("hipper", "special:9")
	rejects(t, s, German, "move Hipper K9", 1, "8.661")
	start := s.unit("hipper").Hex
	s = resolve(t, s, "", "")
	if h := s.unit("hipper").Hex; h.Row >= start.Row {
		t.Errorf("Hipper at %s, forced back towards Germany from %s", h, start)
	}
}

// TestRule8_522_ArkRoyalExample plays the 8.522 example: a U-boat finds
// Ark Royal, a Skua of hers flies cover, Graf Zeppelin sends a fighter and
// a dive bomber; the fighters cancel, the dive bomber rolls 12: 1 flooding,
// Ark Royal takes moderate damage; the aircraft still aboard are lost, the
// Skua in the air lands elsewhere.
func TestRule8_522_ArkRoyalExample(t *testing.T) {
	s := newGame(t, []string{OptGrafZeppelin})
	clearMap(s)
	put(t, s, "arkroyal", "M6")
	put(t, s, "u47", "M6")
	put(t, s, "grafzeppelin", "M9")
	s.Turn = 4
	for _, id := range []string{"arkroyal1", "arkroyal2", "arkroyal3", "arkroyal4"} {
		s.unit(id).Where = AtBase
	}
	rejects(t, s, Allied, "strike Ark Royal Skua 1 M9", 1, "8.522")
	// U-47's attack (step 1): 6+6+2, a miss; then the dive bomber: 12.
	s = resolve(t, s, "cover Ark Royal Skua 1 M6",
		"search surface U-47\ncover Graf Zeppelin Me 109T 1 M6\nstrike Graf Zeppelin Ju 87C 2 M6", 6, 6, 6, 6)
	ark := s.unit("arkroyal")
	if ark.Flooding != 1 || !moderate(def("arkroyal"), ark) {
		t.Fatalf("Ark Royal %+v: 1 flooding and moderate damage", ark)
	}
	if s.unit("arkroyal2").Where != AtSunk || s.unit("arkroyal3").Where != AtSunk {
		t.Error("the aircraft aboard survived the carrier's moderate damage (6.24)")
	}
	if a := s.unit("arkroyal1"); a.Where != AtBase || a.Base == "arkroyal" {
		t.Errorf("the Skua in the air %+v: it lands at another base", a)
	}
}

func TestRule8_65_FourthFlotillaExample(t *testing.T) {
	s := newGame(t, nil)
	u := s.unit("ddflot4")
	u.TorpUsed, u.TorpTurn = 2, 2
	u.Hits = 1
	u.TorpTurn = 0 // a later turn
	if n := s.torpAvailable("ddflot4"); n != 2 {
		t.Fatalf("the 4th Flotilla has %d torpedo points left, want 2 of its 5", n)
	}
	if g := s.gunnery("ddflot4"); g != def("ddflot4").Gunnery-1 {
		t.Errorf("gunnery %d after losing a ship", g)
	}
}

func TestRule8_12_ChosenTargets(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "u47", "K8")
	put(t, s, "renown", "K8")
	put(t, s, "ddflot4", "K8")
	s.Turn = 2
	rejects(t, s, German, "target U-47 XX", 1, "3.413")
	// By default the biggest type; with a target order the destroyers.
	// The roll 1+1+2 = 4 floods (a hit on a task force, 8.64).
	a := resolve(t, s, "encounter all evade", "search surface U-47", 1, 1)
	b := resolve(t, s, "encounter all evade", "search surface U-47\ntarget U-47 DD", 1, 1)
	if a.unit("renown").Flooding != 1 || a.unit("ddflot4").Hits != 0 {
		t.Errorf("default target: Renown %+v, DD Flot 4 %+v", a.unit("renown"), a.unit("ddflot4"))
	}
	if b.unit("renown").Flooding != 0 || b.unit("ddflot4").Hits != 1 {
		t.Errorf("target DD: Renown %+v, DD Flot 4 %+v", b.unit("renown"), b.unit("ddflot4"))
	}
}

func TestRule8_62_NoTorpedoesFromTheNextTurn(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "hipper", "K8")
	s.damage("hipper", "hit")
	s.damage("hipper", "hit")
	if n := s.torpAvailable("hipper"); n == 0 {
		t.Fatal("Hipper lost her torpedoes in the turn she reached half her hits")
	}
	s.Turn++
	if n := s.torpAvailable("hipper"); n != 0 {
		t.Fatalf("Hipper fires %d torpedoes the turn after (8.62)", n)
	}
}

func TestRule8_525_CarrierReportsAfterAStrike(t *testing.T) {
	s := newGame(t, []string{OptGrafZeppelin})
	clearMap(s)
	put(t, s, "grafzeppelin", "M9")
	put(t, s, "renown", "M7")
	s.Turn = 2
	s = resolve(t, s, "", "search air M7\nstrike Graf Zeppelin Ju 87C 2 M7", 1, 1)
	found := false
	for _, e := range reportsTo(s, Allied, 2) {
		if e.Rule == "8.525" && e.Hex == "M9" {
			found = true
		}
	}
	if !found {
		t.Fatal("Graf Zeppelin's position was not reported after her strike")
	}
}

func TestRule8_28_SomeOrAllTorpedoes(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	at := ""
	for _, c := range []string{"M6", "N7", "L6"} {
		if hi, _ := TheMap().Info(hex(t, c)); hi.Terrain == Sea {
			at = c
			break
		}
	}
	put(t, s, "ddflot4", at)
	put(t, s, "hipper", at)
	s.Turn = 2
	o := parse(t, s, Allied, "torpedoes DD Flot 4 2")
	rejects(t, s, Allied, "torpedoes Furious 1", 1, "3.417")
	got := s.torpedoes(map[engine.Side]*Orders{Allied: o, German: {}}, []string{"ddflot4"}, []string{"hipper"}, hex(t, at), enginetest.ThenOnes(6, 6, 6, 6))
	fired := 0
	for _, g := range got {
		if strings.HasPrefix(g, "DD Flot 4 torpedo") {
			fired++
		}
	}
	if u := s.unit("ddflot4"); u.TorpUsed != 2 || fired != 2 {
		t.Fatalf("DD Flot 4 fired %d points (%v), want the 2 ordered", u.TorpUsed, got)
	}
}

// TestRule8_3_ReturnFireOnlyIfAfloat: 8.3 "After this gunnery is resolved,
// the Allied ship that was fired upon may return fire". Arethusa tracks,
// Hipper fights: a special pursuit battle. Hipper fires as gunnery 2 at
// Arethusa (CL, hit capacity 2): 5+5 = 10 and 5+5 = 10, two hits on the
// cruiser column (9-11), and she is sunk. Revision 2: a sunk ship answers
// nothing, 4 dice, and with no Allied ship left no evasion is rolled.
// Revision 1 rolled her answer all the same (1+1, a miss): 6 dice.
func TestRule8_3_ReturnFireOnlyIfAfloat(t *testing.T) {
	for rev, dice := range map[int][]int{1: {5, 5, 5, 5, 1, 1}, 2: {5, 5, 5, 5}} {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		put(t, s, "arethusa", "K8")
		put(t, s, "hipper", "K8")
		s, _ = resolveExactly(t, s, "search surface Arethusa\nencounter all track", "encounter all fight", dice...)
		if s.unit("arethusa").Where != AtSunk || len(s.Engagements) != 1 || s.Engagements[0].Kind != ResPursuit {
			t.Fatalf("revision %d: Arethusa %s, engagements %+v", rev, s.unit("arethusa").Where, s.Engagements)
		}
		answered := strings.Contains(s.Engagements[0].Outcome, "Arethusa answers")
		if answered != (rev == 1) {
			t.Errorf("revision %d: %q", rev, s.Engagements[0].Outcome)
		}
	}
}

// TestRule8_27_MinelayerTaskForceGivesAnEscort: 8.27 "For every 1 TB
// minelayer or DD destroyer surface ship task force unit ... that contains
// at least 2 ships ..., 1 surface ship unit may be escorted", and "each
// surface ship unit wishing to be escorted requires 1 destroyer or
// minelayer task force unit". By day in K8, an all-sea hex, ML Flot 20 (4
// minelayers) with Penelope against Hipper: one escort for the Allies
// (numbers 2 against 1 give none). Revision 1 counted destroyer and torpedo
// boat task forces only: none. The task force giving it cannot itself be
// escorted.
func TestRule8_27_MinelayerTaskForceGivesAnEscort(t *testing.T) {
	for rev, want := range map[int]int{1: 0, 2: 1} {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		s.Turn = 2
		put(t, s, "mlflot20", "K8")
		put(t, s, "penelope", "K8")
		put(t, s, "hipper", "K8")
		g := &Engagement{Turn: 2, Hex: hex(t, "K8"), Kind: ResEngage, Allied: []string{"mlflot20", "penelope"}, German: []string{"hipper"}}
		if n := s.escortsAllowed(g, g.Allied, g.German); n != want {
			t.Errorf("revision %d: %d escort(s) allowed, want %d", rev, n, want)
		}
		o := map[engine.Side]*Orders{Allied: {Escorts: []string{"mlflot20", "penelope"}}, German: {}}
		got := s.escorts(g, o, g.Allied, g.German)
		if got["mlflot20"] || got["penelope"] != (want == 1) {
			t.Errorf("revision %d: escorted %v", rev, got)
		}
	}
}

// TestRule8_25_BattleGoesOnPastSixRounds: 8.25 "Combat continues until the
// surface ships of one side are all destroyed or combat ends (that is,
// after each round the check of 8.24 is made)". Ark Royal (gunnery 1)
// meets Brummer (gunnery 1, hit capacity 2, no torpedoes) at K8 by day;
// both stand on "fight", so the 8.24 check goes on every round. Each round
// Ark Royal rolls once, then Brummer: 4 dice. Rounds 1-7 roll 1s, all
// misses; in round 8 Ark Royal rolls 5+5 = 10, a hit on the cruiser
// column (9-11, minelayers are on it); in round 9 another: Brummer's 2
// hits are her capacity, she sinks (8.63). 36 dice, then no one is left to
// evade. Revision 1 stopped after 6 rounds; the Allies, who chose fight,
// then try to track (8.24 "Important"): 2 dice more for the evasion.
func TestRule8_25_BattleGoesOnPastSixRounds(t *testing.T) {
	allied, german := "search surface Ark Royal\nencounter all fight", "encounter all fight"
	setup := func(rev int) *State {
		s := newGameRev(t, rev, []string{OptGrafZeppelin})
		clearMap(s)
		s.Turn = 2
		put(t, s, "arkroyal", "K8")
		put(t, s, "brummer", "K8")
		return s
	}
	var dice []int
	for round := 1; round <= 9; round++ {
		if round >= 8 {
			dice = append(dice, 5, 5, 1, 1)
		} else {
			dice = append(dice, 1, 1, 1, 1)
		}
	}
	s, _ := resolveExactly(t, setup(2), allied, german, dice...)
	out := s.Engagements[0].Outcome
	if s.unit("brummer").Where != AtSunk || !strings.Contains(out, "round 9:") || strings.Contains(out, "round 10") {
		t.Fatalf("revision 2: Brummer %s; battle %q: want 9 rounds, Brummer sunk", s.unit("brummer").Where, out)
	}
	s, _ = resolveExactly(t, setup(1), allied, german, append(ones(24), 6, 6)...)
	out = s.Engagements[0].Outcome
	if s.unit("brummer").Where != AtMap || !strings.Contains(out, "round 6:") || strings.Contains(out, "round 7") {
		t.Fatalf("revision 1: battle %q: want 6 rounds", out)
	}
}

// TestRule8_25_NothingLeftToFire: the battle that would never end. Ark
// Royal and Brummer, gunnery 1 each and no torpedoes, both declare
// restricted fire and both fight on: 8.26 "his units with gunnery value 1
// have their gunnery reduced to 0", so neither fires. Round 1 must be
// fought (8.22); before round 2 nothing could be fired, and the battle
// ends (8.25). The Allies then try to track: 6+6 = 12 fails to evade
// (Brummer's evasion speed 4+3 = 7 against Ark Royal's 10 evades on 2 or
// less), so Ark Royal tracks her. Revision 1 fought 6 empty rounds.
func TestRule8_25_NothingLeftToFire(t *testing.T) {
	for rev, want := range map[int]string{1: "round 6:", 2: "neither side has anything left to fire"} {
		s := newGameRev(t, rev, []string{OptGrafZeppelin})
		clearMap(s)
		s.Turn = 2
		put(t, s, "arkroyal", "K8")
		put(t, s, "brummer", "K8")
		s, _ = resolveExactly(t, s, "search surface Ark Royal\nencounter all fight\nrestrict", "encounter all fight\nrestrict", 6, 6)
		out := s.Engagements[0].Outcome
		if !strings.Contains(out, want) || strings.Contains(out, "round 2:") != (rev == 1) {
			t.Errorf("revision %d: battle %q, want %q", rev, out, want)
		}
		if len(s.Tracks) != 1 || s.Tracks[0].Tracker != Allied {
			t.Errorf("revision %d: tracks %+v", rev, s.Tracks)
		}
	}
}

// TestRule8_21_EngagementPositions: 8.21 "The players resolve, in turn, the
// combat in each hex bearing an engagement position marker". Two battles in
// one turn, Ark Royal against Brummer at K8 and Furious against Tsingtau
// at M6, every unit gunnery 1 without torpedoes and both sides on
// restricted fire: each battle is fought, in the order its position was
// placed, its own ships only, and ends before round 2 (8.25).
func TestRule8_21_EngagementPositions(t *testing.T) {
	s := newGame(t, []string{OptGrafZeppelin})
	clearMap(s)
	s.Turn = 2
	put(t, s, "arkroyal", "K8")
	put(t, s, "brummer", "K8")
	put(t, s, "furious", "M6")
	put(t, s, "tsingtau", "M6")
	s.Engagements = []Engagement{
		{Turn: 2, Hex: hex(t, "K8"), Kind: ResEngage, Allied: []string{"arkroyal"}, German: []string{"brummer"}},
		{Turn: 2, Hex: hex(t, "M6"), Kind: ResEngage, Allied: []string{"furious"}, German: []string{"tsingtau"}},
	}
	s, _ = resolveExactly(t, s, "restrict", "restrict")
	var at []string
	for _, e := range s.Log {
		if e.Turn == 2 && e.Kind == "combat" && e.Rule == "8.2" {
			at = append(at, e.Hex)
		}
	}
	if strings.Join(at, ",") != "K8,M6" {
		t.Fatalf("battles fought at %v, want K8 then M6", at)
	}
	for _, g := range s.Engagements {
		if !strings.HasPrefix(g.Outcome, "round 1: restricted fire (8.26); no damage") {
			t.Errorf("battle at %s: %q", g.Hex, g.Outcome)
		}
	}
}

// TestRule8_62_ViewShowsGunneryNow: the 8.62 example: "Hipper, with hit
// capacity 4, receives 2 points of hit damage ... Hipper's gunnery falls
// from 4 to 2". The German View and the order form show 2, as combat rolls.
func TestRule8_62_ViewShowsGunneryNow(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "hipper", "K8")
	s.unit("hipper").Hits = 2
	v := s.view(German)
	if g := v.unit("hipper").Gunnery; g != 2 || s.gunnery("hipper") != 2 {
		t.Errorf("Hipper's gunnery in the View %d, in combat %d; want 2", g, s.gunnery("hipper"))
	}
	if form := (Ruleset{}).OrderForm(v, German); !strings.Contains(form, "gunnery 2") {
		t.Errorf("order form:\n%s", form)
	}
}

// TestRule8_13_SubmarinesAreNeverAttacked: 8.13 "One-way attack, one shot
// and out: A submarine is not attacked and is not sunk." By day U-47
// searches K8 and finds Penelope (6.33): a submarine find, no encounter
// (6.41 note), so no battle. In step 1 U-47 attacks: 6+6 = 12, +2 for the
// German torpedoes (17.5 not in play), a miss. The Allies air-search K8
// and order a strike there: the search does not see submarines (6.34), so
// nothing was found and no strike flies. One roll of 2 dice; U-47 is
// untouched.
func TestRule8_13_SubmarinesAreNeverAttacked(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	s.Turn = 2
	put(t, s, "u47", "K8")
	put(t, s, "penelope", "K8")
	s, rolls := resolveExactly(t, s, "search air K8\nstrike Lossiemouth 1 K8", "search surface U-47", 6, 6)
	if rolls[0].Why != "submarine torpedo attack (8.1)" {
		t.Errorf("first roll %q, want U-47's attack", rolls[0].Why)
	}
	if len(s.Engagements) != 0 || logWith(s, 2, "air strike") != nil {
		t.Errorf("engagements %+v or a strike at the submarine", s.Engagements)
	}
	if u := s.unit("u47"); u.Where != AtMap || u.Hits != 0 || u.Flooding != 0 {
		t.Errorf("U-47 %+v", u)
	}
}

// TestRule8_14_NoSubmarinesAgainstFortresses: 8.14 "Submarines may not
// attack fortresses ... Fortresses also cannot return fire against
// submarines". U-47 lies in Bergen under the Norwegian fortress, and an
// Allied submarine in Oslo under Oscarsborg, German-held, after the
// Allied intervention: no fortress rolls its posture or fires, and no die
// is rolled at all.
func TestRule8_14_NoSubmarinesAgainstFortresses(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	s.InvasionTurn, s.Turn = 1, 4
	s.Occupied = []Occupation{{Kind: "port", Place: "Oslo", Hex: "I16", Turn: 1}}
	put(t, s, "u47", "J11")
	put(t, s, "subhome", "I16")
	s, _ = resolveExactly(t, s, "", "")
	for _, e := range s.Log {
		if e.Turn == 4 && strings.HasPrefix(e.Text, "Fortress") {
			t.Errorf("a fortress fired at a submarine: %q", e.Text)
		}
	}
}

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
