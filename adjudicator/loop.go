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
	// Received is when the host's mail server received the message (IMAP
	// INTERNALDATE), zero when unknown: it decides whether orders are late.
	Received time.Time
}

// Inbox is the mailbox orders arrive in. The mail package implements it
// over IMAP.
type Inbox interface {
	// Fetch returns the messages not yet moved away.
	Fetch(ctx context.Context) ([]InMessage, error)
	// MoveProcessed and MoveRejected move a message out of the mailbox once
	// its outcome is durable. An error wrapping ErrGone says the mailbox no
	// longer holds it.
	MoveProcessed(ctx context.Context, uidValidity, uid uint32) error
	MoveRejected(ctx context.Context, uidValidity, uid uint32) error
}

// ErrGone marks a move of a message the mailbox no longer holds (another
// daemon, or the host by hand, moved it).
var ErrGone = errors.New("the message is no longer in the mailbox")

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
	// Unread is set when the pass did not read the whole mailbox (a fetch
	// or a message failed, or the pass was cut short): no phase resolved
	// for its deadline on it. Waiting lists, sorted, the games whose phase
	// is past its deadline and waits for the mailbox to be read.
	Unread  bool
	Waiting []string
	// Cut is set when the pass was cut short (ctx ended: SIGTERM, SIGINT,
	// poll_timeout): it finished the message in hand and started nothing
	// after it, neither a resolution nor a reminder nor a send.
	Cut bool
	// Left counts messages whose outcome another daemon recorded, left in
	// the mailbox for that daemon to move (see DuplicateGrace).
	Left int
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
// (deadlines, reminders); then the outbox is flushed.
//
// A phase resolves for its deadline only on a read of the whole mailbox
// that began after the deadline: while the mailbox cannot be read, an
// overdue phase waits (Pass.Waiting; the referee is told once by mail,
// PhaseWaiting), and mail the server received before the deadline counts
// whenever it is read. A pass cut short (ctx ended) finishes the message
// in hand and starts nothing more.
//
// A fatal log error (events.ErrFatal) stops the pass at once and is
// returned: the process must exit. A store that cannot be reached
// (events.ErrUnavailable) ends the pass where it is met, with
// Pass.StoreDown set: what is left waits. Other failures are counted,
// logged, and left for the next pass, with nothing lost.
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
	start := h.clock.Now()
	read, why, err := h.drain(ctx, in, &p)
	if err != nil || p.StoreDown {
		return p, err
	}
	if ctx.Err() != nil {
		p.Cut, p.Unread = true, true
		h.log.Info("pass cut short: the message in hand is finished, nothing more starts", "err", ctx.Err())
		return p, nil
	}
	if read {
		h.markRead(start)
	} else {
		p.Unread = true
	}
	wait, err := h.tickRead()
	if errors.Is(err, events.ErrFatal) {
		return p, err
	}
	if err != nil {
		p.fail(err)
	}
	p.WaitDice = wait
	if !read {
		if err := h.noteWaiting(why, &p); errors.Is(err, events.ErrFatal) {
			return p, err
		} else if err != nil {
			p.fail(err)
		}
	}
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

// FetchTimeout bounds one fetch, its retries included: a mailbox that
// cannot be read for that long ends the pass, so that the overdue phases
// that wait for it are told (see PollOnce) and the next pass tries again.
const FetchTimeout = time.Minute

// msgRef names a message in the mailbox.
type msgRef struct{ uidValidity, uid uint32 }

// drain reads the mailbox batch by batch until a fetch brings no message
// this pass has not tried (those whose move failed, that are left for
// another daemon, or that could not be received, come again). It reports
// whether the whole mailbox was read: every fetch succeeded and every
// message has its outcome recorded; if not, why says what failed first.
func (h *Host) drain(ctx context.Context, in Inbox, p *Pass) (read bool, why string, err error) {
	tried := map[msgRef]bool{}
	for batch := 0; batch < maxBatches; batch++ {
		fctx, cancel := context.WithTimeout(ctx, h.fetchTimeout)
		msgs, err := in.Fetch(fctx)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				h.log.Warn("fetching mail failed", "err", err)
				p.fail(fmt.Errorf("fetching mail: %w", err))
			}
			return false, "fetching mail failed: " + err.Error(), nil
		}
		var fresh []InMessage
		for _, m := range msgs {
			if !tried[msgRef{m.UIDValidity, m.UID}] {
				fresh = append(fresh, m)
			}
		}
		if len(fresh) == 0 {
			return why == "", why, nil
		}
		failed, err := h.receiveBatch(ctx, in, fresh, p, tried)
		if err != nil || p.StoreDown {
			return false, "", err
		}
		if why == "" {
			why = failed
		}
		if ctx.Err() != nil {
			return false, "", nil
		}
	}
	return false, fmt.Sprintf("the mailbox was not empty after %d batches", maxBatches), nil
}

// receiveBatch receives and moves one batch of messages, marking each in
// tried; it returns the first failure to receive one (that message stays
// in the mailbox), "" if none.
func (h *Host) receiveBatch(ctx context.Context, in Inbox, msgs []InMessage, p *Pass, tried map[msgRef]bool) (failed string, err error) {
	for _, m := range msgs {
		if ctx.Err() != nil {
			break // the message in hand is finished; the rest wait
		}
		p.Messages++
		tried[msgRef{m.UIDValidity, m.UID}] = true
		r, err := h.receiveMail(m, h.lastRead(), false)
		if err != nil {
			if errors.Is(err, events.ErrFatal) {
				return "", err
			}
			err = fmt.Errorf("receiving message %d: %w", m.UID, err)
			p.fail(err)
			if failed == "" {
				failed = err.Error()
			}
			if p.StoreDown {
				h.log.Warn("the store cannot be reached; this message and the rest stay in the mailbox", "uid", m.UID, "err", err)
				return failed, nil
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
		h.file(ctx, in, m, r, p)
	}
	return failed, nil
}

// Run polls until ctx ends: a pass, then a wait for new mail (IDLE or the
// poll interval, whichever the Waiter does) bounded by interval and cut
// short at the next deadline of any game, so that a phase resolves when
// its deadline passes, not up to an interval later. After a pass with failures it waits instead for a
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
		wait := interval
		if due, ok := h.NextDeadline(); ok {
			wait = min(wait, max(due.Sub(h.clock.Now()), 0))
		}
		wctx, cancel := context.WithTimeout(ctx, wait)
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
