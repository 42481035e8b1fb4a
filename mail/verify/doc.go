// Package verify decides whether a received mail carries an order file signed
// by a known OpenPGP key, and returns exactly the signed bytes and the
// signer's primary-key fingerprint. It is the only way an order enters the
// adjudicator: nothing outside Result.Signed is covered by the signature, and
// identity is the signing key, never the From: header.
//
// # Accepted forms
//
// The root of the message must be the cryptographic envelope:
//
//   - pgp-mime: an RFC 3156 multipart/signed root with
//     protocol="application/pgp-signature" and exactly two parts, the second
//     of type application/pgp-signature. The signature is verified over the
//     first part's raw bytes, its MIME header included, with every bare LF
//     turned into CRLF. The order file is that part's decoded text/plain
//     body, or the single text attachment of a signed multipart/mixed
//     (Thunderbird's shape, protected headers and all). Beside the
//     attachment, notes (inline text/plain, text/html or a
//     multipart/alternative of them) and public key attachments
//     (application/pgp-keys) are allowed, never read, and listed in
//     Result.Ignored; no key is ever taken from a mail (nor from an
//     Autocrypt header). A signed text that is only HTML and plain text
//     (multipart/alternative) is refused. A micalg parameter must name the
//     signature's hash; a missing micalg is tolerated and the packet's hash
//     decides.
//   - detached: a multipart/mixed root holding the order file and its
//     signature named FILE.asc (armored) or FILE.sig (binary). A part is
//     known by both its Content-Disposition filename and its Content-Type
//     name (clients fill them differently); the signature is tried first
//     over the parts one of whose names its own names give, then over
//     every other leaf part (attachments, then inline text): names are
//     outside the signature, so they only order the tries, and the part
//     the signature verifies over is the order file. Every other part
//     (the mail's own text, a public key, another attachment) is outside
//     the signature, never read, and listed in Result.Ignored: what the
//     signature does not cover cannot refuse what it does (anyone may add
//     parts to a copy). Two signature parts are refused, naming the
//     signer when one verifies. If the signature does
//     not verify over the attachment as received but does over it as mail
//     transport may have changed it (the LF line ends of 8bit text turned
//     into CRLF; the UTF-8 file recoded to the charset its part declares,
//     as mutt does), those bytes are the order file.
//   - clearsigned: a text/plain root whose decoded body is exactly one
//     `gpg --clearsign` block with only whitespace around it, no armor header
//     other than Hash: (which must name the signature's hash), every dash
//     line dash-escaped, and one signature block.
//
// # Encrypted mail
//
// Decrypt opens mail encrypted to the host before Verify sees it: RFC 3156
// multipart/encrypted holding a signed MIME entity (ShapeSignedThenEncrypted),
// or whose OpenPGP message is signed in the same pass
// (ShapeEncryptedAndSigned), and a text body that is one armored encrypted
// and signed PGP MESSAGE (ShapeInline). It returns a clear signed message
// in one of the forms above (the one-pass signature, which covers the
// literal's bytes only, taken apart as a multipart/signed or a detached
// signature), which Verify then checks with the players' keys exactly as
// the same mail sent in clear: its Identity is the inner signature's, so a
// copy encrypted again is the same message. A PGP/MIME signature over the
// entity with LF line ends (GPGME signs what mutt wrote) verifies too.
// Decryption is bounded like verification: the raw size, the MIME depth
// and part count, and MaxMessageBytes of plaintext however compressed.
//
// # Charsets
//
// The signature is checked over the bytes as sent. Result.Charset is the
// charset Signed is read in, and Result.Text decodes Signed from it
// (DecodeText: go-message's charset package over golang.org/x/text, so
// ISO-8859-1, ISO-8859-15, Windows-1252 and every other registered
// charset); "" takes the bytes as UTF-8.
//
// Only PGP/MIME signs the label: its Charset is what the signed part
// declares (none, US-ASCII and UTF-8 meaning UTF-8). The detached and the
// cleartext forms carry their label outside the signature, where anyone may
// change it in a copy; since every copy of a message has its identity, and
// the first copy to arrive decides what the message says, the label must
// not choose the reading. Their text is read as UTF-8 when it is valid
// UTF-8 and as Windows-1252 (which the WHATWG encoding standard reads
// ISO-8859-1 and US-ASCII labels as) when it is not, whatever the label
// says; Result.Declared keeps the label, for reports. The label is used
// only to find the bytes a recoding client (mutt) turned the signed UTF-8
// file into, where only the signed bytes can come back.
//
// A *TextError (8-bit PGP/MIME text that is not UTF-8 with no charset
// named, a charset nobody knows, a byte the charset lacks) names the line
// and the client setting that fixes it.
//
// # Refusals that name the signer
//
// When the signature verified but the message is refused all the same (a
// signed HTML text, a signed multipart/mixed with two attachments), the
// Rejection's Signer is set, so that the signer can be told why. Such a
// refusal always follows from what the signature covers, never from the
// unsigned MIME around it: every copy of one signed message gets the same
// answer.
//
// A refusal that follows from what was added around a good signature
// (text around a cleartext block, the signed message inside other MIME or
// forwarded, a second detached signature) names the signer too and sets
// Rejection.Around: anyone may so wrap a copy, so the refusal must not be
// recorded under the message's identity.
//
// Anything else is rejected: a signed part inside unsigned MIME
// (multipart/mixed, multipart/related, message/rfc822, an attached .eml), text before or
// after a cleartext block, a second block, an inline-signed PGP MESSAGE,
// duplicate Content-Type/Content-Transfer-Encoding/Content-Disposition
// headers. See the Reason* constants for the codes.
//
// # Signature policy
//
// Verification goes through go-crypto's openpgp/v2 detached-signature
// verification (hash policy, key flags, self-signature and binding checks);
// this package adds:
//
//   - exactly one signature packet (an armored or binary signature part, or
//     one compressed packet around it whose output is bounded by
//     Limits.MaxDecompressedBytes); any other packet is bad-structure, two
//     signatures are multiple-signatures;
//   - only binary (0x00) and text (0x01) document signatures;
//   - hashes: SHA-224, SHA-256, SHA-384, SHA-512, SHA3-256 and SHA3-512 are
//     accepted; SHA-1, MD5, RIPEMD-160 and anything else are weak-hash;
//   - keys: RSA under 2048 bits, DSA and ElGamal are weak-key (primary key
//     and signing subkey alike);
//   - the signature must name its issuer key (no-issuer otherwise), and the
//     issuer must be in the given key set (unknown-key);
//   - the two-octet hash tag must be the first octets of the digest.
//
// # Identity
//
// Result.Identity names the signed message whatever its bytes on the wire:
// SHA-256 over a version label, the signer's primary-key fingerprint, the
// signature's hashed part (version, type, public-key and hash algorithm,
// hashed subpacket area, trailer: what RFC 9580 5.2.4 hashes after the
// data) and the digest the signature is made over. It leaves out what
// anyone can change without the key: the packet header's format and length
// encoding, the unhashed subpackets, the signature values, armor,
// compression and MIME. Result.PacketHash, SHA-256 of the signature packet,
// is what game logs used before; it is kept only to check those logs.
//
// # Time policy
//
// `at` is the daemon's recorded receipt time; the signature's creation time is
// chosen by the sender and is trusted for nothing but the checks below.
//
//   - A signature created more than Limits.ClockSkew (default 10 minutes)
//     after `at` is future-signature.
//   - The key must be valid (not expired, not revoked, with a valid
//     self-signature and, for a subkey, a valid binding) both at the
//     signature's creation time AND at `at`. So a signature made after the
//     key expired is expired-key, and so is a signature made while the key
//     was valid but received after it expired: the creation time is the
//     sender's claim, and accepting it would let anyone holding an expired
//     (perhaps leaked) key backdate orders. Players renew their key's expiry
//     to keep playing. Replay uses the recorded `at`, so it gives the same
//     answer years later.
//   - A revocation that is in force at `at` rejects (revoked-key). A
//     revocation without reason, with reason "no reason" or "key compromised"
//     revokes the key for all time, so a backdated signature by a
//     compromised key is rejected too; a "superseded" or "retired" revocation
//     takes effect at its own creation time.
//   - A signature that carries its own expiration time and has expired at
//     `at` is expired-signature.
//
// # Limits
//
// Limits bounds the raw message size (too-large; default 1 MiB), MIME depth
// (too-deep; default 8), MIME part count (too-many-parts; default 64), the
// signature's size and the output of a compressed OpenPGP packet (too-large;
// 64 KiB each). The line count of the order file is the adjudicator's check.
//
// # Control characters
//
// ControlError refuses signed text holding a control character other than
// tab, LF and CR (NUL, ESC, DEL, C1 controls), naming its line and column:
// mail does not carry them intact. Check applies it as the daemon does, so
// both say the same. An IMAP server without BINARY passes a NUL on as 0x80
// (Dovecot does); when a signature fails over a message holding stray 0x80
// bytes and verifies with them made NUL again, the message is the signer's
// (Result.RestoredNULs counts them), its Identity that of the intact copy,
// and ControlError tells the signer what to change.
//
// # Logging hostile values
//
// Rejection.Detail is escaped when built. Result.FileName and
// Result.ArmorHeaders are raw sender data: pass them through Escape before
// writing them anywhere. Check and FormatReport produce the human report of
// `skagerrak check`.
package verify
