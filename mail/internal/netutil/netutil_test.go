package netutil

import (
	"context"
	"testing"
	"time"
)

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:25": true, "[::1]:143": true, "localhost:587": true, "127.8.9.1:1": true,
		"192.0.2.1:25": false, "mail.example.org:993": false, "no-port": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}
}

func TestBackoffDoublesToItsCapWithHalfJitter(t *testing.T) {
	zero, one := func() float64 { return 0 }, func() float64 { return 1 }
	cases := []struct {
		attempt  int
		lo, hi   time.Duration
		initial  time.Duration
		ceiling  time.Duration
		nameNote string
	}{
		{1, 500 * time.Millisecond, time.Second, time.Second, time.Minute, "first retry"},
		{3, 2 * time.Second, 4 * time.Second, time.Second, time.Minute, "doubled twice"},
		{10, 30 * time.Second, time.Minute, time.Second, time.Minute, "capped"},
	}
	for _, c := range cases {
		if got := Backoff(c.attempt, c.initial, c.ceiling, zero); got != c.lo {
			t.Errorf("%s: low end %v, want %v", c.nameNote, got, c.lo)
		}
		if got := Backoff(c.attempt, c.initial, c.ceiling, one); got != c.hi {
			t.Errorf("%s: high end %v, want %v", c.nameNote, got, c.hi)
		}
	}
}

func TestSleepEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); err != context.Canceled {
		t.Errorf("Sleep on a cancelled context = %v", err)
	}
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("Sleep = %v", err)
	}
}
