package gamelog

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"skagerrak/adjudicator"
	"skagerrak/engine"
)

// SideReport is the report of game's side that resolved phase, as that
// side got it, or its latest for phase "". A side or phase that is not
// there is an error naming those that are.
func SideReport(lr Reader, game, side, phase string) (adjudicator.Mail, error) {
	s := engine.Side(strings.ToLower(side))
	sides := map[string]bool{}
	var phases []string // of the side's reports, in order
	ms, err := adjudicator.Mails(lr, func(q adjudicator.MailQueued) bool {
		if q.Kind != adjudicator.MailReport && q.Kind != adjudicator.MailFinal {
			return false
		}
		sides[string(q.Side)] = true
		if q.Side != s {
			return false
		}
		if q.Phase != "" && !slices.Contains(phases, q.Phase) {
			phases = append(phases, q.Phase)
		}
		return phase == "" || strings.EqualFold(q.Phase, phase)
	})
	if err != nil {
		return adjudicator.Mail{}, err
	}
	if !sides[string(s)] {
		return adjudicator.Mail{}, fmt.Errorf("game %s has no side %q; its sides: %s", game, side, strings.Join(slices.Sorted(maps.Keys(sides)), ", "))
	}
	if len(ms) == 0 {
		return adjudicator.Mail{}, fmt.Errorf("game %s has no report of %s's for phase %q; %s", game, s, phase, reportPhases(phases))
	}
	return ms[len(ms)-1], nil
}

// reportPhases says of which phases a side has reports (--phase takes
// one of them).
func reportPhases(phases []string) string {
	if len(phases) == 0 {
		return "it has only its first report so far (give no --phase)"
	}
	return "its reports resolved the phases " + strings.Join(phases, ", ") + " (--phase takes one of them; none gives the latest)"
}

// PrintReport prints a side's report r as the side got it: its headers
// and text, or asJSON its JSON copy; with mapFile, its map picture is
// written there too (and said so to notes).
func PrintReport(w, notes io.Writer, r adjudicator.Mail, asJSON bool, mapFile string) error {
	if mapFile != "" {
		if err := r.Complete(); err != nil {
			return err
		}
	}
	for _, a := range r.Attachments {
		if a.Name == "report.json" && asJSON {
			_, err := w.Write(a.Data)
			return err
		}
		if a.Name == "map.png" && mapFile != "" {
			if err := os.WriteFile(mapFile, a.Data, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(notes, "map written to %s\n", mapFile)
		}
	}
	if asJSON {
		return fmt.Errorf("this report has no JSON copy (a report rendered by this build always has one)")
	}
	fmt.Fprintf(w, "Message-ID: %s\nTo: %s\nSubject: %s\n\n%s", r.ID, r.To, r.Subject, r.Text)
	return nil
}
