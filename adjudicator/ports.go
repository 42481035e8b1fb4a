package adjudicator

import (
	"context"
	"errors"
	"time"
)

// Clock tells the time. The daemon's is the wall clock; tests inject one.
type Clock interface {
	Now() time.Time
}

// WallClock is the system clock.
type WallClock struct{}

// Now implements Clock.
func (WallClock) Now() time.Time { return time.Now().UTC() }

// KeySet is a parsed set of public keys, made by a Verifier.
type KeySet any

// Verified is what a signature check yields.
type Verified struct {
	// Signed are the signed bytes: the order file.
	Signed []byte
	// Fingerprint is the signer's primary key fingerprint.
	Fingerprint string
	// Key is the message's canonical identity as the log records it:
	// IdentityPrefix and the hex of verify's Result.Identity (see
	// events/doc.go). Every re-encoding of one signature has the same Key.
	Key string
	// PacketKey is the hex SHA-256 of the signature packet, the key of
	// events recorded before Key existed: verify checks those with it, and
	// a game in progress since then still recognises them by it.
	PacketKey string
	// SigTime is the signature's creation time.
	SigTime time.Time
	// Form is how it was signed: pgp-mime, detached, clearsigned.
	Form string
	// Text is the order file as UTF-8: Signed decoded from the charset its
	// MIME part declares; Charset names that charset, "" when Signed was
	// taken as UTF-8 as it is.
	Text    string
	Charset string
	// Ignored describes the parts beside the order file that were not read
	// as orders (a cover note, a public key), for the reply.
	Ignored []string
}

// RefusedSigned is the error a Verifier returns for a message whose
// signature verified but which is refused all the same (its structure is
// ambiguous, or its text cannot be read): the signer is known, and is told
// why by a reply.
type RefusedSigned struct {
	Verified
	// Reason says what is wrong and what would do.
	Reason string
	// Around says the refusal follows from what was added around the
	// signed message (see verify's Rejection.Around): it is recorded under
	// the mail's digest, not the message's identity, so that the signed
	// message sent alone is still taken.
	Around bool
}

func (e *RefusedSigned) Error() string { return e.Reason }

// text is the order file as UTF-8, from a Verifier that decodes (Text) or
// one that leaves the signed bytes as they are.
func (v Verified) text() string {
	if v.Text == "" && v.Charset == "" {
		return string(v.Signed)
	}
	return v.Text
}

// Verifier checks OpenPGP signatures. The mail package implements it.
type Verifier interface {
	// Keys parses armored public keys.
	Keys(armored []string) (KeySet, error)
	// VerifyMail verifies a raw RFC 5322 message at time at.
	VerifyMail(raw []byte, keys KeySet, at time.Time) (Verified, error)
	// VerifyFile verifies a file and its armored detached signature, or a
	// cleartext-signed file when sig is "".
	VerifyFile(data []byte, sig string, keys KeySet, at time.Time) (Verified, error)
}

// Decrypter opens mail encrypted to the host. The mail package implements
// it with the host's private key.
type Decrypter interface {
	// DecryptMail returns, for a message encrypted to the host, the
	// decrypted message as a clear signed mail VerifyMail takes (what the
	// log keeps: it checks again without the host's key), and encrypted
	// true; for any other message nil and false. An encrypted message it
	// cannot open is an error saying what the sender should fix.
	DecryptMail(raw []byte, at time.Time) (clear []byte, encrypted bool, err error)
}

// Sender delivers a rendered Mail. An error wrapping ErrPermanent is a
// failure for good (SMTP 5xx); one wrapping ErrUnavailable says no mail
// can go now; any other error is retried on a later pass.
type Sender interface {
	Send(ctx context.Context, m Mail) error
}

// ErrPermanent marks a delivery that will never succeed.
var ErrPermanent = errors.New("permanent delivery failure")

// ErrUnavailable marks a delivery that failed for every mail, not for
// this one: the mail server is down, or refuses the host's login or
// sender. The mail stays queued and nothing more is sent until the next
// pass.
var ErrUnavailable = errors.New("the mail server takes no mail now")
