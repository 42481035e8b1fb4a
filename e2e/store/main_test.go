package store

import (
	"testing"

	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/binarytest"
)

// TestMain builds the binary once, with the test rulesets, and runs the
// tests; the PostgreSQL clusters they start stop at the end.
func TestMain(m *testing.M) { binarytest.MainTestRules(func() int { return pgtest.Main(m) }) }

// run runs the binary with args: its exit status and output.
var run = binarytest.RunBuilt
