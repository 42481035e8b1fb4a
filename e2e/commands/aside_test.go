package commands

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/events"
	"skagerrak/internal/hosttest"
)

// breakGame appends to a game's log a well-chained record that the rules
// refuse (a phase that is not the open one), as a log made by a build with
// other rules would look to this one.
func breakGame(t *testing.T, gdir string) {
	t.Helper()
	l, err := events.Open(filepath.Join(gdir, adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Append(adjudicator.EvPhaseOpened, time.Now().UTC(), adjudicator.PhaseOpened{Phase: "T99", Title: "a phase of other rules"}); err != nil {
		t.Fatal(err)
	}
}

// TestGameThatDoesNotReplayIsSetAside: one game whose log this build cannot
// replay stops nothing else. poll serves the other game and leaves the
// broken game's mail in the mailbox (nothing is lost, nothing moved
// aside), status names it and exits non-zero, and new games can be made.
func TestGameThatDoesNotReplayIsSetAside(t *testing.T) {
	e := hosttest.New(t, 2)
	cfg := e.Config(t)
	breakGame(t, filepath.Join(e.DataDir(), "g001"))
	e.Order(t, 0, "allied", "T01", "advance 2")
	e.Order(t, 1, "german", "T01", "advance 2")
	code, out, errs := run(t, "--config", cfg, "poll", "--once")
	if code == 0 {
		t.Errorf("poll --once exited 0 with a message it could not take:\n%s\n%s", out, errs)
	}
	if !strings.Contains(out, "accepted 1") {
		t.Errorf("the game that opens was not served:\n%s\n%s", out, errs)
	}
	if !strings.Contains(errs, "set aside") || !strings.Contains(errs, "g001") {
		t.Errorf("the log does not say which game is set aside:\n%s", errs)
	}
	if n := e.Count(t, "INBOX"); n != 1 {
		t.Errorf("%d messages left in INBOX, want the broken game's one", n)
	}
	if n := e.Count(t, hosttest.DefaultRejected); n != 0 {
		t.Errorf("%d messages moved to Rejected: a set-aside game's mail must wait, not be refused", n)
	}
	code, out, errs = run(t, "--config", cfg, "status")
	if code == 0 || !strings.Contains(out, "g001  SET ASIDE") || !strings.Contains(out, "g000  Race") || !strings.Contains(errs, "1 game(s) set aside") {
		t.Errorf("status: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := run(t, "--config", cfg, "resolve", "g001"); code == 0 || !strings.Contains(errs, "g001 is set aside") {
		t.Errorf("resolve on the set-aside game: exit %d, %s", code, errs)
	}
	h, err := adjudicator.OpenHost(e.DataDir(), adjudicator.Options{})
	if err != nil {
		t.Fatalf("the host does not open beside a set-aside game: %v", err)
	}
	defer h.Close()
	if aside := h.SetAside(); len(aside) != 1 || aside["g001"] == nil {
		t.Errorf("SetAside: %v", aside)
	}
	g0, _ := h.Game("g000")
	spec := adjudicator.Spec{Game: "g002", Ruleset: "racetest", Players: g0.Created.Players, Timing: g0.Created.Timing}
	if _, err := h.Create(spec); err != nil {
		t.Errorf("no new game beside a set-aside one: %v", err)
	}
}
