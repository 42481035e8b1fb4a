package bench

import (
	"context"
	"skagerrak/adjudicator"
	"skagerrak/events/pgstore"
	"skagerrak/internal/hosttest"
	"testing"
)

// A game's snapshot is kept in the database and a host opening the game
// again starts from it: the same game, at the same record.
func TestSnapshotsInPostgres(t *testing.T) {
	url := hosttest.MigratedStore(t)
	st := pgStoreOf(t, url)
	b := newBurst(t, st, 1, 1)
	g, _ := b.h.Game("b0000")
	if _, err := b.h.Flush(context.Background(), discard{}); err != nil {
		t.Fatal(err)
	}
	if n, err := b.h.Snapshot(); err != nil || n != 1 {
		t.Fatalf("snapshot: %d %v", n, err)
	}
	seq, hash := g.Seq, g.Hash
	b.h.Close()
	s, err := pgstore.Open(context.Background(), url, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	body, at, err := s.Snapshot(context.Background(), "b0000")
	s.Close()
	if err != nil || len(body) == 0 || at != seq {
		t.Fatalf("the stored snapshot: %d bytes at %d, %v; want one at %d", len(body), at, err, seq)
	}
	h, err := adjudicator.OpenStore(pgStoreOf(t, url), adjudicator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g2, _ := h.Game("b0000")
	if g2.Seq != seq || g2.Hash != hash || g2.Resolved != g.Resolved {
		t.Fatalf("reopened at %d %s (%d resolved), want %d %s (%d)", g2.Seq, g2.Hash, g2.Resolved, seq, hash, g.Resolved)
	}
}
