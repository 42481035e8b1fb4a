package daemon

import (
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/loopback"
	"skagerrak/mail/smtpout"
)

// queuedMail counts the mail every game of a host still has to send, and
// the deliveries its logs record as failed for good.
func queuedMail(t *testing.T, h *adjudicator.Host) (queued, failed int) {
	t.Helper()
	for _, id := range h.Games() {
		g, err := h.Game(id)
		if err != nil {
			t.Fatal(err)
		}
		queued += len(g.Outbox)
		failed += len(g.Failed)
	}
	return queued, failed
}

// The SMTP server refuses the host's login (a password changed on the
// server, mistyped in secrets.env): that says nothing of any mail, so no
// mail is marked failed for good; every one stays queued, one session
// shows the refusal and nothing more is tried that pass, and the pass's
// error names the server and the login. Mended, everything goes.
func TestSMTPLoginRefusedKeepsEveryMailQueued(t *testing.T) {
	e := hosttest.New(t, 3)
	srv, err := loopback.StartSMTP(loopback.SMTPOptions{Username: hosttest.HostAddr, Password: "right"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	for _, pw := range []string{"wrong", "right"} {
		ss, err := smtpout.New(smtpout.Config{Addr: srv.Addr(), TLS: smtpout.TLSNone, From: hosttest.HostAddr, Username: hosttest.HostAddr, Password: pw,
			Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
		if err != nil {
			t.Fatal(err)
		}
		s.Via = ss
		p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
		if err != nil {
			t.Fatal(err)
		}
		queued, failed := queuedMail(t, h)
		if pw == "wrong" {
			if p.Sent != 0 || queued != 6 || failed != 0 || p.Failures == 0 {
				t.Fatalf("login refused: sent %d, %d queued, %d failed for good, %d failures; want 0, 6, 0, some", p.Sent, queued, failed, p.Failures)
			}
			if msg := p.LastFailure.Error(); !strings.Contains(msg, srv.Addr()) || !strings.Contains(msg, "AUTH") {
				t.Errorf("the pass's error does not name the server and the login: %s", msg)
			}
			if n := srv.Sessions(); n > 1 {
				t.Errorf("%d sessions tried against a server refusing the login, want 1", n)
			}
			continue
		}
		if p.Sent != 6 || queued != 0 || failed != 0 || p.Failures != 0 {
			t.Fatalf("login mended: sent %d, %d queued, %d failed; want 6, 0, 0", p.Sent, queued, failed)
		}
	}
}

// closingListener accepts connections and closes them at once, counting
// them: an SMTP server that is down behind a load balancer.
type closingListener struct {
	l net.Listener
	n atomic.Int64
}

func startClosing(t *testing.T) *closingListener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &closingListener{l: l}
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			c.n.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() { l.Close() })
	return c
}

// With the SMTP server down, a pass does not try every game's mail in
// turn, each with its own retries and back-off (minutes of a pass during
// which no order is read, for a host with many games): after the first
// mail finds the server unreachable, nothing more is tried until the next
// pass, and nothing is marked failed.
func TestSMTPServerDownEndsThePassesSending(t *testing.T) {
	const games, attempts = 8, 2
	e := hosttest.New(t, games)
	down := startClosing(t)
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	ss, err := smtpout.New(smtpout.Config{Addr: down.l.Addr().String(), TLS: smtpout.TLSNone, From: hosttest.HostAddr, MaxAttempts: attempts,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	s.Via = ss
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil {
		t.Fatal(err)
	}
	queued, failed := queuedMail(t, h)
	if p.Sent != 0 || queued != 2*games || failed != 0 || p.Failures == 0 {
		t.Fatalf("server down: sent %d, %d queued, %d failed, %d failures; want 0, %d, 0, some", p.Sent, queued, failed, p.Failures, 2*games)
	}
	if n := down.n.Load(); n != attempts {
		t.Errorf("%d connections to a server that is down in one pass, want %d (one mail's attempts)", n, attempts)
	}
}
