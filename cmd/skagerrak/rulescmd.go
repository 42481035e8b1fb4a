package main

import (
	"github.com/spf13/cobra"

	"skagerrak/internal/ruleslist"
)

func (m *Main) rulesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rules [GAME]",
		Short: "List a ruleset's rule sections with their status and tests (or the rulesets)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				ruleslist.List(m.Stdout, "")
				return nil
			}
			return ruleslist.Sections(m.Stdout, args[0])
		},
	}
}
