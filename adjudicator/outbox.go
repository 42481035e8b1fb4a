package adjudicator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Flush sends every queued mail of every game, each game's oldest first,
// recording each delivery (MailSent) or permanent failure (MailFailed). A
// temporary failure stops nothing but that game's outbox: its mail stays
// queued for the next pass. A failure of the server itself (ErrUnavailable:
// down, refusing the login) stops the sending of every game: no other
// game is tried, each with its own retries, until the next pass. It
// returns the number sent and the first temporary error (the server's,
// if it failed).
//
// Options.Senders games are flushed at once, each by one worker that
// renders a mail (report, map, JSON copy) and hands it to s, so that
// rendering runs ahead of sending while s (a pool of SMTP connections)
// sends. A mail is marked sent only once s returned, that is once the
// server accepted it; a crash leaves at most the mails in flight unmarked,
// and those are sent again. A shared game is held while one of its mails
// is sent and its MailSent committed, so that no two daemons send the same
// mail at once; a mail another daemon sent meanwhile is not sent again.
func (h *Host) Flush(ctx context.Context, s Sender) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	work := h.flushWork()
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t := &flushTally{cancel: cancel}
	var wg sync.WaitGroup
	jobs := make(chan *hosted)
	for w := 0; w < min(h.senders, max(len(work), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for hg := range jobs {
				n, d, err := h.flushGame(fctx, hg, s, &t.down)
				t.add(h.log, n, d, err)
			}
		}()
	}
	for _, hg := range work {
		if fctx.Err() != nil || t.down.Load() {
			break
		}
		jobs <- hg
	}
	close(jobs)
	wg.Wait()
	if t.fatal != nil {
		return t.sent, t.fatal
	}
	if err := ctx.Err(); err != nil {
		return t.sent, err
	}
	return t.sent, t.deferred
}

// flushWork lists the games with mail queued, in the order of their ids
// turned to start at a random one: daemons sharing the games start at
// different games.
func (h *Host) flushWork() []*hosted {
	var work []*hosted
	for _, id := range h.idsLocked() {
		if hg := h.games[id]; len(hg.g.Outbox) > 0 {
			work = append(work, hg)
		}
	}
	if len(work) > 1 {
		k := rand.IntN(len(work))
		work = append(work[k:], work[:k]...)
	}
	return work
}

// flushTally gathers what Flush's workers report: the mails sent, the
// first temporary error (the server's, if it failed) and the first fatal
// one, which cancels the rest.
type flushTally struct {
	mu       sync.Mutex
	sent     int
	deferred error
	fatal    error
	down     atomic.Bool // the server takes no mail: stop
	cancel   context.CancelFunc
}

// add counts one game's flush: n sent, d its deferred delivery, err a
// fatal error.
func (t *flushTally) add(log *slog.Logger, n int, d, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sent += n
	if errors.Is(d, ErrUnavailable) && !t.down.Swap(true) {
		log.Warn("the mail server takes no mail now; the rest waits for the next pass", "err", d)
		t.deferred = d
	}
	if d != nil && t.deferred == nil {
		t.deferred = d
	}
	if err != nil && t.fatal == nil {
		t.fatal = err
		t.cancel()
	}
}

// flushGame sends a game's queued mail, oldest first, until none is left,
// a delivery is deferred (returned as deferred), or down is set.
func (h *Host) flushGame(ctx context.Context, hg *hosted, s Sender, down *atomic.Bool) (sent int, deferred, err error) {
	for len(hg.g.Outbox) > 0 && ctx.Err() == nil && !down.Load() {
		ok, err := h.sendFirst(ctx, hg, s)
		if errors.Is(err, errDeferred) {
			return sent, err, nil
		}
		if err != nil {
			return sent, nil, err
		}
		if ok {
			sent++
		}
	}
	return sent, nil, nil
}

// sendWhileHeld bounds the sending of one mail of a shared game, which is
// held meanwhile: well under the database's limit on an idle hold (ten
// minutes by default); a send that takes longer is deferred.
const sendWhileHeld = 4 * time.Minute

// errDeferred wraps a temporary delivery failure.
var errDeferred = errors.New("delivery deferred")

// sendFirst sends the first mail of a game's outbox and records what became
// of it. It reports whether the mail was sent; a temporary failure is an
// error wrapping errDeferred, after which the mail stays queued.
func (h *Host) sendFirst(ctx context.Context, hg *hosted, s Sender) (bool, error) {
	id := hg.g.ID
	o := hg.g.Outbox[0]
	if err := h.hold(hg); errors.Is(err, errStale) {
		// Another daemon may have sent it: look again, holding the game.
		if len(hg.g.Outbox) == 0 || hg.g.Outbox[0] != o {
			return false, h.release(hg, nil)
		}
	} else if err != nil {
		return false, h.release(hg, err)
	}
	render := o.Render
	if o.original != "" && o.Mail.ID == "" {
		render = func() error { return h.renderResent(hg, o) }
	}
	if err := render(); err != nil {
		return false, h.release(hg, err)
	}
	if err := o.Mail.Complete(); err != nil {
		return false, h.release(hg, fmt.Errorf("adjudicator: game %s: %w", id, err))
	}
	if o.Queued.Kind == MailFinal {
		h.attachReplay(hg, &o.Mail)
	}
	sctx := ctx
	if hg.held {
		// The game is held while the mail goes: not past the time the
		// database lets a daemon hold it idle (SharedLog).
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, sendWhileHeld)
		defer cancel()
	}
	err := s.Send(sctx, o.Mail)
	switch {
	case err == nil:
		return true, h.release(hg, h.decide(hg, func(emit Emit) error { return emit(EvMailSent, MailSent{ID: o.Queued.ID}) }))
	case errors.Is(err, ErrPermanent):
		h.log.Warn("delivery failed for good", "game", id, "id", o.Queued.ID, "to", o.Queued.To, "err", err)
		return false, h.release(hg, h.decide(hg, func(emit Emit) error {
			if err := emit(EvMailFailed, MailFailed{ID: o.Queued.ID, Error: err.Error()}); err != nil {
				return err
			}
			return hg.g.tellReferee(emit)
		}))
	case ctx.Err() != nil:
		return false, h.release(hg, ctx.Err())
	default:
		h.log.Warn("delivery deferred", "game", id, "id", o.Queued.ID, "err", err)
		return false, h.release(hg, fmt.Errorf("%w: %w", errDeferred, err))
	}
}
