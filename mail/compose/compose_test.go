package compose

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/mail"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/mail/gpgtest"
	"skagerrak/mail/verify"
)

func TestMain(m *testing.M) {
	code := m.Run()
	gpgtest.CloseShared()
	os.Exit(code)
}

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

const orders = "Game: norway-1940\nPhase: 1940-04-09 AM\nSide: German\n- Hipper engage Glowworm\nScharnhorst to Vestfjord   \nFrom Narvik: Diether von Roeder\n"

func newKey(t testing.TB, name, email string) *openpgp.Entity {
	t.Helper()
	e, err := GenerateKey(name, email, t0.Add(-24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func publicList(t testing.TB, e *openpgp.Entity) openpgp.EntityList {
	t.Helper()
	a, err := ArmorPublicKey(e)
	if err != nil {
		t.Fatal(err)
	}
	el, err := ReadPublicKeys(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if el[0].PrivateKey != nil {
		t.Fatal("public export holds a private key")
	}
	return el
}

func report() Message {
	return Message{
		From:      "Skagerrak Host <host@skagerrak.example>",
		To:        "German Player <german@example.org>",
		Subject:   "Norway 1940 — report for 1940-04-09 AM",
		MessageID: "<report-g1-p3-german@skagerrak.example>",
		Date:      t0,
		Text:      "Your forces:\n- Hipper: 2 hits\ntrailing space \nFrom the Admiralty\n",
	}
}

func TestSignRoundTripAndDeterminism(t *testing.T) {
	host := newKey(t, "Skagerrak Host", "host@skagerrak.example")
	hostKeys := publicList(t, host)
	m := report()
	raw, err := Sign(m, host, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("\r\n=46rom the Admiralty")) {
		t.Errorf("a line starting with \"From \" is not protected")
	}
	for _, want := range []string{"mime-version: 1.0\r\n", "message-id: <report-g1-p3-german@skagerrak.example>\r\n",
		"micalg=pgp-sha256", "protocol=\"application/pgp-signature\"", "subject: =?utf-8?", "date: sun, 29 nov 2026 12:00:00 +0000"} {
		if !bytes.Contains(bytes.ToLower(raw), []byte(want)) {
			t.Errorf("message lacks %q:\n%s", want, raw)
		}
	}
	again, err := Sign(m, host, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, again) {
		t.Errorf("same inputs gave different bytes")
	}
	later, _ := Sign(m, host, t0.Add(time.Second))
	if bytes.Equal(raw, later) {
		t.Errorf("a different signature time gave the same bytes")
	}

	res, err := verify.VerifyEnvelope(raw, hostKeys, t0, verify.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fingerprint != Fingerprint(host) || !res.SigTime.Equal(t0) || res.Hash != "SHA256" {
		t.Errorf("envelope %s %v %s", res.Fingerprint, res.SigTime, res.Hash)
	}
	rep, err := ReadReport(raw, hostKeys, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Text != m.Text || rep.Encrypted || len(rep.Attachments) != 0 || rep.Fingerprint != Fingerprint(host) {
		t.Errorf("report %+v", rep)
	}
	// A changed byte in the signed text, or another host key, fails.
	i := bytes.Index(raw, []byte("Hipper"))
	bad := append([]byte{}, raw...)
	bad[i] ^= 1
	if _, err := ReadReport(bad, hostKeys, nil, t0); err == nil {
		t.Errorf("tampered report accepted")
	}
	var rej *verify.Rejection
	if _, err := ReadReport(raw, publicList(t, newKey(t, "Impostor", "x@y.example")), nil, t0); !errors.As(err, &rej) || rej.Reason != verify.ReasonUnknownKey {
		t.Errorf("foreign host key: %v", err)
	}
}

func TestSignAttachments(t *testing.T) {
	host := newKey(t, "Skagerrak Host", "host@skagerrak.example")
	m := report()
	m.Attachments = []Attachment{
		{Name: "orders-form.txt", ContentType: "text/plain; charset=utf-8", Data: []byte("Game: norway-1940\n# your orders\n")},
		{Name: "map.bin", Data: []byte{0, 1, 2, 0xff, '\n', '\r'}},
	}
	raw, err := Sign(m, host, t0)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ReadReport(raw, publicList(t, host), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Text != m.Text || len(rep.Attachments) != 2 {
		t.Fatalf("report %+v", rep)
	}
	for i, a := range m.Attachments {
		got := rep.Attachments[i]
		wantCT := a.ContentType
		if wantCT == "" {
			wantCT = "application/octet-stream"
		}
		if got.Name != a.Name || !bytes.Equal(got.Data, a.Data) || got.ContentType != wantCT {
			t.Errorf("attachment %d: %q %q %q", i, got.Name, got.ContentType, got.Data)
		}
	}
	m.Attachments = append(m.Attachments, Attachment{Name: "evil\nname"})
	if _, err := Sign(m, host, t0); err == nil || !strings.HasPrefix(err.Error(), "compose: ") {
		t.Errorf("bad attachment name: %v", err)
	}
}

func TestSignEncrypt(t *testing.T) {
	host := newKey(t, "Skagerrak Host", "host@skagerrak.example")
	player := newKey(t, "German Player", "german@example.org")
	m := report()
	m.Attachments = []Attachment{{Name: "form.txt", ContentType: "text/plain", Data: []byte("Game: x\n")}}
	raw, err := SignEncrypt(m, host, publicList(t, player)[0], t0)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("Hipper")) {
		t.Fatal("plaintext visible in the encrypted message")
	}
	if !bytes.Contains(raw, []byte("multipart/encrypted")) || !bytes.Contains(raw, []byte("Version: 1")) {
		t.Fatalf("not RFC 3156 multipart/encrypted:\n%s", raw)
	}
	rep, err := ReadReport(raw, publicList(t, host), player, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Encrypted || rep.Text != m.Text || len(rep.Attachments) != 1 || string(rep.Attachments[0].Data) != "Game: x\n" {
		t.Errorf("report %+v", rep)
	}
	if _, err := ReadReport(raw, publicList(t, host), nil, t0); err == nil {
		t.Error("encrypted report read without a key")
	}
	if _, err := ReadReport(raw, publicList(t, host), newKey(t, "Other", "o@example.org"), t0); err == nil {
		t.Error("encrypted report read with the wrong key")
	}
	if _, err := SignEncrypt(m, host, nil, t0); err == nil {
		t.Error("no recipient accepted")
	}
}

// Each player helper's output is accepted by mail/verify with exactly the
// order bytes, and rejected when one byte of the order changes.
func TestPlayerMailRoundTripsThroughVerify(t *testing.T) {
	player := newKey(t, "German Player", "german@example.org")
	keys := publicList(t, player)
	from, to := "German Player <german@example.org>", "host@skagerrak.example"
	cases := []struct {
		name, form, fileName string
		build                func() ([]byte, error)
		signed               string
	}{
		{"cleartext", verify.FormClearsigned, "", func() ([]byte, error) {
			return SignCleartextMail(player, from, to, "orders", orders, t0)
		}, strings.ReplaceAll(orders, "   \n", "\n")}, // trailing whitespace is not signed
		{"pgp-mime body", verify.FormPGPMIME, "", func() ([]byte, error) {
			return SignPGPMIMEMail(player, from, to, "orders", orders, t0)
		}, strings.ReplaceAll(orders, "\n", "\r\n")},
		{"pgp-mime attachment", verify.FormPGPMIME, "orders.txt", func() ([]byte, error) {
			return SignPGPMIMEAttachmentMail(player, from, to, "orders", "my orders attached", "orders.txt", orders, t0)
		}, orders},
		{"detached", verify.FormDetached, "orders.txt", func() ([]byte, error) {
			return SignDetachedMail(player, from, to, "orders", "orders.txt", orders, t0)
		}, orders},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, err := c.build()
			if err != nil {
				t.Fatal(err)
			}
			again, _ := c.build()
			if !bytes.Equal(raw, again) {
				t.Errorf("not deterministic")
			}
			res, err := verify.Verify(raw, keys, t0.Add(time.Minute))
			if err != nil {
				t.Fatalf("%v\n%s", err, raw)
			}
			if res.Form != c.form || string(res.Signed) != c.signed || res.Fingerprint != Fingerprint(player) || res.FileName != c.fileName {
				t.Errorf("result %s %q %s %q", res.Form, res.Signed, res.Fingerprint, res.FileName)
			}
			if _, err := verify.Verify(raw, publicList(t, newKey(t, "X", "x@example.org")), t0); err == nil {
				t.Errorf("accepted with another key set")
			}
			// Change one byte of the order text in the mail. Bodies may be
			// quoted-printable or base64, so flip a byte of the decoded
			// text where it appears literally, else of the base64.
			bad := append([]byte{}, raw...)
			if i := bytes.Index(bad, []byte("Hipper")); i >= 0 {
				bad[i] ^= 1
			} else {
				i = bytes.Index(bad, []byte("R2FtZTog")) // base64 of "Game: "
				if i < 0 {
					t.Fatal("order text not found")
				}
				bad[i] = 'S'
			}
			if _, err := verify.Verify(bad, keys, t0.Add(time.Minute)); err == nil {
				t.Errorf("tampered mail accepted")
			}
		})
	}
}

// Signatures made here verify with GnuPG, and a GnuPG-made key signs here.
func TestGnuPGInterop(t *testing.T) {
	g := gpgtest.Shared(t)
	player := newKey(t, "Interop Player", "interop@example.org")
	pub, _ := ArmorPublicKey(player)
	g.Import(pub)
	raw, err := SignPGPMIMEMail(player, "interop@example.org", "host@skagerrak.example", "orders", orders, t0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := verify.Verify(raw, publicList(t, player), t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Verify(armorFree(t, res.Signature), res.Covered); err != nil {
		t.Errorf("gpg rejects the PGP/MIME signature: %v", err)
	}
	clear, err := SignCleartextMail(player, "interop@example.org", "host@skagerrak.example", "orders", orders, t0)
	if err != nil {
		t.Fatal(err)
	}
	cres, err := verify.Verify(clear, publicList(t, player), t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Verify(armorFree(t, cres.Signature), cres.Covered); err != nil {
		t.Errorf("gpg rejects the cleartext signature: %v", err)
	}

	const uid = "Gpg Made <gpgmade@example.org>"
	fpr := g.GenKey(uid, "rsa3072", "sign", "1d")
	key, err := ReadPrivateKey(bytes.NewReader(g.ExportSecret(uid)))
	if err != nil {
		t.Fatal(err)
	}
	if Fingerprint(key) != fpr {
		t.Fatalf("fingerprint %s, gpg says %s", Fingerprint(key), fpr)
	}
	now := time.Now()
	det, err := SignDetachedMail(key, "gpgmade@example.org", "host@skagerrak.example", "orders", "o.txt", orders, now)
	if err != nil {
		t.Fatal(err)
	}
	dres, err := verify.Verify(det, publicList(t, key), now)
	if err != nil {
		t.Fatal(err)
	}
	if dres.Fingerprint != fpr {
		t.Errorf("fingerprint %s", dres.Fingerprint)
	}
}

// armorFree returns the binary signature as is (gpg reads binary .sig).
func armorFree(t *testing.T, sig []byte) []byte {
	t.Helper()
	if len(sig) == 0 || sig[0]&0x80 == 0 {
		t.Fatal("signature is not a binary packet")
	}
	return sig
}

func TestKeyHelpers(t *testing.T) {
	e := newKey(t, "Host", "host@skagerrak.example")
	priv, err := ArmorPrivateKey(e)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadPrivateKey(bytes.NewReader(priv))
	if err != nil {
		t.Fatal(err)
	}
	if Fingerprint(back) != Fingerprint(e) || len(Fingerprint(e)) != 40 || strings.ToUpper(Fingerprint(e)) != Fingerprint(e) {
		t.Errorf("fingerprint %s / %s", Fingerprint(back), Fingerprint(e))
	}
	if _, ok := back.EncryptionKey(t0, nil); !ok {
		t.Error("generated key has no encryption subkey")
	}
	if back.PrimaryKey.PubKeyAlgo != packet.PubKeyAlgoEdDSA {
		t.Errorf("algorithm %v, want EdDSA", back.PrimaryKey.PubKeyAlgo)
	}
	pub, _ := ArmorPublicKey(e)
	if _, err := ReadPrivateKey(bytes.NewReader(pub)); err == nil || !strings.HasPrefix(err.Error(), "compose: ") {
		t.Errorf("public key read as private: %v", err)
	}
	locked := newKey(t, "Locked", "l@example.org")
	if err := locked.EncryptPrivateKeys([]byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	lp, _ := ArmorPrivateKey(locked)
	if _, err := ReadPrivateKey(bytes.NewReader(lp)); err == nil || !strings.Contains(err.Error(), "passphrase") {
		t.Errorf("protected key: %v", err)
	}
	if got := FormatFingerprint("0123456789abcdef0123456789ABCDEF01234567"); got != "0123 4567 89AB CDEF 0123  4567 89AB CDEF 0123 4567" {
		t.Errorf("FormatFingerprint: %q", got)
	}
}

func TestMessageErrors(t *testing.T) {
	host := newKey(t, "Host", "host@skagerrak.example")
	for name, mutate := range map[string]func(*Message){
		"bad From":       func(m *Message) { m.From = "not an address" },
		"bad To":         func(m *Message) { m.To = "" },
		"no Message-ID":  func(m *Message) { m.MessageID = "" },
		"bad Message-ID": func(m *Message) { m.MessageID = "<a b@c>" },
		"no Date":        func(m *Message) { m.Date = time.Time{} },
	} {
		m := report()
		mutate(&m)
		if _, err := Sign(m, host, t0); err == nil || !strings.HasPrefix(err.Error(), "compose: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Sign(report(), &openpgp.Entity{PrimaryKey: host.PrimaryKey}, t0); err == nil {
		t.Error("signing without a private key")
	}
}

func TestReadPrivateKeyWithPassphrase(t *testing.T) {
	g := gpgtest.New(t)
	g.Run(nil, "--pinentry-mode", "loopback", "--passphrase", "s3cret", "--quick-gen-key", "Host <host@example.org>", "ed25519", "sign", "never")
	armored := g.Run(nil, "--pinentry-mode", "loopback", "--passphrase", "s3cret", "--armor", "--export-secret-keys", "host@example.org")
	if _, err := ReadPrivateKey(bytes.NewReader(armored)); err == nil || !strings.Contains(err.Error(), "passphrase") {
		t.Fatalf("a protected key without its passphrase: %v", err)
	}
	if _, err := ReadPrivateKeyWithPassphrase(bytes.NewReader(armored), []byte("wrong")); err == nil {
		t.Fatal("a wrong passphrase unlocked the key")
	}
	k, err := ReadPrivateKeyWithPassphrase(bytes.NewReader(armored), []byte("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := Sign(Message{From: "host@example.org", To: "a@example.org", Subject: "report", MessageID: "<x@y>", Date: time.Now(), Text: "hello\n"}, k, time.Now())
	if err != nil || !bytes.Contains(raw, []byte("multipart/signed")) {
		t.Fatalf("signing with the unlocked key: %v", err)
	}
}

// TestAutocryptHeader: a report carrying the host's key in an Autocrypt
// header (RFC-like Autocrypt Level 1), outside the signature and the
// encryption, from which a client reads the key to encrypt to.
func TestAutocryptHeader(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	host, err := GenerateKey("Host", "host@skagerrak.example", at.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	player, err := GenerateKey("Ed", "ed@example.org", at.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	kd, err := AutocryptKeydata(host)
	if err != nil {
		t.Fatal(err)
	}
	m := Message{From: "Skagerrak <host@skagerrak.example>", To: "ed@example.org", Subject: "report", MessageID: "<r1@skagerrak.example>", Date: at, Text: "hello\n", Autocrypt: kd}
	for name, raw := range map[string]func() ([]byte, error){
		"signed":    func() ([]byte, error) { return Sign(m, host, at) },
		"encrypted": func() ([]byte, error) { return SignEncrypt(m, host, player, at) },
	} {
		b, err := raw()
		if err != nil {
			t.Fatal(err)
		}
		msg, err := mail.ReadMessage(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		v := msg.Header.Get("Autocrypt")
		attrs := map[string]string{}
		for _, a := range strings.Split(v, ";") {
			k, val, _ := strings.Cut(strings.TrimSpace(a), "=")
			attrs[k] = val
		}
		if attrs["addr"] != "host@skagerrak.example" || attrs["prefer-encrypt"] != "mutual" {
			t.Errorf("%s: Autocrypt %q", name, v)
		}
		for _, line := range strings.Split(string(b[:bytes.Index(b, []byte("\r\n\r\n"))]), "\r\n") {
			if len(line) > 78 {
				t.Errorf("%s: header line of %d characters", name, len(line))
			}
		}
		key, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(attrs["keydata"]), ""))
		if err != nil {
			t.Fatalf("%s: keydata: %v", name, err)
		}
		el, err := openpgp.ReadKeyRing(bytes.NewReader(key))
		if err != nil || len(el) != 1 || el[0].PrivateKey != nil || !bytes.Equal(el[0].PrimaryKey.Fingerprint, host.PrimaryKey.Fingerprint) {
			t.Fatalf("%s: keydata is not the host's public key: %v", name, err)
		}
		if _, ok := el[0].EncryptionKey(at, nil); !ok {
			t.Errorf("%s: keydata has no encryption key", name)
		}
	}
}
