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

// TestEveryVerbHasAParser: the verb table and the parser's functions
// name the same orders, so neither can drift from the other.
func TestEveryVerbHasAParser(t *testing.T) {
	for _, d := range []interface{ Check() error }{orderDriver, decisionDriver} {
		if err := d.Check(); err != nil {
			t.Error(err)
		}
	}
}

// TestWrongWordCountGivesUsageAndLine: an order line with more or fewer
// words than its verb takes (the table's Words) is refused with its line
// number, the verb's rule, its usage and the table's example.
func TestWrongWordCountGivesUsageAndLine(t *testing.T) {
	_, err := parseLine(newGame(t), Allied, engine.OrderLines("# subs\nsubs South-2")[0])
	want := engine.LineError{Line: 2, Text: "subs South-2", Rule: "9.11", Msg: "subs takes 2 or 3 words after it (sub BOX ENEMY [1-3]); this line has 1", Valid: "sub South-2 G4 1"}
	if err == nil || *err != want {
		t.Errorf("error %+v, want %+v", err, want)
	}
}

// TestLaterRevisionsOrderSaysSo: the losses order of revision 2 in a
// revision 1 game is refused saying so, the game's orders as valid.
func TestLaterRevisionsOrderSaysSo(t *testing.T) {
	st1, _ := Ruleset{}.New(engine.Setup{Revision: 1}, enginetest.ThenOnes())
	_, err := parseLine(st1.(*State), German, engine.OrderLines("losses none")[0])
	if err == nil || err.Msg != `"losses" is an order from rules revision 2; this game plays revision 1` || err.Rule != "5.2" || strings.Contains(err.Valid, "losses") {
		t.Errorf("losses in revision 1: %+v", err)
	}
}

// TestSubAndReconReadBoxEnemyAlike: sub and air recon read "BOX ENEMY
// [1-3]" with one reader: the same box, enemy and markers, and each its
// own rule and words for too many markers.
func TestSubAndReconReadBoxEnemyAlike(t *testing.T) {
	s := newGame(t)
	sub, _ := parseLine(s, Allied, engine.OrderLines("sub south-2 g4 2")[0])
	rec, _ := parseLine(s, Allied, engine.OrderLines("air recon south-2 g4 2")[0])
	if sub.To != "South-2" || sub.Target != "G4" || sub.N != 2 || rec.To != sub.To || rec.Target != sub.Target || rec.N != sub.N {
		t.Errorf("sub %+v, recon %+v", sub, rec)
	}
	_, errSub := parseLine(s, Allied, engine.OrderLines("sub South-2 G4 4")[0])
	_, errRec := parseLine(s, Allied, engine.OrderLines("air recon South-2 G4 4")[0])
	if errSub == nil || errSub.Rule != "9.11" || errSub.Msg != "up to three submarine markers may be grouped" ||
		errRec == nil || errRec.Rule != "8.9.1" || errRec.Msg != "up to 3 recon points may be grouped" {
		t.Errorf("too many markers: sub %+v, recon %+v", errSub, errRec)
	}
}
