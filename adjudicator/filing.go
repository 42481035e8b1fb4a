package adjudicator

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DuplicateGrace is how long a message whose outcome another daemon
// recorded is left in the mailbox for that daemon to move, counted from
// the record: longer than a daemon takes to move what it recorded (its
// move is cut off after moveTimeout). See Host.file.
const DuplicateGrace = 2 * time.Minute

// moveTimeout bounds the move of one message.
const moveTimeout = 30 * time.Second

// MessageLocker is a shared store that also keeps daemons from moving
// one message at the same time: Exclusive runs f while no other daemon
// runs an f for the same key.
type MessageLocker interface {
	Exclusive(ctx context.Context, key int32, f func() error) error
}

// file moves a message whose outcome is recorded to its folder.
//
// One message, one place: with daemons sharing a store, a message they
// both fetched is recorded by one; the other finds the outcome recorded
// (StatusDuplicate). Two moves of one message at once may both copy it
// (a server's MOVE is a copy and an expunge, not atomic between
// sessions), so:
//   - the daemon that records an outcome moves the message at once;
//   - one that finds it recorded leaves it, and moves it only if it is
//     still in the mailbox DuplicateGrace after the record (its recorder
//     died, or its move failed): by then the recorder's move, cut off
//     after moveTimeout, is over;
//   - on a MessageLocker every move is made holding the message's lock,
//     the message looked up first, so no two daemons move one message at
//     once (mail that no game records, unsigned or of an unknown key,
//     rejected by each daemon that reads it, included): the second finds
//     it gone.
//
// A file store has one daemon: a duplicate there (a copy, a move that
// failed) is moved at once.
func (h *Host) file(ctx context.Context, in Inbox, m InMessage, r Receipt, p *Pass) {
	move := in.MoveProcessed
	if r.Moved == "rejected" {
		move = in.MoveRejected
	}
	do := func() error {
		// Moving uses a context of its own: a shutdown must not leave a
		// message whose outcome is recorded unmoved when it can be helped.
		mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), moveTimeout)
		defer cancel()
		return move(mctx, m.UIDValidity, m.UID)
	}
	shared := h.shared()
	if shared && r.Status == StatusDuplicate && r.Game != "" {
		at, err := h.recordedAt(r.Game, r.Seq)
		if err != nil {
			h.log.Warn("the record of a message met again cannot be read; it stays in the mailbox", "uid", m.UID, "game", r.Game, "err", err)
			p.fail(err)
			return
		}
		if wait := at.Add(h.dupGrace).Sub(h.clock.Now()); wait > 0 {
			p.Left++
			h.log.Info("message recorded by another daemon: left for it to move", "uid", m.UID, "game", r.Game, "recorded", at, "moved_here_after", wait.Round(time.Second))
			return
		}
	}
	if ml, ok := h.store.(MessageLocker); ok && shared {
		inner := do
		do = func() error {
			lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), holdTimeout)
			defer cancel()
			return ml.Exclusive(lctx, int32(m.UIDValidity*2654435761+m.UID), inner)
		}
	}
	err := do()
	if shared && errors.Is(err, ErrGone) {
		h.log.Info("message moved already by another daemon", "uid", m.UID)
		return
	}
	if err != nil {
		h.log.Warn("moving a message failed; it will be recognised and moved on the next pass", "uid", m.UID, "err", err)
		p.fail(fmt.Errorf("moving message %d to %s: %w", m.UID, r.Moved, err))
	}
}

// shared reports whether other daemons may serve the same games.
func (h *Host) shared() bool {
	_, ok := h.store.(HeadLister)
	return ok
}

// recordedAt is the time of a game's record seq; zero for seq 0 (a
// message recorded before seqs were kept for it).
func (h *Host) recordedAt(game string, seq uint64) (time.Time, error) {
	if seq == 0 {
		return time.Time{}, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	hg, ok := h.games[game]
	if !ok {
		return time.Time{}, h.unknownGame(game)
	}
	for ev, err := range hg.log.Events(seq) {
		return ev.Time, err
	}
	return time.Time{}, fmt.Errorf("adjudicator: game %s has no record %d", game, seq)
}
