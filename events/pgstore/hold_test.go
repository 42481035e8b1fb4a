package pgstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"skagerrak/events"
)

// A shared writer waiting for a game another daemon holds (its row lock)
// until its context ends has met a busy game, not a database that cannot
// be reached: the database answered every call. The error must not wrap
// events.ErrUnavailable, which makes a daemon's pass stop for every game
// (no tick, no sending) and back off.
func TestHoldWaitingForAnotherDaemonIsNotAnOutage(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	l, err := s.Create(ctx, "busy", nil)
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, l, 1)
	l.Close()
	a, err := s.Shared(ctx, "busy")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := s.Shared(ctx, "busy")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := a.Hold(ctx); err != nil {
		t.Fatal(err)
	}
	defer a.Release(false)
	wctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	err = b.Hold(wctx)
	if err == nil {
		t.Fatal("a second Hold of a held game succeeded")
	}
	if errors.Is(err, events.ErrUnavailable) {
		t.Fatalf("waiting for another daemon's hold is reported as the store unreachable: %v", err)
	}
	// The database is there all along.
	if _, err := s.Games(ctx); err != nil {
		t.Fatal(err)
	}
}
