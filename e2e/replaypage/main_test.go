// Package replaypage holds the end-to-end tests of the replay page: the
// built binary's skagerrak replay of a whole game played by the demo: its
// data, each side's mail, the final reports it is attached to, and the
// page opened in headless Chromium. They skip loudly without Chromium and
// fail under SKAGERRAK_INTEROP=1. The checked-in logs' pages are tested in
// e2e/replaylogs.
package replaypage

import (
	"testing"

	"skagerrak/internal/binarytest"
)

// binary is the skagerrak binary the tests run, built by TestMain.
var binary string

// TestMain builds the binary once, without the race detector (it only
// plays the demo game and writes its page, which the tests check; under
// -race a race-built binary made this package take minutes), and runs the
// tests.
func TestMain(m *testing.M) { binarytest.MainWithoutRace(&binary, m.Run) }

// run runs the binary with args: its exit status and output.
func run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	return binarytest.Run(t, binary, args...)
}
