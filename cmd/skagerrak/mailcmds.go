package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"skagerrak/config"
	"skagerrak/internal/daemon"
	"skagerrak/internal/wiring"
)

// openMail opens the host with its mail as run and poll do; ctx bounds
// what the servers are asked.
func (m *Main) openMail(ctx context.Context, cmd *cobra.Command, c *config.Config) (*wiring.Mail, error) {
	return wiring.OpenDaemon(cmd.Context(), ctx, c, m.hostOptions(true, true, nil), m.allowReadableKey)
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
			open := func(ctx context.Context) (*wiring.Mail, error) { return m.openMail(ctx, cmd, c) }
			return daemon.Poll(cmd.Context(), c, open, daemon.PollOptions{Out: m.Stdout, Verbose: m.verbose, Now: m.now})
		},
	}
	c.Flags().BoolVar(&once, "once", false, "make one pass and exit")
	c.Flags().Duration("poll-timeout", 0, "give up after this long and exit non-zero (overrides poll_timeout, default 2m)")
	return c
}

// cronLine is the line of /etc/cron.d/skagerrak that README gives too.
const cronLine = `*/5 * * * *  skagerrak  set -a; . /etc/skagerrak/secrets.env; /usr/local/bin/skagerrak --config /etc/skagerrak/skagerrak.yaml poll --once`

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
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			ms, err := m.openMail(cmd.Context(), cmd, c)
			if err != nil {
				return err
			}
			defer ms.Close()
			return daemon.Run(cmd.Context(), ms, c, m.logger())
		},
	}
}
