package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// FormatVersion is the version of the on-disk record format described in the
// package documentation. Version 1 logs carry no header record: the version is
// implied. A future format that is not byte-compatible will begin its logs
// with a record of a type under ReservedTypePrefix, which a version 1 reader
// refuses. Batches (framed records, see the package documentation) extend
// version 1: a log without them is byte for byte what it was.
const FormatVersion = 1

// GenesisPrev is the prev field of the first record (seq 1) of every log, and
// the hash Head reports for an empty log: 64 zero hex digits.
const GenesisPrev = "0000000000000000000000000000000000000000000000000000000000000000"

// MaxRecordBytes bounds the length of one record line, newline included.
// Append refuses larger records and readers report longer lines as damage.
const MaxRecordBytes = 16 << 20

// MaxTypeLen bounds the length of an event type name.
const MaxTypeLen = 64

// ReservedTypePrefix starts the event types reserved for the log format
// itself. Append refuses them and a version 1 reader reports them as damage.
const ReservedTypePrefix = "events."

// Event is one record of a game's log. Seq numbers start at 1 with no gaps;
// Prev is the Hash of the record before (GenesisPrev for seq 1); Hash is
// hex(sha256(raw(Prev) || canonical bytes)) as described in the package
// documentation. Data is the event's payload as compact JSON.
type Event struct {
	Seq  uint64          `json:"seq"`
	Time time.Time       `json:"time"`
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
	Prev string          `json:"prev"`
	Hash string          `json:"hash"`
}

// Record field delimiters, in the fixed order of the canonical form.
const (
	keySeq  = `{"seq":`
	keyTime = `,"time":"`
	keyType = `","type":"`
	keyData = `","data":`
	keyPrev = `,"prev":"`
	keyHash = `","hash":"`
	recEnd  = `"}`
)

// hashSuffixLen is the length of `,"hash":"<64 hex>"}`, the part of a record
// line (newline excluded) that is not in its canonical bytes but for the
// final `}`.
const hashSuffixLen = len(`,"hash":"`) + 64 + len(recEnd)

// prevSuffixLen is the length of `,"prev":"<64 hex>","hash":"<64 hex>"}`.
const prevSuffixLen = len(keyPrev) + 64 + len(keyHash) + 64 + len(recEnd)

// ValidType reports why typ cannot be an event type, or nil if it can: a type
// is 1 to MaxTypeLen characters, an ASCII letter then ASCII letters, digits,
// '_', '.' or '-', and does not start with ReservedTypePrefix.
func ValidType(typ string) error {
	if typ == "" {
		return errors.New("empty event type")
	}
	if len(typ) > MaxTypeLen {
		return fmt.Errorf("event type longer than %d bytes", MaxTypeLen)
	}
	for i := 0; i < len(typ); i++ {
		c := typ[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if i == 0 && !letter {
			return fmt.Errorf("event type %q does not start with an ASCII letter", typ)
		}
		if !letter && !(c >= '0' && c <= '9') && c != '_' && c != '.' && c != '-' {
			return fmt.Errorf("event type %q has a character other than letters, digits, '_', '.', '-'", typ)
		}
	}
	if strings.HasPrefix(typ, ReservedTypePrefix) {
		return fmt.Errorf("event type %q is reserved for the log format", typ)
	}
	return nil
}

// validTime reports why t cannot be recorded, or nil.
func validTime(t time.Time) error {
	if t.IsZero() {
		return errors.New("zero event time")
	}
	if y := t.UTC().Year(); y < 1 || y > 9999 {
		return fmt.Errorf("event time year %d outside 1..9999", y)
	}
	return nil
}

// encodeData returns data as compact JSON. A json.RawMessage is validated and
// compacted as is; anything else goes through json.Marshal.
func encodeData(data any) ([]byte, error) {
	var raw []byte
	switch d := data.(type) {
	case json.RawMessage:
		raw = d
	case *json.RawMessage:
		if d != nil {
			raw = *d
		}
	default:
		b, err := json.Marshal(data)
		if err != nil {
			return nil, fmt.Errorf("event data: %w", err)
		}
		return escapeData(b), nil
	}
	if raw == nil {
		return []byte("null"), nil
	}
	if !utf8.Valid(raw) {
		return nil, errors.New("event data is not valid UTF-8")
	}
	var buf bytes.Buffer
	buf.Grow(len(raw))
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("event data is not valid JSON: %w", err)
	}
	out := escapeData(buf.Bytes())
	if err := CheckData(out); err != nil {
		return nil, fmt.Errorf("event data is not canonical: %w", err)
	}
	return out, nil
}

// needsEscape reports whether compact JSON b holds a character the canonical
// form escapes: <, >, & or U+2028, U+2029 (which in valid JSON can only be
// inside strings).
func needsEscape(b []byte) bool {
	for i, c := range b {
		switch c {
		case '<', '>', '&':
			return true
		case 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
			if i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
				return true
			}
		}
	}
	return false
}

// escapeData returns compact JSON b with <, >, &, U+2028 and U+2029 escaped
// as \u003c, \u003e, \u0026, \u2028, \u2029, as json.Marshal writes them.
func escapeData(b []byte) []byte {
	if !needsEscape(b) {
		return b
	}
	var buf bytes.Buffer
	json.HTMLEscape(&buf, b)
	return buf.Bytes()
}

// isHex64 reports whether s is exactly 64 lowercase hex digits.
func isHex64[S string | []byte](s S) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// appendCanonical appends the canonical bytes of a record: the JSON object
// {"seq","time","type","data","prev"} in that order, no whitespace.
func appendCanonical(dst []byte, seq uint64, at time.Time, typ string, data []byte, prev string) []byte {
	dst = append(dst, keySeq...)
	dst = strconv.AppendUint(dst, seq, 10)
	dst = append(dst, keyTime...)
	dst = at.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, keyType...)
	dst = append(dst, typ...)
	dst = append(dst, keyData...)
	dst = append(dst, data...)
	dst = append(dst, keyPrev...)
	dst = append(dst, prev...)
	dst = append(dst, recEnd...)
	return dst
}

// chainHash returns sha256(raw(prev) || canonical). prev must be 64 hex digits.
func chainHash(prev string, canonical []byte) [sha256.Size]byte {
	var p [sha256.Size]byte
	hex.Decode(p[:], []byte(prev))
	h := sha256.New()
	h.Write(p[:])
	h.Write(canonical)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// seal builds the event that follows (seq-1, prev) and its record line,
// newline included.
func seal(seq uint64, prev, typ string, at time.Time, data any) (Event, []byte, error) {
	if seq == 0 {
		return Event{}, nil, errors.New("seq 0: seqs start at 1")
	}
	if !isHex64(prev) {
		return Event{}, nil, fmt.Errorf("prev %q is not 64 lowercase hex digits", prev)
	}
	if seq == 1 && prev != GenesisPrev {
		return Event{}, nil, errors.New("the prev of seq 1 must be GenesisPrev")
	}
	if err := ValidType(typ); err != nil {
		return Event{}, nil, err
	}
	if err := validTime(at); err != nil {
		return Event{}, nil, err
	}
	raw, err := encodeData(data)
	if err != nil {
		return Event{}, nil, err
	}
	at = at.UTC().Round(0)
	line := make([]byte, 0, len(raw)+256)
	line = appendCanonical(line, seq, at, typ, raw, prev)
	sum := chainHash(prev, line)
	line = line[:len(line)-1] // drop the final '}'
	line = append(line, keyHash[1:]...)
	line = hex.AppendEncode(line, sum[:])
	line = append(line, recEnd...)
	line = append(line, '\n')
	if len(line) > MaxRecordBytes {
		return Event{}, nil, fmt.Errorf("record of %d bytes exceeds MaxRecordBytes (%d)", len(line), MaxRecordBytes)
	}
	ev := Event{
		Seq:  seq,
		Time: at,
		Type: typ,
		Data: json.RawMessage(raw),
		Prev: prev,
		Hash: hex.EncodeToString(sum[:]),
	}
	return ev, line, nil
}

// NewEvent builds the event with the given seq that follows a record whose
// hash is prev (GenesisPrev when seq is 1), computing its Hash. Time is stored
// in UTC with nanosecond precision (and no monotonic reading); data is encoded
// with json.Marshal, or validated and compacted if it is a json.RawMessage.
// Log implementations use it so that every store produces the same records.
func NewEvent(seq uint64, prev, typ string, at time.Time, data any) (Event, error) {
	ev, _, err := seal(seq, prev, typ, at, data)
	if err != nil {
		return Event{}, fmt.Errorf("events: %w", err)
	}
	return ev, nil
}

// MarshalJSON returns e as its record line (without the newline), exactly as
// the file store writes it. It does not recompute Hash; it fails if a field
// cannot appear in a record.
func (e Event) MarshalJSON() ([]byte, error) {
	if err := ValidType(e.Type); err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	if err := validTime(e.Time); err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	if !isHex64(e.Prev) || !isHex64(e.Hash) {
		return nil, errors.New("events: prev and hash must be 64 lowercase hex digits")
	}
	raw, err := encodeData(e.Data)
	if err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	line := appendCanonical(make([]byte, 0, len(raw)+256), e.Seq, e.Time, e.Type, raw, e.Prev)
	line = line[:len(line)-1]
	line = append(line, keyHash[1:]...)
	line = append(line, e.Hash...)
	return append(line, recEnd...), nil
}

// ParseRecord parses one record line (a trailing newline is allowed) and
// checks that it is in canonical form and that its hash matches its own
// content. It does not check the chain (seq continuity and prev links); a
// Reader does. The returned Event does not alias line.
func ParseRecord(line []byte) (Event, error) {
	line = bytes.TrimSuffix(line, []byte{'\n'})
	ev, err := parseRecord(line)
	if err != nil {
		return Event{}, fmt.Errorf("events: %w", err)
	}
	return ev, nil
}

// parseRecord parses a record line without its newline, strictly: the bytes
// must be exactly what seal writes for the fields they hold.
func parseRecord(line []byte) (Event, error) {
	n := len(line)
	if !bytes.HasPrefix(line, []byte(keySeq)) {
		//lint:ignore ST1005 the message quotes what a record starts with
		return Event{}, errors.New(`not a record: it does not start with {"seq":`)
	}
	if n < len(keySeq)+prevSuffixLen {
		return Event{}, errors.New("not a record: too short")
	}
	prev, hash, err := parseRecordTail(line[n-prevSuffixLen:])
	if err != nil {
		return Event{}, err
	}
	rest := line[len(keySeq) : n-prevSuffixLen]
	seq, rest, err := parseRecordSeq(rest)
	if err != nil {
		return Event{}, err
	}
	t, rest, err := parseRecordTime(rest)
	if err != nil {
		return Event{}, err
	}
	typ, rest, err := parseRecordType(rest)
	if err != nil {
		return Event{}, err
	}
	data, err := parseRecordData(rest)
	if err != nil {
		return Event{}, err
	}
	if seq == 1 && string(prev) != GenesisPrev {
		return Event{}, errors.New("the prev of record 1 is not 64 zeros")
	}
	if err := checkRecordHash(line, prev, hash); err != nil {
		return Event{}, err
	}
	return Event{
		Seq:  seq,
		Time: t.UTC(),
		Type: typ,
		Data: json.RawMessage(bytes.Clone(data)),
		Prev: string(prev),
		Hash: string(hash),
	}, nil
}

// parseRecordTail reads a record's fixed-size tail,
// ,"prev":"<64>","hash":"<64>"}, and returns its prev and hash.
func parseRecordTail(tail []byte) (prev, hash []byte, err error) {
	prev = tail[len(keyPrev) : len(keyPrev)+64]
	hash = tail[len(keyPrev)+64+len(keyHash) : len(keyPrev)+64+len(keyHash)+64]
	if string(tail[:len(keyPrev)]) != keyPrev ||
		string(tail[len(keyPrev)+64:len(keyPrev)+64+len(keyHash)]) != keyHash ||
		string(tail[prevSuffixLen-len(recEnd):]) != recEnd {
		return nil, nil, errors.New(`not a canonical record: it does not end with ,"prev":"…","hash":"…"}`)
	}
	if !isHex64(prev) {
		return nil, nil, errors.New("prev is not 64 lowercase hex digits")
	}
	if !isHex64(hash) {
		return nil, nil, errors.New("hash is not 64 lowercase hex digits")
	}
	return prev, hash, nil
}

// parseRecordSeq reads the seq that starts rest: decimal, no sign, no
// leading zero, from 1 to 2^64-1. It returns what follows it.
func parseRecordSeq(rest []byte) (uint64, []byte, error) {
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i > 20 || (rest[0] == '0') {
		return 0, nil, errors.New("seq is not a canonical decimal number")
	}
	seq, err := strconv.ParseUint(string(rest[:i]), 10, 64)
	if err != nil || seq == 0 {
		return 0, nil, errors.New("seq is not a number from 1 to 2^64-1")
	}
	return seq, rest[i:], nil
}

// parseRecordTime reads the ,"time":"…" member that starts rest: RFC 3339
// in its canonical form (UTC, RFC3339Nano), within the years a record may
// hold. It returns what follows, from the closing quote.
func parseRecordTime(rest []byte) (time.Time, []byte, error) {
	if !bytes.HasPrefix(rest, []byte(keyTime)) {
		return time.Time{}, nil, errors.New(`not a canonical record: ,"time":" does not follow seq`)
	}
	rest = rest[len(keyTime):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return time.Time{}, nil, errors.New("time is not terminated")
	}
	ts := rest[:j]
	t, err := time.Parse(time.RFC3339Nano, string(ts))
	if err != nil {
		return time.Time{}, nil, fmt.Errorf("time %q is not RFC 3339", ts)
	}
	if string(t.UTC().AppendFormat(nil, time.RFC3339Nano)) != string(ts) {
		return time.Time{}, nil, fmt.Errorf("time %q is not in canonical form (UTC, RFC3339Nano)", ts)
	}
	if err := validTime(t); err != nil {
		return time.Time{}, nil, err
	}
	return t, rest[j:], nil
}

// parseRecordType reads the ","type":"…" member that starts rest (from the
// time's closing quote) and checks the type's name. It returns what
// follows, from the closing quote.
func parseRecordType(rest []byte) (string, []byte, error) {
	if !bytes.HasPrefix(rest, []byte(keyType)) {
		return "", nil, errors.New(`not a canonical record: ,"type":" does not follow time`)
	}
	rest = rest[len(keyType):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return "", nil, errors.New("type is not terminated")
	}
	typ := string(rest[:j])
	if err := ValidType(typ); err != nil {
		return "", nil, err
	}
	return typ, rest[j:], nil
}

// parseRecordData reads the ","data": member that is the rest of the
// record (from the type's closing quote) and checks that the data is
// exactly as seal encodes it: compact, valid UTF-8, escaped, canonical.
func parseRecordData(rest []byte) ([]byte, error) {
	if !bytes.HasPrefix(rest, []byte(keyData)) {
		return nil, errors.New(`not a canonical record: ,"data": does not follow type`)
	}
	data := rest[len(keyData):]
	if len(data) == 0 {
		return nil, errors.New("data is missing")
	}
	var buf bytes.Buffer
	buf.Grow(len(data))
	if err := json.Compact(&buf, data); err != nil {
		return nil, fmt.Errorf("data is not valid JSON: %v", err)
	}
	if !bytes.Equal(buf.Bytes(), data) {
		return nil, errors.New("data is not compact JSON")
	}
	if !utf8.Valid(data) {
		return nil, errors.New("data is not valid UTF-8")
	}
	if needsEscape(data) {
		return nil, errors.New(`data has an unescaped <, >, &, U+2028 or U+2029`)
	}
	if err := CheckData(data); err != nil {
		return nil, fmt.Errorf("data is not canonical: %v", err)
	}
	return data, nil
}

// checkRecordHash checks a record's hash against its content:
// sha256(raw(prev) || line without ,"hash":"…" but its final }).
func checkRecordHash(line, prev, hash []byte) error {
	var p [sha256.Size]byte
	hex.Decode(p[:], prev)
	h := sha256.New()
	h.Write(p[:])
	h.Write(line[:len(line)-hashSuffixLen])
	h.Write([]byte{'}'})
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	var want [sha256.Size]byte
	hex.Decode(want[:], hash)
	if sum != want {
		return errors.New("hash does not match")
	}
	return nil
}

// MaxBatchRecords bounds the records of one batch (Log.AppendBatch).
const MaxBatchRecords = 4096

// keyBatch starts the member that the file store adds, after hash, to each
// record of a batch of two or more: ,"batch":[K,N]} says the record is the
// K-th of a batch of N. It is framing, not part of the record: the hash
// does not cover it, and other stores do not keep it.
const keyBatch = `,"batch":[`

// part is a record's place in its batch: the k-th of n; n is 0 for a
// record appended alone.
type part struct{ k, n int }

// ErrNotNext is wrapped by the error of an AppendBatch whose records do not
// continue the log: the first does not follow the head, one does not link
// to the one before, or one is not as NewEvent makes it. Nothing of the
// batch is appended and the log stays usable.
var ErrNotNext = errors.New("events: the batch does not continue the log")

// Sealed checks that batch continues a log whose head is (seq, head): its
// records numbered on from seq+1, each linked to the one before and exactly
// as NewEvent makes it. It returns their record lines, newline included,
// or an error wrapping ErrNotNext. Log implementations call it first in
// AppendBatch.
func Sealed(seq uint64, head string, batch []Event) ([][]byte, error) {
	if len(batch) > MaxBatchRecords {
		return nil, fmt.Errorf("%w: %d records, more than MaxBatchRecords (%d)", ErrNotNext, len(batch), MaxBatchRecords)
	}
	lines := make([][]byte, len(batch))
	for i, ev := range batch {
		if ev.Seq != seq+1 || ev.Prev != head {
			return nil, fmt.Errorf("%w: record %d of the batch is seq %d after %s, the log's head is seq %d (%s)", ErrNotNext, i+1, ev.Seq, short(ev.Prev), seq, short(head))
		}
		again, line, err := seal(ev.Seq, ev.Prev, ev.Type, ev.Time, ev.Data)
		if err != nil {
			return nil, fmt.Errorf("%w: record %d of the batch: %v", ErrNotNext, i+1, err)
		}
		if again.Hash != ev.Hash || !again.Time.Equal(ev.Time) || !bytes.Equal(again.Data, ev.Data) {
			return nil, fmt.Errorf("%w: record %d of the batch (seq %d) is not as NewEvent makes it", ErrNotNext, i+1, ev.Seq)
		}
		lines[i] = line
		seq, head = ev.Seq, ev.Hash
	}
	return lines, nil
}

// short is the first digits of a hash, for messages.
func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// framed returns the file store's bytes of a batch's record lines, each
// with ,"batch":[K,N] before its final } when there are two or more, and
// where each starts.
func framed(lines [][]byte) ([]byte, []int) {
	if len(lines) == 1 {
		return lines[0], []int{0}
	}
	size := 0
	for _, l := range lines {
		size += len(l) + len(keyBatch) + 12
	}
	out := make([]byte, 0, size)
	starts := make([]int, len(lines))
	for i, l := range lines {
		starts[i] = len(out)
		out = append(out, l[:len(l)-2]...) // up to the final }\n
		out = append(out, keyBatch...)
		out = strconv.AppendInt(out, int64(i+1), 10)
		out = append(out, ',')
		out = strconv.AppendInt(out, int64(len(lines)), 10)
		out = append(out, "]}\n"...)
	}
	return out, starts
}

// unframe splits a file line (without newline) into its record line and
// its place in its batch (see keyBatch). A line without the member is
// returned as it is, with n 0.
func unframe(line []byte) ([]byte, part, error) {
	n := len(line)
	if n < 2 || line[n-1] != '}' || line[n-2] != ']' {
		return line, part{}, nil
	}
	i := bytes.LastIndex(line, []byte(keyBatch))
	if i < 0 {
		return line, part{}, nil
	}
	ks, ns, ok := bytes.Cut(line[i+len(keyBatch):n-2], []byte{','})
	k, kerr := batchNumber(ks)
	size, nerr := batchNumber(ns)
	if !ok || kerr != nil || nerr != nil || size < 2 || k > size {
		return nil, part{}, fmt.Errorf("the batch member %s is not [K,N] with 1 <= K <= N, 2 <= N <= %d", line[i+1:n-1], MaxBatchRecords)
	}
	rec := make([]byte, 0, i+1)
	rec = append(append(rec, line[:i]...), '}')
	return rec, part{k, size}, nil
}

// batchNumber reads a decimal from 1 to MaxBatchRecords, without sign or
// leading zero.
func batchNumber(b []byte) (int, error) {
	if len(b) == 0 || b[0] < '1' || b[0] > '9' {
		return 0, errors.New("not a number from 1")
	}
	v, err := strconv.Atoi(string(b))
	if err != nil || v > MaxBatchRecords {
		return 0, errors.New("not a number to MaxBatchRecords")
	}
	return v, nil
}
