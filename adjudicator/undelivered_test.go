package adjudicator

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// refusing refuses, for good, every mail to one address.
type refusing struct {
	outbox
	addr string
}

func (r *refusing) Send(ctx context.Context, m Mail) error {
	if m.To == r.addr {
		return fmt.Errorf("550 5.1.1 no such user: %w", ErrPermanent)
	}
	return r.outbox.Send(ctx, m)
}

// A refused mail is recorded as undelivered. If the host stops between the
// MailFailed record and the referee's mail, the next tick tells the
// referee, once; a snapshot and a replay agree on what stands; the
// referee's address command sends it again under a new Message-ID with
// the first mail's text, and its delivery clears it.
func TestUndeliveredSurvivesACrashAndGoesAgain(t *testing.T) {
	h, _, dir := newHost(t)
	if _, err := h.Create(raceSpec("u1")); err != nil {
		t.Fatal(err)
	}
	// Only MailFailed is recorded, as if the host stopped right after it.
	h.mu.Lock()
	hg := h.games["u1"]
	var report *Outgoing
	for _, o := range hg.g.Outbox {
		if o.Queued.Side == "german" {
			report = o
		}
	}
	if err := h.act(hg, func(emit Emit) error {
		return emit(EvMailFailed, MailFailed{ID: report.Queued.ID, Error: "550 5.1.1 no such user"})
	}); err != nil {
		t.Fatal(err)
	}
	h.mu.Unlock()
	h.Close()

	h, err := OpenHost(dir, Options{Clock: h.clock})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g, _ := h.Game("u1")
	if len(g.Undelivered) != 1 || g.Undelivered[0].Told || g.Undelivered[0].Phase != "T01" || g.Undelivered[0].Side != "german" {
		t.Fatalf("undelivered after reopening: %+v", g.Undelivered)
	}
	for range 2 {
		if _, err := h.Tick(); err != nil {
			t.Fatal(err)
		}
	}
	out := &refusing{addr: "g@example.org"}
	if _, err := h.Flush(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	told := out.to("ref@example.org")
	if len(told) != 1 || !strings.Contains(told[0].Text, "Side:     german") || !strings.Contains(told[0].Text, "Phase:    T01") {
		t.Fatalf("the referee got %d mails: %+v", len(told), told)
	}
	snap, ok, err := g.MarshalSnapshot()
	if err != nil || !ok {
		t.Fatalf("snapshot: %v %v", ok, err)
	}
	if s := readSnapshot(snap); s == nil || fmt.Sprint(s.Undelivered) != fmt.Sprint(g.Undelivered) {
		t.Fatalf("the snapshot keeps %+v, the game %+v", s, g.Undelivered)
	}

	if err := h.Referee("u1", Command{Name: "address", Args: []string{"german", "g2@example.org"}, Why: "moved"}); err != nil {
		t.Fatal(err)
	}
	out.mails = nil
	if _, err := h.Flush(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	again := out.to("g2@example.org")
	if len(again) != 2 || again[1].ID == report.Queued.ID || !strings.Contains(again[1].Text, "sent again") || !strings.Contains(again[1].Text, report.Mail.Text) {
		t.Fatalf("mails to the new address: %+v", again)
	}
	if g, _ := h.Game("u1"); len(g.Undelivered) != 0 {
		t.Fatalf("still undelivered: %+v", g.Undelivered)
	}
	r, err := LoadGame(dir + "/u1")
	if err != nil || len(r.Undelivered) != 0 || len(r.Failed) != 1 {
		t.Fatalf("replayed: %v %+v", err, r)
	}
}

// A bounce says the mail will not arrive when its action is failed, its
// status permanent, or its status says delivery time expired (RFC 3463
// X.4.7: OpenSMTPD reports its expired envelopes as "delayed", 4.4.7); a
// delay with any other status is for now.
func TestBounceGaveUp(t *testing.T) {
	for _, c := range []struct {
		action, status string
		want           bool
	}{
		{"failed", "5.1.1", true}, {"failed", "", true}, {"delayed", "4.4.7", true}, {"delayed", "5.0.0", true},
		{"delayed", "4.4.1", false}, {"delayed", "", false},
	} {
		if got := (MailBounced{Action: c.action, Status: c.status}).GaveUp(); got != c.want {
			t.Errorf("%s %s: gave up %v, want %v", c.action, c.status, got, c.want)
		}
	}
}

// After the end a final report refused for good still goes again: the
// referee's address command is taken after the end, for that.
func TestUndeliveredFinalReportGoesAgainAfterTheEnd(t *testing.T) {
	h, _, _ := newHost(t)
	if _, err := h.Create(raceSpec("u2")); err != nil {
		t.Fatal(err)
	}
	out := &refusing{addr: "g@example.org"}
	if err := h.Referee("u2", Command{Name: "end", Why: "time is up", By: "referee"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Tick(); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Flush(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game("u2")
	if g.Ended == nil || len(g.Undelivered) != 2 {
		t.Fatalf("ended %v, undelivered %+v", g.Ended, g.Undelivered)
	}
	if n := len(out.to("ref@example.org")); n != 1 { // one for german's address, though two of its mails failed
		t.Fatalf("the referee got %d mails", n)
	}
	if err := h.Referee("u2", Command{Name: "pause", Why: "x"}); err == nil {
		t.Fatalf("a pause after the end was taken")
	}
	if err := h.Referee("u2", Command{Name: "address", Args: []string{"german", "g2@example.org"}, Why: "moved"}); err != nil {
		t.Fatal(err)
	}
	out.mails = nil
	if _, err := h.Flush(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	var final bool
	for _, m := range out.to("g2@example.org") {
		final = final || strings.Contains(m.Subject, "final report")
	}
	if !final || len(g.Undelivered) != 0 {
		t.Fatalf("after the address: final report again %v, undelivered %+v", final, g.Undelivered)
	}
}
