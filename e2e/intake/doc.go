// Package intake holds the end-to-end tests of the mail a host reads and
// answers: signed orders as stock clients send them (mutt, gpg,
// Thunderbird's shapes, encrypted), hostile mail (spoofed senders,
// strangers' keys, bounces, mangled MIME), players' commands and mail to
// the judge, undeliverable addresses, a pass killed between its steps,
// and the replay and its signatures that anyone can check. Hosts run in
// this process, wired to loopback IMAP and SMTP servers as the daemon
// wires them (internal/hosttest); the command lines run the built binary
// with the test rulesets (binarytest.MainTestRules); a pass killed at a
// chosen step runs in a helper process (the test binary run again).
package intake
