package sweden43

import (
	"bytes"
	"encoding/json"
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
		f(asState(s), side)
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
	f(asState(s), German)
}

func TestContract_Registered(t *testing.T) {
	r, err := engine.Lookup("sweden43")
	if err != nil {
		t.Fatal(err)
	}
	for _, iface := range []any{r.(engine.OrderFormer), r.(engine.Player), r.(engine.Reporter), r.(engine.ViewDecoder), r.(engine.RuleLister)} {
		_ = iface
	}
	if sc := r.Scenarios(); len(sc) != 4 || sc[0].ID != "objective" {
		t.Fatalf("scenarios %v", sc)
	}
	if len(r.Options()) != 2 {
		t.Fatalf("options %v", r.Options())
	}
	if _, err := r.New(engine.Setup{Scenario: "nope"}, nullDice{}); err == nil {
		t.Fatal("unknown scenario accepted")
	}
	if _, err := r.New(engine.Setup{Options: []string{"nope"}}, nullDice{}); err == nil {
		t.Fatal("unknown option accepted")
	}
}

func TestContract_OrderFormParsesUnchanged(t *testing.T) {
	r := Ruleset{}
	for _, sc := range []string{"objective", "ultra", "op1", "op2"} {
		eachPhase(t, sc, "form", func(st *State, side engine.Side) {
			for _, sd := range r.Sides() {
				form := r.OrderForm(r.View(st, sd), sd)
				if st.Over || sd != side {
					if !strings.Contains(form, "no orders") {
						t.Fatalf("%s: form for a side that owes nothing: %s", sc, form)
					}
					continue
				}
				if _, errs := r.ParseOrders(st, sd, form); len(errs) > 0 {
					t.Fatalf("%s %s: form rejected: %v\n%s", sc, phaseOf(st).ID, errs, form)
				}
			}
		})
	}
}

func TestContract_FormatOrdersRoundTrip(t *testing.T) {
	r := Ruleset{}
	eachPhase(t, "objective", "fmt", func(st *State, side engine.Side) {
		if st.Over {
			return
		}
		text := r.Play(r.View(st, side), side, nil)
		o, _ := r.ParseOrders(st, side, text)
		back := r.FormatOrders(st, side, o)
		o2, errs := r.ParseOrders(st, side, back)
		if len(errs) > 0 {
			t.Fatalf("formatted orders rejected: %v\n%s", errs, back)
		}
		if r.FormatOrders(st, side, o2) != back {
			t.Fatalf("format not stable:\n%s", back)
		}
		def := r.DefaultOrders(st, side)
		if _, errs := r.ParseOrders(st, side, r.FormatOrders(st, side, def)); len(errs) > 0 {
			t.Fatalf("%s: default orders invalid: %v", phaseOf(st).ID, errs)
		}
	})
}

func TestContract_ViewDecodesAndReports(t *testing.T) {
	r := Ruleset{}
	eachPhase(t, "op2", "view", func(st *State, _ engine.Side) {
		for _, sd := range r.Sides() {
			v := r.View(st, sd)
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			v2, err := r.DecodeView(b)
			if err != nil {
				t.Fatal(err)
			}
			b2, _ := json.Marshal(v2)
			if !bytes.Equal(b, b2) {
				t.Fatal("view JSON does not round-trip")
			}
			rep := r.Report(v, sd)
			if rep != r.Report(v2, sd) {
				t.Fatal("report from a decoded view differs")
			}
			for _, l := range strings.Split(rep, "\n") {
				if len(l) > 72 {
					t.Fatalf("report line over 72 columns: %q", l)
				}
			}
			if r.Play(v, sd, nil) != r.Play(v2, sd, nil) {
				t.Fatal("scripted player differs on a decoded view")
			}
		}
	})
}

func TestContract_StateDecodes(t *testing.T) {
	r := Ruleset{}
	eachPhase(t, "ultra", "state", func(st *State, _ engine.Side) {
		b, _ := json.Marshal(st)
		s2, err := r.DecodeState(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := json.Marshal(s2)
		if !bytes.Equal(b, b2) {
			t.Fatal("state JSON does not round-trip")
		}
		c, _ := json.Marshal(st.Clone())
		if !bytes.Equal(b, c) {
			t.Fatal("Clone differs from the original")
		}
	})
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
