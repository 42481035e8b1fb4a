package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/internal/wiring"
)

// openMail opens the host with its mail as run and poll do.
func (m *Main) openMail(ctx context.Context, cmd *cobra.Command) (*wiring.Mail, *config.Config, error) {
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

func (m *Main) wireMail(ctx context.Context, h *adjudicator.Host, c *config.Config) (*wiring.Mail, error) {
	key, err := wiring.LoadHostKey(c.HostKey, c.HostKeyPassphrase, m.allowReadableKey)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", c.File, err)
	}
	clock := func() time.Time { return time.Now().UTC() }
	if m.Clock != nil {
		clock = m.Clock.Now
	}
	return wiring.OpenMail(ctx, h, c, key, clock, m.logger())
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
cron's PATH is /usr/bin:/bin), under a MAILTO=YOU@EXAMPLE.ORG line naming
an address you read: cron mails a pass's errors there (README step 6):

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
			p, err := ms.Host.PollOnce(ctx, wiring.Inbox{Box: ms.Box}, ms.Sender)
			if err != nil {
				return err
			}
			if m.verbose || !idle(p) {
				m.printPass(ms.Host, p)
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
			w, err := startWatch(ms.Host, c, log)
			if err != nil {
				return err
			}
			defer w.Close()
			log.Info("skagerrak running", "data_dir", c.DataDir, "games", len(ms.Host.Games()), "imap", c.IMAP.Addr)
			if a := w.Addr(); a != "" {
				log.Info("metrics at http://"+a+"/metrics, health at http://"+a+"/healthz", "addr", a)
			}
			w.Ready(len(ms.Host.Games()))
			err = ms.Host.Run(cmd.Context(), wiring.Inbox{Box: ms.Box}, wiring.Inbox{Box: ms.Box}, w.Sender(ms.Sender), c.PollInterval)
			log.Info("skagerrak stopped", "err", err)
			return err
		},
	}
}
