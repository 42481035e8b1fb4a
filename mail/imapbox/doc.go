// Package imapbox reads the adjudicator's mailbox over IMAP and hands over
// raw message bytes; it does not look inside them.
//
// # Flow
//
// Open connects (implicit TLS, STARTTLS, or plain TCP where a password is
// only sent to a loopback address), logs in, creates the Processed and
// Rejected folders when missing and selects the mailbox. Fetch returns the
// messages not yet dealt with, fetched with BODY.PEEK[] so that \Seen is
// not set. The caller records each message durably, then calls Move (or
// MoveProcessed, MoveRejected). Wait blocks until new mail may be there.
//
// # Folders
//
// Folder names are the server's business: Dovecot with Maildir++ separates
// levels with ".", others with "/", some have a flat namespace or put
// personal folders under a prefix such as "INBOX.". On the first connection
// the box asks (LIST "" "" for the delimiter, NAMESPACE for the prefix) and
// builds the default names from the answer: "skagerrak/processed",
// "skagerrak.processed", "skagerrak-processed" (DefaultFolder). Configured
// names are used as given. Each folder is created when LIST does not show
// it, and must then be listed and selectable; if not, Open fails at once
// with a *FolderError carrying the server's answer and the delimiter, so a
// daemon never starts with folders it cannot move messages into.
//
// # NUL bytes and BINARY
//
// An IMAP literal may not carry a NUL (RFC 3501 4.3); Dovecot sends 0x80 in
// its place in a BODY[] fetch, so a signed part holding a NUL would no
// longer verify. Where the server offers BINARY (RFC 3516) the box fetches
// a message whose BODY[] bytes hold 0x80 again with BINARY.PEEK[], whose
// literal8 carries NULs, and takes those bytes when they differ from the
// BODY[] bytes only by NULs in place of 0x80. BINARY[] of a whole message
// also removes the transfer encoding of every part (Dovecot does), which
// would break the bytes a PGP/MIME signature covers; such a message keeps
// its BODY[] bytes.
//
// # State file and idempotency
//
// A small JSON file in Config.StateDir keeps the mailbox's UIDVALIDITY, the
// highest UID below which every message has been dealt with, and the UIDs
// that the fallback Move had to leave in the mailbox. It is replaced
// atomically (temporary file, fsync, rename, fsync of the directory).
//
// A fetched message stays a candidate until Move takes it away: Fetch alone
// never advances the saved UID past a message still in the mailbox. A crash
// after Fetch, before or after the caller's own log append, therefore loses
// nothing, and the message comes again on the next Fetch.
//
// When the mailbox's UIDVALIDITY differs from the saved one, the saved UID
// means nothing and every message in the mailbox is a candidate again (only
// messages carrying MovedKeyword, copied away before, are left out). The
// same message may thus be returned more than once over the life of a
// mailbox: recognising it is the caller's idempotency problem, solved in
// skagerrak by the SHA-256 of the signature packet recorded in the game log.
//
// A UID SEARCH "n:*" with n above the highest UID matches the highest
// message (RFC 3501, 6.4.8); results at or below the saved UID are dropped
// so that message is not returned again.
//
// # Move and its fallback
//
// With MOVE (RFC 6851) a message is moved with UID MOVE. Without MOVE but
// with UIDPLUS it is UID COPY (the tagged result checked, and its COPYUID
// if the server sends one), then \Deleted and MovedKeyword on that UID and
// a UID EXPUNGE of that UID alone. Without UIDPLUS a plain EXPUNGE would
// also remove messages other clients flagged \Deleted, so none is sent: the
// original stays in the mailbox flagged \Seen and MovedKeyword (if the
// mailbox accepts keywords) and the state file lists it so Fetch skips it.
// A missing target folder is created; if that fails the message stays
// where it is and Move returns the error. A message that already carries
// MovedKeyword is not copied a second time.
//
// When the connection breaks inside Move, Move reconnects and goes on. If
// MOVE or UID EXPUNGE had been sent and the message is now gone, the move
// is taken as done. If the break fell between a fallback's COPY and the
// flags that record it, the retry copies again: the target folder may then
// hold the message twice, the mailbox never loses it. ErrNoMessage means
// the UID was not there to begin with.
//
// # Connections
//
// Every operation runs on a live session. When the connection fails it is
// dropped and the operation tried again on a new one, after an exponential
// backoff (Config.BackoffInitial doubling up to Config.BackoffMax, half of
// each delay drawn from Config.Jitter) until it succeeds, Config.MaxAttempts
// is reached, or the context ends. An answer from the server (NO, BAD) or a
// local failure is returned at once. When the context ends first, the
// error wraps the context's error and says what the last attempt failed
// with, so a cron pass that gives up says why. Nothing is lost by a retry: Fetch
// changes nothing on the server and Move looks the message up first.
//
// The box owns the read deadline of its connection: while a command waits,
// the server may stay silent at most Config.CommandTimeout. Wait uses IDLE
// where offered, ended and issued again every Config.IdleRestart (the
// watchdog); during IDLE the server may be silent for IdleRestart plus
// CommandTimeout before the connection is taken for dead. Without IDLE, or
// with Config.NoIdle, Wait polls every Config.PollInterval.
//
// # Testing against a real server
//
// The tests run against go-imap's in-memory server on loopback (package
// mail/loopback), once advertising MOVE and UIDPLUS and once neither. An
// extra test runs against a real server (Dovecot, say) when the environment
// holds
//
//	SKAGERRAK_TEST_IMAP=host:port,user,password[,tls]
//
// with tls one of none, starttls, tls (default tls; none only to a loopback
// address). It uses a scratch folder "skagerrak-test-<random>" as its
// mailbox, appends its own messages there (one flagged \Deleted, which must
// survive), and deletes its folders again. It runs three times: with the
// server's capabilities as offered, ignoring MOVE, and ignoring MOVE and
// UIDPLUS, so both fallbacks meet a real server. It passes against
// Dovecot 2.3.19 (plain TCP on loopback).
package imapbox
