package main

import (
	"github.com/spf13/cobra"

	"skagerrak/internal/buildinfo"
	"skagerrak/internal/demo"
)

func (m *Main) demoCmd() *cobra.Command {
	var dir, ruleset string
	var maxPasses int
	c := &cobra.Command{
		Use:   "demo [--dir DIR]",
		Short: "Play a whole game by real mail, in-process, and verify it",
		Long: `demo is skagerrak's main job on an embedded default. It starts an IMAP and
an SMTP server in-process on loopback, makes OpenPGP keys for the host and
for two scripted players, creates a game (The Kriegsmarine Strikes unless
--ruleset says otherwise) and plays it to the end by mail: each player reads
its signed report from the SMTP side, decides its orders from its own View
only (the JSON copy attached to the report), signs them and mails them into
the IMAP mailbox; the daemon loop does the rest. At the end it prints a
summary and verifies the game's log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o := demo.Options{Out: m.Stdout, Dir: dir, Ruleset: ruleset, MaxPasses: maxPasses, Software: buildinfo.Software()}
			if m.verbose {
				o.Logger = m.logger()
			}
			return demo.Run(cmd.Context(), o)
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "directory for the game, keys and mail (default: a new temporary directory, kept)")
	c.Flags().StringVar(&ruleset, "ruleset", "kriegsmarine", "ruleset to play")
	c.Flags().IntVar(&maxPasses, "max-passes", 2000, "give up after this many mailbox passes")
	return c
}
