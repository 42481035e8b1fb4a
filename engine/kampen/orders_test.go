package kampen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"skagerrak/engine"
)

// TestViewShowsOwnHand: a side's view holds its own hand of three cards.
func TestViewShowsOwnHand(t *testing.T) {
	s := newGame(t, "own")
	v := (Ruleset{}).View(s, Norwegian).(*View)
	if len(v.Hand) != 3 {
		t.Errorf("own hand %v", v.Hand)
	}
}

func TestReportFitsIn72Columns(t *testing.T) {
	r := Ruleset{}
	_, _, states := playGameStates(t, "report")
	for _, s := range states {
		for _, side := range turnOrder {
			rep := r.Report(r.View(s, side), side)
			for i, l := range strings.Split(rep, "\n") {
				if utf8.RuneCountInString(l) > 72 {
					t.Fatalf("%s %s line %d is %d columns: %q", s.phaseID(), side, i+1, utf8.RuneCountInString(l), l)
				}
			}
			if !strings.Contains(rep, "Your hand:") || !strings.Contains(rep, "OBJECTIVES") {
				t.Fatalf("report lacks its sections:\n%s", rep)
			}
		}
	}
}

func TestParseErrorsNameLineRuleAndValid(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 3), at(Norwegian, "lillehammer", 1))
	give(s, German, "panzer")
	text := "# orders\nMOVE GJØVIK Lillehammer 2   # into the valley\nattack LILLEHAMMER Panzer\n"
	parse(t, s, German, text)
	bad := "march gjovik hamar\nmove gjovik narvik\nmove gjovik hamar two\nattack lillehammer stuka\nblock veisperring hamar\n"
	errs := parseErr(t, s, German, bad)
	if len(errs) != 5 {
		t.Fatalf("%d errors, want 5: %v", len(errs), errs)
	}
	for i, e := range errs {
		if e.Line != i+1 {
			t.Errorf("error %d on line %d", i, e.Line)
		}
	}
	// A side that owes nothing may send nothing.
	if _, errs := (Ruleset{}).ParseOrders(s, Norwegian, "# nothing\n"); len(errs) > 0 {
		t.Errorf("empty orders of a side that owes none: %v", errs)
	}
	if errs := parseErr(t, s, Norwegian, "move hamar oslo"); errs[0].Rule != "3" {
		t.Errorf("orders of a side that owes none: %v", errs)
	}
}

func TestResolveMakesARealCopy(t *testing.T) {
	s := scene(German, StepMove, at(German, "gjovik", 3), at(Norwegian, "lillehammer", 1))
	give(s, German, "panzer")
	before, _ := json.Marshal(s)
	next := run(t, s, map[engine.Side]string{German: "move gjovik lillehammer 3\nattack lillehammer panzer"})
	next.Stacks[0].N = 99
	next.German.Hand = append(next.German.Hand, "x")
	next.Norwegian.Draw[0] = "x"
	after, _ := json.Marshal(s)
	if string(before) != string(after) {
		t.Error("the next state shares memory with its input")
	}
}

// TestParseOrdersNeverPanics feeds random order lines to the states of a
// played game: every one comes back as errors naming their line, rule and
// what would be valid, or as orders that resolve.
func TestParseOrdersNeverPanics(t *testing.T) {
	words := []string{"move", "rapid", "para", "attack", "react", "engineer", "losses", "block", "flee",
		"defend", "retreat", "trade", "place", "discard", "submarine", "first", "from", "on", "off",
		"oslo", "Hamar", "GJØVIK", "dombaas", "narvik", "panzer", "veisperring", "sprengt-bro", "jagerfly",
		"ubat", "0", "1", "2", "-3", "99999999999999999999", "#", "æøå", ""}
	_, _, states := playGameStates(t, "fuzz")
	n := 0
	for _, s := range states[:min(len(states), 30)] {
		for _, side := range []engine.Side{German, Norwegian, Allied, "danish"} {
			for k := 0; k < 40; k++ {
				var lines []string
				for i := 0; i < 1+k%4; i++ {
					var f []string
					for j := 0; j < 1+(k+i)%6; j++ {
						n = (n*1103515245 + 12345) & 0x7fffffff
						f = append(f, words[n%len(words)])
					}
					lines = append(lines, strings.Join(f, " "))
				}
				o, errs := (Ruleset{}).ParseOrders(s, side, strings.Join(lines, "\n"))
				for _, e := range errs {
					// a line is at fault: its number, never "line 0"
					if e.Line < 1 || e.Line > len(lines) || e.Rule == "" || e.Valid == "" || e.Msg == "" {
						t.Fatalf("%s %s: %q: incomplete error %+v", s.phaseID(), side, lines, e)
					}
				}
				if len(errs) == 0 && s.owesSide(side) {
					if _, err := (Ruleset{}).Resolve(s, map[engine.Side]engine.Orders{side: o}, engine.NewSeededDice([]byte("f"), "g", "p", [32]byte{})); err != nil {
						t.Fatalf("%s: accepted orders do not resolve: %v", s.phaseID(), err)
					}
				}
			}
		}
	}
}

func TestRevealTellsEverything(t *testing.T) {
	s, _ := playGame(t, "reveal")
	text := (Ruleset{}).Reveal(s)
	if !strings.Contains(text, s.Summary[:20]) || !strings.Contains(text, "draws") {
		t.Errorf("reveal lacks the result or the private draws:\n%s", text)
	}
	for i, l := range strings.Split(text, "\n") {
		if utf8.RuneCountInString(l) > 72 {
			t.Errorf("line %d is %d columns", i+1, utf8.RuneCountInString(l))
		}
	}
}

// TestEveryVerbHasAParser: the verb table and the parser's functions
// name the same orders, so neither can drift from the other.
func TestEveryVerbHasAParser(t *testing.T) {
	if err := driver.Check(); err != nil {
		t.Error(err)
	}
}

// TestWrongWordCountGivesUsageAndLine: a line with more or fewer words
// than its verb takes (the table's Words) is refused by the driver with
// its line number, the verb's rule and usage, and the table's example; a
// verb of another step lists the orders of the open one.
func TestWrongWordCountGivesUsageAndLine(t *testing.T) {
	s := newGame(t, "count")
	errs := parseErr(t, s, German, "move Oslo Drammen 1\nmove Oslo\nengineer on off")
	want := []engine.LineError{
		{Line: 2, Text: "move Oslo", Rule: "4.1", Msg: "move takes 2 or 3 words after it (move FROM TO [N]); this line has 1", Valid: "move Oslo Drammen 1"},
		{Line: 3, Text: "engineer on off", Rule: "4.4", Msg: "engineer takes 1 word after it (engineer on|off); this line has 2", Valid: "engineer on"},
	}
	if fmt.Sprint(errs) != fmt.Sprint(want) {
		t.Errorf("errors\n%v\nwant\n%v", errs, want)
	}
	errs = parseErr(t, s, German, "trade jagerbomber")
	if errs[0].Msg != `"trade" is not an order of the move step` || errs[0].Valid != sideVerbs(s, German) {
		t.Errorf("a verb of another step: %+v, want the move step's orders %s", errs[0], sideVerbs(s, German))
	}
}
