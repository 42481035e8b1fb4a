package e2e

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/events/pgstore"
	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/daemontest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/smtpout"
	"skagerrak/mail/stacktest"
)

// stackEnv is a host on the interop suite's Dovecot and OpenSMTPD: its own
// mailbox, its games in files or in PostgreSQL, players' keys made with
// compose (their mail lands in the stack's german and allied mailboxes).
type stackEnv struct {
	s       *stacktest.Stack
	user    string // the host's mailbox
	dir     string
	pg      string // the store's URL, "" for files
	hostKey *openpgp.Entity
	keys    map[string]*openpgp.Entity // by side
	signed  map[string]time.Time
	log     *slog.Logger // the helper's, to its standard error
	env     []string     // more of the helper's environment
}

func newStackEnv(t *testing.T, s *stacktest.Stack, user, pg string) *stackEnv {
	t.Helper()
	// One daemon at a time: what it recorded and did not move before it
	// was killed is moved by the next at once (with PostgreSQL, after
	// DuplicateGrace), not minutes later.
	e := &stackEnv{s: s, user: user, dir: t.TempDir(), pg: pg, keys: map[string]*openpgp.Entity{}, signed: map[string]time.Time{},
		env: []string{"SKAGERRAK_TEST_DUP_GRACE=1ms"}}
	now := time.Now().UTC().Add(-time.Hour)
	var err error
	if e.hostKey, err = compose.GenerateKey("host", e.addr(), now); err != nil {
		t.Fatal(err)
	}
	for _, side := range []string{"german", "allied"} {
		if e.keys[side], err = compose.GenerateKey(side, side+"@"+s.Domain, now); err != nil {
			t.Fatal(err)
		}
	}
	if pg != "" {
		if _, err := pgstore.Migrate(context.Background(), pg, pgstore.Options{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e *stackEnv) addr() string { return e.user + "@" + e.s.Domain }

// host opens the env's store as a daemon does.
func (e *stackEnv) host(t testing.TB) *adjudicator.Host {
	t.Helper()
	o := adjudicator.Options{Verifier: wiring.Verifier{}, Senders: daemontest.Senders, Logger: e.log}
	// A helper may be told to give up a fetch sooner, and to move what
	// another daemon recorded sooner, than a host does (seconds, not
	// minutes, for a test).
	o.FetchTimeout, _ = time.ParseDuration(os.Getenv("SKAGERRAK_TEST_FETCH_TIMEOUT"))
	o.DuplicateGrace, _ = time.ParseDuration(os.Getenv("SKAGERRAK_TEST_DUP_GRACE"))
	var st adjudicator.Store
	var err error
	if e.pg != "" {
		var s *pgstore.Store
		if s, err = pgstore.Open(context.Background(), e.pg, pgstore.Options{MaxConns: 8}); err != nil {
			t.Fatal(err)
		}
		st = wiring.PostgresStore{Store: s}
	} else if st, err = adjudicator.NewFileStore(filepath.Join(e.dir, "games"), false); err != nil {
		t.Fatal(err)
	}
	h, err := adjudicator.OpenStore(st, o)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// createGames makes games of racetest, both sides played by the stack's
// german and allied users with the env's keys.
func (e *stackEnv) createGames(t *testing.T, ids ...string) {
	t.Helper()
	e.createGamesDue(t, 48*time.Hour, ids...)
}

// createGamesDue is createGames with the phases' deadline.
func (e *stackEnv) createGamesDue(t *testing.T, deadline time.Duration, ids ...string) {
	t.Helper()
	h := e.host(t)
	defer h.Close()
	for _, id := range ids {
		spec := adjudicator.Spec{Game: id, Ruleset: "racetest", HostFrom: e.addr(), Timing: adjudicator.Timing{Deadline: adjudicator.Duration(deadline)}}
		for _, side := range []string{"allied", "german"} {
			pub, _ := compose.ArmorPublicKey(e.keys[side])
			spec.Players = append(spec.Players, adjudicator.Player{Side: engine.Side(side), Address: side + "@" + e.s.Domain, Key: string(pub), Fingerprint: compose.Fingerprint(e.keys[side])})
		}
		if _, err := h.Create(spec); err != nil {
			t.Fatal(err)
		}
	}
}

// order mails signed orders of a side to the host through OpenSMTPD.
func (e *stackEnv) order(t *testing.T, game, side, body string) {
	t.Helper()
	e.s.Deliver(t, side+"@"+e.s.Domain, e.addr(), e.orderMail(t, game, side, body))
}

// orderMail is a signed mail of a side's orders for T01 of game.
func (e *stackEnv) orderMail(t *testing.T, game, side, body string) []byte {
	t.Helper()
	addr := side + "@" + e.s.Domain
	at := time.Now().UTC().Truncate(time.Second)
	if last, ok := e.signed[side]; ok && !at.After(last) {
		at = last.Add(time.Second)
	}
	e.signed[side] = at
	raw, err := compose.SignPGPMIMEMail(e.keys[side], addr, e.addr(), "orders "+game, fmt.Sprintf("Game: %s\nPhase: T01\nSide: %s\n%s\n", game, side, body), at)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// waitInbox waits until the host's INBOX holds n messages.
func (e *stackEnv) waitInbox(t *testing.T, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !stacktest.WaitFor(ctx, func() bool { return e.s.Count(t, e.user, "INBOX") == n }) {
		t.Fatalf("the host's INBOX holds %d, want %d\n%s", e.s.Count(t, e.user, "INBOX"), n, e.s.Log("smtpd.log"))
	}
}

// helper starts the helper process on the env: a pass (or the daemon) that
// kills itself at the point where ("" for none, "run" for the daemon).
func (e *stackEnv) helper(t *testing.T, where string) *exec.Cmd {
	t.Helper()
	priv, _ := compose.ArmorPrivateKey(e.hostKey)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperOnTheStack$")
	// A helper killed mid-way leaves its temporary files in the test's
	// directory, which the test removes, not in /tmp.
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir(), "SKAGERRAK_E2E_HELPER=1", "SKAGERRAK_TEST_STACK="+where, "SKAGERRAK_TEST_DIR="+e.dir, "SKAGERRAK_TEST_PGURL="+e.pg,
		"SKAGERRAK_TEST_HOSTKEY="+string(priv), "SKAGERRAK_TEST_IMAP="+e.s.IMAPAddr, "SKAGERRAK_TEST_USER="+e.addr(),
		"SKAGERRAK_TEST_PASS="+e.s.Password(e.addr()), "SKAGERRAK_TEST_SMTP="+e.s.SMTPAddr)
	cmd.Env = append(cmd.Env, e.env...)
	return cmd
}

// killedAt runs the helper's pass, which must die by SIGKILL at where.
func (e *stackEnv) killedAt(t *testing.T, where string) {
	t.Helper()
	out, err := e.helper(t, where).CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the pass was not killed at %s: %v\n%s", where, err, out)
	}
}

// pass runs one whole pass, as `skagerrak poll --once` does.
func (e *stackEnv) pass(t *testing.T) {
	t.Helper()
	if out, err := e.helper(t, "").CombinedOutput(); err != nil {
		t.Fatalf("a pass: %v\n%s", err, out)
	}
}

// The helper process of the stack's crash tests: one pass of a host on the
// stack, killed (SIGKILL) at SKAGERRAK_TEST_STACK, or the daemon ("run").
func TestHelperOnTheStack(t *testing.T) {
	where, ok := os.LookupEnv("SKAGERRAK_TEST_STACK")
	if !ok {
		t.Skip("helper process only")
	}
	key, err := compose.ReadPrivateKey(strings.NewReader(os.Getenv("SKAGERRAK_TEST_HOSTKEY")))
	if err != nil {
		t.Fatal(err)
	}
	e := &stackEnv{dir: os.Getenv("SKAGERRAK_TEST_DIR"), pg: os.Getenv("SKAGERRAK_TEST_PGURL"), log: slog.New(slog.NewTextHandler(os.Stderr, nil))}
	h := e.host(t)
	defer h.Close()
	state := filepath.Join(e.dir, "imap-state"+os.Getenv("SKAGERRAK_TEST_NAME"))
	os.MkdirAll(state, 0o700)
	box, err := imapbox.Open(context.Background(), imapbox.Config{Addr: os.Getenv("SKAGERRAK_TEST_IMAP"), Username: os.Getenv("SKAGERRAK_TEST_USER"),
		Password: os.Getenv("SKAGERRAK_TEST_PASS"), TLS: imapbox.TLSNone, StateDir: state, PollInterval: 200 * time.Millisecond, Logger: e.log})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	from := os.Getenv("SKAGERRAK_TEST_USER")
	ss, _ := smtpout.New(smtpout.Config{Addr: os.Getenv("SKAGERRAK_TEST_SMTP"), TLS: smtpout.TLSNone, From: from, Logger: e.log})
	pool := ss.Pool(2, 10)
	defer pool.Close()
	var in adjudicator.Inbox = wiring.Inbox{Box: box}
	var out adjudicator.Sender = &wiring.Sender{Via: pool, From: from, Host: key, Clock: func() time.Time { return time.Now().UTC() }}
	switch where {
	case "":
		p, err := h.PollOnce(context.Background(), in, out)
		if err != nil || p.Failures > 0 {
			t.Fatalf("pass: %+v %v", p, err)
		}
		return
	case "run":
		ctx, stop := daemontest.SignalContext()
		defer stop()
		if err := h.Run(ctx, in, box, out, 500*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		return
	}
	in, out = daemontest.KilledAt(where, in, out)
	h.PollOnce(context.Background(), in, out)
	t.Fatal("the helper was not killed")
}

// check asserts what nothing may break, whatever was killed where: the
// host's INBOX empty and every message in processed or rejected; each
// message recorded once (n in all); each queued mail marked sent exactly
// once and delivered to its player (a second copy only where dups allow:
// the kill fell between the server's acceptance and MailSent); every game
// verifying.
func (e *stackEnv) check(t *testing.T, messages, dups int) {
	t.Helper()
	if n := e.s.Count(t, e.user, "INBOX"); n != 0 {
		t.Errorf("%d messages left in the INBOX", n)
	}
	if n := e.moved(t); n != messages {
		t.Errorf("processed and rejected hold %d, want %d", n, messages)
	}
	tl := daemontest.TallyLogs(t, e.logs(t))
	tl.Once(t, messages)
	queued := tl.Queued
	// Delivery through OpenSMTPD into Dovecot takes a moment.
	delivered := map[string]int{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stacktest.WaitFor(ctx, func() bool {
		clear(delivered)
		for _, side := range []string{"german", "allied"} {
			for _, id := range e.deliveredIDs(t, side) {
				delivered[id]++
			}
		}
		for id := range queued {
			if delivered[id] == 0 {
				return false
			}
		}
		return true
	})
	extra := 0
	for id := range queued {
		switch n := delivered[id]; {
		case n == 0:
			t.Errorf("mail %s never reached its player", id)
		case n > 1:
			extra += n - 1
		}
	}
	t.Logf("%d messages recorded, %d mails queued, %d second copies delivered", len(tl.Outcomes), len(queued), extra)
	if extra > dups {
		t.Errorf("%d second copies delivered, want at most %d", extra, dups)
	}
}

// logs returns the path of every game's log: the file store's own, or
// each exported from the database.
func (e *stackEnv) logs(t *testing.T) []string {
	t.Helper()
	if e.pg == "" {
		dirs, err := adjudicator.GameDirs(filepath.Join(e.dir, "games"))
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range dirs {
			dirs[i] = filepath.Join(d, adjudicator.LogFile)
		}
		return dirs
	}
	h := e.host(t)
	defer h.Close()
	return daemontest.ExportLogs(t, h)
}

// deliveredIDs lists the Message-IDs in a player's INBOX that this env's
// games sent.
func (e *stackEnv) deliveredIDs(t *testing.T, side string) []string {
	t.Helper()
	c, err := imapclient.DialInsecure(e.s.IMAPAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	addr := side + "@" + e.s.Domain
	if err := c.Login(addr, e.s.Password(addr)).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	var all imap.SeqSet
	all.AddRange(1, 0)
	msgs, err := c.Fetch(all, &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		return nil // an empty mailbox
	}
	var ids []string
	for _, m := range msgs {
		if m.Envelope != nil && strings.HasPrefix(strings.Trim(m.Envelope.MessageID, "<>"), e.user+"-") {
			ids = append(ids, "<"+strings.Trim(m.Envelope.MessageID, "<>")+">")
		}
	}
	return ids
}

// Kill -9 at every step of a pass against the real servers, with the file
// store and with PostgreSQL: before the orders are appended, after the
// append and before the move, after the move, before the first mail goes,
// and after the MTA accepted it but before MailSent. A pass after each
// kill finishes the work: nothing accepted is lost, nothing recorded
// twice, every mail reaches its player, a second copy only after the last
// kill point, and every game verifies.
func TestKilledAtEachStepOnTheStack(t *testing.T) {
	t.Parallel()
	stacktest.Require(t, "dovecot", "smtpd")
	points := []string{"after-fetch", "before-move", "after-move", "before-smtp", "after-smtp"}
	var users []string
	for i := range 2 * len(points) {
		users = append(users, fmt.Sprintf("host%d", i))
	}
	s := stacktest.Start(t, "skagerrak.test", append(users, "german", "allied"), nil)
	i := 0
	for _, store := range []string{"file", "postgres"} {
		for _, where := range points {
			t.Run(store+"/"+where, func(t *testing.T) {
				pg := ""
				if store == "postgres" {
					pg = pgtest.URL(t)
				}
				e := newStackEnv(t, s, users[i], pg)
				i++
				game := e.user + "-g"
				e.createGames(t, game)
				e.pass(t) // the first reports
				e.order(t, game, "german", "advance 2")
				e.order(t, game, "allied", "advance 1")
				e.waitInbox(t, 2)
				e.killedAt(t, where)
				e.pass(t)
				e.pass(t)
				dups := 0
				if where == "after-smtp" {
					dups = 1
				}
				e.check(t, 2, dups)
			})
		}
	}
}

// daemon is the helper process running the daemon on an env, its log
// kept.
type daemon struct {
	cmd *exec.Cmd
	log *daemontest.SyncBuffer
	end chan error
}

func (e *stackEnv) startDaemon(t *testing.T) *daemon {
	t.Helper()
	d := &daemon{cmd: e.helper(t, "run"), log: &daemontest.SyncBuffer{}, end: make(chan error, 1)}
	d.cmd.Stdout, d.cmd.Stderr = d.log, d.log
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.end <- d.cmd.Wait() }()
	t.Cleanup(func() { d.cmd.Process.Kill() })
	return d
}

// cpu is the processor time the daemon has used.
func (d *daemon) cpu(t *testing.T) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", d.cmd.Process.Pid))
	if err != nil {
		return 0 // gone
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	var ut, st int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &st)
	return time.Duration(ut+st) * time.Second / 100 // clock ticks
}

// stop ends the daemon with SIGTERM and waits for it.
func (d *daemon) stop(t *testing.T) {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.end:
	case <-time.After(time.Minute):
		t.Fatalf("the daemon did not stop on SIGTERM:\n%s", d.log.String())
	}
}

// drained waits until the host has moved all of the messages sent to it
// (the MTA delivers them a moment after they are sent) out of its INBOX
// and no game has mail to send.
func (e *stackEnv) drained(t *testing.T, d *daemon, messages int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if e.moved(t) >= messages && e.s.Count(t, e.user, "INBOX") == 0 && e.queued(t) == 0 {
			return
		}
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatalf("not drained: %d of %d messages moved, INBOX %d, %d mails queued\n%s", e.moved(t), messages, e.s.Count(t, e.user, "INBOX"), e.queued(t), d.log.String())
}

// moved counts the messages in the host's processed and rejected folders.
func (e *stackEnv) moved(t *testing.T) int {
	return e.s.Count(t, e.user, "skagerrak.processed") + max(e.s.Count(t, e.user, "skagerrak.rejected"), 0)
}

// queued counts the mail the games still have to send, reading the logs
// (a running daemon holds the file store's).
func (e *stackEnv) queued(t *testing.T) int {
	t.Helper()
	n := 0
	for _, path := range e.logs(t) {
		g, err := adjudicator.Replay(adjudicator.LogReader{Path: path}, false)
		if err != nil {
			t.Fatal(err)
		}
		n += len(g.Outbox)
	}
	return n
}

// The daemon killed (SIGKILL) again and again during a burst of orders and
// reports against the real servers, with the file store and with
// PostgreSQL, restarted each time: every message is recorded once, every
// mail marked sent once and delivered, second copies only as the kills
// explain, every game verifies.
func TestDaemonKilledDuringABurstOnTheStack(t *testing.T) {
	t.Parallel()
	stacktest.Require(t, "dovecot", "smtpd")
	s := stacktest.Start(t, "skagerrak.test", []string{"burst0", "burst1", "german", "allied"}, nil)
	const games, kills = 10, 3
	for i, store := range []string{"file", "postgres"} {
		t.Run(store, func(t *testing.T) {
			pg := ""
			if store == "postgres" {
				pg = pgtest.URL(t)
			}
			e := newStackEnv(t, s, fmt.Sprintf("burst%d", i), pg)
			var ids []string
			for g := range games {
				ids = append(ids, fmt.Sprintf("%s-g%02d", e.user, g))
			}
			e.createGames(t, ids...)
			for _, id := range ids {
				e.order(t, id, "german", "advance 2")
				e.order(t, id, "allied", "advance 1")
			}
			e.waitInbox(t, 2*games)
			rnd := time.Now().UnixNano()
			for k := range kills {
				d := e.startDaemon(t)
				time.Sleep(time.Duration(200+(rnd>>uint(k*7))%700) * time.Millisecond)
				d.cmd.Process.Signal(syscall.SIGKILL)
				<-d.end
			}
			d := e.startDaemon(t)
			e.drained(t, d, 2*games)
			d.stop(t)
			e.check(t, 2*games, kills*daemontest.Senders)
		})
	}
}

// Dovecot stopped while the daemon waits in IDLE, and started again: the
// daemon says the connection was lost, waits with a growing delay (no
// spinning: a few log lines and a little CPU while the server is gone),
// connects again once it is back and takes the orders sent meanwhile.
func TestDovecotRestartedMidIdle(t *testing.T) {
	t.Parallel()
	stacktest.Require(t, "dovecot", "smtpd")
	s := stacktest.Start(t, "skagerrak.test", []string{"idle", "german", "allied"}, nil)
	e := newStackEnv(t, s, "idle", "")
	e.createGames(t, "idle-g")
	d := e.startDaemon(t)
	daemontest.WaitLog(t, d.log, "pass")
	time.Sleep(time.Second) // in IDLE
	s.StopDovecot()
	lines, cpu := d.log.Lines(), d.cpu(t)
	time.Sleep(8 * time.Second)
	lines, cpu = d.log.Lines()-lines, d.cpu(t)-cpu
	t.Logf("8 s without Dovecot: %d log lines, %s of CPU", lines, cpu)
	if lines > 12 || cpu > time.Second {
		t.Errorf("the daemon spun while Dovecot was down: %d log lines, %s of CPU in 8 s\n%s", lines, cpu, d.log.String())
	}
	if !strings.Contains(d.log.String(), "connection lost") {
		t.Errorf("the daemon did not say the connection was lost:\n%s", d.log.String())
	}
	s.StartDovecot()
	e.order(t, "idle-g", "german", "advance 2")
	e.order(t, "idle-g", "allied", "advance 1")
	e.drained(t, d, 2)
	d.stop(t)
	e.check(t, 2, 0)
}

// PostgreSQL stopped in the middle of a burst (as a restart of the
// database or a failover does) and started again: the daemon says what is
// wrong, naming the database, and neither spins nor loses or doubles
// anything; once the database is back (and the daemon restarted where it
// had to exit, as systemd's Restart=on-failure does) the work is finished.
func TestPostgresRestartedMidBurst(t *testing.T) {
	t.Parallel()
	stacktest.Require(t, "dovecot", "smtpd")
	c := pgtest.Private(t) // halted and started again: a cluster of its own
	s := stacktest.Start(t, "skagerrak.test", []string{"pgdown", "german", "allied"}, nil)
	e := newStackEnv(t, s, "pgdown", c.NewDatabase(t))
	const games = 10
	var ids []string
	for g := range games {
		ids = append(ids, fmt.Sprintf("pgdown-g%02d", g))
	}
	e.createGames(t, ids...)
	for _, id := range ids {
		e.order(t, id, "german", "advance 2")
		e.order(t, id, "allied", "advance 1")
	}
	e.waitInbox(t, 2*games)
	d := e.startDaemon(t)
	daemontest.WaitLog(t, d.log, "status=accepted")
	restart := halt(t, c)
	lines, cpu := d.log.Lines(), d.cpu(t)
	time.Sleep(6 * time.Second)
	lines, cpu = d.log.Lines()-lines, d.cpu(t)-cpu
	exited := false
	select {
	case <-d.end:
		exited = true
		log := strings.Split(strings.TrimSpace(d.log.String()), "\n")
		t.Logf("the daemon exited; its last words:\n%s", strings.Join(log[max(0, len(log)-3):], "\n"))
	default:
	}
	t.Logf("6 s without PostgreSQL: %d log lines, %s of CPU; the daemon exited: %v", lines, cpu, exited)
	if lines > 12 || cpu > time.Second {
		t.Errorf("the daemon spun while PostgreSQL was down: %d log lines, %s of CPU\n%s", lines, cpu, d.log.String())
	}
	if !strings.Contains(d.log.String(), "pgstore") {
		t.Errorf("the daemon does not say the database is at fault:\n%s", d.log.String())
	}
	restart()
	if exited {
		d = e.startDaemon(t)
	}
	e.drained(t, d, 2*games)
	d.stop(t)
	e.check(t, 2*games, daemontest.Senders)
}

// PostgreSQL stopped while the daemon idles (no append in flight, so
// nothing makes it exit): each pass stops at the first call the database
// cannot answer, saying so in one line, and the passes come further and
// further apart (one, two, four seconds...), so 8 s without the database
// take a handful of lines; orders sent meanwhile stay in the mailbox and
// are taken once the database is back, without a restart.
func TestPostgresDownWhileIdle(t *testing.T) {
	t.Parallel()
	stacktest.Require(t, "dovecot", "smtpd")
	c := pgtest.Private(t) // halted and started again: a cluster of its own
	s := stacktest.Start(t, "skagerrak.test", []string{"pgidle", "german", "allied"}, nil)
	e := newStackEnv(t, s, "pgidle", c.NewDatabase(t))
	e.createGames(t, "pgidle-g")
	d := e.startDaemon(t)
	daemontest.WaitLog(t, d.log, "pass")
	time.Sleep(time.Second)
	restart := halt(t, c)
	e.order(t, "pgidle-g", "german", "advance 2")
	e.order(t, "pgidle-g", "allied", "advance 1")
	lines, cpu := d.log.Lines(), d.cpu(t)
	time.Sleep(8 * time.Second)
	lines, cpu = d.log.Lines()-lines, d.cpu(t)-cpu
	t.Logf("8 s without PostgreSQL: %d log lines, %s of CPU\n%s", lines, cpu, d.log.String())
	select {
	case <-d.end:
		t.Fatalf("the daemon exited with no append in flight:\n%s", d.log.String())
	default:
	}
	// Passes 1, 2 and 4 s apart: at most five in 8 s, two lines each.
	if lines > 10 || cpu > time.Second {
		t.Errorf("the daemon spun while PostgreSQL was down: %d log lines, %s of CPU in 8 s\n%s", lines, cpu, d.log.String())
	}
	if !strings.Contains(d.log.String(), "the store cannot be reached") {
		t.Errorf("the daemon did not say the store cannot be reached:\n%s", d.log.String())
	}
	if n := e.s.Count(t, e.user, "INBOX"); n != 2 {
		t.Errorf("%d messages in the INBOX while the database was down, want both orders there", n)
	}
	restart()
	e.drained(t, d, 2)
	d.stop(t)
	e.check(t, 2, 0)
}

// halt stops the cluster's server as an operator's restart does (every
// session ended, what was not committed rolled back) and returns what
// starts it again; the test's end starts it if nothing did.
func halt(t *testing.T, c *pgtest.Cluster) (restart func()) {
	t.Helper()
	if err := c.Halt("fast"); err != nil {
		t.Fatal(err)
	}
	down := true
	t.Cleanup(func() {
		if down {
			c.Start()
		}
	})
	return func() {
		t.Helper()
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		down = false
	}
}
