package mailcheck

import (
	"strings"
	"testing"
	"time"
)

// --at judges at the time it names; without it, now; a time that is not
// RFC 3339 is refused with an example of one.
func TestAtTakesRFC3339(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	if got, err := At("", now); err != nil || !got.Equal(now) {
		t.Errorf("At(\"\") = %v, %v; want now", got, err)
	}
	want := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	if got, err := At("2026-11-29T12:00:00Z", now); err != nil || !got.Equal(want) {
		t.Errorf("At = %v, %v; want %v", got, err, want)
	}
	if _, err := At("29.11.2026 12:00", now); err == nil || !strings.Contains(err.Error(), "such as 2026-11-29T12:00:00Z") {
		t.Errorf("a bad --at: %v", err)
	}
}
