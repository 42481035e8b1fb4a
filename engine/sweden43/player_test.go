package sweden43

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

func TestPlayer_GermansAdvanceOnTheirObjectives(t *testing.T) {
	r := Ruleset{}
	for _, sc := range []string{"objective", "op1", "op2"} {
		st := newGame(t, sc)
		c := newCtx(st)
		objs := objectives(c, German)
		sum := func(s *State) int {
			n := 0
			for _, u := range s.Board.Units {
				if u.Side == German && u.Status == OnMap && u.Type != "para" {
					h, _ := engine.ParseHex(u.Hex)
					o, _ := nearest(h, objs)
					n += h.Distance(o)
				}
			}
			return n
		}
		before := sum(st)
		text := r.Play(r.View(st, German), German, nil)
		next := resolve(t, st, text, nullDice{})
		if after := sum(next); after >= before {
			t.Errorf("%s: German distance to objectives %d -> %d\n%s", sc, before, after, text)
		}
	}
}

func TestPlayer_AttacksAtGoodOddsWithAirSupport(t *testing.T) {
	clear, from := findHex(t, '.')
	st := at(bare(t, "objective", "25Pz@"+from.String(), "I2@"+clear.String(), "air:StG1@V5"), 2, 0, "combat")
	text := (Ruleset{}).Play((Ruleset{}).View(st, German), German, nil)
	if !strings.Contains(text, "attack "+clear.String()+" with 25Pz advance") {
		t.Fatalf("4:1 attack not made:\n%s", text)
	}
	st = at(bare(t, "objective", "Para1@"+from.String(), "I2@"+clear.String(), "I3@"+clear.String()), 2, 0, "combat")
	if text := (Ruleset{}).Play((Ruleset{}).View(st, German), German, nil); strings.Contains(text, "attack") {
		t.Fatalf("1:4 attack made:\n%s", text)
	}
}

func TestPlayer_AlliesMobilizeAndAssemble(t *testing.T) {
	st := at(newGame(t, "objective"), 2, 1, "move")
	text := (Ruleset{}).Play((Ruleset{}).View(st, Allied), Allied, nil)
	if !strings.Contains(text, "mobilize") {
		t.Fatalf("4Div available on Jul II, not mobilized:\n%s", text)
	}
	st = at(bare(t, "objective", "I1@Stockholm", "I10@Stockholm", "I8@Stockholm"), 3, 1, "move")
	for i := range st.Board.Units {
		if st.Board.Units[i].Status == Mobilize {
			st.Board.Units[i].Turn = 9 // no mobilization to prefer
		}
	}
	text = (Ruleset{}).Play((Ruleset{}).View(st, Allied), Allied, nil)
	if !strings.Contains(text, "assemble 1Div") {
		t.Fatalf("three regiments in Stockholm on Aug I, 1Div not assembled:\n%s", text)
	}
}
