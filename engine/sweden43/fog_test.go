package sweden43

import (
	"bytes"
	"encoding/json"
	"testing"

	"skagerrak/engine"
)

// hide changes, in a copy of st, everything side may not know.
func hide(st *State, side engine.Side, k int) *State {
	c := st.Clone()
	enemy := other(side)
	for i := range c.Board.Units {
		u := &c.Board.Units[i]
		if u.Side != enemy {
			continue
		}
		switch u.Status {
		case Pending:
			u.Turn += k
			u.Arrive = "A1"
		case Mobilize, Assemble, HQAssemble:
			u.Turn += k
		case Amph, ParaPool:
			u.Status = Neutralized
		}
		if u.Status == OnMap {
			u.OOS = !u.OOS
			u.Restricted = "Nowhere"
		}
	}
	if side == Allied {
		c.Board.ReplHalfREs += k
	}
	c.Log = append(c.Log, Event{Turn: c.Turn, Text: "a secret", Only: enemy})
	return c
}

func TestFog_HiddenThingsNeverChangeTheOtherReport(t *testing.T) {
	r := Ruleset{}
	checked := 0
	for _, sc := range []string{"objective", "op1"} {
		eachPhase(t, sc, "fog", func(st *State, _ engine.Side) {
			for _, side := range r.Sides() {
				v := r.View(st, side)
				b, _ := json.Marshal(v)
				rep := r.Report(v, side)
				form := r.OrderForm(v, side)
				for k := 1; k <= 2; k++ {
					h := hide(st, side, k)
					v2 := r.View(h, side)
					b2, _ := json.Marshal(v2)
					if !bytes.Equal(b, b2) {
						t.Fatalf("%s %s: the %s view changed with what it may not know", sc, phaseOf(st).ID, side)
					}
					if r.Report(v2, side) != rep || r.OrderForm(v2, side) != form {
						t.Fatalf("%s %s: the %s report changed", sc, phaseOf(st).ID, side)
					}
				}
				checked++
			}
		})
	}
	if checked < 40 {
		t.Fatalf("only %d views checked", checked)
	}
}

func TestFog_OwnForcesToComeAreShown(t *testing.T) {
	r := Ruleset{}
	st := newGame(t, "objective")
	ga := asView(r.View(st, German))
	al := asView(r.View(st, Allied))
	has := func(v View, id string) bool {
		for _, u := range v.Board.Units {
			if u.ID == id {
				return true
			}
		}
		return false
	}
	if !has(ga, "Amph1") || !has(ga, "214Inf") || has(al, "Amph1") || has(al, "214Inf") {
		t.Fatal("German forces to come: shown to the German, hidden from the Allied player")
	}
	if !has(al, "I8") || has(ga, "I8") || !has(ga, "I1") {
		t.Fatal("Allied reinforcements hidden from the German; units on the map seen by both")
	}
	if ga.Board.ReplHalfREs != 8 || al.Board.ReplHalfREs != 0 {
		t.Fatal("the German replacement pool is the German player's own")
	}
}
