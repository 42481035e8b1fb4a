package main

import (
	"github.com/spf13/cobra"

	"skagerrak/internal/gamelog"
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
			return wiring.Migrate(cmd.Context(), m.Stdout, c, grant)
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
			return gamelog.Export(cmd.Context(), m.Stdout, c, args[0], out)
		},
	}
	c.Flags().StringVar(&out, "out", "", "write a game directory under DIR instead of the log to standard output")
	return c
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
			return gamelog.ImportAll(cmd.Context(), m.Stdout, m.Stderr, c, args, !noSigs)
		},
	}
	c.Flags().BoolVar(&noSigs, "no-signatures", false, "do not check the order signatures again (games whose keys sign nothing, as in tests)")
	return c
}
