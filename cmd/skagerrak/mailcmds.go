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

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/smtpout"
)

// smtpSender signs each mail with the host key (and encrypts it where the
// game asks) and submits it over SMTP.
type smtpSender struct {
	s     *smtpout.Sender
	from  string
	host  *openpgp.Entity
	clock func() time.Time
}

func (s *smtpSender) Send(ctx context.Context, m adjudicator.Mail) error {
	msg := compose.Message{From: s.from, To: m.To, Subject: m.Subject, MessageID: m.ID, Date: s.clock(), Text: m.Text}
	for _, a := range m.Attachments {
		msg.Attachments = append(msg.Attachments, compose.Attachment{Name: a.Name, ContentType: a.ContentType, Data: a.Data})
	}
	var raw []byte
	var err error
	if m.Encrypt {
		var el openpgp.EntityList
		el, err = compose.ReadPublicKeys(strings.NewReader(m.Key))
		if err == nil && len(el) == 1 {
			raw, err = compose.SignEncrypt(msg, s.host, el[0], s.clock())
		} else if err == nil {
			err = fmt.Errorf("the recipient's key ring holds %d keys", len(el))
		}
	} else {
		raw, err = compose.Sign(msg, s.host, s.clock())
	}
	if err != nil {
		return fmt.Errorf("composing %s: %w: %w", m.ID, err, adjudicator.ErrPermanent)
	}
	err = s.s.Send(ctx, s.from, []string{m.To}, raw)
	var perm *smtpout.PermanentError
	if errors.As(err, &perm) {
		return fmt.Errorf("%w: %w", err, adjudicator.ErrPermanent)
	}
	return err
}

// mailSetup wires the host to the configured IMAP and SMTP servers.
type mailSetup struct {
	host   *adjudicator.Host
	box    *imapbox.Box
	sender *smtpSender
}

func (m *Main) openMail(ctx context.Context, cmd *cobra.Command) (*mailSetup, *config.Config, error) {
	h, c, err := m.host(cmd, true, true)
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
	if err := c.RequireMail(); err != nil {
		return nil, err
	}
	f, err := os.Open(c.HostKey)
	if err != nil {
		return nil, fmt.Errorf("config %s: host_key: %w", c.File, err)
	}
	key, err := compose.ReadPrivateKeyWithPassphrase(f, []byte(c.HostKeyPassphrase))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("config %s: host_key %s: %w (a protected key takes its passphrase from SKAGERRAK_HOST_KEY_PASSPHRASE)", c.File, c.HostKey, err)
	}
	s, err := smtpout.New(smtpout.Config{Addr: c.SMTP.Addr, Username: c.SMTP.Username, Password: c.SMTP.Password, TLS: c.SMTP.TLS, From: c.SMTP.From, Logger: m.logger()})
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
		PollInterval: c.PollInterval, Logger: m.logger()})
	var fe *imapbox.FolderError
	if errors.As(err, &fe) {
		return nil, fmt.Errorf("config %s: key imap.%s: %w", c.Where(), fe.Role, err)
	}
	if err != nil {
		return nil, err
	}
	return &mailSetup{host: h, box: box, sender: &smtpSender{s: s, from: c.SMTP.From, host: key, clock: clock}}, nil
}

func (ms *mailSetup) Close() {
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
folder; phases past their deadline resolve; queued reports are sent. The exit
status is 0 when nothing failed, 1 when something will be retried next pass.
Run it from cron, e.g. every five minutes:

  */5 * * * *  SKAGERRAK_IMAP_PASSWORD=... skagerrak --config /etc/skagerrak.yaml poll --once`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !once {
				return fmt.Errorf("poll: give --once (for the daemon, use skagerrak run)")
			}
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
			p, err := ms.host.PollOnce(ctx, inbox{ms.box}, ms.sender)
			if err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "messages %d: accepted %d, rejected %d, duplicates %d, referee %d; mail sent %d; failures %d\n",
				p.Messages, p.Accepted, p.Rejected, p.Duplicates, p.Referee, p.Sent, p.Failures)
			for _, id := range slices.Sorted(maps.Keys(p.WaitDice)) {
				what := fmt.Sprintf("%d manual dice", p.WaitDice[id])
				if g, err := ms.host.Game(id); err == nil {
					if w := g.DiceWanted(m.now()); w != nil {
						what = w.String()
					}
				}
				fmt.Fprintf(m.Stdout, "game %s waits for dice: %s (skagerrak dice add)\n", id, what)
			}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return gaveUp(fmt.Errorf("%d failure(s), the last: %w; the rest is retried on the next pass", p.Failures, p.LastFailure))
			}
			if p.Failures > 0 {
				return &exitError{code: 1, err: fmt.Errorf("%d failure(s), the last: %w; they are retried on the next pass", p.Failures, p.LastFailure)}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&once, "once", false, "make one pass and exit")
	c.Flags().Duration("poll-timeout", 0, "give up after this long and exit non-zero (overrides poll_timeout, default 2m)")
	return c
}

func (m *Main) runCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "run",
		Short: "The daemon: wait for mail (IDLE or polling), resolve at deadlines, send reports",
		Long: `run serves every game under data_dir until SIGTERM or SIGINT, when it
finishes the message in hand and exits. It waits for new mail with IDLE where
the server has it, polling every poll_interval where not, and wakes at least
every poll_interval to keep deadlines. A failed log write (disk full, I/O
error) ends it with a non-zero status; restarted, it recovers from the log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ms, c, err := m.openMail(cmd.Context(), cmd)
			if err != nil {
				return err
			}
			defer ms.Close()
			log := m.logger()
			log.Info("skagerrak running", "data_dir", c.DataDir, "games", len(ms.host.Games()), "imap", c.IMAP.Addr)
			err = ms.host.Run(cmd.Context(), inbox{ms.box}, inbox{ms.box}, ms.sender, c.PollInterval)
			log.Info("skagerrak stopped", "err", err)
			return err
		},
	}
}
