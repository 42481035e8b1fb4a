package kriegsmarine

import (
	"strings"
	"testing"
)

// Rules tests of chapter 6, Movement and Search, of the rulebook (seeds
// 000): each outcome worked out by hand from the rule it cites.

func TestRule6_12_RichelieuOddEvenSpeed(t *testing.T) {
	d := def("richelieu")
	u := &Unit{ID: "richelieu"}
	if a := baseAllowance(d, u, 5); a != 5 {
		t.Errorf("Richelieu allowance on turn 5 = %d, want 5", a)
	}
	if a := baseAllowance(d, u, 6); a != 4 {
		t.Errorf("Richelieu allowance on turn 6 = %d, want 4", a)
	}
	if d.SpeedString() != "5-4" {
		t.Errorf("speed %s, want 5-4", d.SpeedString())
	}
}

func TestRule6_16_ScharnhorstEntersA12OverTwoTurns(t *testing.T) {
	s := newGame(t, nil)
	if c, ok := TheMap().EntryCost(hex(t, "A12")); !ok || c != 4 {
		t.Fatalf("A12 entry cost %d %v, want 4", c, ok)
	}
	s = resolve(t, s, "", "enter Scharnhorst A12 spend 3")
	u := s.unit("scharnhorst")
	if u.Where != AtHeld || u.Spent != 3 || u.Arrow != hex(t, "A12") {
		t.Fatalf("after turn 1: %+v, want held with 3 spent towards A12", u)
	}
	// Turn 2: 1 point to enter A12, then the remaining 4 of the even-turn 5.
	path := shortestPath(hex(t, "A12"), hex(t, "J9"), moveOK(German, "DE", false, 2, 0))
	if len(path) < 5 {
		t.Fatalf("no path north from A12: %v", path)
	}
	var four, five []string
	for i, h := range path[:5] {
		if i < 4 {
			four = append(four, h.String())
		}
		five = append(five, h.String())
	}
	rejects(t, s, German, "enter Scharnhorst A12 "+strings.Join(five, " "), 1, "6.12")
	s = resolve(t, s, "", "enter Scharnhorst A12 "+strings.Join(four, " "))
	u = s.unit("scharnhorst")
	if u.Where != AtMap || u.Hex.String() != four[3] || u.Spent != 0 {
		t.Fatalf("after turn 2: %+v, want on the map at %s", u, four[3])
	}
}

func TestRule6_21_KGLionTransfersToVaernesFor20Points(t *testing.T) {
	a15, vaernes := hex(t, "A15"), hex(t, "Q16")
	if cost := 4 + a15.Distance(vaernes); cost != 20 {
		t.Fatalf("German area to Vaernes costs %d, want 4 + 16 = 20", cost)
	}
	s := newGame(t, nil)
	s.Turn = 12 // 10 April morning, a day turn
	rejects(t, s, German, "rebase KG Lion 1 to Vaernes", 1, "9.61")
	s.Occupied = append(s.Occupied, Occupation{Kind: "airfield", Place: "Vaernes", Hex: "Q16", Turn: 8, Usable: 12})
	o := parse(t, s, German, "rebase KG Lion 1 to Vaernes")
	if len(o.Rebases) != 1 || o.Rebases[0].Base != "Vaernes" {
		t.Fatalf("rebase %+v", o.Rebases)
	}
	// Out of reach: twice the radius of a Ju 87 (7) is 14 < 20.
	s.Units[indexOf(s, "eau3")].Where, s.Units[indexOf(s, "eau3")].Base = AtBase, "German area"
	rejects(t, s, German, "rebase EAU Ju 87 3 to Vaernes", 1, "6.21")
	s = resolve(t, s, "", "rebase KG Lion 1 to Vaernes")
	if u := s.unit("kglion1"); u.Base != "Vaernes" || u.Where != AtBase {
		t.Fatalf("KG Lion 1 %+v: want at Vaernes", u)
	}
	// Vaernes holds one unit (3.423).
	rejects(t, s, German, "rebase KG Lion 2 to Vaernes", 1, "3.423")
}

func TestRule6_37_ThreeUnitsReportedAtQ13(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	for _, id := range []string{"scharnhorst", "emden", "tbfloti"} {
		put(t, s, id, "Q12")
	}
	s = resolve(t, s, "", "move Scharnhorst, Emden, TB Flot I Q13 R12")
	var got []Entry
	for _, e := range reportsTo(s, Allied, 1) {
		if e.Kind == "passive" {
			got = append(got, e)
		}
	}
	if len(got) != 1 || got[0].Hex != "Q13" || got[0].Count != 3 || len(got[0].Types) != 0 {
		t.Fatalf("Allied passive reports %+v, want 3 units at Q13 without types", got)
	}
	if !strings.Contains(got[0].Text, "3 unit(s) at Q13") {
		t.Errorf("report text %q", got[0].Text)
	}
}

func TestRule6_37_ColumnSExemptionAndFog(t *testing.T) {
	s := newGame(t, []string{OptWeather})
	clearMap(s)
	s.InvasionTurn = 1
	s.Turn = 3
	d := def("renown")
	if s.passiveSpecial(Allied, d, hex(t, "Q13")) != true {
		t.Errorf("Allied ship on the Norwegian coast south of row S must report")
	}
	if !TheMap().IsCoastal(hex(t, "CC19"), "NO") || s.passiveSpecial(Allied, d, hex(t, "CC19")) {
		t.Errorf("after the invasion an Allied ship on the Norwegian coast in row S or north need not report (6.37)")
	}
	if !s.passiveSpecial(German, def("hipper"), hex(t, "CC19")) {
		t.Errorf("a German ship at Narvik must report (6.37)")
	}
	s.Weather, s.Turn = Light, 2 // morning, light wind: fog (15.1)
	if s.passiveSpecial(German, def("hipper"), hex(t, "Q13")) {
		t.Errorf("fog hides ships on the Norwegian coast (15.1)")
	}
	s.Turn = 3 // noon: no fog
	if !s.passiveSpecial(German, def("hipper"), hex(t, "Q13")) {
		t.Errorf("no fog at noon (15.1)")
	}
}

func TestRule6_44_ArethusaTracksBismarckEvasionOn2To4(t *testing.T) {
	for r := 2; r <= 12; r++ {
		if got, want := evades(9, 10, r), r <= 4; got != want {
			t.Errorf("evasion at 9 against 10 with %d: %v, want %v", r, got, want)
		}
	}
	setup := func() *State {
		s := newGame(t, []string{OptBismarck})
		clearMap(s)
		put(t, s, "arethusa", "K8")
		put(t, s, "bismarck", "K8")
		return s
	}
	// Roll 2+2 = 4: evasion succeeds, nothing happens.
	s := resolve(t, setup(), "search surface Arethusa\nencounter Arethusa track", "encounter Bismarck evade", 2, 2)
	if len(s.Tracks) != 0 {
		t.Fatalf("tracks %+v after a successful evasion", s.Tracks)
	}
	var enc *Entry
	for _, e := range reportsTo(s, German, 1) {
		if e.Kind == "encounter" {
			e := e
			enc = &e
		}
	}
	if enc == nil || !strings.Contains(enc.Text, ResEvadeTrack) {
		t.Fatalf("no encounter with an evasion determination reported: %+v", enc)
	}
	// Roll 3+2 = 5: evasion fails, Arethusa tracks Bismarck.
	s = resolve(t, setup(), "search surface Arethusa\nencounter Arethusa track", "encounter Bismarck evade", 3, 2)
	if len(s.Tracks) != 1 || s.Tracks[0].Tracker != Allied || s.Tracks[0].TrackedUnits[0] != "bismarck" || s.Tracks[0].TrackedSpeed != 9 || s.Tracks[0].TrackerSpeed != 10 {
		t.Fatalf("tracks %+v, want Arethusa tracking Bismarck (speed 9 against 10)", s.Tracks)
	}
	// Next turn: the tracked group evades first (6.44); a failed roll makes
	// it move first and Arethusa follows to its hex.
	rejects(t, s, Allied, "move Arethusa K9", 1, "6.44")
	path := shortestPath(hex(t, "K8"), hex(t, "N8"), moveOK(German, "DE", false, 2, 0))
	s2 := resolve(t, s, "", "move Bismarck "+path[0].String()+" "+path[1].String(), 6, 6)
	a, b := s2.unit("arethusa"), s2.unit("bismarck")
	if a.Hex != b.Hex || len(s2.Tracks) != 1 || s2.Tracks[0].Hex != b.Hex {
		t.Fatalf("Arethusa at %s, Bismarck at %s, tracks %+v: the tracker follows (6.44)", a.Hex, b.Hex, s2.Tracks)
	}
	// A successful roll ends the tracking (6.45).
	s3 := resolve(t, s, "", "move Bismarck "+path[0].String(), 1, 1)
	if len(s3.Tracks) != 0 || s3.unit("arethusa").Hex != hex(t, "K8") {
		t.Fatalf("after a successful evasion: tracks %+v, Arethusa at %s", s3.Tracks, s3.unit("arethusa").Hex)
	}
}

func TestRule6_41_EncounterTable(t *testing.T) {
	cases := []struct{ senior, junior, want string }{
		{ChoiceTrack, ChoiceEvade, ResEvadeTrack}, // 6.44 example
		{ChoiceTrack, ChoiceFight, ResPursuit},    // 8.3
		{ChoiceFight, ChoiceTrack, ResPursuit},    // 8.3: either way round
		{ChoiceTrack, ChoiceTrack, ResTrack},
		{ChoiceFight, ChoiceFight, ResEngage},
		{ChoiceEvade, ChoiceEvade, ResNoContact},
	}
	for _, c := range cases {
		if got := EncounterTable[c.senior][c.junior]; got != c.want {
			t.Errorf("%s against %s: %s, want %s", c.senior, c.junior, got, c.want)
		}
	}
	// No evasion in a port: evade counts as fight (6.41 note).
	oslo, _ := portHex("Oslo")
	if c := choiceOf(German, &Orders{Encounters: []EncounterOrder{{Choice: ChoiceEvade}}}, []string{"blucher"}, oslo); c != ChoiceFight {
		t.Errorf("evade in Oslo = %s, want fight", c)
	}
}

func TestRule6_41_GermansTrackPureNorwegianForces(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	s.InvasionTurn = 1
	s.Turn = 3
	put(t, s, "norge", "Q12")
	put(t, s, "hipper", "Q12")
	s = resolve(t, s, "encounter all evade", "search surface Hipper\nencounter all track", 6, 6)
	if len(s.Tracks) != 1 || s.Tracks[0].Tracker != German {
		t.Fatalf("tracks %+v, want Hipper tracking Norge", s.Tracks)
	}
}

func TestRule6_14_IllegalMovesRejectedWithLineAndRule(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "renown", "O12")
	put(t, s, "hipper", "O13")
	put(t, s, "subhome", "K8")
	// A land hex (P14 is all land).
	rejects(t, s, German, "# comment\nmove Hipper P14", 2, "6.14")
	// A land hexside: O13 to P13 (the 6.14 example).
	e := rejects(t, s, German, "move Hipper P13", 1, "6.14")
	if !strings.Contains(e.Msg, "hexside") {
		t.Errorf("message %q should name the land hexside", e.Msg)
	}
	// Too far: 6 hexes on an odd turn with speed 5.
	path := shortestPath(hex(t, "O12"), hex(t, "A12"), moveOK(Allied, "UK", false, 1, 0))
	var six []string
	for _, h := range path[:6] {
		six = append(six, h.String())
	}
	rejects(t, s, Allied, "move Renown "+strings.Join(six, " "), 1, "6.12")
	// A Norwegian coastal hex before intervention.
	rejects(t, s, Allied, "move Renown O13", 1, "6.15")
	// A submarine searching at night (turn 1 is a night turn).
	rejects(t, s, Allied, "search surface SUB Home", 1, "6.35")
	// No air search at night.
	rejects(t, s, Allied, "search air K8", 1, "6.35")
	// A fourth air search on a day turn.
	s.Turn = 2
	rejects(t, s, Allied, "search air K8\nsearch air K9\nsearch air K10\nsearch air K11", 4, "6.32")
	// Paths name adjacent hexes.
	rejects(t, s, Allied, "move Renown K2", 1, "6.13")
	// Not a unit of the side.
	rejects(t, s, Allied, "move Hipper O11", 1, "3.412")
	// Unknown order.
	rejects(t, s, Allied, "sail Renown O11", 1, "")
}

func TestRule6_15_AlliedEntersNorwegianWatersTwoTurnsAfterInvasion(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "renown", "Q12")
	put(t, s, "hipper", "R12")
	s = resolve(t, s, "", "move Hipper Q13")
	if s.InvasionTurn != 1 {
		t.Fatalf("invasion turn %d, want 1 (9.1)", s.InvasionTurn)
	}
	rejects(t, s, Allied, "move Renown Q13", 1, "6.15")
	s = resolve(t, s, "", "")
	if s.Turn != 3 {
		t.Fatal(s.Turn)
	}
	parse(t, s, Allied, "move Renown Q13")
}

func TestRule6_18_LeavingAndBreakingOut(t *testing.T) {
	s := newGame(t, nil, 1, 1) // a 2: Bismarck must break out (4.51)
	clearMap(s)
	put(t, s, "bismarck", "EE5")
	rejects(t, s, German, "move Bismarck off", 1, "6.18")
	s.unit("bismarck").Hex = hex(t, "FF15") // the red border (3.1, TestRule3_1_RedBorderAtTheUpperRight)
	s = resolve(t, s, "", "move Bismarck off")
	if w := s.unit("bismarck").Where; w != AtBrokeOut {
		t.Fatalf("Bismarck %s, want broke out", w)
	}
	for _, e := range reportsTo(s, Allied, 1) {
		if e.Kind != "setup" && strings.Contains(e.Text, "Bismarck") {
			t.Errorf("the Allies were told of the breakout (6.18 says no): %q", e.Text)
		}
	}
}

func TestRule6_29_AirEmergencyScramble(t *testing.T) {
	s := newGame(t, nil)
	rejects(t, s, Allied, "scramble", 1, "6.29")
	rejects(t, s, German, "scramble cancel", 1, "6.291")
	s = resolve(t, s, "", "scramble")
	if s.Scramble != "active" || s.unit("eau1").Where != AtBase || s.unit("eau1").Base != "German area" {
		t.Fatalf("scramble %q, Me 110 %+v", s.Scramble, s.unit("eau1"))
	}
	if s.view(Allied).Scramble != "active" {
		t.Errorf("the Allies are not told (they score for it)")
	}
	rejects(t, s, German, "scramble", 1, "6.291")
	// Turns 2, 3, 4 are day turns, 5 is not: 3 day turns, 6 VP.
	for s.Turn < 5 {
		s = resolve(t, s, "", "")
	}
	s = resolve(t, s, "", "scramble cancel")
	if s.Scramble != "over" || s.ScrambleTurns != 3 {
		t.Fatalf("scramble %q for %d day turns, want over after 3", s.Scramble, s.ScrambleTurns)
	}
	found := false
	for _, l := range s.score() {
		if l.Side == Allied && l.Rule == "6.292" && l.Points == 6 {
			found = true
		}
	}
	if !found {
		t.Errorf("score %+v: want 6 Allied VP for the scramble", s.score())
	}
}

func TestRule6_43_SplitGroupsEvadeSeparately(t *testing.T) {
	s := newGame(t, []string{OptSplitting, OptBismarck})
	clearMap(s)
	put(t, s, "arethusa", "K8")
	put(t, s, "bismarck", "K8")
	put(t, s, "hipper", "K8")
	s.Tracks = []Track{{Tracker: Allied, TrackerUnits: []string{"arethusa"}, Tracked: German, TrackedUnits: []string{"bismarck", "hipper"}, Hex: hex(t, "K8"), Since: 1}}
	rejects(t, s, German, "move Hipper L8", 1, "6.43")
	// Bismarck splits off; Arethusa, the only tracker, follows her; Hipper's
	// group has no tracker and evades automatically (6.43). Bismarck's roll
	// of 6+6 fails.
	s = resolve(t, s, "", "split Bismarck\nmove Bismarck L8\nmove Hipper J8", 6, 6)
	if len(s.Tracks) != 1 || strings.Join(s.Tracks[0].TrackedUnits, ",") != "bismarck" {
		t.Fatalf("tracks %+v, want Arethusa on Bismarck alone", s.Tracks)
	}
	if s.unit("arethusa").Hex != s.unit("bismarck").Hex {
		t.Fatalf("Arethusa at %s, Bismarck at %s", s.unit("arethusa").Hex, s.unit("bismarck").Hex)
	}
	auto := false
	for _, e := range reportsTo(s, German, 1) {
		if e.Kind == "evasion" && strings.Contains(e.Text, "no tracker") {
			auto = true
		}
	}
	if !auto {
		t.Errorf("no automatic evasion reported for the untracked group")
	}
}

func TestRule6_12_ModerateDamageReducesSpeed(t *testing.T) {
	d := def("scharnhorst")
	u := &Unit{ID: "scharnhorst", Flooding: 2}
	if baseAllowance(d, u, 1) != 5 {
		t.Fatal("2 flooding is not yet moderate damage (3/3)")
	}
	u.Flooding = 3
	if !moderate(d, u) || baseAllowance(d, u, 1) != 3 || evasionSpeed(d, u) != 6 {
		t.Fatalf("moderate damage: allowance %d, evasion %d, want 3 and 6", baseAllowance(d, u, 1), evasionSpeed(d, u))
	}
}

func TestRule6_4_AirSearchesMakeNoEncounter(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "renown", "K8")
	put(t, s, "hipper", "K8")
	s.Turn = 2
	s = resolve(t, s, "search air K8", "")
	for _, e := range s.Log {
		if e.Kind == "encounter" {
			t.Fatalf("encounter after an air search: %s", e.Text)
		}
	}
	var seen *Entry
	for _, e := range reportsTo(s, Allied, 2) {
		if e.Kind == "search" {
			e := e
			seen = &e
		}
	}
	if seen == nil || seen.Count != 1 || seen.Types[0] != "CA" {
		t.Fatalf("air search report %+v, want 1 CA", seen)
	}
}

func TestRule6_34_SubmarinesAndQShipsUnseen(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "u47", "K8")
	put(t, s, "renown", "K8")
	s = resolve(t, s, "search surface Renown", "")
	for _, e := range reportsTo(s, Allied, 1) {
		if e.Kind == "search" && e.Count != 0 {
			t.Fatalf("a surface search saw a U-boat: %s", e.Text)
		}
	}
}

func TestRule6_33_OneSurfaceSearchAHex(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "renown", "K8")
	put(t, s, "repulse", "K8")
	rejects(t, s, Allied, "search surface Renown\nsearch Repulse", 2, "6.33")
	parse(t, s, Allied, "move Repulse K9\nsearch surface Renown\nsearch Repulse")
}

func TestRule6_28_AirborneLandings(t *testing.T) {
	s := newGame(t, nil)
	rejects(t, s, German, "airborne Fallschirmjager 1 Sola", 1, "6.28") // night, no invasion
	s.Turn, s.InvasionTurn = 2, 2
	rejects(t, s, German, "airborne FJ 1 Vaernes", 1, "6.28") // not snow-free
	rejects(t, s, German, "rebase FJ 1 to Aalborg", 1, "6.28")
	// FJ 1 on Sola: 5 takes it, then 6 takes Stavanger next to it (9.52);
	// FJ 2 on Fornebu: 1 fails and the unit is lost.
	s = resolve(t, s, "", "airborne FJ 1 Sola\nairborne FJ 2 Fornebu", 5, 6, 1)
	if s.occupation("airfield", "Sola") < 0 || s.occupation("port", "Stavanger") < 0 {
		for _, e := range s.Log {
			t.Log(e.Turn, e.Kind, e.Text)
		}
		t.Fatalf("occupied %+v: want Sola and Stavanger", s.Occupied)
	}
	if s.unit("para1").Where != AtLanded || s.unit("para2").Where != AtSunk {
		t.Fatalf("para1 %s, para2 %s", s.unit("para1").Where, s.unit("para2").Where)
	}
	if s.occupation("airfield", "Fornebu") >= 0 {
		t.Fatal("Fornebu taken by a failed landing")
	}
	pts := 0
	for _, l := range s.score() {
		if l.Side == Allied && strings.Contains(l.Why, "Fallschirmjager 2") {
			pts += l.Points
		}
	}
	if pts != 1 {
		t.Errorf("lost airborne unit scores %d, want 1 (16.3)", pts)
	}
	rejects(t, s, German, "airborne FJ 1 Kjevik", 1, "6.28") // lands once
}

func TestRule6_18_RaiderEndsTheGameEarly(t *testing.T) {
	s := newGame(t, nil)
	rejects(t, s, German, "end game", 1, "6.18") // invasion objective
	s = newGame(t, nil, 1, 1)                    // Bismarck must break out
	rejects(t, s, Allied, "end game", 1, "6.18")
	s.unit("bismarck").Where = AtBrokeOut
	s = resolve(t, s, "", "end game")
	if !s.Over || s.Result == nil || s.Result.Points[German] != 5 {
		t.Fatalf("over %v result %+v", s.Over, s.Result)
	}
	rep := Ruleset{}.Report(s.view(Allied), Allied)
	if !strings.Contains(rep, "Turn 1, 8 April night: what you learned") || !strings.Contains(rep, "ends the game after turn 1") {
		t.Errorf("final report:\n%s", rep)
	}
}

func TestRule6_46_GermansMayReportCAAsBB(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "hipper", "K8")
	put(t, s, "renown", "K8")
	rejects(t, s, Allied, "disguise", 1, "6.46")
	for _, c := range []struct {
		orders, want string
	}{{"encounter all fight", "CA"}, {"disguise\nencounter all fight", "BB"}} {
		n := resolve(t, s, "search surface Renown\nencounter all evade", c.orders, 1, 1)
		var seen *Entry
		for _, e := range reportsTo(n, Allied, 1) {
			if e.Kind == "search" {
				e := e
				seen = &e
			}
		}
		if seen == nil || len(seen.Types) != 1 || seen.Types[0] != c.want {
			t.Errorf("orders %q: reported %+v, want %s", c.orders, seen, c.want)
		}
	}
}

func TestRule6_292_ScrambleRaisesVaernesCapacity(t *testing.T) {
	s := newGame(t, nil)
	s.Occupied = []Occupation{{Kind: "airfield", Place: "Vaernes", Hex: "Q16", Turn: 8, Usable: 12}}
	if c := capacity(s.view(German), "Vaernes"); c != 1 {
		t.Fatalf("Vaernes holds %d", c)
	}
	s.Scramble = "active"
	if c := capacity(s.view(German), "Vaernes"); c != 2 {
		t.Fatalf("Vaernes holds %d during the scramble, want 2 (6.292 example)", c)
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

// TestRule6_301_SearchingIsNeverMandatory: 6.301 "Searching is never
// mandatory. (An air search need not use all 3 hexes, and a surface ship
// search opportunity may be given up at will.)" By day Hipper and Penelope
// share K8; neither searches it, the Allies air-search one hex only, Q12.
// The orders are valid, no encounter is made (6.4: only a surface or
// submarine search gives one) and no die is rolled. Hipper stopping within
// 3 hexes of Scotland is still reported by number (6.37), which is no
// encounter either.
func TestRule6_301_SearchingIsNeverMandatory(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	s.Turn = 2
	put(t, s, "hipper", "K8")
	put(t, s, "penelope", "K8")
	s, _ = resolveExactly(t, s, "search air Q12", "")
	if len(s.Engagements) != 0 || len(s.Tracks) != 0 {
		t.Fatalf("engagements %+v, tracks %+v without a surface search", s.Engagements, s.Tracks)
	}
	for _, e := range s.Log {
		if e.Turn == 2 && e.Kind == "encounter" {
			t.Errorf("an encounter without a surface search: %q", e.Text)
		}
	}
	if logWith(s, 2, "Air search of Q12") == nil || logWith(s, 2, "Passive report", "K8") == nil {
		t.Errorf("the air search of Q12 and the passive report of K8 are missing: %+v", reportsTo(s, Allied, 2))
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
