package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/events"
)

func (m *Main) verifyCmd() *cobra.Command {
	var noSigs bool
	c := &cobra.Command{
		Use:   "verify PATH",
		Short: "Replay a game's log from nothing and check every record, signature, result and roll",
		Long: `verify replays a game's event log from nothing. PATH is a game directory or
its events.jsonl. It checks the hash chain, every order signature against the
stored signed bytes at the recorded receipt time, every validation, every
recorded state and mail digest, and, once the dice secret is known (published
at the game's end, or in the game directory), every die roll.

Exit status 0 when everything holds; otherwise 1, naming the first bad seq.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var v adjudicator.Verifier = pgpVerifier{}
			if noSigs {
				v = nil
			}
			rep, err := adjudicator.VerifyPath(args[0], v)
			if err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "%s: intact\n", rep.Path)
			fmt.Fprintf(m.Stdout, "  game %s: %d events, %d phases resolved, %d signatures checked\n", rep.Game, rep.Events, rep.Phases, rep.Signatures)
			fmt.Fprintf(m.Stdout, "  played under %s rules revision %d\n", rep.Ruleset, rep.Revision)
			if rep.Unrendered > 0 {
				fmt.Fprintf(m.Stdout, "  %d mails were rendered by an earlier build (render revision %d here): their text was not compared, what the game decided was\n", rep.Unrendered, adjudicator.RenderRevision)
			}
			if rep.Software != "" {
				fmt.Fprintf(m.Stdout, "  created by skagerrak %s; verified by %s\n", rep.Software, software())
			}
			if rep.RollsChecked {
				fmt.Fprintf(m.Stdout, "  %d dice rolls checked against the game's committed dice secret\n", rep.Rolls)
			} else {
				fmt.Fprintln(m.Stdout, "  dice rolls not checked: the secret is published when the game ends (or verify the game directory)")
			}
			if rep.Ended {
				fmt.Fprintln(m.Stdout, "  the game is over")
			}
			if rep.TornTail {
				fmt.Fprintln(m.Stdout, "  note: the file ends in an incomplete record, which the next writer cuts off")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&noSigs, "no-signatures", false, "skip checking the order signatures again")
	return c
}

func (m *Main) logCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "log PATH",
		Short: "Print a game's events (PATH: a game directory or its events.jsonl)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := args[0]
			if st, err := os.Stat(p); err != nil {
				return err
			} else if st.IsDir() {
				p = filepath.Join(p, adjudicator.LogFile)
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			for ev, err := range events.NewReader(f, p).All() {
				if err != nil {
					return err
				}
				if asJSON {
					b, err := json.Marshal(ev)
					if err != nil {
						return err
					}
					fmt.Fprintln(m.Stdout, string(b))
					continue
				}
				fmt.Fprintf(m.Stdout, "%5d  %s  %-16s %s\n", ev.Seq, ev.Time.UTC().Format("2006-01-02 15:04:05"), ev.Type, summarize(ev))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the records as they are stored")
	return c
}

// summarize writes one readable line of an event's data.
func summarize(ev events.Event) string {
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
