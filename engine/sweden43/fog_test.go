package sweden43

import (
	"testing"
)

func TestFog_OwnForcesToComeAreShown(t *testing.T) {
	r := Ruleset{}
	st := newGame(t, "objective")
	ga := r.View(st, German).(View)
	al := r.View(st, Allied).(View)
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
