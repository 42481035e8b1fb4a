package compose

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
	"github.com/emersion/go-message"
)

// playerMessageID derives a deterministic Message-ID for a player's mail
// from the signer, the time and the content.
func playerMessageID(signer *openpgp.Entity, from string, at time.Time, parts ...string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%X\x00%d\x00", signer.PrimaryKey.Fingerprint, at.UnixNano())
	for _, p := range parts {
		fmt.Fprintf(h, "%d\x00%s", len(p), p)
	}
	domain := "player.skagerrak.invalid"
	if i := strings.LastIndex(from, "@"); i >= 0 {
		if d := strings.TrimRight(from[i+1:], "> \t"); d != "" && !strings.ContainsAny(d, "<>@ \r\n") {
			domain = d
		}
	}
	return fmt.Sprintf("<%x@%s>", h.Sum(nil)[:16], domain)
}

// SignCleartextMail returns a mail whose text/plain body is orderText
// clearsigned (`gpg --clearsign` format) by signer at time at.
func SignCleartextMail(signer *openpgp.Entity, from, to, subject, orderText string, at time.Time) ([]byte, error) {
	if signer == nil {
		return nil, fmt.Errorf("compose: sign: no signer")
	}
	key, ok := signer.SigningKey(at, signConfig(at))
	if !ok || key.PrivateKey == nil {
		return nil, fmt.Errorf("compose: sign: no usable private signing key at %s", at.UTC().Format(time.RFC3339))
	}
	var block bytes.Buffer
	w, err := clearsign.Encode(&block, key.PrivateKey, signConfig(at))
	if err != nil {
		return nil, fmt.Errorf("compose: clearsign: %w", err)
	}
	if _, err := io.WriteString(w, orderText); err != nil {
		return nil, fmt.Errorf("compose: clearsign: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("compose: clearsign: %w", err)
	}
	block.WriteByte('\n')
	m := Message{From: from, To: to, Subject: subject, Date: at,
		MessageID: playerMessageID(signer, from, at, "clearsigned", subject, orderText)}
	hdr, err := mailHeader(&m, "text/plain", map[string]string{"charset": "utf-8"})
	if err != nil {
		return nil, err
	}
	hdr.Set("Content-Transfer-Encoding", "quoted-printable")
	var out bytes.Buffer
	mw, err := message.CreateWriter(&out, message.Header{Header: hdr})
	if err != nil {
		return nil, fmt.Errorf("compose: clearsign: %w", err)
	}
	if _, err := mw.Write(block.Bytes()); err != nil {
		return nil, fmt.Errorf("compose: clearsign: %w", err)
	}
	if err := mw.Close(); err != nil {
		return nil, fmt.Errorf("compose: clearsign: %w", err)
	}
	hdrEnd := bytes.Index(out.Bytes(), []byte("\r\n\r\n"))
	if hdrEnd < 0 {
		return nil, fmt.Errorf("compose: clearsign: rendered mail without header end")
	}
	body := protectFrom(out.Bytes()[hdrEnd+4:])
	return append(out.Bytes()[:hdrEnd+4:hdrEnd+4], body...), nil
}

// SignPGPMIMEMail returns a PGP/MIME mail whose signed text body is
// orderText, signed by signer at time at.
func SignPGPMIMEMail(signer *openpgp.Entity, from, to, subject, orderText string, at time.Time) ([]byte, error) {
	m := Message{From: from, To: to, Subject: subject, Date: at, Text: orderText,
		MessageID: playerMessageID(signer, from, at, "pgp-mime", subject, orderText)}
	return Sign(m, signer, at)
}

// SignPGPMIMEAttachmentMail returns a PGP/MIME mail whose signed part is a
// multipart/mixed of an inline note and the order file fileName as a
// text/plain attachment, as mutt and Thunderbird send it.
func SignPGPMIMEAttachmentMail(signer *openpgp.Entity, from, to, subject, note, fileName, orderText string, at time.Time) ([]byte, error) {
	m := Message{From: from, To: to, Subject: subject, Date: at, Text: note,
		MessageID:   playerMessageID(signer, from, at, "pgp-mime-attachment", subject, note, fileName, orderText),
		Attachments: []Attachment{{Name: fileName, ContentType: "text/plain; charset=utf-8", Data: []byte(orderText)}}}
	return Sign(m, signer, at)
}

// SignDetachedMail returns a multipart/mixed mail holding exactly the order
// file fileName and its armored detached signature fileName+".asc", signed
// by signer at time at. The file travels base64-encoded, byte for byte.
func SignDetachedMail(signer *openpgp.Entity, from, to, subject, fileName, orderText string, at time.Time) ([]byte, error) {
	if fileName == "" || strings.ContainsAny(fileName, "\r\n/\\") {
		return nil, fmt.Errorf("compose: bad file name %q", fileName)
	}
	data := []byte(orderText)
	sig, _, err := detachSign(signer, data, at)
	if err != nil {
		return nil, err
	}
	m := Message{From: from, To: to, Subject: subject, Date: at,
		MessageID: playerMessageID(signer, from, at, "detached", subject, fileName, orderText)}
	b := boundary(m.MessageID, "detached", data, sig)
	hdr, err := mailHeader(&m, "multipart/mixed", map[string]string{"boundary": b})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	w, err := message.CreateWriter(&out, message.Header{Header: hdr})
	if err != nil {
		return nil, fmt.Errorf("compose: detached: %w", err)
	}
	var fh message.Header
	fh.SetContentType("text/plain", map[string]string{"charset": "utf-8", "name": fileName})
	fh.SetContentDisposition("attachment", map[string]string{"filename": fileName})
	fh.Set("Content-Transfer-Encoding", "base64")
	if err := writePart(w, fh, data); err != nil {
		return nil, err
	}
	var sh message.Header
	sh.SetContentType("application/pgp-signature", map[string]string{"name": fileName + ".asc"})
	sh.SetContentDisposition("attachment", map[string]string{"filename": fileName + ".asc"})
	sh.Set("Content-Transfer-Encoding", "7bit")
	if err := writePart(w, sh, sig); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("compose: detached: %w", err)
	}
	return out.Bytes(), nil
}
