package main

import (
	"context"
	"fmt"
	"iter"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/events"
	"skagerrak/internal/wiring"
)

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
	st, err := wiring.OpenStore(cmd.Context(), cfg, true)
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

// storeStatus prints the status of the games of a database store, read
// without holding them.
func (m *Main) storeStatus(cmd *cobra.Command, c *config.Config, args []string) error {
	st, err := wiring.OpenStore(cmd.Context(), c, true)
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
