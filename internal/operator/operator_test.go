package operator

import (
	"os"
	"strings"
	"testing"
)

// referee GAME key needs SIDE, KEYFILE and a reason, refused before any
// game is opened; any other command is adjudicator's.
func TestParseRefereeKeyNeedsSideFileAndWhy(t *testing.T) {
	if _, err := ParseReferee("g", []string{"key", "german", "german.asc"}); err == nil || !strings.Contains(err.Error(), "write referee GAME key SIDE KEYFILE WHY") {
		t.Errorf("key without a reason: %v", err)
	}
	if b, err := ParseReferee("g", []string{"KEY", "german", "german.asc", "lost", "it"}); err != nil || b == nil {
		t.Errorf("key with a reason: %v", err)
	}
	if _, err := ParseReferee("g", []string{"frobnicate", "now"}); err == nil {
		t.Error("an unknown command is taken")
	}
}

// A submission without --side, or unsigned without --by, is refused
// before the file is read or a game opened.
func TestSubmissionNeedsSideAndBy(t *testing.T) {
	if _, _, err := (&Submission{File: "nowhere"}).Read(); err == nil || !strings.Contains(err.Error(), "--side is required") {
		t.Errorf("no side: %v", err)
	}
	file := t.TempDir() + "/orders.txt"
	writeFile(t, file)
	if _, _, err := (&Submission{File: file, Side: "german", Unsigned: true}).Read(); err == nil || !strings.Contains(err.Error(), "--unsigned needs --by NAME") {
		t.Errorf("unsigned without by: %v", err)
	}
}

func writeFile(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("Side: german\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
