package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/internal/daemontest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/loopback"
	"skagerrak/mail/smtpout"
)

// mailEnv is a host wired to real loopback IMAP and SMTP servers, with
// real keys, as the daemon is wired.
type mailEnv struct {
	dir     string
	imap    *loopback.IMAPServer
	smtp    *loopback.SMTPServer
	hostKey *openpgp.Entity
	players map[string]*openpgp.Entity // by address
	signed  map[string]time.Time       // when each address last signed
}

const hostAddr = "host@skagerrak.test"

func newMailEnv(t testing.TB, games int) *mailEnv {
	t.Helper()
	return newMailEnvWith(t, games, loopback.IMAPOptions{})
}

// newMailEnvWith is newMailEnv with the IMAP server's options.
func newMailEnvWith(t testing.TB, games int, opts loopback.IMAPOptions) *mailEnv {
	t.Helper()
	e := &mailEnv{dir: t.TempDir(), players: map[string]*openpgp.Entity{}, signed: map[string]time.Time{}}
	var err error
	opts.Users = append(opts.Users, loopback.IMAPUser{Username: hostAddr, Password: "pw"})
	if e.imap, err = loopback.StartIMAP(opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.imap.Close() })
	if e.smtp, err = loopback.StartSMTP(loopback.SMTPOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.smtp.Close() })
	now := time.Now().UTC().Add(-time.Hour)
	if e.hostKey, err = compose.GenerateKey("host", hostAddr, now); err != nil {
		t.Fatal(err)
	}
	h, err := adjudicator.OpenHost(e.dataDir(), adjudicator.Options{Verifier: wiring.Verifier{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	e.createGames(t, h, games)
	return e
}

func (e *mailEnv) dataDir() string { return filepath.Join(e.dir, "games") }

// open opens the host and its mail as `skagerrak poll` does (the same
// verifier and triage of automatic mail).
func (e *mailEnv) open(t testing.TB) (*adjudicator.Host, *imapbox.Box, *wiring.Sender) {
	t.Helper()
	h, err := adjudicator.OpenHost(e.dataDir(), adjudicator.Options{Verifier: wiring.Verifier{}, Triage: wiring.Triage{}})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(e.dataDir(), ".imap"), 0o700)
	box, err := imapbox.Open(context.Background(), imapbox.Config{Addr: e.imap.Addr(), Username: hostAddr, Password: "pw", TLS: imapbox.TLSNone, StateDir: filepath.Join(e.dataDir(), ".imap"), MaxFetch: 500})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := smtpout.New(smtpout.Config{Addr: e.smtp.Addr(), TLS: smtpout.TLSNone, From: hostAddr})
	if err != nil {
		t.Fatal(err)
	}
	return h, box, &wiring.Sender{Via: ss, From: hostAddr, Host: e.hostKey, Clock: func() time.Time { return time.Now().UTC() }}
}

// The folders the box makes by default on go-imap's in-memory server,
// whose hierarchy delimiter is "/".
const (
	defaultProcessed = "skagerrak/processed"
	defaultRejected  = "skagerrak/rejected"
)

// order mails a signed order file of a player into the host's INBOX.
func (e *mailEnv) order(t testing.TB, game int, side, phase, body string) {
	t.Helper()
	addr := fmt.Sprintf("%s-%d@players.test", side, game)
	text := fmt.Sprintf("Game: g%03d\nPhase: %s\nSide: %s\n%s\n", game, phase, side, body)
	raw, err := compose.SignPGPMIMEMail(e.players[addr], addr, hostAddr, "orders", text, e.signAt(addr))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.imap.Append(hostAddr, "INBOX", raw); err != nil {
		t.Fatal(err)
	}
}

// signAt is when an address signs its next message: now, or a second
// after its last (a key's messages count in the order signed, to the
// second, and a test sends faster than that).
func (e *mailEnv) signAt(addr string) time.Time {
	at := time.Now().UTC().Truncate(time.Second)
	if e.signed == nil {
		e.signed = map[string]time.Time{}
	}
	if last, ok := e.signed[addr]; ok && !at.After(last) {
		at = last.Add(time.Second)
	}
	e.signed[addr] = at
	return at
}

func (e *mailEnv) count(t testing.TB, folder string) int {
	t.Helper()
	ms, err := e.imap.Messages(hostAddr, folder)
	if err != nil {
		return 0
	}
	return len(ms)
}

func TestThousandMessagesDrainInOnePass(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	e := newMailEnv(t, 50)
	for i := 0; i < 1000; i++ {
		side := []string{"allied", "german"}[i%2]
		e.order(t, (i/2)%50, side, "T01", fmt.Sprintf("advance %d # message %d", 1+i%3, i))
	}
	h, box, s := e.open(t)
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil {
		t.Fatal(err)
	}
	if p.Messages != 1000 || p.Failures != 0 || p.Accepted+p.Rejected != 1000 {
		t.Fatalf("first pass: %+v", p)
	}
	if n := e.count(t, "INBOX"); n != 0 {
		t.Fatalf("%d messages left in INBOX", n)
	}
	p, err = h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil || p.Messages != 0 || p.Sent != 0 {
		t.Fatalf("second pass did something: %+v %v", p, err)
	}
	box.Close()
	h.Close()
}

// The helper process: a poll that is killed (SIGKILL) at a chosen point.
func TestHelperProcessKilled(t *testing.T) {
	where := os.Getenv("SKAGERRAK_TEST_KILL")
	if where == "" {
		t.Skip("helper process only")
	}
	e := &mailEnv{dir: os.Getenv("SKAGERRAK_TEST_DIR")}
	key, err := compose.ReadPrivateKey(strings.NewReader(os.Getenv("SKAGERRAK_TEST_HOSTKEY")))
	if err != nil {
		t.Fatal(err)
	}
	e.hostKey = key
	h, err := adjudicator.OpenHost(e.dataDir(), adjudicator.Options{Verifier: wiring.Verifier{}})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(e.dataDir(), ".imap"), 0o700)
	box, err := imapbox.Open(context.Background(), imapbox.Config{Addr: os.Getenv("SKAGERRAK_TEST_IMAP"), Username: hostAddr, Password: "pw", TLS: imapbox.TLSNone, StateDir: filepath.Join(e.dataDir(), ".imap")})
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := smtpout.New(smtpout.Config{Addr: os.Getenv("SKAGERRAK_TEST_SMTP"), TLS: smtpout.TLSNone, From: hostAddr})
	var in adjudicator.Inbox = wiring.Inbox{Box: box}
	var out adjudicator.Sender = &wiring.Sender{Via: ss, From: hostAddr, Host: key, Clock: func() time.Time { return time.Now().UTC() }}
	in, out = daemontest.KilledAt(where, in, out)
	h.PollOnce(context.Background(), in, out)
	t.Fatal("the helper was not killed")
}

func runKilled(t *testing.T, e *mailEnv, where string) {
	t.Helper()
	priv, _ := compose.ArmorPrivateKey(e.hostKey)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcessKilled$")
	// A helper killed mid-way leaves its temporary files in the test's
	// directory, which the test removes, not in /tmp.
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir(), "SKAGERRAK_TEST_KILL="+where, "SKAGERRAK_TEST_DIR="+e.dir,
		"SKAGERRAK_TEST_HOSTKEY="+string(priv), "SKAGERRAK_TEST_IMAP="+e.imap.Addr(), "SKAGERRAK_TEST_SMTP="+e.smtp.Addr())
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper was not killed: %v\n%s", err, out)
	}
}

func countEvents(t *testing.T, e *mailEnv, game, typ string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.dataDir(), game, adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), `"type":"`+typ+`"`)
}

func TestKilledBetweenAppendAndMove(t *testing.T) {
	e := newMailEnv(t, 1)
	// Deliver the first reports so that only the order is in play.
	h, box, s := e.open(t)
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		t.Fatal(err)
	}
	box.Close()
	h.Close()
	e.order(t, 0, "allied", "T01", "advance 2")
	runKilled(t, e, "before-move")
	if n := countEvents(t, e, "g000", adjudicator.EvOrdersAccepted); n != 1 {
		t.Fatalf("after the kill: %d OrdersAccepted, want 1 (the append was durable)", n)
	}
	if e.count(t, "INBOX") != 1 {
		t.Fatal("the message left the INBOX before its move")
	}
	h, box, s = e.open(t)
	defer h.Close()
	defer box.Close()
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil {
		t.Fatal(err)
	}
	if p.Duplicates != 1 || p.Accepted != 0 {
		t.Fatalf("restart pass: %+v", p)
	}
	if n := countEvents(t, e, "g000", adjudicator.EvOrdersAccepted); n != 1 {
		t.Fatalf("after restart: %d OrdersAccepted, want exactly 1", n)
	}
	if e.count(t, "INBOX") != 0 || e.count(t, defaultProcessed) != 1 {
		t.Fatalf("INBOX %d, processed %d", e.count(t, "INBOX"), e.count(t, defaultProcessed))
	}
}

func TestKilledAfterSMTPAcceptedResendsOnce(t *testing.T) {
	e := newMailEnv(t, 1)
	runKilled(t, e, "after-smtp")
	first := e.smtp.Deliveries()
	if len(first) != 1 {
		t.Fatalf("%d deliveries before the kill, want 1", len(first))
	}
	id := messageID(first[0].Data)
	h, box, s := e.open(t)
	defer h.Close()
	defer box.Close()
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range e.smtp.Deliveries() {
		if messageID(d.Data) == id {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("message %s delivered %d times, want 2 (one resend, same Message-ID)", id, n)
	}
	b, _ := os.ReadFile(filepath.Join(e.dataDir(), "g000", adjudicator.LogFile))
	if c := strings.Count(string(b), `"type":"MailSent","data":{"id":"`+strings.ReplaceAll(strings.ReplaceAll(id, "<", `\u003c`), ">", `\u003e`)); c != 1 {
		t.Fatalf("%d MailSent for %s, want 1", c, id)
	}
}

func messageID(raw []byte) string {
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(strings.ToLower(l), "message-id:") {
			return strings.TrimSpace(l[len("message-id:"):])
		}
	}
	return ""
}

func loadGame(e *mailEnv, id string) (*adjudicator.Game, error) {
	return adjudicator.LoadGame(filepath.Join(e.dataDir(), id))
}

// smtpoutForTest is a sender to the env's SMTP server that retries a 4xx
// at once (no real backoff in tests).
func smtpoutForTest(e *mailEnv) (*smtpout.Sender, error) {
	return smtpout.New(smtpout.Config{Addr: e.smtp.Addr(), TLS: smtpout.TLSNone, From: hostAddr, MaxAttempts: 3,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
}

func TestKilledBeforeAppendProcessesOnRestart(t *testing.T) {
	e := newMailEnv(t, 1)
	e.order(t, 0, "allied", "T01", "advance 2")
	runKilled(t, e, "after-fetch")
	if n := countEvents(t, e, "g000", adjudicator.EvOrdersAccepted); n != 0 {
		t.Fatalf("%d OrdersAccepted before the append", n)
	}
	h, box, s := e.open(t)
	defer h.Close()
	defer box.Close()
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil || p.Accepted != 1 {
		t.Fatalf("restart: %+v %v", p, err)
	}
	if n := countEvents(t, e, "g000", adjudicator.EvOrdersAccepted); n != 1 || e.count(t, defaultProcessed) != 1 {
		t.Fatalf("after restart: %d accepted, %d processed", n, e.count(t, defaultProcessed))
	}
}

// Hostile cases 4, 5, 6 and 8 of the intake, end to end: identity is the
// key, not the From: header; an unknown key gets no reply; an order for a
// game the signer does not play is rejected with the reason, answered only
// at the signer's registered address.
func TestHostileIdentityCases(t *testing.T) {
	e := newMailEnv(t, 2)
	h, box, s := e.open(t)
	defer h.Close()
	defer box.Close()
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		t.Fatal(err)
	}
	e.smtp.Take("allied-0@players.test")
	e.smtp.Take("german-0@players.test")
	allied0 := e.players["allied-0@players.test"]
	send := func(k *openpgp.Entity, from, text string) {
		raw, err := compose.SignPGPMIMEMail(k, from, hostAddr, "orders", text, time.Now().UTC())
		if err != nil {
			t.Fatal(err)
		}
		e.imap.Append(hostAddr, "INBOX", raw)
	}
	// 4/5: a spoofed From: the orders are allied-0's; the reply goes to its registered address.
	send(allied0, "Mallory <mallory@evil.test>", "Game: g000\nPhase: T01\nSide: allied\nadvance 2\n")
	// 6: a good signature by a key no game knows.
	stranger, _ := compose.GenerateKey("stranger", "stranger@evil.test", time.Now().Add(-time.Hour))
	send(stranger, "stranger@evil.test", "Game: g000\nPhase: T01\nSide: german\nadvance 3\n")
	// 8: allied-0 signs orders for game g001, where it has no side.
	send(allied0, "allied-0@players.test", "Game: g001\nPhase: T01\nSide: allied\nadvance 1\n")
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil {
		t.Fatal(err)
	}
	if p.Accepted != 1 || p.Rejected != 2 {
		t.Fatalf("pass: %+v", p)
	}
	if n := len(e.smtp.For("mallory@evil.test")) + len(e.smtp.For("stranger@evil.test")); n != 0 {
		t.Errorf("%d mails to unregistered addresses", n)
	}
	got := e.smtp.Take("allied-0@players.test")
	if len(got) != 2 {
		t.Fatalf("allied-0 got %d replies, want 2 (accepted, rejected)", len(got))
	}
	var texts []string
	for _, d := range got {
		r, err := compose.ReadReport(d.Data, openpgp.EntityList{e.hostKey}, nil, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, r.Text)
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "orders accepted") || !strings.Contains(all, `the order file is for game "g001"`) {
		t.Errorf("replies:\n%s", all)
	}
	if e.count(t, defaultRejected) != 2 || e.count(t, defaultProcessed) != 1 {
		t.Errorf("rejected %d, processed %d", e.count(t, defaultRejected), e.count(t, defaultProcessed))
	}
}
