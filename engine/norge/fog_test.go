package norge

import (
	"testing"

	"skagerrak/engine"
)

// hide changes, for every phase of a scripted game, what side cannot see:
// the enemy's submarine positions, convoy contents, off-board forces,
// standing orders and private reports. side's View must not change by a
// byte, nor its report.
func TestFogOfWarProperty(t *testing.T) {
	r := Ruleset{}
	n := 0
	eachPhase(t, "fog", func(s *State) {
		for _, side := range r.Sides() {
			foe := enemy(side)
			before := viewJSON(t, s, side)
			rep := r.Report(r.View(s, side), side)
			for k := 0; k < 6; k++ {
				h := s.clone()
				hideFrom(h, foe, k)
				if got := viewJSON(t, h, side); got != before {
					t.Fatalf("%s: %s's view changed when %s's secrets changed (variant %d)", PhaseOf(s).ID, side, foe, k)
				}
				if r.Report(r.View(h, side), side) != rep {
					t.Fatalf("%s: report changed", PhaseOf(s).ID)
				}
				n++
			}
		}
	})
	if n == 0 {
		t.Fatal("nothing checked")
	}
}

// hideFrom alters foe's secrets in one of several ways.
func hideFrom(s *State, foe engine.Side, k int) {
	switch k {
	case 0: // submarines elsewhere, placed or not
		for i := range s.Ships {
			sh := &s.Ships[i]
			if sh.Side == foe && sh.Kind == "sub" && !sh.Sunk {
				sh.Area = (sh.Area+3)%7 + 1
				sh.Reduced = !sh.Reduced
			}
		}
	case 1: // convoy contents (and battleships' troops) swapped with the reserve
		var reserve []string
		for _, u := range s.Units {
			if u.Side == foe && u.Loc == LocReserve {
				reserve = append(reserve, u.ID)
			}
		}
		for i := range s.Ships {
			sh := &s.Ships[i]
			if sh.Side != foe || (sh.Kind != "convoy" && len(sh.Cargo) == 0) || sh.Sunk {
				continue
			}
			for _, id := range sh.Cargo {
				s.unit(id).Loc = LocReserve
			}
			sh.Cargo = nil
			if len(reserve) > 0 {
				id := reserve[0]
				reserve = reserve[1:]
				s.unit(id).Loc = shipPrefix + sh.ID
				sh.Cargo = []string{id}
			}
			sh.Loaded = 7
		}
	case 2: // off-board ships: state changed
		for i := range s.Ships {
			sh := &s.Ships[i]
			if sh.Side == foe && sh.Loc == "" && !sh.Sunk && sh.Kind != "sub" {
				sh.Reduced = !sh.Reduced
				sh.Exited = 3
			}
		}
	case 3: // standing orders
		for _, u := range s.Units {
			if u.Side == foe {
				s.Hold = insertSorted(s.Hold, u.ID)
			}
		}
		s.NoIntercept = append(s.NoIntercept, foe)
		s.setLosses(foe, []string{"IR307", "Renown", "GC1"})
		if foe == Allied {
			s.SabotageTurn = 9
		}
	case 4: // private report lines
		s.Log = append(s.Log, Event{Turn: s.Turn, Step: s.Step, To: foe, Text: "a secret"})
	case 5: // reserves and drop pools moved about
		for i := range s.Units {
			u := &s.Units[i]
			if u.Side == foe && (u.Loc == LocReserve || u.Loc == LocAirlift) {
				u.Reduced = !u.Reduced
			}
		}
	}
}
