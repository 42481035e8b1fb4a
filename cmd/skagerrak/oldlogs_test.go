package main

import (
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/adjudicator"
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
				v = pgpVerifier{}
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
