package adjudicator

import (
	"context"
	"errors"
	"fmt"
)

// Flush sends every queued mail of every game, oldest first, recording each
// delivery (MailSent) or permanent failure (MailFailed). A temporary
// failure stops nothing: the mail stays queued for the next pass. It
// returns the number sent and the first temporary error.
//
// A shared game is held while one of its mails is sent and its MailSent
// committed, so that no two daemons send the same mail at once; a mail
// another daemon sent meanwhile is not sent again.
func (h *Host) Flush(ctx context.Context, s Sender) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sent := 0
	var firstErr error
	for _, id := range h.idsLocked() {
		hg := h.games[id]
		for len(hg.g.Outbox) > 0 {
			ok, err := h.sendFirst(ctx, hg, s)
			if errors.Is(err, errDeferred) {
				if firstErr == nil {
					firstErr = err
				}
				break // keep the order, try the next game
			}
			if err != nil {
				return sent, err
			}
			if ok {
				sent++
			}
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
		}
	}
	return sent, firstErr
}

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
	if err := o.Render(); err != nil {
		return false, h.release(hg, err)
	}
	if err := o.Mail.Complete(); err != nil {
		return false, h.release(hg, fmt.Errorf("adjudicator: game %s: %w", id, err))
	}
	err := s.Send(ctx, o.Mail)
	switch {
	case err == nil:
		return true, h.release(hg, h.emitter(hg)(EvMailSent, MailSent{ID: o.Queued.ID}))
	case errors.Is(err, ErrPermanent):
		h.log.Warn("delivery failed for good", "game", id, "id", o.Queued.ID, "to", o.Queued.To, "err", err)
		return false, h.release(hg, h.emitter(hg)(EvMailFailed, MailFailed{ID: o.Queued.ID, Error: err.Error()}))
	default:
		h.log.Warn("delivery deferred", "game", id, "id", o.Queued.ID, "err", err)
		return false, h.release(hg, fmt.Errorf("%w: %w", errDeferred, err))
	}
}
