package main

import (
	"strings"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator/replaypage"
	"skagerrak/engine"
)

func (m *Main) replayCmd() *cobra.Command {
	var out, side string
	c := &cobra.Command{
		Use:   "replay GAME --html FILE [--side SIDE]",
		Short: "Write a finished game's replay as one HTML file that checks the log in the browser, offline",
		Long: `replay writes one self-contained HTML file (no request leaves it: its maps,
script and log are inside) that steps through every phase of a finished
game with the arrow keys, a slider or the phase list: each side's orders,
every die roll with the rule it was rolled for, each side's report and map
as that side saw it, and the result. The page checks the embedded log
itself: the hash chain, the dice commitment and every roll.

With --side, the file is that side's history so far, from its mails alone
(its reports and the replies that accepted its orders): nothing it could
not see, and no log. GAME is a game of the store, a game directory or its
events.jsonl.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lr, done, err := m.logOf(cmd, args[0])
			if err != nil {
				return err
			}
			defer done()
			return replaypage.WriteFile(m.Stdout, lr, engine.Side(strings.ToLower(side)), out)
		},
	}
	c.Flags().StringVar(&out, "html", "", "the HTML file to write")
	c.Flags().StringVar(&side, "side", "", "write this side's history so far, from its mails alone")
	c.MarkFlagRequired("html")
	return c
}
