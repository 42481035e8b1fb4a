// Package receipts holds the end-to-end tests of what a player keeps of a
// game: the host-signed receipts and the final report, and what
// skagerrak verify proves with them (a dropped order, a rewritten log, a
// forged receipt). They run the built binary, with the test rulesets
// (binarytest.MainTestRules).
package receipts
