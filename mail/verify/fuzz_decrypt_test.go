package verify

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// fuzzEncrypt encrypts data to the fuzz key (its Curve25519 subkey stands
// for the host's), signing it in the same pass when sign is set, armored.
func fuzzEncrypt(t testing.TB, key *openpgp.Entity, data []byte, sign bool) []byte {
	t.Helper()
	var out bytes.Buffer
	aw, err := armor.Encode(&out, "PGP MESSAGE", nil)
	if err != nil {
		t.Fatal(err)
	}
	when := fuzzAt.Add(-time.Hour)
	params := &openpgp.EncryptParams{Config: &packet.Config{Time: func() time.Time { return when }, DefaultHash: crypto.SHA256}}
	if sign {
		params.Signers = []*openpgp.Entity{key}
	}
	w, err := openpgp.EncryptWithParams(aw, []*openpgp.Entity{key}, nil, params)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	aw.Close()
	return out.Bytes()
}

// decryptSeeds are an encrypted message of each shape Decrypt opens, to
// the fuzz key, and hostile variants.
func decryptSeeds(t testing.TB) map[string][]byte {
	key := fuzzKey(t)
	inner := textPart(orderText)
	pgpmime := signedMessage(stdParams, inner, sigPart(armorSig(t, rawSign(t, key, canonicalCRLF(inner), crypto.SHA256, fuzzAt.Add(-time.Hour)), nil)))
	entity := pgpmime[bytes.Index(pgpmime, []byte("Content-Type: multipart/signed")):]
	onePass := fuzzEncrypt(t, key, inner, true)
	return map[string][]byte{
		"signed-then-encrypted": encryptedMessage(fuzzEncrypt(t, key, entity, false)),
		"encrypted-and-signed":  encryptedMessage(onePass),
		"inline":                textMessage(string(fuzzEncrypt(t, key, []byte(orderText), true))),
		"unsigned":              encryptedMessage(fuzzEncrypt(t, key, inner, false)),
		"binary-payload":        encryptedMessage(dearmorMessage(t, onePass)),
		"nested":                encryptedMessage(fuzzEncrypt(t, key, encryptedMessage(onePass), false)),
	}
}

func dearmorMessage(t testing.TB, a []byte) []byte {
	blk, err := armor.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.ReadFrom(blk.Body)
	return b.Bytes()
}

// FuzzDecrypt feeds whole messages to Decrypt with the fuzz key as the
// host's, and what it opens to Verify: no panic, every refusal a
// Rejection with an escaped detail, every opened message within the
// limits and holding no encrypted data Verify would open again.
func FuzzDecrypt(f *testing.F) {
	key := fuzzKey(f)
	host := openpgp.EntityList{key}
	for _, raw := range decryptSeeds(f) {
		f.Add(raw)
	}
	lim := DefaultLimits()
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, err := Decrypt(raw, host, fuzzAt, lim)
		if err != nil {
			var rej *Rejection
			if !errors.As(err, &rej) || d != nil {
				t.Fatalf("error %T %v with %v", err, err, d)
			}
			for _, r := range rej.Error() {
				if r < 0x20 || r == 0x7f {
					t.Fatalf("control character in %q", rej.Error())
				}
			}
			return
		}
		if d == nil {
			return
		}
		if len(d.Message) > len(raw)+lim.MaxMessageBytes+4096 {
			t.Fatalf("decrypted message of %d bytes from %d", len(d.Message), len(raw))
		}
		res, err := Verify(d.Message, host, fuzzAt)
		checkOutcome(t, res, err)
		if d2, err := Decrypt(d.Message, host, fuzzAt, lim); d2 != nil && err == nil {
			t.Fatalf("the decrypted message is encrypted again")
		}
	})
}

// TestWriteDecryptCorpus writes testdata/fuzz/FuzzDecrypt when
// SKAGERRAK_WRITE_FUZZ_CORPUS=1 (encryption draws random session keys, so
// the seeds are written once and checked in); otherwise it checks that
// the checked-in seeds of the accepted shapes still decrypt and verify.
func TestWriteDecryptCorpus(t *testing.T) {
	key := fuzzKey(t)
	host := openpgp.EntityList{key}
	dir := filepath.Join("testdata", "fuzz", "FuzzDecrypt")
	if os.Getenv("SKAGERRAK_WRITE_FUZZ_CORPUS") == "1" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, raw := range decryptSeeds(t) {
			content := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", raw)
			if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range []string{"signed-then-encrypted", "encrypted-and-signed", "inline"} {
		b, err := os.ReadFile(filepath.Join(dir, "seed-"+name))
		if err != nil {
			t.Fatalf("checked-in seed: %v", err)
		}
		raw := corpusBytes(t, b)
		d, err := Decrypt(raw, host, fuzzAt, Limits{})
		if err != nil || d == nil {
			t.Fatalf("seed %s: %v", name, err)
		}
		if _, err := Verify(d.Message, host, fuzzAt); err != nil {
			t.Fatalf("seed %s: %v", name, err)
		}
	}
}

// corpusBytes reads the []byte of a one-value fuzz corpus file.
func corpusBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var s string
	rest, ok := bytes.CutPrefix(b, []byte("go test fuzz v1\n[]byte("))
	if !ok {
		t.Fatal("not a fuzz corpus file")
	}
	if _, err := fmt.Sscanf(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(")"))), "%q", &s); err != nil {
		t.Fatal(err)
	}
	return []byte(s)
}
