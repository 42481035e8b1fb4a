package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/events/pgstore"
	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/daemontest"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/smtpout"
)

// pgHost opens a host on the database at url.
func pgHost(t testing.TB, url string) *adjudicator.Host {
	t.Helper()
	s, err := pgstore.Open(context.Background(), url, pgstore.Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	o := adjudicator.Options{Verifier: wiring.Verifier{}, Senders: daemontest.Senders}
	o.DuplicateGrace, _ = time.ParseDuration(os.Getenv("SKAGERRAK_TEST_DUP_GRACE"))
	h, err := adjudicator.OpenStore(wiring.PostgresStore{Store: s}, o)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// The helper process: one daemon on the database SKAGERRAK_TEST_PGURL, the
// test's mailbox and SMTP server, until it is killed or told to stop.
func TestHelperDaemon(t *testing.T) {
	url := os.Getenv("SKAGERRAK_TEST_PGURL")
	if url == "" || os.Getenv("SKAGERRAK_TEST_DAEMON") == "" {
		t.Skip("helper process only")
	}
	key, err := compose.ReadPrivateKey(strings.NewReader(os.Getenv("SKAGERRAK_TEST_HOSTKEY")))
	if err != nil {
		t.Fatal(err)
	}
	h := pgHost(t, url)
	defer h.Close()
	state := t.TempDir()
	box, err := imapbox.Open(context.Background(), imapbox.Config{Addr: os.Getenv("SKAGERRAK_TEST_IMAP"), Username: hosttest.HostAddr, Password: "pw", TLS: imapbox.TLSNone, StateDir: state, MaxFetch: 100, PollInterval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	ss, _ := smtpout.New(smtpout.Config{Addr: os.Getenv("SKAGERRAK_TEST_SMTP"), TLS: smtpout.TLSNone, From: hosttest.HostAddr})
	pool := ss.Pool(2, 10)
	defer pool.Close()
	out := &wiring.Sender{Via: pool, From: hosttest.HostAddr, Host: key, Clock: func() time.Time { return time.Now().UTC() }}
	ctx, stop := daemontest.SignalContext()
	defer stop()
	if err := h.Run(ctx, wiring.Inbox{Box: box}, nil, out, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// Two daemon processes share one PostgreSQL and one mailbox and drain
// 1,000 signed messages for 100 games while one or the other is killed
// (SIGKILL) again and again: every message has exactly one outcome in the
// logs, every queued mail is marked sent exactly once, a Message-ID reaches
// its player twice only when a kill fell between the SMTP server's
// acceptance and the commit of MailSent (at most one mail for each game
// the killed daemon was sending at once, daemontest.Senders, a kill), and every
// game exports and verifies.
func TestTwoDaemonsKilledDrainOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("short")
	}
	url := pgtest.URL(t)
	if _, err := pgstore.Migrate(context.Background(), url, pgstore.Options{}, nil); err != nil {
		t.Fatal(err)
	}
	const games, messages = 100, 1000
	e := hosttest.New(t, 0)
	h := pgHost(t, url)
	e.CreateGames(t, h, games)
	h.Close()
	for i := 0; i < messages; i++ {
		side := []string{"allied", "german"}[i%2]
		e.Order(t, (i/2)%games, side, "T01", fmt.Sprintf("advance %d # message %d", 1+i%3, i))
	}
	priv, _ := compose.ArmorPrivateKey(e.HostKey)
	start := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperDaemon$")
		// What a killed daemon recorded and did not move, the other moves
		// after DuplicateGrace: seconds here, not minutes.
		cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir(), "SKAGERRAK_E2E_HELPER=1", "SKAGERRAK_TEST_DAEMON=1", "SKAGERRAK_TEST_PGURL="+url, "SKAGERRAK_TEST_DUP_GRACE=3s",
			"SKAGERRAK_TEST_HOSTKEY="+string(priv), "SKAGERRAK_TEST_IMAP="+e.IMAP.Addr(), "SKAGERRAK_TEST_SMTP="+e.SMTP.Addr())
		cmd.Stderr = os.Stderr
		if testing.Verbose() {
			cmd.Stdout = os.Stdout
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	daemons := []*exec.Cmd{start(), start()}
	defer func() {
		for _, d := range daemons {
			d.Process.Kill()
			d.Wait()
		}
	}()
	kills := 0
	rnd := rand.New(rand.NewPCG(15, 2))
	deadline := time.Now().Add(4 * time.Minute)
	for kills < 6 && e.Count(t, "INBOX") > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Duration(300+rnd.IntN(900)) * time.Millisecond)
		i := kills % 2
		daemons[i].Process.Signal(syscall.SIGKILL)
		daemons[i].Wait()
		kills++
		daemons[i] = start()
	}
	// Let them finish: the mailbox empty, every mail sent.
	for time.Now().Before(deadline) {
		if e.Count(t, "INBOX") == 0 && queued(t, url) == 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, d := range daemons {
		d.Process.Signal(syscall.SIGTERM)
		d.Wait()
	}
	daemons = nil
	if n := e.Count(t, "INBOX"); n != 0 {
		t.Fatalf("%d messages left in the INBOX", n)
	}
	if n := queued(t, url); n != 0 {
		t.Fatalf("%d mails still queued", n)
	}
	t.Logf("%d kills", kills)
	checkOnce(t, e, url, messages, kills)
}

// queued counts the mails of every game not yet sent or failed.
func queued(t *testing.T, url string) int {
	h := pgHost(t, url)
	defer h.Close()
	n := 0
	for _, id := range h.Games() {
		g, _ := h.Game(id)
		n += len(g.Outbox)
	}
	return n
}

// checkOnce checks what the daemons left: one outcome per message, one
// MailSent per queued mail, duplicates of a Message-ID only as the kills
// explain, and every game exporting a log that verifies.
func checkOnce(t *testing.T, e *hosttest.Env, url string, messages, kills int) {
	t.Helper()
	h := pgHost(t, url)
	defer h.Close()
	tl := daemontest.TallyLogs(t, daemontest.ExportLogs(t, h))
	tl.Once(t, messages)
	queuedIDs := tl.Queued
	got := map[string]int{}
	for _, d := range e.SMTP.Deliveries() {
		got[hosttest.MessageID(d.Data)]++
	}
	dups := 0
	for id := range queuedIDs {
		switch n := got[id]; {
		case n == 0:
			t.Errorf("mail %s never reached its player", id)
		case n > 1:
			dups += n - 1
		}
	}
	t.Logf("%d mails, %d deliveries, %d second copies after %d kills", len(queuedIDs), len(e.SMTP.Deliveries()), dups, kills)
	if dups > kills*daemontest.Senders {
		t.Errorf("%d second copies of a Message-ID after %d kills: more than the kills explain (%d sending at once)", dups, kills, daemontest.Senders)
	}
}

// Mail of many games sent at once over a small pool: every queued mail
// reaches its player exactly once and is marked sent exactly once, each
// game's mail in the order it was queued.
func TestParallelFlushSendsEachMailOnce(t *testing.T) {
	e := hosttest.New(t, 40)
	h, err := adjudicator.OpenHost(e.DataDir(), adjudicator.Options{Verifier: wiring.Verifier{}, Senders: 6})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ss, err := smtpout.New(smtpout.Config{Addr: e.SMTP.Addr(), TLS: smtpout.TLSNone, From: hosttest.HostAddr})
	if err != nil {
		t.Fatal(err)
	}
	pool := ss.Pool(3, 7)
	defer pool.Close()
	s := &wiring.Sender{Via: pool, From: hosttest.HostAddr, Host: e.HostKey, Clock: func() time.Time { return time.Now().UTC() }}
	n, err := h.Flush(context.Background(), s)
	if err != nil || n != 80 {
		t.Fatalf("flush: %d sent, %v; want 80", n, err)
	}
	got := map[string]int{}
	last := map[string]string{}
	for _, d := range e.SMTP.Deliveries() {
		id := hosttest.MessageID(d.Data)
		got[id]++
		game := strings.SplitN(strings.TrimPrefix(id, "<"), ".", 2)[0]
		if prev := last[game]; prev > id {
			t.Errorf("game %s: %s sent after %s", game, id, prev)
		}
		last[game] = id
	}
	if len(got) != 80 {
		t.Fatalf("%d distinct Message-IDs delivered, want 80", len(got))
	}
	for id, k := range got {
		if k != 1 {
			t.Errorf("%s delivered %d times", id, k)
		}
	}
	if n := e.SMTP.Sessions(); n < 80/7 || n > 80/7+3 {
		t.Errorf("%d SMTP sessions for 80 mails, 7 a session over 3 at once", n)
	}
	for _, id := range h.Games() {
		g, _ := h.Game(id)
		if len(g.Outbox) != 0 {
			t.Errorf("game %s: %d mails still queued", id, len(g.Outbox))
		}
	}
	if n, _ := h.Flush(context.Background(), s); n != 0 {
		t.Fatalf("a second flush sent %d", n)
	}
}

// The routing edge of several daemons: a referee gives a side another key
// while two daemons route mail signed by the old one. A key registered in
// g1 and g2 signs orders for g1; daemon A accepts them; through daemon B
// the referee registers another key for that side of g1; the same message
// reaching B (both fetched it) is a duplicate of A's record, not a second
// outcome in g2. A new message signed by the old key, routed by A before
// it has seen the change and by B after, is recorded in one game at most.
func TestKeyMovedWhileTwoDaemonsRouteTheSameMessage(t *testing.T) {
	url := pgtest.URL(t)
	if _, err := pgstore.Migrate(context.Background(), url, pgstore.Options{}, nil); err != nil {
		t.Fatal(err)
	}
	e := hosttest.New(t, 0)
	now := time.Now().UTC().Add(-time.Hour)
	keys := map[string]*openpgp.Entity{}
	for _, who := range []string{"german", "allied", "german2"} {
		k, err := compose.GenerateKey(who, who+"@players.test", now)
		if err != nil {
			t.Fatal(err)
		}
		keys[who] = k
	}
	player := func(side, who string) adjudicator.Player {
		pub, _ := compose.ArmorPublicKey(keys[who])
		return adjudicator.Player{Side: engine.Side(side), Address: who + "@players.test", Key: string(pub), Fingerprint: compose.Fingerprint(keys[who])}
	}
	a, b := pgHost(t, url), pgHost(t, url)
	defer a.Close()
	defer b.Close()
	for _, id := range []string{"g1", "g2"} {
		spec := adjudicator.Spec{Game: id, Ruleset: "racetest", HostFrom: hosttest.HostAddr, Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)},
			Players: []adjudicator.Player{player("german", "german"), player("allied", "allied")}}
		if _, err := a.Create(spec); err != nil {
			t.Fatal(err)
		}
	}
	mail := func(body string) []byte {
		raw, err := compose.SignPGPMIMEMail(keys["german"], "german@players.test", hosttest.HostAddr, "orders", "Game: g1\nPhase: T01\nSide: german\n"+body+"\n", e.SignAt("german@players.test"))
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	first := mail("advance 1")
	if r, err := a.Receive(first); err != nil || r.Status != adjudicator.StatusAccepted || r.Game != "g1" {
		t.Fatalf("daemon A: %+v %v", r, err)
	}
	if err := b.Refresh(); err != nil {
		t.Fatal(err)
	}
	moved := player("german", "german2")
	if err := b.Referee("g1", adjudicator.Command{Name: "key", Player: &moved, By: "referee", Why: "a new key"}); err != nil {
		t.Fatal(err)
	}
	if r, err := b.Receive(first); err != nil || r.Status != adjudicator.StatusDuplicate {
		t.Fatalf("daemon B, the same message after the key moved: %+v %v, want a duplicate of A's record", r, err)
	}
	// A has not seen the change; B has.
	second := mail("advance 2")
	ra, err := a.Receive(second)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Receive(second)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("second message: A %s in %q, B %s in %q", ra.Status, ra.Game, rb.Status, rb.Game)
	signer := player("german", "german").Key
	if n := recordsOf(t, url, first, signer); n != 1 {
		t.Errorf("the first message is recorded %d times, want once", n)
	}
	if n := recordsOf(t, url, second, signer); n > 1 {
		t.Errorf("the second message is recorded %d times, want once at most", n)
	}
}

// recordsOf counts the outcomes recorded for a message in every game of
// the database: each record naming the canonical key of its signed part
// (signer is the armored public key it was signed with).
func recordsOf(t *testing.T, url string, raw []byte, signer string) int {
	t.Helper()
	ks, err := wiring.Verifier{}.Keys([]string{signer})
	if err != nil {
		t.Fatal(err)
	}
	v, err := wiring.Verifier{}.VerifyMail(raw, ks, time.Now())
	if err != nil || v.Key == "" {
		t.Fatalf("the message does not verify: %v", err)
	}
	h := pgHost(t, url)
	defer h.Close()
	n := 0
	for _, id := range h.Games() {
		l, err := h.Store().Open(id)
		if err != nil {
			t.Fatal(err)
		}
		for ev, err := range l.Events(1) {
			if err != nil {
				t.Fatal(err)
			}
			if (ev.Type == adjudicator.EvOrdersAccepted || ev.Type == adjudicator.EvOrdersRejected) && strings.Contains(string(ev.Data), v.Key) {
				n++
			}
		}
		l.Close()
	}
	return n
}
