package events

import (
	"errors"
	"iter"
	"time"
)

// Log is an append-only, hash-chained event log for one game. The file store
// (FileLog) and the in-memory store (MemLog) implement it; every
// implementation must pass the suite in package events/logtest.
type Log interface {
	// Append adds the event that follows the current head, at the given
	// time, with data encoded as JSON (see NewEvent), and returns it once it
	// is durable. An error wrapping ErrFatal means the log is unusable and
	// the process must exit; any other error (an invalid type, time or data)
	// leaves the log unchanged and usable.
	Append(typ string, at time.Time, data any) (Event, error)
	// AppendBatch adds records already sealed by NewEvent, the first
	// following the current head and each the one before, as one: when it
	// returns nil all of them are durable, and a crash, whenever it comes,
	// leaves either all of them or none. A batch that does not continue
	// the log (an error wrapping ErrNotNext) appends nothing and leaves the
	// log usable; an error wrapping ErrFatal is as for Append, and none of
	// the batch, or all of it, may be found in the log on restart. An empty
	// batch appends nothing.
	AppendBatch(batch []Event) error
	// Events yields the records with seq >= from in order (from 0 or 1: all
	// of them), at least up to the head at the time of the call. An error is
	// yielded at most once, and ends the iteration. Append may be called
	// while iterating.
	Events(from uint64) iter.Seq2[Event, error]
	// Head returns the seq and hash of the last record: (0, GenesisPrev)
	// for an empty log.
	Head() (seq uint64, hash string)
	// Close releases the log (and its lock). Later calls fail with
	// ErrClosed; a second Close returns nil, unless the log is poisoned.
	Close() error
}

// ErrLocked is wrapped by the error Create and Open return when another
// writer (another process, or another open log in this process) holds the
// log's lock.
var ErrLocked = errors.New("events: log is locked by another writer")

// ErrFatal is wrapped by the error of a failed write or fsync. After it the
// log is poisoned: every later call returns that same error. The caller must
// exit and reopen the log on restart, which recovers it from what reached the
// disk. The record of the failed Append may or may not be in the log then;
// it was never acknowledged.
var ErrFatal = errors.New("events: fatal log error, the process must exit and reopen the log")

// ErrUnavailable is wrapped by the error of a call that could not reach
// the store at all (a database down, restarting, or refusing connections):
// nothing was read or written, and the same call may succeed once the
// store is back. Callers wait rather than try every game in turn.
var ErrUnavailable = errors.New("events: the store cannot be reached")

// ErrClosed is wrapped by the error of a call on a closed log.
var ErrClosed = errors.New("events: log is closed")
