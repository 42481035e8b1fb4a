package adjudicator

import (
	"errors"
	"strings"
	"time"

	"skagerrak/engine"
)

// EvUnsignedAnswered records that a side was told how to sign, after mail
// from its registered address came without a signature by its key.
const EvUnsignedAnswered = "UnsignedAnswered"

// ErrUnsigned is what a Verifier's error for mail that carries no OpenPGP
// signature at all is (errors.Is): only such mail is told how to sign. A
// signature that does not verify is no beginner's mistake but a copy
// someone altered, and gets no answer.
var ErrUnsigned = errors.New("no OpenPGP signature")

// MailHowToSign is the answer to unsigned mail from a player's address.
const MailHowToSign = "howtosign"

// UnsignedAnswered is the one answer a phase to a side's unsigned mail
// (see EvUnsignedAnswered). Nothing of the mail is kept: its From: line
// is anyone's to write, so the answer goes only to the registered
// address, quotes nothing, and comes at most once a phase.
type UnsignedAnswered struct {
	Side  engine.Side `json:"side"`
	Phase string      `json:"phase,omitempty"`
}

// unsignedFrom answers mail without a signature by a known key whose
// From: address is a side's registered address in an open game: once a
// phase for that side, to that address only. It reports the game that
// answered ("" for none: the mail is only set aside, as any unsigned mail).
// The caller has ruled out automatic mail.
func (h *Host) unsignedFrom(from string, now time.Time) (string, error) {
	if from == "" {
		return "", nil
	}
	if err := h.openRest(); err != nil {
		return "", err
	}
	for _, id := range h.idsLocked() {
		hg := h.games[id]
		g := hg.g
		if g.Ended != nil {
			continue
		}
		for _, s := range g.Sides() {
			if !strings.EqualFold(g.Players[s].Address, from) {
				continue
			}
			if g.toldUnsigned[remindKey(g.openPhase(), s)] {
				return id, nil
			}
			err := h.act(hg, func(emit Emit) error {
				if g.toldUnsigned[remindKey(g.openPhase(), s)] {
					return nil // another daemon told it meanwhile
				}
				if err := emit(EvUnsignedAnswered, UnsignedAnswered{Side: s, Phase: g.openPhase()}); err != nil {
					return err
				}
				return g.queue(MailHowToSign, s, g.openPhase(), "", emit)
			})
			return id, err
		}
	}
	return "", nil
}

// openPhase is the open phase's id, "" between phases.
func (g *Game) openPhase() string {
	if g.Opened == nil {
		return ""
	}
	return g.Opened.Phase
}
