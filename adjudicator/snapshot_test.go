package adjudicator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// fields are the parts of a Game that a snapshot must restore exactly.
func fields(t *testing.T, g *Game) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"seq": g.Seq, "hash": g.Hash, "state": g.State, "opened": g.Opened, "orders": g.Orders, "players": g.Players,
		"missed": g.Missed, "history": g.History, "moves": g.Moves, "resolved": g.Resolved, "dice": g.Dice, "dice_d6": g.DiceD6, "paused": g.Paused, "keys": g.keys, "legacy": g.legacy, "replies": g.replies,
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSnapshotRestoresWhatReplayGives(t *testing.T) {
	h, clk, dir := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 2"))
	submit(t, h, "g1", "german", orders("g1", "T01", "german", "advance 3"))
	submit(t, h, "g1", "allied", orders("g1", "T02", "allied", "advance 1"))
	if n, _ := h.Snapshot(); n != 0 {
		t.Fatal("a snapshot was written with mail in the outbox")
	}
	if _, err := h.Flush(t.Context(), &outbox{}); err != nil {
		t.Fatal(err)
	}
	if n, err := h.Snapshot(); n != 1 || err != nil {
		t.Fatalf("snapshot: %d %v", n, err)
	}
	clk.Add(time.Hour)
	// Events after the snapshot are replayed onto it.
	submit(t, h, "g1", "german", orders("g1", "T02", "german", "advance 2"))
	g, _ := h.Game("g1")
	want := fields(t, g)
	h.Close()

	h2, err := OpenHost(dir, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := h2.Game("g1")
	if got := fields(t, g2); got != want {
		t.Errorf("restored from the snapshot:\n%s\nwant (live):\n%s", got, want)
	}
	full, err := LoadGame(filepath.Join(dir, "g1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fields(t, full); got != want {
		t.Errorf("full replay differs from live:\n%s\n%s", got, want)
	}
	// The game goes on from the snapshot as it would have.
	submit(t, h2, "g1", "allied", orders("g1", "T03", "allied", "advance 3"))
	if g2.Orders["allied"].Phase != "T03" || !reflect.DeepEqual(g2.Players, full.Players) {
		t.Errorf("after restore: %+v", g2.Orders)
	}
	h2.Close()
}

func TestSnapshotNotMatchingTheLogIsIgnored(t *testing.T) {
	h, _, dir := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	h.Flush(t.Context(), &outbox{})
	h.Snapshot()
	g, _ := h.Game("g1")
	want := fields(t, g)
	h.Close()
	p := filepath.Join(dir, "g1", SnapshotFile)
	b, _ := os.ReadFile(p)
	var s map[string]any
	json.Unmarshal(b, &s)
	s["hash"] = "00" + s["hash"].(string)[2:]
	s["resolved"] = 7 // a lie the snapshot must not get away with
	b, _ = json.Marshal(s)
	os.WriteFile(p, b, 0o600)
	h2, err := OpenHost(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	g2, _ := h2.Game("g1")
	if got := fields(t, g2); got != want || g2.Resolved != 0 {
		t.Errorf("a snapshot keyed by another hash was used: resolved %d", g2.Resolved)
	}
}
