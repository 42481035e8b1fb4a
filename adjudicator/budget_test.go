package adjudicator

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
)

// submitErr enters orders as submit does, and returns the error of
// routing them.
func submitErr(h *Host, game string, side engine.Side, text string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	fp := h.games[game].g.Players[side].Fingerprint
	_, err := h.route(Submission{Text: text, Source: "file", Fingerprint: fp, Key: fmt.Sprintf("k-%s-%s", side, digestText(text)[:12]), SigTime: h.clock.Now()}, h.clock.Now(), h.clock.Now())
	return err
}

// A resolution that would never end: in a game of racetest, allied
// dawdles (a loop of one step after another, each keeping a line). The
// step budget ends it: the game is set aside with an error naming the
// game, the phase and the loop; nothing of the resolution is appended;
// the host goes on serving the other game; and the memory the runaway
// took stays bounded (what the budget lets it keep: tens of megabytes,
// not the gigabytes of a loop left to run).
func TestRunawayResolutionIsSetAside(t *testing.T) {
	h, _, dir := newHost(t)
	for _, id := range []string{"loop", "race"} {
		if _, err := h.Create(raceSpec(id)); err != nil {
			t.Fatal(err)
		}
	}
	submit(t, h, "loop", "allied", orders("loop", "T01", "allied", "dawdle"))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var err error
	within(t, time.Minute, "the runaway resolution", func() {
		err = submitErr(h, "loop", "german", orders("loop", "T01", "german", "advance 2"))
	})
	runtime.ReadMemStats(&after)
	var over *engine.OverBudget
	if !errors.As(err, &over) || over.Game != "loop" || over.Phase != "T01" || over.Loop != "allied dawdling" || over.Steps != engine.MaxSteps {
		t.Fatalf("the runaway resolution: %v, want it over its budget in game loop, phase T01, allied dawdling", err)
	}
	grew := after.HeapSys - before.HeapSys
	t.Logf("the heap grew by %d MB in %d steps", grew>>20, engine.MaxSteps)
	if grew > 256<<20 {
		t.Errorf("the heap grew by %d MB while the resolution ran: not bounded", grew>>20)
	}
	aside := h.SetAside()["loop"]
	if !errors.As(aside, &over) || !strings.Contains(aside.Error(), "game loop, phase T01: the resolution took more than 200000 steps (the last in allied dawdling)") {
		t.Fatalf("set aside with %v", aside)
	}
	if err := h.Referee("loop", Command{Name: "extend", Args: []string{"1h"}, Why: "x"}); err == nil || !strings.Contains(err.Error(), "set aside") {
		t.Errorf("a command on the set-aside game: %v", err)
	}
	// The other game is served.
	submit(t, h, "race", "allied", orders("race", "T01", "allied", "advance 1"))
	submit(t, h, "race", "german", orders("race", "T01", "german", "advance 1"))
	if g, err := h.Game("race"); err != nil || g.Resolved != 1 {
		t.Fatalf("the other game: %v", err)
	}
	if _, err := h.Tick(); err != nil {
		t.Errorf("a pass after the game was set aside: %v", err)
	}
	// Nothing was appended for the resolution: the log ends with the
	// orders, and replays to the open phase.
	b, err := os.ReadFile(filepath.Join(dir, "loop", LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), EvPhaseResolved) {
		t.Error("the runaway resolution left a PhaseResolved")
	}
	if g, err := LoadGame(filepath.Join(dir, "loop")); err != nil || g.Resolved != 0 || len(g.Owing()) != 0 {
		t.Errorf("the set-aside game's log: %v", err)
	}
}
