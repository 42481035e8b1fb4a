package sweden43

import (
	"testing"

	"skagerrak/engine"
)

// Rules tests of Rule 31, Victory (rulebook: seeds 004).

func TestRule31A_GameLengthAndConquest(t *testing.T) {
	st := at(newGame(t, "objective"), 6, 1, "exploit")
	st = resolve(t, st, "", nullDice{})
	if !st.Over || st.Turn != 6 {
		t.Fatal("the game ends after Sep II 43")
	}
	st = at(newGame(t, "objective"), 3, 0, "combat")
	for _, p := range data.Places {
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' && mainland(p) {
			st.Board.Owner[p.Hex.String()] = German
		}
	}
	st = resolve(t, st, "", nullDice{})
	if !st.Over || st.Turn != 3 {
		t.Fatal("the game ends when Sweden is conquered")
	}
	if r := (Ruleset{}).Result(st); r.Winner != German {
		t.Fatalf("result %+v", r)
	}
}

func TestRule31B_VictoryByScenario(t *testing.T) {
	zoneB := []string{"Sundsvall", "Ostersund", "Umea", "Skelleftea"}
	want := []struct {
		winner engine.Side
		level  string
	}{{Allied, "major"}, {Allied, "marginal"}, {"", "draw"}, {German, "marginal"}, {German, "major"}}
	for n := 0; n <= 4; n++ {
		st := newGame(t, "op1")
		st.Over = true
		for _, name := range zoneB[:n] {
			st.Board.Owner[hx(t, name).String()] = German
		}
		r := (Ruleset{}).Result(st)
		if r.Winner != want[n].winner || r.Level != want[n].level {
			t.Errorf("Operation I, %d zone B cities: %+v", n, r)
		}
	}
	st := newGame(t, "op2")
	st.Over = true
	if r := (Ruleset{}).Result(st); r.Winner != Allied {
		t.Errorf("Operation II, Allies hold Stockholm: %+v", r)
	}
	st.Board.Owner[hx(t, "Stockholm").String()] = German
	if r := (Ruleset{}).Result(st); r.Winner != German {
		t.Errorf("Operation II, Germans own Stockholm: %+v", r)
	}
	for _, sc := range []string{"objective", "ultra"} {
		st := newGame(t, sc)
		st.Over = true
		st.Board.Owner[hx(t, "Stockholm").String()] = German
		if r := (Ruleset{}).Result(st); r.Winner != Allied {
			t.Errorf("%s: Stockholm alone does not conquer Sweden: %+v", sc, r)
		}
		st.Board.Surrendered = true
		if r := (Ruleset{}).Result(st); r.Winner != German {
			t.Errorf("%s: surrender is conquest: %+v", sc, r)
		}
	}
}
