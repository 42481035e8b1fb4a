package deadlines

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
)

// downInbox is a mailbox that cannot be read while down is set, as with
// the IMAP service stopped or a login refused; cut, if set, is called
// (with the pass's context cancelled by it) by a failing fetch, as a
// SIGTERM arriving while the fetch retries.
type downInbox struct {
	adjudicator.Inbox
	down atomic.Bool
	cut  func()
}

var errIMAPDown = errors.New("imapbox: fetch: dial 127.0.0.1:143: connection refused")

func (d *downInbox) Fetch(ctx context.Context) ([]adjudicator.InMessage, error) {
	if d.down.Load() {
		if d.cut != nil {
			d.cut()
			return nil, ctx.Err()
		}
		return nil, errIMAPDown
	}
	return d.Inbox.Fetch(ctx)
}

// deadlineEnv is one racetest game (g000) with a referee, its T01
// deadline, a host on a clock the test moves, and the loopback mailbox.
type deadlineEnv struct {
	*hosttest.Env
	h        *adjudicator.Host
	box      *imapbox.Box
	clock    *hosttest.Clock
	deadline time.Time
}

func newDeadlineEnv(t *testing.T) *deadlineEnv { return newDeadlineEnvOn(t, false) }

// newDeadlineEnvOn is newDeadlineEnv, on a store other daemons may share
// (as the database is) if shared.
func newDeadlineEnvOn(t *testing.T, shared bool) *deadlineEnv {
	t.Helper()
	e := hosttest.New(t, 0)
	created := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	clock := &hosttest.Clock{}
	clock.Set(created)
	fs, err := adjudicator.NewFileStore(e.DataDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	var st adjudicator.Store = fs
	if shared {
		st = sharedFiles{fs}
	}
	h, err := adjudicator.OpenStore(st, adjudicator.Options{Verifier: wiring.Verifier{}, Triage: wiring.Triage{}, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	spec := adjudicator.Spec{Game: "g000", Ruleset: "racetest", HostFrom: hosttest.HostAddr, Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
	for _, side := range []string{"allied", "german", "referee"} {
		addr := fmt.Sprintf("%s-0@players.test", side)
		k, err := compose.GenerateKey(side, addr, created.Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := compose.ArmorPublicKey(k)
		e.Players[addr] = k
		p := adjudicator.Player{Side: engine.Side(side), Address: addr, Key: string(pub), Fingerprint: compose.Fingerprint(k)}
		if side == "referee" {
			spec.Referee = &p
		} else {
			spec.Players = append(spec.Players, p)
		}
	}
	g, err := h.Create(spec)
	if err != nil {
		t.Fatal(err)
	}
	d := &deadlineEnv{Env: e, h: h, clock: clock, deadline: g.Opened.Deadline}
	t.Cleanup(func() { h.Close() })
	os.MkdirAll(filepath.Join(e.DataDir(), ".imap"), 0o700)
	if d.box, err = imapbox.Open(context.Background(), imapbox.Config{Addr: e.IMAP.Addr(), Username: hosttest.HostAddr, Password: "pw", TLS: imapbox.TLSNone, StateDir: filepath.Join(e.DataDir(), ".imap")}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.box.Close() })
	return d
}

// orderAt mails a signed order into the INBOX as received by the server
// at received (its INTERNALDATE).
func (d *deadlineEnv) orderAt(t *testing.T, side, body string, received time.Time) []byte {
	t.Helper()
	addr := side + "-0@players.test"
	text := fmt.Sprintf("Game: g000\nPhase: T01\nSide: %s\n%s\n", side, body)
	raw, err := compose.SignPGPMIMEMail(d.Players[addr], addr, hosttest.HostAddr, "orders", text, d.SignAt(addr))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.IMAP.AppendAt(hosttest.HostAddr, "INBOX", raw, received); err != nil {
		t.Fatal(err)
	}
	return raw
}

// at sets the host's clock.
func (d *deadlineEnv) at(t time.Time) { d.clock.Set(t) }

func (d *deadlineEnv) game(t *testing.T) *adjudicator.Game {
	t.Helper()
	g, err := d.h.Game("g000")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// queuedTo lists the kinds of the mail in g000's outbox for a side.
func (d *deadlineEnv) queuedTo(t *testing.T, side string) []string {
	var kinds []string
	for _, o := range d.game(t).Outbox {
		if string(o.Queued.Side) == side {
			kinds = append(kinds, o.Queued.Kind)
		}
	}
	return kinds
}

// An order the host's server received before the deadline, while the
// mailbox could not be read, counts when it is read after the deadline:
// the phase waits, unresolved, for as long as the mailbox is down (the
// referee told once), and resolves with that order once it is back. An
// order received after the deadline is refused as late, whenever read.
func TestOverduePhaseWaitsForTheMailbox(t *testing.T) {
	d := newDeadlineEnv(t)
	in := &downInbox{Inbox: wiring.Inbox{Box: d.box}}
	in.down.Store(true)
	d.orderAt(t, "allied", "advance 2", d.deadline.Add(-time.Hour))
	d.orderAt(t, "german", "advance 3", d.deadline.Add(30*time.Second))

	d.at(d.deadline.Add(time.Minute))
	for i := 0; i < 2; i++ {
		p, err := d.h.PollOnce(context.Background(), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Unread || p.Failures == 0 || !slices.Equal(p.Waiting, []string{"g000"}) {
			t.Fatalf("pass %d with the mailbox down: unread %v, failures %d, waiting %v; want unread, a failure, g000 waiting", i, p.Unread, p.Failures, p.Waiting)
		}
		g := d.game(t)
		if g.Resolved != 0 || g.Opened.Phase != "T01" {
			t.Fatalf("pass %d: the phase resolved (%d resolved, open %s) although the mailbox could not be read", i, g.Resolved, g.Opened.Phase)
		}
		if why := g.Waiting(d.clock.Now()); !strings.Contains(why, "waits for the mailbox") || !strings.Contains(why, "connection refused") {
			t.Fatalf("status says %q; want it to say the phase waits for the mailbox and why", why)
		}
		d.clock.Add(time.Minute)
	}
	if got := d.queuedTo(t, "referee"); !slices.Equal(got, []string{adjudicator.MailNotice}) {
		t.Fatalf("mail queued to the referee while the mailbox is down: %v; want one notice", got)
	}

	in.down.Store(false)
	d.clock.Add(time.Hour)
	p, err := d.h.PollOnce(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Unread || p.Accepted != 1 || p.Rejected != 1 {
		t.Fatalf("the pass with the mailbox back: unread %v, accepted %d, rejected %d; want the mailbox read, one order accepted, one refused as late", p.Unread, p.Accepted, p.Rejected)
	}
	g := d.game(t)
	if g.Resolved != 1 {
		t.Fatalf("%d phases resolved once the mailbox was read; want T01", g.Resolved)
	}
	last := g.History[0]
	if last.Why != "deadline" || !slices.Equal(last.Defaulted, []engine.Side{"german"}) {
		t.Fatalf("T01 resolved for %q with %v defaulted; want the deadline, german alone defaulted (allied's order arrived in time)", last.Why, last.Defaulted)
	}
	if got := d.queuedTo(t, "referee"); !slices.Equal(got, []string{adjudicator.MailNotice, adjudicator.MailNotice}) {
		t.Fatalf("mail to the referee: %v; want the notice that T01 waits, then that it resolved", got)
	}
	texts := d.mailTexts(t)
	if !strings.Contains(texts["allied"], "That deadline has passed") || strings.Contains(texts["allied"], "at the latest") {
		t.Errorf("allied's acceptance promises a time already past:\n%s", texts["allied"])
	}
	if !strings.Contains(texts["german"], "it is late") {
		t.Errorf("german's reply does not say the order was late:\n%s", texts["german"])
	}
	if !strings.Contains(texts["referee"], "resolved") {
		t.Errorf("the referee's last notice does not say T01 resolved:\n%s", texts["referee"])
	}
}

// mailTexts is g000's queued mail by side: the first acceptance or
// rejection of each side, and the referee's last notice.
func (d *deadlineEnv) mailTexts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, o := range d.game(t).Outbox {
		if err := o.Render(); err != nil {
			t.Fatal(err)
		}
		side := string(o.Queued.Side)
		switch o.Queued.Kind {
		case adjudicator.MailAccepted, adjudicator.MailRejected:
			if out[side] == "" {
				out[side] = unwrap(o.Mail.Text)
			}
		case adjudicator.MailNotice:
			out[side] = unwrap(o.Mail.Text)
		}
	}
	return out
}

// unwrap joins a mail's wrapped lines: its words, one space apart.
func unwrap(s string) string { return strings.Join(strings.Fields(s), " ") }

// A pass cut short (SIGTERM) while the fetch fails and a phase is overdue
// changes nothing: no resolution, no record of the wait, the log as it
// was.
func TestCutPassWithAnOverduePhaseChangesNothing(t *testing.T) {
	d := newDeadlineEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := &downInbox{Inbox: wiring.Inbox{Box: d.box}, cut: cancel}
	in.down.Store(true)
	d.at(d.deadline.Add(time.Minute))
	before := d.game(t).Seq
	p, err := d.h.PollOnce(ctx, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Cut {
		t.Fatalf("the pass was not reported cut short: %+v", p)
	}
	if g := d.game(t); g.Seq != before || g.Resolved != 0 {
		t.Fatalf("a pass cut short by SIGTERM changed the game: seq %d to %d, %d phases resolved", before, g.Seq, g.Resolved)
	}
}

// The daemon wakes at the deadline, not at its next pass: with an hour
// between passes, a phase whose deadline is a second away resolves within
// moments of it.
func TestRunWakesAtTheDeadline(t *testing.T) {
	e := hosttest.New(t, 0)
	h, err := adjudicator.OpenHost(e.DataDir(), adjudicator.Options{Verifier: wiring.Verifier{}, Triage: wiring.Triage{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	spec := adjudicator.Spec{Game: "g000", Ruleset: "racetest", HostFrom: hosttest.HostAddr, Timing: adjudicator.Timing{Deadline: adjudicator.Duration(time.Second)}}
	for _, side := range []string{"allied", "german"} {
		addr := side + "-0@players.test"
		k, err := compose.GenerateKey(side, addr, time.Now().Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := compose.ArmorPublicKey(k)
		spec.Players = append(spec.Players, adjudicator.Player{Side: engine.Side(side), Address: addr, Key: string(pub), Fingerprint: compose.Fingerprint(k)})
	}
	g, err := h.Create(spec)
	if err != nil {
		t.Fatal(err)
	}
	due := g.Opened.Deadline
	if next, ok := h.NextDeadline(); !ok || !next.Equal(due) {
		t.Fatalf("NextDeadline = %v, %v; want T01's deadline %v", next, ok, due)
	}
	reports := make(chan time.Time, 10)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx, emptyMailbox{}, nil, reportSender(reports), time.Hour) }()
	var sent time.Time
	select {
	case sent = <-reports:
	case <-time.After(time.Until(due) + 10*time.Second):
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if sent.IsZero() {
		t.Fatal("no report 10s after T01's deadline, with an hour between passes: the daemon did not wake at the deadline")
	}
	if g.Resolved != 1 || g.History[0].Why != "deadline" {
		t.Fatalf("%d phases resolved; want T01, for its deadline", g.Resolved)
	}
	t.Logf("T01's report was sent %v after its deadline", sent.Sub(due).Round(time.Millisecond))
}

// reportSender tells when it is given the report of a resolved T01.
type reportSender chan time.Time

func (r reportSender) Send(_ context.Context, m adjudicator.Mail) error {
	if m.Kind == adjudicator.MailReport && strings.Contains(m.Text, "Resolved: T01") {
		select {
		case r <- time.Now():
		default:
		}
	}
	return nil
}

// emptyMailbox is a mailbox with nothing in it, read without fail.
type emptyMailbox struct{}

func (emptyMailbox) Fetch(context.Context) ([]adjudicator.InMessage, error) { return nil, nil }
func (emptyMailbox) MoveProcessed(context.Context, uint32, uint32) error    { return nil }
func (emptyMailbox) MoveRejected(context.Context, uint32, uint32) error     { return nil }

// sharedFiles is the file store taken for one other daemons share (a
// HeadLister, as the database is), for one daemon to play both.
type sharedFiles struct{ *adjudicator.FileStore }

func (sharedFiles) Heads() (map[string]uint64, error) { return map[string]uint64{}, nil }

// A message whose outcome is recorded already, met again in the INBOX
// (its recorder died before moving it, or it is a copy), is moved at once
// by the only daemon of a file store; with a shared store it is left for
// the daemon that recorded it, and moved only once DuplicateGrace has
// passed since the record, so that two daemons never move one message at
// the same time (which files it twice).
func TestMessageRecordedElsewhereIsLeftForItsRecorder(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			d := newDeadlineEnvOn(t, shared)
			d.at(time.Now().Add(time.Minute))
			raw := d.orderAt(t, "allied", "advance 2", time.Now())
			if p, err := d.h.PollOnce(context.Background(), wiring.Inbox{Box: d.box}, nil); err != nil || p.Accepted != 1 {
				t.Fatalf("first pass: %+v, %v", p, err)
			}
			if _, err := d.IMAP.Append(hosttest.HostAddr, "INBOX", raw); err != nil {
				t.Fatal(err)
			}
			d.clock.Add(time.Second)
			p, err := d.h.PollOnce(context.Background(), wiring.Inbox{Box: d.box}, nil)
			if err != nil || p.Duplicates != 1 || p.Failures != 0 {
				t.Fatalf("the message met again: %+v, %v; want a duplicate, no failure", p, err)
			}
			left := 0
			if shared {
				left = 1
			}
			if p.Left != left || d.Count(t, "INBOX") != left || d.Count(t, hosttest.DefaultProcessed) != 2-left {
				t.Fatalf("left %d, INBOX %d, processed %d; want %d left in the INBOX", p.Left, d.Count(t, "INBOX"), d.Count(t, hosttest.DefaultProcessed), left)
			}
			if p.Unread {
				t.Fatal("a message left for its recorder counts as unread: no deadline could pass")
			}
			if !shared {
				return
			}
			d.clock.Add(adjudicator.DuplicateGrace)
			if p, err := d.h.PollOnce(context.Background(), wiring.Inbox{Box: d.box}, nil); err != nil || p.Left != 0 || p.Failures != 0 {
				t.Fatalf("after the grace: %+v, %v", p, err)
			}
			if d.Count(t, "INBOX") != 0 || d.Count(t, hosttest.DefaultProcessed) != 2 {
				t.Fatalf("after the grace: INBOX %d, processed %d; want it moved", d.Count(t, "INBOX"), d.Count(t, hosttest.DefaultProcessed))
			}
		})
	}
}

// poll --once under cron, with the mailbox unreadable (the login refused
// after a password change) and a phase past its deadline: it exits
// non-zero saying why, and resolves nothing; with the mailbox readable
// again the next pass resolves the phase.
func TestPollOnceThatCannotReadResolvesNothing(t *testing.T) {
	e := hosttest.New(t, 0)
	h, err := adjudicator.OpenHost(e.DataDir(), adjudicator.Options{Verifier: wiring.Verifier{}})
	if err != nil {
		t.Fatal(err)
	}
	e.CreateGamesDue(t, h, 1, time.Second)
	h.Close()
	cfg := e.Config(t)
	time.Sleep(1100 * time.Millisecond)
	t.Setenv("SKAGERRAK_IMAP_PASSWORD", "changed")
	code, out, errs := run(t, "--config", cfg, "poll", "--once")
	if code == 0 || !strings.Contains(errs, "login") {
		t.Fatalf("poll --once with the login refused: exit %d\n%s\n%s", code, out, errs)
	}
	if _, out, _ := run(t, "--config", cfg, "status", "g000"); !strings.Contains(out, "waiting: phase T01 is past its deadline") || !strings.Contains(out, "waits for the mailbox to be read: the mailbox cannot be opened") || !strings.Contains(out, "login") {
		t.Fatalf("status after a pass that could not open the mailbox does not say T01 waits, and why:\n%s", out)
	}
	if n := resolvedIn(t, e); n != 0 {
		t.Fatalf("%d phases resolved by a pass that could not read the mailbox", n)
	}
	t.Setenv("SKAGERRAK_IMAP_PASSWORD", "pw")
	if code, out, errs := run(t, "--config", cfg, "poll", "--once"); code != 0 {
		t.Fatalf("poll --once with the mailbox back: exit %d\n%s\n%s", code, out, errs)
	}
	if n := resolvedIn(t, e); n != 1 {
		t.Fatalf("%d phases resolved by the pass that read the mailbox; want T01", n)
	}
}

// resolvedIn is how many phases g000 of the env has resolved.
func resolvedIn(t *testing.T, e *hosttest.Env) int {
	t.Helper()
	h, err := adjudicator.OpenHost(e.DataDir(), adjudicator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g, err := h.Game("g000")
	if err != nil {
		t.Fatal(err)
	}
	return g.Resolved
}

// A deadline passes between two polls: an order the server received
// after it is refused as late by the next pass, which reads it before
// resolving, and the phase resolves with that side defaulted, its reply
// saying the order was late (not that the phase was already gone).
func TestOrderReceivedAfterTheDeadlineIsLate(t *testing.T) {
	d := newDeadlineEnv(t)
	d.at(d.deadline.Add(-time.Minute))
	if p, err := d.h.PollOnce(context.Background(), wiring.Inbox{Box: d.box}, nil); err != nil || d.game(t).Resolved != 0 {
		t.Fatalf("the poll before the deadline: %+v, %v", p, err)
	}
	d.orderAt(t, "allied", "advance 2", d.deadline.Add(-time.Second))
	d.orderAt(t, "german", "advance 3", d.deadline.Add(time.Second))
	d.at(d.deadline.Add(time.Minute))
	p, err := d.h.PollOnce(context.Background(), wiring.Inbox{Box: d.box}, nil)
	if err != nil || p.Accepted != 1 || p.Rejected != 1 {
		t.Fatalf("the poll after the deadline: %+v, %v; want allied's order accepted, german's refused", p, err)
	}
	g := d.game(t)
	if g.Resolved != 1 || !slices.Equal(g.History[0].Defaulted, []engine.Side{"german"}) {
		t.Fatalf("%d resolved, defaulted %v; want T01 resolved with german defaulted", g.Resolved, g.History[0].Defaulted)
	}
	want := "the mail reached the host's mail server at " + d.deadline.Add(time.Second).UTC().Format(time.RFC3339) + ", after phase T01's deadline"
	texts := d.mailTexts(t)
	if !strings.Contains(texts["german"], want) || strings.Contains(texts["german"], "owed by") {
		t.Errorf("german's reply does not say when its mail came and that it was late, or promises a time already past:\n%s", texts["german"])
	}
}
