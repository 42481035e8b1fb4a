package verify

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/quotedprintable"
	"strings"

	"github.com/emersion/go-message/textproto"
)

// entity is one MIME entity of a message, parsed from raw bytes so that the
// exact bytes of every part stay available (RFC 3156 signs a part's raw bytes).
type entity struct {
	raw       []byte // the whole entity: header, blank line, body
	header    textproto.Header
	body      []byte // raw body, still transfer-encoded
	mediaType string // lower-case type/subtype
	params    map[string]string
	children  []*entity // for multipart/* only
}

// parser walks a message under the limits.
type parser struct {
	lim   Limits
	parts int
}

// singleHeaders must appear at most once in any entity: two of them make the
// entity ambiguous between mail clients.
var singleHeaders = []string{"Content-Type", "Content-Transfer-Encoding", "Content-Disposition"}

// parse parses raw as an entity at the given depth, recursing into multiparts.
func (p *parser) parse(raw []byte, depth int) (*entity, *Rejection) {
	if depth > p.lim.MaxDepth {
		return nil, reject(ReasonTooDeep, "MIME nesting deeper than %d", p.lim.MaxDepth)
	}
	p.parts++
	if p.parts > p.lim.MaxParts {
		return nil, reject(ReasonTooManyParts, "more than %d MIME parts", p.lim.MaxParts)
	}
	hdrBytes, body := splitHeader(raw)
	// textproto.ReadHeader expects the blank line that ends the header.
	src := make([]byte, 0, len(hdrBytes)+2)
	src = append(src, hdrBytes...)
	src = append(src, '\r', '\n')
	hdr, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(src)))
	if err != nil {
		return nil, reject(ReasonBadStructure, "unreadable MIME header: %v", err)
	}
	for _, k := range singleHeaders {
		if len(hdr.Values(k)) > 1 {
			return nil, reject(ReasonBadStructure, "%s appears more than once", k)
		}
	}
	e := &entity{raw: raw, header: hdr, body: body, mediaType: "text/plain", params: map[string]string{}}
	if ct := hdr.Get("Content-Type"); strings.TrimSpace(ct) != "" {
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil {
			return nil, reject(ReasonBadStructure, "unparsable Content-Type %q: %v", ct, err)
		}
		e.mediaType, e.params = strings.ToLower(mt), params
	}
	if strings.HasPrefix(e.mediaType, "multipart/") {
		// RFC 2045 6.4: a multipart entity is never transfer-encoded; a
		// client that decodes it anyway would see other parts than we do.
		switch cte := strings.ToLower(strings.TrimSpace(hdr.Get("Content-Transfer-Encoding"))); cte {
		case "", "7bit", "8bit", "binary":
		default:
			return nil, reject(ReasonBadStructure, "multipart entity with Content-Transfer-Encoding %s", cte)
		}
		boundary := e.params["boundary"]
		parts, rej := splitMultipart(body, boundary)
		if rej != nil {
			return nil, rej
		}
		for _, part := range parts {
			child, rej := p.parse(part, depth+1)
			if rej != nil {
				return nil, rej
			}
			e.children = append(e.children, child)
		}
	}
	return e, nil
}

// splitHeader cuts raw at the first empty line. The line break that ends the
// last header field stays with the header; the empty line itself is dropped.
func splitHeader(raw []byte) (hdr, body []byte) {
	pos := 0
	for pos < len(raw) {
		end := bytes.IndexByte(raw[pos:], '\n')
		var line []byte
		next := len(raw)
		if end >= 0 {
			line = raw[pos : pos+end]
			next = pos + end + 1
		} else {
			line = raw[pos:]
		}
		if len(bytes.TrimSuffix(line, []byte("\r"))) == 0 {
			return raw[:pos], raw[next:]
		}
		pos = next
	}
	return raw, nil
}

// splitMultipart splits a multipart body into its parts (RFC 2046 5.1.1).
// The line break before a delimiter belongs to the delimiter. Preamble and
// epilogue are dropped; a missing close delimiter is an error.
func splitMultipart(body []byte, boundary string) ([][]byte, *Rejection) {
	if boundary == "" || len(boundary) > 70 {
		return nil, reject(ReasonBadStructure, "multipart boundary missing or longer than 70 characters")
	}
	dash := []byte("--" + boundary)
	var parts [][]byte
	start := -1 // start of the current part, -1 while in the preamble
	pos := 0
	for pos <= len(body) {
		lineEnd := bytes.IndexByte(body[pos:], '\n')
		next := len(body) + 1
		var line []byte
		if lineEnd >= 0 {
			line = body[pos : pos+lineEnd]
			next = pos + lineEnd + 1
		} else {
			line = body[pos:]
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if rest, ok := bytes.CutPrefix(line, dash); ok {
			closing := false
			if r, ok := bytes.CutPrefix(rest, []byte("--")); ok {
				closing, rest = true, r
			}
			if len(bytes.Trim(rest, " \t")) == 0 {
				if start >= 0 {
					end := pos
					if end > 0 && body[end-1] == '\n' {
						end--
						if end > 0 && body[end-1] == '\r' {
							end--
						}
					}
					if end < start {
						end = start
					}
					parts = append(parts, body[start:end])
				}
				if closing {
					if len(parts) == 0 {
						return nil, reject(ReasonBadStructure, "multipart without parts")
					}
					return parts, nil
				}
				start = next
				if start > len(body) {
					start = len(body)
				}
			}
		}
		pos = next
	}
	return nil, reject(ReasonBadStructure, "multipart without close delimiter")
}

// decodeBody removes the transfer encoding of a leaf entity.
func decodeBody(e *entity) ([]byte, *Rejection) {
	cte := strings.ToLower(strings.TrimSpace(e.header.Get("Content-Transfer-Encoding")))
	switch cte {
	case "", "7bit", "8bit", "binary":
		return e.body, nil
	case "quoted-printable":
		out, err := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(e.body)))
		if err != nil {
			return nil, reject(ReasonBadStructure, "bad quoted-printable body: %v", err)
		}
		return out, nil
	case "base64":
		clean := bytes.Map(func(r rune) rune {
			if r == '\r' || r == '\n' || r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, e.body)
		out := make([]byte, base64.StdEncoding.DecodedLen(len(clean)))
		n, err := base64.StdEncoding.Decode(out, clean)
		if err != nil {
			return nil, reject(ReasonBadStructure, "bad base64 body: %v", err)
		}
		return out[:n], nil
	default:
		return nil, reject(ReasonBadStructure, "unknown Content-Transfer-Encoding %q", cte)
	}
}

// fileName returns the file name of an entity from Content-Disposition or,
// failing that, the name parameter of Content-Type. RFC 2231 encoded names
// are decoded by mime.ParseMediaType, RFC 2047 encoded words (which some
// clients put in parameters) here.
func fileName(e *entity) string {
	if n := fileNames(e); len(n) > 0 {
		return n[0]
	}
	return ""
}

// fileNames returns every name an entity carries: Content-Disposition's
// filename first, then Content-Type's name when it differs. Clients
// disagree on which one to read, so a part is known by both.
func fileNames(e *entity) []string {
	var names []string
	add := func(name string) {
		if strings.Contains(name, "=?") {
			if dec, err := new(mime.WordDecoder).DecodeHeader(name); err == nil {
				name = dec
			}
		}
		for _, n := range names {
			if n == name {
				return
			}
		}
		if name != "" {
			names = append(names, name)
		}
	}
	if cd := e.header.Get("Content-Disposition"); cd != "" {
		if _, params, err := mime.ParseMediaType(cd); err == nil {
			add(params["filename"])
		}
	}
	add(e.params["name"])
	return names
}

// isAttachment reports whether the entity is marked as an attachment or has
// a file name.
func isAttachment(e *entity) bool {
	if cd := e.header.Get("Content-Disposition"); cd != "" {
		if d, _, err := mime.ParseMediaType(cd); err == nil && strings.EqualFold(d, "attachment") {
			return true
		}
	}
	return fileName(e) != ""
}

// canonicalCRLF returns b with every bare LF turned into CRLF, the canonical
// form over which RFC 3156 signatures are computed.
func canonicalCRLF(b []byte) []byte {
	n := bytes.Count(b, []byte("\n")) - bytes.Count(b, []byte("\r\n"))
	if n == 0 {
		return b
	}
	out := make([]byte, 0, len(b)+n)
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}

// signatureMarks reports whether e or anything below it looks like an
// OpenPGP signature: used only to tell "unsigned" from "wrapped-signature".
func signatureMarks(e *entity) bool {
	switch e.mediaType {
	case "multipart/signed", "application/pgp-signature", "multipart/encrypted", "application/pgp-encrypted":
		return true
	}
	name := strings.ToLower(fileName(e))
	if strings.HasSuffix(name, ".asc") || strings.HasSuffix(name, ".sig") || strings.HasSuffix(name, ".gpg") {
		return true
	}
	for _, c := range e.children {
		if signatureMarks(c) {
			return true
		}
	}
	if len(e.children) == 0 {
		if bytes.Contains(e.body, []byte("-----BEGIN PGP ")) {
			return true
		}
		if dec, rej := decodeBody(e); rej == nil && bytes.Contains(dec, []byte("-----BEGIN PGP ")) {
			return true
		}
	}
	return false
}

// partKind sorts the parts beside an order file.
type partKind int

const (
	kindOther  partKind = iota
	kindNote            // an inline text/plain or text/html part, or a multipart/alternative of them
	kindFile            // a text attachment
	kindPubKey          // an application/pgp-keys part (Thunderbird attaches the sender's key)
)

// kindOf classifies a part of a multipart/mixed holding an order file.
func kindOf(e *entity) partKind {
	switch {
	case e.mediaType == "application/pgp-keys":
		return kindPubKey
	case e.mediaType == "multipart/alternative":
		for _, c := range e.children {
			if len(c.children) > 0 || (c.mediaType != "text/plain" && c.mediaType != "text/html") {
				return kindOther
			}
		}
		if isAttachment(e) {
			return kindOther
		}
		return kindNote
	case len(e.children) > 0 || strings.HasPrefix(e.mediaType, "multipart/"):
		return kindOther
	case !strings.HasPrefix(e.mediaType, "text/"):
		return kindOther
	case isAttachment(e):
		return kindFile
	case e.mediaType == "text/plain" || e.mediaType == "text/html":
		return kindNote
	}
	return kindOther
}

// describePart says what an ignored part was, for the reply.
func describePart(e *entity) string {
	switch kindOf(e) {
	case kindPubKey:
		n := Escape(shortName(fileName(e)))
		if n == "" {
			n = "without a name"
		}
		return "the public key attachment " + n + " (keys come only from the game's registration)"
	case kindNote:
		return "a note (" + e.mediaType + ")"
	}
	if n := Escape(shortName(fileName(e))); n != "" {
		return "the attachment " + n + " (" + e.mediaType + ")"
	}
	return "a " + e.mediaType + " part"
}

// orderFromSigned finds the order file inside the signed part of a PGP/MIME
// message: the part itself when it is text/plain, or in a signed
// multipart/mixed the single text attachment, or failing an attachment a
// single inline text/plain part. Beside an attachment, notes (inline text,
// HTML or a multipart/alternative of them) and public key attachments
// (Thunderbird's) are allowed and returned as ignored; never read as
// orders. Anything else is refused.
func orderFromSigned(e *entity) (*entity, []string, *Rejection) {
	switch {
	case e.mediaType == "text/plain":
		return e, nil, nil
	case e.mediaType == "multipart/mixed":
		var files, notes, other []*entity
		for _, c := range e.children {
			switch kindOf(c) {
			case kindFile:
				files = append(files, c)
			case kindNote, kindPubKey:
				notes = append(notes, c)
			default:
				other = append(other, c)
			}
		}
		if len(other) > 0 {
			return nil, nil, reject(ReasonBadStructure, "a %s part inside the signed multipart/mixed; want one text attachment (or a plain text body)", other[0].mediaType)
		}
		var ignored []string
		for _, n := range notes {
			ignored = append(ignored, describePart(n))
		}
		switch {
		case len(files) == 1:
			return files[0], ignored, nil
		case len(files) == 0 && len(notes) == 1 && notes[0].mediaType == "text/plain":
			return notes[0], nil, nil
		case len(files) == 0 && len(notes) == 1 && notes[0].mediaType != "application/pgp-keys":
			return nil, nil, reject(ReasonBadStructure, "the signed text is %s, not plain text: send it as plain text only (in Thunderbird: Options, Delivery Format, Plain Text Only), or attach the order file", notes[0].mediaType)
		}
		return nil, nil, reject(ReasonBadStructure, "signed multipart/mixed with %d attachments and %d other parts, want one text attachment", len(files), len(notes))
	default:
		return nil, nil, reject(ReasonBadStructure, "signed part is %s, want text/plain or multipart/mixed", e.mediaType)
	}
}

// maxNameRunes bounds a file name as a reply names it: the name comes
// from outside the signature, and the host signs the reply.
const maxNameRunes = 40

// shortName cuts a file name to maxNameRunes, marking the cut.
func shortName(name string) string {
	r := []rune(name)
	if len(r) <= maxNameRunes {
		return name
	}
	return string(r[:maxNameRunes-1]) + "…"
}
