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
	c := asState(s).clone()
	hideFrom(c, enemy(side), k%6)
	return c
}

// Invariants: every unit and ship is one of a kind; a unit aboard a ship
// is in its cargo and nowhere else (6.5); nothing eliminated or sunk comes
// back; the game lasts its ten turns (2.0).
func (conforming) Invariants(prev, next engine.State) error {
	s := asState(next)
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
	p := asState(prev)
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
