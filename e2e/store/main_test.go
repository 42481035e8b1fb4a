package store

import (
	"os"
	"testing"

	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/binarytest"
)

// binary is the skagerrak binary the tests run, built by TestMain.
var binary string

// TestMain builds the binary once, with the test rulesets, and runs the
// tests and benchmarks; then it stops the PostgreSQL clusters they
// started and removes the games the bursts kept for their runs.
func TestMain(m *testing.M) {
	binarytest.MainTestRules(&binary, func() int {
		code := pgtest.Main(m)
		for _, d := range burstDirs {
			os.RemoveAll(d)
		}
		return code
	})
}

// run runs the binary with args: its exit status and output.
func run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	return binarytest.Run(t, binary, args...)
}
