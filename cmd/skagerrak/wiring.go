package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/mail/bounce"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/verify"
)

// pgpVerifier is the adjudicator's Verifier over mail/verify.
type pgpVerifier struct{}

func (pgpVerifier) Keys(armored []string) (adjudicator.KeySet, error) {
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
func (pgpVerifier) VerifyMail(raw []byte, ks adjudicator.KeySet, at time.Time) (adjudicator.Verified, error) {
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
func (pgpVerifier) VerifyFile(data []byte, sig string, ks adjudicator.KeySet, at time.Time) (adjudicator.Verified, error) {
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

// hostDecrypter is the adjudicator's Decrypter over mail/verify, with the
// host's private key; mu is the lock the sender signs under (go-crypto's
// Entity is not safe for concurrent use).
type hostDecrypter struct {
	key *openpgp.Entity
	mu  *sync.Mutex
}

func (d hostDecrypter) DecryptMail(raw []byte, at time.Time) ([]byte, bool, error) {
	d.mu.Lock()
	dec, err := verify.Decrypt(raw, openpgp.EntityList{d.key}, at, verify.Limits{})
	d.mu.Unlock()
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

// mailTriage is the adjudicator's Triage over mail/bounce.
type mailTriage struct{}

func (mailTriage) Triage(raw []byte) adjudicator.Automatic {
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

// readPublicKey reads an armored public key file and returns the armor and
// the primary key's fingerprint. A private key, no key, or a file holding
// more than one certificate (in one armored block or in several) is an
// error naming the file and, for several, each certificate found.
func readPublicKey(path string) (string, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", unreadableKeyFile(path, err)
	}
	el, err := readCertificates(b)
	if err != nil {
		return "", "", fmt.Errorf("%s is not an armored OpenPGP public key (export one with gpg --export --armor): %v", path, err)
	}
	if len(el) != 1 {
		return "", "", fmt.Errorf("%s holds %d certificates (%s); give one public key per side (gpg --export --armor FINGERPRINT)", path, len(el), describeCertificates(el))
	}
	if el[0].PrivateKey != nil {
		return "", "", fmt.Errorf("%s is a private key; give the public key (gpg --export --armor), never the secret one", path)
	}
	return string(b), strings.ToUpper(hex.EncodeToString(el[0].PrimaryKey.Fingerprint)), nil
}

// unreadableKeyFile explains a key file the command may not read: run as
// the daemon's user (runuser keeps the working directory), a key in root's
// home is out of its reach, which "permission denied" alone does not say.
func unreadableKeyFile(path string, err error) error {
	if !errors.Is(err, fs.ErrPermission) {
		return err
	}
	who := "this command's user"
	if u, uerr := user.Current(); uerr == nil {
		who = "user " + u.Username
	}
	// os.Getwd stats ".", which a directory closed to the user refuses;
	// the system call answers all the same.
	if wd, werr := syscall.Getwd(); werr == nil && !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	return fmt.Errorf("%w (%s may not read %s: put the key file where it can, e.g. install -m 0644 -t /var/lib/skagerrak FILE)", err, who, path)
}

// readCertificates reads every armored block of a key file: go-crypto's
// ReadArmoredKeyRing reads only the first, and a second block would be
// stored with the first and never looked at.
func readCertificates(b []byte) (openpgp.EntityList, error) {
	begin := []byte("-----BEGIN PGP ")
	var starts []int
	for i := 0; ; {
		j := bytes.Index(b[i:], begin)
		if j < 0 {
			break
		}
		starts = append(starts, i+j)
		i += j + len(begin)
	}
	if len(starts) == 0 {
		return nil, errors.New("no armored block")
	}
	var all openpgp.EntityList
	for n, s := range starts {
		end := len(b)
		if n+1 < len(starts) {
			end = starts[n+1]
		}
		blk, err := armor.Decode(bytes.NewReader(b[s:end]))
		if err != nil {
			return nil, err
		}
		el, err := openpgp.ReadKeyRing(blk.Body)
		if err != nil {
			return nil, err
		}
		all = append(all, el...)
	}
	return all, nil
}

// describeCertificates names each certificate by fingerprint and user IDs
// (escaped: they are the key owner's text).
func describeCertificates(el openpgp.EntityList) string {
	var out []string
	for _, e := range el {
		var ids []string
		for name := range e.Identities {
			ids = append(ids, verify.Escape(name))
		}
		sort.Strings(ids)
		if len(ids) == 0 {
			ids = []string{"no user ID"}
		}
		out = append(out, strings.ToUpper(hex.EncodeToString(e.PrimaryKey.Fingerprint))+" "+strings.Join(ids, ", "))
	}
	return strings.Join(out, "; ")
}

// inbox adapts an imapbox.Box to the adjudicator's Inbox.
type inbox struct{ b *imapbox.Box }

func (i inbox) Fetch(ctx context.Context) ([]adjudicator.InMessage, error) {
	ms, err := i.b.Fetch(ctx)
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

func (i inbox) MoveProcessed(ctx context.Context, v, uid uint32) error {
	return gone(i.b.MoveProcessed(ctx, v, uid))
}

func (i inbox) MoveRejected(ctx context.Context, v, uid uint32) error {
	return gone(i.b.MoveRejected(ctx, v, uid))
}

// gone marks a move of a message the mailbox no longer holds.
func gone(err error) error {
	if errors.Is(err, imapbox.ErrNoMessage) {
		return fmt.Errorf("%w: %w", adjudicator.ErrGone, err)
	}
	return err
}

func (i inbox) Wait(ctx context.Context) error { return i.b.Wait(ctx) }
