package pgstore

import (
	"context"
	"errors"
	"testing"

	"skagerrak/events"
)

// batchAfter returns n records sealed after l's head.
func batchAfter(t *testing.T, l events.Log, n int) []events.Event {
	t.Helper()
	seq, head := l.Head()
	var out []events.Event
	for range n {
		ev, err := events.NewEvent(seq+1, head, "Batched", t0, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
		seq, head = ev.Seq, ev.Hash
	}
	return out
}

// A writer whose lease lapsed, and another writer appended since, has
// its whole batch fenced out: none of its records is in the database.
func TestBatchOfAFencedWriterAppendsNothing(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	a, err := s.Create(ctx, "fenced", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	appendN(t, a, 2)
	if _, err := s.pool.Exec(ctx, `UPDATE skagerrak.games SET writer_until = now() - interval '1 second' WHERE game = 'fenced'`); err != nil {
		t.Fatal(err)
	}
	b, err := s.Log(ctx, "fenced")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	late := batchAfter(t, a, 3)
	appendN(t, b, 1)
	if err := a.AppendBatch(late); !errors.Is(err, ErrFenced) || !errors.Is(err, events.ErrFatal) {
		t.Fatalf("batch of the writer whose lease lapsed: %v, want ErrFenced and ErrFatal", err)
	}
	if n := len(records(t, s, "fenced")); n != 3 {
		t.Fatalf("%d records, want the 3 before the fenced batch", n)
	}
}

// A shared writer's batch goes in with its Hold: rolled back, nothing of
// it stays; committed, all of it.
func TestSharedBatchCommitsWithTheHold(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	c, err := s.Create(ctx, "held", nil)
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, c, 1)
	c.Close()
	l, err := s.Shared(ctx, "held")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, commit := range []bool{false, true} {
		if err := l.Hold(ctx); err != nil {
			t.Fatal(err)
		}
		if err := l.AppendBatch(batchAfter(t, l, 3)); err != nil {
			t.Fatal(err)
		}
		if err := l.Release(commit); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(records(t, s, "held")); n != 4 {
		t.Fatalf("%d records, want 1 and the committed batch of 3", n)
	}
}
