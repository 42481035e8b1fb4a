package replaylogs

import (
	"testing"

	"skagerrak/internal/binarytest"
)

// binary is the skagerrak binary the tests run, built by TestMain.
var binary string

// TestMain builds the binary once and runs the tests.
func TestMain(m *testing.M) { binarytest.Main(&binary, m.Run) }

// run runs the binary with args: its exit status and output.
func run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	return binarytest.Run(t, binary, args...)
}
