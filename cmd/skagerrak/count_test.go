package main

import "testing"

// count says "1 phase" and "2 phases", dice "1 die" and "2 dice".
func TestCountPlural(t *testing.T) {
	if dice(1) != "1 die" || dice(0) != "0 dice" || dice(3) != "3 dice" {
		t.Errorf("dice: %s, %s, %s", dice(1), dice(0), dice(3))
	}
	for n, want := range map[int]string{0: "0 phases", 1: "1 phase", 2: "2 phases"} {
		if got := count(n, "phase"); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}
