package kriegsmarine

import (
	"strings"
	"testing"
)

// Rules tests of chapter 3, Components, of the rulebook (seeds 000): each
// outcome worked out by hand from the rule it cites.

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

// TestRule3_422_AircraftTypes: 3.422 "B = level bomber, DB = dive bomber,
// T = torpedo bomber, F = fighter", and "this game classes [the Ju 88] as a
// level bomber"; 4.3: "Three B bombers at the Lossiemouth base and one DB
// dive bomber at the Hatston base". The data pack adds TR (the Ju 52
// transport) and AB (the airborne troops of 6.28) to those four.
func TestRule3_422_AircraftTypes(t *testing.T) {
	known := map[string]bool{"B": true, "DB": true, "T": true, "F": true, "TR": true, "AB": true}
	for _, d := range Units() {
		if d.Air && !known[d.Type] {
			t.Errorf("%s has aircraft type %q", d.Name, d.Type)
		}
	}
	for id, want := range map[string]string{
		"lossiemouth1": "B", "lossiemouth2": "B", "lossiemouth3": "B", "hatstonskua": "DB",
		"eau5":     "B", // the Ju 88, a level bomber (3.422)
		"kgeagle1": "B", "kglion1": "B", "arkroyal3": "T", "gz1": "F", "para1": "AB", "eau4": "TR",
	} {
		if d := def(id); d.Type != want {
			t.Errorf("%s is %s, want %s", d.Name, d.Type, want)
		}
	}
}
