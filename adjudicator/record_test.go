package adjudicator

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"skagerrak/engine"
)

var recordLogs = flag.String("record-logs", "", "write finished game logs (each scenario, all options, a side asking in person) into this directory")

// TestRecordGameLogs writes whole games played by the scripted players, to
// check in under cmd/skagerrak/testdata/logs before a ruleset's revision
// changes (go test ./adjudicator -run RecordGameLogs -record-logs DIR),
// and one with manual dice.
// Without the flag it does nothing.
func TestRecordGameLogs(t *testing.T) {
	if *recordLogs == "" {
		t.Skip("-record-logs not given")
	}
	for _, name := range rulesetNames() {
		if name == "racetest" {
			continue
		}
		rs, _ := engine.Lookup(name)
		prefix := fmt.Sprintf("%s-r%d", name, engine.CurrentRevision(rs))
		for i, sc := range rs.Scenarios() {
			if i > 0 {
				g, dir := playSetup(t, name, 1, engine.Setup{Scenario: sc.ID})
				record(t, g, dir, prefix+"-"+sc.ID+".jsonl")
			}
		}
		if opts := allOptions(rs); len(opts) > 0 {
			g, dir := playSetup(t, name, 1, engine.Setup{Options: opts})
			record(t, g, dir, prefix+"-options.jsonl")
		}
		if ask := askingCases()[name]; ask != nil {
			g, dir := playAsking(t, name, 3, ask)
			record(t, g, dir, prefix+"-ask.jsonl")
		}
		g, dir, _ := playManual(t, name, 1, engine.Setup{})
		record(t, g, dir, prefix+"-manual.jsonl")
	}
}

// record copies a finished game's log into the -record-logs directory.
func record(t *testing.T, g *Game, dir, file string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, LogFile))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(*recordLogs, file)
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d phases, %.80s", out, g.Resolved, g.Ended.Result.Summary)
}

// allOptions is every optional rule of a ruleset on at once, but for the
// alternatives of one choice (the first is taken).
func allOptions(rs engine.Ruleset) []string {
	var opts []string
	for _, o := range rs.Options() {
		try := append(append([]string(nil), opts...), o.ID)
		if _, err := rs.New(engine.Setup{Options: try}, engine.NewManualDice(3, 3, 3, 3, 3, 3, 3, 3)); err == nil {
			opts = try
		}
	}
	return opts
}
