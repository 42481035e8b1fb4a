package events

import (
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// file is what FileLog needs of its log file; *os.File implements it. Tests
// substitute failing files to simulate a full disk or a failing fsync.
type file interface {
	io.Writer
	io.ReaderAt
	Sync() error
	Truncate(size int64) error
	Stat() (os.FileInfo, error)
	Close() error
}

// options are the seams tests use; the exported constructors use defaults.
type options struct {
	wrap    func(*os.File) file    // wraps the opened log file
	syncDir func(dir string) error // fsyncs a directory
}

func defaultOptions() options {
	return options{
		wrap:    func(f *os.File) file { return f },
		syncDir: syncDir,
	}
}

// multiError is an error with its own message that wraps several errors.
type multiError struct {
	msg  string
	errs []error
}

func (e *multiError) Error() string   { return e.msg }
func (e *multiError) Unwrap() []error { return e.errs }

// FileLog is the file store: one JSON Lines file per game, described in the
// package documentation. Only one FileLog may have a given file open at a
// time, across processes (flock on path + ".lock"). Every Append, and every
// AppendBatch whole, is written with one write and fsync'd before it
// returns. A failed write or fsync poisons the FileLog: that call and
// every later one return the same error wrapping ErrFatal, and the process
// must exit and Open the log again on restart. A FileLog is safe for
// concurrent use.
type FileLog struct {
	path string
	lock *os.File

	mu      sync.Mutex
	f       file
	seq     uint64  // seq of the last record
	head    string  // hash of the last record
	size    int64   // length of the file (all good records)
	offsets []int64 // offsets[i] is where record i+1 starts
	opened  Summary
	fatal   error
	closed  bool
}

var _ Log = (*FileLog)(nil)

// Create creates a new, empty log file at path, which must not exist (the
// error then wraps fs.ErrExist), takes its lock, and fsyncs the file and its
// parent directory before returning, so that the new file survives a crash.
// If another writer holds the lock the error wraps ErrLocked.
func Create(path string) (*FileLog, error) {
	return create(path, defaultOptions())
}

func create(path string, o options) (*FileLog, error) {
	lf, err := lockLog(path)
	if err != nil {
		return nil, err
	}
	osf, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		unlockLog(lf)
		return nil, fmt.Errorf("events: create game log %s: %w", path, err)
	}
	f := o.wrap(osf)
	fail := func(op string, err error) (*FileLog, error) {
		f.Close()
		os.Remove(path)
		unlockLog(lf)
		return nil, fmt.Errorf("events: create game log %s: %s: %w", path, op, err)
	}
	if err := f.Sync(); err != nil {
		return fail("fsync", err)
	}
	if err := o.syncDir(filepath.Dir(path)); err != nil {
		return fail("fsync directory", err)
	}
	return &FileLog{path: path, lock: lf, f: f, head: GenesisPrev, opened: Summary{Head: GenesisPrev}}, nil
}

// Open opens the existing log file at path for appending, takes its lock
// (the error wraps ErrLocked if another writer holds it) and checks every
// record. A torn tail, the remains of an append interrupted by a crash (of
// a batch, all of it), is cut off and the cut fsync'd; a last record that lacks only its newline gets
// it. Damage anywhere else refuses to open with a *ChainError naming the
// record. Opened reports what was found.
func Open(path string) (*FileLog, error) {
	return open(path, defaultOptions())
}

func open(path string, o options) (*FileLog, error) {
	// Do not leave a lock file behind for a log that does not exist.
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("events: open game log %s: %w", path, err)
	}
	lf, err := lockLog(path)
	if err != nil {
		return nil, err
	}
	osf, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		unlockLog(lf)
		return nil, fmt.Errorf("events: open game log %s: %w", path, err)
	}
	f := o.wrap(osf)
	fail := func(err error) (*FileLog, error) {
		f.Close()
		unlockLog(lf)
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(fmt.Errorf("events: open game log %s: %w", path, err))
	}
	size := fi.Size()
	var offsets []int64
	rd := NewReader(io.NewSectionReader(f, 0, size), path)
	rd.onRecord = func(off int64) { offsets = append(offsets, off) }
	sum, err := verify(rd)
	if err != nil {
		return fail(err)
	}
	switch {
	case sum.TornTail:
		if err := f.Truncate(sum.Bytes); err != nil {
			return fail(fmt.Errorf("events: open game log %s: cutting the torn tail (%d bytes at offset %d): %w", path, sum.TailBytes, sum.Bytes, err))
		}
		if err := f.Sync(); err != nil {
			return fail(fmt.Errorf("events: open game log %s: fsync after cutting the torn tail: %w", path, err))
		}
	case sum.Unterminated:
		if n, err := f.Write([]byte{'\n'}); err != nil || n != 1 {
			if err == nil {
				err = io.ErrShortWrite
			}
			return fail(fmt.Errorf("events: open game log %s: completing the last record's newline: %w", path, err))
		}
		if err := f.Sync(); err != nil {
			return fail(fmt.Errorf("events: open game log %s: fsync after completing the last record: %w", path, err))
		}
		sum.Bytes++
	}
	if err := o.syncDir(filepath.Dir(path)); err != nil {
		return fail(fmt.Errorf("events: open game log %s: fsync directory: %w", path, err))
	}
	return &FileLog{
		path:    path,
		lock:    lf,
		f:       f,
		seq:     sum.Records,
		head:    sum.Head,
		size:    sum.Bytes,
		offsets: offsets,
		opened:  sum,
	}, nil
}

// Path returns the log file's path.
func (l *FileLog) Path() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.path
}

// Moved tells an open log that its file was moved (its directory renamed,
// say): the file stays open and locked, and messages name the new path.
func (l *FileLog) Moved(path string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.path = path
}

// Opened returns what Open found: the records, and whether a torn tail was
// cut (TornTail, TailBytes) or a missing final newline added (Unterminated).
// For a created log it is the Summary of an empty log.
func (l *FileLog) Opened() Summary { return l.opened }

// Head returns the seq and hash of the last acknowledged record.
func (l *FileLog) Head() (uint64, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq, l.head
}

// Append writes the next record with one write, fsyncs the file and only
// then returns it. A failed write or fsync poisons the log (see FileLog).
// Invalid arguments return an error and leave the log usable.
func (l *FileLog) Append(typ string, at time.Time, data any) (Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return Event{}, err
	}
	ev, line, err := seal(l.seq+1, l.head, typ, at, data)
	if err != nil {
		return Event{}, fmt.Errorf("events: append to %s: %w", l.path, err)
	}
	if err := l.write([]Event{ev}, [][]byte{line}); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// AppendBatch writes the records of batch with one write, each but the
// last framed with the number of records of the batch that follow it (see
// the package documentation), and fsyncs the file once: a reader counts
// none of them until it has read the last. A failed write or fsync
// poisons the log.
func (l *FileLog) AppendBatch(batch []Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return err
	}
	lines, err := Sealed(l.seq, l.head, batch)
	if err != nil {
		return fmt.Errorf("events: append to %s: %w", l.path, err)
	}
	if len(batch) == 0 {
		return nil
	}
	return l.write(batch, lines)
}

// usable returns the error of a poisoned or closed log, or nil.
func (l *FileLog) usable() error {
	if l.fatal != nil {
		return l.fatal
	}
	if l.closed {
		return l.closedErr("append to")
	}
	return nil
}

// write writes the record lines of evs, framed as one batch, with one
// write and one fsync, and moves the head to the last.
func (l *FileLog) write(evs []Event, lines [][]byte) error {
	out, starts := framed(lines)
	n, err := l.f.Write(out)
	if err == nil && n != len(out) {
		err = io.ErrShortWrite
	}
	if err != nil {
		// Best effort: remove what was written. Whether or not this works,
		// the next Open cuts a torn tail.
		l.f.Truncate(l.size)
		return l.poison("write", err)
	}
	if err := l.f.Sync(); err != nil {
		return l.poison("fsync", err)
	}
	for _, at := range starts {
		l.offsets = append(l.offsets, l.size+int64(at))
	}
	l.size += int64(len(out))
	last := evs[len(evs)-1]
	l.seq, l.head = last.Seq, last.Hash
	return nil
}

// poison records the fatal error every later call returns.
func (l *FileLog) poison(op string, cause error) error {
	l.fatal = &multiError{
		msg:  fmt.Sprintf("events: append to %s failed (%s: %v); the log is poisoned and the process must exit", l.path, op, cause),
		errs: []error{ErrFatal, cause},
	}
	return l.fatal
}

func (l *FileLog) closedErr(op string) error {
	return &multiError{msg: fmt.Sprintf("events: %s %s: log is closed", op, l.path), errs: []error{ErrClosed}}
}

// Events yields the records with seq >= from, reading the file and checking
// every record's hash and link as it goes. It yields the records up to the
// head at the time of the call; records appended during the iteration are
// not yielded.
func (l *FileLog) Events(from uint64) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		l.mu.Lock()
		if l.fatal != nil {
			err := l.fatal
			l.mu.Unlock()
			yield(Event{}, err)
			return
		}
		if l.closed {
			l.mu.Unlock()
			yield(Event{}, l.closedErr("read"))
			return
		}
		if from == 0 {
			from = 1
		}
		last, end, f, path := l.seq, l.size, l.f, l.path
		if from > last {
			l.mu.Unlock()
			return
		}
		var start int64
		first := uint64(1)
		if from >= 2 {
			// Start one record early so that the first yielded record's
			// prev is checked against the hash of the one before.
			first = from - 1
			start = l.offsets[first-1]
		}
		l.mu.Unlock()

		rd := NewReader(io.NewSectionReader(f, start, end-start), path)
		rd.nextSeq = first
		rd.trustOne = first > 1
		rd.skipTo = from
		rd.line = int(first - 1)
		rd.off = start
		for ev, err := range rd.All() {
			if !yield(ev, err) || err != nil {
				return
			}
		}
		if s := rd.Summary(); s.Records != last || s.TornTail || s.Unterminated {
			yield(Event{}, fmt.Errorf("events: reading %s: the file changed under the log (records up to %d expected, %d found)", path, last, s.Records))
		}
	}
}

// Close closes the file and releases the lock. A poisoned log still
// releases everything and returns its fatal error.
func (l *FileLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.fatal
	}
	l.closed = true
	err := l.f.Close()
	lerr := unlockLog(l.lock)
	if l.fatal != nil {
		return l.fatal
	}
	if err != nil {
		return fmt.Errorf("events: close %s: %w", l.path, err)
	}
	if lerr != nil {
		return fmt.Errorf("events: release the lock of %s: %w", l.path, lerr)
	}
	return nil
}
