package malleate

import (
	"encoding/base64"
	"strings"
)

// Armor is one way to write ASCII armor (RFC 9580 6.2).
type Armor struct {
	// Headers are armor header lines, "Comment: ..." (unsigned).
	Headers []string
	// LineLen is the number of base64 characters a line; 0 is 64.
	LineLen int
	// NoCRC leaves out the optional checksum line.
	NoCRC bool
	// LF ends lines with LF instead of CRLF.
	LF bool
	// Trailing adds spaces after every line.
	Trailing bool
}

// Encode armors bin as a block of the given kind ("PGP SIGNATURE").
func (a Armor) Encode(kind string, bin []byte) []byte {
	nl := "\r\n"
	if a.LF {
		nl = "\n"
	}
	pad := ""
	if a.Trailing {
		pad = "  "
	}
	n := a.LineLen
	if n <= 0 {
		n = 64
	}
	var b strings.Builder
	b.WriteString("-----BEGIN " + kind + "-----" + pad + nl)
	for _, h := range a.Headers {
		b.WriteString(h + pad + nl)
	}
	b.WriteString(pad + nl)
	s := base64.StdEncoding.EncodeToString(bin)
	for len(s) > n {
		b.WriteString(s[:n] + pad + nl)
		s = s[n:]
	}
	b.WriteString(s + pad + nl)
	if !a.NoCRC {
		c := crc24(bin)
		b.WriteString("=" + base64.StdEncoding.EncodeToString([]byte{byte(c >> 16), byte(c >> 8), byte(c)}) + pad + nl)
	}
	b.WriteString("-----END " + kind + "-----" + pad + nl)
	return []byte(b.String())
}

// crc24 is the armor checksum of RFC 9580 6.1.
func crc24(b []byte) uint32 {
	crc := uint32(0xb704ce)
	for _, c := range b {
		crc ^= uint32(c) << 16
		for i := 0; i < 8; i++ {
			crc <<= 1
			if crc&0x1000000 != 0 {
				crc ^= 0x1864cfb
			}
		}
	}
	return crc & 0xffffff
}
