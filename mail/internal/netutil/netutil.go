// Package netutil holds what the IMAP and SMTP clients of package mail
// share: telling a loopback address, waiting with a context, and the
// backoff between retries.
package netutil

import (
	"context"
	"net"
	"time"
)

// IsLoopback reports whether addr's host is a loopback address or
// "localhost".
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Backoff is the wait before retry number attempt (1 for the first retry):
// exponential from initial, capped at max, with "equal jitter" (half fixed,
// half drawn from rnd) so that many clients do not retry in step.
func Backoff(attempt int, initial, max time.Duration, rnd func() float64) time.Duration {
	d := initial
	for i := 1; i < attempt && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	half := d / 2
	return half + time.Duration(rnd()*float64(d-half))
}
