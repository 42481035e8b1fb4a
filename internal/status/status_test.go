package status

import "testing"

// count says "1 phase" and "2 phases".
func TestCountPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 phases", 1: "1 phase", 2: "2 phases"} {
		if got := count(n, "phase"); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}
