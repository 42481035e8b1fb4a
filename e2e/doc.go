// Package e2e holds skagerrak's end-to-end tests: the built binary driven
// as a host drives it, against the real servers (Dovecot, OpenSMTPD,
// PostgreSQL), stock mail clients and a headless browser. The interop
// tests, the crash and outage tests on the stack, README's hosting steps
// and the replay page's browser tests live here; the command's own tests
// (those that need the test rulesets inside the program) stay in
// cmd/skagerrak. SKAGERRAK_INTEROP=1 (set by .ci/run) makes them fail
// rather than skip when a server, client or browser is missing.
package e2e
