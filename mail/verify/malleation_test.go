package verify

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// Round 2's malleation classes, as someone holding one genuine mail and no
// key would try them: each copy is refused or is the same message (the
// same identity and signed text), never a new one.

// A v6 signature (RFC 9580: a salt hashed before the data, four-octet
// subpacket area lengths): unhashed subpackets added keep its identity; a
// changed salt, octets after its values or a second v6 signature are
// refused.
func TestV6SignatureCopies(t *testing.T) {
	created := time.Now().Add(-time.Hour)
	e, err := openpgp.NewEntity("Six", "", "six@example.org", &packet.Config{V6Keys: true, Algorithm: packet.PubKeyAlgoEd25519, Time: func() time.Time { return created }})
	if err != nil {
		t.Fatal(err)
	}
	keys := publicOnly(t, e)
	inner := textPart("Game: g1\nPhase: T01\nSide: allied\nadvance 1\n")
	var bin bytes.Buffer
	signed := time.Now().Add(-time.Minute)
	if err := openpgp.DetachSign(&bin, []*openpgp.Entity{e}, bytes.NewReader(canonicalCRLF(inner)), &packet.Config{Time: func() time.Time { return signed }}); err != nil {
		t.Fatal(err)
	}
	mail := func(pkt []byte) []byte { return signedMessage(stdParams, inner, sigPart(armorSig(t, pkt, nil))) }
	orig := mustAccept(t, mail(bin.Bytes()), keys, time.Now())
	_, body := packetBody(t, bin.Bytes())
	if body[0] != 6 {
		t.Fatalf("version %d, want 6", body[0])
	}
	hl := int(binary.BigEndian.Uint32(body[4:8]))
	us := 8 + hl
	ul := int(binary.BigEndian.Uint32(body[us : us+4]))
	tail := body[us+4+ul:] // hash tag, salt length and salt, signature
	withUnhashed := func(extra []byte) []byte {
		b := append([]byte{}, body[:us]...)
		b = binary.BigEndian.AppendUint32(b, uint32(ul+len(extra)))
		b = append(b, body[us+4:us+4+ul]...)
		b = append(b, extra...)
		return newPacket(2, append(b, tail...))
	}
	res := mustAccept(t, mail(withUnhashed([]byte{5, 101, 'c', 'o', 'p', 'y'})), keys, time.Now())
	if res.Identity != orig.Identity || res.PacketHash == orig.PacketHash {
		t.Errorf("unhashed subpacket added: identity %x (was %x)", res.Identity, orig.Identity)
	}
	salted := append([]byte{}, body...)
	salted[us+4+ul+3] ^= 1 // the first octet of the salt
	mustReject(t, mail(newPacket(2, salted)), keys, time.Now(), ReasonBadSignature)
	mustReject(t, mail(newPacket(2, append(append([]byte{}, body...), 0, 0, 0))), keys, time.Now(), ReasonBadStructure)
	two := append(append([]byte{}, bin.Bytes()...), bin.Bytes()...)
	mustReject(t, mail(two), keys, time.Now(), ReasonMultipleSignatures)
}

// A cleartext signature covers the text after dash-unescaping and without
// trailing whitespace: a copy that dash-escapes lines that need no escape,
// adds spaces and tabs at line ends, or swaps LF and CRLF is the same
// message with the same text, and so is one with another armor checksum
// (RFC 9580 6.1 says not to refuse it); octets after the signature packet
// are refused.
func TestClearsignedCopies(t *testing.T) {
	g, f := gpgFixture(t)
	block := string(g.Clearsign(edUID, []byte(orderText)))
	orig := mustAccept(t, textMessage(block), f.keys, time.Now())
	text, sig, _ := strings.Cut(block, armorSigBegin)
	escaped := strings.Replace(text, "\nHMS Glowworm", "\n- HMS Glowworm", 1)
	escaped = strings.Replace(escaped, "\nGame:", "\n- Game:", 1)
	head, cleartext, _ := strings.Cut(text, "\n\n") // the armor header block, then the text
	trailing := head + "\n\n" + strings.ReplaceAll(cleartext, "\n", " \t \n")
	for name, body := range map[string]string{
		"needless dash escapes":      escaped + armorSigBegin + sig,
		"trailing blanks":            trailing + armorSigBegin + sig,
		"CRLF line ends in the body": strings.ReplaceAll(block, "\n", "\r\n"),
	} {
		res, err := Verify(textMessage(body), f.keys, time.Now())
		if err != nil {
			t.Errorf("%s: refused: %v", name, err)
			continue
		}
		if res.Identity != orig.Identity || !bytes.Equal(lf(res.Signed), lf(orig.Signed)) {
			t.Errorf("%s: identity %x (was %x), signed %q", name, res.Identity, orig.Identity, res.Signed)
		}
	}
	bin := dearmor(t, []byte(armorSigBegin+sig))
	junk := armorSig(t, append(append([]byte{}, bin...), 0x00, 0x01), nil)
	if _, err := Verify(textMessage(text+string(junk)), f.keys, time.Now()); err == nil {
		t.Error("octets after the signature packet: accepted")
	}
	lines := strings.Split(sig, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "=") && len(l) == 5 {
			c := []byte(l)
			c[1] ^= 'A' ^ 'B'
			lines[i] = string(c)
		}
	}
	// RFC 9580 6.1: the CRC24 is no reason to refuse; it is armor, outside
	// the identity.
	if res, err := Verify(textMessage(text+armorSigBegin+strings.Join(lines, "\n")), f.keys, time.Now()); err == nil && res.Identity != orig.Identity {
		t.Error("a changed armor checksum: a new message")
	}
}

// check says what the daemon reads: a label outside the signature is named
// as not trusted, with the charset the text is read in.
func TestCheckNamesAnUntrustedLabel(t *testing.T) {
	g, f := gpgFixture(t)
	raw := textMessage(string(g.Clearsign(edUID, []byte(orderText))))
	raw = bytes.Replace(raw, []byte("charset=utf-8"), []byte("charset=koi8-r"), 1)
	report, err := Check(raw, f.keys, time.Now())
	if err != nil || !strings.Contains(report, "label:       koi8-r (outside the signature, so not trusted: the text is read as UTF-8)") {
		t.Errorf("check (%v):\n%s", err, report)
	}
}
