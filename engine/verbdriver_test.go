package engine

import (
	"fmt"
	"strings"
	"testing"
)

// driverLog is a parser that writes down what the driver called.
type driverLog struct {
	phase string
	got   []string
}

func testDriver() Driver[*driverLog] {
	record := func(p *driverLog, l OrderLine, args []string) {
		p.got = append(p.got, fmt.Sprintf("%d %s %s", l.N, l.Fields[0], strings.Join(args, ",")))
	}
	return Driver[*driverLog]{
		Verbs: testVerbs,
		Funcs: map[string]VerbFunc[*driverLog]{"move": record, "rapid": record, "expose": record, "trade": record},
		Open:  func(p *driverLog, v Verb) bool { return v.Allows(p.phase, "", 0) },
		Unknown: func(p *driverLog, l OrderLine, _ string) {
			p.got = append(p.got, fmt.Sprintf("%d unknown %s", l.N, l.Fields[0]))
		},
		Closed: func(p *driverLog, l OrderLine, v Verb, _ string) {
			p.got = append(p.got, fmt.Sprintf("%d closed %s", l.N, v.Name))
		},
	}
}

// TestDriverDispatchesByNameAliasAndPhase: a line goes to its verb's
// function with the words after the verb, found by name or alias in any
// case; a word of no verb goes to Unknown, a verb of another phase to
// Closed, each with the line.
func TestDriverDispatchesByNameAliasAndPhase(t *testing.T) {
	d := testDriver()
	p := &driverLog{phase: "move"}
	for _, l := range OrderLines("MOVE Hipper K8\nrask Oslo Hamar 2\nfly Oslo\ntrade ubat\n") {
		d.Line(p, l)
	}
	want := []string{"1 MOVE Hipper,K8", "2 rask Oslo,Hamar,2", "3 unknown fly", "4 closed trade"}
	if strings.Join(p.got, "|") != strings.Join(want, "|") {
		t.Errorf("driver calls %q, want %q", p.got, want)
	}
	// With no Open check, every verb of the table is taken.
	d.Open = nil
	p = &driverLog{phase: "move"}
	if v, ok := d.Line(p, OrderLines("trade ubat")[0]); !ok || v.Name != "trade" || p.got[0] != "1 trade ubat" {
		t.Errorf("no Open check: %v %v %q", v.Name, ok, p.got)
	}
}

// TestDriverCheckFindsDrift: a verb of the table with no function, or a
// function for no verb, is reported, by name; a bound table passes.
func TestDriverCheckFindsDrift(t *testing.T) {
	d := testDriver()
	if err := d.Check(); err != nil {
		t.Fatalf("a bound table: %v", err)
	}
	delete(d.Funcs, "expose")
	d.Funcs["fly"] = d.Funcs["move"]
	err := d.Check()
	if err == nil || !strings.Contains(err.Error(), `verb "expose" has no function`) || !strings.Contains(err.Error(), `function "fly" is for no verb`) {
		t.Errorf("drift not reported: %v", err)
	}
	// A line of a verb with no function is an unknown order, not silence.
	p := &driverLog{phase: "move"}
	d.Line(p, OrderLines("expose Bergen Köln")[0])
	if len(p.got) != 1 || p.got[0] != "1 unknown expose" {
		t.Errorf("a verb with no function: %q", p.got)
	}
	d = testDriver()
	d.Verbs = append(Verbs{{Name: "Move", Aliases: []string{"rapid"}}}, d.Verbs...)
	d.Unknown = nil
	err = d.Check()
	for _, want := range []string{`"rapid" is named twice`, `verb "Move" is not lower case`, "no Unknown error"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check misses %s: %v", want, err)
		}
	}
}

// TestVerbsInAPhase: a table's part for one phase keeps the verbs of
// that phase and those of every phase, in table order.
func TestVerbsInAPhase(t *testing.T) {
	vs := append(Verbs{{Name: "pass"}}, testVerbs...)
	var got []string
	for _, v := range vs.In("reinforce") {
		got = append(got, v.Name)
	}
	if strings.Join(got, " ") != "pass trade" {
		t.Errorf("reinforce verbs %q, want pass trade", got)
	}
}

// TestWrongArgumentCountGivesUsageAndLineNumber: a line with more or
// fewer words than its verb's Words never reaches the verb's function;
// the refusal names the line by its number in the file, the count the
// verb takes with its usage and the line's count, the verb's rule, and
// for valid the table's example of it (a line the parser takes).
func TestWrongArgumentCountGivesUsageAndLineNumber(t *testing.T) {
	d := testDriver()
	d.Verbs = append(Verbs{}, d.Verbs...)
	d.Verbs[0].Words = Takes(2, Many)
	d.Verbs[1].Words = Takes(2, 3)
	d.Verbs[3].Words = Takes(1, 1)
	d.Verbs[3].Rule = "6"
	var refused []LineError
	d.Refuse = func(_ *driverLog, e LineError) { refused = append(refused, e) }
	p := &driverLog{phase: "move"}
	for _, l := range OrderLines("# comment\n\nmove Hipper\nrask Oslo Hamar 2 3\nmove Hipper K8 K9\n") {
		d.Line(p, l)
	}
	p.phase = "reinforce"
	d.Line(p, OrderLines("\n\n\n\n\ntrade ubat jager")[0])
	if strings.Join(p.got, "|") != "5 move Hipper,K8,K9" {
		t.Errorf("the verbs' functions were called with %q, want only line 5", p.got)
	}
	want := []LineError{
		{Line: 3, Text: "move Hipper", Rule: "6.1", Msg: "move takes at least 2 words after it (move UNIT HEX [HEX ...]); this line has 1", Valid: "move Hipper K8"},
		{Line: 4, Text: "rask Oslo Hamar 2 3", Msg: "rask takes 2 or 3 words after it (rapid FROM AREA [AREA] [N]); this line has 4", Valid: "rapid Oslo Hamar 2"},
		{Line: 6, Text: "trade ubat jager", Rule: "6", Msg: "trade takes 1 word after it (trade CARD [CARD...]); this line has 2", Valid: "trade ubat"},
	}
	if fmt.Sprint(refused) != fmt.Sprint(want) {
		t.Errorf("refusals\n%v\nwant\n%v", refused, want)
	}
	if err := d.Check(); err != nil {
		t.Errorf("a bound table with a Refuse: %v", err)
	}
	d.Refuse = nil
	if err := d.Check(); err == nil || !strings.Contains(err.Error(), "Words and no Refuse") {
		t.Errorf("Check misses a table with counts and no Refuse: %v", err)
	}
	d.Verbs[3].Words = Takes(2, 2)
	if err := d.Check(); err == nil || !strings.Contains(err.Error(), `verb "trade" has no example line that its Words allows`) {
		t.Errorf("Check misses an example its count refuses: %v", err)
	}
}

// TestCountSaysItsBounds: a count reads as the refusal says it.
func TestCountSaysItsBounds(t *testing.T) {
	for c, want := range map[Count]string{Takes(0, 0): "no words", Takes(1, 1): "1 word", Takes(2, 3): "2 or 3 words",
		Takes(1, 3): "1 to 3 words", Takes(2, Many): "at least 2 words", Takes(0, Many): "any number of words"} {
		if c.String() != want {
			t.Errorf("%+v reads %q, want %q", c, c, want)
		}
	}
	if !(Count{}).Allows(7) || Takes(0, 0).Allows(1) || !Takes(1, Many).Allows(9) || Takes(2, 3).Allows(1) {
		t.Error("Allows is wrong")
	}
}

// TestUnknownAndClosedVerbsListThePhaseVerbs: an unknown verb's refusal
// gets the nearest verbs of the open phase and all of them, a verb of
// another phase the open phase's verbs, drawn from the table (Valid, or
// the verbs Open takes).
func TestUnknownAndClosedVerbsListThePhaseVerbs(t *testing.T) {
	d := testDriver()
	var hints []string
	d.Unknown = func(_ *driverLog, l OrderLine, valid string) { hints = append(hints, l.Fields[0]+": "+valid) }
	d.Closed = func(_ *driverLog, l OrderLine, _ Verb, valid string) { hints = append(hints, l.Fields[0]+": "+valid) }
	p := &driverLog{phase: "move"}
	for _, l := range OrderLines("mve Hipper K8\ntrade ubat\n") {
		d.Line(p, l)
	}
	d.Valid = func(*driverLog) []string { return []string{"move"} }
	d.Line(p, OrderLines("trade ubat")[0])
	want := []string{"mve: did you mean move? (move, rapid, expose)", "trade: move, rapid, expose", "trade: move"}
	if strings.Join(hints, "|") != strings.Join(want, "|") {
		t.Errorf("hints %q, want %q", hints, want)
	}
}
