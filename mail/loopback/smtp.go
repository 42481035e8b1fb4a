package loopback

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTPOptions configures StartSMTP.
type SMTPOptions struct {
	// Username and Password, when Username is set, make AUTH PLAIN
	// mandatory: MAIL FROM without it is refused with 530.
	Username, Password string
	// TLSConfig, when set, offers STARTTLS (or implicit TLS with ImplicitTLS).
	TLSConfig *tls.Config
	// ImplicitTLS makes the listener speak TLS from the first byte; it needs
	// TLSConfig.
	ImplicitTLS bool
	// MaxMessageBytes bounds a message; 0 means 10 MiB.
	MaxMessageBytes int64
	// Deliver, when set, is called with each message before it is accepted
	// (the demo appends it to a loopback IMAP mailbox); an error makes the
	// server answer 451 and keep nothing.
	Deliver func(Delivery) error
	// Logger receives the server's own error messages; nil discards them.
	Logger *slog.Logger
}

// Delivery is one message the loopback SMTP server accepted.
type Delivery struct {
	// From is the envelope sender (MAIL FROM).
	From string
	// To are the envelope recipients (RCPT TO).
	To []string
	// Data is the message exactly as received after DATA.
	Data []byte
	// AuthUser is the user that authenticated, empty if none did.
	AuthUser string
	// TLS tells whether the session was encrypted.
	TLS bool
	// Received is when the server accepted the message.
	Received time.Time
}

// SMTPServer is a running SMTP server on 127.0.0.1 that keeps what it
// accepts.
type SMTPServer struct {
	srv  *smtp.Server
	ln   net.Listener
	addr string
	opts SMTPOptions
	done chan struct{}

	mu         sync.Mutex
	deliveries []Delivery
	failures   []*smtp.SMTPError          // answers for the next transactions, in order
	refused    map[string]*smtp.SMTPError // answers to RCPT TO, by lower-case address
	attempts   int
	sessions   int
}

// StartSMTP starts an SMTP server on 127.0.0.1 with a fresh port.
func StartSMTP(opts SMTPOptions) (*SMTPServer, error) {
	if opts.ImplicitTLS && opts.TLSConfig == nil {
		return nil, errors.New("loopback: ImplicitTLS needs a TLSConfig")
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &SMTPServer{opts: opts, done: make(chan struct{})}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, isTLS := c.TLSConnectionState()
		s.mu.Lock()
		s.sessions++
		s.mu.Unlock()
		return &smtpSession{server: s, tls: isTLS}, nil
	}))
	srv.Domain = "localhost"
	srv.MaxMessageBytes = opts.MaxMessageBytes
	if srv.MaxMessageBytes == 0 {
		srv.MaxMessageBytes = 10 << 20
	}
	srv.MaxRecipients = 100
	srv.ReadTimeout = time.Minute
	srv.WriteTimeout = time.Minute
	srv.AllowInsecureAuth = true
	srv.TLSConfig = opts.TLSConfig
	srv.ErrorLog = smtpLog{logger}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("loopback: listen: %w", err)
	}
	if opts.ImplicitTLS {
		ln = tls.NewListener(ln, opts.TLSConfig)
		srv.TLSConfig = nil // no STARTTLS inside TLS
	}
	s.srv = srv
	s.ln = ln
	s.addr = ln.Addr().String()
	go func() {
		defer close(s.done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, smtp.ErrServerClosed) {
			logger.Debug("loopback smtp: serve ended", "err", err)
		}
	}()
	return s, nil
}

type smtpLog struct{ l *slog.Logger }

func (p smtpLog) Printf(format string, args ...any) { p.l.Debug(fmt.Sprintf(format, args...)) }
func (p smtpLog) Println(args ...any)               { p.l.Debug(fmt.Sprint(args...)) }

// Addr is the host:port the server listens on.
func (s *SMTPServer) Addr() string { return s.addr }

// FailNext makes the next n transactions fail at DATA with the given reply
// code (421-499 temporary, 500-599 permanent) and text.
func (s *SMTPServer) FailNext(n int, code int, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	class := code / 100
	for range n {
		s.failures = append(s.failures, &smtp.SMTPError{
			Code:         code,
			EnhancedCode: smtp.EnhancedCode{class, 0, 0},
			Message:      text,
		})
	}
}

// RefuseRcpt makes the server answer RCPT TO:<rcpt> with code, enhanced
// code and text (a 5xx refuses it for good, as an MTA refuses a recipient
// it does not know; 4xx for now), until AcceptRcpt.
func (s *SMTPServer) RefuseRcpt(rcpt string, code int, enhanced [3]int, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused == nil {
		s.refused = map[string]*smtp.SMTPError{}
	}
	s.refused[strings.ToLower(rcpt)] = &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode(enhanced), Message: text}
}

// AcceptRcpt takes mail for rcpt again.
func (s *SMTPServer) AcceptRcpt(rcpt string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.refused, strings.ToLower(rcpt))
}

// Sessions counts the connections the server took.
func (s *SMTPServer) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions
}

// Attempts counts DATA commands received, accepted or not.
func (s *SMTPServer) Attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

// Deliveries returns every accepted message in order of acceptance.
func (s *SMTPServer) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.deliveries...)
}

// For returns the accepted messages with rcpt among their envelope
// recipients (compared case-insensitively), in order of acceptance.
func (s *SMTPServer) For(rcpt string) []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Delivery
	for _, d := range s.deliveries {
		for _, to := range d.To {
			if strings.EqualFold(to, rcpt) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// Take returns the messages for rcpt like For and forgets that recipient on
// them, so a later Take returns only what arrived since. A message with no
// recipient left is dropped.
func (s *SMTPServer) Take(rcpt string) []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Delivery
	kept := s.deliveries[:0]
	for _, d := range s.deliveries {
		var left []string
		hit := false
		for _, to := range d.To {
			if strings.EqualFold(to, rcpt) {
				hit = true
			} else {
				left = append(left, to)
			}
		}
		if hit {
			out = append(out, d)
		}
		if len(left) > 0 {
			d.To = left
			kept = append(kept, d)
		}
	}
	s.deliveries = kept
	return out
}

// Close stops the server and closes every connection.
func (s *SMTPServer) Close() error {
	err := s.srv.Close()
	// Closed at once after Start, the server may not have its listener
	// yet (Serve not started): closing it ends Serve then.
	s.ln.Close()
	<-s.done
	if err != nil && !errors.Is(err, smtp.ErrServerClosed) {
		return fmt.Errorf("loopback: close smtp: %w", err)
	}
	return nil
}

// smtpSession collects one transaction at a time.
type smtpSession struct {
	server *SMTPServer
	tls    bool
	user   string
	from   string
	to     []string
}

var _ smtp.AuthSession = (*smtpSession)(nil)

func (ss *smtpSession) AuthMechanisms() []string {
	if ss.server.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain || ss.server.opts.Username == "" {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if identity != "" && identity != username {
			return smtp.ErrAuthFailed
		}
		if username != ss.server.opts.Username || password != ss.server.opts.Password {
			return smtp.ErrAuthFailed
		}
		ss.user = username
		return nil
	}), nil
}

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if ss.server.opts.Username != "" && ss.user == "" {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	ss.from = from
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.server.mu.Lock()
	refused := ss.server.refused[strings.ToLower(to)]
	ss.server.mu.Unlock()
	if refused != nil {
		return refused
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s := ss.server
	s.mu.Lock()
	s.attempts++
	if len(s.failures) > 0 {
		f := s.failures[0]
		s.failures = s.failures[1:]
		s.mu.Unlock()
		return f
	}
	s.mu.Unlock()
	d := Delivery{
		From:     ss.from,
		To:       append([]string(nil), ss.to...),
		Data:     data,
		AuthUser: ss.user,
		TLS:      ss.tls,
		Received: time.Now(),
	}
	if s.opts.Deliver != nil {
		// Called without the lock: Deliver may use the server's methods.
		if err := s.opts.Deliver(d); err != nil {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Local delivery failed: " + err.Error()}
		}
	}
	s.mu.Lock()
	s.deliveries = append(s.deliveries, d)
	s.mu.Unlock()
	return nil
}

func (ss *smtpSession) Reset() {
	ss.from = ""
	ss.to = nil
}

func (ss *smtpSession) Logout() error { return nil }
