// Package ruleslist is what skagerrak rules, guide and version print of the
// rulesets: the list of them (List), one ruleset's sides, scenarios,
// options, revisions and every rule section with its status and tests
// (Sections), and its player's guide (Guide).
package ruleslist

import (
	"fmt"
	"io"
	"strings"

	"skagerrak/engine"
)

// List prints each ruleset's name and title, a line each, after indent.
func List(w io.Writer, indent string) {
	for _, r := range engine.Rulesets() {
		fmt.Fprintf(w, "%s%-14s %s\n", indent, r.Name(), r.Title())
	}
}

// Sections prints what the ruleset name holds: its sides, scenarios,
// options and revisions, then every rule section with its status, note
// and tests, and how many sections have each status.
func Sections(w io.Writer, name string) error {
	r, err := engine.Lookup(name)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s (%s)\n", r.Title(), r.Name())
	fmt.Fprintf(w, "sides: %s\n", strings.Join(sideNames(r.Sides()), ", "))
	for _, s := range r.Scenarios() {
		fmt.Fprintf(w, "scenario %-12s %s\n", s.ID, s.Title)
	}
	for _, o := range r.Options() {
		fmt.Fprintf(w, "option   %-12s %s (rule %s)\n", o.ID, o.Title, o.Rule)
	}
	revisions(w, r)
	rl, ok := r.(engine.RuleLister)
	if !ok {
		fmt.Fprintln(w, "(this ruleset does not list its rule sections)")
		return nil
	}
	counts := map[string]int{}
	for _, s := range rl.Rules() {
		counts[s.Status]++
		fmt.Fprintf(w, "%-8s %-22s %s\n", s.Section, s.Status, s.Title)
		if s.Note != "" {
			fmt.Fprintf(w, "         note: %s\n", s.Note)
		}
		if len(s.Tests) > 0 {
			fmt.Fprintf(w, "         tests: %s\n", strings.Join(s.Tests, ", "))
		}
	}
	fmt.Fprintln(w)
	for _, st := range []string{engine.StatusImplemented, engine.StatusPartial, engine.StatusReconstructed, engine.StatusNotApplicable, engine.StatusNotYet} {
		fmt.Fprintf(w, "%-24s %d\n", st+":", counts[st])
	}
	return nil
}

// revisions prints the ruleset's revisions and what each changed.
func revisions(w io.Writer, r engine.Ruleset) {
	for _, rv := range engine.Revisions(r) {
		current := ""
		if rv.N == engine.CurrentRevision(r) {
			current = " (new games)"
		}
		fmt.Fprintf(w, "revision %d%s\n", rv.N, current)
		for _, c := range rv.Changes {
			fmt.Fprintf(w, "         %s\n", c)
		}
	}
}

func sideNames(ss []engine.Side) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(s)
	}
	return out
}

// Guide prints the player's guide of the ruleset name: the text a player
// gets by mailing "help".
func Guide(w io.Writer, name string) error {
	r, err := engine.Lookup(name)
	if err != nil {
		return err
	}
	g, ok := r.(engine.Guider)
	if !ok {
		return fmt.Errorf("ruleset %s has no player's guide yet", r.Name())
	}
	fmt.Fprint(w, g.Guide())
	return nil
}
