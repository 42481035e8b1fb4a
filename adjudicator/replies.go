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

// replyScope is what the reply limit counts in: a key in the open phase
// (or between phases).
func (g *Game) replyScope(fingerprint string) string {
	phase := ""
	if g.Opened != nil {
		phase = g.Opened.Phase
	}
	return fingerprint + "\x00" + phase
}

// withheld says why a message signed by this key gets no reply, or "".
func (g *Game) withheld(fingerprint string) string {
	if fingerprint == "" {
		return ""
	}
	if n := g.replies[g.replyScope(fingerprint)]; n >= MaxRepliesPerPhase {
		phase := "between phases"
		if g.Opened != nil {
			phase = "in phase " + g.Opened.Phase
		}
		return fmt.Sprintf("the reply limit: key %s had its %d replies %s", fingerprint, n, phase)
	}
	return ""
}

// countReply applies the reply limit to a recorded message: one answered
// counts, one recorded unanswered must be over the limit, and is never
// answered later (the repair of a reply cut short by a crash skips it).
func (g *Game) countReply(fingerprint, key, unanswered string) error {
	if fingerprint == "" {
		return nil
	}
	scope := g.replyScope(fingerprint)
	if unanswered == "" {
		g.replies[scope]++
		return nil
	}
	if n := g.replies[scope]; n < MaxRepliesPerPhase {
		return fmt.Errorf("the reply was withheld (%s), but the key had %d replies in this phase, under the limit of %d", unanswered, n, MaxRepliesPerPhase)
	}
	g.replied[key] = true
	return nil
}

// lastReply reports whether the reply now rendered to a message of this
// key is the last it gets in the phase.
func (g *Game) lastReply(fingerprint string) bool {
	return fingerprint != "" && g.replies[g.replyScope(fingerprint)] == MaxRepliesPerPhase
}

// reject records a refused submission, bounded (see MaxRejectedRecord),
// and queues the reply unless the reply limit withholds it.
func (g *Game) reject(sub Submission, side engine.Side, phase, reason string, errs []engine.LineError, now time.Time, emit Emit) (Outcome, error) {
	r := OrdersRejected{Phase: phase, Side: side, Text: sub.Text, Raw: sub.Raw, Fingerprint: sub.Fingerprint, Key: sub.Key, Reason: reason,
		Errors: errs, Ignored: append([]string(nil), sub.Ignored...), SigTime: sub.SigTime, Unanswered: g.withheld(sub.Fingerprint)}
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
