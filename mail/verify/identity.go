package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"

	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// identityLabel opens the bytes the canonical identity hashes; its number
// is the identity's version.
const identityLabel = "skagerrak signature identity 1\x00"

// identity returns the canonical identity of sig, already verified over
// data, made by the key whose primary fingerprint is given. It is the
// SHA-256 of
//
//	"skagerrak signature identity 1" 0x00
//	len(fingerprint), 1 octet     || the primary key's fingerprint
//	len(hashed part), 4 octets BE || the hashed part
//	len(digest), 1 octet          || the digest
//
// The hashed part is what RFC 9580 5.2.4 hashes after the data, octet for
// octet as the packet holds it: version, signature type, public-key and
// hash algorithm, the length and the bytes of the hashed subpacket area
// (creation time, issuer fingerprint, notations...), and the final
// trailer. The digest is the value the signature is made over: the hash,
// by the signature's algorithm, of the v6 salt, the signed data (as
// canonical text for a text signature) and the hashed part.
//
// Nothing else of the packet enters it: not the packet header's format or
// length encoding, not the unhashed subpackets, not the two-octet hash tag
// (required to be the digest's first octets), not the signature values
// (ECDSA and DSA values can be varied without the key, and MPIs
// re-encoded), not the armor, compression or MIME around it. Changing the
// identity means changing what the signature covers, which only the key
// holder can do; two messages with one identity are one message, however
// each was framed.
func identity(fingerprint []byte, sig *packet.Signature, data []byte) ([32]byte, error) {
	digest, err := signedDigest(sig, data)
	if err != nil {
		return [32]byte{}, err
	}
	var b bytes.Buffer
	b.WriteString(identityLabel)
	b.WriteByte(byte(len(fingerprint)))
	b.Write(fingerprint)
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(sig.HashSuffix))))
	b.Write(sig.HashSuffix)
	b.WriteByte(byte(len(digest)))
	b.Write(digest)
	return sha256.Sum256(b.Bytes()), nil
}

// signedDigest recomputes the hash a verified signature was made over, as
// go-crypto's verification does.
func signedDigest(sig *packet.Signature, data []byte) ([]byte, error) {
	if !sig.Hash.Available() || len(sig.HashSuffix) == 0 {
		return nil, fmt.Errorf("signature hash %v cannot be recomputed", sig.Hash)
	}
	h := sig.Hash.New()
	if salt := sig.Salt(); salt != nil {
		h.Write(salt)
	}
	var w hash.Hash = h
	if sig.SigType == packet.SigTypeText {
		w = openpgp.NewCanonicalTextHash(h)
	}
	w.Write(data)
	h.Write(sig.HashSuffix)
	d := h.Sum(nil)
	if !bytes.Equal(d[:2], sig.HashTag[:]) {
		// A genuine signature's tag is the digest's first two octets;
		// go-crypto checks it only from v5 on.
		return nil, fmt.Errorf("the signature's hash tag %x is not its digest's %x", sig.HashTag[:], d[:2])
	}
	return d, nil
}
