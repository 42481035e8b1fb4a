package bench

import (
	"os"
	"testing"

	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/binarytest"
)

// TestMain builds the binary once, with the test rulesets, and runs the
// tests and benchmarks; then it stops the PostgreSQL clusters they
// started and removes the games the bursts kept for their runs.
func TestMain(m *testing.M) {
	binarytest.MainTestRules(func() int {
		code := pgtest.Main(m)
		for _, d := range burstDirs {
			os.RemoveAll(d)
		}
		return code
	})
}

// run runs the binary with args: its exit status and output.
var run = binarytest.RunBuilt
