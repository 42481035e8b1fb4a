package gamelog

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/events/pgstore"
	"skagerrak/internal/wiring"
)

// ImportAll loads the games of the log files, game directories and data
// directories named in args into the configured PostgreSQL store, each
// only if it verifies (the order signatures too if sigs), saying to out
// what it imported and to refusals what it refused and why; the error
// says how many it refused.
func ImportAll(ctx context.Context, out, refusals io.Writer, c *config.Config, args []string, sigs bool) error {
	if c.IsFileStore() {
		return fmt.Errorf("import: the store is %q; import loads games into a database (set store: to a postgres:// URL)", c.Store)
	}
	s, err := pgstore.Open(ctx, c.Store, wiring.StoreOptions(c))
	if err != nil {
		return err
	}
	defer s.Close()
	dirs, err := ImportPaths(args)
	if err != nil {
		return err
	}
	refused := 0
	for _, d := range dirs {
		game, n, err := Import(ctx, s, d, sigs)
		if err != nil {
			refused++
			fmt.Fprintf(refusals, "refused %s: %v\n", d, err)
			continue
		}
		fmt.Fprintf(out, "imported %s from %s: %d records\n", game, d, n)
	}
	if refused > 0 {
		return fmt.Errorf("import: %d of %d games refused", refused, len(dirs))
	}
	return nil
}

// ImportPaths is the games import takes from its arguments: each a log
// file, a game directory, or a data directory (its every game).
func ImportPaths(args []string) ([]string, error) {
	var dirs []string
	for _, a := range args {
		if st, err := os.Stat(a); err == nil && !st.IsDir() {
			dirs = append(dirs, a)
			continue
		}
		if _, err := os.Stat(filepath.Join(a, adjudicator.LogFile)); err == nil {
			dirs = append(dirs, a)
			continue
		}
		ds, err := adjudicator.GameDirs(a)
		if err != nil {
			return nil, fmt.Errorf("import: %s is neither a game directory nor a data directory: %w", a, err)
		}
		dirs = append(dirs, ds...)
	}
	return dirs, nil
}

// Import verifies a game directory (or a finished game's log file), with
// the order signatures if sigs, and copies its log into the store in one
// transaction; it returns the game and how many records it copied.
func Import(ctx context.Context, s *pgstore.Store, path string, sigs bool) (string, int, error) {
	var v adjudicator.Verifier
	if sigs {
		v = wiring.Verifier{}
	}
	logPath, gdir := path, ""
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		logPath, gdir = filepath.Join(path, adjudicator.LogFile), path
	}
	rep, err := adjudicator.VerifyPathContext(ctx, path, v)
	if err != nil {
		return "", 0, fmt.Errorf("it does not verify: %w", err)
	}
	if rep.TornTail {
		return "", 0, errors.New("its log ends in an incomplete record (open it with the file store once, which cuts it, or repair it)")
	}
	g, err := adjudicator.ReplayContext(ctx, adjudicator.LogReader{Path: logPath}, false)
	if err != nil {
		return "", 0, err
	}
	var secret []byte
	switch {
	case g.Ended != nil:
		secret, _ = hex.DecodeString(g.Ended.Secret)
	case gdir == "":
		return "", 0, errors.New("the game is not over: import its directory, which holds its dice secret")
	default:
		if secret, err = adjudicator.ReadSecret(gdir); err != nil {
			return "", 0, fmt.Errorf("the game is not over and its %w; it could not go on without it", err)
		}
	}
	l, err := s.CreateHeld(ctx, g.ID, secret)
	if err != nil {
		return "", 0, err
	}
	defer l.Close()
	n := 0
	for ev, err := range (adjudicator.LogReader{Path: logPath}).Events(1) {
		if err != nil {
			return "", 0, err
		}
		got, err := l.Append(ev.Type, ev.Time, json.RawMessage(ev.Data))
		if err != nil {
			return "", 0, err
		}
		if got.Hash != ev.Hash {
			return "", 0, fmt.Errorf("record %d is not in the canonical form (its hash changes when written again)", ev.Seq)
		}
		n++
	}
	if err := l.Release(true); err != nil {
		return "", 0, err
	}
	return g.ID, n, nil
}
