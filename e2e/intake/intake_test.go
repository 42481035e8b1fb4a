package intake

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
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/smtpout"
)

func TestThousandMessagesDrainInOnePass(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	e := hosttest.New(t, 50)
	for i := 0; i < 1000; i++ {
		side := []string{"allied", "german"}[i%2]
		e.Order(t, (i/2)%50, side, "T01", fmt.Sprintf("advance %d # message %d", 1+i%3, i))
	}
	h, box, s := e.Open(t)
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil {
		t.Fatal(err)
	}
	if p.Messages != 1000 || p.Failures != 0 || p.Accepted+p.Rejected != 1000 {
		t.Fatalf("first pass: %+v", p)
	}
	if n := e.Count(t, "INBOX"); n != 0 {
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
	e := &hosttest.Env{Dir: os.Getenv("SKAGERRAK_TEST_DIR")}
	key, err := compose.ReadPrivateKey(strings.NewReader(os.Getenv("SKAGERRAK_TEST_HOSTKEY")))
	if err != nil {
		t.Fatal(err)
	}
	e.HostKey = key
	h, err := adjudicator.OpenHost(e.DataDir(), adjudicator.Options{Verifier: wiring.Verifier{}})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(e.DataDir(), ".imap"), 0o700)
	box, err := imapbox.Open(context.Background(), imapbox.Config{Addr: os.Getenv("SKAGERRAK_TEST_IMAP"), Username: hosttest.HostAddr, Password: "pw", TLS: imapbox.TLSNone, StateDir: filepath.Join(e.DataDir(), ".imap")})
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := smtpout.New(smtpout.Config{Addr: os.Getenv("SKAGERRAK_TEST_SMTP"), TLS: smtpout.TLSNone, From: hosttest.HostAddr})
	var in adjudicator.Inbox = wiring.Inbox{Box: box}
	var out adjudicator.Sender = &wiring.Sender{Via: ss, From: hosttest.HostAddr, Host: key, Clock: func() time.Time { return time.Now().UTC() }}
	in, out = daemontest.KilledAt(where, in, out)
	h.PollOnce(context.Background(), in, out)
	t.Fatal("the helper was not killed")
}

func runKilled(t *testing.T, e *hosttest.Env, where string) {
	t.Helper()
	priv, _ := compose.ArmorPrivateKey(e.HostKey)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcessKilled$")
	// A helper killed mid-way leaves its temporary files in the test's
	// directory, which the test removes, not in /tmp.
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir(), "SKAGERRAK_E2E_HELPER=1", "SKAGERRAK_TEST_KILL="+where, "SKAGERRAK_TEST_DIR="+e.Dir,
		"SKAGERRAK_TEST_HOSTKEY="+string(priv), "SKAGERRAK_TEST_IMAP="+e.IMAP.Addr(), "SKAGERRAK_TEST_SMTP="+e.SMTP.Addr())
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper was not killed: %v\n%s", err, out)
	}
}

func TestKilledBetweenAppendAndMove(t *testing.T) {
	e := hosttest.New(t, 1)
	// Deliver the first reports so that only the order is in play.
	h, box, s := e.Open(t)
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		t.Fatal(err)
	}
	box.Close()
	h.Close()
	e.Order(t, 0, "allied", "T01", "advance 2")
	runKilled(t, e, "before-move")
	if n := e.CountEvents(t, "g000", adjudicator.EvOrdersAccepted); n != 1 {
		t.Fatalf("after the kill: %d OrdersAccepted, want 1 (the append was durable)", n)
	}
	if e.Count(t, "INBOX") != 1 {
		t.Fatal("the message left the INBOX before its move")
	}
	h, box, s = e.Open(t)
	defer h.Close()
	defer box.Close()
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil {
		t.Fatal(err)
	}
	if p.Duplicates != 1 || p.Accepted != 0 {
		t.Fatalf("restart pass: %+v", p)
	}
	if n := e.CountEvents(t, "g000", adjudicator.EvOrdersAccepted); n != 1 {
		t.Fatalf("after restart: %d OrdersAccepted, want exactly 1", n)
	}
	if e.Count(t, "INBOX") != 0 || e.Count(t, hosttest.DefaultProcessed) != 1 {
		t.Fatalf("INBOX %d, processed %d", e.Count(t, "INBOX"), e.Count(t, hosttest.DefaultProcessed))
	}
}

func TestKilledAfterSMTPAcceptedResendsOnce(t *testing.T) {
	e := hosttest.New(t, 1)
	runKilled(t, e, "after-smtp")
	first := e.SMTP.Deliveries()
	if len(first) != 1 {
		t.Fatalf("%d deliveries before the kill, want 1", len(first))
	}
	id := hosttest.MessageID(first[0].Data)
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range e.SMTP.Deliveries() {
		if hosttest.MessageID(d.Data) == id {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("message %s delivered %d times, want 2 (one resend, same Message-ID)", id, n)
	}
	b, _ := os.ReadFile(filepath.Join(e.DataDir(), "g000", adjudicator.LogFile))
	if c := strings.Count(string(b), `"type":"MailSent","data":{"id":"`+strings.ReplaceAll(strings.ReplaceAll(id, "<", `\u003c`), ">", `\u003e`)); c != 1 {
		t.Fatalf("%d MailSent for %s, want 1", c, id)
	}
}

func TestKilledBeforeAppendProcessesOnRestart(t *testing.T) {
	e := hosttest.New(t, 1)
	e.Order(t, 0, "allied", "T01", "advance 2")
	runKilled(t, e, "after-fetch")
	if n := e.CountEvents(t, "g000", adjudicator.EvOrdersAccepted); n != 0 {
		t.Fatalf("%d OrdersAccepted before the append", n)
	}
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil || p.Accepted != 1 {
		t.Fatalf("restart: %+v %v", p, err)
	}
	if n := e.CountEvents(t, "g000", adjudicator.EvOrdersAccepted); n != 1 || e.Count(t, hosttest.DefaultProcessed) != 1 {
		t.Fatalf("after restart: %d accepted, %d processed", n, e.Count(t, hosttest.DefaultProcessed))
	}
}

// Hostile cases 4, 5, 6 and 8 of the intake, end to end: identity is the
// key, not the From: header; an unknown key gets no reply; an order for a
// game the signer does not play is rejected with the reason, answered only
// at the signer's registered address.
func TestHostileIdentityCases(t *testing.T) {
	e := hosttest.New(t, 2)
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		t.Fatal(err)
	}
	e.SMTP.Take("allied-0@players.test")
	e.SMTP.Take("german-0@players.test")
	allied0 := e.Players["allied-0@players.test"]
	send := func(k *openpgp.Entity, from, text string) {
		raw, err := compose.SignPGPMIMEMail(k, from, hosttest.HostAddr, "orders", text, time.Now().UTC())
		if err != nil {
			t.Fatal(err)
		}
		e.IMAP.Append(hosttest.HostAddr, "INBOX", raw)
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
	if n := len(e.SMTP.For("mallory@evil.test")) + len(e.SMTP.For("stranger@evil.test")); n != 0 {
		t.Errorf("%d mails to unregistered addresses", n)
	}
	got := e.SMTP.Take("allied-0@players.test")
	if len(got) != 2 {
		t.Fatalf("allied-0 got %d replies, want 2 (accepted, rejected)", len(got))
	}
	var texts []string
	for _, d := range got {
		r, err := compose.ReadReport(d.Data, openpgp.EntityList{e.HostKey}, nil, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, r.Text)
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "orders accepted") || !strings.Contains(all, `the order file is for game "g001"`) {
		t.Errorf("replies:\n%s", all)
	}
	if e.Count(t, hosttest.DefaultRejected) != 2 || e.Count(t, hosttest.DefaultProcessed) != 1 {
		t.Errorf("rejected %d, processed %d", e.Count(t, hosttest.DefaultRejected), e.Count(t, hosttest.DefaultProcessed))
	}
}
