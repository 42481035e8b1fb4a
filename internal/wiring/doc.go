// Package wiring adapts the real parts to the adjudicator's ports: the
// mail packages (mail/verify, mail/bounce, mail/imapbox, mail/smtpout,
// mail/compose) to its Verifier, Decrypter, Triage, Inbox and Sender, and
// events/pgstore to its Store. The command (cmd/skagerrak), the demo and
// the end-to-end tests wire a host from these same pieces.
package wiring
