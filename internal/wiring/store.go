package wiring

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/events"
	"skagerrak/events/pgstore"
)

// PostgresStore is the adjudicator's Store over a PostgreSQL database
// that several daemons may share.
type PostgresStore struct{ Store *pgstore.Store }

var (
	_ adjudicator.HeadLister    = PostgresStore{}
	_ adjudicator.MessageLocker = PostgresStore{}
)

// Exclusive runs f holding the database's lock on key (see
// adjudicator.MessageLocker).
func (p PostgresStore) Exclusive(ctx context.Context, key int32, f func() error) error {
	return p.Store.Exclusive(ctx, key, f)
}

func (p PostgresStore) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), storeTimeout)
}

// Games lists the games that hold records, sorted.
func (p PostgresStore) Games() ([]string, error) {
	hs, err := p.Heads()
	if err != nil {
		return nil, err
	}
	var ids []string
	for id, seq := range hs {
		if seq > 0 {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// Heads maps each game to its last record's sequence number.
func (p PostgresStore) Heads() (map[string]uint64, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	hs, err := p.Store.Games(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]uint64, len(hs))
	for _, h := range hs {
		out[h.Game] = h.Seq
	}
	return out, nil
}

// Create makes a game's log, held until done says whether to keep it.
func (p PostgresStore) Create(id string, secret []byte) (events.Log, func(bool) error, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	l, err := p.Store.CreateHeld(ctx, id, secret)
	if err != nil {
		return nil, nil, err
	}
	done := func(keep bool) error {
		if !keep {
			l.Close()
			return nil
		}
		return l.Release(true)
	}
	return l, done, nil
}

// Open opens a game's log shared with other daemons.
func (p PostgresStore) Open(id string) (events.Log, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	return p.Store.Shared(ctx, id)
}

// Secret reads a game's dice secret.
func (p PostgresStore) Secret(id string) ([]byte, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	return p.Store.Secret(ctx, id)
}

// Snapshot reads a game's last saved snapshot.
func (p PostgresStore) Snapshot(id string) ([]byte, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	b, _, err := p.Store.Snapshot(ctx, id)
	return b, err
}

// SaveSnapshot saves a game's snapshot as of record seq.
func (p PostgresStore) SaveSnapshot(id string, seq uint64, b []byte) error {
	ctx, cancel := p.ctx()
	defer cancel()
	return p.Store.SaveSnapshot(ctx, id, seq, b)
}

// Where names the database for messages.
func (p PostgresStore) Where() string { return p.Store.Where() }

// Close closes the connections.
func (p PostgresStore) Close() error {
	p.Store.Close()
	return nil
}

// OpenStore opens the configured store: the file store under data_dir, or
// the database.
func OpenStore(ctx context.Context, c *config.Config, mustExist bool) (adjudicator.Store, error) {
	if c.IsFileStore() {
		return adjudicator.NewFileStore(c.DataDir, mustExist)
	}
	s, err := pgstore.Open(ctx, c.Store, StoreOptions(c))
	if err != nil && c.StorePassword == "" && strings.Contains(err.Error(), "password") {
		return nil, fmt.Errorf("config %s: store: %w (%s is not set in the environment)", c.Where(), err, config.EnvName("store_password"))
	}
	if err != nil {
		return nil, fmt.Errorf("config %s: store: %w", c.Where(), err)
	}
	return PostgresStore{s}, nil
}

// StoreOptions are the database's options for the configuration.
func StoreOptions(c *config.Config) pgstore.Options {
	// One connection for each game being sent (each holds its game), and
	// a few for reading and the rest.
	return pgstore.Options{Password: c.StorePassword, MaxConns: int32(Senders(c) + 4)}
}

// Senders is how many games' mail is sent at once: one for each SMTP
// connection, and two for each core drawing the next mails meanwhile (a
// burst of 200 reports to OpenSMTPD: 8.1 s, against 9.4 s with one a core).
func Senders(c *config.Config) int { return c.SMTP.Connections + 2*runtime.NumCPU() }

const storeTimeout = 60e9 // a minute, for each call into the database
