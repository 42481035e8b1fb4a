package replaylogs

import (
	"testing"

	"skagerrak/internal/binarytest"
)

// TestMain builds the binary once and runs the tests.
func TestMain(m *testing.M) { binarytest.Main(nil, m.Run) }

// run runs the binary with args: its exit status and output.
var run = binarytest.RunBuilt
