package verify

import (
	"fmt"
	"unicode/utf8"
)

// ControlError refuses signed order text holding a control character
// other than tab, line feed and carriage return: C0 controls (NUL among
// them), DEL and C1 controls. Mail does not carry them intact (an IMAP
// server may pass a NUL on as another byte, and the signature then fails;
// a terminal shown the text obeys an escape), and no order needs one. Its
// message names the line, the column and the fix; the daemon replies with
// it and `skagerrak check` says the same. nil when there is none.
func ControlError(text string) *TextError {
	line, col := 1, 0
	for _, r := range text {
		col++
		if r == '\n' {
			line, col = line+1, 0
			continue
		}
		if r == '\t' || r == '\r' || !(r < 0x20 || r >= 0x7f && r < 0xa0) {
			continue
		}
		return &TextError{Line: line, msg: fmt.Sprintf("line %d, column %d of the order file holds the control character %s (U+%04X), which mail does not carry intact: remove it, save the file as plain text and sign it again", line, col, controlName(r), r)}
	}
	return nil
}

// controlName names a control character as people know it.
func controlName(r rune) string {
	names := map[rune]string{0: "NUL", 0x07: "BEL", 0x08: "backspace", 0x0b: "vertical tab", 0x0c: "form feed", 0x1b: "ESC", 0x7f: "DEL"}
	if n, ok := names[r]; ok {
		return n
	}
	return "control"
}

// restoreNULs undoes what an IMAP server without BINARY does to the NUL
// bytes a plain FETCH cannot carry: Dovecot passes each on as 0x80. It
// returns raw with every 0x80 byte that is no part of a UTF-8 sequence
// made NUL again, and how many there were (0: raw unchanged). The caller
// tries the signature again over the result: if it verifies, the signer
// made it over those NULs, and hears why the message is refused.
func restoreNULs(raw []byte) ([]byte, int) {
	var out []byte
	n := 0
	for i := 0; i < len(raw); {
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && size == 1 && raw[i] == 0x80 {
			if out == nil {
				out = append([]byte(nil), raw...)
			}
			out[i] = 0
			n++
		}
		i += size
	}
	if n == 0 {
		return raw, 0
	}
	return out, n
}
