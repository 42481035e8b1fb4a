package adjudicator

import (
	"fmt"
	"time"

	"skagerrak/engine"
)

// MaxRepliesPerPhase is how many replies the messages signed by one key
// get in one phase of a game (accepted, rejected, the referee's results).
// Every message is still recorded; one over the limit is recorded with
// Unanswered set and no reply, so that no flood of signed mail fills its
// owner's mailbox. The last reply says so.
const MaxRepliesPerPhase = 10

// MaxOrdersPerPhase is how many order files of one side are accepted in
// one phase. Each accepted file is kept whole (its mail is the evidence a
// receipt or verify checks), up to the verifier's message limit, so a
// side that sends more is refused (a bounded record, see
// MaxRefusalLogBytes) and told that the last file accepted stands: one
// key can add at most MaxOrdersPerPhase whole mails to a game's log in a
// phase. Paper orders the referee enters (unsigned) keep no mail, and
// neither count nor are limited.
const MaxOrdersPerPhase = 20

// MaxStrayRepliesPerPhase is how many replies a key gets in one phase to
// its stray mail: refused messages that are not its orders for this game
// and phase (not an order file, or one for another game, side or phase),
// or that were signed before the phase opened. Those are counted apart from
// MaxRepliesPerPhase, since they are what anyone can collect of a player's
// signed mail (letters to other players, orders for another host, drafts
// the host never saw) and send on: such mail can never use up the replies
// to the player's own orders.
const MaxStrayRepliesPerPhase = 3

// replyScope is what the reply limit counts in: a key in the open phase
// (or between phases), its stray mail apart.
func (g *Game) replyScope(fingerprint string, stray bool) string {
	phase := ""
	if g.Opened != nil {
		phase = g.Opened.Phase
	}
	if stray {
		return fingerprint + "\x00" + phase + "\x00stray"
	}
	return fingerprint + "\x00" + phase
}

// replyLimit is the limit of one of a key's two counts.
func replyLimit(stray bool) int {
	if stray {
		return MaxStrayRepliesPerPhase
	}
	return MaxRepliesPerPhase
}

// withheld says why a message signed by this key gets no reply, or "".
func (g *Game) withheld(fingerprint string, stray bool) string {
	if fingerprint == "" {
		return ""
	}
	if n := g.replies[g.replyScope(fingerprint, stray)]; n >= replyLimit(stray) {
		phase := "between phases"
		if g.Opened != nil {
			phase = "in phase " + g.Opened.Phase
		}
		if stray {
			return fmt.Sprintf("the reply limit: key %s had its %d replies %s to mail that is not its orders for this game", fingerprint, n, phase)
		}
		return fmt.Sprintf("the reply limit: key %s had its %d replies %s", fingerprint, n, phase)
	}
	return ""
}

// countReply applies the reply limit to a recorded message: one answered
// counts, one recorded unanswered must be over the limit, and is never
// answered later (the repair of a reply cut short by a crash skips it).
// stray is what the record says it was counted as (OrdersRejected.Stray).
func (g *Game) countReply(fingerprint, key, unanswered string, stray bool) error {
	if fingerprint == "" {
		return nil
	}
	scope := g.replyScope(fingerprint, stray)
	if unanswered == "" {
		g.replies[scope]++
		return nil
	}
	if n := g.replies[scope]; n < replyLimit(stray) {
		return fmt.Errorf("the reply was withheld (%s), but the key had %d replies in this phase, under the limit of %d", unanswered, n, replyLimit(stray))
	}
	g.replied[key] = true
	return nil
}

// lastReply reports whether the reply now rendered to a message of this
// key is the last it gets in the phase, of its stray mail or of the rest.
func (g *Game) lastReply(fingerprint string, stray bool) bool {
	return fingerprint != "" && g.replies[g.replyScope(fingerprint, stray)] == replyLimit(stray)
}

// stray reports whether a refused signed submission is stray mail (see
// MaxStrayRepliesPerPhase): not an order file of this game for the
// signer's side and the open phase (the referee's commands may name any
// phase), or signed before the phase opened (the last phase, when none is
// open).
func (g *Game) stray(sub Submission, side engine.Side) bool {
	if sub.Fingerprint == "" {
		return false
	}
	if !sub.SigTime.IsZero() && !g.OpenedAt.IsZero() && sub.SigTime.Before(g.OpenedAt.Add(-ClockSkew)) {
		return true
	}
	f, err := readOrderFile(sub.Text)
	if err != nil || f.Game != g.ID || f.Side != side {
		return true
	}
	return side != Referee && (g.Opened == nil || f.Phase != g.Opened.Phase)
}

// reject records a refused submission, bounded (see MaxRejectedRecord),
// and queues the reply unless the reply limit withholds it.
func (g *Game) reject(sub Submission, side engine.Side, phase, reason string, errs []engine.LineError, now time.Time, emit Emit) (Outcome, error) {
	stray := g.stray(sub, side)
	r := OrdersRejected{Phase: phase, Side: side, Text: sub.Text, Raw: sub.Raw, Fingerprint: sub.Fingerprint, Key: sub.Key, Reason: reason,
		Errors: errs, Ignored: append([]string(nil), sub.Ignored...), SigTime: sub.SigTime, Stray: stray, Unanswered: g.withheld(sub.Fingerprint, stray), Received: sub.Received,
		Encrypted: sub.Encrypted, ByAddress: sub.ByAddress}
	if r.Key == "" {
		r.Key = textKey(sub.Text, now)
	}
	bound(&r, sub.Raw)
	if err := emit(EvOrdersRejected, r); err != nil {
		return Outcome{}, err
	}
	if r.Unanswered == "" {
		if err := g.queue(MailRejected, side, r.Phase, r.Key, emit); err != nil {
			return Outcome{}, err
		}
	}
	return Outcome{Status: StatusRejected, Side: side, Reason: r.Reason, Errors: r.Errors}, nil
}
