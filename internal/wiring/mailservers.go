package wiring

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/smtpout"
)

// Mail is a host wired to the configured IMAP and SMTP servers.
type Mail struct {
	Host   *adjudicator.Host
	Box    *imapbox.Box
	Sender *Sender
	pool   *smtpout.Pool
}

// OpenMail wires the host h to the servers of the configuration c: the
// mailbox (its folders made as configured) and a pool of SMTP
// connections sending as c.SMTP.From, each mail signed with key and dated
// by clock. A server that is down is tried again with a growing delay of
// at most poll_interval (README, Hosting a game: Watch it). When the
// mailbox cannot even be opened (the server down, the login refused), the
// phases past their deadline are recorded as waiting for it, and the
// referee told (once a phase), before the error is returned.
func OpenMail(ctx context.Context, h *adjudicator.Host, c *config.Config, key *openpgp.Entity, clock func() time.Time, log *slog.Logger) (*Mail, error) {
	s, err := smtpout.New(smtpout.Config{Addr: c.SMTP.Addr, Username: c.SMTP.Username, Password: c.SMTP.Password, TLS: c.SMTP.TLS, From: c.SMTP.From,
		BackoffMax: c.PollInterval, Logger: log})
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(c.DataDir, ".imap"), 0o700); err != nil {
		return nil, err
	}
	box, err := imapbox.Open(ctx, imapbox.Config{Addr: c.IMAP.Addr, Username: c.IMAP.Username, Password: c.IMAP.Password, TLS: c.IMAP.TLS,
		Mailbox: c.IMAP.Mailbox, Processed: c.IMAP.Processed, Rejected: c.IMAP.Rejected, StateDir: filepath.Join(c.DataDir, ".imap"),
		PollInterval: c.PollInterval, BackoffMax: c.PollInterval, Logger: log})
	var fe *imapbox.FolderError
	if errors.As(err, &fe) {
		return nil, fmt.Errorf("config %s: key imap.%s: %w", c.Where(), fe.Role, err)
	}
	if err != nil {
		if !errors.Is(ctx.Err(), context.Canceled) { // not a shutdown
			pool := s.Pool(c.SMTP.Connections, c.SMTP.PerConnection)
			mailboxUnread(h, c, &Sender{Via: pool, From: c.SMTP.From, Host: key, Clock: clock}, err, log)
			pool.Close()
		}
		return nil, err
	}
	pool := s.Pool(c.SMTP.Connections, c.SMTP.PerConnection)
	autocrypt, err := compose.AutocryptKeydata(key)
	if err != nil {
		return nil, err
	}
	sender := &Sender{Via: pool, From: c.SMTP.From, Host: key, Clock: clock, Autocrypt: autocrypt}
	h.SetDecrypter(sender.Decrypter())
	return &Mail{Host: h, Box: box, pool: pool, Sender: sender}, nil
}

// mailboxUnread, when the mailbox cannot even be opened, records that the
// phases past their deadline wait for it, and sends the referee's notice
// (once a phase).
func mailboxUnread(h *adjudicator.Host, c *config.Config, out adjudicator.Sender, why error, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), c.PollTimeout)
	defer cancel()
	p, err := h.MailboxUnreadable(ctx, why, out)
	if err != nil {
		log.Warn("recording the phases that wait for the mailbox failed", "err", err)
	}
	if len(p.Waiting) > 0 {
		log.Warn("phases past their deadline wait for the mailbox to be read", "games", strings.Join(p.Waiting, ", "))
	}
}

// Close closes the SMTP connections, the mailbox and the host.
func (ms *Mail) Close() {
	ms.pool.Close()
	ms.Box.Close()
	ms.Host.Close()
}
