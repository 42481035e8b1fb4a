package verify

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reason codes of a Rejection. They are stable strings meant for logs and
// events; the human explanation goes in Rejection.Detail.
const (
	// ReasonUnsigned: no OpenPGP signature was found anywhere in the message.
	ReasonUnsigned = "unsigned"
	// ReasonWrappedSignature: a signature exists, but not as the root of the
	// message (a signed part inside unsigned MIME, a forwarded or attached
	// signed message).
	ReasonWrappedSignature = "wrapped-signature"
	// ReasonBadStructure: the MIME or armor structure is not one of the three
	// accepted forms (text outside a cleartext block, wrong protocol, wrong
	// number of parts, undecodable transfer encoding, stray OpenPGP packets...).
	ReasonBadStructure = "bad-structure"
	// ReasonBadSignature: the signature does not verify over the signed bytes.
	ReasonBadSignature = "bad-signature"
	// ReasonUnknownKey: the issuer of the signature is not in the key set.
	ReasonUnknownKey = "unknown-key"
	// ReasonNoIssuer: the signature names no issuer key.
	ReasonNoIssuer = "no-issuer"
	// ReasonWeakHash: the signature uses a hash outside the policy (SHA-1,
	// MD5, RIPEMD-160, ...).
	ReasonWeakHash = "weak-hash"
	// ReasonWeakKey: the signing key is too weak (RSA under 2048 bits, DSA,
	// ElGamal, a rejected curve).
	ReasonWeakKey = "weak-key"
	// ReasonExpiredKey: the signing key had expired at the signature's
	// creation time or at the receipt time.
	ReasonExpiredKey = "expired-key"
	// ReasonRevokedKey: the signing key is revoked.
	ReasonRevokedKey = "revoked-key"
	// ReasonExpiredSignature: the signature itself had expired at the receipt
	// time.
	ReasonExpiredSignature = "expired-signature"
	// ReasonFutureSignature: the signature claims a creation time later than
	// the receipt time plus the allowed clock skew.
	ReasonFutureSignature = "future-signature"
	// ReasonMicalgMismatch: the micalg parameter (or a cleartext Hash: header)
	// names another hash than the signature packet.
	ReasonMicalgMismatch = "micalg-mismatch"
	// ReasonMultipleSignatures: more than one signature packet or block.
	ReasonMultipleSignatures = "multiple-signatures"
	// ReasonTooLarge: the message, a signature or decompressed OpenPGP data
	// exceeds its limit.
	ReasonTooLarge = "too-large"
	// ReasonTooDeep: the MIME tree is nested deeper than allowed.
	ReasonTooDeep = "too-deep"
	// ReasonTooManyParts: the MIME tree has more parts than allowed.
	ReasonTooManyParts = "too-many-parts"
)

// Rejection is the typed error Verify returns for every message it refuses.
// Reason is one of the Reason* constants; Detail is a human explanation that
// has already been passed through Escape, so both are safe for a log line.
type Rejection struct {
	Reason string
	Detail string
	// Signer is set when the signature verified but the message is refused
	// all the same (its structure is ambiguous): the signer is known and
	// may be told. Signed and Text are then empty.
	Signer *Result
	// Around is set with Signer when the refusal follows from the
	// unsigned MIME around the signed message (text added before or
	// after a cleartext block, the signed message wrapped in another
	// message, a second signature beside it), which anyone may add to a
	// copy: the signer is told, but the refusal must not be recorded
	// under the message's identity, since the same signed message sent
	// as it was made is accepted.
	Around bool
}

// by records who signed a message refused after its signature verified.
func (r *Rejection) by(signer *Result) *Rejection {
	r.Signer = signer
	return r
}

// around records who signed the message found inside MIME that is
// refused (see Rejection.Around); only the signer's identity is kept.
func (r *Rejection) around(signed *Result) *Rejection {
	r.Signer = &Result{Form: signed.Form, Fingerprint: signed.Fingerprint, Identity: signed.Identity, PacketHash: signed.PacketHash,
		SigTime: signed.SigTime, Hash: signed.Hash, Signature: signed.Signature}
	r.Around = true
	return r
}

// Error formats the rejection as "verify: REASON: DETAIL".
func (r *Rejection) Error() string {
	if r.Detail == "" {
		return "verify: " + r.Reason
	}
	return "verify: " + r.Reason + ": " + r.Detail
}

// reject builds a Rejection whose detail is escaped.
func reject(reason, format string, args ...any) *Rejection {
	return &Rejection{Reason: reason, Detail: Escape(fmt.Sprintf(format, args...))}
}

// maxEscaped bounds the length of one escaped value in a log line.
const maxEscaped = 200

// Escape makes a hostile string (a file name, an armor comment, a header
// value) safe for one log line: control characters (newlines, ESC and other
// C0/C1 codes, DEL), Unicode format characters (bidirectional overrides,
// zero-width characters), line and paragraph separators and invalid UTF-8 are
// written as Go escapes (\n, \x1b, \u202e); a backslash is doubled so that the
// output is unambiguous; values longer than 200 runes are cut and marked with
// "...".
func Escape(s string) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		if n >= maxEscaped {
			b.WriteString("...")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029,
			unicode.Is(unicode.Cf, r), !unicode.IsPrint(r) && r != ' ':
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
		i += size
		n++
	}
	return b.String()
}
