package malleate

import (
	"bytes"
	"fmt"
)

// Variant is one copy of a signed mail.
type Variant struct {
	Name string
	Raw  []byte
	// Valid says a correct verifier must accept it: the same signature over
	// the same data, only written otherwise. The other variants may be
	// refused (or accepted as the same message), never taken as new.
	Valid bool
}

// Variants returns every kind of copy of a signed mail this package
// makes: the signature packet reframed (old and new formats, every length
// encoding, partial lengths), its unhashed subpackets added to, removed,
// reordered and re-encoded, its hash tag changed, the packet inside a
// compressed packet, its armor written otherwise, and the MIME around it
// re-encoded (boundary, headers, transfer encodings, a binary signature,
// LF line ends, and what each form allows besides).
func Variants(raw []byte) ([]Variant, error) {
	m, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	sigs, err := signatureVariants(m.Sig)
	if err != nil {
		return nil, err
	}
	var out []Variant
	for _, s := range sigs {
		out = append(out, Variant{Name: s.Name, Raw: m.Encode(s.Raw, Encoding{}), Valid: s.Valid})
	}
	for _, e := range encodingVariants(m.Form) {
		out = append(out, Variant{Name: e.name, Raw: m.Encode(nil, e.enc), Valid: e.valid})
	}
	return out, nil
}

// signatureVariants re-encodes one binary signature packet.
func signatureVariants(pkt []byte) ([]Variant, error) {
	tag, body, _, err := Split(pkt)
	if err != nil {
		return nil, err
	}
	var out []Variant
	add := func(name string, p []byte, err error, valid bool) {
		if err == nil {
			out = append(out, Variant{Name: name, Raw: p, Valid: valid})
		}
	}
	for _, f := range []struct {
		name  string
		f     Framing
		valid bool
	}{
		{"old-format header, one-octet length", OldLen1, true},
		{"old-format header, two-octet length", OldLen2, true},
		{"old-format header, four-octet length", OldLen4, true},
		{"old-format header, indeterminate length", OldIndeterminate, false},
		{"new-format header, one-octet length", NewLen1, true},
		{"new-format header, two-octet length", NewLen2, true},
		{"new-format header, five-octet length", NewLen5, true},
		{"new-format header, partial lengths", NewPartial, false},
	} {
		p, err := Frame(tag, body, f.f)
		add(f.name, p, err, f.valid)
	}
	s, err := ParseSig(pkt)
	if err != nil {
		return nil, err
	}
	for _, u := range unhashedVariants(s) {
		add(u.Name, u.Raw, nil, u.Valid)
	}
	bad := *s
	bad.Tag = [2]byte{s.Tag[0] ^ 0xff, s.Tag[1]}
	add("hash tag changed", bad.Packet(), nil, false)
	for _, c := range []struct {
		name  string
		algo  byte
		f     Framing
		valid bool
	}{
		{"inside a ZIP compressed packet", ZIP, NewLen5, true},
		{"inside a ZLIB compressed packet", ZLIB, OldLen4, true},
		{"inside an uncompressed compressed packet", Uncompressed, NewLen2, true},
		{"inside a compressed packet of partial lengths", ZIP, NewPartial, false},
	} {
		p, err := Compress(pkt, c.algo, c.f)
		add(c.name, p, err, c.valid)
	}
	return out, nil
}

// unhashedVariants edits the unhashed subpacket area.
func unhashedVariants(s *Sig) []Variant {
	with := func(u [][]byte) []byte {
		c := *s
		c.Unhashed = u
		return c.Packet()
	}
	private := Subpacket(101, []byte("anyone may add this"), 1)
	var out []Variant
	out = append(out, Variant{Name: "unhashed: a private subpacket added", Raw: with(append(append([][]byte{}, s.Unhashed...), private)), Valid: true})
	reordered := append([][]byte{private}, s.Unhashed...)
	for i, j := 0, len(reordered)-1; i < j; i, j = i+1, j-1 {
		reordered[i], reordered[j] = reordered[j], reordered[i]
	}
	out = append(out, Variant{Name: "unhashed: subpackets reordered", Raw: with(reordered), Valid: true})
	var long [][]byte
	for _, sp := range s.Unhashed {
		long = append(long, Subpacket(SubpacketType(sp), SubpacketData(sp), 5))
	}
	out = append(out, Variant{Name: "unhashed: lengths in five octets", Raw: with(long), Valid: true})
	out = append(out, Variant{Name: "unhashed: every subpacket removed", Raw: with(nil), Valid: namesIssuer(s.Hashed)})
	if len(s.Unhashed) > 0 {
		out = append(out, Variant{Name: "unhashed: a subpacket twice", Raw: with(append(append([][]byte{}, s.Unhashed...), s.Unhashed[0])), Valid: true})
	}
	return out
}

// namesIssuer reports whether the hashed area (version to subpackets)
// holds an issuer or issuer fingerprint subpacket.
func namesIssuer(hashed []byte) bool {
	for h := hashed[6:]; len(h) > 0; {
		n, hdr, err := subpacketLength(h)
		if err != nil || len(h) < hdr+n {
			return false
		}
		if t := SubpacketType(h[:hdr+n]); t == 16 || t == 33 {
			return true
		}
		h = h[hdr+n:]
	}
	return false
}

type encodingVariant struct {
	name  string
	enc   Encoding
	valid bool
}

// encodingVariants re-encode the armor and the MIME of a form.
func encodingVariants(form string) []encodingVariant {
	out := []encodingVariant{
		{"as parsed, put together again", Encoding{}, true},
		{"armor with Comment and Version headers", Encoding{Armor: Armor{Headers: []string{"Comment: copied", "Version: 9"}}}, true},
		{"armor in 76-character lines", Encoding{Armor: Armor{LineLen: 76}}, true},
		{"armor in 20-character lines", Encoding{Armor: Armor{LineLen: 20}}, true},
		{"armor without its checksum", Encoding{Armor: Armor{NoCRC: true}}, true},
		{"armor with LF line ends", Encoding{Armor: Armor{LF: true}}, true},
		{"armor with trailing spaces", Encoding{Armor: Armor{Trailing: true}}, false},
		{"new root headers", Encoding{Header: "Message-ID: <copy-1@elsewhere.example>\r\nX-Copied: yes\r\n"}, true},
		{"whole mail with LF line ends", Encoding{LF: true}, true},
	}
	switch form {
	case FormPGPMIME, FormDetached:
		out = append(out,
			encodingVariant{"another boundary and preamble", Encoding{Boundary: "=_other_boundary_=", Preamble: "A copy."}, true},
			encodingVariant{"signature part base64", Encoding{Transfer: "base64"}, true},
			encodingVariant{"signature part quoted-printable", Encoding{Transfer: "quoted-printable"}, true},
			encodingVariant{"binary signature", Encoding{Binary: true}, true},
		)
	}
	switch form {
	case FormDetached:
		out = append(out,
			encodingVariant{"file quoted-printable", Encoding{FileTransfer: "quoted-printable"}, true},
			encodingVariant{"file 8bit", Encoding{FileTransfer: "8bit"}, true},
		)
	case FormClearsigned:
		out = append(out,
			encodingVariant{"body base64", Encoding{Transfer: "base64"}, true},
			encodingVariant{"body 8bit", Encoding{Transfer: "8bit"}, true},
			encodingVariant{"spaces after the signed lines", Encoding{Trailing: true}, true},
		)
	}
	return out
}

// Describe names what differs between a variant and the mail it copies,
// for test failures.
func Describe(v Variant, raw []byte) string {
	return fmt.Sprintf("%s (%d octets, identical: %v)", v.Name, len(v.Raw), bytes.Equal(v.Raw, raw))
}
