package gamelog

import (
	"encoding/json"
	"strings"
	"testing"

	"skagerrak/adjudicator"
	"skagerrak/events"
)

// A record's line names the fields of its type, in their order, cuts a
// value longer than 60 characters to 57 and "...", and keeps a newline
// on the line as \n.
func TestSummaryNamesTheFieldsOfItsType(t *testing.T) {
	reason := strings.Repeat("r", 70)
	data, _ := json.Marshal(map[string]any{"phase": "T01", "side": "german", "reason": reason, "fingerprint": "", "other": "x"})
	got := Summary(events.Event{Type: adjudicator.EvOrdersRejected, Data: data})
	want := "phase=T01 side=german reason=" + strings.Repeat("r", 57) + "..."
	if got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	data, _ = json.Marshal(map[string]any{"phase": "T02", "why": "a\nb", "rolls": []int{1, 2, 3}})
	if got, want := Summary(events.Event{Type: adjudicator.EvPhaseResolved, Data: data}), `phase=T02 why=a\nb rolls=3`; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}
