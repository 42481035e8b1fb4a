package smtpout

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"skagerrak/mail/internal/netutil"
)

// Transport security modes for Config.TLS.
const (
	// TLSNone is a plain TCP connection. Credentials are only sent over it
	// when the server is on a loopback address.
	TLSNone = "none"
	// TLSStartTLS upgrades a plain connection with STARTTLS (port 587). A
	// server that does not offer STARTTLS is not used.
	TLSStartTLS = "starttls"
	// TLSImplicit speaks TLS from the first byte (port 465).
	TLSImplicit = "tls"
)

// Defaults used when the matching Config field is zero.
const (
	// DefaultMaxAttempts is the default of Config.MaxAttempts.
	DefaultMaxAttempts = 5
	// DefaultBackoffInitial is the default of Config.BackoffInitial.
	DefaultBackoffInitial = 2 * time.Second
	// DefaultBackoffMax is the default of Config.BackoffMax.
	DefaultBackoffMax = 2 * time.Minute
	// DefaultTimeout is the default of Config.Timeout.
	DefaultTimeout = 2 * time.Minute
	// DefaultHelo is the default of Config.Helo.
	DefaultHelo = "localhost"
)

// Config says where and how to submit mail.
type Config struct {
	// Addr is host:port of the submission server.
	Addr string
	// Username and Password, when Username is set, are sent with AUTH PLAIN.
	Username, Password string
	// TLS is one of TLSNone, TLSStartTLS or TLSImplicit; empty means
	// TLSStartTLS.
	TLS string
	// From is the envelope sender used when Send is given none.
	From string
	// TLSConfig overrides the TLS client configuration (tests set RootCAs).
	// ServerName defaults to the host of Addr.
	TLSConfig *tls.Config
	// Helo is the name given in EHLO; empty means "localhost".
	Helo string

	// MaxAttempts bounds the attempts of one Send (temporary failures are
	// retried); zero means DefaultMaxAttempts.
	MaxAttempts int
	// BackoffInitial and BackoffMax shape the delays between attempts: about
	// BackoffInitial first, doubling, never above BackoffMax.
	BackoffInitial, BackoffMax time.Duration
	// Timeout bounds connecting and each command's answer, the final answer
	// to DATA included.
	Timeout time.Duration
	// Jitter is the random source of the backoff jitter; nil uses
	// math/rand/v2's global source.
	Jitter rand.Source
	// Sleep waits between attempts; nil uses a timer. It must return early
	// with ctx.Err() when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger receives the sender's log; nil discards it.
	Logger *slog.Logger
}

// PermanentError is a 5xx answer: the server refuses the message and
// retrying will not change that. The caller records a failed delivery.
type PermanentError struct {
	// Code is the SMTP reply code (500-599).
	Code int
	// Enhanced is the enhanced status code (RFC 3463) such as "5.1.1", or
	// empty when the server gave none.
	Enhanced string
	// Message is the server's reply text.
	Message string
}

// Error describes the refusal with its codes and the server's text.
func (e *PermanentError) Error() string {
	if e.Enhanced != "" {
		return fmt.Sprintf("smtpout: permanent failure %d %s: %s", e.Code, e.Enhanced, e.Message)
	}
	return fmt.Sprintf("smtpout: permanent failure %d: %s", e.Code, e.Message)
}

// TemporaryError is what Send returns when every attempt failed with a 4xx
// answer or a connection failure. The message may be sent again later.
type TemporaryError struct {
	// Attempts is the number of attempts made.
	Attempts int
	// Code is the last SMTP reply code (400-499), or 0 when the last attempt
	// failed without an answer (connection refused, reset, timed out).
	Code int
	// Message is the last reply text, if any.
	Message string
	// Err is the last attempt's error.
	Err error
	// sessionOnly: every attempt failed before a message was handed over.
	sessionOnly bool
}

// Error describes the last failure and the number of attempts.
func (e *TemporaryError) Error() string {
	return fmt.Sprintf("smtpout: temporary failure after %d attempts: %v", e.Attempts, e.Err)
}

// Unwrap returns the last attempt's error.
func (e *TemporaryError) Unwrap() error { return e.Err }

// SessionError is a session no message could go over: the server refuses
// the login, the sender (MAIL FROM) or the session itself (a 5xx greeting
// or EHLO), or the connection cannot be secured (a certificate that does
// not verify, no STARTTLS, a password that would go out in the clear). It
// says nothing about the message: the caller keeps it, and every other,
// for when the configuration or the server is mended, and stops sending
// meanwhile. It is not retried.
type SessionError struct {
	// Addr is the server; Stage what failed ("AUTH", "MAIL FROM", "EHLO",
	// "TLS", ...).
	Addr, Stage string
	// Code is the server's reply code (500-599), or 0 for a local refusal.
	Code int
	// Err is the failure as it happened.
	Err error
}

// Error names the server and what it refused.
func (e *SessionError) Error() string {
	return fmt.Sprintf("smtpout: %s takes no mail from us (%s): %v", e.Addr, e.Stage, e.Err)
}

// Unwrap returns the failure as it happened.
func (e *SessionError) Unwrap() error { return e.Err }

// Unreachable reports whether every attempt of a temporary failure failed
// before the server took a message (no connection, no greeting, a 4xx to
// EHLO or the login): the server is down for every message, not this one.
func (e *TemporaryError) Unreachable() bool { return e.sessionOnly }

// dialError is a failure to open a session: nothing of a message was
// handed over yet. stage names what failed.
type dialError struct {
	stage string
	err   error
}

func (e *dialError) Error() string { return e.err.Error() }
func (e *dialError) Unwrap() error { return e.err }

// Sender submits messages to one server. It holds no connection between
// sends and is safe for concurrent use.
type Sender struct {
	cfg Config
	log *slog.Logger

	rndMu sync.Mutex // a rand.Rand is not safe for concurrent use
	rnd   func() float64
}

// jitter draws from the jitter source.
func (s *Sender) jitter() float64 {
	s.rndMu.Lock()
	defer s.rndMu.Unlock()
	return s.rnd()
}

// New checks cfg and returns a Sender.
func New(cfg Config) (*Sender, error) {
	if cfg.Addr == "" {
		return nil, errors.New("smtpout: Config.Addr is empty")
	}
	if _, _, err := net.SplitHostPort(cfg.Addr); err != nil {
		return nil, fmt.Errorf("smtpout: Config.Addr %q: %w", cfg.Addr, err)
	}
	switch cfg.TLS {
	case "":
		cfg.TLS = TLSStartTLS
	case TLSNone, TLSStartTLS, TLSImplicit:
	default:
		return nil, fmt.Errorf("smtpout: Config.TLS %q is not none, starttls or tls", cfg.TLS)
	}
	if cfg.TLS == TLSNone && cfg.Username != "" && !netutil.IsLoopback(cfg.Addr) {
		return nil, fmt.Errorf("smtpout: refusing to send a password without TLS to %s", cfg.Addr)
	}
	if cfg.Helo == "" {
		cfg.Helo = DefaultHelo
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.BackoffInitial <= 0 {
		cfg.BackoffInitial = DefaultBackoffInitial
	}
	if cfg.BackoffMax <= 0 {
		cfg.BackoffMax = DefaultBackoffMax
	}
	if cfg.BackoffMax < cfg.BackoffInitial {
		cfg.BackoffMax = cfg.BackoffInitial
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Sleep == nil {
		cfg.Sleep = netutil.Sleep
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Sender{cfg: cfg, log: cfg.Logger.With("component", "smtpout"), rnd: rand.Float64}
	if cfg.Jitter != nil {
		s.rnd = rand.New(cfg.Jitter).Float64
	}
	return s, nil
}

// Send submits raw (a complete RFC 5322 message, sent byte for byte but for
// line endings made CRLF and dot-stuffing) from the envelope sender from
// (Config.From when empty) to the envelope recipients to.
//
// A 4xx answer or a failed connection is retried after a backoff delay, up
// to Config.MaxAttempts attempts in all; after the last one Send returns a
// *TemporaryError. A 5xx answer ends it at once with a *PermanentError. A
// refused recipient aborts the whole transaction: either every recipient
// gets the message or none does.
//
// When the connection is lost after the message was handed over but before
// the server confirmed it, the next attempt sends it again: the recipient
// may get it twice, with the same Message-ID.
func (s *Sender) Send(ctx context.Context, from string, to []string, raw []byte) error {
	return s.send(ctx, from, to, raw, s.attempt)
}

// send is Send with the attempt to make each time.
func (s *Sender) send(ctx context.Context, from string, to []string, raw []byte, try func(context.Context, string, []string, []byte) error) error {
	if from == "" {
		from = s.cfg.From
	}
	if len(to) == 0 {
		return errors.New("smtpout: no recipients")
	}
	for _, a := range append([]string{from}, to...) {
		if strings.ContainsAny(a, "\r\n<>") {
			return fmt.Errorf("smtpout: address %q contains CR, LF or angle brackets", a)
		}
	}
	log := s.log.With("from", from, "to", to, "bytes", len(raw))
	sessionOnly := true
	for attempt := 1; ; attempt++ {
		err := try(ctx, from, to, raw)
		if err == nil {
			log.Info("sent", "attempt", attempt)
			return nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("smtpout: send: %w", ctxErr)
		}
		var serr *smtp.SMTPError
		isSMTP := errors.As(err, &serr)
		var de *dialError
		var mf *mailFromError
		inSession := errors.As(err, &de)
		stage := ""
		switch {
		case inSession:
			stage = de.stage
		case errors.As(err, &mf):
			stage = "MAIL FROM"
		default:
			sessionOnly = false
		}
		if stage != "" && isSMTP && serr.Code >= 500 {
			se := &SessionError{Addr: s.cfg.Addr, Stage: stage, Code: serr.Code, Err: err}
			log.Warn("the server refuses the session", "stage", stage, "code", serr.Code, "reply", serr.Message)
			return se
		}
		if isSMTP && serr.Code >= 500 {
			perm := &PermanentError{Code: serr.Code, Message: serr.Message}
			if ec := serr.EnhancedCode; ec != smtp.EnhancedCodeNotSet && ec != smtp.NoEnhancedCode {
				perm.Enhanced = fmt.Sprintf("%d.%d.%d", ec[0], ec[1], ec[2])
			}
			log.Warn("permanent failure", "code", serr.Code, "reply", serr.Message)
			return perm
		}
		var fatal *fatalError
		if errors.As(err, &fatal) {
			return &SessionError{Addr: s.cfg.Addr, Stage: fatal.stage, Err: fatal.err}
		}
		var cv *tls.CertificateVerificationError
		if errors.As(err, &cv) {
			// After STARTTLS the handshake happens on the first command.
			return &SessionError{Addr: s.cfg.Addr, Stage: "TLS", Err: err}
		}
		if attempt >= s.cfg.MaxAttempts {
			te := &TemporaryError{Attempts: attempt, Err: err, sessionOnly: sessionOnly}
			if isSMTP {
				te.Code, te.Message = serr.Code, serr.Message
			}
			log.Warn("giving up for now", "attempts", attempt, "err", err)
			return te
		}
		d := netutil.Backoff(attempt, s.cfg.BackoffInitial, s.cfg.BackoffMax, s.jitter)
		log.Warn("temporary failure, retrying", "attempt", attempt, "delay", d, "err", err)
		if err := s.cfg.Sleep(ctx, d); err != nil {
			return fmt.Errorf("smtpout: send: %w", err)
		}
	}
}

// fatalError is a local failure that no retry can mend (a certificate that
// does not verify, a refusal to authenticate in the clear).
type fatalError struct {
	stage string
	err   error
}

func (e *fatalError) Error() string { return e.err.Error() }

// attempt makes one SMTP session: connect, secure, authenticate, submit.
func (s *Sender) attempt(ctx context.Context, from string, to []string, raw []byte) error {
	c, err := s.dial(ctx)
	if err != nil {
		return err // a *dialError
	}
	defer c.close()
	if raw == nil {
		return c.c.Quit() // Check: connected, secured and logged in
	}
	if err := c.transact(ctx, from, to, raw); err != nil {
		return err
	}
	if err := c.c.Quit(); err != nil {
		// The message is accepted; a failed QUIT changes nothing.
		s.log.Debug("QUIT failed after acceptance", "err", err)
	}
	return nil
}

// conn is an open SMTP session, secured and authenticated.
type conn struct {
	c    *smtp.Client
	raw  net.Conn
	sent int // messages accepted over it
}

func (c *conn) close() {
	c.c.Close()
	c.raw.Close()
}

// dial connects, secures and authenticates one session. Its errors are
// *dialError, naming the stage that failed.
func (s *Sender) dial(ctx context.Context) (*conn, error) {
	cfg := s.cfg
	host, _, _ := net.SplitHostPort(cfg.Addr)
	tlsConfig := &tls.Config{}
	if cfg.TLSConfig != nil {
		tlsConfig = cfg.TLSConfig.Clone()
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName = host
	}
	dctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(dctx, "tcp", cfg.Addr)
	if err != nil {
		return nil, &dialError{"connect", fmt.Errorf("smtpout: dial %s: %w", cfg.Addr, err)}
	}
	raw := nc
	stop := context.AfterFunc(ctx, func() { raw.Close() })
	defer stop()
	fail := func(stage string, err error) (*conn, error) {
		raw.Close()
		if f, ok := err.(*fatalError); ok && f.stage == "" {
			f.stage = stage
		}
		return nil, &dialError{stage, err}
	}
	if cfg.TLS == TLSImplicit {
		tc := tls.Client(nc, tlsConfig)
		if err := tc.HandshakeContext(dctx); err != nil {
			return fail("TLS", tlsFailure(fmt.Errorf("smtpout: TLS handshake with %s: %w", cfg.Addr, err)))
		}
		nc = tc
	}
	var c *smtp.Client
	if cfg.TLS == TLSStartTLS {
		// The EHLO before STARTTLS says "localhost"; Helo is used after.
		nc.SetDeadline(time.Now().Add(cfg.Timeout))
		if c, err = smtp.NewClientStartTLS(nc, tlsConfig); err != nil {
			return fail("STARTTLS", tlsFailure(fmt.Errorf("smtpout: STARTTLS with %s: %w", cfg.Addr, err)))
		}
		nc.SetDeadline(time.Time{})
	} else {
		c = smtp.NewClient(nc)
	}
	c.CommandTimeout = cfg.Timeout
	c.SubmissionTimeout = cfg.Timeout
	if err := c.Hello(cfg.Helo); err != nil {
		c.Close()
		return fail("greeting and EHLO", fmt.Errorf("smtpout: EHLO: %w", err))
	}
	if cfg.Username != "" {
		if _, encrypted := c.TLSConnectionState(); !encrypted && !netutil.IsLoopback(cfg.Addr) {
			c.Close()
			return fail("AUTH", &fatalError{err: fmt.Errorf("smtpout: refusing to authenticate without TLS to %s", cfg.Addr)})
		}
		if !c.SupportsAuth(sasl.Plain) {
			c.Close()
			return fail("AUTH", &fatalError{err: fmt.Errorf("smtpout: %s does not offer AUTH PLAIN", cfg.Addr)})
		}
		if err := c.Auth(sasl.NewPlainClient("", cfg.Username, cfg.Password)); err != nil {
			c.Close()
			return fail("AUTH", fmt.Errorf("smtpout: AUTH PLAIN as %s: %w", cfg.Username, err))
		}
	}
	return &conn{c: c, raw: raw}, nil
}

// transact submits one message over an open session.
func (c *conn) transact(ctx context.Context, from string, to []string, raw []byte) error {
	stop := context.AfterFunc(ctx, func() { c.raw.Close() })
	defer stop()
	if err := c.c.Mail(from, nil); err != nil {
		return &mailFromError{fmt.Errorf("smtpout: MAIL FROM:<%s>: %w", from, err)}
	}
	for _, rcpt := range to {
		if err := c.c.Rcpt(rcpt, nil); err != nil {
			return fmt.Errorf("smtpout: RCPT TO:<%s>: %w", rcpt, err)
		}
	}
	w, err := c.c.Data()
	if err != nil {
		return fmt.Errorf("smtpout: DATA: %w", err)
	}
	if _, err := w.Write(raw); err != nil {
		w.Close()
		return fmt.Errorf("smtpout: DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtpout: end of DATA: %w", err)
	}
	c.sent++
	return nil
}

// tlsFailure classifies a TLS setup error. An SMTP answer is classified by
// its code and a network fault is retried; anything else (a certificate
// that does not verify, a server without STARTTLS, a handshake the two
// sides cannot agree on) is final.
func tlsFailure(err error) error {
	var serr *smtp.SMTPError
	var nerr net.Error
	var cv *tls.CertificateVerificationError
	switch {
	case errors.As(err, &cv):
		return &fatalError{err: err}
	case errors.As(err, &serr), errors.As(err, &nerr), errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return err
	default:
		return &fatalError{err: err}
	}
}
