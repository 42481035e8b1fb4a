package status

import (
	"errors"
	"strings"
	"testing"
)

// status exits non-zero for a game set aside or a mail undelivered, saying
// what to do about each; with neither it exits 0.
func TestStatusFailsForAsideAndUndelivered(t *testing.T) {
	if err := (&tally{}).err(); err != nil {
		t.Errorf("nothing wrong: %v", err)
	}
	var out strings.Builder
	tl := &tally{w: &out, undelivered: 2}
	if err := tl.game("weser-1", nil, errors.New("unknown ruleset")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "weser-1  SET ASIDE") || !strings.Contains(out.String(), "unknown ruleset") {
		t.Errorf("the game set aside shows as\n%s", out.String())
	}
	err := tl.err()
	for _, want := range []string{"1 game(s) set aside", "2 mail(s) undelivered", "skagerrak referee GAME address"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
}
