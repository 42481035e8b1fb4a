package adjudicator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"skagerrak/events"
)

// InMessage is one message from the mailbox.
type InMessage struct {
	UIDValidity, UID uint32
	Raw              []byte
}

// Inbox is the mailbox orders arrive in. The mail package implements it
// over IMAP.
type Inbox interface {
	// Fetch returns the messages not yet moved away.
	Fetch(ctx context.Context) ([]InMessage, error)
	// MoveProcessed and MoveRejected move a message out of the mailbox once
	// its outcome is durable.
	MoveProcessed(ctx context.Context, uidValidity, uid uint32) error
	MoveRejected(ctx context.Context, uidValidity, uid uint32) error
}

// Waiter blocks until new mail may be there (IDLE, or a poll interval).
type Waiter interface {
	Wait(ctx context.Context) error
}

// Pass counts what one pass over the mailbox did.
type Pass struct {
	Messages, Accepted, Rejected, Duplicates, Referee int
	// Bounces counts delivery reports about the host's own mail.
	Bounces int
	// Sent counts mail delivered.
	Sent int
	// WaitDice is, per game, how many manual dice a resolution waits for.
	WaitDice map[string]int
	// Failures counts messages and deliveries that went wrong and will be
	// tried again; LastFailure is the last of them.
	Failures    int
	LastFailure error
	// StoreDown is set when the pass stopped because the store could not
	// be reached (events.ErrUnavailable): the rest waits for the next.
	StoreDown bool
}

// fail counts a failure of the pass; one of an unreachable store ends it.
func (p *Pass) fail(err error) {
	p.Failures++
	p.LastFailure = err
	if errors.Is(err, events.ErrUnavailable) {
		p.StoreDown = true
	}
}

// PollOnce makes one pass: every new message is received (its outcome
// durable in a game log) and only then moved; then time acts on every game
// (deadlines, reminders); then the outbox is flushed. A fatal log error
// (events.ErrFatal) stops the pass at once and is returned: the process
// must exit. A store that cannot be reached (events.ErrUnavailable) ends
// the pass where it is met, with Pass.StoreDown set: what is left waits.
// Other failures are counted, logged, and left for the next pass, with
// nothing lost.
func (h *Host) PollOnce(ctx context.Context, in Inbox, out Sender) (Pass, error) {
	start := time.Now()
	p, err := h.pollOnce(ctx, in, out)
	if h.observer != nil {
		h.observer.Pass(p, time.Since(start), err)
	}
	return p, err
}

func (h *Host) pollOnce(ctx context.Context, in Inbox, out Sender) (Pass, error) {
	var p Pass
	if err := h.Refresh(); err != nil {
		if errors.Is(err, events.ErrFatal) {
			return p, err
		}
		p.fail(err)
		if p.StoreDown {
			// Nothing can be recorded or sent: the mail waits in the
			// mailbox, the outbox in the store.
			h.log.Warn("the store cannot be reached; this pass does nothing and the next tries again", "err", err)
			return p, nil
		}
		h.log.Warn("reading what other daemons did failed; the next pass tries again", "err", err)
	}
	// Fetch returns the mailbox in batches: drain it, batch by batch, while
	// each batch moves something (a batch whose messages all stay, say for
	// a failing move, is left for the next pass).
	for batch := 0; batch < maxBatches; batch++ {
		msgs, err := in.Fetch(ctx)
		if err != nil {
			h.log.Warn("fetching mail failed", "err", err)
			p.fail(fmt.Errorf("fetching mail: %w", err))
			break
		}
		moved, err := h.receiveBatch(ctx, in, msgs, &p)
		if err != nil {
			return p, err
		}
		if p.StoreDown {
			return p, nil
		}
		if len(msgs) == 0 || moved == 0 || ctx.Err() != nil {
			break
		}
	}
	wait, err := h.Tick()
	if errors.Is(err, events.ErrFatal) {
		return p, err
	}
	if err != nil {
		p.fail(err)
	}
	p.WaitDice = wait
	if out != nil && !p.StoreDown {
		n, err := h.Flush(ctx, out)
		p.Sent = n
		if err != nil {
			if errors.Is(err, events.ErrFatal) {
				return p, err
			}
			p.fail(fmt.Errorf("sending mail: %w", err))
		}
	}
	if _, err := h.Snapshot(); err != nil {
		h.log.Warn("writing snapshots failed; the next start replays the logs", "err", err)
	}
	return p, nil
}

// maxBatches bounds the Fetch calls of one pass.
const maxBatches = 1000

// receiveBatch receives and moves one batch of messages, returning how many
// were moved.
func (h *Host) receiveBatch(ctx context.Context, in Inbox, msgs []InMessage, p *Pass) (int, error) {
	moved := 0
	for _, m := range msgs {
		if ctx.Err() != nil {
			break // the message in hand is finished; the rest wait
		}
		p.Messages++
		r, err := h.Receive(m.Raw)
		if err != nil {
			if errors.Is(err, events.ErrFatal) {
				return moved, err
			}
			p.fail(fmt.Errorf("receiving message %d: %w", m.UID, err))
			if p.StoreDown {
				h.log.Warn("the store cannot be reached; this message and the rest stay in the mailbox", "uid", m.UID, "err", err)
				return moved, nil
			}
			h.log.Error("receiving a message failed; it stays in the mailbox", "uid", m.UID, "err", err)
			continue
		}
		switch r.Status {
		case StatusAccepted:
			p.Accepted++
		case StatusRejected:
			p.Rejected++
		case StatusDuplicate:
			p.Duplicates++
		case StatusReferee:
			p.Referee++
		case StatusBounce:
			p.Bounces++
		}
		h.log.Info("message", "uid", m.UID, "game", r.Game, "side", string(r.Side), "status", r.Status, "reason", escapeLog(r.Reason))
		move := in.MoveProcessed
		if r.Moved == "rejected" {
			move = in.MoveRejected
		}
		// Moving uses a context of its own: a shutdown must not leave a
		// message whose outcome is recorded unmoved when it can be helped.
		mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		err = move(mctx, m.UIDValidity, m.UID)
		cancel()
		if err != nil {
			h.log.Warn("moving a message failed; it will be recognised and moved on the next pass", "uid", m.UID, "err", err)
			p.fail(fmt.Errorf("moving message %d to %s: %w", m.UID, r.Moved, err))
			continue
		}
		moved++
	}
	return moved, nil
}

// Run polls until ctx ends: a pass, then a wait for new mail (IDLE or the
// poll interval, whichever the Waiter does) bounded by interval so that
// deadlines are kept. After a pass with failures it waits instead for a
// back-off that doubles with each failing pass in a row (from a second up
// to interval, or to StoreDownWait while the store cannot be reached), so that a message that cannot be moved, a server that
// refuses, or anything else that fails again at once never makes the loop
// spin. It returns nil on a clean shutdown and the error of a fatal failure.
func (h *Host) Run(ctx context.Context, in Inbox, w Waiter, out Sender, interval time.Duration) error {
	failing := 0 // passes in a row with failures
	for {
		p, err := h.PollOnce(ctx, in, out)
		if err != nil {
			return err
		}
		if p.Accepted+p.Rejected+p.Duplicates+p.Referee+p.Bounces > 0 || p.Sent > 0 || (p.Failures > 0 && !p.StoreDown) {
			h.log.Info("pass", "messages", p.Messages, "accepted", p.Accepted, "rejected", p.Rejected, "duplicates", p.Duplicates, "sent", p.Sent, "failures", p.Failures)
		}
		if ctx.Err() != nil {
			return nil
		}
		if p.Failures > 0 {
			failing++
			limit := interval
			if p.StoreDown {
				// No deadline can be kept without the store: wait longer.
				limit = max(interval, StoreDownWait)
			}
			d := RetryDelay(failing, limit)
			h.log.Warn("pass had failures; waiting before the next", "delay", d, "passes_failing", failing, "last", p.LastFailure)
			if !sleepCtx(ctx, d) {
				return nil
			}
			continue
		}
		failing = 0
		wctx, cancel := context.WithTimeout(ctx, interval)
		if w != nil {
			_ = w.Wait(wctx)
		} else {
			<-wctx.Done()
		}
		cancel()
		if ctx.Err() != nil {
			return nil
		}
	}
}

// StoreDownWait bounds the back-off while the store cannot be reached,
// when that is longer than the poll interval.
const StoreDownWait = time.Minute

// RetryDelay is the wait after the n-th failing pass in a row: one second,
// doubling, never more than limit (nor less than a second).
func RetryDelay(n int, limit time.Duration) time.Duration {
	limit = max(limit, time.Second)
	d := time.Second
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}

// sleepCtx waits d; it reports false when ctx ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// escapeLog makes a string that came from outside safe for one log line.
func escapeLog(s string) string {
	q := fmt.Sprintf("%q", s)
	return q[1 : len(q)-1]
}
