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

// Sender delivers a rendered Mail. An error wrapping ErrPermanent is a
// failure for good (SMTP 5xx); any other error is retried on a later pass.
type Sender interface {
	Send(ctx context.Context, m Mail) error
}

// ErrPermanent marks a delivery that will never succeed.
var ErrPermanent = errors.New("permanent delivery failure")
