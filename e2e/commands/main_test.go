package commands

import (
	"testing"

	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/binarytest"
)

// binary is the skagerrak binary the tests run, built by TestMain.
var binary string

// TestMain builds the binary once, with the test rulesets, and runs the
// tests.
func TestMain(m *testing.M) { binarytest.MainTestRules(&binary, func() int { return pgtest.Main(m) }) }

// run runs the binary with args: its exit status and output.
func run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	return binarytest.Run(t, binary, args...)
}
