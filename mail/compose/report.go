package compose

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
	"github.com/emersion/go-message"

	"skagerrak/mail/verify"
)

// MaxReportBytes bounds a received report, encrypted or not, and its
// decrypted content.
const MaxReportBytes = 16 << 20

// Report is a received report whose host signature has been verified.
type Report struct {
	// Text is the inline text body, with LF line ends.
	Text string
	// Attachments are the attached files, decoded.
	Attachments []Attachment
	// Fingerprint is the signer's primary key fingerprint (the host's).
	Fingerprint string
	// SigTime is the creation time of the host's signature.
	SigTime time.Time
	// Encrypted tells whether the report came as multipart/encrypted.
	Encrypted bool
}

// ReadReport verifies a report received by a player: raw is the mail,
// hostKeys the host's public key(s), player the player's private key (used
// only if the report is encrypted; may be nil otherwise), at the time of
// reading. It returns the text and attachments of the signed part. A
// signature failure is returned as the *verify.Rejection inside the error.
func ReadReport(raw []byte, hostKeys openpgp.KeyRing, player *openpgp.Entity, at time.Time) (*Report, error) {
	if len(raw) > MaxReportBytes {
		return nil, fmt.Errorf("compose: report of %d bytes is too large", len(raw))
	}
	top, err := message.Read(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) {
		return nil, fmt.Errorf("compose: read report: %w", err)
	}
	mt, _, _ := top.Header.ContentType()
	signed, encrypted := raw, false
	if strings.EqualFold(mt, "multipart/encrypted") {
		if player == nil {
			return nil, errors.New("compose: read report: encrypted report and no private key")
		}
		signed, err = decryptReport(top, player, at)
		if err != nil {
			return nil, err
		}
		encrypted = true
	}
	res, err := verify.VerifyEnvelope(signed, hostKeys, at, verify.Limits{MaxMessageBytes: MaxReportBytes})
	if err != nil {
		return nil, fmt.Errorf("compose: report signature: %w", err)
	}
	rep := &Report{Fingerprint: res.Fingerprint, SigTime: res.SigTime, Encrypted: encrypted}
	if err := readSignedEntity(res.Covered, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// decryptReport decrypts the second part of an RFC 3156 multipart/encrypted
// entity with the player's key and returns the plaintext MIME entity.
func decryptReport(top *message.Entity, player *openpgp.Entity, at time.Time) ([]byte, error) {
	mr := top.MultipartReader()
	if mr == nil {
		return nil, errors.New("compose: read report: multipart/encrypted without parts")
	}
	var parts []*message.Entity
	var payload []byte
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("compose: read report: %w", err)
		}
		parts = append(parts, p)
		if len(parts) == 2 {
			payload, err = io.ReadAll(io.LimitReader(p.Body, MaxReportBytes+1))
			if err != nil {
				return nil, fmt.Errorf("compose: read report: %w", err)
			}
		}
	}
	if len(parts) != 2 {
		return nil, fmt.Errorf("compose: read report: multipart/encrypted with %d parts, want 2", len(parts))
	}
	if t, _, _ := parts[0].Header.ContentType(); !strings.EqualFold(t, "application/pgp-encrypted") {
		return nil, fmt.Errorf("compose: read report: first encrypted part is %q", t)
	}
	blk, err := armor.Decode(bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("compose: decrypt report: %w", err)
	}
	cfg := &packet.Config{Time: func() time.Time { return at }}
	limit := int64(MaxReportBytes)
	cfg.MaxDecompressedMessageSize = &limit
	md, err := openpgp.ReadMessage(blk.Body, openpgp.EntityList{player}, nil, cfg)
	if err != nil {
		return nil, fmt.Errorf("compose: decrypt report: %w", err)
	}
	plain, err := io.ReadAll(io.LimitReader(md.UnverifiedBody, MaxReportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("compose: decrypt report: %w", err)
	}
	if len(plain) > MaxReportBytes {
		return nil, errors.New("compose: decrypt report: plaintext too large")
	}
	if md.IsSigned && md.SignatureError != nil {
		return nil, fmt.Errorf("compose: decrypt report: %w", md.SignatureError)
	}
	return plain, nil
}

// readSignedEntity fills rep from the signed MIME entity: a text/plain body,
// or a multipart/mixed of an inline text and attachments.
func readSignedEntity(entity []byte, rep *Report) error {
	e, err := message.Read(bytes.NewReader(entity))
	if err != nil && !message.IsUnknownCharset(err) {
		return fmt.Errorf("compose: read report body: %w", err)
	}
	mr := e.MultipartReader()
	if mr == nil {
		b, err := io.ReadAll(e.Body)
		if err != nil {
			return fmt.Errorf("compose: read report body: %w", err)
		}
		rep.Text = lf(b)
		return nil
	}
	textSeen := false
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("compose: read report body: %w", err)
		}
		b, err := io.ReadAll(p.Body)
		if err != nil {
			return fmt.Errorf("compose: read report body: %w", err)
		}
		disp, dparams, _ := p.Header.ContentDisposition()
		mt, cparams, _ := p.Header.ContentType()
		name := dparams["filename"]
		if name == "" {
			name = cparams["name"]
		}
		delete(cparams, "name")
		ct := mime.FormatMediaType(mt, cparams)
		if !textSeen && strings.EqualFold(mt, "text/plain") && !strings.EqualFold(disp, "attachment") && name == "" {
			rep.Text, textSeen = lf(b), true
			continue
		}
		rep.Attachments = append(rep.Attachments, Attachment{Name: name, ContentType: ct, Data: b})
	}
}

// lf turns the CRLF line ends of a decoded text body into LF.
func lf(b []byte) string {
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}
