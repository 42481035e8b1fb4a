package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/events/pgstore"
	"skagerrak/internal/wiring"
)

func (m *Main) storeCmd() *cobra.Command {
	c := &cobra.Command{Use: "store", Short: "The store the games are kept in (store: in the configuration)"}
	var grant []string
	c.AddCommand(&cobra.Command{
		Use:   "migrate [--grant ROLE]",
		Short: "Create or upgrade the database schema of a PostgreSQL store",
		Long: `migrate creates the schema "skagerrak" in the database the store key names,
or upgrades it to this build's version; run it as the role that is to own
the tables. --grant ROLE gives a daemon's role (when it is not the owner)
what a daemon needs and no more: read and insert records (never update or
delete them), read and write games and snapshots, read and insert the dice
secrets. Running it again does nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			if c.IsFileStore() {
				return fmt.Errorf("store migrate: the store is %q (files under %s), which has no schema; set store: to a postgres:// URL", c.Store, c.DataDir)
			}
			mg, err := pgstore.Migrate(cmd.Context(), c.Store, wiring.StoreOptions(c), grant)
			if err != nil {
				return err
			}
			if mg.From == mg.To {
				fmt.Fprintf(m.Stdout, "%s: schema at version %d, nothing to do\n", pgstore.Redact(c.Store), mg.To)
			} else {
				fmt.Fprintf(m.Stdout, "%s: schema migrated from version %d to %d\n", pgstore.Redact(c.Store), mg.From, mg.To)
			}
			for _, r := range mg.Granted {
				fmt.Fprintf(m.Stdout, "granted the daemon's privileges to role %s\n", r)
			}
			return nil
		},
	})
	c.Commands()[0].Flags().StringSliceVar(&grant, "grant", nil, "role(s) the daemon connects as, to be granted its privileges")
	return c
}

func (m *Main) exportCmd() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "export GAME [--out DIR]",
		Short: "Write a game's events.jsonl: every record as the file store writes it (a batch's marks left out), from any store",
		Long: `export writes a game's log, from whatever store holds it, exactly as the
file store would keep it, so that verify and players' tools work on it:
to standard output, or with --out DIR as a game directory DIR/GAME that
the file store serves (events.jsonl, and the dice secret, owner-only, of a
game not yet over).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			st, err := wiring.OpenStore(cmd.Context(), c, true)
			if err != nil {
				return err
			}
			defer st.Close()
			game := args[0]
			if err := adjudicator.ValidGameID(game); err != nil {
				return err
			}
			lr, done, err := m.gameLog(cmd.Context(), c, st, game)
			if err != nil {
				return err
			}
			defer done()
			if out == "" {
				return writeLog(m.Stdout, lr)
			}
			return exportDir(st, lr, game, filepath.Join(out, game))
		},
	}
	c.Flags().StringVar(&out, "out", "", "write a game directory under DIR instead of the log to standard output")
	return c
}

// writeLog writes every record as its line.
func writeLog(w io.Writer, lr eventLog) error {
	bw := bufio.NewWriter(w)
	n := 0
	for ev, err := range lr.Events(1) {
		if err != nil {
			return err
		}
		b, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
		n++
	}
	if n == 0 {
		return errors.New("export: the game has no records")
	}
	return bw.Flush()
}

// exportDir writes a game directory: the log, and the dice secret of a
// game that is not over.
func exportDir(st adjudicator.Store, lr eventLog, game, gdir string) error {
	if _, err := os.Stat(gdir); err == nil {
		return fmt.Errorf("export: %s exists; export into a directory where the game is not", gdir)
	}
	if err := os.MkdirAll(gdir, 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(gdir, adjudicator.LogFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := writeLog(f, lr); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	g, err := adjudicator.LoadGame(gdir)
	if err != nil {
		return err
	}
	if g.Ended != nil {
		return nil
	}
	sec, err := st.Secret(game)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(gdir, adjudicator.SecretFile), []byte(hex.EncodeToString(sec)+"\n"), 0o600)
}

func (m *Main) importCmd() *cobra.Command {
	var noSigs bool
	c := &cobra.Command{
		Use:   "import DIR...",
		Short: "Load games kept in files into the PostgreSQL store, each only if it verifies",
		Long: `import loads game directories (or every game under a data directory, or a
finished game's events.jsonl) into the database the store key names. Each game's log is verified first, as
skagerrak verify does (chain, signatures, states, mails, and the dice
against the game's secret); one that does not verify, has no dice secret
while it is still running, or is in the store already is refused and
named. Each game goes in whole, in one transaction, record for record with
the same bytes and hashes. The exit status is 1 if any was refused.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			if c.IsFileStore() {
				return fmt.Errorf("import: the store is %q; import loads games into a database (set store: to a postgres:// URL)", c.Store)
			}
			s, err := pgstore.Open(cmd.Context(), c.Store, wiring.StoreOptions(c))
			if err != nil {
				return err
			}
			defer s.Close()
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
					return fmt.Errorf("import: %s is neither a game directory nor a data directory: %w", a, err)
				}
				dirs = append(dirs, ds...)
			}
			refused := 0
			for _, d := range dirs {
				game, n, err := importGame(cmd.Context(), s, d, !noSigs)
				if err != nil {
					refused++
					fmt.Fprintf(m.Stderr, "refused %s: %v\n", d, err)
					continue
				}
				fmt.Fprintf(m.Stdout, "imported %s from %s: %d records\n", game, d, n)
			}
			if refused > 0 {
				return &exitError{code: 1, err: fmt.Errorf("import: %d of %d games refused", refused, len(dirs))}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&noSigs, "no-signatures", false, "do not check the order signatures again (games whose keys sign nothing, as in tests)")
	return c
}

// importGame verifies a game directory (or a log file) and copies its log
// into the store.
func importGame(ctx context.Context, s *pgstore.Store, path string, sigs bool) (string, int, error) {
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
