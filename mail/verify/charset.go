package verify

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
)

// FixCharset is the advice a reply gives a player whose client sent text
// that is not UTF-8 without saying what it is: the one client setting known
// to send such text by default, and what fixes it anywhere.
const FixCharset = `send the order file as UTF-8 (in mutt: set send_charset="utf-8"), or save it as UTF-8 and sign it again`

// TextError says why signed bytes are not text that can be read: a charset
// nobody knows, bytes the charset does not define, 8-bit bytes that are not
// UTF-8 with no charset named. Its message names the line and the fix.
type TextError struct {
	// Charset is the charset the mail named, "" for none.
	Charset string
	// Line is the 1-based line of the first byte at fault, 0 when the
	// charset itself is at fault.
	Line int
	msg  string
}

func (e *TextError) Error() string { return e.msg }

// isUTF8Label reports whether a declared charset means the bytes are to be
// taken as UTF-8: none named (RFC 2046 says US-ASCII, of which UTF-8 is a
// superset), US-ASCII itself, or UTF-8.
func isUTF8Label(cs string) bool {
	switch strings.ToLower(strings.TrimSpace(cs)) {
	case "", "us-ascii", "ascii", "utf-8", "utf8":
		return true
	}
	return false
}

// DecodeText returns signed bytes as UTF-8 text, decoding them from the
// charset their MIME part declares (RFC 2046 4.1.2): any charset the IANA
// registry or the WHATWG encoding standard knows (ISO-8859-1 and -15,
// Windows-1252, KOI8-R, Shift_JIS, ...), through go-message's charset
// package over golang.org/x/text. No charset, US-ASCII and UTF-8 take the
// bytes as they are, which must then be valid UTF-8. The signature is
// always checked over the bytes as sent, before this.
func DecodeText(b []byte, cs string) (string, error) {
	label := strings.ToLower(strings.TrimSpace(cs))
	if isUTF8Label(label) {
		if utf8.Valid(b) {
			return string(b), nil
		}
		line := lineOf(b, firstInvalidUTF8(b))
		if label == "utf-8" || label == "utf8" {
			return "", &TextError{Charset: cs, Line: line, msg: fmt.Sprintf("the order file is labelled UTF-8, but line %d is not UTF-8: save it as UTF-8 and sign it again", line)}
		}
		return "", &TextError{Charset: cs, Line: line, msg: fmt.Sprintf("the order file holds 8-bit text that is not UTF-8 (line %d) and its mail names no charset: %s", line, FixCharset)}
	}
	r, err := charset.Reader(label, bytes.NewReader(b))
	if err != nil {
		return "", &TextError{Charset: cs, msg: fmt.Sprintf("the order file's charset %q is not one skagerrak can read: %s", Escape(cs), FixCharset)}
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return "", &TextError{Charset: cs, msg: fmt.Sprintf("the order file does not decode as %s: %v: %s", Escape(cs), err, FixCharset)}
	}
	if i := bytes.IndexRune(out, utf8.RuneError); i >= 0 {
		line := lineOf(out, i)
		return "", &TextError{Charset: cs, Line: line, msg: fmt.Sprintf("line %d of the order file holds a byte that %s does not define: %s", line, Escape(cs), FixCharset)}
	}
	return string(out), nil
}

// firstInvalidUTF8 is the offset of the first byte of b that does not
// start a valid UTF-8 sequence.
func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// lineOf is the 1-based line of offset i in b.
func lineOf(b []byte, i int) int {
	return bytes.Count(b[:min(i, len(b))], []byte("\n")) + 1
}

// unsignedCharset is the charset signed bytes are read in when the label
// that names it is outside the signature (the detached and cleartext
// forms): UTF-8 ("") when they are valid UTF-8, else Windows-1252 (what
// the WHATWG encoding standard reads ISO-8859-1 and US-ASCII labels as,
// which covers every letter of the rulebooks' names), whatever the mail
// declares. Anyone may change an unsigned label in a copy of the mail; if
// the label decided the reading, a relabelled copy mailed first would
// decide what the signed message says, since every copy has its identity.
func unsignedCharset(signed []byte) string {
	if utf8.Valid(signed) {
		return ""
	}
	return "windows-1252"
}

// declared is the charset label of a part whose label the signature does
// not cover, for the reports that say it was not trusted.
func declared(e *entity) string { return entityCharset(e) }

// entityCharset is the charset parameter of a text entity, "" if none.
func entityCharset(e *entity) string {
	return strings.TrimSpace(e.params["charset"])
}

// Text returns the order file as UTF-8: Signed decoded from Charset (see
// DecodeText). A *TextError says what is wrong and how to fix it.
func (r *Result) Text() (string, error) {
	return DecodeText(r.Signed, r.Charset)
}
