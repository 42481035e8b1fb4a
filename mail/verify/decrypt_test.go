package verify

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/mail/gpgtest"
)

const hostUID = "Host <host@skagerrak.example>"

var (
	hostOnce sync.Once
	hostKey  *openpgp.Entity
)

// hostFixture is the host's private key (go-crypto's default: Ed25519 with
// a Curve25519 encryption subkey, as compose.GenerateKey makes), its
// public key imported into the shared GnuPG home for players to encrypt to.
func hostFixture(t testing.TB) (*gpgtest.GPG, *fixture, openpgp.EntityList) {
	t.Helper()
	g, f := gpgFixture(t)
	hostOnce.Do(func() {
		hostKey = goKey(t, hostUID, time.Now().Add(-time.Hour), 0)
		var pub bytes.Buffer
		w, _ := armor.Encode(&pub, openpgp.PublicKeyType, nil)
		hostKey.Serialize(w)
		w.Close()
		g.Import(pub.Bytes())
	})
	return g, f, openpgp.EntityList{hostKey}
}

var otherOnce sync.Once

// otherEncrypts gives the stranger's key an encryption subkey.
func otherEncrypts(g *gpgtest.GPG, f *fixture) {
	otherOnce.Do(func() { g.Run(nil, "--quick-add-key", f.otherFpr, "cv25519", "encr", "1d") })
}

// encryptTo runs gpg --encrypt --armor to the host, signing in the same
// pass by signer when it is not "".
func encryptTo(g *gpgtest.GPG, recipient, signer string, data []byte) []byte {
	args := []string{"--trust-model", "always", "--armor", "--recipient", recipient}
	if signer != "" {
		args = append(args, "--local-user", signer, "--sign")
	}
	return g.Run(data, append(args, "--encrypt")...)
}

// encryptedMessage is RFC 3156 multipart/encrypted around an armored
// OpenPGP message, as mutt and compose build it.
func encryptedMessage(armored []byte) []byte {
	return []byte(mailHeader("Content-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\";\r\n boundary=\"enc-boundary-1\"\r\n\r\n") +
		"This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)\r\n" +
		"--enc-boundary-1\r\nContent-Type: application/pgp-encrypted\r\nContent-Description: PGP/MIME version identification\r\n\r\nVersion: 1\r\n\r\n" +
		"--enc-boundary-1\r\nContent-Type: application/octet-stream; name=\"encrypted.asc\"\r\nContent-Description: OpenPGP encrypted message\r\n" +
		"Content-Disposition: inline; filename=\"encrypted.asc\"\r\n\r\n" + crlf(string(armored)) + "\r\n--enc-boundary-1--\r\n")
}

// signedEntity is the multipart/signed entity of a clear PGP/MIME message
// (its Content-Type header and body, without the mail header).
func signedEntity(t testing.TB, clear []byte) []byte {
	t.Helper()
	i := bytes.Index(clear, []byte("Content-Type: multipart/signed"))
	if i < 0 {
		t.Fatal("no multipart/signed header")
	}
	return clear[i:]
}

// mustDecrypt decrypts raw with the host key and verifies the result.
func mustDecrypt(t testing.TB, raw []byte, host openpgp.EntityList, keys openpgp.KeyRing, shape string) (*Decrypted, *Result) {
	t.Helper()
	d, err := Decrypt(raw, host, time.Now(), Limits{})
	if err != nil || d == nil {
		t.Fatalf("Decrypt: %v, %v", d, err)
	}
	if d.Shape != shape {
		t.Errorf("shape %q, want %q", d.Shape, shape)
	}
	res, err := Verify(d.Message, keys, time.Now())
	if err != nil {
		t.Fatalf("Verify of the decrypted message: %v\n%s", err, d.Message)
	}
	if bytes.Contains(d.Message, []byte("BEGIN PGP MESSAGE")) {
		t.Errorf("the decrypted message still holds the encrypted data")
	}
	return d, res
}

func TestDecryptSignedThenEncrypted(t *testing.T) {
	g, f, host := hostFixture(t)
	clear := gpgPGPMIME(t, g, edUID, textPart(orderText))
	want := mustAccept(t, clear, f.keys, time.Now())
	entity := signedEntity(t, clear)
	raw := encryptedMessage(encryptTo(g, hostUID, "", entity))
	_, res := mustDecrypt(t, raw, host, f.keys, ShapeSignedThenEncrypted)
	checkResult(t, res, FormPGPMIME, f.edFpr, []byte(crlf(orderText)))
	if res.Identity != want.Identity {
		t.Errorf("identity of the encrypted copy differs from the clear message's")
	}
	// Encrypted again (a new session key): the same message, one identity.
	again := encryptedMessage(encryptTo(g, hostUID, "", entity))
	if bytes.Equal(again, raw) {
		t.Fatal("gpg drew the same session key twice")
	}
	if _, res2 := mustDecrypt(t, again, host, f.keys, ShapeSignedThenEncrypted); res2.Identity != res.Identity {
		t.Errorf("re-encrypted copy has another identity")
	}
	// Encrypted to the host and another key: the same message.
	otherEncrypts(g, f)
	both := g.Run(entity, "--trust-model", "always", "--armor", "--recipient", hostUID, "--recipient", otherUID, "--encrypt")
	if _, res3 := mustDecrypt(t, encryptedMessage(both), host, f.keys, ShapeSignedThenEncrypted); res3.Identity != res.Identity {
		t.Errorf("copy encrypted to more recipients has another identity")
	}
}

func TestDecryptEncryptedAndSignedOnePass(t *testing.T) {
	g, f, host := hostFixture(t)
	entity := textPart(orderText)
	raw := encryptedMessage(encryptTo(g, hostUID, edUID, entity))
	d, res := mustDecrypt(t, raw, host, f.keys, ShapeEncryptedAndSigned)
	checkResult(t, res, FormPGPMIME, f.edFpr, []byte(crlf(orderText)))
	if !d.Signed {
		t.Error("one-pass message not marked signed")
	}
	// The same signed packets under a new session key: one identity.
	again := encryptedMessage(reencrypt(t, host, raw))
	if _, res2 := mustDecrypt(t, again, host, f.keys, ShapeEncryptedAndSigned); res2.Identity != res.Identity {
		t.Errorf("re-encrypted one-pass message has another identity")
	}
	// The decrypted message checks again alone, without the host key.
	if res3, err := Verify(d.Message, f.keys, time.Now()); err != nil || res3.Identity != res.Identity {
		t.Errorf("replay of the decrypted message: %v", err)
	}
	// Signed by a key the game does not know: Verify says unknown-key.
	stranger := encryptedMessage(encryptTo(g, hostUID, otherUID, entity))
	d, err := Decrypt(stranger, host, time.Now(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	mustReject(t, d.Message, f.keys, time.Now(), ReasonUnknownKey)
}

func TestDecryptInline(t *testing.T) {
	g, f, host := hostFixture(t)
	armored := encryptTo(g, hostUID, edUID, []byte(orderText))
	raw := textMessage("\n" + string(armored) + "\n")
	_, res := mustDecrypt(t, raw, host, f.keys, ShapeInline)
	checkResult(t, res, FormDetached, f.edFpr, []byte(orderText))
	// Encrypted but not signed: Verify refuses it as unsigned.
	d, err := Decrypt(textMessage(string(encryptTo(g, hostUID, "", []byte(orderText)))), host, time.Now(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	mustReject(t, d.Message, f.keys, time.Now(), ReasonUnsigned)
	// Text around the block: not this shape (Verify refuses it).
	if d, err := Decrypt(textMessage("my orders:\n"+string(armored)), host, time.Now(), Limits{}); d != nil || err != nil {
		t.Errorf("text before the block: %v %v", d, err)
	}
	// A signed, unencrypted PGP MESSAGE is left to Verify.
	signedOnly := g.Run([]byte(orderText), "--local-user", edUID, "--armor", "--sign")
	if d, err := Decrypt(textMessage(string(signedOnly)), host, time.Now(), Limits{}); d != nil || err != nil {
		t.Errorf("signed PGP MESSAGE: %v %v", d, err)
	}
}

// TestDecryptThunderbirdShape is a fixture built by hand after
// Thunderbird's structure: multipart/encrypted with its version part and
// an octet-stream encrypted.asc, whose plaintext is a multipart/signed
// around a multipart/mixed carrying protected headers (a text/plain part
// of the Subject, From and To) and the order file as an attachment, and a
// public key attachment.
func TestDecryptThunderbirdShape(t *testing.T) {
	g, f, host := hostFixture(t)
	mixed := []byte("Content-Type: multipart/mixed; boundary=\"------------tb-mixed-1\";\r\n protected-headers=\"v1\"\r\n" +
		"Subject: orders\r\nFrom: Ed Player <ed@example.org>\r\nTo: host@skagerrak.example\r\nMessage-ID: <tb-1@example.org>\r\n\r\n" +
		"This is a multi-part message in MIME format.\r\n" +
		"--------------tb-mixed-1\r\nContent-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n\r\nMy orders attached.\r\n\r\n" +
		"--------------tb-mixed-1\r\nContent-Type: text/plain; charset=UTF-8; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\n" +
		"Content-Transfer-Encoding: base64\r\n\r\n" + string(base64Lines([]byte(orderText))) + "\r\n" +
		"--------------tb-mixed-1\r\nContent-Type: application/pgp-keys; name=\"OpenPGP_0xED.asc\"\r\nContent-Disposition: attachment; filename=\"OpenPGP_0xED.asc\"\r\n" +
		"Content-Description: OpenPGP public key\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + crlf(string(g.ExportPublic(edUID))) + "\r\n" +
		"--------------tb-mixed-1--\r\n")
	sig := g.DetachSign(edUID, mixed, true, "--digest-algo", "SHA256")
	signed := []byte("Content-Type: multipart/signed; micalg=pgp-sha256;\r\n protocol=\"application/pgp-signature\";\r\n boundary=\"------------tb-signed-1\"\r\n\r\n" +
		"This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\r\n--------------tb-signed-1\r\n" + string(mixed) +
		"\r\n--------------tb-signed-1\r\nContent-Type: application/pgp-signature; name=\"OpenPGP_signature.asc\"\r\n" +
		"Content-Description: OpenPGP digital signature\r\nContent-Disposition: attachment; filename=\"OpenPGP_signature.asc\"\r\n\r\n" +
		crlf(string(sig)) + "\r\n--------------tb-signed-1--\r\n")
	enc := encryptTo(g, hostUID, "", signed)
	raw := []byte("From: Ed Player <ed@example.org>\r\nTo: host@skagerrak.example\r\nSubject: ...\r\nMessage-ID: <tb-1@example.org>\r\n" +
		"Date: Sun, 29 Nov 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nUser-Agent: Mozilla Thunderbird\r\n" +
		"Content-Type: multipart/encrypted;\r\n protocol=\"application/pgp-encrypted\";\r\n boundary=\"------------tb-enc-1\"\r\n\r\n" +
		"This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)\r\n" +
		"--------------tb-enc-1\r\nContent-Type: application/pgp-encrypted\r\nContent-Description: PGP/MIME version identification\r\n\r\nVersion: 1\r\n\r\n" +
		"--------------tb-enc-1\r\nContent-Type: application/octet-stream; name=\"encrypted.asc\"\r\nContent-Description: OpenPGP encrypted message\r\n" +
		"Content-Disposition: inline; filename=\"encrypted.asc\"\r\n\r\n" + crlf(string(enc)) + "\r\n--------------tb-enc-1--\r\n")
	_, res := mustDecrypt(t, raw, host, f.keys, ShapeSignedThenEncrypted)
	checkResult(t, res, FormPGPMIME, f.edFpr, []byte(orderText))
	if len(res.Ignored) != 2 {
		t.Errorf("ignored %q, want the note and the key", res.Ignored)
	}
}

func TestDecryptRefusals(t *testing.T) {
	g, f, host := hostFixture(t)
	entity := textPart(orderText)
	t.Run("encrypted to another key", func(t *testing.T) {
		otherEncrypts(g, f)
		raw := encryptedMessage(encryptTo(g, otherUID, edUID, entity))
		rej := mustRejectDecrypt(t, raw, host, ReasonNotForHost)
		if !strings.Contains(rej.Detail, "not to the host's key "+fmt.Sprintf("%X", host[0].PrimaryKey.Fingerprint)) {
			t.Errorf("detail %q does not name the host key", rej.Detail)
		}
	})
	t.Run("compression bomb", func(t *testing.T) {
		big := bytes.Repeat([]byte("0"), 4<<20)
		raw := encryptedMessage(g.Run(big, "--trust-model", "always", "--armor", "--compress-algo", "zlib", "--recipient", hostUID, "--encrypt"))
		if len(raw) > 1<<20 {
			t.Fatalf("the bomb is %d bytes, not small", len(raw))
		}
		mustRejectDecrypt(t, raw, host, ReasonTooLarge)
	})
	t.Run("damaged ciphertext", func(t *testing.T) {
		enc := encryptTo(g, hostUID, edUID, entity)
		blk, _ := armor.Decode(bytes.NewReader(enc))
		var bin bytes.Buffer
		bin.ReadFrom(blk.Body)
		b := bin.Bytes()
		b[len(b)-5] ^= 0x40
		mustRejectDecrypt(t, encryptedMessage(armorMessage(b)), host, ReasonBadEncryption)
	})
	t.Run("three parts", func(t *testing.T) {
		raw := bytes.Replace(encryptedMessage(encryptTo(g, hostUID, edUID, entity)), []byte("\r\n--enc-boundary-1--"),
			[]byte("\r\n--enc-boundary-1\r\nContent-Type: text/plain\r\n\r\nhi\r\n--enc-boundary-1--"), 1)
		mustRejectDecrypt(t, raw, host, ReasonBadEncryption)
	})
	t.Run("clear mail is not for Decrypt", func(t *testing.T) {
		if d, err := Decrypt(gpgPGPMIME(t, g, edUID, entity), host, time.Now(), Limits{}); d != nil || err != nil {
			t.Errorf("clear PGP/MIME: %v %v", d, err)
		}
	})
}

func mustRejectDecrypt(t testing.TB, raw []byte, host openpgp.EntityList, reason string) *Rejection {
	t.Helper()
	d, err := Decrypt(raw, host, time.Now(), Limits{})
	var rej *Rejection
	if !errors.As(err, &rej) || rej.Reason != reason {
		t.Fatalf("Decrypt gave %v, %v; want rejection %q", d, err, reason)
	}
	return rej
}

func armorMessage(bin []byte) []byte {
	var b bytes.Buffer
	w, _ := armor.Encode(&b, "PGP MESSAGE", nil)
	w.Write(bin)
	w.Close()
	return b.Bytes()
}

// reencrypt decrypts the OpenPGP message inside an encrypted mail with
// the host key and encrypts its packets as they are (the one-pass
// signature, literal and signature, compressed or not) under a new
// session key: what anyone holding a session key could send on.
func reencrypt(t testing.TB, host openpgp.EntityList, raw []byte) []byte {
	t.Helper()
	i := bytes.Index(raw, []byte("-----BEGIN PGP MESSAGE"))
	j := bytes.Index(raw, []byte("-----END PGP MESSAGE-----"))
	blk, err := armor.Decode(bytes.NewReader(raw[i : j+len("-----END PGP MESSAGE-----")]))
	if err != nil {
		t.Fatal(err)
	}
	r := packet.NewReader(blk.Body)
	var ek *packet.EncryptedKey
	for {
		p, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch p := p.(type) {
		case *packet.EncryptedKey:
			for _, k := range host[0].DecryptionKeys(p.KeyId, time.Time{}, nil) {
				if p.Decrypt(k.PrivateKey, nil) == nil {
					ek = p
				}
			}
		case packet.EncryptedDataPacket:
			if ek == nil {
				t.Fatal("no session key for the host")
			}
			pr, err := p.Decrypt(ek.CipherFunc, ek.Key)
			if err != nil {
				t.Fatal(err)
			}
			var inner bytes.Buffer
			if _, err := inner.ReadFrom(pr); err != nil {
				t.Fatal(err)
			}
			if err := pr.Close(); err != nil {
				t.Fatal(err)
			}
			return armorMessage(encryptPackets(t, host, inner.Bytes()))
		}
	}
}

// encryptPackets encrypts an OpenPGP packet sequence as it is to the host
// under a fresh session key.
func encryptPackets(t testing.TB, host openpgp.EntityList, inner []byte) []byte {
	t.Helper()
	cfg := &packet.Config{}
	key := make([]byte, 32)
	if _, err := cfg.Random().Read(key); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	enc, ok := host[0].EncryptionKey(time.Now(), nil)
	if !ok {
		t.Fatal("host key has no encryption key")
	}
	if err := packet.SerializeEncryptedKeyAEAD(&out, enc.PublicKey, packet.CipherAES256, false, key, cfg); err != nil {
		t.Fatal(err)
	}
	w, err := packet.SerializeSymmetricallyEncrypted(&out, packet.CipherAES256, false, packet.CipherSuite{}, key, cfg)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(inner)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
