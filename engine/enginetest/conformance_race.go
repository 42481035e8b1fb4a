//go:build race

package enginetest

// raceEnabled is true when the race detector is on.
const raceEnabled = true
