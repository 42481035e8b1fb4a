package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"skagerrak/engine/enginetest"
	"skagerrak/events/pgstore/pgtest"
)

// binary is the skagerrak binary the tests run, built by TestMain.
var binary string

// checkedInLogs holds the finished games kept for every ruleset revision.
var checkedInLogs = filepath.Join("..", "cmd", "skagerrak", "testdata", "logs")

// TestMain builds the binary once (with the race detector when the tests
// run with it) and runs the tests, with the PostgreSQL clusters they start
// stopped at the end.
func TestMain(m *testing.M) {
	enginetest.Register() // the helper processes' hosts play racetest
	dir, err := os.MkdirTemp("", "skagerrak-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "skagerrak")
	if err := build(binary); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := pgtest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// build builds cmd/skagerrak at path, as README's go build does.
func build(path string) error {
	args := []string{"build", "-o", path}
	if raceEnabled {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "skagerrak/cmd/skagerrak")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build of the binary: %v\n%s", err, out)
	}
	return nil
}

// run runs the binary with args, in this process's environment, and
// returns its exit status and output.
func run(t testing.TB, args ...string) (int, string, string) {
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
