package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"skagerrak/engine"
)

func (m *Main) rulesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rules [GAME]",
		Short: "List a ruleset's rule sections with their status and tests (or the rulesets)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				for _, r := range engine.Rulesets() {
					fmt.Fprintf(m.Stdout, "%-14s %s\n", r.Name(), r.Title())
				}
				return nil
			}
			r, err := engine.Lookup(args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "%s (%s)\n", r.Title(), r.Name())
			fmt.Fprintf(m.Stdout, "sides: %s\n", strings.Join(sideNames(r.Sides()), ", "))
			for _, s := range r.Scenarios() {
				fmt.Fprintf(m.Stdout, "scenario %-12s %s\n", s.ID, s.Title)
			}
			for _, o := range r.Options() {
				fmt.Fprintf(m.Stdout, "option   %-12s %s (rule %s)\n", o.ID, o.Title, o.Rule)
			}
			for _, rv := range engine.Revisions(r) {
				current := ""
				if rv.N == engine.CurrentRevision(r) {
					current = " (new games)"
				}
				fmt.Fprintf(m.Stdout, "revision %d%s\n", rv.N, current)
				for _, c := range rv.Changes {
					fmt.Fprintf(m.Stdout, "         %s\n", c)
				}
			}
			rl, ok := r.(engine.RuleLister)
			if !ok {
				fmt.Fprintln(m.Stdout, "(this ruleset does not list its rule sections)")
				return nil
			}
			counts := map[string]int{}
			for _, s := range rl.Rules() {
				counts[s.Status]++
				fmt.Fprintf(m.Stdout, "%-8s %-22s %s\n", s.Section, s.Status, s.Title)
				if s.Note != "" {
					fmt.Fprintf(m.Stdout, "         note: %s\n", s.Note)
				}
				if len(s.Tests) > 0 {
					fmt.Fprintf(m.Stdout, "         tests: %s\n", strings.Join(s.Tests, ", "))
				}
			}
			fmt.Fprintln(m.Stdout)
			for _, st := range []string{engine.StatusImplemented, engine.StatusPartial, engine.StatusReconstructed, engine.StatusNotApplicable, engine.StatusNotYet} {
				fmt.Fprintf(m.Stdout, "%-24s %d\n", st+":", counts[st])
			}
			return nil
		},
	}
}

func sideNames(ss []engine.Side) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(s)
	}
	return out
}
