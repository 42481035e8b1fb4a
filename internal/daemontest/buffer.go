package daemontest

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// SyncBuffer is a bytes.Buffer safe for the daemon's goroutine and the test.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String is what was written so far.
func (s *SyncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// Lines counts the lines written so far (how much a daemon logs).
func (s *SyncBuffer) Lines() int { return strings.Count(s.String(), "\n") }

// WaitLog waits up to a minute for a line of the daemon's log.
func WaitLog(t *testing.T, log *SyncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(log.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon never logged %q:\n%s", want, log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
