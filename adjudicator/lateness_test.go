package adjudicator

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The time the host's server received orders is recorded with them, so
// that replay judges lateness as the pass did, years later: a log that
// says orders received after the deadline were accepted does not replay;
// the same record received a second before the deadline does, as does
// one without the time (logs written before it was recorded).
func TestReplayJudgesTheRecordedReceiptTime(t *testing.T) {
	for _, c := range []struct {
		name     string
		received time.Duration // after the deadline
		record   bool
		late     bool
	}{{"before", -time.Second, true, false}, {"unrecorded", time.Minute, false, false}, {"at", 0, true, true}, {"after", time.Minute, true, true}} {
		t.Run(c.name, func(t *testing.T) {
			h, clk, dir := newHost(t)
			g, err := h.Create(raceSpec("late"))
			if err != nil {
				t.Fatal(err)
			}
			a := OrdersAccepted{Phase: "T01", Side: "allied", Text: orders("late", "T01", "allied", "advance 2"), Source: "file", Fingerprint: "FPA", Key: "k-allied-late"}
			if c.record {
				a.Received = g.Opened.Deadline.Add(c.received)
			}
			if _, err := h.games["late"].log.Append(EvOrdersAccepted, clk.Now(), a); err != nil {
				t.Fatal(err)
			}
			h.Close()
			_, err = Replay(LogReader{Path: filepath.Join(dir, "late", LogFile)}, false)
			if c.late && (err == nil || !strings.Contains(err.Error(), "after the phase's deadline")) {
				t.Fatalf("orders received %s after the deadline replayed: %v", c.received, err)
			}
			if !c.late && err != nil {
				t.Fatalf("orders received in time do not replay: %v", err)
			}
		})
	}
}
