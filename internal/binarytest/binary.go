// Package binarytest builds the skagerrak binary for the end-to-end tests
// (as README's go build does, with the race detector when the tests run
// with it) and runs it.
package binarytest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/engine/enginetest"
)

// TestRules is the build tag under which the binary registers the test
// rulesets (engine/enginetest's racetest), as cmd/skagerrak/testrules.go
// says: the binary of the tests whose games play racetest.
const TestRules = "skagerrak_testrules"

// Build builds cmd/skagerrak (under the build tags given, with the race
// detector when the tests run with it) into a new temporary directory and
// returns the binary's path and a function that removes it.
func Build(tags ...string) (string, func(), error) { return build(raceEnabled, tags...) }

func build(race bool, tags ...string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "skagerrak-e2e-")
	if err != nil {
		return "", nil, err
	}
	done := func() { os.RemoveAll(dir) }
	path := filepath.Join(dir, "skagerrak")
	args := []string{"build", "-o", path}
	if race {
		args = append(args, "-race")
	}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	if out, err := exec.Command("go", append(args, "skagerrak/cmd/skagerrak")...).CombinedOutput(); err != nil {
		done()
		return "", nil, fmt.Errorf("go build of the binary: %v\n%s", err, out)
	}
	return path, done, nil
}

// built is the binary Main or MainTestRules built for this test process.
var built string

// Built is the binary TestMain built (Main, MainTestRules).
func Built() string { return built }

// RunBuilt is Run with the binary TestMain built.
func RunBuilt(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	return Run(t, built, args...)
}

// Main builds the binary (into *binary too, unless binary is nil), runs
// the tests with run (m.Run, or pgtest.Main(m)), removes the binary and
// exits with the tests' status.
func Main(binary *string, run func() int) { buildAndRun(binary, run, raceEnabled) }

// MainWithoutRace is Main with a binary built without the race detector,
// even when the tests run with it: for tests that use the binary only to
// make their material (a whole game played by the demo, its replay page)
// and check what it made. The binary's own races are the other end-to-end
// packages' to find; under -race this binary runs several times faster.
func MainWithoutRace(binary *string, run func() int) { buildAndRun(binary, run, false) }

// MainTestRules is Main with the test rulesets, in the test process (the
// games the tests make and read play racetest) and in the binary (built
// under TestRules).
func MainTestRules(run func() int) {
	enginetest.Register()
	buildAndRun(nil, run, raceEnabled, TestRules)
}

func buildAndRun(binary *string, run func() int, race bool, tags ...string) {
	if os.Getenv("SKAGERRAK_E2E_HELPER") != "" {
		// A helper process an end-to-end test started (the test binary
		// run again): it plays a pass in process and needs no binary.
		os.Exit(run())
	}
	path, done, err := build(race, tags...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	built = path
	if binary != nil {
		*binary = path
	}
	code := run()
	done()
	os.Exit(code)
}

// Run runs the binary with args, in this process's environment, and
// returns its exit status and output.
func Run(t testing.TB, binary string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(binary, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("skagerrak %v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}
