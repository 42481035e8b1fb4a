package templates

import (
	"strings"
	"testing"
	"time"
)

func TestWrapKeepsIndentAndWidth(t *testing.T) {
	in := "  - " + strings.Repeat("word ", 30) + "end\nshort\n" + strings.Repeat("x", 90)
	out := Wrap(in, 40)
	lines := strings.Split(out, "\n")
	for _, l := range lines[:len(lines)-2] {
		if len(l) > 40 {
			t.Errorf("line wider than 40: %q", l)
		}
	}
	if !strings.HasPrefix(lines[1], "      ") {
		t.Errorf("a continuation does not keep the indent plus four: %q", lines[1])
	}
	if lines[len(lines)-1] != strings.Repeat("x", 90) || lines[len(lines)-2] != "short" {
		t.Errorf("a line without spaces, or a short one, was changed: %q", lines[len(lines)-2:])
	}
	if strings.Join(strings.Fields(out), " ") != strings.Join(strings.Fields(in), " ") {
		t.Error("wrapping changed the words")
	}
}

// testReceipt has the fields of adjudicator.LogReceipt the templates read.
type testReceipt struct {
	Seq           uint64
	Hash, Message string
}

// The receipt lines fit the width of every mail with the longest values
// they take: a six-digit record number, a canonical identity (sig1: and
// 64 hex digits).
func TestReceiptLinesFitTheWidth(t *testing.T) {
	r := &testReceipt{Seq: 999999, Hash: strings.Repeat("f", 64), Message: "sig1:" + strings.Repeat("e", 64)}
	for _, c := range []struct {
		name string
		data any
	}{
		{"accepted.tmpl", map[string]any{"Game": "g1", "Phase": "T01", "Side": "german", "Orders": "Game: g1\n", "Deadline": time.Time{}, "Receipt": r}},
		{"accepted.tmpl", map[string]any{"Game": "g1", "Phase": "T01", "Side": "german", "Orders": "Game: g1\n", "Deadline": time.Time{}, "Receipt": r, "Paper": true, "By": strings.Repeat("referee ", 12)}},
		{"report.tmpl", struct {
			Game, Title, Side, Resolved, Why, Body, Next, Form, MapNote string
			Defaulted, Owes                                             []string
			Deadline                                                    time.Time
			Receipt                                                     *testReceipt
			Guide                                                       bool
		}{Game: "g1", Title: "T", Side: "german", Body: "body", Receipt: r}},
		{"final.tmpl", map[string]any{"Game": "g1", "Title": "T", "Side": "german", "Why": "over", "Body": "b", "Secret": "s", "Moves": "", "Schema": "x", "Receipt": r}},
	} {
		out, err := Render(c.name, c.data)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(out, "Receipt, signed")
		if i < 0 || !strings.Contains(out, r.Hash) {
			t.Fatalf("%s: no receipt:\n%s", c.name, out)
		}
		for _, l := range strings.Split(out[i:], "\n") {
			if n := len([]rune(l)); n > Width {
				t.Errorf("%s: a receipt line of %d columns: %q", c.name, n, l)
			}
		}
	}
}

func TestEveryTemplateRenders(t *testing.T) {
	data := map[string]any{"Game": "g1", "Title": "T", "Side": "german", "Phase": "T01", "Deadline": time.Date(2026, 4, 9, 6, 0, 0, 0, time.UTC),
		"Orders": "Game: g1\nadvance 1", "Reason": "r", "Errors": []string{"line 4: x"}, "Open": "T01", "Text": "notice", "Why": "over",
		"Result": "draw", "Body": "body", "Secret": "abc", "Moves": "T01: ...\n",
		"At": time.Date(2026, 4, 9, 5, 0, 0, 0, time.UTC), "Line": "status", "Help": "help  the guide"}
	for _, name := range Names() {
		var d any = data
		if name == "report.tmpl" {
			d = struct {
				Game, Title, Side, Resolved, Why, Body, Next, Form, MapNote string
				Defaulted, Owes                                             []string
				Deadline                                                    time.Time
				Receipt                                                     *testReceipt
				Guide                                                       bool
			}{MapNote: "Your map is attached (map.png).", Guide: true, Game: "g1", Title: "T", Side: "german", Body: "body", Next: "T02", Owes: []string{"german"}, Form: "Game: g1"}
		}
		out, err := Render(name, d)
		if err != nil || !strings.Contains(out, "g1") {
			t.Errorf("%s: %v\n%s", name, err, out)
		}
	}
	if len(Names()) < 6 {
		t.Errorf("templates: %v", Names())
	}
}

// A word too long for a line, after a break, stays whole on its
// continuation line: wrapping ends (a reply quoting a hostile 1000-letter
// game name once looped here for ever).
func TestWrapEndsOnALongWordAfterABreak(t *testing.T) {
	in := "the order file is for game \"" + strings.Repeat("g", 1000) + "\"; this is game \"g1\""
	done := make(chan string)
	go func() { done <- Wrap(in, 72) }()
	select {
	case out := <-done:
		lines := strings.Split(out, "\n")
		if len(lines) != 2 || lines[0] != "the order file is for game" || lines[1] != "    "+in[len("the order file is for game "):] {
			t.Errorf("wrapped as %q", lines)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Wrap does not end")
	}
}
