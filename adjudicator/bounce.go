package adjudicator

import (
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
}

// Bounce is a delivery status notification as the adjudicator needs it.
type Bounce struct {
	// MessageIDs are the candidate Message-IDs of the mail it reports on.
	MessageIDs                            []string
	Recipient, Action, Status, Diagnostic string
}

// automatic handles automatic mail: never answered, and a bounce of the
// host's own mail recorded in its game and sent on to the referee.
func (h *Host) automatic(a Automatic) (Receipt, error) {
	if a.Bounce != nil {
		for _, id := range a.Bounce.MessageIDs {
			hg, side, ok := h.mailOf(id)
			if !ok {
				continue
			}
			b := a.Bounce
			d := MailBounced{ID: id, Side: side, Recipient: b.Recipient, Action: b.Action, Status: b.Status, Diagnostic: b.Diagnostic}
			if p, ok := hg.g.Player(side); ok {
				d.To = p.Address
			}
			if hg.g.bouncedOnce(d) {
				return Receipt{Outcome: Outcome{Status: StatusDuplicate}, Game: hg.g.ID, Moved: "processed"}, nil
			}
			if err := hg.g.bounced(d, h.emitter(hg)); err != nil {
				return Receipt{}, err
			}
			return Receipt{Outcome: Outcome{Status: StatusBounce, Side: side, Reason: d.String()}, Game: hg.g.ID, Moved: "processed"}, nil
		}
	}
	return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: "automatic mail (" + a.Why + "), never answered"}, Moved: "rejected"}, nil
}

// StatusBounce is the status of a received bounce of the host's own mail.
const StatusBounce = "bounce"

// mailOf finds the game and side of a Message-ID the host made:
// <GAME.SEQ.KIND.SIDE@DOMAIN>.
func (h *Host) mailOf(id string) (*hosted, engine.Side, bool) {
	local, _, ok := strings.Cut(strings.Trim(strings.TrimSpace(id), "<>"), "@")
	if !ok {
		return nil, "", false
	}
	f := strings.Split(local, ".")
	if len(f) < 4 {
		return nil, "", false
	}
	game, side := strings.Join(f[:len(f)-3], "."), engine.Side(f[len(f)-1])
	hg, ok := h.games[game]
	if !ok {
		return nil, "", false
	}
	if _, ok := hg.g.Player(side); !ok {
		return nil, "", false
	}
	return hg, side, true
}

// bouncedOnce reports whether the same bounce is in the log already.
func (g *Game) bouncedOnce(d MailBounced) bool {
	for _, b := range g.Bounced {
		if b.ID == d.ID && b.Recipient == d.Recipient && b.Action == d.Action {
			return true
		}
	}
	return false
}

// bounced records a bounce and, when the mail was for a side, tells the
// referee (a bounce of the referee's own mail is not sent on: it would
// bounce again).
func (g *Game) bounced(d MailBounced, emit Emit) error {
	if err := emit(EvMailBounced, d); err != nil {
		return err
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
	g.Bounced = append(g.Bounced, d)
	g.lastNotice = "A mail to " + string(d.Side) + " did not arrive: " + d.String() +
		". They may be missing a report; check the address (skagerrak referee GAME address SIDE ADDRESS) and send it again (skagerrak report)."
	return nil
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
