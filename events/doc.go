// Package events is skagerrak's event log: the envelope of one event, its
// hash chain, the append-only file store (FileLog), an in-memory store for
// tests (MemLog), and a read-only verifier (Reader, Verify, ReadFile).
//
// A game's state is never stored as truth: it is what replaying the game's
// events gives. This page defines the on-disk format (version 1,
// FormatVersion) precisely enough to write an independent verifier.
//
// # Records
//
// A log is a file of records, one per line (JSON Lines). Each record is a
// JSON object with exactly these six members, in this order, with no
// whitespace between tokens, followed by one newline byte (0x0A); the
// records of a batch of two or more carry a seventh, outside the record (see
// Batches):
//
//	{"seq":1,"time":"1940-04-09T04:15:00Z","type":"GameCreated","data":{"game":"weserubung-1"},"prev":"000…000","hash":"9f2c…"}
//
// The members:
//
//   - seq: the record's number, a decimal integer without sign or leading
//     zeros. The first record is 1; each next record is one more (no gaps),
//     so record n is line n.
//   - time: when the event happened by the daemon's clock, in UTC, formatted
//     as Go's time.RFC3339Nano does: "2006-01-02T15:04:05.999999999Z" with
//     trailing fractional zeros (and a then empty ".") removed and the zone
//     always "Z". Years 1 to 9999.
//   - type: the event type, 1 to 64 characters: an ASCII letter, then ASCII
//     letters, digits, '_', '.' or '-' (so it never needs escaping). Types
//     beginning "events." are reserved for the format itself; a version 1
//     log has none.
//   - data: the event's payload, any JSON value, compact: no whitespace
//     outside strings (what json.Compact leaves unchanged), and the
//     characters <, >, &, U+2028 and U+2029 always escaped, as \u003c,
//     \u003e, \u0026, \u2028 and \u2029 (what json.Marshal writes, so that
//     re-encoding a record with encoding/json never changes its bytes).
//     Every string is escaped exactly as json.Marshal escapes it (so
//     "\u0067erman" for "german", or "\/" for "/", is refused), and no
//     object holds a key twice (CheckData): one value has one form. A
//     reader that knows the event types also requires the data to be
//     exactly what the writer produces for its decoded value (CheckSchema:
//     no member the type lacks, members in the type's order, zero members
//     the type omits left out); skagerrak verify does, naming the record
//     and what is not canonical.
//   - prev: the hash of the previous record, 64 lowercase hex digits. The
//     prev of record 1 is 64 zeros (GenesisPrev).
//   - hash: this record's hash, 64 lowercase hex digits.
//
// A record line is valid UTF-8 and, newline included, at most
// MaxRecordBytes (16 MiB).
//
// # Hash rule
//
// The canonical bytes of a record are the record line without its newline
// and without its hash member: the JSON object
// {"seq":…,"time":"…","type":"…","data":…,"prev":"…"}, byte for byte as it
// appears in the line. Equivalently: take the line without its newline,
// remove its last 75 bytes (`,"hash":"` + 64 hex digits + `"}`), and append
// one `}`.
//
//	hash = lowercase_hex( SHA-256( raw(prev) || canonical bytes ) )
//
// where raw(prev) is the 32 bytes that prev's hex digits encode (32 zero
// bytes for record 1). A verifier checks, for every line n: the line is in
// the canonical form above (re-encoding its fields gives the same bytes),
// seq is n, prev equals the hash of line n-1 (64 zeros for n = 1), and hash
// is as computed. Any change to a record, a removed, repeated, reordered or
// hand-appended record breaks one of these at the first record affected.
//
// # Batches
//
// A batch is records appended as one (Log.AppendBatch: the events of one
// adjudicator decision). The file store writes a batch with one write and
// one fsync, and frames each record of a batch of two or more: after the
// hash member, the line carries one more member, "batch", the record's
// place in the batch and the batch's size:
//
//	{"seq":7,…,"prev":"…","hash":"…","batch":[1,3]}
//	{"seq":8,…,"prev":"…","hash":"…","batch":[2,3]}
//	{"seq":9,…,"prev":"…","hash":"…","batch":[3,3]}
//
// The frame is not part of the record: the record line is the file line
// without `,"batch":[K,N]` (decimals without leading zeros, 1 <= K <= N,
// 2 <= N <= MaxBatchRecords), the hash does not cover it, and other stores
// (and MemLog.WriteTo, and an export) do not write it. A reader counts the
// records of a batch only once it has read the last one; within a file,
// each record framed [K,N] with K > 1 follows the one framed [K-1,N], and
// one framed [1,N] does not come inside another batch, or the line is
// damage. A log without batches (every log written before them) has no
// frames and reads as before; a reader that predates batches refuses a
// framed line as damage rather than misreading it.
//
// # First record and format version
//
// There is no header record. Record 1 is the first event the application
// appends (by convention GameCreated) and carries the version 1 genesis prev
// of 64 zeros. A later, incompatible format will begin with a record whose
// type starts with "events." (for example "events.Format" with the version
// in its data); a version 1 reader reports such a record as damage rather
// than misreading it.
//
// # Lock
//
// One writer at a time: a FileLog holds an exclusive flock(2), taken without
// blocking, on the sibling file path + ".lock" (created if missing, mode
// 0600, never removed; it contains the holder's pid and a newline, for error
// messages only). A second writer, in another process or the same one, fails
// at once with an error wrapping ErrLocked:
//
//	events: game log /data/g1/events.jsonl is locked by another process (pid 4242)
//
// Readers (Reader, Verify, ReadFile, a verify tool) take no lock and modify
// nothing; reading while a writer appends sees a prefix of the log, possibly
// with a partly written last line, reported as a torn tail.
//
// # Durability contract
//
// Create makes the file with O_EXCL and mode 0600 (a game log holds secret
// orders while it is played), then fsyncs it and its parent directory, so
// that a log whose creation was acknowledged survives a crash (a crash
// during Create leaves either no file or an empty one). Open fsyncs
// the directory too. Append encodes the whole record line, writes it with one
// write(2) on a file opened O_APPEND, and fsyncs the file before returning;
// the returned Event is the acknowledgement. AppendBatch likewise writes a
// whole batch, framed (see Batches), with one write(2) and one fsync: its
// nil error acknowledges all of the batch. If the write or the fsync fails
// (a full disk, an I/O error), Append returns an error wrapping ErrFatal and
// the FileLog is poisoned: every later call returns that same error (Close
// still releases the lock). The caller, the daemon, must then exit; on
// restart Open recovers the log from what reached the disk. After a failed
// write the store truncates back to the last acknowledged record, best
// effort. A record whose Append failed was never acknowledged but may still
// be found in the log after the restart, so appenders must be idempotent
// (the adjudicator keys each message by its signature's identity, below). Nothing is
// retried after a failed fsync: the kernel may have dropped the dirty pages,
// so a retry could report success for data that is lost.
//
// # Message identity
//
// The adjudicator's events that record a received message (OrdersAccepted,
// OrdersRejected, RefereeMail) name it by data.key, and a reply names it by
// MailQueued's data.about. The key is what makes appending idempotent: a
// message whose key the log holds is not recorded again, and gets no reply.
// It takes one of three forms:
//
//   - "sig1:" and 64 lowercase hex digits: the canonical identity of the
//     message's OpenPGP signature, below;
//   - 64 lowercase hex digits: SHA-256 of the binary signature packet, as
//     logs written before canonical identities recorded it; such events are
//     checked as they were written;
//   - "unsigned:" and 64 hex digits: orders a referee entered from paper
//     (SHA-256 of the receipt time and the text);
//   - "mail1:" and 64 hex digits: an OrdersRejected of a mail refused for
//     what was added around a good signature (text around a cleartext
//     block, the signed message forwarded or inside other MIME, a second
//     signature): SHA-256 of the mail as received. Anyone may so wrap a
//     copy, so the refusal is the mail's, not the signed message's, which
//     sent as it was made still counts;
//   - "enc1:" and 64 hex digits: an OrdersRejected with data.by_address of
//     encrypted mail the host could not read or whose content no
//     registered key signed, answered only because its From: is the side's
//     registered address: SHA-256 of the mail as received.
//
// Mail encrypted to the host is recorded as the decrypted signed message
// (data.raw, with data.encrypted true), keyed by its inner signature like
// the same mail sent in clear; no session key is kept, and the side's mail
// is encrypted from then on.
//
// The canonical identity is SHA-256 of
//
//	"skagerrak signature identity 1" 0x00
//	len(F), one octet        F: the signer's primary-key fingerprint
//	len(H), four octets BE   H: the hashed part
//	len(D), one octet        D: the digest
//
// H is what RFC 9580 5.2.4 hashes after the signed data, octet for octet
// as the packet holds it: version, signature type, public-key and hash
// algorithm, the hashed subpacket area with its length, then the trailer
// (version, 0xFF, four-octet length of what precedes). D is the value the
// signature is made over: the hash, by the signature's algorithm, of the v6
// salt, the signed data (canonical text, CRLF line ends, for a text
// signature) and H. These are exactly what the signature covers, and who
// signed. What anyone may change without the key is left out: the packet
// header's format and length encoding, the unhashed subpackets, the hash
// tag, the signature values (ECDSA values can be varied, MPIs re-encoded),
// and the compression, armor and MIME around the signature. Every copy of a
// message, however re-encoded, has its key; a new key needs a new
// signature.
//
// A verifier recomputes each signed key from the recorded mail (data.raw)
// or file, and refuses a second event with the key of an earlier one (for
// a packet key, a second OrdersAccepted), naming the seq of both. The
// messages of one signing key count in the order they were signed
// (data.sig_time, whole seconds): a message signed before the last one
// accepted from its key is refused, and so, for sig1: keys, is one signed
// in the same second with another identity (its signer is asked to sign it
// again, since which of the two was meant to count cannot be told).
//
// What a refused message leaves is bounded: an OrdersRejected record's data
// is at most 32 KiB (the reason, the first 20 errors, up to 4 KiB of the
// text, the mail itself only up to 8 KiB, and always data.raw_bytes and
// data.raw_sha256 of the mail as received). A recorded message with
// data.unanswered got no reply: its key had had its 10 replies in that
// phase (adjudicator.MaxRepliesPerPhase); a verifier refuses one withheld
// under the limit. An OrdersRejected with data.stray true is counted apart,
// against 3 replies a phase (adjudicator.MaxStrayRepliesPerPhase): the
// host judged it stray mail of the key: not an order file of this game for
// the signer's side and the open phase (the referee's may name any phase),
// or signed more than 10 minutes before the phase (the last one, between
// phases) opened. Such mail is what anyone can collect of
// a player's signed mail and send on, so it never uses up the replies to
// the player's own orders. Records without data.stray (all records of logs
// written before) count against the 10.
//
// A MailBounced event (a delivery status notification, which carries no
// signature) names a mail by the Message-ID its MailQueued recorded
// (data.id) and the side it was for; a verifier refuses one naming a mail
// the log never queued, or queued for another side. Message-IDs of this
// build are <GAME.SEQ.KIND.SIDE.TOKEN@DOMAIN>, TOKEN being the first 16 hex
// digits of HMAC-SHA256(dice secret, "skagerrak message-id" 0x00
// GAME.SEQ.KIND.SIDE), so that nobody who has not seen a mail can name it
// in a forged bounce; logs written before have no token.
//
// The charset an order text was decoded from (data.charset) is the one a
// PGP/MIME signed part declares, inside the signature. The detached and
// the cleartext forms carry their label outside it, where anyone can
// change it in a copy, and every copy has the message's key: their text is
// read as UTF-8 when it is valid UTF-8 and as windows-1252 otherwise,
// whatever the label says, so that the first copy to arrive cannot decide
// what the message says. For the same reason nothing outside the signature
// (the label, the parts beside a detached signature, header fields such as
// Auto-Submitted) makes a message signed by a known key refused or
// ignored.
//
// # Deadlines and the time mail was received
//
// Whether orders came in time is judged by when the host's own mail server
// received the message: its IMAP INTERNALDATE, which that server sets on
// delivery. An OrdersAccepted or OrdersRejected record of a mail carries it
// as data.received (RFC 3339, UTC); a verifier refuses an OrdersAccepted
// whose data.received is at or after the open phase's deadline plus grace
// (unless the game was paused): such orders were late. Records without
// data.received (files, paper orders, and every record of logs written
// before) are judged as they were recorded, by the time of the record:
// old logs replay unchanged.
//
// This departs from the rule that only the daemon's own clock counts,
// for one reason: the daemon cannot read mail while its mailbox is down
// (the IMAP service stopped, a login refused), and a deadline passed over
// mail it could not read would count orders sent in time as missed. The
// INTERNALDATE is trusted because the host's own server writes it on
// delivery, on the host's side, like the daemon's clock; the sender sets
// neither it nor anything it is read from (the Date: header and the
// signature's creation time stay untrusted for this). A host who controls
// that server could set it, as it could set its own clock: receipts bound
// what a host can do undetected, not when it says mail came. A server
// whose clock runs apart from the daemon's moves the deadline by as much;
// keep both on NTP.
//
// A PhaseWaiting event records that the open phase is past its deadline
// and waits, unresolved, because the mailbox could not be read (data.why
// says what failed): a daemon resolves a phase for its deadline only after
// a read of the whole mailbox that began after the deadline. It is
// recorded once a phase, and its referee told; when the phase resolves
// the referee is told again.
//
// # Torn tails and damage
//
// An append interrupted by a crash can leave only a prefix of its record, or
// blocks that read back as zero bytes, after the last complete record; never
// a change to an earlier record. Open and the readers therefore tell two
// cases apart:
//
//   - Torn tail (recovered): the bytes after the last newline, when they are
//     not a complete good record (a cut record, zeros, garbage); or a last
//     newline-terminated line that fails and contains a NUL byte (unwritten
//     blocks before a written one); or the records of a batch whose last
//     record is missing, with whatever follows them: good records framed
//     as parts of a batch not yet whole, then nothing or a cut record; or
//     a line with a NUL byte that is the next part of the batch being read
//     (or the first part of one) and is followed only by the parts of the
//     same batch after it (framed so, none past its last) or by lines with
//     NUL bytes. A batch is one write, never acknowledged in part, so its
//     remains are cut whole: the log holds all of a batch or none of it.
//     Readers report the torn tail in Summary.TornTail and
//     Summary.TailBytes and stop there without error; Open truncates the
//     file to the end of the last good record (of a whole batch) and
//     fsyncs the cut. If the bytes after the last newline are a complete
//     good next record (or last record of the batch being read) that only
//     lacks its newline, it is kept: readers count it and set
//     Summary.Unterminated, and Open writes the newline and fsyncs.
//   - Damage (refused): any newline-terminated line, the last one included,
//     that is not a good record continuing the chain (unless NUL-torn as
//     above). Such a line cannot come from a crash during an append, and
//     cutting it could throw away acknowledged records, so Open refuses,
//     with a *ChainError naming the first bad record.
//
// For example:
//
//	events: record 17 (line 17, byte offset 4096) of /data/g1/events.jsonl: hash does not match
//
// An operator repairs a damaged log by hand, from a backup or by truncating
// it deliberately; the package never does.
//
// # Reading
//
// Log.Events yields records from a seq onwards; the file store re-reads the
// file and checks each record's hash and link as it yields it. Verify and
// ReadFile check a whole log read-only, and NewReader iterates the good
// records of any io.Reader for tools that replay a log without opening it
// for writing.
package events
