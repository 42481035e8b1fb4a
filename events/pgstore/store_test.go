package pgstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"skagerrak/events"
	"skagerrak/events/logtest"
	"skagerrak/events/pgstore/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var t0 = time.Date(1940, time.April, 9, 4, 15, 0, 0, time.UTC)

// newStore migrates a fresh database and opens it.
func newStore(t *testing.T, o Options) (*Store, string) {
	t.Helper()
	url := pgtest.URL(t)
	ctx := context.Background()
	if _, err := Migrate(ctx, url, o, nil); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, url
}

// gameOf names the game kept for a logtest directory.
func gameOf(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return "g" + hex.EncodeToString(sum[:8])
}

func TestConformance(t *testing.T) {
	s, _ := newStore(t, Options{})
	logtest.Run(t, func(t *testing.T, dir string) (events.Log, error) {
		ctx := context.Background()
		l, err := s.Log(ctx, gameOf(dir))
		if errors.Is(err, fs.ErrNotExist) {
			return s.Create(ctx, gameOf(dir), nil)
		}
		return l, err
	})
}

func appendN(t *testing.T, l events.Log, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if _, err := l.Append("Tick", t0.Add(time.Duration(i)*time.Minute), map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMigrateTwiceAndVersionChecked(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	if _, err := Open(ctx, url, Options{}); !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "store migrate") {
		t.Fatalf("Open before migrate: %v, want ErrSchema naming store migrate", err)
	}
	m, err := Migrate(ctx, url, Options{}, nil)
	if err != nil || m.From != 0 || m.To != Latest() {
		t.Fatalf("first migrate: %+v %v", m, err)
	}
	m, err = Migrate(ctx, url, Options{}, nil)
	if err != nil || m.From != Latest() || m.To != Latest() {
		t.Fatalf("second migrate: %+v %v", m, err)
	}
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// The lease of an exclusive writer lapses (its process paused or lost the
// database); another writer takes the game and appends; the first one's
// append is then refused: its head is stale.
func TestWriterWithAStaleHeadIsRefused(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	a, err := s.Create(ctx, "stale", nil)
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, a, 2)
	if _, err := s.pool.Exec(ctx, `UPDATE skagerrak.games SET writer_until = now() - interval '1 second' WHERE game = 'stale'`); err != nil {
		t.Fatal(err)
	}
	b, err := s.Log(ctx, "stale")
	if err != nil {
		t.Fatalf("a lapsed lease is not taken over: %v", err)
	}
	appendN(t, b, 1)
	_, err = a.Append("Late", t0, nil)
	if !errors.Is(err, ErrFenced) || !errors.Is(err, events.ErrFatal) {
		t.Fatalf("append by the writer whose lease lapsed: %v, want ErrFenced and ErrFatal", err)
	}
	if _, err := a.Append("Later", t0, nil); !errors.Is(err, events.ErrFatal) {
		t.Fatalf("a fenced log is not poisoned: %v", err)
	}
	a.Close()
	if seq, _ := b.Head(); seq != 3 {
		t.Fatalf("head %d, want 3", seq)
	}
	b.Close()

	// Without the fence of the games row, straight into the table: a
	// correctly hashed record for a seq that is taken is refused by the
	// database's key.
	evs := records(t, s, "stale")
	stale, err := events.NewEvent(3, evs[1].Hash, "Stale", t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := insertRaw(s, "stale", stale); !isConstraint(err, "events_one_per_seq") {
		t.Fatalf("a second record 3 inserted by hand: %v, want events_one_per_seq refusing it", err)
	}
}

// Two records with one prev: the fork cannot be inserted, whether it
// claims the same seq or another one.
func TestForkedChainCannotBeInserted(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	l, err := s.Create(ctx, "fork", nil)
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, l, 3)
	l.Close()
	evs := records(t, s, "fork")
	// seq 4 whose prev is the hash of record 2 (a branch off record 2).
	branch, err := events.NewEvent(4, evs[1].Hash, "Branch", t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := insertRaw(s, "fork", branch); !isConstraint(err, "events_no_fork", "events_chain") {
		t.Fatalf("a branch off record 2: %v, want the chain constraints refusing it", err)
	}
	// seq 5 skipping 4.
	skip, err := events.NewEvent(5, evs[2].Hash, "Skip", t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := insertRaw(s, "fork", skip); !isConstraint(err, "events_no_fork", "events_chain") {
		t.Fatalf("record 5 after 3: %v, want the chain constraints refusing it", err)
	}
	// A record whose hash is not its own.
	bad, err := events.NewEvent(4, evs[2].Hash, "Good", t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	bad.Type = "Changed"
	if err := insertRaw(s, "fork", bad); !isConstraint(err, "events_hash") {
		t.Fatalf("a record with another's hash: %v, want events_hash refusing it", err)
	}
	// And the proper next record goes in by hand too.
	good, _ := events.NewEvent(4, evs[2].Hash, "Good", t0, nil)
	if err := insertRaw(s, "fork", good); err != nil {
		t.Fatalf("the proper record 4: %v", err)
	}
}

func TestUpdateAndDeleteAreRefused(t *testing.T) {
	s, url := newStore(t, Options{})
	ctx := context.Background()
	l, err := s.Create(ctx, "ro", []byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, l, 2)
	l.Close()
	// The owner (here a superuser, whom no privilege binds) meets the
	// trigger.
	for _, sql := range []string{
		`UPDATE skagerrak.events SET type = 'Changed' WHERE game = 'ro' AND seq = 1`,
		`DELETE FROM skagerrak.events WHERE game = 'ro'`,
		`TRUNCATE skagerrak.events CASCADE`,
		`DELETE FROM skagerrak.games WHERE game = 'ro'`,
	} {
		_, err := s.pool.Exec(ctx, sql)
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want the append-only trigger refusing it", sql, err)
		}
	}
	// The daemon's role has no such privilege in the first place, and a
	// role without a grant cannot read the secrets.
	c := pgtest.Get(t)
	for _, sql := range []string{`CREATE ROLE skagerrak_daemon LOGIN`, `CREATE ROLE skagerrak_monitor LOGIN`} {
		if err := c.Exec(ctx, sql); err != nil && !strings.Contains(err.Error(), "already exists") {
			t.Fatal(err)
		}
	}
	if _, err := Migrate(ctx, url, Options{}, []string{"skagerrak_daemon"}); err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, `GRANT USAGE ON SCHEMA skagerrak TO skagerrak_monitor; GRANT SELECT ON skagerrak.events, skagerrak.games TO skagerrak_monitor`); err != nil {
		t.Fatal(err)
	}
	daemon := connectAs(t, url, "skagerrak_daemon")
	for _, sql := range []string{
		`UPDATE skagerrak.events SET type = 'Changed' WHERE game = 'ro' AND seq = 1`,
		`DELETE FROM skagerrak.events WHERE game = 'ro'`,
	} {
		_, err := daemon.Exec(ctx, sql)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "42501" {
			t.Errorf("the daemon's role: %s: %v, want permission denied", sql, err)
		}
	}
	var n int
	if err := daemon.QueryRow(ctx, `SELECT count(*) FROM skagerrak.secrets`).Scan(&n); err != nil || n != 1 {
		t.Errorf("the daemon's role reads the secrets: %d %v", n, err)
	}
	monitor := connectAs(t, url, "skagerrak_monitor")
	if err := monitor.QueryRow(ctx, `SELECT count(*) FROM skagerrak.events`).Scan(&n); err != nil || n != 2 {
		t.Errorf("the monitor reads the records: %d %v", n, err)
	}
	_, err = monitor.Exec(ctx, `SELECT secret FROM skagerrak.secrets`)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42501" {
		t.Errorf("a role without a grant reads the dice secrets: %v, want permission denied", err)
	}
}

func connectAs(t *testing.T, url, role string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.User = role
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	return c
}

// Shared writers racing on one game: each holds the game, catches up and
// appends the next record; no record is lost, doubled or forked.
func TestRacingSharedWriters(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	l, err := s.Create(ctx, "race", nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	const writers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sl, err := s.Shared(ctx, "race")
			if err != nil {
				errs <- err
				return
			}
			defer sl.Close()
			for i := 0; i < each; i++ {
				if err := sl.Hold(ctx); err != nil {
					errs <- err
					return
				}
				if _, err := sl.Append("Tick", t0, map[string]int{"w": w, "i": i}); err != nil {
					errs <- err
					return
				}
				if err := sl.Release(true); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	evs := records(t, s, "race")
	if len(evs) != writers*each {
		t.Fatalf("%d records, want %d", len(evs), writers*each)
	}
	seen := map[string]bool{}
	for _, ev := range evs {
		seen[string(ev.Data)] = true
	}
	if len(seen) != writers*each {
		t.Fatalf("%d distinct records, want %d", len(seen), writers*each)
	}
}

// Exclusive writers racing without the lease (as if two held it): one
// wins each seq and the other is fenced.
func TestRacingAppendsWithOneHeadAreFenced(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	a, err := s.Create(ctx, "twin", nil)
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, a, 1)
	b := &Log{s: s, game: "twin", token: a.token}
	b.seq, b.head = a.Head()
	var wg sync.WaitGroup
	res := make([]error, 2)
	for i, l := range []*Log{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, res[i] = l.Append("Twin", t0, map[string]int{"writer": i})
		}()
	}
	wg.Wait()
	ok, fenced := 0, 0
	for _, err := range res {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, ErrFenced):
			fenced++
		default:
			t.Errorf("racing append: %v", err)
		}
	}
	if ok != 1 || fenced != 1 {
		t.Fatalf("%d appends succeeded and %d were fenced, want 1 and 1", ok, fenced)
	}
	if n := len(records(t, s, "twin")); n != 2 {
		t.Fatalf("%d records, want 2", n)
	}
}

func TestHoldRollbackLeavesNothing(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	l, err := s.Create(ctx, "rb", nil)
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, l, 1)
	l.Close()
	sl, err := s.Shared(ctx, "rb")
	if err != nil {
		t.Fatal(err)
	}
	defer sl.Close()
	if _, err := sl.Append("Outside", t0, nil); err == nil || errors.Is(err, events.ErrFatal) {
		t.Fatalf("append outside Hold: %v, want a plain refusal", err)
	}
	if err := sl.Hold(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := sl.Append("Dropped", t0, nil); err != nil {
		t.Fatal(err)
	}
	if err := sl.Release(false); err != nil {
		t.Fatal(err)
	}
	if seq, _ := sl.Head(); seq != 1 {
		t.Fatalf("head after rollback %d, want 1", seq)
	}
	if n := len(records(t, s, "rb")); n != 1 {
		t.Fatalf("%d records after a rollback, want 1", n)
	}
	// An exclusive writer's game cannot be held.
	ex, err := s.Log(ctx, "rb")
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	if err := sl.Hold(ctx); !errors.Is(err, events.ErrLocked) {
		t.Fatalf("hold of a game an exclusive writer has: %v, want ErrLocked", err)
	}
}

func TestSecretsAndSnapshots(t *testing.T) {
	s, _ := newStore(t, Options{})
	ctx := context.Background()
	sec := []byte(strings.Repeat("s", 32))
	l, err := s.Create(ctx, "sn", sec)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := s.Create(ctx, "sn", sec); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second create: %v, want fs.ErrExist", err)
	}
	got, err := s.Secret(ctx, "sn")
	if err != nil || string(got) != string(sec) {
		t.Fatalf("secret %q %v", got, err)
	}
	if b, _, err := s.Snapshot(ctx, "sn"); b != nil || err != nil {
		t.Fatalf("snapshot of a new game: %q %v", b, err)
	}
	s.SaveSnapshot(ctx, "sn", 5, []byte("five"))
	s.SaveSnapshot(ctx, "sn", 3, []byte("three")) // an older one does not replace it
	if b, seq, err := s.Snapshot(ctx, "sn"); string(b) != "five" || seq != 5 || err != nil {
		t.Fatalf("snapshot %q at %d %v, want five at 5", b, seq, err)
	}
	hs, err := s.Games(ctx)
	if err != nil || len(hs) != 1 || hs[0].Game != "sn" {
		t.Fatalf("games %v %v", hs, err)
	}
}

func records(t *testing.T, s *Store, game string) []events.Event {
	t.Helper()
	l, err := s.Shared(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var out []events.Event
	for ev, err := range l.Events(1) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

func insertRaw(s *Store, game string, ev events.Event) error {
	_, err := s.pool.Exec(context.Background(), `INSERT INTO skagerrak.events (game, seq, time, type, data, prev, hash) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		game, int64(ev.Seq), ev.Time.Format(time.RFC3339Nano), ev.Type, string(ev.Data), ev.Prev, ev.Hash)
	return err
}

func isConstraint(err error, names ...string) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	for _, n := range names {
		if pe.ConstraintName == n {
			return true
		}
	}
	return false
}
