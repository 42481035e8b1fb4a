// Package daemon holds the end-to-end tests of the daemon and the pass:
// skagerrak run and poll --once driving a host's mail (loopback IMAP and
// SMTP servers, internal/hosttest), stopped by SIGTERM or killed by
// SIGKILL and restarted, with its servers down, watched by its metrics
// and systemd's notify socket, run from cron and from the systemd unit as
// README's "Hosting a game" installs it. They run the built binary with
// the test rulesets (binarytest.MainTestRules); a few kill a pass at a
// chosen step, which only a helper process (the test binary run again,
// TestHelper*) can do.
package daemon
