// Package pgstore keeps skagerrak's games in PostgreSQL: each game's event
// log (an events.Log passing events/logtest, with the same records and
// hash chain as the file store), its dice secret and its snapshot. Several
// daemons may share one database.
//
// # Tables
//
// Everything lives in the schema "skagerrak", made and upgraded by Migrate
// from the SQL files under migrations/, applied in order:
//
//   - games: one row per game, with the seq and hash of its last record
//     (updated in the same statement as every insert) and the lease of an
//     exclusive writer.
//   - events: the records, one row per game and seq, holding the fields of
//     a line of events.jsonl byte for byte (seq, time as RFC3339Nano text,
//     type, data as its exact JSON text, prev, hash). Constraints make the
//     database refuse what is not a record continuing the chain: a primary
//     key (game, seq), a unique (game, prev) so that the chain cannot fork,
//     a foreign key from (game, seq-1, prev) to the record before, and a
//     check that each hash is that of its own record's bytes. UPDATE,
//     DELETE and TRUNCATE raise in a trigger and are granted to no role.
//   - secrets: each game's dice secret, readable by no role but the owner
//     and the roles migrate grants it to (the daemon's).
//   - snapshots: caches of a game at one record.
//
// # Writers
//
// An append is one statement: it moves the game's head from the seq and
// hash the writer last saw to the new record's and inserts the record, in
// one transaction, only if the head is still the one the writer saw and
// the writer holds the game (the fence). Log, like the file store, is one
// exclusive writer: Store.Log takes a lease on the game, renewed while it
// is open; a second writer fails with an error wrapping events.ErrLocked.
// Daemons that share the games instead Hold a game for each piece of work
// (a transaction-scoped row lock, released by commit, rollback or a lost
// connection), and commit what they appended with Release.
package pgstore

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options configure a Store; zero fields take defaults.
type Options struct {
	// Password, when set, is used instead of one in the URL (it comes from
	// the environment, like every secret).
	Password string
	// Lease is how long an exclusive writer holds a game without renewing
	// it; the Store renews its leases every third of it. Default 30s.
	Lease time.Duration
	// Timeout bounds each call into the database. Default 30s.
	Timeout time.Duration
	// IdleInHold is how long a daemon may hold a game without a word to
	// the database (rendering, sending a mail) before the server ends its
	// session, rolling its work back and freeing the game for the others:
	// idle_in_transaction_session_timeout. Default 10 minutes.
	IdleInHold time.Duration
	// MaxConns bounds the connection pool. Default 8.
	MaxConns int32
}

// Store is a connection pool to one database holding skagerrak's schema.
// It is safe for concurrent use.
type Store struct {
	pool    *pgxpool.Pool
	where   string // the URL without password, for messages
	token   string // this store's name as a lease holder
	lease   time.Duration
	timeout time.Duration

	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	writers atomic.Int64
}

// newToken names one exclusive writer of this store.
func (s *Store) newToken() string {
	return fmt.Sprintf("%s #%d", s.token, s.writers.Add(1))
}

// ErrSchema is wrapped by the error of Open when the database's schema is
// missing or older than this build's (run skagerrak store migrate), or
// newer (a later build migrated it).
var ErrSchema = errors.New("pgstore: the database schema does not match this build")

// Open connects to the database at url and checks its schema version.
func Open(ctx context.Context, url string, o Options) (*Store, error) {
	s, err := connect(ctx, url, o)
	if err != nil {
		return nil, err
	}
	v, err := s.version(ctx)
	if err != nil {
		s.pool.Close()
		return nil, err
	}
	if latest := Latest(); v != latest {
		s.pool.Close()
		if v < latest {
			return nil, fmt.Errorf("%w: %s is at schema version %d, this build needs %d (run skagerrak store migrate)", ErrSchema, s.where, v, latest)
		}
		return nil, fmt.Errorf("%w: %s is at schema version %d, newer than this build's %d (a later skagerrak migrated it)", ErrSchema, s.where, v, latest)
	}
	go s.renew()
	return s, nil
}

func connect(ctx context.Context, rawURL string, o Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("pgstore: store URL: %w", err)
	}
	if o.Password != "" {
		cfg.ConnConfig.Password = o.Password
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	} else if !strings.Contains(rawURL, "pool_max_conns") {
		cfg.MaxConns = 8
	}
	if o.Lease <= 0 {
		o.Lease = 30 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.IdleInHold <= 0 {
		o.IdleInHold = 10 * time.Minute
	}
	// A daemon paused inside a transaction must not hold its game for
	// ever: the server ends the session, which rolls the work back.
	cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = strconv.Itoa(int(o.IdleInHold.Milliseconds()))
	cfg.ConnConfig.RuntimeParams["application_name"] = "skagerrak"
	s := &Store{where: Redact(rawURL), lease: o.Lease, timeout: o.Timeout, stop: make(chan struct{}), done: make(chan struct{})}
	host, _ := os.Hostname()
	var r [4]byte
	rand.Read(r[:])
	s.token = fmt.Sprintf("%s pid %d (%s)", host, os.Getpid(), hex.EncodeToString(r[:]))
	pctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	s.pool, err = pgxpool.NewWithConfig(pctx, cfg)
	if err != nil {
		return nil, reach(fmt.Errorf("pgstore: %s: %w", s.where, err), err)
	}
	if err := s.pool.Ping(pctx); err != nil {
		s.pool.Close()
		return nil, reach(fmt.Errorf("pgstore: connecting to %s: %w", s.where, err), err)
	}
	return s, nil
}

// Redact returns a store URL without its password, for messages.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return rawURL
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// Where is the store's URL without password.
func (s *Store) Where() string { return s.where }

// Close stops renewing leases and closes the pool.
func (s *Store) Close() {
	s.once.Do(func() {
		close(s.stop)
		<-s.done
		s.pool.Close()
	})
}

// renew extends every lease this store holds, every third of a lease.
func (s *Store) renew() {
	defer close(s.done)
	t := time.NewTicker(s.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			ctx, cancel := s.ctx()
			s.pool.Exec(ctx, `UPDATE skagerrak.games SET writer_until = now() + $2 * interval '1 millisecond' WHERE starts_with(writer, $1)`, s.token+" #", s.lease.Milliseconds())
			cancel()
		}
	}
}

func (s *Store) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.timeout)
}

// Latest is the schema version this build's migrations reach.
func Latest() int {
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	return len(names)
}

// version reads the database's schema version (0: no schema).
func (s *Store) version(ctx context.Context) (int, error) {
	var v int
	err := s.pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM skagerrak.schema_migrations`).Scan(&v)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "42P01" || pe.Code == "3F000") { // undefined table, schema
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("pgstore: %s: reading the schema version: %w", s.where, err)
	}
	return v, nil
}

// Migration is the outcome of Migrate.
type Migration struct {
	// From and To are the versions before and after.
	From, To int
	// Granted lists the roles given the daemon's privileges.
	Granted []string
}

// Migrate creates or upgrades the schema at url to Latest, in one
// transaction (so two migrating at once wait for each other), and grants
// each role in grant what a daemon needs: read and insert records, read
// and write games and snapshots, read and insert secrets; never UPDATE or
// DELETE of records. The role that migrates owns the tables.
func Migrate(ctx context.Context, rawURL string, o Options, grant []string) (Migration, error) {
	s, err := connect(ctx, rawURL, o)
	if err != nil {
		return Migration{}, err
	}
	defer s.pool.Close()
	var enc string
	if err := s.pool.QueryRow(ctx, `SHOW server_encoding`).Scan(&enc); err != nil {
		return Migration{}, fmt.Errorf("pgstore: %s: %w", s.where, err)
	}
	if enc != "UTF8" {
		return Migration{}, fmt.Errorf("pgstore: %s has encoding %s; the records are UTF-8 (create the database with ENCODING 'UTF8')", s.where, enc)
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Migration{}, fmt.Errorf("pgstore: %s: %w", s.where, err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7147383)`); err != nil {
		return Migration{}, fmt.Errorf("pgstore: %s: %w", s.where, err)
	}
	if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS skagerrak;
		CREATE TABLE IF NOT EXISTS skagerrak.schema_migrations (version int PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return Migration{}, fmt.Errorf("pgstore: %s: creating the schema: %w", s.where, err)
	}
	var m Migration
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM skagerrak.schema_migrations`).Scan(&m.From); err != nil {
		return Migration{}, fmt.Errorf("pgstore: %s: %w", s.where, err)
	}
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	sort.Strings(names)
	if m.From > len(names) {
		return Migration{}, fmt.Errorf("%w: %s is at schema version %d, newer than this build's %d", ErrSchema, s.where, m.From, len(names))
	}
	for i := m.From; i < len(names); i++ {
		sql, _ := migrations.ReadFile(names[i])
		if _, err := tx.Exec(ctx, string(sql)); err != nil {
			return Migration{}, fmt.Errorf("pgstore: %s: migration %s: %w", s.where, names[i], err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO skagerrak.schema_migrations (version) VALUES ($1)`, i+1); err != nil {
			return Migration{}, fmt.Errorf("pgstore: %s: %w", s.where, err)
		}
	}
	m.To = len(names)
	for _, role := range grant {
		id := pgx.Identifier{role}.Sanitize()
		for _, g := range []string{
			`GRANT USAGE ON SCHEMA skagerrak TO %s`,
			`GRANT SELECT ON skagerrak.schema_migrations TO %s`,
			`GRANT SELECT, INSERT ON skagerrak.events, skagerrak.secrets TO %s`,
			`GRANT SELECT, INSERT, UPDATE ON skagerrak.games, skagerrak.snapshots TO %s`,
		} {
			if _, err := tx.Exec(ctx, fmt.Sprintf(g, id)); err != nil {
				return Migration{}, fmt.Errorf("pgstore: %s: granting to role %s: %w", s.where, role, err)
			}
		}
		m.Granted = append(m.Granted, role)
	}
	if err := tx.Commit(ctx); err != nil {
		return Migration{}, fmt.Errorf("pgstore: %s: %w", s.where, err)
	}
	return m, nil
}

// ErrNotExist is wrapped by the error for a game the store does not have.
var ErrNotExist = fs.ErrNotExist

// Head is a game and the seq of its last record.
type Head struct {
	Game string
	Seq  uint64
}

// Games lists every game with its head seq, sorted by id.
func (s *Store) Games(ctx context.Context) ([]Head, error) {
	rows, err := s.pool.Query(ctx, `SELECT game, seq FROM skagerrak.games ORDER BY game`)
	if err != nil {
		return nil, reach(fmt.Errorf("pgstore: %s: listing the games: %w", s.where, err), err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Head, error) {
		var h Head
		var seq int64
		err := r.Scan(&h.Game, &seq)
		h.Seq = uint64(seq)
		return h, err
	})
	if err != nil {
		return nil, reach(fmt.Errorf("pgstore: %s: listing the games: %w", s.where, err), err)
	}
	return out, nil
}

// Create adds a game with its dice secret (nil: none) and an empty log,
// and returns the log, held by this store as its exclusive writer. A game
// that exists is an error wrapping fs.ErrExist.
func (s *Store) Create(ctx context.Context, game string, secret []byte) (*Log, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, reach(fmt.Errorf("pgstore: %s: %w", s.where, err), err)
	}
	defer tx.Rollback(ctx)
	token := s.newToken()
	tag, err := tx.Exec(ctx, `INSERT INTO skagerrak.games (game, writer, writer_until) VALUES ($1, $2, now() + $3 * interval '1 millisecond') ON CONFLICT DO NOTHING`,
		game, token, s.lease.Milliseconds())
	if err != nil {
		return nil, fmt.Errorf("pgstore: %s: creating game %s: %w", s.where, game, err)
	}
	if tag.RowsAffected() == 0 {
		return nil, fmt.Errorf("pgstore: game %s already exists in %s: %w", game, s.where, fs.ErrExist)
	}
	if secret != nil {
		if _, err := tx.Exec(ctx, `INSERT INTO skagerrak.secrets (game, secret) VALUES ($1, $2)`, game, secret); err != nil {
			return nil, reach(fmt.Errorf("pgstore: %s: the dice secret of %s: %w", s.where, game, err), err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("pgstore: %s: creating game %s: %w", s.where, game, err)
	}
	return &Log{s: s, game: game, token: token, head: genesis}, nil
}

// CreateHeld adds a game for daemons that share the games: it returns the
// game's log held (see Log.Hold), and the game, its dice secret and what is
// appended before Release are committed together by Release(true), or
// leave no trace. A game that exists is an error wrapping fs.ErrExist.
func (s *Store) CreateHeld(ctx context.Context, game string, secret []byte) (*Log, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, reach(fmt.Errorf("pgstore: %s: %w", s.where, err), err)
	}
	fail := func(err error) (*Log, error) {
		tx.Rollback(context.Background())
		return nil, err
	}
	tag, err := tx.Exec(ctx, `INSERT INTO skagerrak.games (game) VALUES ($1) ON CONFLICT DO NOTHING`, game)
	if err != nil {
		return fail(fmt.Errorf("pgstore: %s: creating game %s: %w", s.where, game, err))
	}
	if tag.RowsAffected() == 0 {
		return fail(fmt.Errorf("pgstore: game %s already exists in %s: %w", game, s.where, fs.ErrExist))
	}
	if secret != nil {
		if _, err := tx.Exec(ctx, `INSERT INTO skagerrak.secrets (game, secret) VALUES ($1, $2)`, game, secret); err != nil {
			return fail(fmt.Errorf("pgstore: %s: the dice secret of %s: %w", s.where, game, err))
		}
	}
	return &Log{s: s, game: game, shared: true, tx: tx, head: genesis, held: [2]any{uint64(0), genesis}}, nil
}

// Log opens a game's log as its exclusive writer: it takes the game's
// lease, or fails at once with an error wrapping events.ErrLocked when
// another writer holds it.
func (s *Store) Log(ctx context.Context, game string) (*Log, error) {
	var seq int64
	var head string
	token := s.newToken()
	err := s.pool.QueryRow(ctx, `UPDATE skagerrak.games SET writer = $2, writer_until = now() + $3 * interval '1 millisecond'
		WHERE game = $1 AND (writer IS NULL OR writer_until < now()) RETURNING seq, head`,
		game, token, s.lease.Milliseconds()).Scan(&seq, &head)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, s.whyNot(ctx, game)
	}
	if err != nil {
		return nil, reach(fmt.Errorf("pgstore: %s: opening game %s: %w", s.where, game, err), err)
	}
	return &Log{s: s, game: game, token: token, seq: uint64(seq), head: head}, nil
}

// Shared opens a game's log for a daemon that shares the game with
// others: it holds no lease, and appends only between Hold and Release.
func (s *Store) Shared(ctx context.Context, game string) (*Log, error) {
	var seq int64
	var head string
	err := s.pool.QueryRow(ctx, `SELECT seq, head FROM skagerrak.games WHERE game = $1`, game).Scan(&seq, &head)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("pgstore: no game %s in %s: %w", game, s.where, fs.ErrNotExist)
	}
	if err != nil {
		return nil, reach(fmt.Errorf("pgstore: %s: opening game %s: %w", s.where, game, err), err)
	}
	return &Log{s: s, game: game, seq: uint64(seq), head: head, shared: true}, nil
}

// whyNot explains a refused lease: no such game, or who holds it.
func (s *Store) whyNot(ctx context.Context, game string) error {
	var writer string
	var until time.Time
	err := s.pool.QueryRow(ctx, `SELECT coalesce(writer, ''), coalesce(writer_until, now()) FROM skagerrak.games WHERE game = $1`, game).Scan(&writer, &until)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("pgstore: no game %s in %s: %w", game, s.where, fs.ErrNotExist)
	}
	if err != nil {
		return reach(fmt.Errorf("pgstore: %s: opening game %s: %w", s.where, game, err), err)
	}
	return &lockedError{msg: fmt.Sprintf("pgstore: game %s in %s is held by another writer (%s, lease until %s)", game, s.where, writer, until.UTC().Format(time.RFC3339))}
}

// Secret returns a game's dice secret.
func (s *Store) Secret(ctx context.Context, game string) ([]byte, error) {
	var b []byte
	err := s.pool.QueryRow(ctx, `SELECT secret FROM skagerrak.secrets WHERE game = $1`, game).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("pgstore: game %s has no dice secret in %s: %w", game, s.where, fs.ErrNotExist)
	}
	if err != nil {
		return nil, reach(fmt.Errorf("pgstore: %s: the dice secret of %s: %w", s.where, game, err), err)
	}
	return b, nil
}

// Snapshot returns a game's snapshot (nil when there is none) and the seq
// it was saved at.
func (s *Store) Snapshot(ctx context.Context, game string) ([]byte, uint64, error) {
	var b []byte
	var seq int64
	err := s.pool.QueryRow(ctx, `SELECT body, seq FROM skagerrak.snapshots WHERE game = $1`, game).Scan(&b, &seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, reach(fmt.Errorf("pgstore: %s: the snapshot of %s: %w", s.where, game, err), err)
	}
	return b, uint64(seq), nil
}

// SaveSnapshot replaces a game's snapshot, unless the one stored is of a
// later record (another daemon got further).
func (s *Store) SaveSnapshot(ctx context.Context, game string, seq uint64, body []byte) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO skagerrak.snapshots (game, seq, body) VALUES ($1, $2, $3)
		ON CONFLICT (game) DO UPDATE SET seq = excluded.seq, body = excluded.body, saved = now() WHERE snapshots.seq <= excluded.seq`,
		game, int64(seq), body)
	if err != nil {
		return reach(fmt.Errorf("pgstore: %s: saving the snapshot of %s: %w", s.where, game, err), err)
	}
	return nil
}

// lockMessages is the first key of the advisory locks Exclusive takes
// (the migration's lock is a one-key lock of another space).
const lockMessages = 7147384

// Exclusive runs f holding the database's advisory lock on key, so that
// no other process (a daemon beside this one) runs an f for the same key
// at the same time: daemons sharing a mailbox move one message one at a
// time. The lock is transaction-scoped: released when f returns, or when
// the connection ends.
func (s *Store) Exclusive(ctx context.Context, key int32, f func() error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return reach(fmt.Errorf("pgstore: lock: %w", err), err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, int32(lockMessages), key); err != nil {
		return reach(fmt.Errorf("pgstore: lock: %w", err), err)
	}
	return f()
}
