package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// Tests of the rules rules revision 2 changed (revision.go), each worked
// out by hand from the rulebook text, with revision 1's behaviour where the
// two fork: a game keeps the revision it was created with.

// newGameRev starts a game of rules revision rev (see newGame).
func newGameRev(t *testing.T, rev int, opts []string, dice ...int) *State {
	t.Helper()
	if len(dice) == 0 {
		dice = []int{3, 4}
	}
	st, err := Ruleset{}.New(engine.Setup{Options: opts, Revision: rev}, enginetest.ThenOnes(dice...))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// resolveExactly is resolve, and every die given must be rolled: the
// test's hand count of the rolls the rules ask for is checked too.
func resolveExactly(t *testing.T, s *State, allied, german string, dice ...int) (*State, []engine.Roll) {
	t.Helper()
	orders := map[engine.Side]engine.Orders{Allied: parse(t, s, Allied, allied), German: parse(t, s, German, german)}
	md := enginetest.ThenOnes(dice...)
	next, err := Ruleset{}.Resolve(s, orders, md)
	if err != nil {
		t.Fatal(err)
	}
	if md.Short() > 0 || md.Used() != len(dice) {
		var why []string
		for _, r := range md.Rolls() {
			why = append(why, r.Why)
		}
		t.Fatalf("the rules rolled %d dice (%d short), the test worked out %d: %s", md.Used()+md.Short(), md.Short(), len(dice), strings.Join(why, "; "))
	}
	return next.(*State), md.Rolls()
}

// logWith returns the first log entry of the turn whose text contains
// every part, or nil.
func logWith(s *State, turn int, parts ...string) *Entry {
	for i, e := range s.Log {
		if e.Turn != turn {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && strings.Contains(e.Text, p)
		}
		if all {
			return &s.Log[i]
		}
	}
	return nil
}

func TestRevisionsRecordedFromTwoOn(t *testing.T) {
	if n := engine.CurrentRevision(Ruleset{}); n != 2 {
		t.Fatalf("current revision %d, want 2", n)
	}
	if s := newGameRev(t, 1, nil); s.Revision != 0 || strings.Contains(string(mustJSON(t, s)), `"revision"`) {
		t.Errorf("a revision 1 state records revision %d: it must record none, so that old states keep their digests", s.Revision)
	}
	if s := newGame(t, nil); s.Revision != 2 || s.view(German).Revision != 2 {
		t.Errorf("a new game records revision %d, its View %d; want 2", s.Revision, s.view(German).Revision)
	}
	if _, err := (Ruleset{}).New(engine.Setup{Revision: 3}, enginetest.ThenOnes(3, 4)); err == nil {
		t.Error("revision 3 accepted")
	}
}

// TestRule3_1_RedBorderAtTheUpperRight: 3.1 "The red border at the upper
// right of the map is the boundary that German commerce raiding must break
// through"; 6.18: leaving through an exit hex is a breakthrough. The top
// of the map is north (rows A-FF, the arrows on the south edge), so the
// border is the top edge right of the middle: FF11-FF18, its sea hexes.
// Bismarck (a 2 on the target table, 4.51) leaving from FF15 breaks out
// and scores 5 VP (16.4); leaving from FF5, left of the middle, she only
// leaves the map (6.18: "may not return") and scores nothing. Revision 1
// counted the whole top edge: FF5 was a breakout there.
func TestRule3_1_RedBorderAtTheUpperRight(t *testing.T) {
	for _, c := range []struct {
		rev  int
		from string
		want string
	}{{2, "FF15", AtBrokeOut}, {2, "FF11", AtBrokeOut}, {2, "FF18", AtBrokeOut}, {2, "FF5", AtExited}, {2, "FF10", AtExited}, {1, "FF5", AtBrokeOut}} {
		s := newGameRev(t, c.rev, nil, 1, 1)
		clearMap(s)
		put(t, s, "bismarck", c.from)
		s, _ = resolveExactly(t, s, "", "move Bismarck off")
		if w := s.unit("bismarck").Where; w != c.want {
			t.Errorf("revision %d, Bismarck leaving from %s: %s, want %s", c.rev, c.from, w, c.want)
		}
		want := 0
		if c.want == AtBrokeOut {
			want = 5
		}
		pts := 0
		for _, l := range s.score() {
			if l.Side == German && strings.Contains(l.Why, "Bismarck") {
				pts += l.Points
			}
		}
		if pts != want {
			t.Errorf("revision %d, from %s: Bismarck scores %d VP, want %d (16.4)", c.rev, c.from, pts, want)
		}
		for _, e := range reportsTo(s, Allied, 1) {
			if e.Kind != "setup" && strings.Contains(e.Text, "Bismarck") {
				t.Errorf("the Allies were told (6.18 says no): %q", e.Text)
			}
		}
	}
	for _, h := range []string{"FF11", "FF18"} {
		if !exitHex(2, hex(t, h)) || !edge(hex(t, h)) || !TheMap().ShipCanEnter(hex(t, h)) {
			t.Errorf("%s: an exit edge hex a ship may enter", h)
		}
	}
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

// TestRule6_28_AirborneWithTheInvadingMove: 6.28 "From the turn the German
// invasion of Norway begins, in the movement phase of each day turn, the
// German player may use the 3 airborne units". On the morning of 8 April
// (turn 2, a day turn) Hipper moves from H9 into H10, a Norwegian coastal
// hex: the invasion begins (9.1) this turn, so a landing in the same
// orders is valid, whatever line it is on. Sola: 3 succeeds (the airfield
// is taken), then the troops try Stavanger next to it (8.71): 4,
// occupation. Without an invading move the landing is refused, naming its
// line; revision 1 refused it in any case.
func TestRule6_28_AirborneWithTheInvadingMove(t *testing.T) {
	orders := "airborne FJ 1 Sola\nmove Hipper H10"
	start := func(rev int) *State {
		s := newGameRev(t, rev, nil)
		clearMap(s)
		s.Turn = 2
		put(t, s, "hipper", "H9")
		return s
	}
	rejects(t, start(1), German, orders, 1, "6.28")
	s := start(2)
	e := rejects(t, s, German, "# no invasion yet\nairborne FJ 1 Sola\nmove Hipper H8", 2, "6.28")
	if e.Valid == "" {
		t.Error("no hint")
	}
	s, _ = resolveExactly(t, s, "", orders, 3, 4)
	if s.InvasionTurn != 2 {
		t.Fatalf("invasion turn %d, want 2", s.InvasionTurn)
	}
	if s.unit("para1").Where != AtLanded || s.occupation("airfield", "Sola") < 0 || s.occupation("port", "Stavanger") < 0 {
		t.Fatalf("para1 %s, occupied %+v: want Sola and Stavanger taken", s.unit("para1").Where, s.Occupied)
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

// TestRule15_0_ViewShowsTheAllowanceNow: 15.0 "in a gale, the speed of all
// DD, TB and PT is reduced by 1"; the View and the order form say what a
// unit may move this turn. DD Flot 4 (5-5) at L7: 4 in a gale; in strong
// wind 5-3 = 2, and 3 moving south (15.2, the X14 example). From a
// Norwegian coastal hex strong wind counts as a gale (15.3): 4. A
// cruiser is not cut in a gale: Penelope keeps 5.
func TestRule15_0_ViewShowsTheAllowanceNow(t *testing.T) {
	s := newGame(t, []string{OptWeather})
	clearMap(s)
	put(t, s, "ddflot4", "L7")
	put(t, s, "penelope", "L8")
	put(t, s, "ddflot7", "H10")
	v := s.view(Allied)
	if u := v.unit("ddflot4"); u.Allowance != 4 || u.AllowanceSouth != 0 {
		t.Errorf("gale: DD Flot 4 allowance %d (south %d), want 4", u.Allowance, u.AllowanceSouth)
	}
	if u := v.unit("penelope"); u.Allowance != 5 {
		t.Errorf("gale: Penelope allowance %d, want 5", u.Allowance)
	}
	form := Ruleset{}.OrderForm(v, Allied)
	if !strings.Contains(form, "DD Flot 4") || !strings.Contains(form, "allowance 4, gunnery 4") {
		t.Errorf("the order form does not show allowance 4 for DD Flot 4:\n%s", form)
	}
	s.Weather = Strong
	v = s.view(Allied)
	if u := v.unit("ddflot4"); u.Allowance != 2 || u.AllowanceSouth != 3 {
		t.Errorf("strong wind: DD Flot 4 allowance %d, south %d; want 2 and 3", u.Allowance, u.AllowanceSouth)
	}
	if u := v.unit("ddflot7"); u.Allowance != 4 || u.AllowanceSouth != 0 {
		t.Errorf("strong wind from a Norwegian coastal hex: allowance %d (south %d), want 4 (15.3)", u.Allowance, u.AllowanceSouth)
	}
	if form := (Ruleset{}).OrderForm(v, Allied); !strings.Contains(form, "allowance 2 (3 moving south, 15.2)") {
		t.Errorf("the order form does not give the south allowance:\n%s", form)
	}
	// What the View says is what the orders may do.
	parse(t, s, Allied, "move DD Flot 4 K7 J7 I7")
	rejects(t, s, Allied, "move DD Flot 4 M7 N7 O7", 1, "15.0")
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

// TestMoveToAHexOffTheMapBlamesTheHex: "move Arethusa Z99": Z99 is not a
// hex of the map (columns 1-20), Arethusa is a unit. The error names the
// line and Z99, and its hint is a move that would be accepted.
func TestMoveToAHexOffTheMapBlamesTheHex(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "arethusa", "G6")
	for _, line := range []string{"move Arethusa Z99", "move Arethusa G7 Z99", "move Arethusa, Galatea Z99", "move Arethusa Z99 off"} {
		if strings.Contains(line, "Galatea") {
			put(t, s, "galatea", "G6")
		}
		e := rejects(t, s, Allied, "# orders\n"+line, 2, "6.13")
		if !strings.Contains(e.Msg, `"Z99"`) || strings.Contains(e.Msg, "not one of your units") {
			t.Errorf("%s: %q should blame Z99", line, e.Msg)
		}
		if _, errs := (Ruleset{}).ParseOrders(s, Allied, e.Valid); len(errs) > 0 || !strings.HasPrefix(e.Valid, "move Arethusa") {
			t.Errorf("%s: the hint %q is not accepted: %v", line, e.Valid, errs)
		}
	}
	// A unit whose name looks like a hex (U-47's alias "u47") still names it.
	s = newGame(t, nil)
	clearMap(s)
	put(t, s, "u47", "K8")
	e := rejects(t, s, German, "move u47 Z99", 1, "6.13")
	if !strings.Contains(e.Msg, `"Z99"`) {
		t.Errorf("%q should blame Z99", e.Msg)
	}
}

// TestTooManyOrderLinesNamesTheLine: a line at fault is named, never line 0.
func TestTooManyOrderLinesNamesTheLine(t *testing.T) {
	s := newGame(t, nil)
	text := strings.Repeat("pass\n", engine.MaxOrderFileLines+1)
	_, errs := Ruleset{}.ParseOrders(s, Allied, text)
	if len(errs) != 1 || errs[0].Line != engine.MaxOrderFileLines+1 || errs[0].Valid == "" {
		t.Fatalf("errors %+v: want line %d named", errs, engine.MaxOrderFileLines+1)
	}
}

// TestRule16_53_AlliedStrategicVictory: 16.53 "The Allied player must
// occupy at least 3 Norwegian port cities, or sink at least 2 German BB,
// BC or CV. But if the Allied player's BB, BC or CV are sunk at least 3
// times, the level is downgraded to an operational victory." Only the
// Wilfred Force occupies ports for the Allies (9.46, 11.1), one at most.
func TestRule16_53_AlliedStrategicVictory(t *testing.T) {
	none := map[engine.Side]int{Allied: 0, German: 0}
	for _, c := range []struct {
		name        string
		alliedPorts int
		sunk        map[engine.Side]int
		points      map[engine.Side]int
		winner      engine.Side
		level       string
	}{
		{"3 ports", 3, map[engine.Side]int{}, none, Allied, "strategic"},
		{"3 ports, 3 Allied capital ships sunk", 3, map[engine.Side]int{Allied: 3}, none, Allied, "operational"},
		{"2 ports: a draw on equal points", 2, map[engine.Side]int{}, none, "", ""},
		{"2 German capital ships sunk", 0, map[engine.Side]int{German: 2}, none, Allied, "strategic"},
		{"2 ports and Allies 5 VP ahead: tactical", 2, map[engine.Side]int{}, map[engine.Side]int{Allied: 5, German: 0}, Allied, "tactical"},
	} {
		w, l := victoryCount{points: c.points, alliedPorts: c.alliedPorts, capitalSunk: c.sunk}.level()
		if w != c.winner || l != c.level {
			t.Errorf("%s: %q %q, want %q %q", c.name, w, l, c.winner, c.level)
		}
	}
	s := newGame(t, []string{OptWilfred})
	s.Wilfred = Wilfred{Status: "landed", Port: "Bergen", Held: true}
	if p := s.alliedPorts(); len(p) != 1 || p[0] != "Bergen" {
		t.Errorf("Allied ports %v, want Bergen (the Wilfred Force)", p)
	}
	s.Wilfred.Held = false
	if p := s.alliedPorts(); len(p) != 0 {
		t.Errorf("Allied ports %v: the force landed at a German port holds none until it retakes it", p)
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

func ones(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	return out
}
