package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/adjudicator"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
)

// TestCheckedInLogsVerify replays every finished game checked in under
// testdata/logs, each made by the build of its ruleset revision, and
// checks it as `skagerrak verify` does: the chain, every signature at its
// recorded time, every state and mail digest and every roll. A rules
// change that breaks one of them broke games in progress (see
// engine/revision.go for the policy).
func TestCheckedInLogsVerify(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "logs", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no logs under testdata/logs")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			// The demo's games were played by signed mail; the others by
			// the scripted players through the adjudicator, under stand-in
			// keys that sign nothing.
			var v adjudicator.Verifier
			if strings.HasSuffix(p, "-demo.jsonl") {
				v = wiring.Verifier{}
			}
			rep, err := adjudicator.VerifyPath(p, v)
			if err != nil {
				t.Fatal(err)
			}
			if v != nil && rep.Signatures == 0 {
				t.Errorf("no signature checked in a game played by signed mail")
			}
			if !rep.Ended || !rep.RollsChecked || rep.Phases == 0 {
				t.Errorf("verified, but not a whole game with its rolls checked: %+v", rep)
			}
		})
	}
}

// TestVerifyRefusesNonCanonicalRecords: a record that means what the
// writer wrote but is not its bytes (a repeated key, a member the event
// type lacks, another escape of the same string), its chain hashed again,
// is refused, naming the record and what is not canonical (audit finding:
// two byte strings of one log both verified).
func TestVerifyRefusesNonCanonicalRecords(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "logs", "norway1940-r2-demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(b), "\n", 3)[:2]
	cases := []struct{ name, old, new, want string }{
		{"as written", "", "", ""},
		{"repeated key", `"phase":"T01-german",`, `"phase":"T01-german","phase":"T01-german",`, `record 2 (line 2`},
		{"unknown member", `"owes":["german"]`, `"owes":["german"],"admin":true`, `record 2 (PhaseOpened) is not canonical: the data does not decode as PhaseOpened: json: unknown field "admin"`},
		{"another escape", `"owes":["german"]`, `"owes":["\u0067erman"]`, `record 2 (line 2`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			second := lines[1]
			if c.old != "" {
				if !strings.Contains(second, c.old) {
					t.Fatalf("record 2 has no %s", c.old)
				}
				second = strings.Replace(second, c.old, c.new, 1)
			}
			p := filepath.Join(t.TempDir(), "events.jsonl")
			os.WriteFile(p, []byte(lines[0]+"\n"+hosttest.Rehash(t, lines[0], second)+"\n"), 0o600)
			_, err := adjudicator.VerifyPath(p, nil)
			if c.want == "" {
				if err != nil {
					t.Fatalf("the log as written: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "canonical") {
				t.Fatalf("verify: %v; want an error with %q", err, c.want)
			}
		})
	}
}
