package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/daemontest"
	"skagerrak/mail/stacktest"
)

// gameAt replays a game's log as it stands (the daemon may hold it).
func (e *stackEnv) gameAt(t *testing.T, game string) (*adjudicator.Game, []byte) {
	t.Helper()
	path := filepath.Join(e.dir, "games", game, adjudicator.LogFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := adjudicator.Replay(adjudicator.LogReader{Path: path}, false)
	if err != nil {
		t.Fatal(err)
	}
	return g, b
}

// waitGame waits until cond holds of the game's log.
func (e *stackEnv) waitGame(t *testing.T, d *daemon, game, what string, cond func(*adjudicator.Game) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !stacktest.WaitFor(ctx, func() bool { g, _ := e.gameAt(t, game); return cond(g) }) {
		t.Fatalf("the game never %s:\n%s", what, d.log.String())
	}
}

// An order delivered into the host's Maildir before the deadline while
// Dovecot is down: the deadline passes and nothing resolves (the phase
// is recorded as waiting, and why); SIGTERM then changes nothing in the
// log; once Dovecot is back, the daemon reads the order and the phase
// resolves with it counted, only the side that sent nothing defaulted.
func TestDeadlineWaitsForTheMailboxOnTheStack(t *testing.T) {
	stacktest.Require(t, "dovecot", "smtpd")
	s := stacktest.Start(t, "skagerrak.test", []string{"dl", "german", "allied"}, nil)
	e := newStackEnv(t, s, "dl", "")
	e.env = []string{"SKAGERRAK_TEST_FETCH_TIMEOUT=1s"}
	const game = "dl-g"
	d := e.startDaemon(t)
	daemontest.WaitLog(t, d.log, "connected")
	s.StopDovecot()
	// The game is made while the mailbox is down (the daemon takes it up
	// on its next pass), so that a slow machine cannot see its deadline
	// pass before Dovecot stops.
	e.createGamesDue(t, 4*time.Second, game)
	g, _ := e.gameAt(t, game)
	due := g.Opened.Deadline
	s.DeliverMaildir(t, "dl", e.orderMail(t, game, "allied", "advance 2"), time.Now())
	if time.Now().After(due) {
		t.Fatalf("the order was delivered after the deadline (%s): the test's machine is too slow for a 4 s deadline", due)
	}

	e.waitGame(t, d, game, "recorded that T01 waits for the mailbox", func(g *adjudicator.Game) bool { return g.Resolved == 0 && hasWaiting(g) })
	time.Sleep(2 * time.Second) // more failing passes after the deadline
	g, before := e.gameAt(t, game)
	if g.Resolved != 0 {
		t.Fatalf("T01 resolved while the mailbox could not be read:\n%s", d.log.String())
	}
	t.Logf("status while Dovecot is down: %s", g.Waiting(time.Now()))
	d.stop(t)
	if _, after := e.gameAt(t, game); !bytes.Equal(before, after) {
		t.Fatalf("SIGTERM while the fetch failed changed the log:\n%s", after[len(before):])
	}

	s.StartDovecot()
	d = e.startDaemon(t)
	e.waitGame(t, d, game, "resolved T01 once the mailbox was back", func(g *adjudicator.Game) bool { return g.Resolved == 1 })
	e.drained(t, d, 1)
	d.stop(t)
	g, _ = e.gameAt(t, game)
	if h := g.History[0]; h.Why != "deadline" || !slices.Equal(h.Defaulted, []engine.Side{"german"}) {
		t.Fatalf("T01 resolved for %q with %v defaulted; want the deadline, german alone defaulted (allied's order reached the Maildir in time)", h.Why, h.Defaulted)
	}
	if o := g.Moves[0].Orders["allied"]; o == "" {
		t.Fatalf("allied's orders are not in T01's moves: %v", g.Moves[0].Orders)
	}
}

// hasWaiting reports whether the game's open phase has a recorded wait.
func hasWaiting(g *adjudicator.Game) bool {
	return strings.Contains(g.Waiting(time.Now()), "waits for the mailbox")
}

// Two daemons on one PostgreSQL store and one Dovecot mailbox, each
// killed (SIGKILL) in turn while orders and unsigned mail arrive: every
// message ends in processed or rejected exactly once (a daemon that finds
// a message recorded by the other leaves the move to it, and no two move
// one message at once), every order is recorded once and every game
// verifies.
func TestTwoDaemonsFileEachMessageOnceOnTheStack(t *testing.T) {
	stacktest.Require(t, "dovecot", "smtpd")
	s := stacktest.Start(t, "skagerrak.test", []string{"two", "german", "allied"}, nil)
	e := newStackEnv(t, s, "two", pgtest.URL(t))
	const games, junk, kills = 10, 6, 4
	var ids []string
	for g := range games {
		ids = append(ids, fmt.Sprintf("two-g%02d", g))
	}
	e.createGames(t, ids...)
	start := func(name string) *daemon {
		e.env = []string{"SKAGERRAK_TEST_DUP_GRACE=3s", "SKAGERRAK_TEST_NAME=" + name}
		return e.startDaemon(t)
	}
	ds := []*daemon{start("a"), start("b")}
	for i, id := range ids {
		e.order(t, id, "german", "advance 2")
		e.order(t, id, "allied", "advance 1")
		if i < junk {
			s.Deliver(t, "someone@example.org", e.addr(), []byte(fmt.Sprintf("Subject: hello %d\r\n\r\nNot signed.\r\n", i)))
		}
	}
	rnd := rand.New(rand.NewPCG(27, 1))
	for k := range kills {
		time.Sleep(time.Duration(300+rnd.IntN(700)) * time.Millisecond)
		i := k % 2
		ds[i].cmd.Process.Signal(syscall.SIGKILL)
		<-ds[i].end
		ds[i] = start([]string{"a", "b"}[i])
	}
	e.drained(t, ds[0], 2*games+junk)
	for _, d := range ds {
		d.stop(t)
	}
	if n := e.s.Count(t, e.user, "skagerrak.processed"); n != 2*games {
		t.Errorf("processed holds %d messages, want each of the %d orders once", n, 2*games)
	}
	if n := e.s.Count(t, e.user, "skagerrak.rejected"); n != junk {
		t.Errorf("rejected holds %d messages, want each of the %d unsigned ones once", n, junk)
	}
	daemontest.TallyLogs(t, e.logs(t)).Once(t, 2*games)
}
