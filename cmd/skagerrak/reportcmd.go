package main

import (
	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/internal/gamelog"
)

func (m *Main) reportCmd() *cobra.Command {
	var side, phase, mapFile string
	var asJSON bool
	c := &cobra.Command{
		Use:   "report GAME --side SIDE [--phase PHASE]",
		Short: "Print a side's report exactly as that side got it (the latest, or of a phase)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lr, done, err := m.storedLog(cmd, args[0])
			if err != nil {
				return err
			}
			defer done()
			r, err := gamelog.SideReport(lr, args[0], side, phase)
			if err != nil {
				return err
			}
			return gamelog.PrintReport(m.Stdout, m.Stderr, r, asJSON, mapFile)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the report's JSON copy (report.json) instead of its text; after the end, the final report's (schema "+adjudicator.FinalSchema+")")
	c.Flags().StringVar(&mapFile, "map", "", "also write the report's map picture (map.png) to this file")
	c.Flags().StringVar(&side, "side", "", "the side whose report to print")
	c.Flags().StringVar(&phase, "phase", "", "the phase the report resolved (default: the latest report)")
	c.MarkFlagRequired("side")
	return c
}
