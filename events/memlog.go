package events

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"sync"
	"time"
)

// MemLog is a Log kept in memory, for tests of the engine and the
// adjudicator. Its records are exactly those a FileLog would write (WriteTo
// produces a valid log file, with no batch frames: a batch appended to a
// MemLog is all of it there, or none). A MemLog handle can be closed and the same
// records reopened with Reopen, which simulates a restart; like the file
// store's lock, only one open handle may exist at a time. Poison simulates a
// failed fsync. A MemLog is safe for concurrent use.
type MemLog struct {
	st *memStore

	// The handle's own state, under st.mu.
	closed bool
	fatal  error
}

// memStore holds the records shared by the successive handles of a MemLog.
type memStore struct {
	mu     sync.Mutex
	events []Event
	open   *MemLog // the handle that is open, if any
}

var _ Log = (*MemLog)(nil)

// NewMemLog returns an empty, open MemLog.
func NewMemLog() *MemLog {
	st := &memStore{}
	m := &MemLog{st: st}
	st.open = m
	return m
}

// Reopen returns a new open handle on the same records, as Open does for a
// file after a restart. It fails with an error wrapping ErrLocked while any
// handle on these records is open (not yet closed).
func (m *MemLog) Reopen() (*MemLog, error) {
	st := m.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.open != nil {
		return nil, &multiError{msg: "events: in-memory game log is locked by another handle", errs: []error{ErrLocked}}
	}
	n := &MemLog{st: st}
	st.open = n
	return n, nil
}

// Poison makes this handle fail as a FileLog does after a failed fsync: every
// later call returns an error wrapping ErrFatal and cause. The records
// already appended stay for a Reopen after Close.
func (m *MemLog) Poison(cause error) {
	st := m.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if !m.closed && m.fatal == nil {
		m.fatal = &multiError{
			msg:  fmt.Sprintf("events: append to in-memory game log failed (%v); the log is poisoned and the process must exit", cause),
			errs: []error{ErrFatal, cause},
		}
	}
}

// check returns the error a call on this handle gets, or nil.
func (m *MemLog) check(op string) error {
	if m.fatal != nil {
		return m.fatal
	}
	if m.closed {
		return &multiError{msg: "events: " + op + " in-memory game log: log is closed", errs: []error{ErrClosed}}
	}
	return nil
}

// Append adds the next record; see Log.
func (m *MemLog) Append(typ string, at time.Time, data any) (Event, error) {
	st := m.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := m.check("append to"); err != nil {
		return Event{}, err
	}
	seq, prev := uint64(len(st.events)), GenesisPrev
	if seq > 0 {
		prev = st.events[seq-1].Hash
	}
	ev, _, err := seal(seq+1, prev, typ, at, data)
	if err != nil {
		return Event{}, fmt.Errorf("events: append to in-memory game log: %w", err)
	}
	st.events = append(st.events, ev)
	return ev, nil
}

// AppendBatch adds the records of batch, all or none; see Log.
func (m *MemLog) AppendBatch(batch []Event) error {
	st := m.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := m.check("append to"); err != nil {
		return err
	}
	seq, head := uint64(len(st.events)), GenesisPrev
	if seq > 0 {
		head = st.events[seq-1].Hash
	}
	if _, err := Sealed(seq, head, batch); err != nil {
		return fmt.Errorf("events: append to in-memory game log: %w", err)
	}
	for _, ev := range batch {
		ev.Data = append([]byte(nil), ev.Data...)
		st.events = append(st.events, ev)
	}
	return nil
}

// Events yields the records with seq >= from, up to the head at the time of
// the call.
func (m *MemLog) Events(from uint64) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		st := m.st
		st.mu.Lock()
		if err := m.check("read"); err != nil {
			st.mu.Unlock()
			yield(Event{}, err)
			return
		}
		evs := st.events[:len(st.events):len(st.events)]
		st.mu.Unlock()
		if from == 0 {
			from = 1
		}
		for i := from - 1; i < uint64(len(evs)); i++ {
			ev := evs[i]
			ev.Data = append([]byte(nil), ev.Data...)
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// Head returns the seq and hash of the last record.
func (m *MemLog) Head() (uint64, string) {
	st := m.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if n := len(st.events); n > 0 {
		return uint64(n), st.events[n-1].Hash
	}
	return 0, GenesisPrev
}

// Close closes this handle; Reopen may then open the records again. A
// poisoned handle returns its fatal error.
func (m *MemLog) Close() error {
	st := m.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.open == m {
		st.open = nil
	}
	m.closed = true
	return m.fatal
}

// WriteTo writes the records as a log file (JSON Lines, the file store's
// format) to w.
func (m *MemLog) WriteTo(w io.Writer) (int64, error) {
	st := m.st
	st.mu.Lock()
	evs := st.events[:len(st.events):len(st.events)]
	st.mu.Unlock()
	bw := bufio.NewWriter(w)
	var n int64
	for _, ev := range evs {
		b, err := ev.MarshalJSON()
		if err != nil {
			return n, err
		}
		k, err := bw.Write(append(b, '\n'))
		n += int64(k)
		if err != nil {
			return n, fmt.Errorf("events: writing in-memory game log: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return n, fmt.Errorf("events: writing in-memory game log: %w", err)
	}
	return n, nil
}
