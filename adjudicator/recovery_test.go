package adjudicator

import (
	"errors"
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
// test restart it by replaying the log.
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
