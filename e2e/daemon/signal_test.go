package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/internal/binarytest"
)

// loopGame makes game id of racetest under data: allied dawdles slowly
// (each step of its resolution takes about a millisecond, and it never
// ends); german's orders are in too when both is set. The host that makes
// it runs under a context already ended, so that the resolution the last
// orders set off stops at its first step. It returns the log's bytes.
func loopGame(t *testing.T, data, id, dice string, both bool) []byte {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h, err := adjudicator.OpenHost(data, adjudicator.Options{Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	spec := adjudicator.Spec{Game: id, Ruleset: "racetest", Dice: dice, Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
	for _, s := range []string{"allied", "german"} {
		spec.Players = append(spec.Players, adjudicator.Player{Side: engine.Side(s), Address: s + "@example.org", Key: "k", Fingerprint: "FP-" + s})
	}
	if _, err := h.Create(spec); err != nil {
		t.Fatal(err)
	}
	sides := map[engine.Side]string{"allied": "dawdle slowly"}
	if both {
		sides["german"] = "advance 1"
	}
	for _, side := range []engine.Side{"allied", "german"} {
		if body, ok := sides[side]; ok {
			text := fmt.Sprintf("Game: %s\nPhase: T01\nSide: %s\n%s\n", id, side, body)
			if _, err := h.SubmitFile(id, side, []byte(text), "", true, "test"); err != nil && !errors.As(err, new(*engine.Stopped)) {
				t.Fatal(err)
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(data, id, adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A command told to stop (SIGTERM, as a service manager or a host operator
// does) in the middle of a resolution that would take minutes stops within
// a second or two: it exits non-zero saying it stopped, and the game's log
// is as it was, and verifies. Each command runs in the binary, on a game of racetest whose allied side dawdles
// slowly: resolve (a referee forcing the phase), status (the dry run of a
// manual-dice game waiting for dice) and dice add (the check of each die).
func TestSignalStopsACommandMidResolution(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command line as processes")
	}
	for _, c := range []struct {
		name, dice string
		both       bool
		args       func(data, id string) []string
	}{
		{"resolve", "seeded", false, func(data, id string) []string {
			return []string{"--data-dir", data, "referee", id, "resolve", "the", "test"}
		}},
		{"status", "manual", true, func(data, id string) []string { return []string{"--data-dir", data, "status", id} }},
		{"dice-add", "manual", true, func(data, id string) []string { return []string{"--data-dir", data, "dice", "add", id, "4"} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := t.TempDir()
			before := loopGame(t, data, "g", c.dice, c.both)
			code, errs, took := signalled(t, c.args(data, "g"))
			t.Logf("%s stopped %s after SIGTERM", c.name, took)
			if code == 0 || !strings.Contains(errs, "resolution stopped") || !strings.Contains(errs, "nothing was recorded") {
				t.Errorf("%s: exit %d, stderr %q; want non-zero, saying the resolution stopped", c.name, code, errs)
			}
			after, _ := os.ReadFile(filepath.Join(data, "g", adjudicator.LogFile))
			if !bytes.Equal(before, after) {
				t.Errorf("%s: the log changed:\n%s", c.name, after[len(before):])
			}
			if _, err := adjudicator.VerifyPath(filepath.Join(data, "g"), nil); err != nil {
				t.Errorf("%s: the log does not verify: %v", c.name, err)
			}
		})
	}
}

// signalled runs the binary with the command line args, sends it
// SIGTERM once it is a second into its work, and returns its exit status,
// its stderr, and how long it took to stop. It fails t if the process
// ends before the signal, or is not gone 10 seconds after it.
func signalled(t *testing.T, args []string) (int, string, time.Duration) {
	t.Helper()
	cmd := exec.Command(binarytest.Built(), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("%v ended before the signal: %v\n%s", args, err, stderr.String())
	case <-time.After(time.Second):
	}
	cmd.Process.Signal(syscall.SIGTERM)
	sent := time.Now()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v still ran 10s after SIGTERM", args)
	}
	took := time.Since(sent).Round(time.Millisecond)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String(), took
}
