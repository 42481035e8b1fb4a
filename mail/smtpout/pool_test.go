package smtpout

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"skagerrak/mail/loopback"
)

// Twenty messages sent at once over a pool of 2 sessions of 5 messages
// each: every one arrives, over 20/5 = 4 full sessions, or 5 when the
// last two were opened side by side and share the last 10 (each session
// carries 5 before it is closed; no more than 2 are open at once).
func TestPoolSendsOverFewSessions(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{Username: user, Password: pass})
	s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSNone, Username: user, Password: pass, From: from}, nil)
	p := s.Pool(2, 5)
	defer p.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg := bytes.Replace(raw, []byte("<r3@"), []byte(fmt.Sprintf("<r3-%d@", i)), 1)
			errs <- p.Send(ctx(t), "", []string{to}, msg)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := srv.For(to)
	if len(got) != 20 {
		t.Fatalf("%d deliveries, want 20", len(got))
	}
	for _, d := range got {
		if !bytes.Contains(d.Data, []byte("\r\n..leading dot survives")) && !bytes.Contains(d.Data, []byte(".leading dot survives")) {
			t.Fatalf("message body changed: %q", d.Data)
		}
	}
	if n := srv.Sessions(); n < 4 || n > 5 {
		t.Errorf("%d sessions, want 4 or 5 (20 messages, 5 a session, 2 at once)", n)
	}
}

// A session the server dropped while it sat idle is replaced at once: the
// message goes over a new one, with no retry counted.
func TestPoolReplacesASessionDroppedWhileIdle(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{})
	var sl sleeps
	s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSNone, From: from, MaxAttempts: 1}, &sl)
	p := s.Pool(1, 100)
	defer p.Close()
	if err := p.Send(ctx(t), "", []string{to}, raw); err != nil {
		t.Fatal(err)
	}
	p.idle[0].raw.Close() // as if the server had timed it out
	if err := p.Send(ctx(t), "", []string{to}, raw); err != nil {
		t.Fatalf("send after the idle session died: %v", err)
	}
	if n := len(srv.For(to)); n != 2 || len(sl) != 0 || srv.Sessions() != 2 {
		t.Fatalf("%d deliveries, %d back-offs, %d sessions; want 2, 0, 2", n, len(sl), srv.Sessions())
	}
}
