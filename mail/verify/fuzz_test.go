package verify

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/mail/malleate"
)

// fuzzAt is the receipt time of the fuzz seeds; testdata/fuzzkey.asc is a
// throwaway Ed25519 key created 2026-01-01 without expiry.
var fuzzAt = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// fuzzKey reads the checked-in throwaway fuzz key (private part included, so
// that the corpus writer can sign with it).
func fuzzKey(t testing.TB) *openpgp.Entity {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "fuzzkey.asc"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	el, err := openpgp.ReadArmoredKeyRing(f)
	if err != nil || len(el) != 1 {
		t.Fatalf("fuzz key: %v", err)
	}
	return el[0]
}

// checkOutcome asserts the invariants of any Verify outcome.
func checkOutcome(t *testing.T, res *Result, err error) {
	if err != nil {
		var rej *Rejection
		if !errors.As(err, &rej) || res != nil {
			t.Fatalf("error %T %v with result %v", err, err, res)
		}
		for _, r := range rej.Error() {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("control character in %q", rej.Error())
			}
		}
		return
	}
	if res == nil || res.Fingerprint == "" || res.PacketHash != sha256.Sum256(res.Signature) {
		t.Fatalf("inconsistent result %+v", res)
	}
}

// FuzzVerify feeds whole messages to Verify with the fuzz key known.
func FuzzVerify(f *testing.F) {
	keys := openpgp.EntityList{fuzzKey(f)}
	f.Add([]byte("From: a@b\r\n\r\nhello\r\n"))
	f.Add([]byte("Content-Type: multipart/signed; protocol=\"application/pgp-signature\"; boundary=x\r\n\r\n--x\r\n\r\nhi\r\n--x\r\nContent-Type: application/pgp-signature\r\n\r\n-----BEGIN PGP SIGNATURE-----\r\n\r\n-----END PGP SIGNATURE-----\r\n--x--\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		res, err := Verify(raw, keys, fuzzAt)
		checkOutcome(t, res, err)
	})
}

// FuzzSignaturePart feeds signature parts (armored or binary OpenPGP) to
// the packet layer.
func FuzzSignaturePart(f *testing.F) {
	keys := openpgp.EntityList{fuzzKey(f)}
	f.Add([]byte("-----BEGIN PGP SIGNATURE-----\n\n-----END PGP SIGNATURE-----\n"))
	f.Add([]byte{0xc2, 0x01, 0x04})
	f.Fuzz(func(t *testing.T, b []byte) {
		lim := DefaultLimits()
		sp, rej := readSignature(b, lim)
		if rej != nil {
			return
		}
		c, rej := checkSignature(sp, []byte("data"), keys, fuzzAt, lim)
		if rej == nil && c.fingerprint == "" {
			t.Fatal("accepted without fingerprint")
		}
	})
}

// FuzzMIME feeds raw entities to the MIME parser and the transfer decoders.
func FuzzMIME(f *testing.F) {
	f.Add([]byte("Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nx\r\n--b--\r\n"))
	f.Add([]byte("Content-Transfer-Encoding: base64\n\naGVsbG8=\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		p := &parser{lim: DefaultLimits()}
		e, rej := p.parse(raw, 0)
		if rej != nil {
			return
		}
		var walk func(*entity)
		walk = func(e *entity) {
			if len(e.children) == 0 {
				decodeBody(e)
				fileName(e)
				isAttachment(e)
			}
			for _, c := range e.children {
				walk(c)
			}
		}
		walk(e)
		signatureMarks(e)
		canonicalCRLF(raw)
	})
}

// TestWriteFuzzCorpus regenerates testdata/fuzz seeds (valid messages of
// each form signed with the fuzz key, and hostile shapes) when
// SKAGERRAK_WRITE_FUZZ_CORPUS=1; otherwise it checks that the checked-in
// valid seeds still verify.
func TestWriteFuzzCorpus(t *testing.T) {
	key := fuzzKey(t)
	keys := openpgp.EntityList{key}
	when := fuzzAt.Add(-time.Hour)
	inner := textPart(orderText)
	pgpmime := signedMessage(stdParams, inner, sigPart(armorSig(t, rawSign(t, key, canonicalCRLF(inner), crypto.SHA256, when), nil)))
	data := []byte(orderText)
	detached := mixedMessage(filePart("text/plain", "orders.txt", "8bit", data),
		filePart("application/pgp-signature", "orders.txt.asc", "7bit", armorSig(t, rawSign(t, key, data, crypto.SHA256, when), nil)))
	valid := map[string][]byte{"pgp-mime": pgpmime, "detached": detached}
	for name, raw := range valid {
		if _, err := Verify(raw, keys, fuzzAt); err != nil {
			t.Fatalf("seed %s: %v", name, err)
		}
	}
	if os.Getenv("SKAGERRAK_WRITE_FUZZ_CORPUS") != "1" {
		dir := filepath.Join("testdata", "fuzz", "FuzzVerify")
		for name := range valid {
			b, err := os.ReadFile(filepath.Join(dir, "seed-"+name))
			if err != nil {
				t.Fatalf("checked-in seed: %v", err)
			}
			if !bytes.HasPrefix(b, []byte("go test fuzz v1\n[]byte(")) {
				t.Fatalf("seed %s is not a fuzz corpus file", name)
			}
		}
		return
	}
	hostile := map[string][]byte{
		"mixed-prepended": mixedMessage(textPart("unsigned"), pgpmime),
		"deep":            bytes.Repeat([]byte("Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"), 20),
		"three-parts":     signedMessage(stdParams, inner, sigPart([]byte("x")), sigPart([]byte("y"))),
		"clear-text":      textMessage("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nhi\n-----BEGIN PGP SIGNATURE-----\n\n-----END PGP SIGNATURE-----\n"),
		"lf-only":         bytes.ReplaceAll(pgpmime, []byte("\r\n"), []byte("\n")),
	}
	write := func(target, name string, b []byte) {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		content := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
		if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, raw := range valid {
		write("FuzzVerify", name, raw)
		write("FuzzMIME", name, raw)
	}
	for name, raw := range hostile {
		write("FuzzVerify", name, raw)
		write("FuzzMIME", name, raw)
	}
	sig := rawSign(t, key, []byte("data"), crypto.SHA256, when)
	write("FuzzSignaturePart", "binary", sig)
	write("FuzzSignaturePart", "armored", armorSig(t, sig, map[string]string{"Comment": "seed"}))
	write("FuzzSignaturePart", "two", append(append([]byte{}, sig...), sig...))
	write("FuzzSignaturePart", "no-issuer", stripIssuer(t, sig))
}

// FuzzSignatureIdentity mutates a valid signature packet over fixed data
// (the seeds: the packet, reframed, with unhashed subpackets added, inside
// a compressed packet, armored) and requires every mutation to be refused,
// or accepted with the original's canonical identity: no change anyone
// can make without the key makes a new message.
func FuzzSignatureIdentity(f *testing.F) {
	key := fuzzKey(f)
	keys := openpgp.EntityList{key}
	data := []byte(orderText)
	sig := rawSign(f, key, data, crypto.SHA256, fuzzAt.Add(-time.Hour))
	lim := DefaultLimits()
	sp, rej := readSignature(sig, lim)
	if rej != nil {
		f.Fatal(rej)
	}
	orig, rej := checkSignature(sp, data, keys, fuzzAt, lim)
	if rej != nil {
		f.Fatal(rej)
	}
	seeds := [][]byte{sig, armorSig(f, sig, map[string]string{"Comment": "seed"})}
	if p, err := malleate.Reframe(sig, malleate.OldLen2); err == nil {
		seeds = append(seeds, p)
	}
	if s, err := malleate.ParseSig(sig); err == nil {
		s.Unhashed = append(s.Unhashed, malleate.Subpacket(101, []byte("x"), 5))
		seeds = append(seeds, s.Packet())
	}
	if p, err := malleate.Compress(sig, malleate.ZLIB, malleate.NewLen5); err == nil {
		seeds = append(seeds, p)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sp, rej := readSignature(b, lim)
		if rej != nil {
			return
		}
		c, rej := checkSignature(sp, data, keys, fuzzAt, lim)
		if rej != nil {
			return
		}
		if c.identity != orig.identity || c.fingerprint != orig.fingerprint {
			t.Fatalf("a mutated signature verifies as a new message: identity %x, want %x", c.identity, orig.identity)
		}
	})
}
