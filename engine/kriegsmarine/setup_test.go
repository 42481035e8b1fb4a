package kriegsmarine

import (
	"testing"
)

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
