package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

func TestRule14_0_RShipsReturnToScapaFlow(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "birmingham", "K8")
	s.Turn = WithdrawalTurn
	rejects(t, s, Allied, "move Birmingham K9", 1, "14.0")
	if !s.view(Allied).unit("birmingham").Returning {
		t.Fatal("the view does not say Birmingham returns")
	}
	start := s.unit("birmingham").Hex
	s = resolve(t, s, "", "")
	scapa, _ := portHex("Scapa Flow")
	moved := start.Distance(s.unit("birmingham").Hex)
	if moved != 5 || s.unit("birmingham").Hex.Distance(scapa) >= start.Distance(scapa) {
		t.Fatalf("Birmingham went from %s to %s: want all 5 points towards Scapa Flow", start, s.unit("birmingham").Hex)
	}
	for i := 0; i < 6 && !s.unit("birmingham").Returned; i++ {
		s = resolve(t, s, "", "", 6)
	}
	if !s.unit("birmingham").Returned || s.unit("birmingham").Hex != scapa {
		t.Fatalf("Birmingham never reached Scapa Flow: %+v", s.unit("birmingham"))
	}
	parse(t, s, Allied, "move Birmingham "+shortestPath(scapa, hex(t, "K8"), moveOK(Allied, "UK", false, s.Turn, 0))[0].String())
}

func TestRule14_2_QShipsArriveOnTurn4NearBergenUnseen(t *testing.T) {
	s := newGame(t, []string{OptQShips})
	if u := s.unit("qships"); u.Where != AtWaiting || u.Arrive != 4 {
		t.Fatalf("Q-ships %+v", u)
	}
	for s.Turn < 4 {
		s = resolve(t, s, "", "")
	}
	u := s.unit("qships")
	bergen, _ := portHex("Bergen")
	if u.Where != AtMap || !norwegian(u.Hex) || u.Hex.Distance(bergen) > 2 {
		t.Fatalf("Q-ships %+v: want on the Norwegian coast within 2 of Bergen", u)
	}
	// Searches never see them (6.34, 17.7).
	if got := s.visibleAt(German, u.Hex); len(got) != 0 {
		t.Errorf("search sees %v", got)
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

func TestRule5_1_WeatherOnMorningAndAfternoonTurns(t *testing.T) {
	s := newGame(t, []string{OptWeather})
	// Turn 1 (night) ends; turn 2 is a morning: 1+1 = 2 improves by 2.
	s = resolve(t, s, "", "", 1, 1)
	if s.Weather != Calm {
		t.Fatalf("weather %s after a 2, want calm", s.Weather)
	}
	// Turn 3 (noon): no determination, no dice.
	s = resolve(t, s, "", "")
	if s.Weather != Calm || s.Turn != 3 {
		t.Fatalf("weather %s on turn %d", s.Weather, s.Turn)
	}
	// Turn 4 (afternoon): 6+6 worsens by 2, from calm to gale.
	s = resolve(t, s, "", "", 6, 6)
	if s.Weather != Gale {
		t.Fatalf("weather %s after a 12 from calm, want gale", s.Weather)
	}
	if nextWeather(Strong, 12) != Strong || nextWeather(Calm, 2) != Calm {
		t.Errorf("the weather must stay between calm and strong wind (15.0)")
	}
	// Without the option there is no weather determination.
	s = resolve(t, newGame(t, nil), "", "")
	if s.Weather != Gale {
		t.Errorf("weather changed without the weather rule")
	}
}

func TestRule12_0_DetachIndependentDestroyer(t *testing.T) {
	s := newGame(t, nil)
	rejects(t, s, Allied, "detach Gurkha from DD Flot 4", 1, "12.0")
	s = newGame(t, []string{OptIndependent})
	flot := s.unit("ddflot4").Hex
	rejects(t, s, Allied, "detach Glowworm from DD Flot 4", 1, "12.0")
	s = resolve(t, s, "detach Gurkha from DD Flot 4", "")
	if g := s.unit("gurkha"); g.Where != AtMap || g.Hex != flot {
		t.Fatalf("Gurkha %+v, want in %s with its flotilla", g, flot)
	}
	if h := s.unit("ddflot4").Hits; h != 1 {
		t.Fatalf("DD Flot 4 has %d hits, want 1 for the destroyer it gave up", h)
	}
	if s.gunnery("gurkha") != 1 {
		t.Errorf("independent destroyer gunnery %d, want 1", s.gunnery("gurkha"))
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

func TestRule4_43_RaidingDrawsCruisersFromTheCup(t *testing.T) {
	s := newGame(t, nil, 1, 2, 1, 1) // 3: Scharnhorst and Gneisenau, CA/CL x2
	if s.Objective.Result.Kind != ObjRaiding || len(s.Objective.Cruisers) != 2 {
		t.Fatalf("objective %+v", s.Objective)
	}
	held := 0
	for _, u := range s.Units {
		d := def(u.ID)
		if d.Side == German && (d.Type == "CA" || d.Type == "CL") && u.Where == AtHeld {
			held++
			if !contains(s.Objective.Cruisers, u.ID) {
				t.Errorf("%s in play but not drawn", d.Name)
			}
		}
	}
	if held != 2 {
		t.Errorf("%d cruisers in play, want the 2 drawn", held)
	}
	for _, id := range []string{"scharnhorst", "gneisenau", "ddfloti", "nordmark"} {
		if w := s.unit(id).Where; w != AtHeld {
			t.Errorf("%s %s, want held", id, w)
		}
	}
	if s.unit("aonord").Where != AtOut {
		t.Errorf("the North AO is placed only for the invasion (4.421)")
	}
}

func TestRule5_13_BardufossFallsOnASix(t *testing.T) {
	s := newGame(t, nil)
	s.Turn = 6
	s.occupyPort("Narvik", enginetest.ThenOnes())
	if s.occupation("airfield", "Bardufoss") >= 0 {
		t.Fatal("Bardufoss fell with Narvik (9.51 says not)")
	}
	s.Turn = 7
	s.pendingOccupations(enginetest.ThenOnes(5))
	if s.occupation("airfield", "Bardufoss") >= 0 {
		t.Fatal("Bardufoss fell on a 5")
	}
	s.Turn = 8
	s.pendingOccupations(enginetest.ThenOnes(6))
	if s.occupation("airfield", "Bardufoss") < 0 {
		t.Fatal("Bardufoss did not fall on a 6")
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

func TestRule4_21_NorwegianPortsReported(t *testing.T) {
	s := newGame(t, nil)
	found := false
	for _, e := range s.view(German).Reports {
		if e.Rule == "4.21" && e.Hex == "CC19" && e.Count == 2 {
			found = true
		}
	}
	if !found {
		t.Fatalf("the Germans are not told of 2 Norwegian units at Narvik")
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

func TestRule16_41_VestfjordForceLateAtScapaFlow(t *testing.T) {
	s := newGame(t, nil)
	s.Turn = 10
	s = resolve(t, s, "", "")
	if len(s.Late) != 2 {
		t.Fatalf("late %v, want ML Flot 20 and DD Flot 12", s.Late)
	}
	pts := 0
	for _, l := range s.score() {
		if l.Rule == "16.41" {
			pts += l.Points
		}
	}
	if pts != 2 {
		t.Errorf("16.41 points %d, want 2", pts)
	}
}

func TestRule16_5_VictoryLevels(t *testing.T) {
	s := newGame(t, nil)
	r := s.result()
	if r.Winner != "" || !strings.HasPrefix(r.Summary, "Draw") {
		t.Fatalf("no VP: %+v", r)
	}
	s.unit("blucher").Where = AtSunk // 8 VP: tactical needs 5 more
	if r := s.result(); r.Winner != Allied || r.Level != "tactical" || r.Points[Allied] != 8 {
		t.Fatalf("Blücher sunk: %+v", r)
	}
	s.unit("scharnhorst").Where = AtSunk
	s.unit("gneisenau").Where = AtSunk // 2 German BC sunk: strategic (16.53)
	if r := s.result(); r.Winner != Allied || r.Level != "strategic" {
		t.Fatalf("two BC sunk: %+v", r)
	}
	s = newGame(t, nil)
	for _, p := range []string{"Oslo", "Narvik", "Bergen", "Trondheim", "Stavanger"} {
		s.occupyPort(p, enginetest.ThenOnes())
	}
	if r := s.result(); r.Winner != German || r.Level != "strategic" || r.Points[German] != 51 {
		t.Fatalf("five ports with Oslo: %+v", r)
	}
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

func TestRule4_1_OptionalChooseInvasion(t *testing.T) {
	s := newGame(t, []string{OptInvasion}, 1, 1)
	if s.Objective.Roll != 2 || s.Objective.Result.Kind != ObjInvasion {
		t.Fatalf("objective %+v: the option takes the invasion whatever the roll", s.Objective)
	}
}

func TestRule17_2_KingGeorgeVGuns(t *testing.T) {
	s := newGame(t, []string{OptBismarck, OptKGV})
	if g := s.gunnery("kgv"); g != 11 {
		t.Fatalf("KGV gunnery %d, want 11", g)
	}
	s.unit("kgv").Flooding = def("kgv").FloodModerate
	if g := s.gunnery("kgv"); g != 5 {
		t.Fatalf("damaged KGV gunnery %d, want 5", g)
	}
	if g := newGame(t, []string{OptBismarck}).gunnery("kgv"); g != def("kgv").Gunnery {
		t.Fatalf("KGV gunnery %d without the option", g)
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

// TestRulesListEverySection checks Rules against the rulebook: every
// numbered heading of the text is listed, and every test named exists.
func TestRulesListEverySection(t *testing.T) {
	rules := Ruleset{}.Rules()
	listed := map[string]bool{}
	for _, r := range rules {
		if listed[r.Section] {
			t.Errorf("section %s listed twice", r.Section)
		}
		listed[r.Section] = true
		switch r.Status {
		case engine.StatusImplemented, engine.StatusReconstructed, engine.StatusPartial, engine.StatusNotYet, engine.StatusNotApplicable:
		default:
			t.Errorf("section %s: status %q", r.Section, r.Status)
		}
	}
	for _, sec := range rulebookSections(t) {
		if !listed[sec] {
			t.Errorf("rulebook section %s is not listed by Rules", sec)
		}
	}
	tests := testNames(t)
	for _, r := range rules {
		for _, name := range r.Tests {
			if !tests[name] {
				t.Errorf("section %s names a test that does not exist: %s", r.Section, name)
			}
		}
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

func TestRule14_1_HN25ConvoyAndItsEscort(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "ddflot4", "J9")
	s.Turn = ConvoyTurn - 1
	s = resolve(t, s, "", "")
	c := s.unit("hn25")
	if c.Where != AtMap || c.Hex != hex(t, "J9") || s.ConvoyEscort != "ddflot4" {
		t.Fatalf("convoy %+v escort %q, want with DD Flot 4 at J9", c, s.ConvoyEscort)
	}
	if s.view(German).ConvoyEscort != "" {
		t.Error("the German view names the escort")
	}
	rejects(t, s, Allied, "move HN25 Convoy J8", 1, "14.1")
	parse(t, s, Allied, "move HN25 Convoy, DD Flot 4 J8 J7")
	// The escort annihilated, the convoy is destroyed: 10 VP to Germany.
	s.unit("ddflot4").Where = AtSunk
	s.convoyCheck()
	if s.unit("hn25").Where != AtSunk {
		t.Fatal("the convoy survived its escort")
	}
	pts := 0
	for _, l := range s.score() {
		if l.Side == German && strings.Contains(l.Why, "HN25") {
			pts += l.Points
		}
	}
	if pts != 10 {
		t.Errorf("HN25 sunk scores %d, want 10", pts)
	}
	// Alone when no escort is near Bergen (14.11).
	s2 := newGame(t, nil)
	clearMap(s2)
	s2.Turn = ConvoyTurn - 1
	s2 = resolve(t, s2, "", "")
	bergen, _ := portHex("Bergen")
	if c := s2.unit("hn25"); c.Where != AtMap || c.Hex.Distance(bergen) > 2 || s2.ConvoyEscort != "" {
		t.Fatalf("lone convoy %+v", c)
	}
	// Leaving elsewhere than between G1 and K1 is refused.
	s2.unit("hn25").Hex = hex(t, "A5")
	rejects(t, s2, Allied, "move HN25 off", 1, "14.1")
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

func TestRule10_2_CommandersModifyEvasionAndGunnery(t *testing.T) {
	s := newGame(t, []string{OptCommanders, OptBismarck})
	if !s.commanded("bismarck") || s.commanded("scharnhorst") {
		t.Fatalf("Lütjens is not on Bismarck (10.12): %+v", s.Commanders)
	}
	if !s.commanded("ddflot4") || !s.commanded("renown") {
		t.Fatalf("commanders %+v", s.Commanders)
	}
	if m := s.evasionMod([]string{"bismarck"}, []string{"arethusa"}); m != -1 {
		t.Errorf("evader with a commander: %d, want -1", m)
	}
	if m := s.evasionMod([]string{"hipper"}, []string{"ddflot4"}); m != 0 {
		t.Errorf("both with commanders (Heye, Vian): %d, want 0", m)
	}
	if m := s.evasionMod([]string{"emden"}, []string{"ddflot4", "glowworm"}); m != 1 {
		t.Errorf("tracker group with Vian: %d, want +1", m)
	}
	if newGame(t, nil).eriksen() {
		t.Error("Eriksen without the commanders option")
	}
	// 10.32: Vian dies with his annihilated task force.
	clearMap(s)
	put(t, s, "ddflot4", "K8")
	s.unit("ddflot4").Where = AtSunk
	s.injuries([]string{"ddflot4"}, false, hex(t, "K8"), enginetest.ThenOnes(1))
	for _, c := range s.Commanders {
		if c.ID == "vian" && c.Status != "killed" {
			t.Errorf("Vian %+v after his flotilla was annihilated", c)
		}
	}
	// 10.31: unharmed, Whitworth moves to another ship in the hex.
	put(t, s, "renown", "K9")
	put(t, s, "repulse", "K9")
	s.unit("renown").Where = AtSunk
	s.injuries([]string{"renown"}, false, hex(t, "K9"), enginetest.ThenOnes(1)) // 1+2 = 3: unharmed
	if !s.commanded("repulse") {
		t.Errorf("Whitworth did not move to Repulse: %+v", s.Commanders)
	}
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

func TestRule11_1_WilfredForce(t *testing.T) {
	s := newGame(t, []string{OptWilfred})
	clearMap(s)
	s.InvasionTurn = 2
	s.Turn = WilfredTurn - 1
	s = resolve(t, s, "", "")
	if s.Wilfred.Status != "aboard" {
		t.Fatalf("Wilfred %+v on turn 7 after an invasion", s.Wilfred)
	}
	if g := s.gunnery("glasgow"); g != 3 {
		t.Errorf("Glasgow gunnery %d while carrying the force, want 3 (11.2)", g)
	}
	if s.view(German).Wilfred != nil {
		t.Error("the German view shows the Wilfred Force at sea")
	}
	rejects(t, s, Allied, "move Glasgow G4", 1, "11.1")
	bergen, _ := portHex("Bergen")
	for _, id := range FourthEchelon {
		put(t, s, id, bergen.String())
	}
	put(t, s, "koln", bergen.String())
	put(t, s, "konigsberg", bergen.String())
	// Bergen's fortress fires at the German ships: 5, no defence.
	s = resolve(t, s, "", "", 5)
	if s.Wilfred.Status != "landed" || !s.Wilfred.Held || s.Wilfred.Port != "Bergen" {
		t.Fatalf("Wilfred %+v, want landed at Bergen", s.Wilfred)
	}
	// The next German attempt fails at once (11.1); 5 is no defence again.
	s = resolve(t, s, "", "", 5)
	if s.occupation("port", "Bergen") >= 0 {
		t.Fatal("Germany took Bergen from the Wilfred Force")
	}
	pts := 0
	for _, l := range s.score() {
		if l.Side == Allied && strings.Contains(l.Why, "Wilfred") {
			pts += l.Points
		}
	}
	if pts != 12 {
		t.Errorf("Bergen held by the Allies scores %d, want 2 x 6 (16.3)", pts)
	}
	// Two cruisers lost before landing destroy the force.
	s2 := newGame(t, []string{OptWilfred})
	s2.Wilfred.Status = "aboard"
	s2.unit("york").Where, s2.unit("berwick").Where = AtSunk, AtSunk
	s2.wilfredPhase(enginetest.ThenOnes())
	if s2.Wilfred.Status != "destroyed" {
		t.Errorf("Wilfred %+v after two cruisers sunk", s2.Wilfred)
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

func TestRule17_3_DanishResistance(t *testing.T) {
	setup := func() *State {
		s := newGame(t, []string{OptDanish})
		clearMap(s)
		put(t, s, "hipper", "R12")
		return s
	}
	rejects(t, setup(), Allied, "schlesien", 1, "17.31")
	// The invasion turn: 4, no resistance.
	s := resolve(t, setup(), "", "move Hipper Q13", 4)
	if s.unit("pederskram").Where != AtOut {
		t.Fatal("the Danes appeared on a 4")
	}
	// A 1: the Danes are at Frederikshavn; option 2, they wait a turn.
	s = resolve(t, setup(), "", "move Hipper Q13", 1)
	fh, _ := portHex("Frederikshavn")
	if u := s.unit("pederskram"); u.Where != AtMap || u.Hex != fh || s.DanesFrom != 2 {
		t.Fatalf("Peder Skram %+v, Danes from %d", u, s.DanesFrom)
	}
	out := shortestPath(fh, hex(t, "C12"), moveOK(Allied, "DK", false, 2, s.intervention()))
	parse(t, s, Allied, "move Peder Skram "+out[0].String())
	if s.unit("schlesien").Where != AtOut {
		t.Error("Schlesien came without the order")
	}
}

func TestRule17_15_WehrmachtInfantry(t *testing.T) {
	s := newGame(t, []string{OptWehrmacht})
	clearMap(s)
	put(t, s, "emden", "H16")
	s.Turn = 13
	s = resolve(t, s, "", "", 6) // the Oslo outer fortress: 6, no defence
	if s.occupation("port", "Oslo") < 0 || !s.WehrmachtPlaced {
		t.Fatalf("occupied %+v: the Wehrmacht takes Oslo on turn 14", s.Occupied)
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

func TestRule13_2_OilersSunkWhenCaught(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "aokattegat", "K8")
	put(t, s, "renown", "K8")
	s = resolve(t, s, "", "")
	if w := s.unit("aokattegat").Where; w != AtSunk {
		t.Fatalf("a lone oiler with an Allied ship: %s", w)
	}
	if got := s.fire("renown", "nordmark", 1, hex(t, "K8"), enginetest.ThenOnes(1, 1)); len(got) != 0 {
		t.Errorf("Nordmark fights like other ships (13.4): %v", got)
	}
	if got := s.fire("renown", "aoskagerrak", 1, hex(t, "K8"), enginetest.ThenOnes()); len(got) != 1 || got[0] != "sink" {
		t.Errorf("an oiler under fire: %v", got)
	}
}

func TestRule13_3_SupplyNorthOfRowS(t *testing.T) {
	s := newGame(t, []string{OptSupply})
	clearMap(s)
	put(t, s, "ddfloti", "U12")
	s.unit("ddfloti").North = 12
	// Three more hexes north of row S: 15, past the limit of 14.
	path := shortestPath(hex(t, "U12"), hex(t, "Z12"), moveOK(German, "DE", false, 1, 0))
	var three []string
	for _, h := range path[:3] {
		three = append(three, h.String())
	}
	s2 := resolve(t, s, "", "move DD Flot I "+strings.Join(three, " "))
	if w := s2.unit("ddfloti").Where; w != AtSunk {
		t.Fatalf("DD Flot I %s after 15 hexes north of row S", w)
	}
	// Two more: 14, still afloat; then an oiler in a fjord supplies it,
	// one destroyer a turn (13.1).
	s3 := resolve(t, s, "", "move DD Flot I "+strings.Join(three[:2], " "))
	if u := s3.unit("ddfloti"); u.Where != AtMap || u.North != 14 {
		t.Fatalf("DD Flot I %+v", u)
	}
	narvik, _ := portHex("Narvik")
	s3.unit("ddfloti").Hex = narvik
	put(t, s3, "aonord", narvik.String())
	for i := 0; i < 5; i++ {
		s3 = resolve(t, s3, "", "", 6, 6, 6, 6, 6, 6)
	}
	if u := s3.unit("ddfloti"); u.North != 0 {
		t.Fatalf("DD Flot I %+v after 5 turns with the oiler", u)
	}
	// S-boats stay south of row S.
	put(t, s, "sboatfloti", "S9")
	rejects(t, s, German, "move S-Boat Flot I T9", 1, "13.0")
}

func TestRule17_12_WeserubungDayAndNorwegianFighters(t *testing.T) {
	s := newGame(t, []string{OptNorFighters})
	if s.unit("norjag1").Where != AtBase || s.unit("norjag1").Base != "Fornebu" {
		t.Fatalf("Norwegian 1st Fighter Squadron %+v (17.11)", s.unit("norjag1"))
	}
	if s.unit("para4").Where != AtWaiting {
		t.Fatalf("the 4th airborne unit %+v before the invasion", s.unit("para4"))
	}
	clearMap(s)
	put(t, s, "hipper", "R12")
	s = resolve(t, s, "", "move Hipper Q13")
	for _, id := range []string{"para4", "ju52w", "me110w"} {
		if s.unit(id).Where != AtBase {
			t.Errorf("%s %+v on the invasion turn (17.12)", id, s.unit(id))
		}
	}
	s.Turn = 2
	rejects(t, s, German, "airborne FJ 4 Fornebu", 1, "17.13")
	parse(t, s, German, "airborne FJ 4 Vaernes") // 17.1: every Norwegian airfield
	rejects(t, s, Allied, "rebase Forste Jagevingen to Bardufoss", 1, "17.13")
	rejects(t, s, Allied, "rebase Forste Jagevingen to Lossiemouth", 1, "6.25")
}

func TestRule17_8_SkuaAsFighter(t *testing.T) {
	s := newGame(t, nil)
	s.Turn = 2
	rejects(t, s, Allied, "cover Hatston Skua G3", 1, "8.522")
	s = newGame(t, []string{OptSkua})
	s.Turn = 2
	parse(t, s, Allied, "cover Hatston Skua G3")
	g := newGame(t, []string{OptSkua, OptGrafZeppelin})
	g.Turn = 4
	put(t, g, "arkroyal", "M6")
	g.unit("arkroyal1").Where = AtBase
	parse(t, g, Allied, "strike Ark Royal Skua 1 M7")
	rejects(t, s, Allied, "search G3", 1, "6.33")
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

func TestRule17_14_GladiatorsOnFurious(t *testing.T) {
	if w := newGame(t, nil).unit("furiousglad").Where; w != AtOut {
		t.Fatalf("Gladiators %s without the option", w)
	}
	s := newGame(t, []string{OptGladiators})
	if u := s.unit("furiousglad"); u.Where != AtBase || u.Base != "furious" {
		t.Fatalf("Gladiators %+v", u)
	}
	if c := capacity(s.view(Allied), "furious"); c != 3 {
		t.Errorf("Furious holds %d with the Gladiators, want 3", c)
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

func TestRule17_7_QShipsUnmaskAndFire(t *testing.T) {
	s := newGame(t, []string{OptQShips})
	clearMap(s)
	put(t, s, "qships", "I10")
	put(t, s, "ddflot4", "I10")
	s = resolve(t, s, "", "", 6, 6, 2, 2) // a 12, and 4 on the special damage table
	if h := s.unit("ddflot4").Hits; h != 1 {
		t.Fatalf("DD Flot 4 hits %d after the Q-ships' 12", h)
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

func TestRule3_4231_BritishLandBasedAircraftStayHome(t *testing.T) {
	s := newGame(t, []string{OptGrafZeppelin})
	s.Turn = 2
	rejects(t, s, Allied, "rebase Lossiemouth 1 to Hatston", 1, "3.4231")
	// Carrier aircraft may go ashore.
	put(t, s, "arkroyal", "G4")
	s.unit("arkroyal3").Where = AtBase
	s.unit("lossiemouth1").Where = AtOut // room at Lossiemouth
	parse(t, s, Allied, "rebase Ark Royal Swordfish 3 to Lossiemouth")
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
