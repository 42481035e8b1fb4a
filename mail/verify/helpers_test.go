package verify

import (
	"bytes"
	"crypto"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/mail/gpgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	gpgtest.CloseShared()
	os.Exit(code)
}

const (
	edUID    = "Ed Player <ed@example.org>"
	rsaUID   = "Rsa Player <rsa@example.org>"
	otherUID = "Stranger <stranger@example.org>"
)

// orderText is a small order file; its dash lines exercise dash-escaping.
const orderText = "Game: norway-1940\nPhase: 1940-04-09 AM\nSide: Allied\n# first moves\n- Warspite to Vestfjord\n-- standing orders follow\nHMS Glowworm shadow Hipper\n"

// fixture holds the GnuPG keys shared by all tests of the binary.
type fixture struct {
	edFpr, rsaFpr, otherFpr string
	keys                    openpgp.EntityList // ed and rsa, not other
	otherKeys               openpgp.EntityList // other only
}

var (
	fxOnce sync.Once
	fx     *fixture
	fxErr  error
)

// gpgFixture returns the shared GnuPG home bound to t and its keys.
func gpgFixture(t testing.TB) (*gpgtest.GPG, *fixture) {
	t.Helper()
	g := gpgtest.Shared(t)
	fxOnce.Do(func() {
		f := &fixture{}
		f.edFpr = g.GenKey(edUID, "ed25519", "sign", "1d")
		f.rsaFpr = g.GenKey(rsaUID, "rsa3072", "sign", "1d")
		f.otherFpr = g.GenKey(otherUID, "ed25519", "sign", "1d")
		var err error
		f.keys, err = ReadKeys(bytes.NewReader(g.ExportPublic(edUID)), bytes.NewReader(g.ExportPublic(rsaUID)))
		if err != nil {
			fxErr = err
			return
		}
		f.otherKeys, fxErr = ReadKeys(bytes.NewReader(g.ExportPublic(otherUID)))
		fx = f
	})
	if fx == nil {
		t.Fatalf("gpg fixture failed: %v", fxErr)
	}
	return g, fx
}

// crlf turns every bare LF of s into CRLF.
func crlf(s string) string { return string(canonicalCRLF([]byte(s))) }

// mailHeader is a plain RFC 5322 header; extra lines (CRLF-terminated) are
// appended.
func mailHeader(extra string) string {
	return "From: Ed Player <ed@example.org>\r\n" +
		"To: host@skagerrak.example\r\n" +
		"Subject: orders\r\n" +
		"Date: Sun, 29 Nov 2026 12:00:00 +0000\r\n" +
		"Message-ID: <orders-1@example.org>\r\n" +
		"MIME-Version: 1.0\r\n" + extra
}

// textPart is a signed text/plain entity as mail clients build it.
func textPart(body string) []byte {
	return []byte("Content-Type: text/plain; charset=utf-8\r\n" +
		"Content-Transfer-Encoding: 7bit\r\n\r\n" + crlf(body))
}

// signedMessage assembles a multipart/signed message from the Content-Type
// parameters, the signed entity and the signature part's body.
func signedMessage(params string, inner []byte, sigParts ...[]byte) []byte {
	var b strings.Builder
	b.WriteString(mailHeader("Content-Type: multipart/signed;" + params + "\r\n boundary=\"sig-boundary-1\"\r\n\r\n"))
	b.WriteString("This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\r\n")
	b.WriteString("--sig-boundary-1\r\n")
	b.Write(inner)
	for _, sp := range sigParts {
		b.WriteString("\r\n--sig-boundary-1\r\n")
		b.Write(sp)
	}
	b.WriteString("\r\n--sig-boundary-1--\r\n")
	return []byte(b.String())
}

// sigPart is the second part of multipart/signed around an armored signature.
func sigPart(armored []byte) []byte {
	return []byte("Content-Type: application/pgp-signature; name=\"signature.asc\"\r\n" +
		"Content-Description: OpenPGP digital signature\r\n" +
		"Content-Disposition: attachment; filename=\"signature.asc\"\r\n\r\n" + crlf(string(armored)))
}

const stdParams = " micalg=pgp-sha256;\r\n protocol=\"application/pgp-signature\";"

// gpgPGPMIME builds a PGP/MIME message exactly as a mail client does: gpg
// signs the canonical CRLF bytes of the first part.
func gpgPGPMIME(t testing.TB, g *gpgtest.GPG, uid string, inner []byte) []byte {
	t.Helper()
	sig := g.DetachSign(uid, canonicalCRLF(inner), true, "--digest-algo", "SHA256")
	return signedMessage(stdParams, inner, sigPart(sig))
}

// mixedMessage assembles a multipart/mixed root from whole parts.
func mixedMessage(parts ...[]byte) []byte {
	var b strings.Builder
	b.WriteString(mailHeader("Content-Type: multipart/mixed; boundary=\"mixed-boundary-1\"\r\n\r\n"))
	for _, p := range parts {
		b.WriteString("--mixed-boundary-1\r\n")
		b.Write(p)
		b.WriteString("\r\n")
	}
	b.WriteString("--mixed-boundary-1--\r\n")
	return []byte(b.String())
}

// filePart is an attachment part with the given type, name and body.
func filePart(ctype, name, cte string, body []byte) []byte {
	return []byte("Content-Type: " + ctype + "; name=\"" + name + "\"\r\n" +
		"Content-Disposition: attachment; filename=\"" + name + "\"\r\n" +
		"Content-Transfer-Encoding: " + cte + "\r\n\r\n" + string(body))
}

// textMessage is a message whose root is a text/plain body.
func textMessage(body string) []byte {
	return []byte(mailHeader("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n") + crlf(body))
}

// mustAccept verifies raw and fails the test on rejection.
func mustAccept(t testing.TB, raw []byte, keys openpgp.KeyRing, at time.Time) *Result {
	t.Helper()
	res, err := Verify(raw, keys, at)
	if err != nil {
		t.Fatalf("rejected: %v", err)
	}
	return res
}

// mustReject verifies raw and requires a rejection with the given reason.
func mustReject(t testing.TB, raw []byte, keys openpgp.KeyRing, at time.Time, reason string) *Rejection {
	t.Helper()
	res, err := Verify(raw, keys, at)
	if err == nil {
		t.Fatalf("accepted (form %s, signed %q), want rejection %q", res.Form, res.Signed, reason)
	}
	var rej *Rejection
	if !errors.As(err, &rej) {
		t.Fatalf("error %T %v is not a *Rejection", err, err)
	}
	if rej.Reason != reason {
		t.Fatalf("reason %q (%s), want %q", rej.Reason, rej.Detail, reason)
	}
	return rej
}

// goKey generates an Ed25519 go-crypto entity created at `created`, with an
// optional lifetime.
func goKey(t testing.TB, uid string, created time.Time, lifetime time.Duration) *openpgp.Entity {
	t.Helper()
	cfg := &packet.Config{
		Algorithm:       packet.PubKeyAlgoEdDSA,
		Curve:           packet.Curve25519,
		Time:            func() time.Time { return created },
		KeyLifetimeSecs: uint32(lifetime / time.Second),
	}
	name, email, _ := strings.Cut(strings.TrimSuffix(uid, ">"), " <")
	e, err := openpgp.NewEntity(name, "", email, cfg)
	if err != nil {
		t.Fatalf("NewEntity: %v", err)
	}
	return e
}

// publicOnly round-trips the public part of entities through serialization,
// as a key file handed to the host would be.
func publicOnly(t testing.TB, ents ...*openpgp.Entity) openpgp.EntityList {
	t.Helper()
	var buf bytes.Buffer
	for _, e := range ents {
		if err := e.Serialize(&buf); err != nil {
			t.Fatalf("Serialize: %v", err)
		}
	}
	el, err := openpgp.ReadKeyRing(&buf)
	if err != nil {
		t.Fatalf("ReadKeyRing: %v", err)
	}
	return el
}

// rawSign makes a v4 binary signature over data with full control of hash and
// creation time, for the cases GnuPG will not produce.
func rawSign(t testing.TB, e *openpgp.Entity, data []byte, h crypto.Hash, when time.Time) []byte {
	t.Helper()
	priv := e.PrivateKey
	keyID := priv.KeyId
	sig := &packet.Signature{
		Version:      4,
		SigType:      packet.SigTypeBinary,
		PubKeyAlgo:   priv.PubKeyAlgo,
		Hash:         h,
		CreationTime: when,
		IssuerKeyId:  &keyID,
	}
	no := false
	cfg := &packet.Config{NonDeterministicSignaturesViaNotation: &no}
	hh, err := sig.PrepareSign(cfg)
	if err != nil {
		t.Fatalf("PrepareSign: %v", err)
	}
	hh.Write(data)
	if err := sig.Sign(hh, priv, cfg); err != nil {
		t.Fatalf("Sign: %v", err)
	}
	var buf bytes.Buffer
	if err := sig.Serialize(&buf); err != nil {
		t.Fatalf("Serialize: %v", err)
	}
	return buf.Bytes()
}

// armorSig armors binary signature packets.
func armorSig(t testing.TB, bin []byte, headers map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, "PGP SIGNATURE", headers)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bin)
	w.Close()
	buf.WriteString("\n")
	return buf.Bytes()
}

// dearmor decodes one armored block.
func dearmor(t testing.TB, a []byte) []byte {
	t.Helper()
	blk, err := armor.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatalf("armor.Decode: %v", err)
	}
	var buf bytes.Buffer
	buf.ReadFrom(blk.Body)
	return buf.Bytes()
}

// packetBody splits one new- or old-format OpenPGP packet into its tag and
// body (definite lengths only, which is what signatures use).
func packetBody(t testing.TB, p []byte) (tag byte, body []byte) {
	t.Helper()
	if p[0]&0x40 != 0 { // new format
		tag = p[0] & 0x3f
		switch l := p[1]; {
		case l < 192:
			return tag, p[2 : 2+int(l)]
		case l < 224:
			n := (int(l)-192)<<8 + int(p[2]) + 192
			return tag, p[3 : 3+n]
		case l == 255:
			n := int(binary.BigEndian.Uint32(p[2:6]))
			return tag, p[6 : 6+n]
		}
		t.Fatalf("partial length in test packet")
	}
	tag = (p[0] >> 2) & 0x0f
	switch p[0] & 3 {
	case 0:
		return tag, p[2 : 2+int(p[1])]
	case 1:
		return tag, p[3 : 3+int(binary.BigEndian.Uint16(p[1:3]))]
	case 2:
		return tag, p[5 : 5+int(binary.BigEndian.Uint32(p[1:5]))]
	}
	t.Fatalf("indeterminate length in test packet")
	return 0, nil
}

// newPacket serializes a new-format packet.
func newPacket(tag byte, body []byte) []byte {
	out := []byte{0xc0 | tag, 0xff, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(out[2:], uint32(len(body)))
	return append(out, body...)
}

// stripIssuer removes the issuer (16) and issuer fingerprint (33)
// subpackets from a v4 signature packet.
func stripIssuer(t testing.TB, p []byte) []byte {
	t.Helper()
	tag, body := packetBody(t, p)
	if body[0] != 4 {
		t.Fatalf("not a v4 signature")
	}
	hl := int(binary.BigEndian.Uint16(body[4:6]))
	hashed := body[6 : 6+hl]
	rest := body[6+hl:]
	ul := int(binary.BigEndian.Uint16(rest[0:2]))
	tail := rest[2+ul:]
	var keep []byte
	for len(hashed) > 0 {
		var n, hdr int
		switch l := hashed[0]; {
		case l < 192:
			n, hdr = int(l), 1
		case l < 255:
			n, hdr = (int(l)-192)<<8+int(hashed[1])+192, 2
		default:
			n, hdr = int(binary.BigEndian.Uint32(hashed[1:5])), 5
		}
		sp := hashed[:hdr+n]
		if typ := hashed[hdr] & 0x7f; typ != 16 && typ != 33 {
			keep = append(keep, sp...)
		}
		hashed = hashed[hdr+n:]
	}
	nb := append([]byte{}, body[:4]...)
	nb = binary.BigEndian.AppendUint16(nb, uint16(len(keep)))
	nb = append(nb, keep...)
	nb = append(nb, 0, 0)
	nb = append(nb, tail...)
	return newPacket(tag, nb)
}

// setHashByte rewrites the hash algorithm octet of a v4 signature packet.
func setHashByte(t testing.TB, p []byte, id byte) []byte {
	t.Helper()
	tag, body := packetBody(t, p)
	nb := append([]byte{}, body...)
	nb[3] = id
	return newPacket(tag, nb)
}

// flipByte changes one byte of the signed order text inside raw.
func flipByte(t testing.TB, raw []byte, inside string) []byte {
	t.Helper()
	i := bytes.Index(raw, []byte(inside))
	if i < 0 {
		t.Fatalf("%q not in message", inside)
	}
	out := append([]byte{}, raw...)
	out[i] ^= 0x01
	return out
}
