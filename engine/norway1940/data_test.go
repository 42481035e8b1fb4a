package norway1940

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

func newGame(t *testing.T) *State {
	t.Helper()
	st, err := Ruleset{}.New(engine.Setup{}, enginetest.ThenOnes())
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// 2: the map (reconstructed, data/areas.txt, links.txt, sea.txt). Every
// place the rulebook names is an area, under the spelling it prints (17.1
// set-up, the 10.5.8 example, 12.4, 16.4.1.2, 17.1's Dumbas); every area
// of Norway is reached from Oslo over the links (2.2: moves go between
// adjacent areas); there are 3 sea areas (9.1) of 4 naval boxes each (the
// 9.13.4 example: "in the North Sea area, there are 4 naval boxes"); every
// port lies on a sea area.
func TestRule2_MapReconstruction(t *testing.T) {
	for _, name := range []string{"Fredristak", "Kongstinger", "Oslo", "Bang", "Tretten", "SO Bang", "Hamar", "Elverum", "Honefoss",
		"Larvik", "Evje", "Kristiandsand", "Stavanger", "Bergen", "Voss", "Aandalsnes", "Trondheim", "Storen", "Roros", "Stjordal",
		"Steinkjer", "Mosjoen", "Narvik", "Harstad", "Elvergardsmoen", "Egersund", "Dumbas", "Dombas", "Alvdol", "Fornebu"} {
		if _, ok := data.AreaByName(name); !ok {
			t.Errorf("the rulebook's %q is not an area", name)
		}
	}
	reach := data.Graph.Reachable("Oslo", 99, func(e engine.Edge) (int, bool) { return 1, e.To != "Sweden" })
	for _, a := range data.Areas {
		if _, ok := reach[a.Name]; !ok && a.Name != "Sweden" {
			t.Errorf("%s cannot be reached from Oslo", a.Name)
		}
		if a.Port != "" && seaOf(a.Name) == "" {
			t.Errorf("port %s lies on no sea area", a.Name)
		}
	}
	if len(seaAreas) != 3 {
		t.Errorf("%d sea areas", len(seaAreas))
	}
	for _, sea := range seaAreas {
		if n := len(data.BoxesOf(sea)); n != 4 {
			t.Errorf("the %s sea area has %d boxes, want 4", sea, n)
		}
	}
}

// 3, 3.1, 3.2: "two kinds of game pieces: combat units and informational
// markers"; "3 types of units: land units, naval units (in combat and
// transport points denominations) and air units". The first state holds
// land units of both sides, naval combat and transport points; the four
// air marker types fly by turn 4; and the markers as state fields: decoys (9.8.2: 7
// German, 7 British, 3 Norwegian), control of every area.
func TestRule3_GamePieces(t *testing.T) {
	s := newGame(t)
	land := map[engine.Side]int{}
	for _, u := range s.Units {
		land[u.Side]++
	}
	if land[German] == 0 || land[Allied] == 0 {
		t.Errorf("land units %v", land)
	}
	combat, transport := 0, 0
	for _, p := range s.Pools {
		combat += p.Combat
		transport += p.Transport
	}
	for _, f := range s.Fleets {
		combat += f.Combat
		transport += f.Transport
	}
	if combat == 0 || transport == 0 {
		t.Errorf("naval points: %d combat, %d transport", combat, transport)
	}
	types := map[string]bool{}
	s.Turn = 4 // the German transport markers fly from the invasion (data/air.txt)
	resetAir(s)
	for _, ss := range s.Sides {
		for _, a := range ss.Air {
			types[a.Type] = true
		}
	}
	for _, typ := range []string{"fighter", "bomber", "recon", "transport"} {
		if !types[typ] {
			t.Errorf("no %s air markers", typ)
		}
	}
	decoys := map[string]int{}
	for _, ss := range s.Sides {
		for _, d := range ss.Decoys {
			decoys[d.Nation] = d.N
		}
	}
	if decoys["german"] != 7 || decoys["british"] != 7 || decoys["norwegian"] != 3 {
		t.Errorf("decoys %v, want 7, 7 and 3 (9.8.2)", decoys)
	}
	if len(s.Control) != len(data.Areas)-1 {
		t.Errorf("control of %d areas, want every area but Sweden", len(s.Control))
	}
}

// 4: "Norwegian units set up as per the setup chart ... German and
// Franco-British units are set up as shown on the Ports Chart, where
// reinforcements' entry turns are also indicated. The German player can
// never invade the UK." German units start in Germany, aboard the
// invasion task forces (9.13.1) or in the parachute pool; the
// Franco-British in the UK, arriving from turn 5 on (none land before the
// invasion, 18); no German fleet may sail to the UK.
func TestRule4_GameSetup(t *testing.T) {
	s := newGame(t)
	for _, u := range s.Units {
		switch u.Nation {
		case "german":
			if u.Loc != Germany && u.Loc != ParaBox && u.Fleet == "" {
				t.Errorf("German %s starts at %q", u.ID, u.Loc)
			}
		case "british", "french", "polish":
			if u.Loc != UK || u.Entry < 5 {
				t.Errorf("Allied %s starts at %q on turn %d", u.ID, u.Loc, u.Entry)
			}
		}
	}
	s.Turn = 5
	fleetAt(s, "G20", German, "North-1", 4, 0)
	if e := parseErr(t, s, "fleet G20 to UK\n"); e.Rule != "4.1" {
		t.Errorf("a German fleet to the UK: %+v", e)
	}
}

// 15, 15.1: "Coastal Batteries (CB) are emplaced, at the start of the
// game, approximately in their historical emplacements": reconstructed
// as Oslo 2 (Oscarsborg and the outer forts), Bergen 2, Kristiansand 1,
// Trondheim 1 (Agdenes), all Norwegian and active.
func TestRule15_1_CoastalBatteriesAtTheStart(t *testing.T) {
	s := newGame(t)
	got := map[string]int{}
	for _, b := range s.Bats {
		if b.Owner != Allied || b.Status != "active" {
			t.Errorf("battery %+v", b)
		}
		got[b.Area]++
	}
	want := map[string]int{"Oslo": 2, "Bergen": 2, "Kristiansand": 1, "Trondheim": 1}
	if len(got) != len(want) {
		t.Errorf("batteries %v, want %v", got, want)
	}
	for a, n := range want {
		if got[a] != n {
			t.Errorf("%s: %d batteries, want %d", a, got[a], n)
		}
	}
}

// 16: every optional rule of the chapter (16.1 to 16.6) is a game option
// citing it, and a game takes them all at once.
func TestRule16_EveryOptionalRuleIsAnOption(t *testing.T) {
	r := Ruleset{}
	var ids []string
	for _, want := range []string{"16.1", "16.2", "16.3", "16.4", "16.5", "16.6"} {
		found := false
		for _, o := range r.Options() {
			if o.Rule == want && strings.HasPrefix(o.ID, want+"-") {
				found = true
				ids = append(ids, o.ID)
			}
		}
		if !found {
			t.Errorf("no option for %s", want)
		}
	}
	st, err := r.New(engine.Setup{Options: ids}, enginetest.ThenOnes(1, 2, 3, 4, 5))
	if err != nil {
		t.Fatal(err)
	}
	if got := st.(*State).Options; len(got) != 6 {
		t.Errorf("options %v", got)
	}
}

// 17, 17.1, 17.2: the Norwegian set-up as printed, place by place (the
// printed spellings read as the areas of TestRule2_MapReconstruction;
// "SO Bang" is the Bang area), the 16th Regiment entering on turn 8, and
// the naval points 2+1+1+2+1 = 7 at Kristiansand, 2+1+1+1+1+1+1 = 8 at
// Bergen, 1+1 = 2 at Trondheim, 1+1+2 = 4 at Narvik: 21, the other 8 of
// the 29 CNP placed at Horten (Larvik, reconstructed).
func TestRule17_NorwegianSetUpAsPrinted(t *testing.T) {
	s := newGame(t)
	printed := map[string][]string{
		"Fredristak": {"IR1"}, "Kongstinger": {"AR1"}, "Oslo": {"IR2", "AAOslo"}, "Bang": {"IR4"}, "Tretten": {"DR1"},
		"SO Bang": {"AR2"}, "Hamar": {"HQS", "DR2"}, "Elverum": {"IR5"}, "Honefoss": {"IR6"}, "Larvik": {"IR3"}, "Evje": {"AB1"},
		"Kristiandsand": {"IR7"}, "Stavanger": {"IR8"}, "Bergen": {"IR9"}, "Voss": {"IR10", "AB2"}, "Aandalsnes": {"IR11"},
		"Trondheim": {"EB5"}, "Storen": {"IR12"}, "Roros": {"AR3"}, "Stjordal": {"DR3"}, "Steinkjer": {"IR13"},
		"Mosjoen": {"HQN", "IR14"}, "Narvik": {"EB6"}, "Harstad": {"AB11"}, "Elvergardsmoen": {"IR15"},
	}
	for place, ids := range printed {
		a, _ := data.AreaByName(place)
		for _, id := range ids {
			if u := s.unit(id); u == nil || u.Loc != a.Name || u.Nation != "norwegian" || u.Dead {
				t.Errorf("%s should set up at %s: %+v", id, place, u)
			}
		}
	}
	if u := s.unit("IR16"); u.Entry != 8 || !strings.HasPrefix(u.Loc, "Pending:") {
		t.Errorf("IR16 %+v, want it entering on turn 8", u)
	}
	total := 0
	for port, want := range map[string]int{"Kristiansand": 7, "Bergen": 8, "Trondheim": 2, "Narvik": 4, "Larvik": 8} {
		p := s.pool(Allied, "norwegian", port)
		if p.Combat != want {
			t.Errorf("%s: %d Norwegian naval points, want %d", port, p.Combat, want)
		}
		total += p.Combat
	}
	if total != 29 {
		t.Errorf("%d Norwegian CNP, want 29", total)
	}
}
