package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	goerrors "errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// The shapes of mail encrypted to the host that Decrypt opens.
const (
	// ShapeSignedThenEncrypted is RFC 3156 multipart/encrypted whose
	// plaintext is a multipart/signed entity (mutt, and compose's
	// SignEncrypt): signed, then encrypted.
	ShapeSignedThenEncrypted = "pgp-mime signed then encrypted"
	// ShapeEncryptedAndSigned is RFC 3156 multipart/encrypted whose
	// OpenPGP message is signed inside (RFC 3156 6.2, one pass: gpg
	// --encrypt --sign, Thunderbird); its plaintext is a MIME entity.
	ShapeEncryptedAndSigned = "pgp-mime encrypted and signed"
	// ShapeInline is a text/plain root whose body is one armored PGP
	// MESSAGE, encrypted and signed in one pass (gpg --encrypt --sign
	// --armor orders.txt, pasted into the mail): its plaintext is the order
	// file.
	ShapeInline = "inline encrypted and signed"
)

// Reasons of a refused encrypted message.
const (
	// ReasonNotForHost: the message is encrypted, but to no key the host
	// holds.
	ReasonNotForHost = "not-for-host"
	// ReasonBadEncryption: the encrypted data is damaged, not integrity
	// protected, or not one OpenPGP message.
	ReasonBadEncryption = "bad-encryption"
)

// Decrypted is a message encrypted to the host, opened.
type Decrypted struct {
	// Message is the decrypted message as a clear signed mail in one of
	// the forms Verify takes, so that Verify checks it exactly as the same
	// orders sent signed in clear, and a log that keeps it can be checked
	// again without the host's key (which it never holds, nor any session
	// key): the received header (Content-* fields aside) over the
	// decrypted MIME entity; for the one-pass shapes, the plaintext and the
	// signature made in the same pass, taken apart as an RFC 3156
	// multipart/signed (PGP/MIME) or as an order file and its detached
	// signature (inline). A signature over an OpenPGP literal covers the
	// literal's bytes only, so it verifies over them as a detached one.
	Message []byte
	// Shape is one of the Shape* constants.
	Shape string
	// Signed reports whether the OpenPGP message was signed inside (the
	// one-pass shapes); the signature is not checked here.
	Signed bool
}

// inlineFileName names the order file of an inline encrypted message in
// Decrypted.Message (the literal's own name is the sender's, not read).
const inlineFileName = "orders.txt"

// Decrypt opens raw when it is encrypted to the host: an RFC 3156
// multipart/encrypted root, or a text/plain root whose body is one armored
// PGP MESSAGE with only whitespace around it that is encrypted (an
// unencrypted one is left to Verify, which refuses it). It returns nil and
// no error for any other message. hostKeys are the host's private keys.
// The work is bounded by lim as Verify's: the raw size, the MIME depth and
// part count, and the decrypted (and decompressed) plaintext, which may
// not exceed MaxMessageBytes. A refusal is a *Rejection (not-for-host
// names the keys the message was encrypted to and the host's key;
// bad-encryption, too-large). The inner signature is not checked here:
// Verify checks Decrypted.Message with the players' keys.
func Decrypt(raw []byte, hostKeys openpgp.EntityList, at time.Time, lim Limits) (*Decrypted, error) {
	if at.IsZero() {
		return nil, errZeroTime
	}
	lim = lim.withDefaults()
	if len(raw) > lim.MaxMessageBytes {
		return nil, nil // Verify refuses it as too large
	}
	root, rej := (&parser{lim: lim}).parse(raw, 0)
	if rej != nil {
		return nil, nil // Verify names the structural fault
	}
	var d *Decrypted
	switch root.mediaType {
	case "multipart/encrypted":
		d, rej = decryptPGPMIME(raw, root, hostKeys, at, lim)
	case "text/plain":
		d, rej = decryptInline(raw, root, hostKeys, at, lim)
	default:
		return nil, nil
	}
	if rej != nil {
		return nil, rej
	}
	return d, nil
}

// decryptPGPMIME opens an RFC 3156 multipart/encrypted root.
func decryptPGPMIME(raw []byte, root *entity, hostKeys openpgp.EntityList, at time.Time, lim Limits) (*Decrypted, *Rejection) {
	if p := root.params["protocol"]; !strings.EqualFold(p, "application/pgp-encrypted") {
		return nil, reject(ReasonBadEncryption, "multipart/encrypted protocol %q, want application/pgp-encrypted", p)
	}
	if len(root.children) != 2 {
		return nil, reject(ReasonBadEncryption, "multipart/encrypted with %d parts, want 2", len(root.children))
	}
	if t := root.children[0].mediaType; t != "application/pgp-encrypted" {
		return nil, reject(ReasonBadEncryption, "first part of multipart/encrypted is %s, want application/pgp-encrypted", t)
	}
	if t := root.children[1].mediaType; t != "application/octet-stream" {
		return nil, reject(ReasonBadEncryption, "second part of multipart/encrypted is %s, want application/octet-stream", t)
	}
	payload, rej := decodeBody(root.children[1])
	if rej != nil {
		return nil, rej
	}
	pl, rej := open(payload, hostKeys, at, lim)
	if rej != nil {
		return nil, rej
	}
	// The plaintext as it is: a one-pass signature covers these bytes,
	// which mutt (through GPGME) writes with LF line ends.
	plain := pl.data
	hdr := clearHeader(raw)
	inner, rej := (&parser{lim: lim}).parse(plain, 1)
	if rej == nil && inner.mediaType == "multipart/encrypted" {
		return nil, reject(ReasonBadEncryption, "the decrypted message is encrypted again: encrypt once, to the host")
	}
	if rej == nil && inner.mediaType == "multipart/signed" || len(pl.sigs) == 0 {
		// Signed inside the MIME (or not signed at all: Verify says so).
		return &Decrypted{Message: append(hdr, plain...), Shape: ShapeSignedThenEncrypted, Signed: len(pl.sigs) > 0}, nil
	}
	b := freeBoundary("signed", plain)
	var m bytes.Buffer
	m.Write(hdr)
	fmt.Fprintf(&m, "Content-Type: multipart/signed; protocol=\"application/pgp-signature\";\r\n boundary=\"%s\"\r\n\r\n", b)
	fmt.Fprintf(&m, "--%s\r\n", b)
	m.Write(plain)
	fmt.Fprintf(&m, "\r\n--%s\r\nContent-Type: application/pgp-signature\r\n\r\n", b)
	m.Write(armored(pl.sigs))
	fmt.Fprintf(&m, "\r\n--%s--\r\n", b)
	return &Decrypted{Message: m.Bytes(), Shape: ShapeEncryptedAndSigned, Signed: true}, nil
}

// decryptInline opens a text/plain root holding one armored PGP MESSAGE.
func decryptInline(raw []byte, root *entity, hostKeys openpgp.EntityList, at time.Time, lim Limits) (*Decrypted, *Rejection) {
	body, rej := decodeBody(root)
	if rej != nil {
		return nil, nil
	}
	const begin = "-----BEGIN PGP MESSAGE-----"
	t := bytes.TrimSpace(body)
	if !bytes.HasPrefix(t, []byte(begin)) || countLines(body, []byte("-----BEGIN PGP ")) != 1 {
		return nil, nil
	}
	if !encryptedArmor(t) {
		return nil, nil // a signed PGP MESSAGE: Verify refuses it
	}
	pl, rej := open(t, hostKeys, at, lim)
	if rej != nil {
		return nil, rej
	}
	hdr := clearHeader(raw)
	if len(pl.sigs) == 0 {
		// Not signed: the text as it is, which Verify refuses as unsigned.
		var m bytes.Buffer
		m.Write(hdr)
		m.WriteString("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n")
		m.Write(base64Lines(pl.data))
		return &Decrypted{Message: m.Bytes(), Shape: ShapeInline}, nil
	}
	sig := armored(pl.sigs)
	b := freeBoundary("mixed", append(append([]byte{}, pl.data...), sig...))
	var m bytes.Buffer
	m.Write(hdr)
	fmt.Fprintf(&m, "Content-Type: multipart/mixed; boundary=\"%s\"\r\n\r\n--%s\r\n", b, b)
	fmt.Fprintf(&m, "Content-Type: text/plain; name=\"%s\"\r\nContent-Disposition: attachment; filename=\"%s\"\r\nContent-Transfer-Encoding: base64\r\n\r\n", inlineFileName, inlineFileName)
	m.Write(base64Lines(pl.data))
	fmt.Fprintf(&m, "--%s\r\nContent-Type: application/pgp-signature; name=\"%s.asc\"\r\nContent-Disposition: attachment; filename=\"%s.asc\"\r\n\r\n", b, inlineFileName, inlineFileName)
	m.Write(sig)
	fmt.Fprintf(&m, "\r\n--%s--\r\n", b)
	return &Decrypted{Message: m.Bytes(), Shape: ShapeInline, Signed: true}, nil
}

// plaintext is an opened OpenPGP message: the literal data and the
// signature packets made over it in the same pass.
type plaintext struct {
	data []byte
	sigs [][]byte
}

// open decrypts one OpenPGP message (armored or binary) with the host's
// keys, reading the plaintext to its end (so that its integrity check is
// made) within lim.MaxMessageBytes, decompression included.
func open(payload []byte, hostKeys openpgp.EntityList, at time.Time, lim Limits) (*plaintext, *Rejection) {
	bin := payload
	if isArmored(payload) {
		t := bytes.TrimSpace(payload)
		if n := bytes.Count(t, []byte("-----BEGIN PGP")); n != 1 {
			return nil, reject(ReasonBadEncryption, "%d armored blocks in the encrypted part, want 1", n)
		}
		blk, err := armor.Decode(bytes.NewReader(t))
		if err != nil || blk.Type != "PGP MESSAGE" {
			return nil, reject(ReasonBadEncryption, "the encrypted part is not one armored PGP MESSAGE")
		}
		bin, err = io.ReadAll(io.LimitReader(blk.Body, int64(lim.MaxMessageBytes)+1))
		if err != nil {
			return nil, reject(ReasonBadEncryption, "bad armor: %v", err)
		}
	}
	recipients, rej := recipientsOf(bin)
	if rej != nil {
		return nil, rej
	}
	// The plaintext is read through a limit: decompression streams, so
	// reading one byte past the limit is all the work a bomb gets.
	limit := int64(lim.MaxMessageBytes)
	cfg := &packet.Config{Time: func() time.Time { return at }}
	md, err := openpgp.ReadMessage(bytes.NewReader(bin), hostKeys, nil, cfg)
	if goerrors.Is(err, pgperrors.ErrKeyIncorrect) {
		return nil, notForHost(recipients, hostKeys)
	}
	if err != nil {
		return nil, reject(ReasonBadEncryption, "cannot decrypt: %v", err)
	}
	if !md.IsEncrypted {
		return nil, reject(ReasonBadEncryption, "the OpenPGP message is not encrypted")
	}
	data, err := io.ReadAll(io.LimitReader(md.UnverifiedBody, limit+1))
	if int64(len(data)) > limit {
		return nil, reject(ReasonTooLarge, "the decrypted message exceeds %d bytes", lim.MaxMessageBytes)
	}
	if err != nil && !isUnknownSigner(err) {
		return nil, reject(ReasonBadEncryption, "the decrypted data does not check: %v", err)
	}
	pl := &plaintext{data: data}
	for _, c := range md.SignatureCandidates {
		if c.CorrespondingSig == nil {
			return nil, reject(ReasonBadEncryption, "a one-pass signature without its signature packet")
		}
		var b bytes.Buffer
		if err := c.CorrespondingSig.Serialize(&b); err != nil {
			return nil, reject(ReasonBadEncryption, "unreadable signature: %v", err)
		}
		pl.sigs = append(pl.sigs, b.Bytes())
	}
	return pl, nil
}

// isUnknownSigner tells an error go-crypto reports at the end of a signed
// message for a signer it was not given the key of (the players' keys are
// Verify's business) from a failed integrity check.
func isUnknownSigner(err error) bool {
	return goerrors.Is(err, pgperrors.ErrUnknownIssuer)
}

// recipientsOf lists the key IDs the message's session key is encrypted to.
func recipientsOf(bin []byte) ([]uint64, *Rejection) {
	var ids []uint64
	r := packet.NewReader(bytes.NewReader(bin))
	for {
		p, err := r.Next()
		if err != nil {
			if err == io.EOF {
				return ids, nil
			}
			var unknown pgperrors.UnknownPacketTypeError
			if goerrors.As(err, &unknown) {
				continue
			}
			return nil, reject(ReasonBadEncryption, "unreadable OpenPGP packet: %v", err)
		}
		switch p := p.(type) {
		case *packet.EncryptedKey:
			ids = append(ids, p.KeyId)
		case *packet.SymmetricKeyEncrypted:
		default:
			return ids, nil
		}
	}
}

// notForHost names the keys a message was encrypted to and the host's.
func notForHost(recipients []uint64, hostKeys openpgp.EntityList) *Rejection {
	var to []string
	for _, id := range recipients {
		to = append(to, fmt.Sprintf("%016X", id))
	}
	if len(to) == 0 {
		to = []string{"a passphrase only"}
	}
	host := "none"
	if len(hostKeys) > 0 {
		host = fmt.Sprintf("%X", hostKeys[0].PrimaryKey.Fingerprint)
	}
	return reject(ReasonNotForHost, "the message is encrypted to %s, not to the host's key %s: encrypt to the key the host's reports are signed with (their Autocrypt header carries it)",
		strings.Join(to, ", "), host)
}

// encryptedArmor reports whether an armored PGP MESSAGE starts with an
// encrypted session key (to a key or a passphrase).
func encryptedArmor(t []byte) bool {
	blk, err := armor.Decode(bytes.NewReader(t))
	if err != nil || blk.Type != "PGP MESSAGE" {
		return false
	}
	p, err := packet.Read(blk.Body)
	if err != nil {
		return false
	}
	switch p.(type) {
	case *packet.EncryptedKey, *packet.SymmetricKeyEncrypted:
		return true
	}
	return false
}

// clearHeader is the received header without its MIME fields, with
// MIME-Version: 1.0, for the decrypted entity to follow: From, To,
// Subject, Date and Message-ID stay what the mail had in clear.
func clearHeader(raw []byte) []byte {
	hdr, _ := splitHeader(raw)
	var out bytes.Buffer
	skip := false
	for _, line := range bytes.SplitAfter(hdr, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if !skip {
				out.Write(line)
			}
			continue
		}
		name := strings.ToLower(string(bytes.TrimSpace(line[:max(bytes.IndexByte(line, ':'), 0)])))
		skip = strings.HasPrefix(name, "content-") || name == "mime-version"
		if !skip {
			out.Write(line)
		}
	}
	b := canonicalCRLF(out.Bytes())
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\r\n")) {
		b = append(b, '\r', '\n')
	}
	return append(b, "MIME-Version: 1.0\r\n"...)
}

// freeBoundary is a boundary that does not occur in content.
func freeBoundary(label string, content []byte) string {
	sum := sha256.Sum256(content)
	for i := 0; ; i++ {
		b := fmt.Sprintf("skagerrak-decrypted-%s-%x-%d", label, sum[:12], i)
		if !bytes.Contains(content, []byte(b)) {
			return b
		}
	}
}

// armored armors signature packets as one PGP SIGNATURE block.
func armored(sigs [][]byte) []byte {
	var b bytes.Buffer
	w, _ := armor.Encode(&b, "PGP SIGNATURE", nil)
	for _, s := range sigs {
		w.Write(s)
	}
	w.Close()
	return canonicalCRLF(b.Bytes())
}

// base64Lines encodes b in base64 lines of 76 characters, CRLF-ended.
func base64Lines(b []byte) []byte {
	s := base64.StdEncoding.EncodeToString(b)
	var out bytes.Buffer
	for len(s) > 76 {
		out.WriteString(s[:76] + "\r\n")
		s = s[76:]
	}
	out.WriteString(s + "\r\n")
	return out.Bytes()
}
