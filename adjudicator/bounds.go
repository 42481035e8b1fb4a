package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"skagerrak/engine"
)

// What a refused message leaves in the log is bounded, so that a flood of
// signed mail cannot fill the disk: an OrdersRejected record keeps what
// the reply and a reader of the log need (the reason, the errors, the
// header lines, the size and digest of the mail) and the message itself
// only while it is small.
const (
	// MaxRejectedRaw is the largest refused mail kept whole; a larger one
	// leaves only its size and SHA-256.
	MaxRejectedRaw = 8 << 10
	// MaxRejectedText bounds the order text kept, as the log encodes it.
	MaxRejectedText = 4 << 10
	// MaxRejectedReason bounds the reason (it may quote header values).
	MaxRejectedReason = 1 << 10
	// MaxRejectedErrors is how many line errors are kept; the rest are
	// counted.
	MaxRejectedErrors = 20
	// MaxRejectedRecord bounds the whole record's data as the log stores
	// it: what is over it after the limits above (only a kept mail can
	// make it so) drops the mail.
	MaxRejectedRecord = 32 << 10
	// MaxRefusalLogBytes bounds what one refused signed message adds to
	// its game's log: its OrdersRejected record, the record's envelope
	// (seq, time, type, hashes), and, while the reply limit allows, the
	// reply's MailQueued and MailSent records.
	MaxRefusalLogBytes = MaxRejectedRecord + 3<<10
	// maxField bounds each short field: the phase named, an error's line,
	// rule, message and hint, each part beside the order file.
	maxField    = 200
	maxIgnored  = 8
	maxPhaseLen = 64
)

// bound cuts a rejection record to the limits above. raw is the mail as
// received (nil for a file).
func bound(r *OrdersRejected, raw []byte) {
	if len(raw) > 0 {
		sum := sha256.Sum256(raw)
		r.RawBytes, r.RawSHA256 = len(raw), hex.EncodeToString(sum[:])
	}
	if len(raw) > MaxRejectedRaw {
		r.Raw = nil
	}
	if t := fitJSON(r.Text, MaxRejectedText); t != r.Text {
		sum := sha256.Sum256([]byte(r.Text))
		r.TextBytes, r.TextSHA256 = len(r.Text), hex.EncodeToString(sum[:])
		r.Text = t
	}
	r.Phase = fitJSON(r.Phase, maxPhaseLen)
	r.Reason = cutField(r.Reason, MaxRejectedReason)
	if n := len(r.Errors); n > MaxRejectedErrors {
		r.MoreErrors = n - MaxRejectedErrors
		r.Errors = r.Errors[:MaxRejectedErrors]
	}
	errs := make([]engine.LineError, len(r.Errors))
	for i, e := range r.Errors {
		errs[i] = engine.LineError{Line: e.Line, Text: cutField(e.Text, maxField), Rule: cutField(e.Rule, maxField), Msg: cutField(e.Msg, maxField), Valid: cutValid(e.Valid, maxField)}
	}
	r.Errors = errs
	r.Ignored = boundIgnored(r.Ignored)
	if b, err := json.Marshal(r); err == nil && len(b) > MaxRejectedRecord {
		r.Raw = nil
	}
}

// cutField cuts s to at most max bytes as the log encodes it, marking the
// cut with an ellipsis.
func cutField(s string, max int) string {
	if t := fitJSON(s, max); t != s {
		return fitJSON(s, max-len(`…`)) + "…"
	}
	return s
}

// cutValid cuts an error's list of valid values to at most max bytes as
// the log encodes it, between whole names ("… and 12 more"), never inside
// one; text that still does not fit is cut as cutField cuts it.
func cutValid(s string, max int) string {
	if t := engine.FitList(s, max); fitJSON(t, max) == t {
		return t
	}
	return cutField(s, max)
}

// fitJSON returns the longest prefix of s, cut between runes, whose JSON
// string encoding (as encoding/json writes it, quotes aside) takes at most
// max bytes.
func fitJSON(s string, max int) string {
	n := 0
	for i, r := range s {
		w := jsonWidth(r, s[i:])
		if n+w > max {
			return s[:i]
		}
		n += w
	}
	return s
}

// jsonWidth is how many bytes encoding/json writes for the rune r that
// starts rest.
func jsonWidth(r rune, rest string) int {
	switch {
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20 || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029':
		return 6
	case r == utf8.RuneError:
		if _, size := utf8.DecodeRuneInString(rest); size == 1 {
			return 6 // an invalid byte, written as \ufffd
		}
	}
	return utf8.RuneLen(r)
}

// boundIgnored cuts the list of parts not read as orders to maxIgnored,
// each to maxField: they come from outside the signature, and the reply
// the host signs names them.
func boundIgnored(ignored []string) []string {
	if len(ignored) == 0 {
		return nil
	}
	out := append([]string(nil), ignored...)
	if len(out) > maxIgnored {
		out = append(out[:maxIgnored-1:maxIgnored-1], fmt.Sprintf("and %d more parts", len(out)-maxIgnored+1))
	}
	for i, s := range out {
		out[i] = cutField(s, maxField)
	}
	return out
}
