package norway1940

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

func TestOrderSyntaxCaseAliasesCommentsAndErrors(t *testing.T) {
	s := bare(t, 8, German)
	put(s, "159", "Oslo")
	o := parseOK(t, s, "# orders\n\nMOVE ir159 oslo HAMAR   # by road\n")
	if len(o.Lines) != 1 || o.Lines[0].ID != "159" || o.Lines[0].Path[1] != "Hamar" || o.Lines[0].Line != 3 {
		t.Fatalf("parsed %+v", o.Lines)
	}
	_, errs := parseOrders(s, German, "move 159 Narnia\nfleet G99 to Atlantis\nair bomb Hamar\ndance\nmove 159 Hamar\n")
	if len(errs) != 4 {
		t.Fatalf("want 4 errors, got %v", errs)
	}
	for i, e := range errs {
		if e.Line != i+1 || e.Rule == "" || e.Valid == "" || e.Msg == "" {
			t.Errorf("error %+v lacks line, rule or valid", e)
		}
	}
	_, errs = parseOrders(s, Allied, "keep fighters 1\n")
	if len(errs) != 1 || errs[0].Rule != "5.2" {
		t.Errorf("orders from the side not owing any: %v", errs)
	}
}

func TestDefaultOrdersResolve(t *testing.T) {
	r := Ruleset{}
	st, _ := r.New(engine.Setup{}, enginetest.ThenOnes())
	for i := 0; i < 50; i++ {
		ph := r.Phase(st)
		if ph.Over {
			break
		}
		side := ph.Owes[0]
		var err error
		st, err = r.Resolve(st, map[engine.Side]engine.Orders{side: r.DefaultOrders(st, side)}, enginetest.ThenOnes())
		if err != nil {
			t.Fatal(err)
		}
	}
	// A German who never orders anything holds nothing on turn 11 (12.4.1).
	res := r.Result(st)
	if res == nil || res.Winner != Allied || res.Level != "sudden death" || st.(*State).Turn != 11 {
		t.Errorf("NMR game: turn %d, result %+v", st.(*State).Turn, res)
	}
}

func TestOrderFormKeepsStandingOrders(t *testing.T) {
	r := Ruleset{}
	st, _ := r.New(engine.Setup{}, enginetest.ThenOnes())
	form := r.OrderForm(r.View(st, German), German)
	if !strings.Contains(form, "evade weaker") || !strings.Contains(form, "fleet G1 in Germany") {
		t.Fatalf("form:\n%s", form)
	}
	if _, errs := r.ParseOrders(st, German, form); len(errs) > 0 {
		t.Fatalf("the unchanged form is rejected: %v", errs)
	}
	if rep := r.Report(r.View(st, Allied), Allied); !strings.Contains(rep, "Enemy fleet markers") {
		t.Error("report without the enemy fleet markers")
	}
	if rv := r.Reveal(st); !strings.Contains(rv, "G1") {
		t.Error("reveal without the German fleets")
	}
	// Revision 2's form keeps the losses order (10.5.6); revision 1's has
	// none, and its unchanged form is accepted by revision 1.
	if !strings.Contains(form, "\nlosses none\n") || !strings.Contains(form, "[fallback AREA]") {
		t.Errorf("revision 2 form without the losses order:\n%s", form)
	}
	st1, _ := r.New(engine.Setup{Revision: 1}, enginetest.ThenOnes())
	form1 := r.OrderForm(r.View(st1, German), German)
	if strings.Contains(form1, "losses") || strings.Contains(form1, "fallback") {
		t.Errorf("revision 1 form offers revision 2 orders:\n%s", form1)
	}
	if _, errs := r.ParseOrders(st1, German, form1); len(errs) > 0 {
		t.Fatalf("the unchanged revision 1 form is rejected: %v", errs)
	}
}

// TestRevisionsRecordedFromTwo: new games are revision 2 and record it;
// revision 1 games record none (their states keep their digests).
func TestRevisionsRecordedFromTwo(t *testing.T) {
	r := Ruleset{}
	if got := engine.CurrentRevision(r); got != 2 {
		t.Fatalf("current revision %d", got)
	}
	st, _ := r.New(engine.Setup{}, enginetest.ThenOnes())
	if st.(*State).Revision != 2 || r.View(st, German).(*View).Revision != 2 {
		t.Error("a new game does not record revision 2")
	}
	st1, _ := r.New(engine.Setup{Revision: 1}, enginetest.ThenOnes())
	if b, _ := json.Marshal(st1); strings.Contains(string(b), `"revision"`) {
		t.Error("a revision 1 state records its revision")
	}
	for _, rv := range r.Revisions()[1:] {
		for _, c := range rv.Changes {
			if !regexp.MustCompile(`^[0-9]+(\.[0-9]+)*[,:]`).MatchString(c) {
				t.Errorf("revision %d change %q does not start with its rule", rv.N, c)
			}
		}
	}
}

func TestOrderFileLineNumbers(t *testing.T) {
	r := Ruleset{}
	st, _ := r.New(engine.Setup{}, enginetest.ThenOnes())
	f, err := engine.ParseOrderFile("Game: g1\nPhase: T01-german\nSide: german\n# the invasion sails\nfleet G1 to South-1\nfleet G2 to Narnia\n")
	if err != nil {
		t.Fatal(err)
	}
	if f.Phase != r.Phase(st).ID || f.Side != German {
		t.Fatalf("header %+v, phase %s", f, r.Phase(st).ID)
	}
	_, errs := r.ParseOrders(st, f.Side, f.Body)
	if len(errs) != 1 || errs[0].Line != 6 || errs[0].Rule != "9.13" {
		t.Errorf("errors %+v, want one on line 6 citing 9.13", errs)
	}
}
