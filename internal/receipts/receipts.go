// Package receipts reads the receipts a player kept (the host-signed mail
// saved as .eml files, Maildirs or mboxes), checks them against a game's
// log and prints what that found: what skagerrak verify --receipts and the
// demo tell.
package receipts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"os"
	"strings"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/mail/compose"
	"skagerrak/mail/savedmail"
	"skagerrak/mail/verify"
)

// Kept is what reading a player's saved mail found.
type Kept struct {
	// Read counts the messages read; Skipped the files that were not mail.
	Read, Skipped int
	// Held are the receipts of mail whose host signature verified.
	Held []adjudicator.HeldReceipt
	// Bare counts host-signed mail without a receipt (replies to rejected
	// orders, reminders, notices, mail of builds before receipts).
	Bare int
	// Refused lists skagerrak mail whose host signature does not verify,
	// with why: it proves nothing and is not counted.
	Refused []string
	// Foreign counts other mail (no skagerrak subject, no host signature).
	Foreign int
	// Bad lists host-signed mail whose receipt cannot be read, or whose
	// text and JSON copy name different records: the host signed it, so
	// it counts against the log as a receipt that does not match.
	Bad []string
}

// Read reads saved mail (.eml files, Maildirs, mboxes) and
// checks the host's signature on each: only mail the host's key signed
// gives a receipt. players are the reader's private keys, for encrypted
// reports.
func Read(paths []string, host openpgp.EntityList, players []*openpgp.Entity) (Kept, error) {
	var k Kept
	msgs, skipped, err := savedmail.Read(paths...)
	if err != nil {
		return k, err
	}
	k.Read, k.Skipped = len(msgs), skipped
	for _, m := range msgs {
		rep, err := readHostMail(m.Raw, host, players)
		if err != nil {
			if !skagerrakMail(m.Raw) {
				k.Foreign++
				continue
			}
			k.Refused = append(k.Refused, fmt.Sprintf("%s: %v", m.Where, err))
			continue
		}
		atts := make([]adjudicator.Attachment, len(rep.Attachments))
		for i, a := range rep.Attachments {
			atts[i] = adjudicator.Attachment{Name: a.Name, ContentType: a.ContentType, Data: a.Data}
		}
		r, err := adjudicator.ReadReceipt(rep.Text, atts)
		switch {
		case err != nil:
			k.Bad = append(k.Bad, fmt.Sprintf("%s: %v", m.Where, err))
		case r == nil:
			k.Bare++
		default:
			k.Held = append(k.Held, adjudicator.HeldReceipt{LogReceipt: *r, Mail: m.Where, Signed: rep.SigTime})
		}
	}
	return k, nil
}

// Check reads the receipts kept under paths (see Read) and checks them
// against the log at logPath.
func Check(logPath string, paths []string, host openpgp.EntityList, players []*openpgp.Entity) (Kept, adjudicator.ReceiptCheck, error) {
	k, err := Read(paths, host, players)
	if err != nil {
		return k, adjudicator.ReceiptCheck{}, err
	}
	c, err := adjudicator.CheckReceipts(logPath, k.Held)
	return k, c, err
}

// readHostMail checks the host's PGP/MIME signature on a saved mail (after
// decrypting it with one of players' keys, if it is encrypted). The key is
// judged as of the mail's Date, when the host sent it: a host key that
// expired or was retired since does not void its receipts (a signature
// made after that still fails, since its own time is checked too).
func readHostMail(raw []byte, host openpgp.EntityList, players []*openpgp.Entity) (*compose.Report, error) {
	at := time.Now().UTC()
	if msg, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		if d, err := msg.Header.Date(); err == nil {
			at = d.UTC()
		}
	}
	if len(players) == 0 {
		return compose.ReadReport(raw, host, nil, at)
	}
	var first error
	for _, p := range players {
		rep, err := compose.ReadReport(raw, host, p, at)
		if err == nil {
			return rep, nil
		}
		var rej *verify.Rejection
		if first == nil || errors.As(err, &rej) {
			first = err
		}
	}
	return nil, first
}

// skagerrakMail reports whether a mail says it is from a skagerrak host
// (its subject), so that a failed signature on it is worth naming.
func skagerrakMail(raw []byte) bool {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return false
	}
	subj, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		subj = msg.Header.Get("Subject")
	}
	return strings.Contains(subj, "[skagerrak]")
}

// ReadPrivateKeys reads armored private keys for decrypting mail, unlocked
// with passphrase when protected.
func ReadPrivateKeys(paths []string, passphrase string) ([]*openpgp.Entity, error) {
	var out []*openpgp.Entity
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		e, err := compose.ReadPrivateKeyWithPassphrase(bytes.NewReader(b), []byte(passphrase))
		if err != nil {
			return nil, fmt.Errorf("%s: %w (a protected key's passphrase comes from SKAGERRAK_KEY_PASSPHRASE)", p, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// ReadHostKey reads the host's armored public key.
func ReadHostKey(path string) (openpgp.EntityList, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, err
	}
	el, err := verify.ReadKeys(bytes.NewReader(b))
	if err != nil || len(el) == 0 {
		return nil, fmt.Errorf("%s is not an armored OpenPGP public key (the host's key, as the host published it): %v", path, err)
	}
	return el, nil
}
