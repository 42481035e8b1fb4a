package pgstore

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Two processes' Exclusive on one key never run at once; on other keys
// they do.
func TestExclusiveRunsOneAtATime(t *testing.T) {
	a, url := newStore(t, Options{})
	b, err := Open(context.Background(), url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var inside, most atomic.Int32
	run := func(s *Store, key int32, hold time.Duration) {
		err := s.Exclusive(context.Background(), key, func() error {
			n := inside.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(hold)
			inside.Add(-1)
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() { run([]*Store{a, b}[i%2], 7, 50*time.Millisecond) })
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Fatalf("%d ran at once on one key; want one at a time", most.Load())
	}
	most.Store(0)
	wg.Go(func() { run(a, 1, time.Second) })
	wg.Go(func() { run(b, 2, time.Second) })
	wg.Wait()
	if most.Load() != 2 {
		t.Fatalf("%d ran at once on two keys; want both", most.Load())
	}
}
