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
		Unknown: func(p *driverLog, l OrderLine) {
			p.got = append(p.got, fmt.Sprintf("%d unknown %s", l.N, l.Fields[0]))
		},
		Closed: func(p *driverLog, l OrderLine, v Verb) {
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
