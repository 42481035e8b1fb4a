package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// Rules tests of the optional chapters of the rulebook (seeds 000): 10
// Commanders, 11 Wilfred Force, 12 Independent Destroyers, 13 Fleet
// Oilers and 17 Optional Rules; each outcome worked out by hand from the
// rule it cites.

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

// TestRule17_5_TorpedoesWorkAsAdvertised: 17.5 "When U-boats make torpedo
// attacks, they also use the Allied Submarine Torpedo Attack Table". U-47
// finds Penelope by day and rolls 2+2 = 4. Without the option the German
// failures add 2: 6, one hit (Penelope 1 of 2). With torpedoes-work the 4
// stands: one flooding, and Penelope (flooding 1/1) takes moderate damage.
func TestRule17_5_TorpedoesWorkAsAdvertised(t *testing.T) {
	for _, opts := range [][]string{nil, {OptTorpedoes}} {
		s := newGame(t, opts)
		clearMap(s)
		s.Turn = 2
		put(t, s, "u47", "K8")
		put(t, s, "penelope", "K8")
		s, _ = resolveExactly(t, s, "", "search surface U-47", 2, 2)
		u, d := s.unit("penelope"), def("penelope")
		if opts == nil && (u.Hits != 1 || u.Flooding != 0) {
			t.Errorf("without the option: Penelope %+v, want 1 hit", u)
		}
		if opts != nil && (u.Flooding != 1 || !moderate(d, u)) {
			t.Errorf("torpedoes-work: Penelope %+v, want 1 flooding and moderate damage", u)
		}
	}
}

// TestRule17_51_GermanSurfaceTorpedoes: 17.51 "When German surface ships
// make torpedo attacks, treat them as Allied surface ships". In a round's
// torpedo step by day Penelope (1T) fires at Hans Lüdemann (1T) and he at
// her: hers 6+6 = 12 misses; his 2+2 = 4 is 6 with the German +2, a hit,
// or with torpedoes-work 4, a flooding and moderate damage.
func TestRule17_51_GermanSurfaceTorpedoes(t *testing.T) {
	for _, opts := range [][]string{nil, {OptTorpedoes}} {
		s := newGame(t, opts)
		clearMap(s)
		s.Turn = 2
		put(t, s, "penelope", "K8")
		put(t, s, "hanslude", "K8")
		md := enginetest.ThenOnes(6, 6, 2, 2)
		orders := map[engine.Side]*Orders{Allied: {}, German: {}}
		out := s.torpedoes(orders, []string{"penelope"}, []string{"hanslude"}, hex(t, "K8"), md)
		if md.Used() != 4 || md.Short() != 0 || len(out) != 2 {
			t.Fatalf("rolled %d dice, results %v", md.Used()+md.Short(), out)
		}
		u := s.unit("penelope")
		if opts == nil && (u.Hits != 1 || u.Flooding != 0) {
			t.Errorf("without the option: Penelope %+v, want 1 hit (%v)", u, out)
		}
		if opts != nil && (u.Flooding != 1 || u.Hits != 0) {
			t.Errorf("torpedoes-work: Penelope %+v, want 1 flooding (%v)", u, out)
		}
		if h := s.unit("hanslude"); h.Hits != 0 {
			t.Errorf("Hans Lüdemann hit by a 12: %+v", h)
		}
	}
}

// TestRule17_6_BergensSecretTorpedoTubes: 17.6 "use the Bergen fortress unit
// that has torpedo attack strength"; 9.2: with normal defence "The
// Oscarsborg and Bergen fortresses (see 17.6) each make 2 torpedo attacks
// against each German surface ship that enters the port city". Köln lies
// in Bergen; the fortress rolls 1, normal defence; its gunnery, 2 rolls of
// 1+1, misses. With option bergen-torpedoes 2 torpedoes follow, 6+6 = 12
// less 4 = 8, misses (4 more dice); without it none.
func TestRule17_6_BergensSecretTorpedoTubes(t *testing.T) {
	for _, opts := range [][]string{nil, {OptBergenTorpedoes}} {
		s := newGame(t, opts)
		clearMap(s)
		put(t, s, "koln", "J11")
		dice := []int{1, 1, 1, 1, 1}
		if opts != nil {
			dice = append(dice, 6, 6, 6, 6)
		}
		_, rolls := resolveExactly(t, s, "", "", dice...)
		n := 0
		for _, r := range rolls {
			if r.Why == "fortress torpedo (9.2)" {
				n++
			}
		}
		if want := 2 * len(opts) * 2; n != want {
			t.Errorf("options %v: %d torpedo dice, want %d", opts, n, want)
		}
	}
}
