package main

import (
	"fmt"
	"os"

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
			if mapFile != "" {
				if err := r.Complete(); err != nil {
					return err
				}
			}
			for _, a := range r.Attachments {
				if a.Name == "report.json" && asJSON {
					_, err := m.Stdout.Write(a.Data)
					return err
				}
				if a.Name == "map.png" && mapFile != "" {
					if err := os.WriteFile(mapFile, a.Data, 0o644); err != nil {
						return err
					}
					fmt.Fprintf(m.Stderr, "map written to %s\n", mapFile)
				}
			}
			if asJSON {
				return fmt.Errorf("this report has no JSON copy (a report rendered by this build always has one)")
			}
			fmt.Fprintf(m.Stdout, "Message-ID: %s\nTo: %s\nSubject: %s\n\n%s", r.ID, r.To, r.Subject, r.Text)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the report's JSON copy (report.json) instead of its text; after the end, the final report's (schema "+adjudicator.FinalSchema+")")
	c.Flags().StringVar(&mapFile, "map", "", "also write the report's map picture (map.png) to this file")
	c.Flags().StringVar(&side, "side", "", "the side whose report to print")
	c.Flags().StringVar(&phase, "phase", "", "the phase the report resolved (default: the latest report)")
	c.MarkFlagRequired("side")
	return c
}
