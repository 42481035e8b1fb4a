package main

import (
	"context"
	"fmt"
	"iter"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/events"
	"skagerrak/events/pgstore"
)

// pgGames is the adjudicator's Store over a PostgreSQL database that
// several daemons may share.
type pgGames struct{ s *pgstore.Store }

var (
	_ adjudicator.HeadLister    = pgGames{}
	_ adjudicator.MessageLocker = pgGames{}
)

// Exclusive runs f holding the database's lock on key (see
// adjudicator.MessageLocker).
func (p pgGames) Exclusive(ctx context.Context, key int32, f func() error) error {
	return p.s.Exclusive(ctx, key, f)
}

func (p pgGames) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), storeTimeout)
}

func (p pgGames) Games() ([]string, error) {
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

func (p pgGames) Heads() (map[string]uint64, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	hs, err := p.s.Games(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]uint64, len(hs))
	for _, h := range hs {
		out[h.Game] = h.Seq
	}
	return out, nil
}

func (p pgGames) Create(id string, secret []byte) (events.Log, func(bool) error, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	l, err := p.s.CreateHeld(ctx, id, secret)
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

func (p pgGames) Open(id string) (events.Log, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	return p.s.Shared(ctx, id)
}

func (p pgGames) Secret(id string) ([]byte, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	return p.s.Secret(ctx, id)
}

func (p pgGames) Snapshot(id string) ([]byte, error) {
	ctx, cancel := p.ctx()
	defer cancel()
	b, _, err := p.s.Snapshot(ctx, id)
	return b, err
}

func (p pgGames) SaveSnapshot(id string, seq uint64, b []byte) error {
	ctx, cancel := p.ctx()
	defer cancel()
	return p.s.SaveSnapshot(ctx, id, seq, b)
}

func (p pgGames) Where() string { return p.s.Where() }

func (p pgGames) Close() error {
	p.s.Close()
	return nil
}

// openStore opens the configured store: the file store under data_dir, or
// the database.
func openStore(ctx context.Context, c *config.Config, mustExist bool) (adjudicator.Store, error) {
	if c.IsFileStore() {
		return adjudicator.NewFileStore(c.DataDir, mustExist)
	}
	s, err := pgstore.Open(ctx, c.Store, storeOptions(c))
	if err != nil && c.StorePassword == "" && strings.Contains(err.Error(), "password") {
		return nil, fmt.Errorf("config %s: store: %w (%s is not set in the environment)", c.Where(), err, config.EnvName("store_password"))
	}
	if err != nil {
		return nil, fmt.Errorf("config %s: store: %w", c.Where(), err)
	}
	return pgGames{s}, nil
}

func storeOptions(c *config.Config) pgstore.Options {
	// One connection for each game being sent (each holds its game), and
	// a few for reading and the rest.
	return pgstore.Options{Password: c.StorePassword, MaxConns: int32(senders(c) + 4)}
}

// senders is how many games' mail is sent at once: one for each SMTP
// connection, and two for each core drawing the next mails meanwhile (a
// burst of 200 reports to OpenSMTPD: 8.1 s, against 9.4 s with one a core).
func senders(c *config.Config) int { return c.SMTP.Connections + 2*runtime.NumCPU() }

// eventLog is what reads a game's records.
type eventLog interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}

// gameLog is a game's records read without writing: the file read as it
// is (a daemon may hold its lock), or the database's.
func (m *Main) gameLog(ctx context.Context, c *config.Config, st adjudicator.Store, game string) (eventLog, func(), error) {
	if c.IsFileStore() {
		path := filepath.Join(c.DataDir, game, adjudicator.LogFile)
		return adjudicator.LogReader{Path: path}, func() {}, nil
	}
	l, err := st.Open(game)
	if err != nil {
		return nil, nil, err
	}
	return l, func() { l.Close() }, nil
}

// storedLog is the records of a game of the configured store, read
// without writing; done closes what it opened.
func (m *Main) storedLog(cmd *cobra.Command, game string) (lr eventLog, done func(), err error) {
	cfg, err := m.config(cmd)
	if err != nil {
		return nil, nil, err
	}
	if cfg.IsFileStore() {
		if err := fileGame(cfg, game); err != nil {
			return nil, nil, err
		}
	}
	st, err := openStore(cmd.Context(), cfg, true)
	if err != nil {
		return nil, nil, err
	}
	lr, closeLog, err := m.gameLog(cmd.Context(), cfg, st, game)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return lr, func() { closeLog(); st.Close() }, nil
}

const storeTimeout = 60e9 // a minute, for each call into the database

// storeStatus prints the status of the games of a database store, read
// without holding them.
func (m *Main) storeStatus(cmd *cobra.Command, c *config.Config, args []string) error {
	st, err := openStore(cmd.Context(), c, true)
	if err != nil {
		return err
	}
	defer st.Close()
	ids, err := st.Games()
	if err != nil {
		return err
	}
	if len(args) == 1 {
		if !slices.Contains(ids, args[0]) {
			return noGame(args[0], st.Where(), ids)
		}
		ids = args
	}
	if len(ids) == 0 {
		fmt.Fprintf(m.Stdout, "no games in %s\n", st.Where())
	}
	aside, undelivered := 0, 0
	for _, id := range ids {
		l, err := st.Open(id)
		if err != nil {
			return err
		}
		g, err := adjudicator.ReplayContext(cmd.Context(), l, false)
		l.Close()
		if stopped(err) {
			return err
		}
		if err != nil {
			m.printAside(id, err)
			aside++
			continue
		}
		if err := m.printStatus(g); err != nil {
			return err
		}
		undelivered += len(g.Undelivered)
	}
	return statusExit(aside, undelivered)
}
