package adjudicator

import (
	"context"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
)

// TestOrderFormRoundTrip takes the order form out of each side's first
// report, sends it back unchanged, and expects it accepted as the orders it
// shows, for every ruleset.
func TestOrderFormRoundTrip(t *testing.T) {
	for _, name := range rulesetNames() {
		t.Run(name, func(t *testing.T) {
			h, _, _ := newHost(t)
			rs, _ := engine.Lookup(name)
			spec := Spec{Game: "form", Ruleset: name, Timing: Timing{Deadline: Duration(48 * time.Hour)}}
			for i, s := range rs.Sides() {
				spec.Players = append(spec.Players, Player{Side: s, Address: string(s) + "@example.org", Key: "k", Fingerprint: "FP" + string(rune('A'+i))})
			}
			if _, err := h.Create(spec); err != nil {
				t.Fatal(err)
			}
			ob := &outbox{}
			if _, err := h.Flush(context.Background(), ob); err != nil {
				t.Fatal(err)
			}
			g, _ := h.Game("form")
			for _, s := range g.Opened.Owes {
				var form string
				for _, m := range ob.to(string(s) + "@example.org") {
					if i := strings.Index(m.Text, "send back to this address):\n\n"); i >= 0 {
						form = m.Text[i+len("send back to this address):\n\n"):]
					}
				}
				if form == "" {
					t.Fatalf("%s's report has no order form", s)
				}
				r := submit(t, h, "form", s, form)
				if r.Status != StatusAccepted {
					t.Fatalf("%s's own order form was %s: %s %v\n%s", s, r.Status, r.Reason, r.Errors, form)
				}
			}
		})
	}
}
