package adjudicator

import (
	"context"
	"strings"
	"testing"
)

// A bounce of a side's report is recorded once, sent on to the referee,
// kept by replay; a bounce of the referee's own mail is recorded and not
// sent on (it would bounce again); an unknown Message-ID is only moved.
func TestBounceRecordedAndForwarded(t *testing.T) {
	h, _, dir := newHost(t)
	if _, err := h.Create(raceSpec("b1")); err != nil {
		t.Fatal(err)
	}
	var out outbox
	if _, err := h.Flush(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	reports := out.to("g@example.org")
	if len(reports) != 1 {
		t.Fatalf("%d reports to german", len(reports))
	}
	b := Automatic{Auto: true, Why: "a multipart/report", Bounce: &Bounce{MessageIDs: []string{reports[0].ID},
		Recipient: "g@example.org", Action: "failed", Status: "5.1.1", Diagnostic: "550 no such user"}}
	h.mu.Lock()
	r, err := h.automatic(b)
	again, err2 := h.automatic(b)
	h.mu.Unlock()
	if err != nil || err2 != nil || r.Status != StatusBounce || r.Game != "b1" || again.Status != StatusDuplicate {
		t.Fatalf("bounce: %+v %v; again %+v %v", r, err, again, err2)
	}
	out.mails = nil
	if _, err := h.Flush(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	notes := out.to("ref@example.org")
	if len(out.mails) != 1 || len(notes) != 1 || !strings.Contains(notes[0].Text, "did not arrive") || !strings.Contains(notes[0].Text, "550 no such user") {
		t.Fatalf("mails after the bounce: %+v", out.mails)
	}
	// A bounce of that notice to the referee: recorded, not sent on.
	h.mu.Lock()
	r, err = h.automatic(Automatic{Auto: true, Bounce: &Bounce{MessageIDs: []string{notes[0].ID}, Action: "failed"}})
	unknown, _ := h.automatic(Automatic{Auto: true, Why: "x", Bounce: &Bounce{MessageIDs: []string{"<elsewhere@example.org>"}}})
	h.mu.Unlock()
	if err != nil || r.Status != StatusBounce || unknown.Status != StatusRejected {
		t.Fatalf("bounce of the referee's notice: %+v %v; unknown %+v", r, err, unknown)
	}
	out.mails = nil
	h.Flush(context.Background(), &out)
	if len(out.mails) != 0 {
		t.Fatalf("a bounce of the referee's mail was sent on: %+v", out.mails)
	}
	h.Close()
	g, err := LoadGame(dir + "/b1")
	if err != nil || len(g.Bounced) != 2 || g.Bounced[0].Side != "german" || g.Bounced[1].Side != Referee {
		t.Fatalf("replayed bounces %+v, %v", g.Bounced, err)
	}
}
