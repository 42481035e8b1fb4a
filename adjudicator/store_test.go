package adjudicator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/events"
)

// A game made by another process (skagerrak new) while a daemon's host has
// the file store open is taken up on the host's next pass and its first
// reports sent; until its maker lets go of its log the host waits for it,
// and a directory that is no game is left alone. The game is renamed into
// place whole: no pass sees it half made.
func TestGameMadeBesideARunningHostIsTakenUp(t *testing.T) {
	daemon, clk, dir := newHost(t)
	if _, err := daemon.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	out := &outbox{}
	pass := func() Pass {
		t.Helper()
		p, err := daemon.PollOnce(context.Background(), emptyInbox{}, out)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := pass(); p.Sent != 2 || p.Failures != 0 {
		t.Fatalf("first pass: %+v", p)
	}
	// skagerrak new: a second host opening none of the games.
	maker, err := OpenHost(dir, Options{Clock: clk, Select: func(string) bool { return false }})
	if err != nil {
		t.Fatalf("a host opening no game beside the daemon: %v", err)
	}
	st := maker.Store().(*FileStore)
	l, done, err := st.Create("g2", make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	// Half made: nothing of it is a game yet.
	if ids, _ := st.Games(); len(ids) != 1 {
		t.Fatalf("games while g2 is being made: %v", ids)
	}
	if p := pass(); p.Sent != 0 || p.Failures != 0 {
		t.Fatalf("pass while g2 is being made: %+v", p)
	}
	g := NewGame(TemplateRenderer{}, false)
	if err := g.Start(raceSpec("g2"), make([]byte, 32), clk.Now(), func(typ string, data any) error {
		ev, err := l.Append(typ, clk.Now(), data)
		if err == nil {
			err = g.Apply(ev)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := done(true); err != nil {
		t.Fatal(err)
	}
	if got := l.(*events.FileLog).Path(); got != filepath.Join(dir, "g2", LogFile) {
		t.Fatalf("the made game's log names %s", got)
	}
	// In place, but its maker still holds its log: the next pass waits.
	if p := pass(); p.Sent != 0 || p.Failures != 0 {
		t.Fatalf("pass while g2's maker holds it: %+v", p)
	}
	l.Close()
	maker.Close()
	// A directory that is no game (a backup, a mistake) changes nothing.
	os.Mkdir(filepath.Join(dir, "notes"), 0o700)
	os.WriteFile(filepath.Join(dir, "notes", LogFile), []byte("not a log\n"), 0o600)
	if p := pass(); p.Sent != 2 || p.Failures != 0 {
		t.Fatalf("pass after g2 was made: %+v (sent %v)", p, out.mails)
	}
	if ids := daemon.Games(); strings.Join(ids, ",") != "g1,g2" {
		t.Fatalf("the daemon serves %v", ids)
	}
	for _, m := range out.mails[2:] {
		if !strings.HasPrefix(m.ID, "<g2.") {
			t.Errorf("sent %s after g2 appeared", m.ID)
		}
	}
	if p := pass(); p.Sent != 0 || p.Failures != 0 {
		t.Fatalf("a pass with nothing new: %+v", p)
	}
}

// emptyInbox is a mailbox with nothing in it.
type emptyInbox struct{}

func (emptyInbox) Fetch(context.Context) ([]InMessage, error)          { return nil, nil }
func (emptyInbox) MoveProcessed(context.Context, uint32, uint32) error { return nil }
func (emptyInbox) MoveRejected(context.Context, uint32, uint32) error  { return nil }

// A message is recorded in one game, even after the referee moves its
// signer's key away: orders signed by a key registered in g1 and g2 are
// accepted in g1; g1's referee registers another key for that side; the
// same message seen again (its move failed, the mailbox state was lost,
// another daemon fetched it too) is a duplicate of g1's record, not a new
// outcome in g2, the one game that key still plays (rule: a message
// counts once, README "Orders by mail").
func TestMessageRecordedOnceAfterItsKeyMovedAway(t *testing.T) {
	for _, restart := range []bool{false, true} {
		h, clk, dir := newHost(t)
		for _, id := range []string{"g1", "g2"} {
			if _, err := h.Create(raceSpec(id)); err != nil {
				t.Fatal(err)
			}
		}
		text := orders("g1", "T01", "allied", "advance 1")
		if r := submit(t, h, "g1", "allied", text); r.Status != StatusAccepted || r.Game != "g1" {
			t.Fatalf("first: %+v", r)
		}
		moved := Player{Side: "allied", Address: "a@example.org", Key: "key-x", Fingerprint: "FPX"}
		if err := h.Referee("g1", Command{Name: "key", Player: &moved, Why: "a new key"}); err != nil {
			t.Fatal(err)
		}
		if restart {
			// From the snapshots, as a restarted daemon opens the games.
			if _, err := h.Snapshot(); err != nil {
				t.Fatal(err)
			}
			h.Close()
			var err error
			if h, err = OpenHost(dir, Options{Clock: clk}); err != nil {
				t.Fatal(err)
			}
		}
		// The same message again, signed by the key g1 no longer has.
		h.mu.Lock()
		r, err := h.route(Submission{Text: text, Source: "file", Fingerprint: "FPA", Key: fmt.Sprintf("k-%s-%s", "allied", digestText(text)[:12]), SigTime: clk.Now()}, clk.Now(), clk.Now())
		h.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != StatusDuplicate || r.Game != "g1" {
			t.Fatalf("restart %v: the message seen again: %+v, want a duplicate of g1's record", restart, r)
		}
		g2, _ := h.Game("g2")
		if n := len(g2.rejected) + len(g2.Orders); n != 0 {
			t.Fatalf("restart %v: g2 recorded the message too (%d)", restart, n)
		}
		h.Close()
	}
}

// A message is recognised as one its game recorded after the referee gave
// its signer's side another key, when that key plays no other game (the
// usual case: a player lost a key and got a new one registered). The
// accepted orders, seen again (their move failed, the mailbox state was
// lost), are a duplicate of g1's record and go to the processed folder:
// the replaced key still verifies what it signed.
func TestMessageOfAReplacedKeyInItsOnlyGameIsADuplicate(t *testing.T) {
	dir := t.TempDir()
	clk := &testClock{t: time.Date(1940, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(dir, Options{Clock: clk, Verifier: keyVerifier{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	raw := []byte("key-a|FPA|m1\n" + orders("g1", "T01", "allied", "advance 1"))
	r, err := h.Receive(raw)
	if err != nil || r.Status != StatusAccepted || r.Game != "g1" {
		t.Fatalf("first: %+v %v", r, err)
	}
	moved := Player{Side: "allied", Address: "a@example.org", Key: "key-x", Fingerprint: "FPX"}
	if err := h.Referee("g1", Command{Name: "key", Player: &moved, Why: "a new key"}); err != nil {
		t.Fatal(err)
	}
	r, err = h.Receive(raw)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusDuplicate || r.Game != "g1" || r.Moved != "processed" {
		t.Fatalf("the accepted message seen again after its key was replaced: %+v, want a duplicate of g1's record, moved to processed", r)
	}
}

// A command about one game opens only that game (Options.Select), and
// still counts a message once: orders already accepted in g1, entered
// again with submit on g2 (whose side the same key plays), are a
// duplicate, as the daemon holding every game says (routing a signed
// message opens the other games first).
func TestSubmitOnOneSelectedGameCountsAMessageOnce(t *testing.T) {
	h, clk, dir := newHost(t)
	for _, id := range []string{"g1", "g2"} {
		if _, err := h.Create(raceSpec(id)); err != nil {
			t.Fatal(err)
		}
	}
	text := orders("g1", "T01", "allied", "advance 1")
	sub := Submission{Text: text, Source: "file", Fingerprint: "FPA", Key: "k-once", SigTime: clk.Now()}
	h.mu.Lock()
	r, err := h.route(sub, clk.Now(), clk.Now())
	h.mu.Unlock()
	if err != nil || r.Status != StatusAccepted || r.Game != "g1" {
		t.Fatalf("first: %+v %v", r, err)
	}
	h.mu.Lock()
	full, err := h.route(sub, clk.Now(), clk.Now())
	h.mu.Unlock()
	if err != nil || full.Status != StatusDuplicate {
		t.Fatalf("the host of every game: %+v %v", full, err)
	}
	h.Close()
	one, err := OpenHost(dir, Options{Clock: clk, Select: func(id string) bool { return id == "g2" }})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	g2, _ := one.Game("g2")
	before := g2.Seq
	one.mu.Lock()
	r, err = one.route(sub, clk.Now(), clk.Now())
	one.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusDuplicate || g2.Seq != before {
		t.Fatalf("the same message on a host of g2 alone: %+v, g2 grew from %d to %d records; want a duplicate, nothing recorded", r, before, g2.Seq)
	}
}
