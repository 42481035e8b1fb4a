package daemon

import (
	"testing"

	"skagerrak/adjudicator"
)

// A pass with no message, no mail sent, no bounce and no failure is idle:
// poll --once prints nothing for it (cron mails whatever a job prints).
func TestIdlePassPrintsNothing(t *testing.T) {
	if !Idle(adjudicator.Pass{}) {
		t.Error("an empty pass is not idle")
	}
	for _, p := range []adjudicator.Pass{{Messages: 1}, {Sent: 1}, {Failures: 1}, {Bounces: 1}} {
		if Idle(p) {
			t.Errorf("pass %+v is idle", p)
		}
	}
}
