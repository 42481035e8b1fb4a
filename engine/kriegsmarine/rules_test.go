package kriegsmarine

import (
	"encoding/json"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// newGame starts a game whose objective roll is 3+4 = 7 (Invasion of
// Norway) unless other dice are given.
func newGame(t *testing.T, opts []string, dice ...int) *State {
	t.Helper()
	if len(dice) == 0 {
		dice = []int{3, 4}
	}
	st, err := Ruleset{}.New(engine.Setup{Options: opts}, enginetest.ThenOnes(dice...))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func hex(t *testing.T, s string) engine.Hex {
	t.Helper()
	h, err := engine.ParseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// put places a unit on the map.
func put(t *testing.T, s *State, id, at string) {
	t.Helper()
	u := s.unit(id)
	if u == nil {
		t.Fatalf("no unit %s", id)
	}
	u.Where, u.Hex = AtMap, hex(t, at)
}

// clearMap takes every ship off the map, so that a test sees only its own.
func clearMap(s *State) {
	for i := range s.Units {
		if s.Units[i].Where == AtMap {
			s.Units[i].Where = AtOut
		}
	}
}

func parse(t *testing.T, s *State, side engine.Side, text string) *Orders {
	t.Helper()
	o, errs := Ruleset{}.ParseOrders(s, side, text)
	if len(errs) > 0 {
		t.Fatalf("%s orders rejected: %v", side, errs)
	}
	return o.(*Orders)
}

func resolve(t *testing.T, s *State, allied, german string, dice ...int) *State {
	t.Helper()
	orders := map[engine.Side]engine.Orders{Allied: parse(t, s, Allied, allied), German: parse(t, s, German, german)}
	md := enginetest.ThenOnes(dice...)
	next, err := Ruleset{}.Resolve(s, orders, md)
	if err != nil {
		t.Fatal(err)
	}
	if md.Short() > 0 {
		t.Fatalf("resolution asked for %d more dice than given", md.Short())
	}
	return next.(*State)
}

func reportsTo(s *State, side engine.Side, turn int) []Entry {
	var out []Entry
	for _, e := range s.Log {
		if e.Turn == turn && (e.To == string(side) || e.To == "both") {
			out = append(out, e)
		}
	}
	return out
}

func rejects(t *testing.T, s *State, side engine.Side, text string, line int, rule string) engine.LineError {
	t.Helper()
	_, errs := Ruleset{}.ParseOrders(s, side, text)
	if len(errs) == 0 {
		t.Fatalf("accepted: %q", text)
	}
	e := errs[0]
	if e.Line != line || e.Rule != rule {
		t.Fatalf("error %v: want line %d rule %s", e, line, rule)
	}
	if e.Msg == "" || e.Text == "" {
		t.Fatalf("error without message or text: %+v", e)
	}
	return e
}

func TestRule3_41_DataValuesStatedByTheRulebook(t *testing.T) {
	cases := []struct {
		id                           string
		odd, even, gun, hits, fm, fs int
	}{
		{"richelieu", 5, 4, -1, -1, -1, -1}, // 6.12
		{"hipper", -1, -1, 4, 4, -1, -1},    // 8.62
		{"glasgow", -1, -1, 4, -1, -1, -1},  // 8.23
		{"scharnhorst", -1, 5, -1, -1, 3, 3},
	}
	for _, c := range cases {
		d := def(c.id)
		for _, x := range []struct {
			want, got int
			what      string
		}{{c.odd, d.SpeedOdd, "odd speed"}, {c.even, d.SpeedEven, "even speed"}, {c.gun, d.Gunnery, "gunnery"}, {c.hits, d.Hits, "hit capacity"}, {c.fm, d.FloodModerate, "flooding"}, {c.fs, d.FloodSink, "flooding capacity"}} {
			if x.want >= 0 && x.want != x.got {
				t.Errorf("%s %s = %d, want %d", d.Name, x.what, x.got, x.want)
			}
		}
	}
	if e := def("bismarck").EvasionSpeed(); e != 9 {
		t.Errorf("Bismarck evasion speed %d, want 5+4=9 (6.43)", e)
	}
	if e := def("arethusa").EvasionSpeed(); e != 10 {
		t.Errorf("Arethusa evasion speed %d, want 10 (6.44)", e)
	}
	if d := def("ddfloti"); d.Torpedo != 5 {
		t.Errorf("German DD Flot I torpedo %d, want 5 (8.28)", d.Torpedo)
	}
	if d := def("ddflot4"); d.Torpedo != 5 {
		t.Errorf("British DD Flot 4 torpedo %d, want 5 (8.65)", d.Torpedo)
	}
	for _, id := range []string{"hood", "rodney"} {
		if d := def(id); d.Torpedo != 2 || d.TorpPerTurn != 1 || d.TorpMode != TorpLimit {
			t.Errorf("%s torpedo %d at most %d a turn (%s), want 2 at most 1 (8.281)", d.Name, d.Torpedo, d.TorpPerTurn, d.TorpMode)
		}
	}
	if r := def("kglion1").Radius; r != 14 {
		t.Errorf("KG Lion radius %d, want 14 (6.21)", r)
	}
	for _, id := range []string{"lossiemouth1", "lossiemouth2", "lossiemouth3"} {
		if d := def(id); d.Radius != 30 || d.Base != "Lossiemouth" || d.Type != "B" {
			t.Errorf("%s: %s %s radius %d, want B at Lossiemouth radius 30 (4.3, 6.23)", id, d.Type, d.Base, d.Radius)
		}
	}
	for id, c := range map[string]int{"furious": 2, "arkroyal": 4, "grafzeppelin": 3} {
		if got := def(id).Carrier; got != c {
			t.Errorf("%s carries %d, want %d (6.26)", id, got, c)
		}
	}
	for _, id := range []string{"glowworm", "gurkha", "fearless", "hanslude", "berndvarnim", "richardbeitzen"} {
		if d := def(id); d.Gunnery != 1 || d.Torpedo != 1 || d.Ships != 1 {
			t.Errorf("independent destroyer %s: gunnery %d torpedo %d, want 1 and 1 (12.0)", d.Name, d.Gunnery, d.Torpedo)
		}
	}
	// Every ship of the two damage record sheets is in the data pack.
	for _, n := range []string{"Ark Royal", "Furious", "King George V", "Hood", "Renown", "Repulse", "Rodney", "Valiant", "Warspite",
		"Devonshire", "York", "Birmingham", "Berwick", "Glasgow", "Southampton", "Manchester", "Sheffield", "Penelope", "Arethusa", "Galatea",
		"DD Flot 4", "DD Flot 12", "DD Flot 7", "DD Flot 6", "DD Flot 2", "DD Flot 3", "DD Flot 5", "DD Flot 1", "Glowworm", "Gurkha", "Fearless",
		"ML Flot 20", "Polish DD Flot 1", "Richelieu", "Dunkerque", "Strasbourg", "Suffren", "Emile Bertin", "French DD Flot 1", "French DD Flot 2",
		"Norge", "Eidsvold", "Tordenskjold", "Harald Haarfagre", "Peder Skram", "Danish TB Flot 1"} {
		if _, ok := lookupName(Allied, n); !ok {
			t.Errorf("Allied sheet ship %q missing", n)
		}
	}
	for _, n := range []string{"Graf Zeppelin", "Bismarck", "Scharnhorst", "Gneisenau", "Lützow", "Hipper", "Blücher", "Königsberg", "Köln", "Karlsruhe", "Emden",
		"Schlesien", "Nordmark", "DD Flot I", "DD Flot II", "DD Flot III", "TB Flot I", "TB Flot II", "TB Flot III", "Hans Lüdemann", "Bernd v. Arnim",
		"Richard Beitzen", "S-Boat Flot I", "S-Boat Flot II", "Q-Ships"} {
		if _, ok := lookupName(German, n); !ok {
			t.Errorf("German sheet ship %q missing", n)
		}
	}
	for _, d := range Units() {
		if d.Source == "" {
			t.Errorf("%s has no source", d.ID)
		}
	}
}

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

func indexOf(s *State, id string) int {
	for i := range s.Units {
		if s.Units[i].ID == id {
			return i
		}
	}
	return -1
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

func TestRule15_0_WeatherCutsSpeed(t *testing.T) {
	// 15.0 example: 5-5 reduced by 1 is 4-4, by 3 is 2-2.
	if a := weatherAllowance(5, true, Gale, true, hex(t, "K8"), nil); a != 4 {
		t.Errorf("destroyer in a gale: %d, want 4", a)
	}
	if a := weatherAllowance(5, true, Strong, true, hex(t, "K8"), nil); a != 2 {
		t.Errorf("destroyer in strong wind: %d, want 2", a)
	}
	if a := weatherAllowance(5, false, Gale, true, hex(t, "K8"), nil); a != 5 {
		t.Errorf("cruiser in a gale: %d, want 5", a)
	}
	if a := weatherAllowance(5, true, Gale, false, hex(t, "K8"), nil); a != 5 {
		t.Errorf("weather off: %d, want 5", a)
	}
}

func TestRule15_2_DestroyerMovingSouthInStrongWind(t *testing.T) {
	start := hex(t, "X14")
	path := shortestPath(start, hex(t, "U13"), moveOK(German, "DE", false, 2, 0))
	if len(path) != 3 || !movesSouth(start, path) {
		t.Fatalf("path %v from X14 to U13", path)
	}
	if a := weatherAllowance(5, true, Strong, true, start, path); a != 3 {
		t.Errorf("destroyer moving south in strong wind: %d, want 3-3", a)
	}
	s := newGame(t, []string{OptWeather})
	clearMap(s)
	s.Weather = Strong
	put(t, s, "ddfloti", "X14")
	parse(t, s, German, "move DD Flot I W14 V13 U13")
	rejects(t, s, German, "move DD Flot I W14 V13 U13 T13", 1, "15.0")
}

func TestRule15_3_ShelteredStartIsAGale(t *testing.T) {
	if !sheltered(hex(t, "Z16")) || !sheltered(hex(t, "AA17")) {
		t.Fatal("Z16 and AA17 are the light-grey hexes of 15.3")
	}
	if a := weatherAllowance(5, true, Strong, true, hex(t, "Z16"), nil); a != 4 {
		t.Errorf("destroyer starting at Z16 in strong wind: %d, want the gale's 4", a)
	}
}

func TestRule4_1_ObjectiveSecretUntilTheEnd(t *testing.T) {
	s := newGame(t, nil)
	if s.Objective.Roll != 7 || s.Objective.Result.Kind != ObjInvasion {
		t.Fatalf("objective %+v", s.Objective)
	}
	av, _ := json.Marshal(s.view(Allied))
	if strings.Contains(string(av), "objective") || strings.Contains(string(av), "invasion\"") {
		t.Errorf("the Allied view shows the objective: %s", av)
	}
	if s.view(German).Objective == nil {
		t.Errorf("the German view lacks the objective")
	}
	s.Over = true
	if s.view(Allied).Objective == nil {
		t.Errorf("the objective is not revealed at the end")
	}
	for r := 2; r <= 12; r++ {
		res := TargetTable.Lookup(r)
		if res.Kind != ObjInvasion && res.Kind != ObjRaiding {
			t.Errorf("roll %d: %+v", r, res)
		}
		for _, id := range append(append([]string(nil), res.Raiders...), append(res.Support, res.UBs...)...) {
			if _, ok := UnitByID(id); !ok {
				t.Errorf("roll %d names unknown unit %s", r, id)
			}
		}
	}
}

func TestRule4_51_ATwoForcesBismarck(t *testing.T) {
	s := newGame(t, nil, 1, 1)
	if s.Objective.Result.Kind != ObjRaiding || !contains(s.Objective.Result.Raiders, "bismarck") {
		t.Fatalf("objective %+v, want Bismarck to break out", s.Objective)
	}
	if w := s.unit("bismarck").Where; w != AtHeld {
		t.Fatalf("Bismarck %s, want held in the German area", w)
	}
	if u := s.unit("hood"); u.Where != AtWaiting || u.Arrive != 4 {
		t.Errorf("Hood %+v: the Allied answer to Bismarck (4.5 option 1) arrives with the second wave", u)
	}
	if w := s.unit("scharnhorst").Where; w != AtOut {
		t.Errorf("Scharnhorst %s: raiding brings only the listed units (4.43)", w)
	}
	// Without the 2, Bismarck is out unless the option is taken.
	if w := newGame(t, nil).unit("bismarck").Where; w != AtOut {
		t.Errorf("Bismarck %s without the option", w)
	}
	if w := newGame(t, []string{OptBismarck}).unit("bismarck").Where; w != AtHeld {
		t.Errorf("Bismarck %s with the option (4.5)", w)
	}
}

func TestRule4_42_InvasionSetUp(t *testing.T) {
	s := newGame(t, nil)
	for _, id := range []string{"scharnhorst", "hipper", "blucher", "ddfloti"} {
		if w := s.unit(id).Where; w != AtHeld {
			t.Errorf("%s %s, want held off the map (4.422)", id, w)
		}
	}
	if u := s.unit("aonord"); u.Where != AtMap || u.Hex.Row != 32 {
		t.Errorf("North AO %+v, want in row FF (4.421)", u)
	}
	for _, id := range []string{"aokattegat", "aoskagerrak"} {
		if u := s.unit(id); u.Where != AtMap || u.Hex.Row > 12 {
			t.Errorf("%s %+v, want in row L or south (4.421)", id, u)
		}
	}
	for _, u := range s.Units {
		if d := def(u.ID); d.Side == German && d.Sub() {
			if u.Where != AtMap || nearCoast(u.Hex, 3, "UK", "DK", "NO") {
				t.Errorf("%s at %s: U-boats start 3 hexes or more from the coasts (4.423)", d.Name, u.Hex)
			}
		}
	}
	if w := s.unit("richardbeitzen").Where; w != AtReserve {
		t.Errorf("Richard Beitzen %s, want reserve (4.424)", w)
	}
	rejects(t, s, German, "enter Richard Beitzen A12", 1, "4.424")
	for _, id := range []string{"lossiemouth1", "lossiemouth2", "lossiemouth3", "hatstonskua"} {
		if u := s.unit(id); u.Where != AtBase {
			t.Errorf("%s %+v: usable from the first turn (4.3)", id, u)
		}
	}
	if s.Weather != Gale {
		t.Errorf("weather %s, want gale (4.61)", s.Weather)
	}
}

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

func TestResolveLeavesItsInputAlone(t *testing.T) {
	s := newGame(t, nil)
	before, _ := json.Marshal(s)
	resolve(t, s, "search surface Renown", "enter Scharnhorst A12")
	after, _ := json.Marshal(s)
	if string(before) != string(after) {
		t.Fatal("Resolve modified its input state")
	}
}

func TestOrderSyntaxAliasesCommentsAndFormat(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "lutzow", "K8")
	o := parse(t, s, German, "  MOVE luetzow K9   # north\n# a comment\nencounter LÜTZOW fight\nsearch surface lutzow\n")
	if len(o.Moves) != 1 || o.Moves[0].Units[0] != "lutzow" || o.Moves[0].Path[0] != hex(t, "K9") {
		t.Fatalf("orders %+v", o)
	}
	text := Ruleset{}.FormatOrders(s, German, o)
	want := "move Lützow K9\nsearch surface Lützow\nencounter Lützow fight\n"
	if text != want {
		t.Fatalf("formatted %q, want %q", text, want)
	}
	o2 := parse(t, s, German, text)
	if (Ruleset{}).FormatOrders(s, German, o2) != text {
		t.Fatal("format does not round-trip")
	}
}
