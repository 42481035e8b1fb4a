package adjudicator

import (
	"bytes"
	"strings"
	"testing"
)

// verify of a game one phase in, as a new host runs it after the first
// turn (README "Back up"), reads as English: "1 phase resolved", not
// "1 phases resolved".
func TestVerifiedGameCountsInEnglish(t *testing.T) {
	var out bytes.Buffer
	VerifyReport{Path: "games/weser-1/events.jsonl", Game: "weser-1", Events: 1, Phases: 1, Signatures: 1, Ruleset: "kriegsmarine", Revision: 2, RollsChecked: true, Rolls: 1}.Print(&out, "test")
	for _, want := range []string{"game weser-1: 1 event, 1 phase resolved, 1 signature checked", "1 dice roll checked"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("verify says\n%s\nnot %q", out.String(), want)
		}
	}
	out.Reset()
	VerifyReport{Path: "p", Game: "g", Events: 21, Phases: 2, Signatures: 0, RollsChecked: true, Rolls: 2}.Print(&out, "test")
	if want := "game g: 21 events, 2 phases resolved, 0 signatures checked"; !strings.Contains(out.String(), want) {
		t.Errorf("verify says\n%s\nnot %q", out.String(), want)
	}
}
