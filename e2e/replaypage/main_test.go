// Package replaypage holds the end-to-end tests of the replay page: the
// built binary's skagerrak replay opened in headless Chromium (a whole
// game played by the demo, the checked-in logs, a manual-dice game).
// They skip loudly without Chromium and fail under SKAGERRAK_INTEROP=1.
package replaypage

import (
	"path/filepath"
	"testing"

	"skagerrak/internal/binarytest"
)

// binary is the skagerrak binary the tests run, built by TestMain.
var binary string

// checkedInLogs holds the finished games kept for every ruleset revision.
var checkedInLogs = filepath.Join("..", "..", "cmd", "skagerrak", "testdata", "logs")

// TestMain builds the binary once and runs the tests.
func TestMain(m *testing.M) { binarytest.Main(&binary, m.Run) }

// run runs the binary with args: its exit status and output.
func run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	return binarytest.Run(t, binary, args...)
}
