package imapbox

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"path/filepath"
	"time"

	"skagerrak/mail/internal/netutil"
)

// Transport security modes for Config.TLS.
const (
	// TLSNone is a plain TCP connection. A password is only sent over it
	// when the server is on a loopback address.
	TLSNone = "none"
	// TLSStartTLS upgrades a plain connection with STARTTLS before login.
	TLSStartTLS = "starttls"
	// TLSImplicit speaks TLS from the first byte (port 993).
	TLSImplicit = "tls"
)

// Defaults used when the matching Config field is zero.
const (
	// DefaultMailbox is the default of Config.Mailbox.
	DefaultMailbox = "INBOX"
	// DefaultMaxFetch is the default of Config.MaxFetch.
	DefaultMaxFetch = 100
	// DefaultMaxMessageSize is the default of Config.MaxMessageSize.
	DefaultMaxMessageSize = 25 << 20
	// DefaultCommandTimeout is the default of Config.CommandTimeout.
	DefaultCommandTimeout = 60 * time.Second
	// DefaultIdleRestart is the default of Config.IdleRestart, well under
	// the 29 minutes of RFC 2177 and most NAT timeouts' reach.
	DefaultIdleRestart = 9 * time.Minute
	// DefaultPollInterval is the default of Config.PollInterval.
	DefaultPollInterval = time.Minute
	// DefaultBackoffInitial is the default of Config.BackoffInitial.
	DefaultBackoffInitial = time.Second
	// DefaultBackoffMax is the default of Config.BackoffMax.
	DefaultBackoffMax = 5 * time.Minute
	// DefaultDialTimeout is the default of Config.DialTimeout.
	DefaultDialTimeout = 30 * time.Second
)

// MovedKeyword is the keyword the fallback Move sets on a message it copied
// but may not remove, so that no later Fetch, even under a new UIDVALIDITY
// or with a lost state file, returns it again.
const MovedKeyword = "$SkagerrakMoved"

// Config says which mailbox to read and how.
type Config struct {
	// Addr is host:port of the IMAP server.
	Addr string
	// Username and Password are the login credentials.
	Username, Password string
	// TLS is one of TLSNone, TLSStartTLS or TLSImplicit; empty means
	// TLSImplicit.
	TLS string
	// Mailbox is the folder to read; empty means INBOX.
	Mailbox string
	// Processed and Rejected are the folders messages are moved to; they
	// are created when missing, and Open fails with a *FolderError when
	// they cannot be created or used. Empty means DefaultFolder built with
	// the server's namespace prefix and hierarchy delimiter.
	Processed, Rejected string
	// TLSConfig overrides the TLS client configuration (tests set RootCAs).
	// ServerName defaults to the host of Addr.
	TLSConfig *tls.Config
	// StateDir is the directory of the state file (required). It must
	// exist; the file in it is named after Addr, Username and Mailbox.
	StateDir string

	// MaxFetch bounds the number of messages one Fetch returns; zero means
	// DefaultMaxFetch. The rest come with the next Fetch.
	MaxFetch int
	// MaxMessageSize is the largest message whose bytes are downloaded;
	// bigger ones are returned with TooLarge set and no Raw. Zero means
	// DefaultMaxMessageSize.
	MaxMessageSize int64
	// CommandTimeout is how long the server may stay silent while a command
	// waits for its answer before the connection is given up as dead.
	CommandTimeout time.Duration
	// IdleRestart is the IDLE watchdog: IDLE is ended and issued again this
	// often, and a server silent for IdleRestart plus CommandTimeout is
	// taken for dead.
	IdleRestart time.Duration
	// PollInterval is how often Wait looks for new mail on a server without
	// IDLE, or with NoIdle set.
	PollInterval time.Duration
	// NoIdle makes Wait poll even where the server offers IDLE.
	NoIdle bool
	// DialTimeout bounds connecting, TLS handshake included.
	DialTimeout time.Duration

	// BackoffInitial and BackoffMax shape the reconnection delays: the
	// first retry waits about BackoffInitial, each further one twice as
	// long, never more than BackoffMax.
	BackoffInitial, BackoffMax time.Duration
	// MaxAttempts bounds the connection attempts of one operation; zero
	// means unlimited (until the context ends).
	MaxAttempts int
	// Jitter is the random source of the backoff jitter; nil uses
	// math/rand/v2's global source.
	Jitter rand.Source
	// Sleep waits between attempts and between polls; nil uses a timer. It
	// must return early with ctx.Err() when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger receives the box's log; nil discards it.
	Logger *slog.Logger
}

// withDefaults validates cfg and fills in its zero fields.
func (cfg Config) withDefaults() (Config, error) {
	if cfg.Addr == "" {
		return cfg, errors.New("imapbox: Config.Addr is empty")
	}
	if _, _, err := net.SplitHostPort(cfg.Addr); err != nil {
		return cfg, fmt.Errorf("imapbox: Config.Addr %q: %w", cfg.Addr, err)
	}
	if cfg.StateDir == "" {
		return cfg, errors.New("imapbox: Config.StateDir is empty")
	}
	switch cfg.TLS {
	case "":
		cfg.TLS = TLSImplicit
	case TLSNone, TLSStartTLS, TLSImplicit:
	default:
		return cfg, fmt.Errorf("imapbox: Config.TLS %q is not none, starttls or tls", cfg.TLS)
	}
	if cfg.TLS == TLSNone && cfg.Password != "" && !netutil.IsLoopback(cfg.Addr) {
		return cfg, fmt.Errorf("imapbox: refusing to send a password without TLS to %s", cfg.Addr)
	}
	if cfg.Mailbox == "" {
		cfg.Mailbox = DefaultMailbox
	}
	if cfg.MaxFetch <= 0 {
		cfg.MaxFetch = DefaultMaxFetch
	}
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = DefaultMaxMessageSize
	}
	if cfg.CommandTimeout <= 0 {
		cfg.CommandTimeout = DefaultCommandTimeout
	}
	if cfg.IdleRestart <= 0 {
		cfg.IdleRestart = DefaultIdleRestart
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = DefaultDialTimeout
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
	if cfg.Sleep == nil {
		cfg.Sleep = netutil.Sleep
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	abs, err := filepath.Abs(cfg.StateDir)
	if err != nil {
		return cfg, fmt.Errorf("imapbox: Config.StateDir: %w", err)
	}
	cfg.StateDir = abs
	return cfg, nil
}
