package verify

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"
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
