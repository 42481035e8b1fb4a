package malleate

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
)

// The forms of signed mail (as mail/verify names them).
const (
	FormPGPMIME     = "pgp-mime"
	FormDetached    = "detached"
	FormClearsigned = "clearsigned"
)

// Mail is a signed mail taken apart where anyone may put it together
// otherwise.
type Mail struct {
	Form string
	// Header are the root header lines other than Content-Type,
	// Content-Transfer-Encoding and MIME-Version, each with its CRLF.
	Header []string
	// Params are the root's Content-Type parameters other than boundary.
	Params map[string]string
	// Signed is the first part of a PGP/MIME mail, byte for byte.
	Signed []byte
	// File, FileName and FileType are the order file of the detached form.
	File               []byte
	FileName, FileType string
	// Clear is the decoded clearsigned body up to its signature block.
	Clear []byte
	// Sig is the binary signature packet.
	Sig []byte
}

// Parse takes apart a mail of one of the three forms.
func Parse(raw []byte) (*Mail, error) {
	hdr, body := splitHeader(raw)
	m := &Mail{Params: map[string]string{}}
	var ctype, cte string
	for _, f := range headerFields(hdr) {
		name, val, _ := strings.Cut(f, ":")
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-type":
			ctype = val
		case "content-transfer-encoding":
			cte = val
		case "mime-version":
		default:
			m.Header = append(m.Header, strings.TrimRight(f, "\r\n")+"\r\n")
		}
	}
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		return nil, fmt.Errorf("malleate: root Content-Type: %w", err)
	}
	for k, v := range params {
		if k != "boundary" {
			m.Params[k] = v
		}
	}
	switch mt {
	case "multipart/signed":
		return m, m.parsePGPMIME(body, params["boundary"])
	case "multipart/mixed":
		return m, m.parseDetached(body, params["boundary"])
	case "text/plain":
		return m, m.parseClearsigned(body, cte)
	}
	return nil, fmt.Errorf("malleate: %s is not a signed form", mt)
}

func (m *Mail) parsePGPMIME(body []byte, boundary string) error {
	m.Form = FormPGPMIME
	parts := splitParts(body, boundary)
	if len(parts) != 2 {
		return fmt.Errorf("malleate: multipart/signed with %d parts", len(parts))
	}
	m.Signed = parts[0]
	sig, err := partSignature(parts[1])
	m.Sig = sig
	return err
}

func (m *Mail) parseDetached(body []byte, boundary string) error {
	m.Form = FormDetached
	parts := splitParts(body, boundary)
	if len(parts) != 2 {
		return fmt.Errorf("malleate: multipart/mixed with %d parts", len(parts))
	}
	h, b := splitHeader(parts[0])
	var cte string
	for _, f := range headerFields(h) {
		name, val, _ := strings.Cut(f, ":")
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-type":
			mt, p, err := mime.ParseMediaType(val)
			if err != nil {
				return err
			}
			delete(p, "name")
			m.FileType = mime.FormatMediaType(mt, p)
		case "content-disposition":
			if _, p, err := mime.ParseMediaType(val); err == nil {
				m.FileName = p["filename"]
			}
		case "content-transfer-encoding":
			cte = val
		}
	}
	file, err := decode(b, cte)
	if err != nil {
		return err
	}
	m.File = file
	sig, err := partSignature(parts[1])
	m.Sig = sig
	return err
}

func (m *Mail) parseClearsigned(body []byte, cte string) error {
	m.Form = FormClearsigned
	text, err := decode(body, cte)
	if err != nil {
		return err
	}
	i := bytes.Index(text, []byte("-----BEGIN PGP SIGNATURE-----"))
	if i < 0 {
		return errors.New("malleate: no signature block in the body")
	}
	m.Clear = text[:i]
	m.Sig, err = dearmor(text[i:])
	return err
}

// partSignature decodes a signature part to its binary packet.
func partSignature(part []byte) ([]byte, error) {
	h, b := splitHeader(part)
	var cte string
	for _, f := range headerFields(h) {
		if name, val, _ := strings.Cut(f, ":"); strings.EqualFold(strings.TrimSpace(name), "content-transfer-encoding") {
			cte = val
		}
	}
	d, err := decode(b, cte)
	if err != nil {
		return nil, err
	}
	if bytes.Contains(d, []byte("-----BEGIN PGP")) {
		return dearmor(d)
	}
	return d, nil
}

func dearmor(a []byte) ([]byte, error) {
	blk, err := armor.Decode(bytes.NewReader(a))
	if err != nil {
		return nil, fmt.Errorf("malleate: armor: %w", err)
	}
	return io.ReadAll(blk.Body)
}

// Encoding says how to put a Mail together again.
type Encoding struct {
	// Boundary of the root multipart; "" is "malleate-boundary-1".
	Boundary string
	// Header lines (CRLF-terminated) added before the root's own.
	Header string
	// Preamble of the root multipart.
	Preamble string
	// Transfer is the transfer encoding of the signature part (PGP/MIME,
	// detached) or of the body (clearsigned): 7bit, 8bit, base64 or
	// quoted-printable. "" is 7bit, base64 for a binary signature and
	// quoted-printable for a clearsigned body.
	Transfer string
	// FileTransfer is the detached order file's; "" is base64.
	FileTransfer string
	// Binary sends the signature as its binary packet (a .sig file for the
	// detached form), not armored.
	Binary bool
	// Armor is how an armored signature is written.
	Armor Armor
	// Trailing adds spaces after every line of clearsigned text (which the
	// cleartext signature does not cover).
	Trailing bool
	// LF writes the whole mail with LF line ends.
	LF bool
}

// Encode puts the mail together with the signature sig (binary packets;
// nil keeps m.Sig) as e says.
func (m *Mail) Encode(sig []byte, e Encoding) []byte {
	if sig == nil {
		sig = m.Sig
	}
	b := e.Boundary
	if b == "" {
		b = "malleate-boundary-1"
	}
	var out bytes.Buffer
	out.WriteString(e.Header)
	for _, h := range m.Header {
		out.WriteString(h)
	}
	out.WriteString("MIME-Version: 1.0\r\n")
	switch m.Form {
	case FormPGPMIME:
		m.encodePGPMIME(&out, sig, b, e)
	case FormDetached:
		m.encodeDetached(&out, sig, b, e)
	default:
		m.encodeClearsigned(&out, sig, e)
	}
	if e.LF {
		return bytes.ReplaceAll(out.Bytes(), []byte("\r\n"), []byte("\n"))
	}
	return out.Bytes()
}

func (m *Mail) encodePGPMIME(out *bytes.Buffer, sig []byte, b string, e Encoding) {
	p := map[string]string{"boundary": b}
	for k, v := range m.Params {
		p[k] = v
	}
	fmt.Fprintf(out, "Content-Type: %s\r\n\r\n%s\r\n--%s\r\n", mime.FormatMediaType("multipart/signed", p), e.Preamble, b)
	out.Write(m.Signed)
	fmt.Fprintf(out, "\r\n--%s\r\nContent-Type: application/pgp-signature; name=\"signature.asc\"\r\n", b)
	out.Write(sigBody(sig, e))
	fmt.Fprintf(out, "\r\n--%s--\r\n", b)
}

func (m *Mail) encodeDetached(out *bytes.Buffer, sig []byte, b string, e Encoding) {
	fmt.Fprintf(out, "Content-Type: multipart/mixed; boundary=\"%s\"\r\n\r\n%s\r\n--%s\r\n", b, e.Preamble, b)
	ft := e.FileTransfer
	if ft == "" {
		ft = "base64"
	}
	fmt.Fprintf(out, "Content-Type: %s; name=\"%s\"\r\nContent-Disposition: attachment; filename=\"%s\"\r\nContent-Transfer-Encoding: %s\r\n\r\n",
		m.FileType, m.FileName, m.FileName, ft)
	out.Write(encode(m.File, ft))
	name := m.FileName + ".asc"
	if e.Binary {
		name = m.FileName + ".sig"
	}
	fmt.Fprintf(out, "\r\n--%s\r\nContent-Type: application/pgp-signature; name=\"%s\"\r\nContent-Disposition: attachment; filename=\"%s\"\r\n", b, name, name)
	out.Write(sigBody(sig, e))
	fmt.Fprintf(out, "\r\n--%s--\r\n", b)
}

func (m *Mail) encodeClearsigned(out *bytes.Buffer, sig []byte, e Encoding) {
	t := e.Transfer
	if t == "" {
		t = "quoted-printable"
	}
	clear := m.Clear
	if e.Trailing {
		clear = trailingSpaces(clear)
	}
	body := append(append([]byte{}, clear...), e.Armor.Encode("PGP SIGNATURE", sig)...)
	fmt.Fprintf(out, "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: %s\r\n\r\n", t)
	out.Write(encode(body, t))
}

// trailingSpaces adds spaces after every line of the signed text, the
// lines after the armor header's blank line.
func trailingSpaces(clear []byte) []byte {
	lines := strings.SplitAfter(string(clear), "\n")
	inText := false
	for i, l := range lines {
		if inText && strings.HasSuffix(l, "\n") {
			body := strings.TrimRight(l, "\r\n")
			lines[i] = body + " \t " + l[len(body):]
		}
		if strings.TrimSpace(l) == "" {
			inText = true
		}
	}
	return []byte(strings.Join(lines, ""))
}

// sigBody is a signature part's transfer-encoding header and body.
func sigBody(sig []byte, e Encoding) []byte {
	data := e.Armor.Encode("PGP SIGNATURE", sig)
	t := e.Transfer
	if e.Binary {
		data = sig
		if t == "" || t == "7bit" || t == "8bit" {
			t = "base64"
		}
	}
	if t == "" {
		t = "7bit"
	}
	return append([]byte("Content-Transfer-Encoding: "+t+"\r\n\r\n"), encode(data, t)...)
}

// encode applies a transfer encoding; 7bit and 8bit text gets CRLF line
// ends, as mail transport gives it.
func encode(b []byte, cte string) []byte {
	switch cte {
	case "base64":
		s := base64.StdEncoding.EncodeToString(b)
		var out strings.Builder
		for len(s) > 76 {
			out.WriteString(s[:76] + "\r\n")
			s = s[76:]
		}
		out.WriteString(s + "\r\n")
		return []byte(out.String())
	case "quoted-printable":
		var out bytes.Buffer
		w := quotedprintable.NewWriter(&out)
		w.Write(b)
		w.Close()
		return out.Bytes()
	}
	return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
}

func decode(b []byte, cte string) ([]byte, error) {
	switch strings.ToLower(strings.TrimSpace(cte)) {
	case "base64":
		return io.ReadAll(base64.NewDecoder(base64.StdEncoding, bytes.NewReader(bytes.Map(func(r rune) rune {
			if r == '\r' || r == '\n' || r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, b))))
	case "quoted-printable":
		return io.ReadAll(quotedprintable.NewReader(bytes.NewReader(b)))
	}
	return b, nil
}

// splitHeader splits an entity at the blank line after its header.
func splitHeader(raw []byte) (hdr, body []byte) {
	for _, sep := range []string{"\r\n\r\n", "\n\n"} {
		if i := bytes.Index(raw, []byte(sep)); i >= 0 {
			return raw[:i+len(sep)/2], raw[i+len(sep):]
		}
	}
	return raw, nil
}

// headerFields returns the header's fields, continuation lines joined.
func headerFields(hdr []byte) []string {
	var out []string
	for _, l := range strings.SplitAfter(string(hdr), "\n") {
		if l == "" || strings.TrimSpace(l) == "" {
			continue
		}
		if (l[0] == ' ' || l[0] == '\t') && len(out) > 0 {
			out[len(out)-1] += l
			continue
		}
		out = append(out, l)
	}
	return out
}

// splitParts returns the raw parts of a multipart body.
func splitParts(body []byte, boundary string) [][]byte {
	delim := []byte("--" + boundary)
	var parts [][]byte
	rest := body
	start := -1
	for {
		i := bytes.Index(rest, delim)
		if i < 0 {
			return parts
		}
		if start >= 0 {
			p := rest[:i]
			p = bytes.TrimSuffix(p, []byte("\n"))
			p = bytes.TrimSuffix(p, []byte("\r"))
			parts = append(parts, p)
		}
		rest = rest[i+len(delim):]
		if bytes.HasPrefix(rest, []byte("--")) {
			return parts
		}
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			rest = rest[j+1:]
		}
		start = 0
	}
}
