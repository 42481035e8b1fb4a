package adjudicator

import (
	"context"
	"fmt"
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
	if len(out.mails) != 1 || len(notes) != 1 || !strings.Contains(notes[0].Text, "could not be delivered") || !strings.Contains(notes[0].Text, "550 no such user") {
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

// A game's Message-IDs carry a token from the dice secret: the same game,
// record, kind and side under another secret give another ID, and none
// can be told from the game, the record and the side alone. Replay
// refuses a bounce of a mail the game never queued, and a second bounce
// of one mail with one action is only moved.
func TestMessageIDsAreUnguessableAndBouncesNameThem(t *testing.T) {
	c := newCrashingGame(t)
	var first MailQueued
	for _, o := range c.g.Outbox {
		if o.Queued.Kind == MailReport && o.Queued.Side == "german" {
			first = o.Queued
		}
	}
	plain := fmt.Sprintf("<g1.%d.report.german@", c.g.Outbox[1].Seq)
	if first.ID == "" || strings.HasPrefix(first.ID, plain) || !strings.HasPrefix(first.ID, "<g1.") || len(first.ID) < len(plain)+16 {
		t.Fatalf("the report's Message-ID %q has no token", first.ID)
	}
	next := c.g.messageID(MailReport, "german")
	c.g.secret[0] ^= 1
	if again := c.g.messageID(MailReport, "german"); again == next {
		t.Fatalf("two secrets give one Message-ID %s", next)
	}
	c.g.secret[0] ^= 1
	forged := MailBounced{ID: "<g1.2.report.german@skagerrak.invalid>", Side: "german", Action: "failed"}
	ev, _ := c.log.Append(EvMailBounced, c.clock.Now(), forged)
	if err := c.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "which the game did not queue for german") {
		t.Fatalf("replay of a bounce of mail never queued: %v", err)
	}
	real := MailBounced{ID: first.ID, Side: "german", Action: "failed"}
	ev, _ = c.log.Append(EvMailBounced, c.clock.Now(), real)
	if err := c.g.Apply(ev); err != nil {
		t.Fatalf("replay of a bounce of a queued mail: %v", err)
	}
	real.Recipient = "alias@example.org"
	if !c.g.bouncedOnce(real) {
		t.Error("a second report of the same failure, naming another recipient, counts again")
	}
}
