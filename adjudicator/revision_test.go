package adjudicator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/events"
)

// TestGameRecordsItsRulesRevision: a new game names the revision it is
// played under in GameCreated, so a later build with newer rules replays
// it under the same ones (engine/revision.go).
func TestGameRecordsItsRulesRevision(t *testing.T) {
	h, _, dir := newHost(t)
	g, err := h.Create(raceSpec("g1"))
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := engine.Lookup("racetest")
	if want := engine.CurrentRevision(rs); g.Created.Setup.Revision != want || g.Revision() != want {
		t.Fatalf("GameCreated records revision %d (game: %d), want the current %d", g.Created.Setup.Revision, g.Revision(), want)
	}
	b, err := os.ReadFile(filepath.Join(dir, "g1", LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.SplitN(string(b), "\n", 2)[0], `"revision":1`) {
		t.Errorf("the GameCreated record does not name revision 1:\n%.300s", b)
	}
}

// TestRevisionOfOldAndUnknownGames: a GameCreated naming no revision (a
// game made before revisions) replays as revision 1; one naming a revision
// this build lacks fails at seq 1, naming the valid ones; a Spec asking for
// one is refused before anything is written.
func TestRevisionOfOldAndUnknownGames(t *testing.T) {
	h, _, dir := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	first := readEvent(t, filepath.Join(dir, "g1", LogFile))
	var gc GameCreated
	if err := json.Unmarshal(first.Data, &gc); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rev  int
		want string // "" replays
	}{{0, ""}, {1, ""}, {7, "racetest has no rules revision 7; valid: 1 to 1"}} {
		gc.Setup.Revision = c.rev
		ev := first
		ev.Data, _ = json.Marshal(gc)
		g := NewGame(TemplateRenderer{}, true)
		err := g.Apply(ev)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("revision %d: %v", c.rev, err)
		case c.want == "" && g.Revision() != 1:
			t.Errorf("revision %d replays as revision %d, want 1", c.rev, g.Revision())
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "event 1")):
			t.Errorf("revision %d: got %v, want an error at event 1 saying %q", c.rev, err, c.want)
		}
	}
	spec := raceSpec("g2")
	spec.Setup.Revision = 7
	if _, err := h.Create(spec); err == nil || !strings.Contains(err.Error(), "valid: 1 to 1") {
		t.Errorf("a game of revision 7 was created, or the error does not say what is valid: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "g2")); !os.IsNotExist(err) {
		t.Errorf("the refused game left a directory: %v", err)
	}
}

func readEvent(t *testing.T, path string) events.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for ev, err := range events.NewReader(f, path).All() {
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	t.Fatal("empty log")
	return events.Event{}
}
