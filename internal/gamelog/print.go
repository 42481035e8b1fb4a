package gamelog

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"skagerrak/adjudicator"
	"skagerrak/events"
)

// Print writes every record to w, a line each: its seq, time, type and
// Summary, or asJSON the record as it is stored.
func Print(w io.Writer, lr Reader, asJSON bool) error {
	for ev, err := range lr.Events(1) {
		if err != nil {
			return err
		}
		if asJSON {
			b, err := json.Marshal(ev)
			if err != nil {
				return err
			}
			fmt.Fprintln(w, string(b))
			continue
		}
		fmt.Fprintf(w, "%5d  %s  %-16s %s\n", ev.Seq, ev.Time.UTC().Format("2006-01-02 15:04:05"), ev.Type, Summary(ev))
	}
	return nil
}

// Summary is one readable line of a record's data.
func Summary(ev events.Event) string {
	var d map[string]any
	if json.Unmarshal(ev.Data, &d) != nil {
		return string(ev.Data)
	}
	var parts []string
	add := func(k string) {
		if v, ok := d[k]; ok && v != nil && v != "" {
			s := fmt.Sprint(v)
			if len(s) > 60 {
				s = s[:57] + "..."
			}
			parts = append(parts, k+"="+strings.ReplaceAll(s, "\n", "\\n"))
		}
	}
	switch ev.Type {
	case adjudicator.EvOrdersAccepted, adjudicator.EvOrdersRejected:
		for _, k := range []string{"phase", "side", "source", "reason", "fingerprint"} {
			add(k)
		}
	case adjudicator.EvPhaseResolved:
		add("phase")
		add("why")
		add("defaulted")
		if r, ok := d["rolls"].([]any); ok {
			parts = append(parts, fmt.Sprintf("rolls=%d", len(r)))
		}
	case adjudicator.EvPlayerCommand, adjudicator.EvPlayerMail:
		for _, k := range []string{"side", "line", "address", "refused", "unanswered", "source"} {
			add(k)
		}
	case adjudicator.EvGameCreated:
		for _, k := range []string{"game", "ruleset", "dice"} {
			add(k)
		}
	default:
		for _, k := range []string{"phase", "kind", "side", "to", "id", "deadline", "by", "why", "values", "owes"} {
			add(k)
		}
	}
	return strings.Join(parts, " ")
}
