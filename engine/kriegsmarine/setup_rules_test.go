package kriegsmarine

import (
	"encoding/json"
	"strings"
	"testing"
)

// Rules tests of chapter 4, Game Setup, of the rulebook (seeds 000): each
// outcome worked out by hand from the rule it cites.

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

func TestRule4_1_OptionalChooseInvasion(t *testing.T) {
	s := newGame(t, []string{OptInvasion}, 1, 1)
	if s.Objective.Roll != 2 || s.Objective.Result.Kind != ObjInvasion {
		t.Fatalf("objective %+v: the option takes the invasion whatever the roll", s.Objective)
	}
}

// TestRule4_41_AirUnitsWhateverTheObjective: 4.41 "Regardless of which
// objective is chosen": KG Lion and KG Eagle, 6 units, off the map in the
// German area, entering through A15 (4.411); the other German air units set
// aside until a special rule brings them, such as the Air Emergency
// Scramble (4.412). The same for the invasion (3+4 = 7) and for commerce
// raiding (1+2 = 3).
func TestRule4_41_AirUnitsWhateverTheObjective(t *testing.T) {
	for _, roll := range [][]int{{3, 4}, {1, 2}} {
		s := newGame(t, nil, roll...)
		n := 0
		for _, u := range s.Units {
			d := def(u.ID)
			if !d.Air || d.Side != German {
				continue
			}
			switch {
			case u.ID[:2] == "kg":
				n++
				if u.Where != AtBase || u.Base != "German area" {
					t.Errorf("objective %s: %s %s at %q, want at base in the German area (4.411)", s.Objective.Result.Kind, d.Name, u.Where, u.Base)
				}
			case d.Entry == "eau":
				if u.Where != AtOut {
					t.Errorf("objective %s: %s is %s before any scramble, want set aside (4.412)", s.Objective.Result.Kind, d.Name, u.Where)
				}
			}
		}
		if n != 6 {
			t.Errorf("objective %s: %d KG Lion and KG Eagle units, want 6", s.Objective.Result.Kind, n)
		}
	}
}

// TestRule4_62_NoPortOccupiedAtTheStart: 4.62 "at the start of the game
// neither the Germans nor the Allies occupy any Norwegian port".
func TestRule4_62_NoPortOccupiedAtTheStart(t *testing.T) {
	for _, roll := range [][]int{{3, 4}, {1, 2}} {
		s := newGame(t, []string{OptWilfred}, roll...)
		if len(s.Occupied) != 0 || len(s.alliedPorts()) != 0 {
			t.Errorf("objective %s: occupied %+v, Allied ports %v at the start", s.Objective.Result.Kind, s.Occupied, s.alliedPorts())
		}
		if v := s.view(Allied); len(v.Occupied) != 0 {
			t.Errorf("the Allied view shows %+v occupied", v.Occupied)
		}
	}
}
