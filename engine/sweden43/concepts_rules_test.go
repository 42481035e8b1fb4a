package sweden43

import "testing"

// Rules tests of Rule 3, Basic Game Concepts: sides, geography, operational
// limits (rulebook: seeds 004).

func TestRule3B_Sides(t *testing.T) {
	got := Ruleset{}.Sides()
	if len(got) != 2 || got[0] != "allied" || got[1] != "german" {
		t.Fatalf("sides %v", got)
	}
	st := newGame(t, "objective")
	for _, u := range st.Board.Units {
		if u.Side == Allied && u.Nation != "swedish" && u.Nation != "british" && u.Nation != "american" {
			t.Errorf("allied unit %s of nation %s", u.ID, u.Nation)
		}
		if u.Side == German && u.Nation != "german" {
			t.Errorf("german unit %s of nation %s", u.ID, u.Nation)
		}
	}
}

func TestRule3E_MainlandExcludesIslands(t *testing.T) {
	st := newGame(t, "objective")
	for _, p := range data.Places {
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' && p.Name != "Visby" {
			st.Board.Owner[p.Hex.String()] = German
		}
	}
	if !conquered(newCtx(st)) {
		t.Fatal("all mainland cities German owned, Visby Allied: Sweden should be conquered (3E, 31A)")
	}
	delete(st.Board.Owner, hx(t, "Umea").String())
	if conquered(newCtx(st)) {
		t.Fatal("Umea Allied: not conquered")
	}
}

func TestRule3F_OperationalLimits(t *testing.T) {
	if allowed(German, hx(t, "Copenhagen")) || allowed(Allied, hx(t, "Oslo")) {
		t.Fatal("German ground units may not enter Denmark, Allied ground units not Norway")
	}
	if !allowed(German, hx(t, "Oslo")) || !allowed(German, hx(t, "Stockholm")) || !allowed(Allied, hx(t, "Stockholm")) {
		t.Fatal("Norway and Sweden are open to German ground units, Sweden to Allied")
	}
	st := at(newGame(t, "objective"), 1, 1, "move")
	if errs := parseErr(st, "base RAF1 Stockholm"); len(errs) != 1 || errs[0].Rule != "3F" {
		t.Fatalf("Western Allied air based in Sweden: %v", errs)
	}
	if errs := parseErr(st, "base F8 Goteborg"); len(errs) != 0 {
		t.Fatalf("Swedish air to a Swedish airbase: %v", errs)
	}
	st = at(newGame(t, "objective"), 1, 0, "move")
	if errs := parseErr(st, "land amph1 q18\nland amph2 q18\nbase JG5a Aalborg"); len(errs) != 0 {
		t.Fatalf("German air may base in Denmark: %v", errs)
	}
	for _, sc := range []string{"objective", "ultra", "op1", "op2"} {
		st := newGame(t, sc)
		for _, id := range []string{"I19", "A8"} {
			if u := unit(t, st, id); u.Status != Neutralized {
				t.Errorf("%s: %s is %s, want neutralized (3F)", sc, id, u.Status)
			}
		}
	}
	for r := 1; r <= data.Grid.Rows; r++ {
		for c := 1; c <= data.Grid.Cols; c++ {
			_ = r
		}
	}
}
