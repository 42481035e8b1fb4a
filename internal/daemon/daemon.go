// Package daemon runs a host with its mail: one pass over the mailbox,
// the deadlines and the outbox for cron (Poll), or the daemon serving
// until it is told to stop, watched by its metrics endpoint and systemd
// (Run).
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/internal/wiring"
)

// PollOptions are how Poll makes its pass.
type PollOptions struct {
	// Out is where a pass's summary goes.
	Out io.Writer
	// Verbose prints the summary of a pass that did nothing too.
	Verbose bool
	// Now is the host clock, for the dice the games wait for.
	Now func() time.Time
}

// Poll makes one pass (poll --once) within c.PollTimeout: open wires the
// host to its mail, within the context it is given. A pass that did
// nothing prints nothing (cron mails whatever a job prints). The error
// says what failed, to be retried on the next pass.
func Poll(ctx context.Context, c *config.Config, open func(context.Context) (*wiring.Mail, error), o PollOptions) error {
	ctx, cancel := context.WithTimeout(ctx, c.PollTimeout)
	defer cancel()
	gaveUp := func(err error) error {
		return fmt.Errorf("poll: gave up after %s (poll_timeout): %w", c.PollTimeout, err)
	}
	ms, err := open(ctx)
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
	if o.Verbose || !Idle(p) {
		printPass(o.Out, ms.Host, p, o.Now())
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return gaveUp(fmt.Errorf("%d failure(s), the last: %w; the rest is retried on the next pass", p.Failures, p.LastFailure))
	}
	if p.Failures > 0 {
		waits := ""
		if len(p.Waiting) > 0 {
			waits = fmt.Sprintf("; past their deadline, waiting for the mailbox to be read: %s", strings.Join(p.Waiting, ", "))
		}
		return fmt.Errorf("%d failure(s), the last: %w; they are retried on the next pass%s", p.Failures, p.LastFailure, waits)
	}
	return nil
}

// Idle reports whether a pass did nothing worth telling: no message, no
// mail sent, nothing failed. cron mails whatever a job prints, so an idle
// poll --once prints nothing.
func Idle(p adjudicator.Pass) bool {
	return p.Messages == 0 && p.Sent == 0 && p.Failures == 0 && p.Bounces == 0
}

// printPass prints what a pass did, and the games waiting for dice.
func printPass(w io.Writer, h *adjudicator.Host, p adjudicator.Pass, now time.Time) {
	fmt.Fprintf(w, "messages %d: accepted %d, rejected %d, duplicates %d, referee %d, bounces %d; mail sent %d; failures %d\n",
		p.Messages, p.Accepted, p.Rejected, p.Duplicates, p.Referee, p.Bounces, p.Sent, p.Failures)
	for _, id := range slices.Sorted(maps.Keys(p.WaitDice)) {
		what := fmt.Sprintf("%d manual dice", p.WaitDice[id])
		if g, err := h.Game(id); err == nil {
			if w := g.DiceWanted(now); w != nil {
				what = w.String()
			}
		}
		fmt.Fprintf(w, "game %s waits for dice: %s (skagerrak dice add)\n", id, what)
	}
}

// Run serves the games of ms until ctx ends (run): watched by the metrics
// endpoint if metrics.addr is set and by systemd if it runs the daemon
// with Type=notify, logging its start and its end.
func Run(ctx context.Context, ms *wiring.Mail, c *config.Config, log *slog.Logger) error {
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
	err = ms.Host.Run(ctx, wiring.Inbox{Box: ms.Box}, wiring.Inbox{Box: ms.Box}, w.Sender(ms.Sender), c.PollInterval)
	log.Info("skagerrak stopped", "err", err)
	return err
}
