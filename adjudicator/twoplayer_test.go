package adjudicator

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
)

// kampenTwoPlayers is a Kampen om Norge game of two players (1.4): one
// holds Germany, the other both Norway and the Allies, with one address
// and one key.
func kampenTwoPlayers(game string) Spec {
	return Spec{Game: game, Ruleset: "kampen", Timing: Timing{Deadline: Duration(48 * time.Hour)}, Players: []Player{
		{Side: "german", Address: "hitler@example.org", Key: "k", Fingerprint: "FPG"},
		{Side: "norwegian", Address: "ruge@example.org", Key: "k", Fingerprint: "FPNA"},
		{Side: "allied", Address: "ruge@example.org", Key: "k", Fingerprint: "FPNA"},
	}}
}

// TestKampenTwoPlayersPlayThrough: with two players, as the rules allow
// (1.4: "one player controls both Norway and the Allies ... Norway and the
// Allies operate in separate rounds and have their own cards"), the game
// is created with one key on both sides, each side's orders are taken in
// its own file signed by that key, the game plays to a result, and its log
// verifies. Germany cannot share a key with either (1.4 combines only
// Norway and the Allies); a file the shared key signs for Germany is
// refused.
func TestKampenTwoPlayersPlayThrough(t *testing.T) {
	bad := kampenTwoPlayers("bad")
	bad.Players[0].Fingerprint = "FPNA"
	err := bad.Check()
	if err == nil || !strings.Contains(err.Error(), "one player may hold both norwegian and allied") {
		t.Fatalf("Germany sharing the Allied key: %v, want a refusal naming the sides that may share", err)
	}

	dir := t.TempDir()
	clk := &testClock{t: time.Date(2026, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(dir, Options{Clock: clk, Entropy: bytes.NewReader(bytes.Repeat([]byte{1}, 32))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	g, err := h.Create(kampenTwoPlayers("two"))
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := engine.Lookup("kampen")
	bot := rs.(engine.Player)
	refused := false
	for n := 0; g.Ended == nil; n++ {
		if n > 500 {
			t.Fatalf("no end after %d phases", n)
		}
		for _, s := range g.Owing() {
			if s == "german" && !refused {
				h.mu.Lock()
				r, err := h.route(Submission{Text: orders("two", g.Opened.Phase, "german", ""), Source: "file", Fingerprint: "FPNA", Key: "k-forged", SigTime: clk.Now()}, clk.Now(), clk.Now())
				h.mu.Unlock()
				if err != nil || r.Status != StatusRejected || !strings.Contains(r.Reason, "not \"german\"") {
					t.Fatalf("the Norwegian-Allied key signed German orders: %+v %v", r, err)
				}
				refused = true
			}
			body := bot.Play(rs.View(g.State, s), s, engine.NewSeededDice([]byte{1}, string(s), g.Opened.Phase, [32]byte{}))
			r := submit(t, h, "two", s, orders("two", g.Opened.Phase, string(s), body))
			if r.Status != StatusAccepted {
				t.Fatalf("%s %s: %s %s %v", g.Opened.Phase, s, r.Status, r.Reason, r.Errors)
			}
		}
		clk.Add(time.Hour)
	}
	if !refused {
		t.Fatal("Germany never owed orders")
	}
	if g.Ended.Result == nil || g.Ended.Result.Summary == "" {
		t.Fatalf("no result: %+v", g.Ended)
	}
	rep, err := VerifyPath(filepath.Join(dir, "two"), nil)
	if err != nil || !rep.Ended {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	t.Logf("%d phases: %s", g.Resolved, g.Ended.Result.Summary)
}

// TestSideThatOwesNothingIsToldSo: in Kampen's first phase only Germany
// owes orders; a Norwegian file naming another phase is told that its side
// has no orders in the open phase, not only which phase is open.
func TestSideThatOwesNothingIsToldSo(t *testing.T) {
	dir := t.TempDir()
	clk := &testClock{t: time.Date(2026, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(dir, Options{Clock: clk, Entropy: bytes.NewReader(bytes.Repeat([]byte{1}, 32))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if _, err := h.Create(kampenTwoPlayers("two")); err != nil {
		t.Fatal(err)
	}
	r := submit(t, h, "two", "norwegian", orders("two", "R01-norwegian-move", "norwegian", ""))
	want := "your side has no orders in the open phase R01-german-move (owed by german)"
	if r.Status != StatusRejected || !strings.Contains(r.Reason, want) {
		t.Fatalf("got %s %q, want a refusal saying %q", r.Status, r.Reason, want)
	}
}

// TestSharedKeyCommandsAnswerForEachSide: the player who holds Norway and
// the Allies with one key (1.4) asks by mail. A command naming a side is
// for that side alone; status, history and address naming none answer
// for both sides (an address moves both); resend naming none is refused
// with the command that would be taken, since each side has its own
// reports. Every answer goes to the player's address, and the game's log
// verifies with the answers rendered again.
func TestSharedKeyCommandsAnswerForEachSide(t *testing.T) {
	h, clk, dir := newHost(t)
	g, err := h.Create(kampenTwoPlayers("two"))
	if err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Hour)
	ask := func(text string) Mail {
		t.Helper()
		if r := submit(t, h, "two", "allied", text); r.Status != StatusAnswered {
			t.Fatalf("%q: %+v", text, r)
		}
		var out outbox
		if _, err := h.Flush(context.Background(), &out); err != nil {
			t.Fatal(err)
		}
		ms := out.to("ruge@example.org")
		if len(ms) == 0 {
			t.Fatalf("%q: no answer", text)
		}
		return ms[len(ms)-1]
	}
	m := ask("history allied\n")
	if !strings.Contains(m.Subject, "history of allied") || strings.Contains(m.Text, "Side norwegian:") {
		t.Errorf("history allied answered for another side: %s\n%s", m.Subject, m.Text)
	}
	m = ask("status\n")
	if !strings.Contains(m.Subject, "status for allied, norwegian") && !strings.Contains(m.Subject, "status for norwegian, allied") {
		t.Errorf("status names not both sides: %s", m.Subject)
	}
	for _, s := range []string{"side norwegian", "side allied"} {
		if !strings.Contains(m.Text, s) {
			t.Errorf("status says nothing of %s:\n%s", s, m.Text)
		}
	}
	if !strings.Contains(flatText(m.Text), "Your key holds more than one side") {
		t.Errorf("the answer does not say how to name a side:\n%s", m.Text)
	}
	m = ask("resend\n")
	if !strings.Contains(m.Subject, "not done") || !strings.Contains(flatText(m.Text), "name the side, e.g. resend") {
		t.Errorf("resend without a side was not refused with the command to use: %s\n%s", m.Subject, m.Text)
	}
	m = ask("resend norwegian start\n")
	if m.Kind != MailResend {
		t.Errorf("resend norwegian start: a %s mail, want the report again", m.Kind)
	}
	ask("address ruge@new.example.org\n")
	for _, s := range []engine.Side{"norwegian", "allied"} {
		if p, _ := g.Player(s); p.Address != "ruge@new.example.org" {
			t.Errorf("%s's mail goes to %s after the address command", s, p.Address)
		}
	}
	if p, _ := g.Player("german"); p.Address != "hitler@example.org" {
		t.Errorf("german's address moved too: %s", p.Address)
	}
	if _, err := VerifyPath(filepath.Join(dir, "two"), nil); err != nil {
		t.Fatalf("verify: %v", err)
	}
}
