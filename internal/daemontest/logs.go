package daemontest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"skagerrak/adjudicator"
	"skagerrak/internal/wiring"
)

// ExportLogs writes the log of each of a host's games (in the order of
// Games) to a file of its own, as export does, and returns their paths.
func ExportLogs(t *testing.T, h *adjudicator.Host) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, id := range h.Games() {
		l, err := h.Store().Open(id)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, id+".jsonl")
		var b bytes.Buffer
		for ev, err := range l.Events(1) {
			line, merr := json.Marshal(ev)
			if err = cmp.Or(err, merr); err != nil {
				t.Fatal(err)
			}
			b.Write(append(line, '\n'))
		}
		l.Close()
		if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// Tally is what a set of game logs recorded: the outcomes of each
// message (by its key), the mails queued and how often each was marked
// sent.
type Tally struct {
	Outcomes map[string]int
	Queued   map[string]bool
	Sent     map[string]int
}

// TallyLogs reads the logs at paths, each of which must verify.
func TallyLogs(t *testing.T, paths []string) Tally {
	t.Helper()
	tl := Tally{Outcomes: map[string]int{}, Queued: map[string]bool{}, Sent: map[string]int{}}
	for _, path := range paths {
		for ev, err := range (adjudicator.LogReader{Path: path}).Events(1) {
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				Key string `json:"key"`
				ID  string `json:"id"`
			}
			json.Unmarshal(ev.Data, &d)
			switch ev.Type {
			case adjudicator.EvOrdersAccepted, adjudicator.EvOrdersRejected:
				tl.Outcomes[d.Key]++
			case adjudicator.EvMailQueued:
				tl.Queued[d.ID] = true
			case adjudicator.EvMailSent:
				tl.Sent[d.ID]++
			}
		}
		if _, err := adjudicator.VerifyPath(path, wiring.Verifier{}); err != nil {
			t.Errorf("%s does not verify: %v", path, err)
		}
	}
	return tl
}

// Once checks that messages distinct messages have one outcome each and
// that each queued mail was marked sent once.
func (tl Tally) Once(t *testing.T, messages int) {
	t.Helper()
	if len(tl.Outcomes) != messages {
		t.Errorf("%d messages recorded, want %d", len(tl.Outcomes), messages)
	}
	for k, n := range tl.Outcomes {
		if n != 1 {
			t.Errorf("message %s recorded %d times", k, n)
		}
	}
	for id := range tl.Queued {
		if tl.Sent[id] != 1 {
			t.Errorf("mail %s marked sent %d times", id, tl.Sent[id])
		}
	}
}
