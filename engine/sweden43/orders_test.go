package sweden43

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// eachPhase plays a scripted game and calls f at every open phase.
func eachPhase(t *testing.T, scenario, secret string, f func(st *State, side engine.Side)) {
	t.Helper()
	r := Ruleset{}
	var s engine.State = newGame(t, scenario)
	for i := 0; i < 60 && !r.Phase(s).Over; i++ {
		ph := r.Phase(s)
		side := ph.Owes[0]
		f(s.(*State), side)
		text := r.Play(r.View(s, side), side, nil)
		o, errs := r.ParseOrders(s, side, text)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		next, err := r.Resolve(s, map[engine.Side]engine.Orders{side: o}, engine.NewSeededDice([]byte(secret), "g", ph.ID, [32]byte{}))
		if err != nil {
			t.Fatal(err)
		}
		s = next
	}
	f(s.(*State), German)
}

func TestContract_CloneIsDeep(t *testing.T) {
	st := newGame(t, "objective")
	c := st.Clone()
	c.Board.Units[0].Hex = "A1"
	c.Board.Air[0].Base = "A1"
	c.Board.Owner["A1"] = German
	c.Log[0].Text = "x"
	c.Options = append(c.Options, "y")
	if st.Board.Units[0].Hex == "A1" || st.Board.Air[0].Base == "A1" || st.Board.Owner["A1"] == German || st.Log[0].Text == "x" || len(st.Options) != 0 {
		t.Fatal("Clone shares memory with the original")
	}
}

func TestContract_ErrorsNameRuleAndValid(t *testing.T) {
	st := newGame(t, "objective")
	text := "land amph1 Stockholm\nland amph2 Q18\nfly JG5a Oslo\nmove 25Pz Stockholm\nmove Nobody Oslo\nmove 196Inf ZZ99\ndrop fj1 Oslo\nreplace 181Inf Oslo\nrail 181Inf Oslo\nbase JG5a Goteborg\nmobilize I1 4Div\n"
	_, errs := Ruleset{}.ParseOrders(st, German, text)
	if len(errs) < 9 {
		t.Fatalf("only %d errors: %v", len(errs), errs)
	}
	for _, e := range errs {
		if e.Rule == "" || e.Valid == "" || e.Msg == "" {
			t.Errorf("error without rule or valid form: %+v", e)
		}
		if e.Line > 0 && e.Text == "" {
			t.Errorf("error without its line text: %+v", e)
		}
	}
	if _, errs := (Ruleset{}).ParseOrders(st, Allied, "move I1 Uppsala"); len(errs) != 1 || errs[0].Line != 0 {
		t.Fatalf("orders from a side that owes none: %v", errs)
	}
}

func TestContract_OrderSyntaxIsForgiving(t *testing.T) {
	st := at(newGame(t, "objective"), 1, 1, "move")
	text := "# a comment\n  MOVE svea to Uppsala   # trailing comment\n\nmove K1 5B:5026\n"
	o, errs := Ruleset{}.ParseOrders(st, Allied, text)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := (Ruleset{}).FormatOrders(st, Allied, o); got != "move I1 T17\nmove K1 R18\n" {
		t.Fatalf("understood as %q", got)
	}
}

// A move out of reach is answered with moves the phase accepts: each
// hint, written as an order line, is taken as it stands (an error's hint
// is only ever something that would be accepted).
func TestContract_MoveErrorSuggestsReachableHexes(t *testing.T) {
	st := at(bare(t, "objective", "I1@Stockholm"), 1, 1, "move")
	errs := parseErr(st, "move I1 Malmo")
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Valid, "move I1 ") {
		t.Fatalf("%v", errs)
	}
	for _, hint := range strings.Split(errs[0].Valid, "; ") {
		if _, errs := (Ruleset{}).ParseOrders(st, Allied, hint); len(errs) > 0 {
			t.Errorf("the hint %q is refused: %v", hint, errs)
		}
	}
	// A later waypoint's hint keeps the waypoints before it.
	errs = parseErr(st, "move I1 Uppsala Malmo")
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Valid, "move I1 T17 ") {
		t.Fatalf("%v", errs)
	}
}

func TestContract_RevealShowsBothSides(t *testing.T) {
	st, _ := playGame(t, "op2", "reveal")
	out := (Ruleset{}).Reveal(st)
	if !strings.Contains(out, "RESULT:") || !strings.Contains(out, "allied player's view") || !strings.Contains(out, "german player's view") {
		t.Fatal(out)
	}
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 72 {
			t.Fatalf("line over 72 columns: %q", l)
		}
	}
}

func TestContract_ReportMapShowsUnitsAndCities(t *testing.T) {
	st := bare(t, "objective", "25Pz@Q18", "I1@Stockholm")
	m := asciiMap(newCtx(st))
	lines := strings.Split(m, "\n")
	find := func(row string) string {
		for _, l := range lines {
			if strings.HasPrefix(l, row+" ") {
				return l
			}
		}
		t.Fatalf("no row %s", row)
		return ""
	}
	// column c of an odd row is at 4+2(c-1), of an even row one further
	r := find("R") // row 18, even
	if r[4+2*(18-1)+1] != 'A' {
		t.Fatalf("Stockholm R18 should show A: %q", r)
	}
	q := find("Q") // row 17, odd
	if q[4+2*(18-1)] != 'G' {
		t.Fatalf("Q18 should show G: %q", q)
	}
	if !strings.Contains(lines[3], "5") || lines[3][4+2*(10-1)] != '1' {
		t.Fatalf("column header %q", lines[3])
	}
}

// TestEveryVerbHasAParser: the verb table and the parser's functions
// name the same orders, so neither can drift from the other.
func TestEveryVerbHasAParser(t *testing.T) {
	if err := orderDriver.Check(); err != nil {
		t.Error(err)
	}
}

// TestWrongWordCountGivesUsageAndLine: a line with more or fewer words
// than its verb takes (the table's Words) is refused by the driver with
// its line number, the verb's rule and usage, and the table's example; a
// verb of another phase lists the open phase's orders.
func TestWrongWordCountGivesUsageAndLine(t *testing.T) {
	st := at(bare(t, "objective", "I1@Stockholm"), 1, 1, "move")
	errs := parseErr(st, "# rail\nrail I1")
	want := engine.LineError{Line: 2, Text: "rail I1", Rule: "7A", Msg: "rail takes at least 2 words after it (rail UNIT HEX); this line has 1", Valid: "rail I1 Goteborg"}
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("errors %+v, want %+v", errs, want)
	}
	errs = parseErr(st, "attack R9 with I1")
	if len(errs) != 1 || errs[0].Msg != `"attack" is not an order of the move phase` || errs[0].Valid != stepVerbs("move") {
		t.Errorf("a verb of another phase: %+v", errs)
	}
}
