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
func (h *Host) Flush(ctx context.Context, s Sender) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sent := 0
	var firstErr error
	for _, id := range h.idsLocked() {
		hg := h.games[id]
		for len(hg.g.Outbox) > 0 {
			n := len(hg.g.Outbox)
			o := hg.g.Outbox[0]
			if err := o.Render(); err != nil {
				return sent, err
			}
			if err := o.Mail.Complete(); err != nil {
				return sent, fmt.Errorf("adjudicator: game %s: %w", id, err)
			}
			err := s.Send(ctx, o.Mail)
			switch {
			case err == nil:
				if err := h.emitter(hg)(EvMailSent, MailSent{ID: o.Queued.ID}); err != nil {
					return sent, err
				}
				sent++
			case errors.Is(err, ErrPermanent):
				h.log.Warn("delivery failed for good", "game", id, "id", o.Queued.ID, "to", o.Queued.To, "err", err)
				if err := h.emitter(hg)(EvMailFailed, MailFailed{ID: o.Queued.ID, Error: err.Error()}); err != nil {
					return sent, err
				}
			default:
				h.log.Warn("delivery deferred", "game", id, "id", o.Queued.ID, "err", err)
				if firstErr == nil {
					firstErr = err
				}
			}
			if len(hg.g.Outbox) == n {
				break // deferred: keep the order, try the next game
			}
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
		}
	}
	return sent, firstErr
}
