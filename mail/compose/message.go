package compose

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"time"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// hashSHA256 is the hash of every signature this package makes.
const hashSHA256 = crypto.SHA256

// Attachment is one file of an outgoing message.
type Attachment struct {
	// Name is the file name shown to the recipient.
	Name string
	// ContentType is the MIME type, parameters allowed ("text/plain;
	// charset=utf-8"); empty means application/octet-stream.
	ContentType string
	// Data is the file content; it is sent base64-encoded, byte for byte.
	Data []byte
}

// Message is an outgoing mail before signing.
type Message struct {
	// From and To are RFC 5322 address lists ("Host <host@example.org>").
	From, To string
	// Subject may hold any UTF-8; it is RFC 2047-encoded when needed.
	Subject string
	// MessageID is chosen by the caller, deterministic per report, with or
	// without angle brackets.
	MessageID string
	// Date is written to the Date: header.
	Date time.Time
	// Text is the inline text body (UTF-8, LF or CRLF line ends).
	Text string
	// Attachments follow the text in a multipart/mixed when present.
	Attachments []Attachment
}

// boundary derives a multipart boundary from the message identity, a label
// and a digest of the content it separates: deterministic for the same
// inputs and unpredictable from outside the content.
func boundary(messageID, label string, content ...[]byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", messageID, label)
	for _, c := range content {
		fmt.Fprintf(h, "%d\x00", len(c))
		h.Write(c)
	}
	return fmt.Sprintf("skagerrak-%s-%x", label, h.Sum(nil)[:12])
}

// renderEntity renders the MIME entity that gets signed: a quoted-printable
// text/plain part, or a multipart/mixed of an inline text part and base64
// attachments. The output has CRLF line ends throughout.
func renderEntity(m *Message) ([]byte, error) {
	var buf bytes.Buffer
	textHeader := func() message.Header {
		var h message.Header
		h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
		h.Set("Content-Transfer-Encoding", "quoted-printable")
		return h
	}
	if len(m.Attachments) == 0 {
		w, err := message.CreateWriter(&buf, textHeader())
		if err != nil {
			return nil, fmt.Errorf("compose: render: %w", err)
		}
		if _, err := io.WriteString(w, m.Text); err != nil {
			return nil, fmt.Errorf("compose: render: %w", err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("compose: render: %w", err)
		}
		return protectFrom(buf.Bytes()), nil
	}
	content := [][]byte{[]byte(m.Text)}
	for _, a := range m.Attachments {
		content = append(content, []byte(a.Name), []byte(a.ContentType), a.Data)
	}
	var h message.Header
	h.SetContentType("multipart/mixed", map[string]string{"boundary": boundary(m.MessageID, "mixed", content...)})
	w, err := message.CreateWriter(&buf, h)
	if err != nil {
		return nil, fmt.Errorf("compose: render: %w", err)
	}
	th := textHeader()
	th.SetContentDisposition("inline", nil)
	if err := writePart(w, th, []byte(m.Text)); err != nil {
		return nil, err
	}
	for _, a := range m.Attachments {
		if a.Name == "" || strings.ContainsAny(a.Name, "\r\n/\\") {
			return nil, fmt.Errorf("compose: render: bad attachment name %q", a.Name)
		}
		ct := a.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		mt, params, err := mime.ParseMediaType(ct)
		if err != nil {
			return nil, fmt.Errorf("compose: render: attachment %q: %w", a.Name, err)
		}
		params["name"] = a.Name
		var ah message.Header
		ah.SetContentType(mt, params)
		ah.SetContentDisposition("attachment", map[string]string{"filename": a.Name})
		ah.Set("Content-Transfer-Encoding", "base64")
		if err := writePart(w, ah, a.Data); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("compose: render: %w", err)
	}
	return protectFrom(buf.Bytes()), nil
}

// protectFrom quoted-printable-encodes the F of every line that starts with
// "From " in a rendered entity, so that an mbox store does not turn it into
// ">From " and break the signature (RFC 3156 section 3). Only quoted-printable
// text can hold such a line here: header field names end with a colon,
// boundaries start with "--" and base64 has no space.
func protectFrom(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("\r\nFrom "), []byte("\r\n=46rom "))
	if bytes.HasPrefix(b, []byte("From ")) {
		b = append([]byte("=46"), b[1:]...)
	}
	return b
}

// writePart writes one part of a multipart writer.
func writePart(w *message.Writer, h message.Header, data []byte) error {
	pw, err := w.CreatePart(h)
	if err != nil {
		return fmt.Errorf("compose: render: %w", err)
	}
	if _, err := pw.Write(data); err != nil {
		return fmt.Errorf("compose: render: %w", err)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("compose: render: %w", err)
	}
	return nil
}

// mailHeader builds the RFC 5322 header of m with the given root
// Content-Type.
func mailHeader(m *Message, mediaType string, params map[string]string) (textproto.Header, error) {
	var h mail.Header
	from, err := mail.ParseAddressList(m.From)
	if err != nil || len(from) == 0 {
		return textproto.Header{}, fmt.Errorf("compose: bad From %q: %v", m.From, err)
	}
	to, err := mail.ParseAddressList(m.To)
	if err != nil || len(to) == 0 {
		return textproto.Header{}, fmt.Errorf("compose: bad To %q: %v", m.To, err)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(m.MessageID), "<"), ">")
	if id == "" || strings.ContainsAny(id, "<> \r\n") || !strings.Contains(id, "@") {
		return textproto.Header{}, fmt.Errorf("compose: bad Message-ID %q", m.MessageID)
	}
	if m.Date.IsZero() {
		return textproto.Header{}, errors.New("compose: message without Date")
	}
	// go-message writes fields in reverse order of addition.
	h.SetContentType(mediaType, params)
	h.Set("MIME-Version", "1.0")
	h.SetMessageID(id)
	h.SetDate(m.Date)
	h.SetSubject(m.Subject)
	h.SetAddressList("To", to)
	h.SetAddressList("From", from)
	return h.Header.Header, nil
}

// assemble writes a mail header and a multipart body made of whole parts
// (each a header and body) separated by boundary b.
func assemble(hdr textproto.Header, preamble, b string, parts ...[]byte) ([]byte, error) {
	var out bytes.Buffer
	if err := textproto.WriteHeader(&out, hdr); err != nil {
		return nil, fmt.Errorf("compose: write header: %w", err)
	}
	out.WriteString(preamble + "\r\n")
	for _, p := range parts {
		out.WriteString("--" + b + "\r\n")
		out.Write(p)
		out.WriteString("\r\n")
	}
	out.WriteString("--" + b + "--\r\n")
	return out.Bytes(), nil
}

// crlf turns every bare LF of b into CRLF.
func crlf(b []byte) []byte {
	var out bytes.Buffer
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out.WriteByte('\r')
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}
