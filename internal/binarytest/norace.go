//go:build !race

package binarytest

// raceEnabled says the tests run with the race detector: the binary is
// built with it too.
const raceEnabled = false
