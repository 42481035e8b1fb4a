package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

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
