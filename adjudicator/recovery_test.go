package adjudicator

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
	"skagerrak/events"
)

// errCrash stands for the process dying right after an event is durable.
var errCrash = errors.New("killed")

// crashingGame runs a game on an in-memory log whose emitter "dies" right
// after the event crashAfter is appended (its n-th occurrence), and lets a
// test restart it by replaying the log. It appends one event at a time, as
// builds before batches did: the logs they left may hold half a decision,
// which Game.repair finishes (the tests below). The host now appends a
// decision as one batch (TestCrashMidBatchLeavesNoHalfDecision).
type crashingGame struct {
	t     *testing.T
	log   *events.MemLog
	g     *Game
	clock *testClock
}

func newCrashingGame(t *testing.T) *crashingGame {
	t.Helper()
	c := &crashingGame{t: t, log: events.NewMemLog(), clock: &testClock{t: time.Date(1940, 4, 8, 6, 0, 0, 0, time.UTC)}}
	c.g = NewGame(TemplateRenderer{}, false)
	if err := c.g.Start(raceSpec("g1"), make([]byte, 32), c.clock.Now(), c.emit("", 0)); err != nil {
		t.Fatal(err)
	}
	return c
}

// emit appends and applies; after the n-th event of type crashAfter it
// returns errCrash, as if the process had died there.
func (c *crashingGame) emit(crashAfter string, n int) Emit {
	seen := 0
	return func(typ string, data any) error {
		ev, err := c.log.Append(typ, c.clock.Now(), data)
		if err != nil {
			return err
		}
		if err := c.g.Apply(ev); err != nil {
			return err
		}
		if typ == crashAfter {
			seen++
			if seen == n {
				return errCrash
			}
		}
		return nil
	}
}

// restart replays the log into a new game, as the daemon does on start.
func (c *crashingGame) restart() {
	c.t.Helper()
	g, err := Replay(c.log, true)
	if err != nil {
		c.t.Fatalf("replay after the crash: %v", err)
	}
	if err := g.SetSecret(make([]byte, 32)); err != nil {
		c.t.Fatal(err)
	}
	c.g = g
}

func (c *crashingGame) queued(kind string, side string) int {
	n := 0
	for ev, err := range c.log.Events(1) {
		if err != nil {
			c.t.Fatal(err)
		}
		if ev.Type == EvMailQueued && strings.Contains(string(ev.Data), `"kind":"`+kind+`"`) && strings.Contains(string(ev.Data), `"side":"`+side+`"`) {
			n++
		}
	}
	return n
}

func (c *crashingGame) submit(side, text string, emit Emit) Outcome {
	c.t.Helper()
	fp := c.g.Players[engine.Side(side)].Fingerprint
	o, err := c.g.Submit(Submission{Text: text, Source: "file", Fingerprint: fp, Key: "k-" + side + digestText(text)[:8], SigTime: c.clock.Now()}, c.clock.Now(), emit)
	if err != nil && !errors.Is(err, errCrash) {
		c.t.Fatal(err)
	}
	return o
}

func TestCrashAfterPhaseResolvedOpensTheNextPhaseOnRestart(t *testing.T) {
	c := newCrashingGame(t)
	c.submit("allied", orders("g1", "T01", "allied", "advance 1"), c.emit("", 0))
	c.submit("german", orders("g1", "T01", "german", "advance 2"), c.emit("", 0))
	if _, err := c.g.Tick(c.clock.Now(), c.emit(EvPhaseResolved, 1)); !errors.Is(err, errCrash) {
		t.Fatalf("the simulated crash did not happen: %v", err)
	}
	c.restart()
	if c.g.Opened != nil {
		t.Fatal("the replayed game has an open phase the log never opened")
	}
	if _, err := c.g.Tick(c.clock.Now(), c.emit("", 0)); err != nil {
		t.Fatal(err)
	}
	if c.g.Opened == nil || c.g.Opened.Phase != "T02" {
		t.Fatalf("after the restart: open phase %+v, want T02", c.g.Opened)
	}
	if c.queued(MailReport, "allied") != 2 || c.queued(MailReport, "german") != 2 {
		t.Errorf("reports: allied %d, german %d; want the first and the T01 report each", c.queued(MailReport, "allied"), c.queued(MailReport, "german"))
	}
	c.restart() // the repaired log replays, strictly
}

func TestCrashBeforeTheReplyQueuesItOnRestart(t *testing.T) {
	c := newCrashingGame(t)
	if o := c.submit("allied", orders("g1", "T01", "allied", "advance 3"), c.emit(EvOrdersAccepted, 1)); o.Status != "" {
		t.Fatalf("outcome %+v", o)
	}
	c.restart()
	if c.queued(MailAccepted, "allied") != 0 {
		t.Fatal("a reply was queued before the crash")
	}
	if _, err := c.g.Tick(c.clock.Now(), c.emit("", 0)); err != nil {
		t.Fatal(err)
	}
	if n := c.queued(MailAccepted, "allied"); n != 1 {
		t.Fatalf("%d acceptance replies after the restart, want 1", n)
	}
	if _, err := c.g.Tick(c.clock.Now(), c.emit("", 0)); err != nil || c.queued(MailAccepted, "allied") != 1 {
		t.Fatalf("a second tick queued the reply again: %v", err)
	}
}

func TestCrashHalfWayThroughRemindersRemindsTheRest(t *testing.T) {
	c := newCrashingGame(t)
	c.clock.Add(36 * time.Hour)
	if _, err := c.g.Tick(c.clock.Now(), c.emit(EvMailQueued, 1)); !errors.Is(err, errCrash) {
		t.Fatalf("the simulated crash did not happen: %v", err)
	}
	c.restart()
	if _, err := c.g.Tick(c.clock.Now(), c.emit("", 0)); err != nil {
		t.Fatal(err)
	}
	if c.queued(MailReminder, "allied") != 1 || c.queued(MailReminder, "german") != 1 {
		t.Errorf("reminders: allied %d, german %d; want one each", c.queued(MailReminder, "allied"), c.queued(MailReminder, "german"))
	}
}

func TestCrashAfterGameEndedQueuesTheFinalReports(t *testing.T) {
	c := newCrashingGame(t)
	if err := c.g.Do(Command{Name: "abandon", Why: "test", By: "ref"}, c.clock.Now(), c.emit(EvGameEnded, 1)); !errors.Is(err, errCrash) {
		t.Fatalf("the simulated crash did not happen: %v", err)
	}
	c.restart()
	if _, err := c.g.Tick(c.clock.Now(), c.emit("", 0)); err != nil {
		t.Fatal(err)
	}
	if c.queued(MailFinal, "allied") != 1 || c.queued(MailFinal, "german") != 1 {
		t.Errorf("final reports: allied %d, german %d", c.queued(MailFinal, "allied"), c.queued(MailFinal, "german"))
	}
}

// A decision is appended as one batch: a crash while its write reaches
// the disk, cut at any byte, leaves the game as it stood before the
// decision (the torn batch is cut on open) or the whole decision, never
// part of it. Here the decision is the German orders, all in: the orders,
// the phase resolved, T02 opened and the reports.
func TestCrashMidBatchLeavesNoHalfDecision(t *testing.T) {
	h, clk, dir := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 1"))
	path := filepath.Join(dir, "g1", LogFile)
	before, _ := os.ReadFile(path)
	g, _ := h.Game("g1")
	seqBefore := g.Seq
	submit(t, h, "g1", "german", orders("g1", "T01", "german", "advance 2"))
	g, _ = h.Game("g1")
	seqAfter := g.Seq
	if g.Opened == nil || g.Opened.Phase != "T02" || seqAfter < seqBefore+4 {
		t.Fatalf("the decision: phase %+v, records %d to %d; want T02 opened by one decision of several records", g.Opened, seqBefore, seqAfter)
	}
	h.Close()
	full, _ := os.ReadFile(path)
	if !bytes.HasPrefix(full, before) || !bytes.Contains(full[len(before):], []byte(`,"batch":[1,`)) {
		t.Fatal("the decision was not appended as one framed batch after the log as it stood")
	}
	for cut := len(before); cut <= len(full); cut += max(1, (len(full)-len(before))/97) {
		if err := os.WriteFile(path, full[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		h, err := OpenHost(dir, Options{Clock: clk})
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		g, _ := h.Game("g1")
		switch {
		case cut >= len(full)-1 && (g.Seq != seqAfter || g.Opened == nil || g.Opened.Phase != "T02"):
			t.Errorf("cut at %d of %d: the whole batch is on disk, but the game is at record %d", cut, len(full), g.Seq)
		case cut < len(full)-1 && (g.Seq != seqBefore || g.Opened == nil || g.Opened.Phase != "T01" || len(g.Orders) != 1):
			t.Errorf("cut at %d of %d: the game is at record %d (phase %+v), want %d: T01 with the Allied orders only", cut, len(full), g.Seq, g.Opened, seqBefore)
		}
		if _, err := h.Tick(); err != nil {
			t.Errorf("cut at %d: a tick after the restart: %v", cut, err)
		}
		if g, _ := h.Game("g1"); cut < len(full)-1 && g.Seq != seqBefore {
			t.Errorf("cut at %d: a tick after the restart recorded %d records: there was a half decision to finish", cut, g.Seq-seqBefore)
		}
		h.Close()
	}
}

// refusingLog is a log whose next AppendBatch fails without appending.
type refusingLog struct {
	events.Log
	refuse bool
}

func (l *refusingLog) AppendBatch(batch []events.Event) error {
	if l.refuse && len(batch) > 0 {
		l.refuse = false
		return errors.New("refused (test)")
	}
	return l.Log.AppendBatch(batch)
}

// A decision the log does not take leaves the game as its log tells it:
// the game that applied the decision is replayed from the log, and the
// same mail decides again on the next pass.
func TestDecisionTheLogRefusesIsNotKept(t *testing.T) {
	h, _, _ := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 1"))
	g, _ := h.Game("g1")
	seq := g.Seq
	rl := &refusingLog{Log: h.games["g1"].log, refuse: true}
	h.games["g1"].log = rl
	text := orders("g1", "T01", "german", "advance 2")
	h.mu.Lock()
	_, err := h.route(Submission{Text: text, Source: "file", Fingerprint: "FPG", Key: "k-german", SigTime: h.clock.Now()}, h.clock.Now(), h.clock.Now())
	h.mu.Unlock()
	if err == nil || !strings.Contains(err.Error(), "refused (test)") {
		t.Fatalf("the refused decision: %v, want the log's error", err)
	}
	g, _ = h.Game("g1")
	if g.Seq != seq || g.Opened == nil || g.Opened.Phase != "T01" || len(g.Orders) != 1 {
		t.Fatalf("after the refused decision the game is at record %d (phase %+v, %d orders), want %d: T01 with the Allied orders", g.Seq, g.Opened, len(g.Orders), seq)
	}
	if r := submit(t, h, "g1", "german", text); r.Outcome.Status != StatusAccepted {
		t.Fatalf("the same orders again: %+v", r)
	}
	if g, _ := h.Game("g1"); g.Opened == nil || g.Opened.Phase != "T02" {
		t.Fatalf("after the orders came again: phase %+v, want T02", g.Opened)
	}
}
