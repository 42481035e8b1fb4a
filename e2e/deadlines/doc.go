// Package deadlines holds the end-to-end tests of deadlines: a phase
// that resolves at its deadline whatever the mailbox does (down, slow,
// full of late mail), the reminders before it, the orders that came in
// time and were read late, and what skagerrak poll --once and status say
// meanwhile. The host runs in this process on a clock the tests move; the
// command lines run the built binary with the test rulesets
// (binarytest.MainTestRules).
package deadlines
