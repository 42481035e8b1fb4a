package kriegsmarine

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"skagerrak/engine"
)

var update = flag.Bool("update", false, "rewrite the journals recorded below ---- in testdata/scenarios")

// A scenario file (testdata/scenarios/*.txt) is one turn played from a
// set-up: the rules it tests and the outcome worked out by hand from the
// rulebook, then the set-up, the orders, the dice and what each side must
// and must not read in its journal. One statement a line:
//
//	# the rule quoted, the outcome worked out by hand
//	revision 2                  the rules revision (default: the current)
//	options commanders          optional rules
//	clear                       no unit on the map
//	turn 3                      the turn the scenario plays (default 1)
//	put brummer H16             a unit on a hex
//	german move Brummer I16     a line of a side's orders
//	dice 5 4 1 1                the dice, every one of them rolled
//	sees german withdraws from Oslo     the side reads this in an entry of the turn
//	hidden german G17           ... and never this
//	----
//	the turn's journal as each side reads it
//
// The sees and hidden lines are the worked-out outcome; the journal below
// "----" records the rest of what the players read, so that a change to
// it shows in review; go test -run ScenarioFiles -update rewrites it and
// nothing else.
type scenarioFile struct {
	rev, turn    int
	opts         []string
	clear        bool
	puts         [][2]string
	orders       map[engine.Side]string
	dice         []int
	sees, hidden [][2]string
	journal      string
}

// TestScenarioFiles plays every scenario file.
func TestScenarioFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario files: %v", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) { runScenarioFile(t, path) })
	}
}

// runScenarioFile plays the scenario file at path; with -update it
// rewrites the journal recorded in it.
func runScenarioFile(t *testing.T, path string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, head, err := parseScenarioFile(string(raw))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	got := playScenarioFile(t, sc)
	if *update {
		if err := os.WriteFile(path, []byte(head+"----\n"+got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != sc.journal {
		t.Errorf("%s: the journal differs from the one recorded (go test -run ScenarioFiles -update rewrites it); got:\n%s", path, got)
	}
}

// playScenarioFile plays the scenario's turn, checks what each side reads
// against its sees and hidden lines, and returns the turn's journal as
// each side reads it.
func playScenarioFile(t *testing.T, sc scenarioFile) string {
	t.Helper()
	s := newGameRev(t, sc.rev, sc.opts)
	if sc.clear {
		clearMap(s)
	}
	s.Turn = sc.turn
	for _, p := range sc.puts {
		put(t, s, p[0], p[1])
	}
	s, _ = resolveExactly(t, s, sc.orders[Allied], sc.orders[German], sc.dice...)
	var b strings.Builder
	for _, side := range []engine.Side{Allied, German} {
		for _, e := range reportsTo(s, side, sc.turn) {
			fmt.Fprintf(&b, "%s %s (%s): %s\n", side, e.Kind, e.Rule, e.Text)
		}
	}
	journal := b.String()
	for _, w := range sc.sees {
		if !strings.Contains(sidesLines(journal, w[0]), w[1]) {
			t.Errorf("%s does not read %q", w[0], w[1])
		}
	}
	for _, w := range sc.hidden {
		if strings.Contains(sidesLines(journal, w[0]), w[1]) {
			t.Errorf("%s reads %q", w[0], w[1])
		}
	}
	return journal
}

// sidesLines is the texts of a journal's lines that side reads.
func sidesLines(journal, side string) string {
	var out []string
	for _, l := range strings.Split(journal, "\n") {
		if rest, ok := strings.CutPrefix(l, side+" "); ok {
			if _, text, ok := strings.Cut(rest, ": "); ok {
				out = append(out, text)
			}
		}
	}
	return strings.Join(out, "\n")
}

// parseScenarioFile reads a scenario file; head is the text above "----".
func parseScenarioFile(text string) (sc scenarioFile, head string, err error) {
	head, journal, _ := strings.Cut(text, "----\n")
	if !strings.HasSuffix(head, "\n") {
		head += "\n"
	}
	sc = scenarioFile{turn: 1, orders: map[engine.Side]string{}, journal: journal}
	for n, line := range strings.Split(head, "\n") {
		word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		rest = strings.TrimSpace(rest)
		switch word {
		case "", "#":
		case "revision", "turn":
			v, err := strconv.Atoi(rest)
			if err != nil {
				return sc, head, fmt.Errorf("line %d: %s takes a number: %q", n+1, word, line)
			}
			if word == "revision" {
				sc.rev = v
			} else {
				sc.turn = v
			}
		case "options":
			sc.opts = strings.Fields(rest)
		case "clear":
			sc.clear = true
		case "put":
			f := strings.Fields(rest)
			if len(f) != 2 {
				return sc, head, fmt.Errorf("line %d: put UNIT HEX: %q", n+1, line)
			}
			sc.puts = append(sc.puts, [2]string{f[0], f[1]})
		case string(Allied), string(German):
			sc.orders[engine.Side(word)] += rest + "\n"
		case "dice":
			for _, f := range strings.Fields(rest) {
				d, err := strconv.Atoi(f)
				if err != nil {
					return sc, head, fmt.Errorf("line %d: dice are numbers: %q", n+1, line)
				}
				sc.dice = append(sc.dice, d)
			}
		case "sees", "hidden":
			side, what, ok := strings.Cut(rest, " ")
			if !ok || (side != string(Allied) && side != string(German)) {
				return sc, head, fmt.Errorf("line %d: %s SIDE TEXT, SIDE allied or german: %q", n+1, word, line)
			}
			if word == "sees" {
				sc.sees = append(sc.sees, [2]string{side, what})
			} else {
				sc.hidden = append(sc.hidden, [2]string{side, what})
			}
		default:
			if strings.HasPrefix(word, "#") {
				continue
			}
			return sc, head, fmt.Errorf("line %d: unknown statement %q (valid: revision, options, clear, turn, put, allied, german, dice, sees, hidden, #)", n+1, word)
		}
	}
	return sc, head, nil
}
