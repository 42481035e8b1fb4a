package norge

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// eachPhase plays a scripted game and calls f on every state.
func eachPhase(t *testing.T, seed string, f func(s *State)) {
	t.Helper()
	r := Ruleset{}
	st, _ := r.New(engine.Setup{}, engine.NewManualDice())
	for !r.Phase(st).Over {
		f(st.(*State))
		ph := r.Phase(st)
		orders := map[engine.Side]engine.Orders{}
		for _, side := range ph.Owes {
			text := r.Play(r.View(st, side), side, engine.NewSeededDice([]byte(seed), "g", ph.ID+string(side), [32]byte{}))
			o, errs := r.ParseOrders(st, side, text)
			if len(errs) > 0 {
				t.Fatalf("%s: %v", ph.ID, errs)
			}
			orders[side] = o
		}
		next, err := r.Resolve(st, orders, engine.NewSeededDice([]byte(seed), "g", ph.ID, [32]byte{}))
		if err != nil {
			t.Fatal(err)
		}
		st = next
	}
	f(st.(*State))
}

// TestReportFitsIn72Columns: every line of a report fits its 72 columns.
func TestReportFitsIn72Columns(t *testing.T) {
	r := Ruleset{}
	eachPhase(t, "view", func(s *State) {
		for _, side := range r.Sides() {
			rep := r.Report(r.View(s, side), side)
			for _, l := range strings.Split(rep, "\n") {
				if len(l) > 72 {
					t.Fatalf("report line over 72 columns: %q", l)
				}
			}
		}
	})
}

func TestParseErrorsNameLineRuleAndValid(t *testing.T) {
	s := fresh(t)
	text := "air Aalborg B\nair Nowhere B # comment\n\nfly away\nair Sola Q\n"
	_, errs := Ruleset{}.ParseOrders(s, German, text)
	if len(errs) != 3 {
		t.Fatalf("want 3 errors, got %v", errs)
	}
	for i, want := range []int{2, 4, 5} {
		e := errs[i]
		if e.Line != want || e.Rule == "" || e.Valid == "" || e.Msg == "" {
			t.Fatalf("error %d: %+v", i, e)
		}
	}
	if _, errs := (Ruleset{}).ParseOrders(s, German, "AIR aalborg b\n"); len(errs) > 0 {
		t.Fatalf("case-insensitive orders rejected: %v", errs)
	}
}

func TestResolveRejectsOrdersOfAnotherPhase(t *testing.T) {
	r := Ruleset{}
	s := fresh(t)
	o := parseOK(t, s, German, "air Aalborg A")
	s2 := s.clone()
	s2.Step = StepNavalGerman
	if _, err := r.Resolve(s2, map[engine.Side]engine.Orders{German: o}, engine.NewManualDice()); err == nil {
		t.Fatal("orders of the air phase accepted in the naval phase")
	}
}

func TestCloneIsDeep(t *testing.T) {
	s := fresh(t)
	c := s.clone()
	c.Ships[0].Cargo[0] = "changed"
	c.Units[0].Loc = "changed"
	c.German[0] = "changed"
	if s.Ships[0].Cargo[0] == "changed" || s.Units[0].Loc == "changed" || s.German[0] == "changed" {
		t.Fatal("clone shares memory")
	}
}

func TestRevealShowsBothSidesSecrets(t *testing.T) {
	s := fresh(t)
	s.ship("U25").Area = 2
	txt := Ruleset{}.Reveal(s)
	if !strings.Contains(txt, "U25") || !strings.Contains(txt, "Truant") || !strings.Contains(txt, "IR307") {
		t.Fatal("the reveal hides something")
	}
	for _, l := range strings.Split(txt, "\n") {
		if len(l) > 72 {
			t.Fatalf("line over 72 columns: %q", l)
		}
	}
}

func TestPlayWithoutDice(t *testing.T) {
	s := fresh(t)
	s.Step = StepSubs
	r := Ruleset{}
	for _, side := range r.Sides() {
		text := r.Play(r.View(s, side), side, nil)
		if _, errs := r.ParseOrders(s, side, text); len(errs) > 0 {
			t.Fatal(errs)
		}
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
	s := fresh(t)
	_, errs := Ruleset{}.ParseOrders(s, German, "# air\nair Aalborg")
	want := engine.LineError{Line: 2, Text: "air Aalborg", Rule: "9.3", Msg: "air takes 2 words after it (air BASE MAP); this line has 1", Valid: "air Aalborg A"}
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("errors %+v, want %+v", errs, want)
	}
	_, errs = Ruleset{}.ParseOrders(s, German, "sub Truant 2")
	if len(errs) != 1 || errs[0].Msg != `"sub" is not an order of `+PhaseOf(s).ID || errs[0].Valid != Verbs.Valid(phaseKind(s), "", 0) {
		t.Errorf("a verb of another phase: %+v", errs)
	}
}
