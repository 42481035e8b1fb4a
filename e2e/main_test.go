package e2e

import (
	"testing"

	"skagerrak/engine/enginetest"
	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/binarytest"
)

// binary is the skagerrak binary the tests run, built by TestMain.
var binary string

// TestMain builds the binary once and runs the tests, with the PostgreSQL
// clusters they start stopped at the end.
func TestMain(m *testing.M) {
	enginetest.Register() // the helper processes' hosts play racetest
	binarytest.Main(&binary, func() int { return pgtest.Main(m) })
}

// run runs the binary with args: its exit status and output.
func run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	return binarytest.Run(t, binary, args...)
}
