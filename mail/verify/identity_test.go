package verify

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"skagerrak/mail/malleate"
)

// hashByID maps the OpenPGP hash IDs of the accepted hashes (RFC 9580
// 9.5) to Go's.
var hashByID = map[byte]crypto.Hash{8: crypto.SHA256, 9: crypto.SHA384, 10: crypto.SHA512, 11: crypto.SHA224, 12: crypto.SHA3_256, 14: crypto.SHA3_512}

// wantIdentity computes the canonical identity of a v4 signature packet
// over data by hand, from the packet's bytes and RFC 9580 5.2.4, without
// go-crypto's parser: the hashed part is the packet body's first six
// octets and the hashed subpacket area, then the trailer 0x04 0xFF and the
// hashed length in four octets; the digest hashes the data (CRLF for a
// text signature) and that hashed part.
func wantIdentity(t testing.TB, fprHex string, pkt, data []byte) [32]byte {
	t.Helper()
	_, body := packetBody(t, pkt)
	if body[0] != 4 {
		t.Fatalf("wantIdentity: version %d", body[0])
	}
	hl := int(binary.BigEndian.Uint16(body[4:6]))
	hashed := append([]byte{}, body[:6+hl]...)
	hashed = append(hashed, 0x04, 0xff)
	hashed = binary.BigEndian.AppendUint32(hashed, uint32(6+hl))
	if body[1] == 0x01 { // text: bare LF becomes CRLF
		data = bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	}
	h := hashByID[body[3]].New()
	h.Write(data)
	h.Write(hashed)
	digest := h.Sum(nil)
	fpr, err := hex.DecodeString(fprHex)
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	b = append(b, "skagerrak signature identity 1\x00"...)
	b = append(b, byte(len(fpr)))
	b = append(b, fpr...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(hashed)))
	b = append(b, hashed...)
	b = append(b, byte(len(digest)))
	b = append(b, digest...)
	return sha256.Sum256(b)
}

// genuineMails are one mail of each form signed by real GnuPG (Ed25519 and
// RSA, binary and text signatures).
func genuineMails(t *testing.T) map[string][]byte {
	g, _ := gpgFixture(t)
	data := []byte(orderText)
	return map[string][]byte{
		"pgp-mime ed25519": gpgPGPMIME(t, g, edUID, textPart(orderText)),
		"pgp-mime rsa":     gpgPGPMIME(t, g, rsaUID, textPart(orderText)),
		"detached text signature": mixedMessage(filePart("text/plain", "orders.txt", "base64", []byte(base64.StdEncoding.EncodeToString(data))),
			filePart("application/pgp-signature", "orders.txt.asc", "7bit", []byte(crlf(string(g.DetachSign(edUID, data, true, "--textmode")))))),
		"detached binary signature": mixedMessage(filePart("text/plain", "orders.txt", "base64", []byte(base64.StdEncoding.EncodeToString(data))),
			filePart("application/pgp-signature", "orders.txt.asc", "7bit", []byte(crlf(string(g.DetachSign(rsaUID, data, true)))))),
		"clearsigned": textMessage(string(g.Clearsign(edUID, data))),
	}
}

// Every copy of a genuine mail that anyone can make without the key
// (mail/malleate's classes: packet framing and lengths, unhashed
// subpackets added, removed, reordered, compression, armor, MIME) is
// refused or verifies as the same message: the same identity, signer and
// signed text (up to line ends, for a text signature). The copies a correct verifier must accept do verify, and
// those that change the signature packet change its packet hash, the key
// logs used before (which is why it could not recognise them).
func TestMalleatedCopiesKeepTheIdentity(t *testing.T) {
	_, f := gpgFixture(t)
	at := time.Now()
	for name, raw := range genuineMails(t) {
		t.Run(name, func(t *testing.T) {
			orig := mustAccept(t, raw, f.keys, at)
			vs, err := malleate.Variants(raw)
			if err != nil {
				t.Fatal(err)
			}
			newPacket := 0
			for _, v := range vs {
				res, err := Verify(v.Raw, f.keys, at)
				if err != nil {
					if v.Valid {
						t.Errorf("%s: refused: %v", v.Name, err)
					}
					t.Logf("%s: refused: %v", v.Name, err)
					continue
				}
				// A text signature covers its text with either line end.
				if res.Identity != orig.Identity || res.Fingerprint != orig.Fingerprint || !bytes.Equal(lf(res.Signed), lf(orig.Signed)) {
					t.Errorf("%s: a new message: identity %x (was %x), signed %q", v.Name, res.Identity, orig.Identity, res.Signed)
				}
				if res.PacketHash != orig.PacketHash {
					newPacket++
				}
			}
			t.Logf("%d copies, %d with a new signature packet", len(vs), newPacket)
			if newPacket < 10 {
				t.Errorf("only %d accepted copies have a new packet hash", newPacket)
			}
		})
	}
}

func lf(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// A signed order holding a NUL byte: intact (as IMAP BINARY or a file
// brings it) and as Dovecot passes it on over a plain FETCH (0x80), both
// verify as the same message, and Check refuses both alike, naming the
// line, the column and the fix, with the signer to be told. A genuine 0x80
// inside a UTF-8 letter is left alone.
func TestNULInSignedTextRefusedAlikeIntactOrMangled(t *testing.T) {
	g, f := gpgFixture(t)
	text := "Game: g1\nPhase: T01\nSide: allied\nadvance 1 # Ā\nadvance\x002\n"
	intact := textMessage(string(g.Clearsign(edUID, []byte(text))))
	if !bytes.Contains(intact, []byte{0}) {
		t.Fatal("gpg dropped the NUL")
	}
	mangled := bytes.ReplaceAll(intact, []byte{0}, []byte{0x80})
	a := mustAccept(t, intact, f.keys, time.Now())
	b := mustAccept(t, mangled, f.keys, time.Now())
	if a.Identity != b.Identity || !bytes.Equal(a.Signed, b.Signed) || a.RestoredNULs != 0 || b.RestoredNULs != 1 {
		t.Errorf("intact %x %d, mangled %x %d restored", a.Identity, a.RestoredNULs, b.Identity, b.RestoredNULs)
	}
	for name, raw := range map[string][]byte{"intact": intact, "mangled": mangled} {
		report, err := Check(raw, f.keys, time.Now())
		var te *TextError
		if !errors.As(err, &te) || te.Line != 5 {
			t.Errorf("%s: %v", name, err)
		}
		for _, want := range []string{"result:      rejected", "line 5, column 8 of the order file holds the control character NUL (U+0000)", "sign it again", "signer:      " + f.edFpr} {
			if !strings.Contains(report, want) {
				t.Errorf("%s: the report lacks %q:\n%s", name, want, report)
			}
		}
	}
	if ControlError("Game: g1\n\tadvance 1\r\n") != nil {
		t.Error("tab or CR refused")
	}
	for _, c := range []string{"\x1b[31m", "\x7f", "\u0085", "\x0c"} {
		if ControlError("advance 1 "+c) == nil {
			t.Errorf("%q allowed", c)
		}
	}
}
