package receipts

import (
	"testing"

	"skagerrak/internal/binarytest"
)

// TestMain builds the binary once, with the test rulesets, and runs the
// tests.
func TestMain(m *testing.M) { binarytest.MainTestRules(m.Run) }

// run runs the binary with args: its exit status and output.
var run = binarytest.RunBuilt
