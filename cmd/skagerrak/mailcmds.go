package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/smtpout"
)

// mailSetup wires the host to the configured IMAP and SMTP servers.
type mailSetup struct {
	host   *adjudicator.Host
	box    *imapbox.Box
	sender *wiring.Sender
	pool   *smtpout.Pool
}

func (m *Main) openMail(ctx context.Context, cmd *cobra.Command) (*mailSetup, *config.Config, error) {
	// What is missing from the configuration is said before any game is
	// opened or server asked.
	c, err := m.config(cmd)
	if err != nil {
		return nil, nil, err
	}
	if err := c.RequireMail(); err != nil {
		return nil, nil, err
	}
	if err := c.RequireSecrets(); err != nil {
		return nil, nil, err
	}
	h, c, err := m.host(cmd, true, true, nil)
	if err != nil {
		return nil, nil, err
	}
	ms, err := m.wireMail(ctx, h, c)
	if err != nil {
		h.Close()
		return nil, nil, err
	}
	return ms, c, nil
}

func (m *Main) wireMail(ctx context.Context, h *adjudicator.Host, c *config.Config) (*mailSetup, error) {
	key, err := loadHostKey(c.HostKey, c.HostKeyPassphrase, m.allowReadableKey)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", c.File, err)
	}
	// A server that is down is tried again with a growing delay of at
	// most poll_interval (README, Hosting a game: Watch it).
	s, err := smtpout.New(smtpout.Config{Addr: c.SMTP.Addr, Username: c.SMTP.Username, Password: c.SMTP.Password, TLS: c.SMTP.TLS, From: c.SMTP.From,
		BackoffMax: c.PollInterval, Logger: m.logger()})
	if err != nil {
		return nil, err
	}
	clock := func() time.Time { return time.Now().UTC() }
	if m.Clock != nil {
		clock = m.Clock.Now
	}
	if err := os.MkdirAll(filepath.Join(c.DataDir, ".imap"), 0o700); err != nil {
		return nil, err
	}
	box, err := imapbox.Open(ctx, imapbox.Config{Addr: c.IMAP.Addr, Username: c.IMAP.Username, Password: c.IMAP.Password, TLS: c.IMAP.TLS,
		Mailbox: c.IMAP.Mailbox, Processed: c.IMAP.Processed, Rejected: c.IMAP.Rejected, StateDir: filepath.Join(c.DataDir, ".imap"),
		PollInterval: c.PollInterval, BackoffMax: c.PollInterval, Logger: m.logger()})
	var fe *imapbox.FolderError
	if errors.As(err, &fe) {
		return nil, fmt.Errorf("config %s: key imap.%s: %w", c.Where(), fe.Role, err)
	}
	if err != nil {
		if !errors.Is(ctx.Err(), context.Canceled) { // not a shutdown
			pool := s.Pool(c.SMTP.Connections, c.SMTP.PerConnection)
			m.mailboxUnread(h, c, &wiring.Sender{Via: pool, From: c.SMTP.From, Host: key, Clock: clock}, err)
			pool.Close()
		}
		return nil, err
	}
	pool := s.Pool(c.SMTP.Connections, c.SMTP.PerConnection)
	autocrypt, err := compose.AutocryptKeydata(key)
	if err != nil {
		return nil, err
	}
	sender := &wiring.Sender{Via: pool, From: c.SMTP.From, Host: key, Clock: clock, Autocrypt: autocrypt}
	h.SetDecrypter(sender.Decrypter())
	return &mailSetup{host: h, box: box, pool: pool, sender: sender}, nil
}

// mailboxUnread, when the mailbox cannot even be opened (the server down,
// the login refused), records that the phases past their deadline wait
// for it, and sends the referee's notice (once a phase).
func (m *Main) mailboxUnread(h *adjudicator.Host, c *config.Config, out adjudicator.Sender, why error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.PollTimeout)
	defer cancel()
	p, err := h.MailboxUnreadable(ctx, why, out)
	if err != nil {
		m.logger().Warn("recording the phases that wait for the mailbox failed", "err", err)
	}
	if len(p.Waiting) > 0 {
		m.logger().Warn("phases past their deadline wait for the mailbox to be read", "games", strings.Join(p.Waiting, ", "))
	}
}

func (ms *mailSetup) Close() {
	ms.pool.Close()
	ms.box.Close()
	ms.host.Close()
}

func (m *Main) pollCmd() *cobra.Command {
	var once bool
	c := &cobra.Command{
		Use:   "poll --once",
		Short: "One pass over the mailbox, deadlines and outbox (for cron)",
		Long: `poll --once makes one pass: every new message in the mailbox is verified,
recorded in its game's log and only then moved to the processed or rejected
folder; phases past their deadline resolve, once the whole mailbox has been
read (a pass that could not read it resolves nothing for its deadline: mail
the server received in time counts on a later pass); queued reports are
sent. A deadline is judged at the first pass after it. The exit status is 0
when nothing failed, 1 when something will be retried next pass.
A pass that did nothing prints nothing (cron mails whatever a job prints);
--verbose prints its summary all the same. Errors go to standard error.
Run it from cron every five minutes, as the line in /etc/cron.d/skagerrak
(the passwords in /etc/skagerrak/secrets.env, the binary by its full path:
cron's PATH is /usr/bin:/bin):

  ` + cronLine,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !once {
				return fmt.Errorf("poll: give --once (for the daemon, use skagerrak run)")
			}
			m.warnOnly = true
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), c.PollTimeout)
			defer cancel()
			gaveUp := func(err error) error {
				return &exitError{code: 1, err: fmt.Errorf("poll: gave up after %s (poll_timeout): %w", c.PollTimeout, err)}
			}
			ms, _, err := m.openMail(ctx, cmd)
			if err != nil {
				if errors.Is(ctx.Err(), context.DeadlineExceeded) {
					return gaveUp(err)
				}
				return err
			}
			defer ms.Close()
			p, err := ms.host.PollOnce(ctx, wiring.Inbox{Box: ms.box}, ms.sender)
			if err != nil {
				return err
			}
			if m.verbose || !idle(p) {
				m.printPass(ms.host, p)
			}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return gaveUp(fmt.Errorf("%d failure(s), the last: %w; the rest is retried on the next pass", p.Failures, p.LastFailure))
			}
			if p.Failures > 0 {
				waits := ""
				if len(p.Waiting) > 0 {
					waits = fmt.Sprintf("; past their deadline, waiting for the mailbox to be read: %s", strings.Join(p.Waiting, ", "))
				}
				return &exitError{code: 1, err: fmt.Errorf("%d failure(s), the last: %w; they are retried on the next pass%s", p.Failures, p.LastFailure, waits)}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&once, "once", false, "make one pass and exit")
	c.Flags().Duration("poll-timeout", 0, "give up after this long and exit non-zero (overrides poll_timeout, default 2m)")
	return c
}

// cronLine is the line of /etc/cron.d/skagerrak that README gives too.
const cronLine = `*/5 * * * *  skagerrak  set -a; . /etc/skagerrak/secrets.env; /usr/local/bin/skagerrak --config /etc/skagerrak/skagerrak.yaml poll --once`

// idle reports whether a pass did nothing worth telling: no message, no
// mail sent, nothing failed. cron mails whatever a job prints, so an idle
// poll --once prints nothing.
func idle(p adjudicator.Pass) bool {
	return p.Messages == 0 && p.Sent == 0 && p.Failures == 0 && p.Bounces == 0
}

// printPass prints what a pass did, and the games waiting for dice.
func (m *Main) printPass(h *adjudicator.Host, p adjudicator.Pass) {
	fmt.Fprintf(m.Stdout, "messages %d: accepted %d, rejected %d, duplicates %d, referee %d, bounces %d; mail sent %d; failures %d\n",
		p.Messages, p.Accepted, p.Rejected, p.Duplicates, p.Referee, p.Bounces, p.Sent, p.Failures)
	for _, id := range slices.Sorted(maps.Keys(p.WaitDice)) {
		what := fmt.Sprintf("%d manual dice", p.WaitDice[id])
		if g, err := h.Game(id); err == nil {
			if w := g.DiceWanted(m.now()); w != nil {
				what = w.String()
			}
		}
		fmt.Fprintf(m.Stdout, "game %s waits for dice: %s (skagerrak dice add)\n", id, what)
	}
}

func (m *Main) runCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "run",
		Short: "The daemon: wait for mail (IDLE or polling), resolve at deadlines, send reports",
		Long: `run serves every game under data_dir until SIGTERM or SIGINT, when it
finishes the message in hand and exits (starting no resolution). It waits for
new mail with IDLE where the server has it, polling every poll_interval where
not, and wakes at the next deadline of any game. A phase resolves for its
deadline once the whole mailbox has been read after it; while the mailbox
cannot be read it waits, and the referee is told. A failed log write (disk full, I/O
error) ends it with a non-zero status; restarted, it recovers from the log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ms, c, err := m.openMail(cmd.Context(), cmd)
			if err != nil {
				return err
			}
			defer ms.Close()
			log := m.logger()
			w, err := startWatch(ms.host, c, log)
			if err != nil {
				return err
			}
			defer w.Close()
			log.Info("skagerrak running", "data_dir", c.DataDir, "games", len(ms.host.Games()), "imap", c.IMAP.Addr)
			if a := w.Addr(); a != "" {
				log.Info("metrics at http://"+a+"/metrics, health at http://"+a+"/healthz", "addr", a)
			}
			w.Ready(len(ms.host.Games()))
			err = ms.host.Run(cmd.Context(), wiring.Inbox{Box: ms.box}, wiring.Inbox{Box: ms.box}, w.Sender(ms.sender), c.PollInterval)
			log.Info("skagerrak stopped", "err", err)
			return err
		},
	}
}
