// Package smtpout submits outgoing mail (replies and reports) to an SMTP
// submission server with go-smtp's client. It moves raw bytes: composing
// and signing the message is done elsewhere.
//
// Each Send opens one session: implicit TLS (port 465) or STARTTLS (port
// 587; a server that does not offer it is not used), or plain TCP; AUTH
// PLAIN when a username is configured, never in the clear unless the server
// is on a loopback address; then MAIL, RCPT for each recipient, DATA.
//
// Failures are classified so the caller can keep its outbox honest:
//
//   - a 4xx answer or a connection failure is temporary: Send retries it
//     after an exponential backoff with jitter (Config.BackoffInitial,
//     Config.BackoffMax, Config.Jitter, Config.Sleep) up to
//     Config.MaxAttempts attempts, and then returns a *TemporaryError,
//     whose Unreachable says whether no attempt got as far as a message
//     (the server is down for every message);
//   - a 5xx answer to RCPT or DATA is permanent for that message: Send
//     returns a *PermanentError{Code, Enhanced, Message} at once, and the
//     caller records a failed delivery;
//   - a session no message could go over is a *SessionError, returned at
//     once: a 5xx greeting, EHLO, login or MAIL FROM (a wrong password, a
//     sender the server will not relay for), or a local refusal (no TLS
//     where a password would go out, a certificate that does not verify,
//     no STARTTLS offered). It says nothing of the message: the caller
//     keeps every message for when the configuration is mended.
//
// A message is sent once per successful Send. The one ambiguity SMTP leaves
// is a connection lost after the final "." and before the server's answer:
// the next attempt sends the message again, so the recipient may see it
// twice with the same Message-ID (see mail-hostile-inputs case 32).
package smtpout
