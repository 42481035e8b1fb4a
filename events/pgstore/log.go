package pgstore

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"skagerrak/events"
)

const genesis = events.GenesisPrev

// Log is one game's event log in the database. Opened by Store.Log or
// Create it is the game's exclusive writer and every Append is durable
// (committed) when it returns. Opened by Store.Shared it appends only
// between Hold and Release, which commits. A failed append or commit
// poisons the Log: that call and every later one return an error wrapping
// events.ErrFatal, and the process must open the game again (the record
// may or may not be in the database: the connection may have been lost
// after the commit). A Log is safe for concurrent use.
type Log struct {
	s      *Store
	game   string
	token  string // the lease this writer holds; "" when shared
	shared bool

	mu     sync.Mutex
	seq    uint64
	head   string
	tx     pgx.Tx
	held   [2]any // seq and head when Hold began, for a rollback
	fatal  error
	closed bool
}

var _ events.Log = (*Log)(nil)

// lockedError wraps events.ErrLocked with its own message.
type lockedError struct{ msg string }

func (e *lockedError) Error() string { return e.msg }
func (e *lockedError) Unwrap() error { return events.ErrLocked }

// multiError has its own message and wraps several errors.
type multiError struct {
	msg  string
	errs []error
}

func (e *multiError) Error() string   { return e.msg }
func (e *multiError) Unwrap() []error { return e.errs }

// ErrFenced is wrapped (with events.ErrFatal) by the error of an append
// the database refused because the game's head was no longer the one this
// writer saw, or the writer no longer held the game: another writer
// appended in between.
var ErrFenced = errors.New("pgstore: another writer appended to the game")

// Game is the id of the log's game.
func (l *Log) Game() string { return l.game }

// Head returns the seq and hash of the last record this writer appended or
// saw (after Hold: the database's).
func (l *Log) Head() (uint64, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq, l.head
}

// appendSQL moves the game's head and inserts the record in one statement,
// only if the head is still the one the writer saw and the writer holds
// the game: its lease ($8), or, for a shared writer ($8 empty), no live
// lease of another. The row lock the UPDATE takes orders racing writers;
// the constraints of the events table refuse a stale or forked record
// whatever a client does.
const appendSQL = `WITH g AS (
	UPDATE skagerrak.games SET seq = $2, head = $7,
		writer_until = CASE WHEN writer = $8 THEN now() + $9 * interval '1 millisecond' ELSE writer_until END
	WHERE game = $1 AND seq = $2 - 1 AND head = $6
		AND (writer = $8 OR ($8 = '' AND (writer IS NULL OR writer_until < now())))
	RETURNING game)
INSERT INTO skagerrak.events (game, seq, time, type, data, prev, hash)
SELECT game, $2, $3, $4, $5, $6, $7 FROM g`

// Append adds the next record and returns it: committed, for an exclusive
// writer; committed by Release, for a shared one.
func (l *Log) Append(typ string, at time.Time, data any) (events.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fatal != nil {
		return events.Event{}, l.fatal
	}
	if l.closed {
		return events.Event{}, l.closedErr("append to")
	}
	if l.shared && l.tx == nil {
		return events.Event{}, fmt.Errorf("pgstore: append to game %s outside Hold", l.game)
	}
	ev, err := events.NewEvent(l.seq+1, l.head, typ, at, data)
	if err != nil {
		return events.Event{}, fmt.Errorf("pgstore: append to game %s: %w", l.game, err)
	}
	ctx, cancel := l.s.ctx()
	defer cancel()
	args := []any{l.game, int64(ev.Seq), ev.Time.Format(time.RFC3339Nano), ev.Type, string(ev.Data), ev.Prev, ev.Hash, l.token, l.s.lease.Milliseconds()}
	var tag pgconn.CommandTag
	if l.tx != nil {
		tag, err = l.tx.Exec(ctx, appendSQL, args...)
	} else {
		tag, err = l.s.pool.Exec(ctx, appendSQL, args...)
	}
	if err != nil {
		return events.Event{}, l.poison("append", err)
	}
	if tag.RowsAffected() != 1 {
		return events.Event{}, l.poison("append", l.fenced(ctx))
	}
	l.seq, l.head = ev.Seq, ev.Hash
	return ev, nil
}

// AppendBatch adds the records of batch in one transaction, all or none:
// its own, for an exclusive writer; the Hold's, committed by Release, for
// a shared one. The records go to the database in one round trip, each
// moving the head only from the record before, so that another writer
// that appended meanwhile fences the whole batch out.
func (l *Log) AppendBatch(batch []events.Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fatal != nil {
		return l.fatal
	}
	if l.closed {
		return l.closedErr("append to")
	}
	if l.shared && l.tx == nil {
		return fmt.Errorf("pgstore: append to game %s outside Hold", l.game)
	}
	if _, err := events.Sealed(l.seq, l.head, batch); err != nil {
		return fmt.Errorf("pgstore: append to game %s: %w", l.game, err)
	}
	if len(batch) == 0 {
		return nil
	}
	ctx, cancel := l.s.ctx()
	defer cancel()
	tx, own := l.tx, l.tx == nil
	if own {
		var err error
		if tx, err = l.s.pool.Begin(ctx); err != nil {
			return l.poison("append", err)
		}
		defer tx.Rollback(ctx)
	}
	if err := l.sendBatch(ctx, tx, batch); err != nil {
		return l.poison("append", err)
	}
	if own {
		if err := tx.Commit(ctx); err != nil {
			return l.poison("commit", err)
		}
	}
	last := batch[len(batch)-1]
	l.seq, l.head = last.Seq, last.Hash
	return nil
}

// sendBatch inserts the records of batch in tx, in one round trip; an
// insert the head check refused is explained (fenced).
func (l *Log) sendBatch(ctx context.Context, tx pgx.Tx, batch []events.Event) error {
	b := &pgx.Batch{}
	for _, ev := range batch {
		b.Queue(appendSQL, l.game, int64(ev.Seq), ev.Time.Format(time.RFC3339Nano), ev.Type, string(ev.Data), ev.Prev, ev.Hash, l.token, l.s.lease.Milliseconds())
	}
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	for range batch {
		tag, err := br.Exec()
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			br.Close()
			return l.fenced(ctx)
		}
	}
	return br.Close()
}

// fenced explains an append the head check refused.
func (l *Log) fenced(ctx context.Context) error {
	var seq int64
	var writer string
	err := l.s.pool.QueryRow(ctx, `SELECT seq, coalesce(writer, '') FROM skagerrak.games WHERE game = $1`, l.game).Scan(&seq, &writer)
	if err != nil {
		return fmt.Errorf("%w (and reading why: %v)", ErrFenced, err)
	}
	if uint64(seq) != l.seq {
		return fmt.Errorf("%w: its head is at seq %d, this writer saw %d", ErrFenced, seq, l.seq)
	}
	if l.token != "" && writer != l.token {
		return &multiError{msg: fmt.Sprintf("%v: this writer's lease was lost (now held by %q)", ErrFenced, writer), errs: []error{ErrFenced, events.ErrLocked}}
	}
	return &multiError{msg: fmt.Sprintf("%v: the game is held by an exclusive writer (%s)", ErrFenced, writer), errs: []error{ErrFenced, events.ErrLocked}}
}

// poison records the fatal error every later call returns.
func (l *Log) poison(op string, cause error) error {
	if l.tx != nil {
		ctx, cancel := l.s.ctx()
		l.tx.Rollback(ctx)
		cancel()
		l.tx = nil
	}
	l.fatal = &multiError{
		msg:  fmt.Sprintf("pgstore: %s to game %s in %s failed (%v); the log is poisoned and the process must open the game again", op, l.game, l.s.where, cause),
		errs: []error{events.ErrFatal, cause},
	}
	return l.fatal
}

func (l *Log) closedErr(op string) error {
	return &multiError{msg: fmt.Sprintf("pgstore: %s game %s: log is closed", op, l.game), errs: []error{events.ErrClosed}}
}

// Hold makes this shared writer the game's only one until Release: it
// locks the game's row for a transaction (waiting while another daemon
// holds it, or until ctx ends) and takes the database's head as its own,
// so that the caller can read the records other writers appended since it
// last looked (Events from its old head). A game an exclusive writer holds
// (an import, say) is refused with an error wrapping events.ErrLocked.
func (l *Log) Hold(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fatal != nil {
		return l.fatal
	}
	if l.closed {
		return l.closedErr("hold")
	}
	if l.tx != nil {
		return fmt.Errorf("pgstore: game %s is already held", l.game)
	}
	tx, err := l.s.pool.Begin(ctx)
	if err != nil {
		return reach(fmt.Errorf("pgstore: hold game %s: %w", l.game, err), err)
	}
	var seq int64
	var head, writer string
	var live bool
	err = tx.QueryRow(ctx, `SELECT seq, head, coalesce(writer, ''), coalesce(writer_until > now(), false) FROM skagerrak.games WHERE game = $1 FOR UPDATE`,
		l.game).Scan(&seq, &head, &writer, &live)
	if err != nil {
		tx.Rollback(context.Background())
		return reach(fmt.Errorf("pgstore: hold game %s: %w", l.game, err), err)
	}
	if writer != "" && live {
		tx.Rollback(context.Background())
		return &lockedError{msg: fmt.Sprintf("pgstore: game %s is held by an exclusive writer (%s)", l.game, writer)}
	}
	l.tx, l.held = tx, [2]any{l.seq, l.head}
	l.seq, l.head = uint64(seq), head
	return nil
}

// Release ends a Hold: commit makes what was appended since durable (a
// failed commit poisons the Log: whether it happened is unknown); without
// commit it is rolled back and the head is what it was before Hold.
func (l *Log) Release(commit bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tx == nil {
		return l.fatal
	}
	ctx, cancel := l.s.ctx()
	defer cancel()
	tx := l.tx
	l.tx = nil
	if !commit {
		l.seq, l.head = l.held[0].(uint64), l.held[1].(string)
		tx.Rollback(ctx)
		return nil
	}
	if err := tx.Commit(ctx); err != nil {
		return l.poison("commit", err)
	}
	return nil
}

// Events yields the records with seq >= from, checking each one's hash and
// its link to the one before, as the file store does. It reads committed
// records in chunks, holding no connection while the caller works.
func (l *Log) Events(from uint64) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		l.mu.Lock()
		err := l.fatal
		if err == nil && l.closed {
			err = l.closedErr("read")
		}
		l.mu.Unlock()
		if err != nil {
			yield(events.Event{}, err)
			return
		}
		if from == 0 {
			from = 1
		}
		// Start one record early so that the first yielded record's prev
		// is checked against the hash of the one before.
		next, prev := from-1, ""
		if next == 0 {
			next, prev = 1, genesis
		}
		for {
			recs, err := l.chunk(next)
			if err != nil {
				yield(events.Event{}, err)
				return
			}
			for _, ev := range recs {
				if ev.Seq != next {
					yield(events.Event{}, fmt.Errorf("pgstore: game %s: record %d missing (found %d)", l.game, next, ev.Seq))
					return
				}
				if prev != "" && ev.Prev != prev {
					yield(events.Event{}, fmt.Errorf("pgstore: game %s: record %d: prev does not match the hash of record %d", l.game, ev.Seq, ev.Seq-1))
					return
				}
				prev, next = ev.Hash, next+1
				if ev.Seq >= from && !yield(ev, nil) {
					return
				}
			}
			if len(recs) < chunkSize {
				return
			}
		}
	}
}

const chunkSize = 512

// chunk reads up to chunkSize records from seq on, each checked against
// its own hash.
func (l *Log) chunk(from uint64) ([]events.Event, error) {
	ctx, cancel := l.s.ctx()
	defer cancel()
	rows, err := l.s.pool.Query(ctx, `SELECT seq, time, type, data, prev, hash FROM skagerrak.events WHERE game = $1 AND seq >= $2 ORDER BY seq LIMIT $3`,
		l.game, int64(from), chunkSize)
	if err != nil {
		return nil, reach(fmt.Errorf("pgstore: reading game %s: %w", l.game, err), err)
	}
	defer rows.Close()
	var out []events.Event
	var line []byte
	for rows.Next() {
		var seq int64
		var at, typ, data, prev, hash string
		if err := rows.Scan(&seq, &at, &typ, &data, &prev, &hash); err != nil {
			return nil, reach(fmt.Errorf("pgstore: reading game %s: %w", l.game, err), err)
		}
		line = RecordLine(line[:0], uint64(seq), at, typ, data, prev, hash)
		ev, err := events.ParseRecord(line)
		if err != nil {
			return nil, fmt.Errorf("pgstore: game %s, record %d: %w", l.game, seq, err)
		}
		out = append(out, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, reach(fmt.Errorf("pgstore: reading game %s: %w", l.game, err), err)
	}
	return out, nil
}

// RecordLine appends the record line (without newline) that a row's fields
// make: the same bytes as the file store's line for that record.
func RecordLine(dst []byte, seq uint64, at, typ, data, prev, hash string) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendUint(dst, seq, 10)
	dst = append(dst, `,"time":"`...)
	dst = append(dst, at...)
	dst = append(dst, `","type":"`...)
	dst = append(dst, typ...)
	dst = append(dst, `","data":`...)
	dst = append(dst, data...)
	dst = append(dst, `,"prev":"`...)
	dst = append(dst, prev...)
	dst = append(dst, `","hash":"`...)
	dst = append(dst, hash...)
	return append(dst, `"}`...)
}

// Close ends a Hold without committing and gives up the lease. A poisoned
// log still does, and returns its fatal error.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.fatal
	}
	l.closed = true
	ctx, cancel := l.s.ctx()
	defer cancel()
	if l.tx != nil {
		l.tx.Rollback(ctx)
		l.tx = nil
	}
	if l.token != "" {
		if _, err := l.s.pool.Exec(ctx, `UPDATE skagerrak.games SET writer = NULL, writer_until = NULL WHERE game = $1 AND writer = $2`, l.game, l.token); err != nil && l.fatal == nil {
			return fmt.Errorf("pgstore: releasing game %s: %w", l.game, err)
		}
	}
	return l.fatal
}
