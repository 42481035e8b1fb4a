// Package store holds the end-to-end tests of where a host keeps its
// games (files and PostgreSQL: store migrate, import and export byte for
// byte, a game moved between them, snapshots, a burst of deadlines that
// resolve at once) and the benchmarks README's Performance cites (the
// intake, the replay, the heaviest phase, a pass over 1,000 games, opening
// a game, the map, the stores). The command lines run the built binary
// with the test rulesets (binarytest.MainTestRules); the benchmarks time a
// host in this process.
package store
