package wiring

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/mail/bounce"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/verify"
)

// Verifier is the adjudicator's Verifier over mail/verify.
type Verifier struct{}

// Keys reads the players' armored public keys into one key ring.
func (Verifier) Keys(armored []string) (adjudicator.KeySet, error) {
	rs := make([]io.Reader, len(armored))
	for i, a := range armored {
		rs[i] = strings.NewReader(a)
	}
	if len(rs) == 0 {
		return openpgp.EntityList{}, nil
	}
	return verify.ReadKeys(rs...)
}

func keyring(ks adjudicator.KeySet) openpgp.EntityList {
	el, _ := ks.(openpgp.EntityList)
	return el
}

func verified(r *verify.Result) adjudicator.Verified {
	return adjudicator.Verified{Signed: r.Signed, Fingerprint: r.Fingerprint, Key: adjudicator.IdentityKey(r.Identity),
		PacketKey: hex.EncodeToString(r.PacketHash[:]), SigTime: r.SigTime, Form: r.Form}
}

// VerifyMail verifies a message and decodes its order file from the
// charset the mail declares. A message whose signature verified but which
// is refused (an ambiguous structure, text that cannot be decoded) is an
// *adjudicator.RefusedSigned, so that the signer hears why.
func (Verifier) VerifyMail(raw []byte, ks adjudicator.KeySet, at time.Time) (adjudicator.Verified, error) {
	r, err := verify.Verify(raw, keyring(ks), at)
	var rej *verify.Rejection
	if errors.As(err, &rej) && rej.Signer != nil {
		return adjudicator.Verified{}, &adjudicator.RefusedSigned{Verified: verified(rej.Signer), Reason: "the mail is not one of the accepted forms: " + rej.Detail, Around: rej.Around}
	}
	if rej != nil && rej.Reason == verify.ReasonUnsigned {
		return adjudicator.Verified{}, unsignedError{err}
	}
	if err != nil {
		return adjudicator.Verified{}, err
	}
	v := verified(r)
	text, err := r.Text()
	if err != nil {
		return adjudicator.Verified{}, &adjudicator.RefusedSigned{Verified: v, Reason: err.Error()}
	}
	if ce := verify.ControlError(text); ce != nil {
		return adjudicator.Verified{}, &adjudicator.RefusedSigned{Verified: v, Reason: ce.Error()}
	}
	v.Text, v.Ignored = text, r.Ignored
	if text != string(r.Signed) {
		v.Charset = r.Charset // decoded: verify decodes it again the same way
	}
	return v, nil
}

// VerifyFile checks an order file with its armored detached signature, or
// a cleartext-signed order file when sig is "".
func (Verifier) VerifyFile(data []byte, sig string, ks adjudicator.KeySet, at time.Time) (adjudicator.Verified, error) {
	if sig == "" {
		r, err := verify.VerifyClearsignedFile(data, keyring(ks), at)
		if err != nil {
			return adjudicator.Verified{}, err
		}
		return refuseControls(verified(r))
	}
	blk, err := armor.Decode(strings.NewReader(sig))
	if err != nil {
		return adjudicator.Verified{}, fmt.Errorf("the signature is not an armored OpenPGP signature: %w", err)
	}
	bin, err := io.ReadAll(blk.Body)
	if err != nil {
		return adjudicator.Verified{}, fmt.Errorf("the signature: %w", err)
	}
	r, err := verify.VerifyDetached(data, bin, keyring(ks), at)
	if err != nil {
		return adjudicator.Verified{}, err
	}
	v := verified(r)
	v.Signed, v.Form = data, verify.FormDetached
	return refuseControls(v)
}

// refuseControls refuses a signed file holding control characters, as
// the intake refuses such mail.
func refuseControls(v adjudicator.Verified) (adjudicator.Verified, error) {
	if ce := verify.ControlError(string(v.Signed)); ce != nil {
		return adjudicator.Verified{}, &adjudicator.RefusedSigned{Verified: v, Reason: ce.Error()}
	}
	return v, nil
}

// Decrypter is the adjudicator's Decrypter over mail/verify, with the
// host's private key Key; Lock is the lock the host's Sender signs under
// (go-crypto's Entity is not safe for concurrent use): see
// Sender.Decrypter.
type Decrypter struct {
	Key  *openpgp.Entity
	Lock *sync.Mutex
}

// DecryptMail decrypts an encrypted mail with the host's key; it says
// whether the mail was encrypted at all.
func (d Decrypter) DecryptMail(raw []byte, at time.Time) ([]byte, bool, error) {
	d.Lock.Lock()
	dec, err := verify.Decrypt(raw, openpgp.EntityList{d.Key}, at, verify.Limits{})
	d.Lock.Unlock()
	if err != nil {
		return nil, true, err
	}
	if dec == nil {
		return nil, false, nil
	}
	return dec.Message, true, nil
}

// unsignedError is a verification error of mail with no signature at all,
// which is adjudicator.ErrUnsigned; it reads as the error it wraps.
type unsignedError struct{ error }

func (e unsignedError) Unwrap() error        { return e.error }
func (e unsignedError) Is(target error) bool { return target == adjudicator.ErrUnsigned }

// Triage is the adjudicator's Triage over mail/bounce.
type Triage struct{}

// Triage tells automatic mail (bounces, auto-replies) from a person's.
func (Triage) Triage(raw []byte) adjudicator.Automatic {
	info := bounce.Triage(raw)
	a := adjudicator.Automatic{Auto: info.Auto, Why: info.Why, From: info.From}
	if info.Report == nil || len(info.Report.MessageIDs) == 0 {
		return a
	}
	// The first failure says most, else the first delay; a report of
	// deliveries only is no bounce. What the reporting server says is
	// anyone's text: escaped before it goes anywhere.
	var pick *bounce.Recipient
	for _, want := range []string{"failed", "delayed"} {
		for i, r := range info.Report.Recipients {
			if pick == nil && r.Action == want {
				pick = &info.Report.Recipients[i]
			}
		}
	}
	if pick == nil {
		return a
	}
	a.Bounce = &adjudicator.Bounce{MessageIDs: info.Report.MessageIDs, Recipient: verify.Escape(pick.Recipient), Action: pick.Action,
		Status: verify.Escape(pick.Status), Diagnostic: verify.Escape(pick.Diagnostic)}
	return a
}

// Inbox adapts an imapbox.Box to the adjudicator's Inbox.
type Inbox struct{ Box *imapbox.Box }

// Fetch reads the mailbox's new messages.
func (i Inbox) Fetch(ctx context.Context) ([]adjudicator.InMessage, error) {
	ms, err := i.Box.Fetch(ctx)
	out := make([]adjudicator.InMessage, 0, len(ms))
	for _, m := range ms {
		raw := m.Raw
		if m.TooLarge {
			raw = nil // rejected as unsigned: nothing to verify
		}
		out = append(out, adjudicator.InMessage{UIDValidity: m.UIDValidity, UID: m.UID, Raw: raw, Received: m.Received})
	}
	return out, err
}

// MoveProcessed files a recorded message in the processed folder.
func (i Inbox) MoveProcessed(ctx context.Context, v, uid uint32) error {
	return gone(i.Box.MoveProcessed(ctx, v, uid))
}

// MoveRejected files a rejected message in the rejected folder.
func (i Inbox) MoveRejected(ctx context.Context, v, uid uint32) error {
	return gone(i.Box.MoveRejected(ctx, v, uid))
}

// gone marks a move of a message the mailbox no longer holds.
func gone(err error) error {
	if errors.Is(err, imapbox.ErrNoMessage) {
		return fmt.Errorf("%w: %w", adjudicator.ErrGone, err)
	}
	return err
}

// Wait waits for new mail (IDLE, or the poll interval).
func (i Inbox) Wait(ctx context.Context) error { return i.Box.Wait(ctx) }
