package compose

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// signConfig is the configuration of every signature made here: SHA-256,
// the given creation time, and no random salt notation, so that the same
// key, data and time give the same signature bytes (Ed25519 and RSA PKCS#1
// v1.5 signatures are deterministic).
func signConfig(at time.Time) *packet.Config {
	no := false
	return &packet.Config{
		DefaultHash:                           hashSHA256,
		Time:                                  func() time.Time { return at },
		NonDeterministicSignaturesViaNotation: &no,
	}
}

// detachSign makes an armored detached binary signature of data by signer
// at time at, and returns it with the micalg value naming its hash.
func detachSign(signer *openpgp.Entity, data []byte, at time.Time) (armored []byte, micalg string, err error) {
	if signer == nil || signer.PrivateKey == nil {
		return nil, "", fmt.Errorf("compose: sign: no private key")
	}
	var bin bytes.Buffer
	if err := openpgp.DetachSign(&bin, []*openpgp.Entity{signer}, bytes.NewReader(data), signConfig(at)); err != nil {
		return nil, "", fmt.Errorf("compose: sign: %w", err)
	}
	p, err := packet.Read(bytes.NewReader(bin.Bytes()))
	if err != nil {
		return nil, "", fmt.Errorf("compose: sign: %w", err)
	}
	sig, ok := p.(*packet.Signature)
	if !ok {
		return nil, "", fmt.Errorf("compose: sign: unexpected packet %T", p)
	}
	micalg = "pgp-" + strings.ToLower(strings.ReplaceAll(sig.Hash.String(), "-", ""))
	var out bytes.Buffer
	w, err := armor.Encode(&out, "PGP SIGNATURE", nil)
	if err != nil {
		return nil, "", fmt.Errorf("compose: sign: %w", err)
	}
	w.Write(bin.Bytes())
	if err := w.Close(); err != nil {
		return nil, "", fmt.Errorf("compose: sign: %w", err)
	}
	out.WriteByte('\n')
	return crlf(out.Bytes()), micalg, nil
}

const (
	signedPreamble    = "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)"
	encryptedPreamble = "This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)"
	sigPartHeader     = "Content-Type: application/pgp-signature; name=\"signature.asc\"\r\n" +
		"Content-Description: OpenPGP digital signature\r\n" +
		"Content-Disposition: attachment; filename=\"signature.asc\"\r\n\r\n"
)

// signedBody renders m's entity, signs it and returns the multipart/signed
// Content-Type parameters and its two parts.
func signedBody(m *Message, signer *openpgp.Entity, at time.Time) (params map[string]string, parts [][]byte, b string, err error) {
	inner, err := renderEntity(m)
	if err != nil {
		return nil, nil, "", err
	}
	inner = crlf(inner)
	sig, micalg, err := detachSign(signer, inner, at)
	if err != nil {
		return nil, nil, "", err
	}
	b = boundary(m.MessageID, "signed", inner, sig)
	params = map[string]string{"micalg": micalg, "protocol": "application/pgp-signature", "boundary": b}
	return params, [][]byte{inner, append([]byte(sigPartHeader), sig...)}, b, nil
}

// Sign renders m and signs it as RFC 3156 PGP/MIME (multipart/signed,
// micalg=pgp-sha256) with the host's private key; the signature's creation
// time is at. The same inputs give the same bytes.
func Sign(m Message, host *openpgp.Entity, at time.Time) ([]byte, error) {
	params, parts, b, err := signedBody(&m, host, at)
	if err != nil {
		return nil, err
	}
	hdr, err := mailHeader(&m, "multipart/signed", params)
	if err != nil {
		return nil, err
	}
	return assemble(hdr, signedPreamble, b, parts...)
}

// SignEncrypt signs m like Sign and then encrypts the signed entity to the
// recipient's public key as RFC 3156 multipart/encrypted (sign, then
// encrypt; the headers From, To, Subject, Date and Message-ID stay in
// clear). Encryption draws a random session key, so the output differs on
// every call.
func SignEncrypt(m Message, host, recipient *openpgp.Entity, at time.Time) ([]byte, error) {
	if recipient == nil {
		return nil, fmt.Errorf("compose: encrypt: no recipient key")
	}
	params, parts, b, err := signedBody(&m, host, at)
	if err != nil {
		return nil, err
	}
	var hb strings.Builder
	hb.WriteString("Content-Type: multipart/signed; micalg=" + params["micalg"] +
		";\r\n protocol=\"application/pgp-signature\";\r\n boundary=\"" + b + "\"\r\n")
	signedEntity, err := assembleEntity(hb.String(), signedPreamble, b, parts...)
	if err != nil {
		return nil, err
	}
	var armored bytes.Buffer
	aw, err := armor.Encode(&armored, "PGP MESSAGE", nil)
	if err != nil {
		return nil, fmt.Errorf("compose: encrypt: %w", err)
	}
	cfg := signConfig(at)
	cfg.DefaultCipher = packet.CipherAES256
	pw, err := openpgp.EncryptWithParams(aw, []*openpgp.Entity{recipient}, nil, &openpgp.EncryptParams{Config: cfg})
	if err != nil {
		return nil, fmt.Errorf("compose: encrypt: %w", err)
	}
	if _, err := pw.Write(signedEntity); err != nil {
		return nil, fmt.Errorf("compose: encrypt: %w", err)
	}
	if err := pw.Close(); err != nil {
		return nil, fmt.Errorf("compose: encrypt: %w", err)
	}
	if err := aw.Close(); err != nil {
		return nil, fmt.Errorf("compose: encrypt: %w", err)
	}
	armored.WriteByte('\n')
	eb := boundary(m.MessageID, "encrypted", armored.Bytes())
	hdr, err := mailHeader(&m, "multipart/encrypted", map[string]string{"protocol": "application/pgp-encrypted", "boundary": eb})
	if err != nil {
		return nil, err
	}
	version := []byte("Content-Type: application/pgp-encrypted\r\nContent-Description: PGP/MIME version identification\r\n\r\nVersion: 1\r\n")
	payload := append([]byte("Content-Type: application/octet-stream; name=\"encrypted.asc\"\r\n"+
		"Content-Description: OpenPGP encrypted message\r\n"+
		"Content-Disposition: inline; filename=\"encrypted.asc\"\r\n\r\n"), crlf(armored.Bytes())...)
	return assemble(hdr, encryptedPreamble, eb, version, payload)
}

// assembleEntity is assemble for a MIME entity with a literal header.
func assembleEntity(header, preamble, b string, parts ...[]byte) ([]byte, error) {
	var out bytes.Buffer
	out.WriteString(header + "\r\n" + preamble + "\r\n")
	for _, p := range parts {
		out.WriteString("--" + b + "\r\n")
		out.Write(p)
		out.WriteString("\r\n")
	}
	out.WriteString("--" + b + "--\r\n")
	return out.Bytes(), nil
}
