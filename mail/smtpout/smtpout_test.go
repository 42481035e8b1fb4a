package smtpout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"skagerrak/mail/loopback"
)

const (
	user = "umpire"
	pass = "s3cret"
	from = "umpire@skagerrak.test"
	to   = "kriegsmarine@example.org"
)

var raw = []byte("From: umpire@skagerrak.test\r\nTo: kriegsmarine@example.org\r\nSubject: Report, turn 3\r\nMessage-ID: <r3@skagerrak.test>\r\n\r\nYour U-boats sighted a convoy.\r\n.leading dot survives\r\n")

func startSMTP(t *testing.T, opts loopback.SMTPOptions) *loopback.SMTPServer {
	t.Helper()
	srv, err := loopback.StartSMTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// sleeps records the delays Send asks for, without waiting.
type sleeps []time.Duration

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	*s = append(*s, d)
	return ctx.Err()
}

func newSender(t *testing.T, cfg Config, sl *sleeps) *Sender {
	t.Helper()
	if cfg.Sleep == nil && sl != nil {
		cfg.Sleep = sl.sleep
	}
	if cfg.Jitter == nil {
		cfg.Jitter = rand.NewPCG(3, 4)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 5 * time.Second
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestSendUsesAuthAndDeliversBytes(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{Username: user, Password: pass})
	var sl sleeps
	s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSNone, Username: user, Password: pass, From: from}, &sl)
	if err := s.Send(ctx(t), "", []string{to}, raw); err != nil {
		t.Fatal(err)
	}
	got := srv.For(to)
	if len(got) != 1 {
		t.Fatalf("%d deliveries, want 1", len(got))
	}
	d := got[0]
	if d.AuthUser != user {
		t.Errorf("AUTH not used: session user %q", d.AuthUser)
	}
	if d.From != from || len(d.To) != 1 || d.To[0] != to {
		t.Errorf("envelope %s -> %v", d.From, d.To)
	}
	if !bytes.Equal(d.Data, raw) {
		t.Errorf("bytes changed in transit:\n%q\nwant\n%q", d.Data, raw)
	}
	if len(sl) != 0 {
		t.Errorf("slept %v on a clean send", sl)
	}
}

// Case 33: 4xx, 4xx, then success gives exactly one delivery.
func TestTemporaryFailuresThenOneDelivery(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{})
	srv.FailNext(2, 451, "try again later")
	var sl sleeps
	s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSNone, BackoffInitial: time.Second, BackoffMax: time.Minute}, &sl)
	if err := s.Send(ctx(t), from, []string{to}, raw); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Deliveries()); n != 1 {
		t.Fatalf("%d deliveries, want exactly 1", n)
	}
	if n := srv.Attempts(); n != 3 {
		t.Errorf("%d DATA attempts, want 3", n)
	}
	if len(sl) != 2 {
		t.Fatalf("slept %d times, want 2", len(sl))
	}
	if sl[0] < 500*time.Millisecond || sl[0] > time.Second || sl[1] < time.Second || sl[1] > 2*time.Second {
		t.Errorf("backoff delays %v: want about 1s then about 2s", sl)
	}
}

func TestTemporaryFailuresExhaustAttempts(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{})
	srv.FailNext(10, 421, "service busy")
	var sl sleeps
	s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSNone, MaxAttempts: 3}, &sl)
	err := s.Send(ctx(t), from, []string{to}, raw)
	var te *TemporaryError
	if !errors.As(err, &te) {
		t.Fatalf("got %v, want *TemporaryError", err)
	}
	if te.Attempts != 3 || te.Code != 421 || te.Message != "service busy" || te.Unreachable() {
		t.Errorf("TemporaryError %+v (a 4xx to DATA is this message's, not the server's)", te)
	}
	if n := len(srv.Deliveries()); n != 0 {
		t.Errorf("%d deliveries after only failures", n)
	}
	if len(sl) != 2 {
		t.Errorf("slept %d times, want 2", len(sl))
	}
}

func TestPermanentFailureNotRetried(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{})
	srv.FailNext(1, 554, "transaction failed")
	var sl sleeps
	s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSNone}, &sl)
	err := s.Send(ctx(t), from, []string{to}, raw)
	var pe *PermanentError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want *PermanentError", err)
	}
	if pe.Code != 554 || pe.Message != "transaction failed" || pe.Enhanced != "5.0.0" {
		t.Errorf("PermanentError %+v", pe)
	}
	if srv.Attempts() != 1 || len(sl) != 0 {
		t.Errorf("a 5xx was retried: %d attempts, slept %v", srv.Attempts(), sl)
	}
	if !strings.HasPrefix(err.Error(), "smtpout: ") {
		t.Errorf("error %q lacks the package prefix", err)
	}
}

// A login or a sender the server refuses says nothing about the message:
// it is a *SessionError, never a *PermanentError (which would mark the
// mail failed for good), and it is not retried.
func TestRefusedLoginOrSenderIsASessionError(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{Username: user, Password: pass})
	for _, c := range []struct {
		name, user, stage string
		code              int
	}{
		{"wrong password", user, "AUTH", 535},
		{"no login where one is required", "", "MAIL FROM", 530},
	} {
		var sl sleeps
		s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSNone, Username: c.user, Password: "wrong"}, &sl)
		err := s.Send(ctx(t), from, []string{to}, raw)
		var se *SessionError
		var pe *PermanentError
		if !errors.As(err, &se) || errors.As(err, &pe) || se.Stage != c.stage || se.Code != c.code {
			t.Fatalf("%s: got %v, want a %d *SessionError at %s", c.name, err, c.code, c.stage)
		}
		if !strings.Contains(err.Error(), srv.Addr()) || len(sl) != 0 {
			t.Errorf("%s: %q does not name the server, or was retried (%d)", c.name, err, len(sl))
		}
	}
	if len(srv.Deliveries()) != 0 {
		t.Error("delivered without authentication")
	}
}

func TestConnectionFailureIsTemporary(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var sl sleeps
	s := newSender(t, Config{Addr: addr, TLS: TLSNone, MaxAttempts: 4}, &sl)
	err = s.Send(ctx(t), from, []string{to}, raw)
	var te *TemporaryError
	if !errors.As(err, &te) || te.Attempts != 4 || te.Code != 0 || !te.Unreachable() {
		t.Fatalf("got %v, want a *TemporaryError after 4 attempts without a code, the server unreachable", err)
	}
	if len(sl) != 3 {
		t.Errorf("slept %d times, want 3", len(sl))
	}
}

func TestContextEndsBackoff(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{})
	srv.FailNext(10, 450, "mailbox busy")
	c, cancel := context.WithCancel(context.Background())
	s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSNone, MaxAttempts: 10,
		Sleep: func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }}, nil)
	err := s.Send(c, from, []string{to}, raw)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if srv.Attempts() != 1 {
		t.Errorf("%d attempts after cancellation, want 1", srv.Attempts())
	}
}

func TestTLSModes(t *testing.T) {
	serverTLS, clientTLS, err := loopback.SelfSignedTLS()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{TLSStartTLS, TLSImplicit} {
		t.Run(mode, func(t *testing.T) {
			srv := startSMTP(t, loopback.SMTPOptions{Username: user, Password: pass, TLSConfig: serverTLS, ImplicitTLS: mode == TLSImplicit})
			s := newSender(t, Config{Addr: srv.Addr(), TLS: mode, TLSConfig: clientTLS, Username: user, Password: pass}, &sleeps{})
			if err := s.Send(ctx(t), from, []string{to, "second@example.org"}, raw); err != nil {
				t.Fatal(err)
			}
			got := srv.For("second@example.org")
			if len(got) != 1 || !got[0].TLS || got[0].AuthUser != user || !bytes.Equal(got[0].Data, raw) {
				t.Fatalf("delivery over %s: %+v", mode, got)
			}

			// A certificate the client does not trust: refused at once.
			var sl sleeps
			bad := newSender(t, Config{Addr: srv.Addr(), TLS: mode, Username: user, Password: pass}, &sl)
			err := bad.Send(ctx(t), from, []string{to}, raw)
			var se *SessionError
			if !errors.As(err, &se) || len(sl) != 0 {
				t.Fatalf("untrusted certificate: %v after %d retries, want a *SessionError at once", err, len(sl))
			}
		})
	}
}

func TestStartTLSRequiredButMissing(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{})
	var sl sleeps
	s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSStartTLS}, &sl)
	err := s.Send(ctx(t), from, []string{to}, raw)
	if err == nil || len(sl) != 0 || len(srv.Deliveries()) != 0 {
		t.Fatalf("server without STARTTLS: err %v, %d retries, %d deliveries", err, len(sl), len(srv.Deliveries()))
	}
}

func TestConfigAndArguments(t *testing.T) {
	if _, err := New(Config{Addr: "192.0.2.1:25", TLS: TLSNone, Username: user, Password: pass}); err == nil {
		t.Error("a password in the clear to a remote host was accepted")
	}
	if _, err := New(Config{Addr: "[::1]:25", TLS: TLSNone, Username: user, Password: pass}); err != nil {
		t.Errorf("loopback in the clear refused: %v", err)
	}
	for _, cfg := range []Config{{}, {Addr: "nohost"}, {Addr: "127.0.0.1:25", TLS: "ssl"}} {
		if _, err := New(cfg); err == nil || !strings.HasPrefix(err.Error(), "smtpout: ") {
			t.Errorf("config %+v: %v", cfg, err)
		}
	}
	s := newSender(t, Config{Addr: "127.0.0.1:25", TLS: TLSNone}, &sleeps{})
	if err := s.Send(ctx(t), from, nil, raw); err == nil {
		t.Error("Send with no recipients succeeded")
	}
	if err := s.Send(ctx(t), from, []string{"a@b\r\nRCPT TO:<x@y>"}, raw); err == nil {
		t.Error("an address with CRLF was accepted")
	}
}

// A connection that dies before the server answers is temporary: the next
// attempt, on a new connection, delivers exactly once.
func TestDroppedConnectionRetried(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		first := true
		for {
			down, err := ln.Accept()
			if err != nil {
				return
			}
			if first {
				first = false
				down.Write([]byte("220 localhost ESMTP\r\n"))
				down.Close() // gone right after the greeting
				continue
			}
			up, err := net.Dial("tcp", srv.Addr())
			if err != nil {
				down.Close()
				continue
			}
			go func() { copyClose(up, down) }()
			go func() { copyClose(down, up) }()
		}
	}()
	var sl sleeps
	s := newSender(t, Config{Addr: ln.Addr().String(), TLS: TLSNone}, &sl)
	if err := s.Send(ctx(t), from, []string{to}, raw); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Deliveries()); n != 1 || len(sl) != 1 {
		t.Fatalf("%d deliveries after %d retries, want 1 after 1", n, len(sl))
	}
}

func copyClose(dst, src net.Conn) {
	buf := make([]byte, 4096)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			dst.Write(buf[:n])
		}
		if err != nil {
			dst.Close()
			src.Close()
			return
		}
	}
}

// Concurrent sends share one Sender (and its jitter source) safely, and each
// message is delivered once.
func TestConcurrentSends(t *testing.T) {
	srv := startSMTP(t, loopback.SMTPOptions{})
	srv.FailNext(4, 451, "busy")
	s := newSender(t, Config{Addr: srv.Addr(), TLS: TLSNone, MaxAttempts: 10,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}, nil)
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			errs <- s.Send(ctx(t), from, []string{fmt.Sprintf("p%d@example.org", i)}, raw)
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i := range 8 {
		if n := len(srv.For(fmt.Sprintf("p%d@example.org", i))); n != 1 {
			t.Errorf("recipient %d got %d messages, want 1", i, n)
		}
	}
}
