// Package bench holds the benchmarks README's Performance cites (the
// intake, the replay, the heaviest phase, a pass over 1,000 games, opening
// a game, the map, the stores, a burst of deadlines sent by one daemon or
// two) and the tests of what they stand on: the burst of deadlines (its
// reports and maps sent once, its snapshots kept in PostgreSQL) and the
// OpenSMTPD sink a host starts for the burst. The benchmarks time a host
// in this process; the command lines run the built binary with the test
// rulesets (binarytest.MainTestRules).
package bench
