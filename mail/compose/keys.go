package compose

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// GenerateKey creates an OpenPGP v4 key pair for name and email: an Ed25519
// signing primary key and a Curve25519 encryption subkey, created at `at`,
// without expiry and without passphrase. GnuPG 2.2 and later read it.
func GenerateKey(name, email string, at time.Time) (*openpgp.Entity, error) {
	cfg := &packet.Config{
		Rand:        rand.Reader,
		Algorithm:   packet.PubKeyAlgoEdDSA,
		Curve:       packet.Curve25519,
		DefaultHash: hashSHA256,
		Time:        func() time.Time { return at },
	}
	e, err := openpgp.NewEntity(name, "", email, cfg)
	if err != nil {
		return nil, fmt.Errorf("compose: generate key: %w", err)
	}
	return e, nil
}

// ReadPrivateKey reads one armored, unprotected private key (the host_key
// file, or a player's key in the demo). A passphrase-protected key is an
// error: see ReadPrivateKeyWithPassphrase.
func ReadPrivateKey(r io.Reader) (*openpgp.Entity, error) {
	return ReadPrivateKeyWithPassphrase(r, nil)
}

// ReadPrivateKeyWithPassphrase reads one armored private key, unlocking it
// with passphrase if it is protected (the daemon runs unattended, so the
// passphrase comes from its environment). A protected key without a
// passphrase, or with a wrong one, is an error.
func ReadPrivateKeyWithPassphrase(r io.Reader, passphrase []byte) (*openpgp.Entity, error) {
	el, err := openpgp.ReadArmoredKeyRing(r)
	if err != nil {
		return nil, fmt.Errorf("compose: read private key: %w", err)
	}
	if len(el) != 1 {
		return nil, fmt.Errorf("compose: read private key: %d keys in the file, want 1", len(el))
	}
	e := el[0]
	if e.PrivateKey == nil {
		return nil, errors.New("compose: read private key: the file holds only a public key")
	}
	protected := e.PrivateKey.Encrypted
	for _, sk := range e.Subkeys {
		if sk.PrivateKey != nil && sk.PrivateKey.Encrypted {
			protected = true
		}
	}
	if protected {
		if len(passphrase) == 0 {
			return nil, errors.New("compose: read private key: the key is passphrase-protected and no passphrase was given")
		}
		if err := e.DecryptPrivateKeys(passphrase); err != nil {
			return nil, fmt.Errorf("compose: read private key: unlocking it: %w", err)
		}
	}
	return e, nil
}

// ReadPublicKeys reads armored public keys (a player's registered key).
func ReadPublicKeys(r io.Reader) (openpgp.EntityList, error) {
	el, err := openpgp.ReadArmoredKeyRing(r)
	if err != nil {
		return nil, fmt.Errorf("compose: read public key: %w", err)
	}
	return el, nil
}

// ArmorPublicKey exports the public part of e, armored.
func ArmorPublicKey(e *openpgp.Entity) ([]byte, error) {
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	if err != nil {
		return nil, fmt.Errorf("compose: armor public key: %w", err)
	}
	if err := e.Serialize(w); err != nil {
		return nil, fmt.Errorf("compose: armor public key: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("compose: armor public key: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// ArmorPrivateKey exports e with its private keys, armored and unprotected
// (for writing the demo's host_key; keep the file mode 0600).
func ArmorPrivateKey(e *openpgp.Entity) ([]byte, error) {
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PrivateKeyType, nil)
	if err != nil {
		return nil, fmt.Errorf("compose: armor private key: %w", err)
	}
	if err := e.SerializePrivateWithoutSigning(w, nil); err != nil {
		return nil, fmt.Errorf("compose: armor private key: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("compose: armor private key: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// Fingerprint is the upper-case hex fingerprint of e's primary key, the
// form mail/verify reports.
func Fingerprint(e *openpgp.Entity) string {
	return fmt.Sprintf("%X", e.PrimaryKey.Fingerprint)
}

// FormatFingerprint groups a hex fingerprint in blocks of four for people
// ("ABCD 0123 ..."), with a double space in the middle as GnuPG prints it.
// Non-hex input is returned upper-cased and otherwise unchanged.
func FormatFingerprint(fpr string) string {
	fpr = strings.ToUpper(strings.ReplaceAll(fpr, " ", ""))
	for _, r := range fpr {
		if !strings.ContainsRune("0123456789ABCDEF", r) {
			return fpr
		}
	}
	var b strings.Builder
	for i := 0; i < len(fpr); i += 4 {
		if i > 0 {
			b.WriteByte(' ')
			if i == len(fpr)/2 {
				b.WriteByte(' ')
			}
		}
		end := min(i+4, len(fpr))
		b.WriteString(fpr[i:end])
	}
	return b.String()
}
