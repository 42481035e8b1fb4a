// Package e2e holds skagerrak's end-to-end tests: the built binary driven
// as a host drives it, against the real servers (Dovecot, OpenSMTPD or
// Postfix, PostgreSQL) and stock mail clients: the interop tests, the
// crash, outage and deadline tests on the stack, and README's hosting
// steps. The replay page's browser tests are in e2e/replaypage; the
// command's own tests (those that need the test rulesets inside the
// program) stay in cmd/skagerrak. SKAGERRAK_INTEROP=1 (set by .ci/run)
// makes them fail rather than skip when a server or client is missing.
package e2e
