package adjudicator

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"skagerrak/engine"
	"skagerrak/events"
)

// A game is set aside when the host cannot open it: its log is damaged, or
// does not replay under this build (a newer build made it, or a bug); or
// when a resolution of it would not end (it spent the engine's step
// budget, engine.OverBudget: a bug of this build), which records nothing. One
// such game must not stop the others: the host serves every other game,
// names the set-aside one in SetAside and in every error about it, and
// leaves mail its players sign in the mailbox (Receive fails for it, so the
// message is tried again on every pass) until a build that can open the
// game runs. A log locked by another process is no reason to set a game
// aside: that stops the host, as before.
type asideGame struct {
	err error
	// players are those of its GameCreated, when that much can be read.
	players []Player
}

// putAside sets aside a game the host has open, whose resolution would not
// end (it spent its step budget: a bug of this build, which the error
// names): nothing of that resolution was recorded, and the game is played
// again by a build without the bug.
func (h *Host) putAside(hg *hosted, err error) {
	id := hg.g.ID
	delete(h.games, id)
	h.ids = nil
	h.setAside(id, err, hg.log)
}

// setAside records that game id cannot be opened, and why. l, if not nil,
// is its log, read for the players' keys and closed.
func (h *Host) setAside(id string, err error, l events.Log) {
	a := &asideGame{err: err}
	if l != nil {
		a.players = playersOf(l)
		l.Close()
	}
	if h.aside == nil {
		h.aside = map[string]*asideGame{}
	}
	h.aside[id] = a
	h.keysOK, h.byFPOK = false, false
	h.log.Error("game set aside: this build cannot open it or resolve its phase; the other games go on, and its players' mail stays in the mailbox", "game", id, "err", err)
}

// playersOf reads the players and referee of a log's GameCreated.
func playersOf(l events.Log) []Player {
	for ev, err := range l.Events(1) {
		if err != nil || ev.Type != EvGameCreated {
			return nil
		}
		var gc GameCreated
		if json.Unmarshal(ev.Data, &gc) != nil {
			return nil
		}
		ps := append([]Player(nil), gc.Players...)
		if gc.Referee != nil {
			ps = append(ps, *gc.Referee)
		}
		return ps
	}
	return nil
}

// SetAside lists the games the host could not open, with why.
func (h *Host) SetAside() map[string]error {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]error, len(h.aside))
	for id, a := range h.aside {
		out[id] = a.err
	}
	return out
}

// asidePlayers are the players of the set-aside games, so that their mail
// is recognised as theirs.
func (h *Host) asidePlayers() []Player {
	var out []Player
	for _, id := range h.asideIDs() {
		out = append(out, h.aside[id].players...)
	}
	return out
}

func (h *Host) asideIDs() []string {
	ids := make([]string, 0, len(h.aside))
	for id := range h.aside {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// heldAside is the error for a submission that belongs to a set-aside
// game: its header names one, or its signer plays in no game but set-aside
// ones (mine: the open games the signer plays). nil otherwise.
func (h *Host) heldAside(sub Submission, mine []string) error {
	if len(h.aside) == 0 {
		return nil
	}
	named := namedGame(sub.Text)
	for _, id := range h.asideIDs() {
		a := h.aside[id]
		plays := false
		for _, p := range a.players {
			plays = plays || p.Fingerprint == sub.Fingerprint
		}
		if (named == id && (plays || sub.Source == "unsigned")) || (plays && len(mine) == 0) {
			return fmt.Errorf("adjudicator: the message is for game %s, which is set aside (%v); it stays in the mailbox until a build that can open the game runs", id, a.err)
		}
	}
	return nil
}

// asideError is the error for a command on a set-aside game, or nil.
func (h *Host) asideError(id string) error {
	if a, ok := h.aside[id]; ok {
		return fmt.Errorf("adjudicator: game %s is set aside, this build cannot open it or resolve its phase: %w", id, a.err)
	}
	return nil
}

// fatalOnOpen tells the errors that stop the host from those that set one
// game aside: another process holding a log, or a store that cannot be
// reached (which says nothing about the game: it is opened once the store
// is back).
func fatalOnOpen(err error) bool {
	var stopped *engine.Stopped
	return errors.Is(err, events.ErrLocked) || errors.Is(err, events.ErrUnavailable) || errors.As(err, &stopped)
}
