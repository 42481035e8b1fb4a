package enginetest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"skagerrak/engine"
)

// failures stands in for a test's testing.TB and keeps its first failure:
// like testing's own, a fatal failure ends the goroutine it is called on.
type failures struct {
	testing.TB
	first string
}

func (f *failures) Helper()                   {}
func (f *failures) Logf(string, ...any)       {}
func (f *failures) Errorf(s string, a ...any) { f.note(fmt.Sprintf(s, a...)) }
func (f *failures) Fatalf(s string, a ...any) {
	f.note(fmt.Sprintf(s, a...))
	runtime.Goexit()
}
func (f *failures) note(s string) {
	if f.first == "" {
		f.first = s
	}
}

// firstFailure plays n random games of rs and returns the first failure.
func firstFailure(t *testing.T, rs Conforming, n int) string {
	f := &failures{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		randomPlay(f, rs, n)
	}()
	<-done
	return f.first
}

// leakyRace answers a bad order with the enemy's last roll, which the
// side may not see.
type leakyRace struct{ conformingRace }

func (leakyRace) ParseOrders(s engine.State, side engine.Side, text string) (engine.Orders, []engine.LineError) {
	o, errs := (Race{}).ParseOrders(s, side, text)
	for i := range errs {
		for k, v := range s.(*RaceState).Last {
			if k != string(side) {
				errs[i].Msg += " (the enemy's " + v + ")"
			}
		}
	}
	return o, errs
}

// forgetfulRace notes in the allied log every other resolution in the
// process, so that a replay differs from play.
type forgetfulRace struct{ conformingRace }

var resolutions int

func (forgetfulRace) Resolve(s engine.State, o map[engine.Side]engine.Orders, d engine.Dice) (engine.State, error) {
	next, err := (Race{}).Resolve(s, o, d)
	if resolutions++; err == nil && resolutions%2 == 0 {
		st := next.(*RaceState)
		st.Log["allied"] = append(st.Log["allied"], "again")
	}
	return next, err
}

// endlessRace rolls for ever for a 7 on a d6.
type endlessRace struct{ conformingRace }

func (endlessRace) Resolve(s engine.State, o map[engine.Side]engine.Orders, d engine.Dice) (engine.State, error) {
	for d.Roll(6, "a seven") != 7 {
	}
	return s, nil
}

// TestConformanceFindsLeaksAndNondeterminism: the suite fails a ruleset
// whose refusals name what the side cannot see, one whose replay does not
// give the states of play, and one whose resolution never ends; it passes
// the racetest ruleset itself.
func TestConformanceFindsLeaksAndNondeterminism(t *testing.T) {
	if got := firstFailure(t, conformingRace{}, 10); got != "" {
		t.Fatalf("racetest fails: %s", got)
	}
	if got := firstFailure(t, leakyRace{}, 10); !strings.Contains(got, "reply to its orders depends on what it cannot see") {
		t.Errorf("a leak in a refusal is not found: %q", got)
	}
	if got := firstFailure(t, forgetfulRace{}, 10); !strings.Contains(got, "gives another state") {
		t.Errorf("a replay that differs from play is not found: %q", got)
	}
	if got := firstFailure(t, endlessRace{}, 1); !strings.Contains(got, "did not end") {
		t.Errorf("a resolution that never ends is not found: %q", got)
	}
}
