package adjudicator

import (
	"context"
	"strings"
	"testing"
)

// A game whose log holds failed mail of both sides that no referee was
// told of (written by a build before the telling, or cut short by a
// crash): the next tick tells the referee in one mail listing both, with
// the address command for each side, and nothing more after; a replay of
// the log concludes the same (both told, both standing).
func TestUntoldFailuresOfSeveralSidesToldInOneMail(t *testing.T) {
	h, _, dir := newHost(t)
	if _, err := h.Create(raceSpec("u2")); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	hg := h.games["u2"]
	var ids []string
	for _, o := range hg.g.Outbox {
		if o.Queued.Side == "german" || o.Queued.Side == "allied" {
			ids = append(ids, o.Queued.ID)
		}
	}
	if len(ids) != 2 {
		h.mu.Unlock()
		t.Fatalf("the first reports: %v", ids)
	}
	if err := h.act(hg, func(emit Emit) error {
		for _, id := range ids {
			if err := emit(EvMailFailed, MailFailed{ID: id, Error: "550 5.1.1 no such user"}); err != nil {
				return err
			}
		}
		return nil
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
	if g, _ := h.Game("u2"); len(g.Undelivered) != 2 || g.Undelivered[0].Told || g.Undelivered[1].Told {
		t.Fatalf("undelivered after reopening: %+v", g.Undelivered)
	}
	out := &refusing{addr: "nobody@example.org"}
	for range 2 {
		if _, err := h.Tick(); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Flush(context.Background(), out); err != nil {
			t.Fatal(err)
		}
	}
	told := out.to("ref@example.org")
	if len(told) != 1 {
		t.Fatalf("the referee got %d mails, want one: %+v", len(told), told)
	}
	m := told[0]
	for _, want := range []string{"2 mails of game u2 could not be delivered", "Side:     allied", "Side:     german", "Address:  a@example.org", "Address:  g@example.org",
		"skagerrak referee u2 address allied ADDRESS", "skagerrak referee u2 address german ADDRESS"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the referee's mail lacks %q:\n%s", want, m.Text)
		}
	}
	if m.Subject != "[skagerrak] u2: 2 mails undelivered (allied, german)" {
		t.Errorf("subject %q", m.Subject)
	}
	g, _ := h.Game("u2")
	r, err := LoadGame(dir + "/u2")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range append(g.Undelivered, r.Undelivered...) {
		if !u.Told {
			t.Errorf("not told after the mail: %+v", u)
		}
	}
	if len(g.Undelivered) != 2 || len(r.Undelivered) != 2 {
		t.Errorf("standing: the host %d, a replay %d; want both", len(g.Undelivered), len(r.Undelivered))
	}
}
