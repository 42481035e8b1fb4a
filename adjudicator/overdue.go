package adjudicator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"skagerrak/events"
)

// maxWaitingWhy bounds the reason a PhaseWaiting records.
const maxWaitingWhy = 400

// waitingNotice is what the referee is told of a phase that waits.
func waitingNotice(d PhaseWaiting, due time.Time) string {
	return fmt.Sprintf("Phase %s is past its deadline (%s) and waits, unresolved, because the mailbox cannot be read: %s. "+
		"It resolves once the mailbox has been read whole; orders the mail server received before the deadline count whenever they are read, "+
		"those it received after it are refused as late. Nothing needs doing if the mailbox comes back; skagerrak status shows what waits.",
		d.Phase, stamp(due), d.Why)
}

// markRead notes that a read of the whole mailbox began at t.
func (h *Host) markRead(t time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.After(h.readAt) {
		h.readAt = t
	}
}

// lastRead is when the last read of the whole mailbox began; zero if none
// in this process.
func (h *Host) lastRead() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.readAt
}

// noteWaiting, after a pass that did not read the whole mailbox, lists in
// p the games whose phase is overdue and records, once a phase, that it
// waits and why (PhaseWaiting, and a notice to the referee).
func (h *Host) noteWaiting(why string, p *Pass) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.clock.Now()
	if len(why) > maxWaitingWhy {
		why = why[:maxWaitingWhy] + "..."
	}
	why = escapeLog(why)
	var first error
	for _, id := range h.idsLocked() {
		hg := h.games[id]
		g := hg.g
		if !g.Overdue(now) {
			continue
		}
		p.Waiting = append(p.Waiting, id)
		if g.waiting != nil && g.waiting.Phase == g.Opened.Phase {
			continue
		}
		h.log.Warn("a phase past its deadline waits for the mailbox to be read", "game", id, "phase", g.Opened.Phase, "why", why)
		err := h.act(hg, func(emit Emit) error {
			if !g.Overdue(now) || (g.waiting != nil && g.waiting.Phase == g.Opened.Phase) {
				return nil // another daemon resolved it, or told
			}
			if err := emit(EvPhaseWaiting, PhaseWaiting{Phase: g.Opened.Phase, Why: why}); err != nil {
				return err
			}
			return g.queue(MailNotice, Referee, g.Opened.Phase, "", emit)
		})
		if errors.Is(err, events.ErrFatal) || errors.Is(err, events.ErrUnavailable) {
			return err
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Waiting says why a game's open phase waits past its deadline, or "":
// the reason a daemon recorded, or, overdue with none recorded, that the
// next pass reads the mailbox (under cron, the phase resolves at the
// first pass after its deadline).
func (g *Game) Waiting(now time.Time) string {
	if !g.Overdue(now) {
		return ""
	}
	if g.waiting != nil && g.waiting.Phase == g.Opened.Phase {
		return fmt.Sprintf("phase %s is past its deadline (%s) and waits for the mailbox to be read: %s", g.Opened.Phase, stamp(g.dueAt()), g.waiting.Why)
	}
	return fmt.Sprintf("phase %s is past its deadline (%s); it resolves on the next pass that reads the mailbox", g.Opened.Phase, stamp(g.dueAt()))
}

// NextDeadline is the earliest deadline (plus grace) still ahead among the
// games whose open phase owes orders; false when there is none.
func (h *Host) NextDeadline() (time.Time, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.clock.Now()
	var next time.Time
	for _, id := range h.idsLocked() {
		g := h.games[id].g
		if g.Opened == nil || g.Ended != nil || g.Paused != nil || len(g.Owing()) == 0 {
			continue
		}
		if due := g.dueAt(); due.After(now) && (next.IsZero() || due.Before(next)) {
			next = due
		}
	}
	return next, !next.IsZero()
}

// MailboxUnreadable is the pass of a process that could not even open the
// mailbox (its server down, the login refused): the phases past their
// deadline wait, which it records once a phase as PollOnce does, and the
// referee's notice is sent when out is not nil.
func (h *Host) MailboxUnreadable(ctx context.Context, why error, out Sender) (Pass, error) {
	p := Pass{Unread: true}
	p.fail(fmt.Errorf("opening the mailbox: %w", why))
	if err := h.Refresh(); err != nil {
		return p, err
	}
	if err := h.noteWaiting("the mailbox cannot be opened: "+why.Error(), &p); err != nil {
		return p, err
	}
	if out != nil && len(p.Waiting) > 0 {
		n, err := h.Flush(ctx, out)
		p.Sent = n
		if err != nil {
			return p, err
		}
	}
	return p, nil
}
