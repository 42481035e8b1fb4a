// Package e2e holds skagerrak's end-to-end tests: the built binary driven
// as a host drives it, against the real servers (Dovecot, OpenSMTPD or
// Postfix, PostgreSQL) and stock mail clients: the interop tests, the
// crash, outage and deadline tests on the stack, and README's hosting
// steps. The packages under it hold the rest, by topic: the replay page
// in headless Chromium (e2e/replaypage), and the tests against loopback
// mail servers (internal/hosttest) of the daemon, deadlines, the intake,
// receipts, the command lines and the stores. SKAGERRAK_INTEROP=1 (set by
// .ci/run) makes them fail rather than skip when a server or client is
// missing.
package e2e
