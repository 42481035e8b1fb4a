package hosttest

import (
	"crypto/sha256"
	"encoding/hex"
	"sync/atomic"
	"testing"
	"time"
)

// Clock is a clock a test moves; the host and the test may read it from
// goroutines of their own.
type Clock struct{ ns atomic.Int64 }

// NewClock is a Clock at now.
func NewClock() *Clock {
	c := &Clock{}
	c.Set(time.Now())
	return c
}

// Now is the clock's time, in UTC.
func (c *Clock) Now() time.Time { return time.Unix(0, c.ns.Load()).UTC() }

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) { c.ns.Add(int64(d)) }

// Set sets the clock to t.
func (c *Clock) Set(t time.Time) { c.ns.Store(t.UnixNano()) }

// Rehash gives a record line the prev and hash the chain rule computes
// after prevLine (events/doc.go, Hash rule), as a forger would.
func Rehash(t testing.TB, prevLine, line string) string {
	t.Helper()
	hashOf := func(l string) string { return l[len(l)-66 : len(l)-2] }
	prev, _ := hex.DecodeString(hashOf(prevLine))
	body := line[:len(line)-len(`,"prev":"","hash":""}`)-128] + `,"prev":"` + hashOf(prevLine) + `"`
	sum := sha256.Sum256(append(prev, body+"}"...))
	return body + `,"hash":"` + hex.EncodeToString(sum[:]) + `"}`
}
