package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/events/pgstore"
	"skagerrak/events/pgstore/pgtest"
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
	h, err := adjudicator.OpenStore(pgGames{s}, adjudicator.Options{Verifier: pgpVerifier{}})
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
	box, err := imapbox.Open(context.Background(), imapbox.Config{Addr: os.Getenv("SKAGERRAK_TEST_IMAP"), Username: hostAddr, Password: "pw", TLS: imapbox.TLSNone, StateDir: state, MaxFetch: 100, PollInterval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	ss, _ := smtpout.New(smtpout.Config{Addr: os.Getenv("SKAGERRAK_TEST_SMTP"), TLS: smtpout.TLSNone, From: hostAddr})
	out := &smtpSender{s: ss, from: hostAddr, host: key, clock: func() time.Time { return time.Now().UTC() }}
	ctx, stop := signalContext()
	defer stop()
	if err := h.Run(ctx, inbox{box}, nil, out, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

func signalContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM)
	go func() {
		<-ch
		cancel()
	}()
	return ctx, cancel
}

// Two daemon processes share one PostgreSQL and one mailbox and drain
// 1,000 signed messages for 100 games while one or the other is killed
// (SIGKILL) again and again: every message has exactly one outcome in the
// logs, every queued mail is marked sent exactly once, a Message-ID reaches
// its player twice only when a kill fell between the SMTP server's
// acceptance and the commit of MailSent (at most once per kill), and every
// game exports and verifies.
func TestTwoDaemonsKilledDrainOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	url := pgtest.URL(t)
	if _, err := pgstore.Migrate(context.Background(), url, pgstore.Options{}, nil); err != nil {
		t.Fatal(err)
	}
	const games, messages = 100, 1000
	e := newMailEnv(t, 0)
	h := pgHost(t, url)
	e.createGames(t, h, games)
	h.Close()
	for i := 0; i < messages; i++ {
		side := []string{"allied", "german"}[i%2]
		e.order(t, (i/2)%games, side, "T01", fmt.Sprintf("advance %d # message %d", 1+i%3, i))
	}
	priv, _ := compose.ArmorPrivateKey(e.hostKey)
	start := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperDaemon$")
		cmd.Env = append(os.Environ(), "SKAGERRAK_TEST_DAEMON=1", "SKAGERRAK_TEST_PGURL="+url,
			"SKAGERRAK_TEST_HOSTKEY="+string(priv), "SKAGERRAK_TEST_IMAP="+e.imap.Addr(), "SKAGERRAK_TEST_SMTP="+e.smtp.Addr())
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
	for kills < 6 && e.count(t, "INBOX") > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Duration(300+rnd.IntN(900)) * time.Millisecond)
		i := kills % 2
		daemons[i].Process.Signal(syscall.SIGKILL)
		daemons[i].Wait()
		kills++
		daemons[i] = start()
	}
	// Let them finish: the mailbox empty, every mail sent.
	for time.Now().Before(deadline) {
		if e.count(t, "INBOX") == 0 && queued(t, url) == 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, d := range daemons {
		d.Process.Signal(syscall.SIGTERM)
		d.Wait()
	}
	daemons = nil
	if n := e.count(t, "INBOX"); n != 0 {
		t.Fatalf("%d messages left in the INBOX", n)
	}
	if n := queued(t, url); n != 0 {
		t.Fatalf("%d mails still queued", n)
	}
	t.Logf("%d kills", kills)
	checkOnce(t, e, url, messages, kills)
}

// createGames makes n games of racetest, as newMailEnv does.
func (e *mailEnv) createGames(t *testing.T, h *adjudicator.Host, n int) {
	t.Helper()
	now := time.Now().UTC().Add(-time.Hour)
	for i := 0; i < n; i++ {
		spec := adjudicator.Spec{Game: fmt.Sprintf("g%03d", i), Ruleset: "racetest", HostFrom: hostAddr,
			Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
		for _, side := range []string{"allied", "german"} {
			addr := fmt.Sprintf("%s-%d@players.test", side, i)
			k, err := compose.GenerateKey(side, addr, now)
			if err != nil {
				t.Fatal(err)
			}
			pub, _ := compose.ArmorPublicKey(k)
			e.players[addr] = k
			spec.Players = append(spec.Players, adjudicator.Player{Side: engineSide(side), Address: addr, Key: string(pub), Fingerprint: compose.Fingerprint(k)})
		}
		if _, err := h.Create(spec); err != nil {
			t.Fatal(err)
		}
	}
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
func checkOnce(t *testing.T, e *mailEnv, url string, messages, kills int) {
	t.Helper()
	h := pgHost(t, url)
	defer h.Close()
	outcomes, keys := 0, map[string]bool{}
	sentIDs := map[string]int{}
	queuedIDs := map[string]bool{}
	dir := t.TempDir()
	for _, id := range h.Games() {
		l, err := h.Store().Open(id)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, id+".jsonl")
		f, _ := os.Create(path)
		if err := writeLog(f, l); err != nil {
			t.Fatal(err)
		}
		f.Close()
		l.Close()
		for ev, err := range (adjudicator.LogReader{Path: path}).Events(1) {
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				Key string `json:"key"`
				ID  string `json:"id"`
			}
			json.Unmarshal(ev.Data, &d)
			switch ev.Type {
			case adjudicator.EvOrdersAccepted, adjudicator.EvOrdersRejected:
				outcomes++
				if keys[d.Key] {
					t.Errorf("game %s: message %s has two outcomes", id, d.Key)
				}
				keys[d.Key] = true
			case adjudicator.EvMailQueued:
				queuedIDs[d.ID] = true
			case adjudicator.EvMailSent:
				sentIDs[d.ID]++
			}
		}
		if _, err := adjudicator.VerifyPath(path, pgpVerifier{}); err != nil {
			t.Errorf("game %s does not verify: %v", id, err)
		}
	}
	if outcomes != messages || len(keys) != messages {
		t.Errorf("%d outcomes of %d distinct messages, want %d of %d", outcomes, len(keys), messages, messages)
	}
	for id := range queuedIDs {
		if sentIDs[id] != 1 {
			t.Errorf("mail %s marked sent %d times", id, sentIDs[id])
		}
	}
	got := map[string]int{}
	for _, d := range e.smtp.Deliveries() {
		got[messageID(d.Data)]++
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
	t.Logf("%d mails, %d deliveries, %d second copies after %d kills", len(queuedIDs), len(e.smtp.Deliveries()), dups, kills)
	if dups > kills {
		t.Errorf("%d second copies of a Message-ID after %d kills: more than the kills explain", dups, kills)
	}
}
