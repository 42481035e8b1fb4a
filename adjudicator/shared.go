package adjudicator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"skagerrak/events"
)

// errStale is what the first emit of a piece of work returns when holding
// a shared game brought in records of other daemons: what was about to be
// recorded was decided without them, so act decides again.
var errStale = errors.New("adjudicator: other daemons appended to the game; deciding again")

// holdTimeout bounds the wait for a game another daemon holds.
const holdTimeout = 2 * time.Minute

// act runs one piece of work on a game: op decides and emits, and its
// events are appended as one batch (decide). A shared game (SharedLog) is
// held from op's first emit to the end of act, and op runs again, once, if
// the records other daemons appended meanwhile came in with the hold; what
// op emitted is committed at the end, whether op failed or not, unless the
// log failed.
func (h *Host) act(hg *hosted, op func(Emit) error) error {
	err := h.decide(hg, op)
	if errors.Is(err, errStale) {
		err = h.decide(hg, op)
	}
	err = h.release(hg, err)
	if faulty(err) {
		h.putAside(hg, err)
	}
	return err
}

// hold holds a shared game for this daemon, if it is not held yet, and
// applies what other daemons appended since this one last looked; errStale
// says there was something.
func (h *Host) hold(hg *hosted) error {
	sl, ok := hg.log.(SharedLog)
	if !ok || hg.held {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), holdTimeout)
	defer cancel()
	if err := sl.Hold(ctx); err != nil {
		return fmt.Errorf("adjudicator: game %s: %w", hg.g.ID, err)
	}
	hg.held = true
	n, err := h.catchUp(hg)
	if err != nil {
		return err
	}
	if n > 0 {
		return errStale
	}
	return nil
}

// release ends the hold of a shared game, committing what was appended.
func (h *Host) release(hg *hosted, err error) error {
	if !hg.held {
		return err
	}
	hg.held = false
	if rerr := hg.log.(SharedLog).Release(true); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

// catchUp applies the records of the game's log after the last one the
// game has, and returns how many.
func (h *Host) catchUp(hg *hosted) (int, error) {
	n := 0
	for ev, err := range hg.log.Events(hg.g.Seq + 1) {
		if err != nil {
			return n, fmt.Errorf("adjudicator: game %s: reading what other daemons appended: %w", hg.g.ID, err)
		}
		if err := hg.g.Apply(ev); err != nil {
			return n, fmt.Errorf("adjudicator: game %s: applying what another daemon appended: %w", hg.g.ID, err)
		}
		if ev.Type == EvSideChanged || ev.Type == EvGameCreated {
			h.stale.Lock()
			h.keysOK, h.byFPOK = false, false
			h.stale.Unlock()
		}
		n++
	}
	return n, nil
}

// HeadLister is a Store other processes write to as well: it lists each
// game with the seq of its last record, so that a host sees new games and
// what other daemons appended on every pass.
type HeadLister interface {
	Heads() (map[string]uint64, error)
}

// Refresh brings a host on a shared store up to date: it opens the games
// other processes created and applies the records other daemons appended.
// On a store that is not shared it does nothing. PollOnce calls it first.
func (h *Host) Refresh() error {
	if ap, ok := h.store.(Appearing); ok {
		return h.openAppeared(ap)
	}
	hl, ok := h.store.(HeadLister)
	if !ok {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	heads, err := hl.Heads()
	if err != nil {
		return err
	}
	var first error
	for id, seq := range heads {
		hg, ok := h.games[id]
		if !ok {
			if _, aside := h.aside[id]; seq == 0 || aside || !h.selected(id) {
				continue // being created, set aside already, or not this host's
			}
			if err := h.openGame(id); err != nil && first == nil {
				first = err
			}
			continue
		}
		if seq > hg.g.Seq {
			if _, err := h.catchUp(hg); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// openAppeared opens the games that appeared in a store since the host
// last looked: made by skagerrak new while the daemon runs. A game whose
// maker still holds its log is opened on a later pass; one that cannot be
// opened is set aside (logged once, see setAside) and does not fail the
// pass, so that one broken directory does not slow every game down.
func (h *Host) openAppeared(ap Appearing) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !ap.Appeared() && !h.reopen {
		return nil
	}
	h.reopen = false
	ids, err := h.store.Games()
	if err != nil {
		h.reopen = true // look again on the next pass
		return err
	}
	var first error
	for _, id := range ids {
		if _, ok := h.games[id]; ok || h.aside[id] != nil || !h.selected(id) {
			continue
		}
		switch err := h.openGame(id); {
		case err == nil:
			h.log.Info("game taken up", "game", id)
		case errors.Is(err, events.ErrLocked):
			h.reopen = true // its maker is still at it
		case errors.Is(err, events.ErrUnavailable):
			h.reopen = true
			if first == nil {
				first = err
			}
		}
	}
	return first
}

// openRest opens the games a host opened with Options.Select left out.
func (h *Host) openRest() error {
	if h.selectFn == nil {
		return nil
	}
	ids, err := h.store.Games()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, ok := h.games[id]; ok || h.aside[id] != nil {
			continue
		}
		if err := h.openGame(id); err != nil && fatalOnOpen(err) {
			return err // the next call tries the rest again
		}
	}
	h.selectFn = nil
	return nil
}

// selected reports whether the host serves game id (Options.Select).
func (h *Host) selected(id string) bool { return h.selectFn == nil || h.selectFn(id) }
