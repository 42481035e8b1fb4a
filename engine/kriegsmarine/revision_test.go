package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// The tests of what rules revision 2 changed (revision.go) sit with their
// chapter's rules tests (*_rules_test.go), each worked out by hand from the
// rulebook text, with revision 1's behaviour where the two fork: a game
// keeps the revision it was created with. Many are scenarios refereed by
// hand in round 2 (issue 17's method): each outcome was worked out from the
// rulebook text, with the arithmetic in the comment, then played through
// the CLI with manual dice; where the engine disagreed, the fix is in rules
// revision 2 and revision 1 keeps what it did.

func TestRevisionsRecordedFromTwoOn(t *testing.T) {
	if n := engine.CurrentRevision(Ruleset{}); n != 2 {
		t.Fatalf("current revision %d, want 2", n)
	}
	if s := newGameRev(t, 1, nil); s.Revision != 0 || strings.Contains(string(mustJSON(t, s)), `"revision"`) {
		t.Errorf("a revision 1 state records revision %d: it must record none, so that old states keep their digests", s.Revision)
	}
	if s := newGame(t, nil); s.Revision != 2 || s.view(German).Revision != 2 {
		t.Errorf("a new game records revision %d, its View %d; want 2", s.Revision, s.view(German).Revision)
	}
	if _, err := (Ruleset{}).New(engine.Setup{Revision: 3}, enginetest.ThenOnes(3, 4)); err == nil {
		t.Error("revision 3 accepted")
	}
}
