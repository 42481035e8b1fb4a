package events

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
)

// ChainError reports the first record of a log that is damaged: it does not
// parse, is not in canonical form, does not continue the seq numbering, does
// not link to the previous record's hash, or does not match its own hash.
// Seq is the seq number expected at that position (in a version 1 log, record
// n is line n, so Seq equals Line); Offset is the byte offset where the line
// starts.
type ChainError struct {
	File   string // the log's file name; empty if the reader had none
	Seq    uint64 // the seq expected at the damaged position
	Line   int    // 1-based line number
	Offset int64  // byte offset of the start of the line
	Reason string // what is wrong with it
}

// Error formats the error as
// "events: record 17 (line 17, byte offset 4096) of FILE: hash does not match".
func (e *ChainError) Error() string {
	of := ""
	if e.File != "" {
		of = " of " + e.File
	}
	return fmt.Sprintf("events: record %d (line %d, byte offset %d)%s: %s", e.Seq, e.Line, e.Offset, of, e.Reason)
}

// Summary describes a log read to its end.
type Summary struct {
	// Records is the number of good records, and so the seq of the last one.
	Records uint64
	// Head is the hash of the last good record, GenesisPrev if none.
	Head string
	// Bytes is the length of the good records, newlines included: the size
	// the file store truncates a torn log to.
	Bytes int64
	// TornTail reports bytes after the last good record that are the remains
	// of an interrupted append (see the package documentation). They are not
	// an error for reading; FileLog cuts them off on Open.
	TornTail bool
	// TailBytes is the number of torn bytes (0 unless TornTail).
	TailBytes int64
	// Unterminated reports that the last record is complete and good but its
	// newline is missing; FileLog adds the newline on Open.
	Unterminated bool
}

// Reader reads and checks a log's records in order, without taking any lock
// or modifying anything: for tools such as a verifier. Use All to iterate and
// Summary afterwards.
type Reader struct {
	br   *bufio.Reader
	name string

	nextSeq  uint64 // seq expected next
	prev     string // hash of the record before nextSeq
	trustOne bool   // the first record read is not checked against prev
	skipTo   uint64 // records below this seq are checked but not yielded
	line     int    // lines read
	off      int64  // offset of the next line
	sum      Summary
	started  bool
	onRecord func(off int64) // called with each good record's offset
	buf      []byte
	// in is the place of the last record read in the batch being read
	// (n 0 outside one); pending are its records read so far, committed
	// the offset after the last complete batch.
	in        part
	pending   []pendingRecord
	committed int64
}

// NewReader returns a Reader of the log in r. name is used in errors (it may
// be empty).
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{
		br:      bufio.NewReaderSize(r, 64<<10),
		name:    name,
		nextSeq: 1,
		prev:    GenesisPrev,
	}
}

// readLine returns the next line including its newline if it has one, or
// io.EOF at the end. A line longer than MaxRecordBytes is returned cut there
// with errTooLong.
func (r *Reader) readLine() ([]byte, error) {
	b, err := r.br.ReadSlice('\n')
	if err == nil || (err == io.EOF && len(b) > 0) {
		return b, nil
	}
	if err != bufio.ErrBufferFull {
		return nil, err
	}
	r.buf = append(r.buf[:0], b...)
	for {
		b, err = r.br.ReadSlice('\n')
		r.buf = append(r.buf, b...)
		if len(r.buf) > MaxRecordBytes {
			return r.buf, errTooLong
		}
		switch err {
		case nil, io.EOF:
			return r.buf, nil
		case bufio.ErrBufferFull:
		default:
			return nil, err
		}
	}
}

var errTooLong = errors.New("line longer than MaxRecordBytes")

// All yields the good records in order; the records of a batch (see
// keyBatch) once the batch's last record is read. At the first damaged
// record it yields a *ChainError and stops; an I/O error is yielded
// wrapped, naming the log, and stops. A torn tail, a batch cut short
// included, ends the iteration without error and is reported by Summary.
// All may be ranged over once.
func (r *Reader) All() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		if r.started {
			yield(Event{}, errors.New("events: Reader.All ranged over twice"))
			return
		}
		r.started = true
		r.sum.Head = r.prev
		r.committed = r.off
		for {
			b, err := r.readLine()
			if err == io.EOF {
				if r.in.n > 0 {
					r.tear(0) // a batch cut short after a whole record
				}
				return
			}
			start := r.off
			if err == errTooLong {
				r.line++
				yield(Event{}, r.chainErr(start, fmt.Sprintf("record longer than %d bytes", MaxRecordBytes)))
				return
			}
			if err != nil {
				yield(Event{}, r.ioErr(err))
				return
			}
			r.line++
			terminated := b[len(b)-1] == '\n'
			body := b
			if terminated {
				body = b[:len(b)-1]
			}
			ev, at, reason := r.check(body)
			if reason != "" {
				if torn, rest := r.torn(b, terminated); torn {
					r.tear(int64(len(b)) + rest)
					return
				}
				yield(Event{}, r.chainErr(start, reason))
				return
			}
			r.off += int64(len(b))
			r.nextSeq = ev.Seq + 1
			r.prev = ev.Hash
			r.pending = append(r.pending, pendingRecord{ev: ev, off: start, terminated: terminated})
			r.in = at
			if at.k == at.n {
				r.in = part{}
				if !r.commit(yield) {
					return
				}
			}
		}
	}
}

// pendingRecord is a good record of a batch whose last record is not read
// yet.
type pendingRecord struct {
	ev         Event
	off        int64
	terminated bool
}

// commit counts the records of the batch just completed (a record appended
// alone is a batch of one) and yields them.
func (r *Reader) commit(yield func(Event, error) bool) bool {
	recs := r.pending
	r.pending = nil
	last := recs[len(recs)-1]
	r.sum.Records, r.sum.Head = last.ev.Seq, last.ev.Hash
	r.sum.Bytes, r.sum.Unterminated = r.off, !last.terminated
	r.committed = r.off
	for _, p := range recs {
		if r.onRecord != nil {
			r.onRecord(p.off)
		}
	}
	for _, p := range recs {
		if p.ev.Seq >= r.skipTo && !yield(p.ev, nil) {
			return false
		}
	}
	return true
}

// tear reports a torn tail: everything after the last complete batch,
// the extra bytes read past the line where reading stopped included.
func (r *Reader) tear(extra int64) {
	r.sum.TornTail = true
	r.sum.TailBytes = r.off - r.committed + extra
	r.pending = nil
}

// torn reports whether the bad line b is the remains of an interrupted
// append, and how many bytes follow it: a line cut short (no newline: the
// last), or one with a NUL byte (blocks not written) that is the last or
// that only records of its own batch follow (see tornBatch).
func (r *Reader) torn(b []byte, terminated bool) (bool, int64) {
	switch {
	case !terminated:
		return true, 0
	case bytes.IndexByte(b, 0) < 0:
		return false, 0
	case r.atEOF():
		return true, 0
	}
	return r.tornBatch()
}

// tornBatch reads the lines after a bad line with a NUL byte. One write
// wrote them all, and the crash came before it was acknowledged, if the
// bad line is a record of a batch (the next of the batch being read, or
// else its first) and the lines after it are the records of the same
// batch that follow (each framed the next part of it, none past its last)
// or blocks not written themselves. It returns that, and the bytes read.
func (r *Reader) tornBatch() (bool, int64) {
	k, size := 1, 0 // the bad line's part, and its batch's size once known
	if r.in.n > 0 {
		k, size = r.in.k+1, r.in.n
	}
	var n int64
	i, ok := 0, true
	for ; ; i++ {
		b, err := r.readLine()
		if err == io.EOF {
			break
		}
		if err != nil && err != errTooLong {
			return false, 0
		}
		n += int64(len(b))
		line := bytes.TrimSuffix(b, []byte{'\n'})
		rec, at, ferr := unframe(line)
		var ev Event
		if ferr == nil {
			ev, ferr = parseRecord(rec)
		}
		switch {
		case ferr != nil:
			ok = ok && (bytes.IndexByte(b, 0) >= 0 || len(line) == len(b))
			continue
		case size == 0:
			size = at.n
		}
		ok = ok && at.n == size && at.k == k+1+i && ev.Seq == r.nextSeq+1+uint64(i)
	}
	return ok && size > 0 && k+i <= size, n
}

// atEOF reports whether nothing follows the line just read.
func (r *Reader) atEOF() bool {
	_, err := r.br.Peek(1)
	return err == io.EOF
}

// check parses one line (without newline) and checks it continues the
// chain and its batch. It returns the event and its place in its batch,
// or a reason.
func (r *Reader) check(line []byte) (Event, part, string) {
	body, at, err := unframe(line)
	if err != nil {
		return Event{}, part{}, err.Error()
	}
	ev, err := parseRecord(body)
	if err != nil {
		return Event{}, part{}, err.Error()
	}
	switch {
	case r.in.n > 0 && at != part{r.in.k + 1, r.in.n}:
		return Event{}, part{}, fmt.Sprintf("the record is not framed as record %d of the batch of %d it continues", r.in.k+1, r.in.n)
	case r.in.n == 0 && at.k > 1 && !r.trustOne: // a reader started inside a batch trusts its first line
		return Event{}, part{}, fmt.Sprintf("the record is framed as record %d of a batch whose first record is not before it", at.k)
	}
	if ev.Seq != r.nextSeq {
		switch {
		case ev.Seq > r.nextSeq:
			return Event{}, part{}, fmt.Sprintf("seq %d where %d was expected (records missing or out of order)", ev.Seq, r.nextSeq)
		default:
			return Event{}, part{}, fmt.Sprintf("seq %d where %d was expected (record repeated or out of order)", ev.Seq, r.nextSeq)
		}
	}
	if r.trustOne {
		r.trustOne = false
	} else if ev.Prev != r.prev {
		if r.nextSeq == 1 {
			return Event{}, part{}, "prev of record 1 is not 64 zeros"
		}
		return Event{}, part{}, fmt.Sprintf("prev does not match the hash of record %d", r.nextSeq-1)
	}
	return ev, at, ""
}

func (r *Reader) chainErr(off int64, reason string) *ChainError {
	return &ChainError{File: r.name, Seq: r.nextSeq, Line: r.line, Offset: off, Reason: reason}
}

func (r *Reader) ioErr(err error) error {
	if r.name != "" {
		return fmt.Errorf("events: reading %s: %w", r.name, err)
	}
	return fmt.Errorf("events: reading log: %w", err)
}

// Summary returns what the iteration found so far; call it after All.
func (r *Reader) Summary() Summary {
	s := r.sum
	if s.Head == "" {
		s.Head = r.prev
	}
	return s
}

// Verify reads a whole log from r and checks every record: JSON validity and
// canonical form, seq continuity from 1, prev links and hashes. It returns the
// first damage as a *ChainError. A torn tail is not an error; it is reported
// in Summary.TornTail.
func Verify(r io.Reader) (Summary, error) {
	return verify(NewReader(r, ""))
}

func verify(rd *Reader) (Summary, error) {
	for _, err := range rd.All() {
		if err != nil {
			return rd.Summary(), err
		}
	}
	return rd.Summary(), nil
}

// ReadFile verifies the log file at path as Verify does, read-only and
// without taking the log's lock, so it may run while a daemon appends (it
// then sees a prefix of the log). Errors name the file.
func ReadFile(path string) (Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return Summary{}, fmt.Errorf("events: %w", err)
	}
	defer f.Close()
	return verify(NewReader(f, path))
}
