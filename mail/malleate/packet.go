// Package malleate changes a signed mail the way anyone who has seen it
// can, without the signer's key: the framing of the signature packet, its
// unhashed subpackets and hash tag, the compression and armor around it,
// and the MIME around everything. Every copy it makes is, to a correct
// verifier, either the same signed message or no valid message at all; the
// replay tests use it to show that the intake counts each such copy as the
// message it copies. It is for tests only.
package malleate

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
)

// Framing is one way to write an OpenPGP packet header (RFC 9580 4.2).
type Framing int

// The framings.
const (
	OldLen1          Framing = iota // old format, one-octet length
	OldLen2                         // old format, two-octet length
	OldLen4                         // old format, four-octet length
	OldIndeterminate                // old format, to the end of the data
	NewLen1                         // new format, one-octet length (under 192)
	NewLen2                         // new format, two-octet length (under 8384)
	NewLen5                         // new format, five-octet length
	NewPartial                      // new format, partial lengths, then a definite one
)

// Split reads the first packet of p, in any framing, and returns its tag,
// its body and what follows it.
func Split(p []byte) (tag byte, body, rest []byte, err error) {
	if len(p) < 2 || p[0]&0x80 == 0 {
		return 0, nil, nil, errors.New("malleate: not an OpenPGP packet")
	}
	if p[0]&0x40 == 0 {
		return splitOld(p)
	}
	tag, p = p[0]&0x3f, p[1:]
	for {
		n, hdr, partial, err := newLength(p)
		if err != nil {
			return 0, nil, nil, err
		}
		if len(p) < hdr+n {
			return 0, nil, nil, errors.New("malleate: truncated packet")
		}
		body = append(body, p[hdr:hdr+n]...)
		p = p[hdr+n:]
		if !partial {
			return tag, body, p, nil
		}
	}
}

func splitOld(p []byte) (byte, []byte, []byte, error) {
	tag := (p[0] >> 2) & 0x0f
	var n, hdr int
	switch p[0] & 3 {
	case 0:
		n, hdr = int(p[1]), 2
	case 1:
		if len(p) < 3 {
			return 0, nil, nil, errors.New("malleate: truncated header")
		}
		n, hdr = int(binary.BigEndian.Uint16(p[1:3])), 3
	case 2:
		if len(p) < 5 {
			return 0, nil, nil, errors.New("malleate: truncated header")
		}
		n, hdr = int(binary.BigEndian.Uint32(p[1:5])), 5
	default:
		return tag, append([]byte{}, p[1:]...), nil, nil
	}
	if len(p) < hdr+n {
		return 0, nil, nil, errors.New("malleate: truncated packet")
	}
	return tag, append([]byte{}, p[hdr:hdr+n]...), p[hdr+n:], nil
}

// newLength reads a new-format length: the body length, the header size,
// and whether it is partial.
func newLength(p []byte) (n, hdr int, partial bool, err error) {
	if len(p) == 0 {
		return 0, 0, false, errors.New("malleate: truncated header")
	}
	switch l := p[0]; {
	case l < 192:
		return int(l), 1, false, nil
	case l < 224:
		if len(p) < 2 {
			return 0, 0, false, errors.New("malleate: truncated header")
		}
		return (int(l)-192)<<8 + int(p[1]) + 192, 2, false, nil
	case l < 255:
		return 1 << (l & 0x1f), 1, true, nil
	default:
		if len(p) < 5 {
			return 0, 0, false, errors.New("malleate: truncated header")
		}
		return int(binary.BigEndian.Uint32(p[1:5])), 5, false, nil
	}
}

// Frame writes a packet of this tag and body in the framing f.
func Frame(tag byte, body []byte, f Framing) ([]byte, error) {
	n := len(body)
	switch f {
	case OldLen1, OldLen2, OldLen4, OldIndeterminate:
		if tag > 15 {
			return nil, fmt.Errorf("malleate: tag %d has no old format", tag)
		}
		h := 0x80 | tag<<2 | byte(f-OldLen1)
		switch f {
		case OldLen1:
			if n > 255 {
				return nil, fmt.Errorf("malleate: %d octets in a one-octet length", n)
			}
			return append([]byte{h, byte(n)}, body...), nil
		case OldLen2:
			return append(binary.BigEndian.AppendUint16([]byte{h}, uint16(n)), body...), nil
		case OldLen4:
			return append(binary.BigEndian.AppendUint32([]byte{h}, uint32(n)), body...), nil
		}
		return append([]byte{h}, body...), nil
	case NewLen1:
		if n >= 192 {
			return nil, fmt.Errorf("malleate: %d octets in a one-octet length", n)
		}
		return append([]byte{0xc0 | tag, byte(n)}, body...), nil
	case NewLen2:
		if n < 192 || n >= 8384 {
			return nil, fmt.Errorf("malleate: %d octets in a two-octet length", n)
		}
		m := n - 192
		return append([]byte{0xc0 | tag, byte(m>>8) + 192, byte(m)}, body...), nil
	case NewLen5:
		return append(binary.BigEndian.AppendUint32([]byte{0xc0 | tag, 0xff}, uint32(n)), body...), nil
	case NewPartial:
		out := []byte{0xc0 | tag}
		for k := 0; len(body) > 1<<k; k = (k + 1) % 4 {
			out = append(out, 224+byte(k))
			out = append(out, body[:1<<k]...)
			body = body[1<<k:]
		}
		return append(append(out, byte(len(body))), body...), nil
	}
	return nil, fmt.Errorf("malleate: unknown framing %d", f)
}

// Reframe writes the first packet of p again in the framing f.
func Reframe(p []byte, f Framing) ([]byte, error) {
	tag, body, _, err := Split(p)
	if err != nil {
		return nil, err
	}
	return Frame(tag, body, f)
}

// Sig is the body of a v4 signature packet, split where the unhashed area
// can be edited.
type Sig struct {
	// Hashed is the version, type, algorithms, and the hashed subpacket
	// area with its length: what the signature covers.
	Hashed []byte
	// Unhashed are the subpackets of the unhashed area, each whole (its
	// length, type and data).
	Unhashed [][]byte
	// Tag is the two-octet hash tag.
	Tag [2]byte
	// Values are the signature's MPIs.
	Values []byte
}

// ParseSig splits a v4 signature packet (header included).
func ParseSig(p []byte) (*Sig, error) {
	tag, b, _, err := Split(p)
	if err != nil {
		return nil, err
	}
	if tag != 2 || len(b) < 6 || b[0] != 4 {
		return nil, errors.New("malleate: not a v4 signature packet")
	}
	hl := int(binary.BigEndian.Uint16(b[4:6]))
	if len(b) < 8+hl {
		return nil, errors.New("malleate: truncated signature")
	}
	s := &Sig{Hashed: append([]byte{}, b[:6+hl]...)}
	b = b[6+hl:]
	ul := int(binary.BigEndian.Uint16(b[:2]))
	if len(b) < 4+ul {
		return nil, errors.New("malleate: truncated signature")
	}
	for u := b[2 : 2+ul]; len(u) > 0; {
		n, hdr, err := subpacketLength(u)
		if err != nil || len(u) < hdr+n {
			return nil, errors.New("malleate: bad unhashed subpacket")
		}
		s.Unhashed = append(s.Unhashed, append([]byte{}, u[:hdr+n]...))
		u = u[hdr+n:]
	}
	copy(s.Tag[:], b[2+ul:4+ul])
	s.Values = append([]byte{}, b[4+ul:]...)
	return s, nil
}

func subpacketLength(u []byte) (n, hdr int, err error) {
	switch l := u[0]; {
	case l < 192:
		return int(l), 1, nil
	case l < 255:
		if len(u) < 2 {
			return 0, 0, errors.New("truncated")
		}
		return (int(l)-192)<<8 + int(u[1]) + 192, 2, nil
	default:
		if len(u) < 5 {
			return 0, 0, errors.New("truncated")
		}
		return int(binary.BigEndian.Uint32(u[1:5])), 5, nil
	}
}

// Packet writes the signature as a packet in a new-format five-octet
// framing.
func (s *Sig) Packet() []byte {
	var u []byte
	for _, sp := range s.Unhashed {
		u = append(u, sp...)
	}
	b := append([]byte{}, s.Hashed...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(u)))
	b = append(b, u...)
	b = append(b, s.Tag[:]...)
	b = append(b, s.Values...)
	p, _ := Frame(2, b, NewLen5)
	return p
}

// Subpacket makes a signature subpacket of type typ with its length in
// lenOctets (1, 2 or 5) octets.
func Subpacket(typ byte, data []byte, lenOctets int) []byte {
	n := len(data) + 1
	var out []byte
	switch {
	case lenOctets == 1 && n < 192:
		out = []byte{byte(n)}
	case lenOctets == 2 && n >= 192 && n < 8384:
		m := n - 192
		out = []byte{byte(m>>8) + 192, byte(m)}
	default:
		out = binary.BigEndian.AppendUint32([]byte{0xff}, uint32(n))
	}
	out = append(out, typ)
	return append(out, data...)
}

// SubpacketType is a subpacket's type, without its critical bit.
func SubpacketType(sp []byte) byte {
	_, hdr, err := subpacketLength(sp)
	if err != nil || len(sp) <= hdr {
		return 0
	}
	return sp[hdr] & 0x7f
}

// SubpacketData is a subpacket's data, after its type.
func SubpacketData(sp []byte) []byte {
	_, hdr, err := subpacketLength(sp)
	if err != nil || len(sp) <= hdr {
		return nil
	}
	return sp[hdr+1:]
}

// Compression algorithms of a compressed data packet.
const (
	Uncompressed byte = 0
	ZIP          byte = 1
	ZLIB         byte = 2
)

// Compress wraps packets in one compressed data packet of the given
// algorithm, framed as f.
func Compress(packets []byte, algo byte, f Framing) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte(algo)
	switch algo {
	case Uncompressed:
		buf.Write(packets)
	case ZIP:
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write(packets)
		w.Close()
	case ZLIB:
		w := zlib.NewWriter(&buf)
		w.Write(packets)
		w.Close()
	default:
		return nil, fmt.Errorf("malleate: compression %d", algo)
	}
	return Frame(8, buf.Bytes(), f)
}
