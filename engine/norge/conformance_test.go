package norge

import (
	"fmt"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// conforming is the ruleset with what its conformance suite needs to know.
type conforming struct{ Ruleset }

// Hide changes, in a copy, one of the enemy's secrets (hideFrom).
func (conforming) Hide(s engine.State, side engine.Side, k int) engine.State {
	c := s.(*State).clone()
	hideFrom(c, enemy(side), k%6)
	return c
}

// Invariants: every unit and ship is one of a kind; a unit aboard a ship
// is in its cargo and nowhere else (6.5); nothing eliminated or sunk comes
// back; the game lasts its ten turns (2.0).
func (conforming) Invariants(prev, next engine.State) error {
	s := next.(*State)
	if s.Turn > Turns+1 {
		return fmt.Errorf("turn %d of %d", s.Turn, Turns)
	}
	units := map[string]*Unit{}
	for i := range s.Units {
		u := &s.Units[i]
		if units[u.ID] != nil {
			return fmt.Errorf("unit %s twice", u.ID)
		}
		units[u.ID] = u
	}
	aboard := map[string]string{}
	for _, sh := range s.Ships {
		for _, id := range sh.Cargo {
			if aboard[id] != "" {
				return fmt.Errorf("unit %s aboard %s and %s", id, aboard[id], sh.ID)
			}
			aboard[id] = sh.ID
			if u := units[id]; u == nil || u.Loc != shipPrefix+sh.ID {
				return fmt.Errorf("unit %s in %s's cargo is at %+v", id, sh.ID, u)
			}
		}
	}
	for _, u := range units {
		if strings.HasPrefix(u.Loc, shipPrefix) && aboard[u.ID] != strings.TrimPrefix(u.Loc, shipPrefix) {
			return fmt.Errorf("unit %s at %s is in no such cargo", u.ID, u.Loc)
		}
	}
	if prev == nil {
		return nil
	}
	p := prev.(*State)
	for _, u := range p.Units {
		if u.Loc == LocElim && units[u.ID].Loc != LocElim {
			return fmt.Errorf("eliminated unit %s is back at %s", u.ID, units[u.ID].Loc)
		}
	}
	for i, sh := range p.Ships {
		if sh.Sunk && !s.Ships[i].Sunk {
			return fmt.Errorf("sunk ship %s is afloat again", sh.ID)
		}
	}
	return nil
}

func TestConformance(t *testing.T) { enginetest.Conformance(t, conforming{}) }

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
