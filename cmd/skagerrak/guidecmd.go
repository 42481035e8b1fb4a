package main

import (
	"github.com/spf13/cobra"

	"skagerrak/internal/ruleslist"
)

func (m *Main) guideCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "guide RULESET",
		Short: "Print a ruleset's player's guide: the report, the map, every order with an example, missing orders",
		Long: `guide prints the player's guide of a ruleset, the text a player gets by
mailing "help": how to read the report and the map, every order with its
syntax, the rule it carries out and an example, and what happens to a side
that sends no orders. Without RULESET it lists the rulesets.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				ruleslist.List(m.Stdout, "")
				return nil
			}
			return ruleslist.Guide(m.Stdout, args[0])
		},
	}
}
