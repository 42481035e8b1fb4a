package adjudicator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"skagerrak/engine"
	"skagerrak/events"
)

// EvMailBounced records a delivery status notification about one of the
// game's own mails: the side never got it.
const EvMailBounced = "MailBounced"

// MailBounced is a bounce (a DSN, RFC 3464) of a mail the game sent,
// matched by its Message-ID.
type MailBounced struct {
	// ID is the Message-ID of the mail that came back; Side and To are
	// whom it was for.
	ID   string      `json:"id"`
	Side engine.Side `json:"side"`
	To   string      `json:"to"`
	// Recipient, Action, Status and Diagnostic are what the reporting MTA
	// said (Final-Recipient, Action, Status, Diagnostic-Code).
	Recipient  string `json:"recipient,omitempty"`
	Action     string `json:"action,omitempty"`
	Status     string `json:"status,omitempty"`
	Diagnostic string `json:"diagnostic,omitempty"`
}

// Triage tells automatic mail from mail a person wrote (mail/bounce
// implements it over RFC 3834 and RFC 3464).
type Triage interface {
	Triage(raw []byte) Automatic
}

// Automatic is what a Triage found: Auto for mail never to be answered,
// Bounce when it reports on a mail that did not arrive.
type Automatic struct {
	Auto   bool
	Why    string
	Bounce *Bounce
	// From is the address of the From: field when it names one (what
	// anyone can write: only ever compared with registered addresses).
	From string
}

// Bounce is a delivery status notification as the adjudicator needs it.
type Bounce struct {
	// MessageIDs are the candidate Message-IDs of the mail it reports on.
	MessageIDs                            []string
	Recipient, Action, Status, Diagnostic string
}

// messageID is the Message-ID of the mail queued next:
// <GAME.SEQ.KIND.SIDE.TOKEN@DOMAIN>, where TOKEN is the first 16 hex
// digits of HMAC-SHA256(dice secret, "skagerrak message-id" 0x00
// GAME.SEQ.KIND.SIDE). A bounce names the mail it reports on by its
// Message-ID, and a bounce has no signature: without the token anyone
// could name any of the game's mails from the game, a record number and
// a side. With it, only the mail's recipient and the servers it passed
// have seen the ID. The secret stays the host's until the game ends; a
// game without one (never on a host) has no token.
func (g *Game) messageID(kind string, side engine.Side) string {
	base := fmt.Sprintf("%s.%d.%s.%s", g.ID, g.Seq+1, kind, side)
	if len(g.secret) > 0 {
		m := hmac.New(sha256.New, g.secret)
		m.Write([]byte("skagerrak message-id\x00" + base))
		base += "." + hex.EncodeToString(m.Sum(nil))[:16]
	}
	return "<" + base + "@" + g.domain() + ">"
}

// bounceActions are the DSN actions that say a mail has not arrived
// (RFC 3464 2.3.3): "failed" for good, "delayed" for now. A report of a
// delivery (delivered, relayed, expanded) is no bounce.
var bounceActions = map[string]bool{"failed": true, "delayed": true}

// automatic handles automatic mail: never answered, and a bounce of the
// host's own mail recorded in its game and sent on to the referee. A
// bounce has no signature, so what a forged one can do is bounded: it
// counts only for a mail the game queued, named by its Message-ID (which
// carries a token nobody can guess, see messageID); each mail is recorded
// once per action, its referee told once; and what the reporting server
// says is cut short.
func (h *Host) automatic(a Automatic) (Receipt, error) {
	if b := a.Bounce; b != nil && bounceActions[b.Action] {
		for _, id := range b.MessageIDs {
			hg, side, ok := h.mailOf(id)
			if !ok {
				continue
			}
			d := MailBounced{ID: strings.TrimSpace(id), Side: side, Recipient: cutField(b.Recipient, maxField), Action: b.Action,
				Status: cutField(b.Status, maxField), Diagnostic: cutField(b.Diagnostic, maxField)}
			if p, ok := hg.g.Player(side); ok {
				d.To = p.Address
			}
			if hg.g.bouncedOnce(d) {
				return Receipt{Outcome: Outcome{Status: StatusDuplicate}, Game: hg.g.ID, Moved: "processed"}, nil
			}
			if err := h.decide(hg, func(emit Emit) error { return hg.g.bounced(d, emit) }); err != nil {
				return Receipt{}, err
			}
			return Receipt{Outcome: Outcome{Status: StatusBounce, Side: side, Reason: d.String()}, Game: hg.g.ID, Moved: "processed"}, nil
		}
	}
	return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: "automatic mail (" + a.Why + "), never answered"}, Moved: "rejected"}, nil
}

// StatusBounce is the status of a received bounce of the host's own mail.
const StatusBounce = "bounce"

// mailOf finds the game and side of a mail a game queued, by its
// Message-ID.
func (h *Host) mailOf(id string) (*hosted, engine.Side, bool) {
	id = strings.TrimSpace(id)
	for _, gid := range h.idsLocked() {
		hg := h.games[gid]
		if side, ok := hg.g.mails[id]; ok {
			return hg, side, true
		}
	}
	return nil, "", false
}

// bouncedOnce reports whether the mail is recorded bounced with this
// action already (whatever recipient the report named).
func (g *Game) bouncedOnce(d MailBounced) bool {
	for _, b := range g.Bounced {
		if b.ID == d.ID && b.Action == d.Action {
			return true
		}
	}
	return false
}

// bounced records a bounce and, when the mail was for a side, tells the
// referee (a bounce of the referee's own mail is not sent on: it would
// bounce again). A failed delivery stands as undelivered mail, told to
// the referee once (see tellReferee); a delayed one is told as a notice.
func (g *Game) bounced(d MailBounced, emit Emit) error {
	if err := emit(EvMailBounced, d); err != nil {
		return err
	}
	if d.GaveUp() {
		return g.tellReferee(emit)
	}
	if d.Side == Referee || g.Referee == nil {
		return nil
	}
	return g.queue(MailNotice, Referee, "", "", emit)
}

// applyBounce applies a MailBounced event.
func (g *Game) applyBounce(ev events.Event) error {
	var d MailBounced
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if _, ok := g.Player(d.Side); !ok {
		return fmt.Errorf("a bounce of mail for an unknown side %q", d.Side)
	}
	if side, ok := g.mails[d.ID]; !ok || side != d.Side {
		return fmt.Errorf("a bounce of mail %s, which the game did not queue for %s", d.ID, d.Side)
	}
	g.Bounced = append(g.Bounced, d)
	if d.GaveUp() {
		why := strings.TrimSpace(d.Status + " " + d.Diagnostic)
		if why == "" {
			why = "the delivery failed"
		}
		g.noteUndelivered(d.ID, d.Side, why, true)
		g.justBounced = d.ID
	}
	g.lastNotice = "A mail to " + string(d.Side) + " did not arrive: " + d.String() +
		". They may be missing a report; check the address (skagerrak referee GAME address SIDE ADDRESS) and send it again (skagerrak report)."
	return nil
}

// GaveUp reports whether the bounce says the mail will not arrive: its
// action is failed, its status permanent (5.x.x), or its status says the
// server stopped trying (x.4.7, delivery time expired: OpenSMTPD reports
// an expired envelope as delayed, 4.4.7). Any other delay is for now.
func (d MailBounced) GaveUp() bool {
	return d.Action == "failed" || strings.HasPrefix(d.Status, "5.") || strings.HasSuffix(d.Status, ".4.7")
}

// String says in one line what a bounce reported.
func (d MailBounced) String() string {
	s := fmt.Sprintf("%s to %s", d.ID, d.To)
	if d.Recipient != "" && !strings.EqualFold(d.Recipient, d.To) {
		s += " (recipient " + d.Recipient + ")"
	}
	for _, p := range []string{d.Action, d.Status, d.Diagnostic} {
		if p != "" {
			s += ", " + p
		}
	}
	return s
}
