package adjudicator

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"skagerrak/engine"
	"skagerrak/events"
)

// EvMailResent queues again, to the side's address as it is now, a mail
// that was not delivered (refused by the mail server, or bounced).
const EvMailResent = "MailResent"

// MailUndelivered is the kind of the mail that tells the referee a mail
// could not be delivered; its About is the undelivered mail's Message-ID.
const MailUndelivered = "undelivered"

// MailResent queues a mail again. Its text is that of Original, as it was
// rendered when first queued (read back from the log), sent under a new
// Message-ID to the side's address now.
type MailResent struct {
	// ID is the new Message-ID; Of is the undelivered mail it replaces
	// (itself perhaps a mail sent again); Original is the mail first
	// queued, whose text is sent.
	ID       string      `json:"id"`
	Of       string      `json:"of"`
	Original string      `json:"original"`
	Kind     string      `json:"kind"`
	Side     engine.Side `json:"side"`
	To       string      `json:"to"`
	Phase    string      `json:"phase,omitempty"`
}

// Undelivered is a mail of the game that did not arrive: the mail server
// refused it for good (MailFailed) or a delivery status notification said
// it failed (MailBounced). It stands until it is delivered again: the
// referee's address command (or key) queues it again to the side's
// address (Resent), and its MailSent clears it.
type Undelivered struct {
	// ID is the mail's Message-ID; Original that of the mail whose text
	// it carries (ID itself unless it was sent again).
	ID       string      `json:"id"`
	Original string      `json:"original"`
	Side     engine.Side `json:"side"`
	Kind     string      `json:"kind"`
	Phase    string      `json:"phase,omitempty"`
	To       string      `json:"to"`
	// Why is what the mail server said; Bounced says a DSN said it.
	Why     string `json:"why"`
	Bounced bool   `json:"bounced,omitempty"`
	// Told is set once the referee is told (or has nobody to tell);
	// Resent is the ID it is queued again as, until that is delivered.
	Told   bool   `json:"told,omitempty"`
	Resent string `json:"resent,omitempty"`
}

// String says in one line what became of the mail.
func (u Undelivered) String() string {
	s := fmt.Sprintf("%s mail to %s <%s>", u.Kind, u.Side, u.To)
	if u.Phase != "" {
		s = fmt.Sprintf("%s mail (phase %s) to %s <%s>", u.Kind, u.Phase, u.Side, u.To)
	}
	how := "refused by the mail server"
	if u.Bounced {
		how = "bounced"
	}
	s += " " + how + ": " + u.Why
	if u.Resent != "" {
		s += "; sent again as " + u.Resent
	}
	return s
}

// mailNote is what the game remembers of each mail it queued.
type mailNote struct {
	Kind  string `json:"kind"`
	Phase string `json:"phase,omitempty"`
	To    string `json:"to"`
	// Original is the mail whose text a mail sent again carries.
	Original string `json:"original,omitempty"`
}

// noteMail records a queued mail's kind, phase and address: the phase it
// names, or else the phase open when it was queued.
func (g *Game) noteMail(id, kind, phase, to, original string) {
	if phase == "" && g.Opened != nil {
		phase = g.Opened.Phase
	}
	g.mailNotes[id] = mailNote{Kind: kind, Phase: phase, To: to, Original: original}
}

// undeliveredIndex finds the standing undelivered mail id, or the one that
// was sent again as id.
func (g *Game) undeliveredIndex(id string) int {
	for i, u := range g.Undelivered {
		if u.ID == id || u.Resent == id {
			return i
		}
	}
	return -1
}

// noteUndelivered records that mail id did not arrive. A mail that was
// itself sent again replaces the one it carried; the referee is told of it
// unless told already of another undelivered mail of the side that still
// stands (no second mail for one bad address), or there is no referee.
func (g *Game) noteUndelivered(id string, side engine.Side, why string, bounced bool) {
	n := g.mailNotes[id]
	u := Undelivered{ID: id, Original: id, Side: side, Kind: n.Kind, Phase: n.Phase, To: n.To, Why: why, Bounced: bounced}
	if n.Original != "" {
		u.Original = n.Original
	}
	if i := g.undeliveredIndex(id); i >= 0 {
		if g.Undelivered[i].ID == id {
			return // bounced after it was refused, or bounced twice
		}
		g.Undelivered = append(g.Undelivered[:i], g.Undelivered[i+1:]...)
	}
	u.Told = side == Referee || g.Referee == nil
	for _, o := range g.Undelivered {
		if o.Side == side && o.Told && o.Resent == "" {
			u.Told = true
		}
	}
	g.Undelivered = append(g.Undelivered, u)
}

// delivered clears the undelivered mail that id sent again.
func (g *Game) delivered(id string) {
	if i := g.undeliveredIndex(id); i >= 0 && g.Undelivered[i].Resent == id {
		g.Undelivered = append(g.Undelivered[:i], g.Undelivered[i+1:]...)
	}
}

// told marks the undelivered mail id as told to the referee.
func (g *Game) told(id string) {
	if i := g.undeliveredIndex(id); i >= 0 && g.Undelivered[i].ID == id {
		g.Undelivered[i].Told = true
	}
}

// tellReferee queues the mail that tells the referee of the undelivered
// mail they are not yet told of: one mail for all of them (its About their
// Message-IDs, space-separated). Several stand untold at once after an
// upgrade from a build that did not tell the referee, or a host stopped
// between failures and the telling. Since the telling is recorded by its
// MailQueued, a crash between the failure and the telling leaves it to the
// next tick, and nothing is told twice.
func (g *Game) tellReferee(emit Emit) error {
	var ids []string
	phase := ""
	for _, u := range g.Undelivered {
		if !u.Told {
			if len(ids) == 0 {
				phase = u.Phase
			}
			ids = append(ids, u.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return g.queue(MailUndelivered, Referee, phase, strings.Join(ids, " "), emit)
}

// resend queues again each undelivered mail of side that is not queued
// again already, to the side's address now. always sends even to the
// address it failed at (the referee's address command, which may say the
// same address once the player's mailbox is fixed); otherwise only mail
// whose side's address has changed since (a tick after a crash).
func (g *Game) resend(side engine.Side, always bool, emit Emit) error {
	p, ok := g.Player(side)
	if !ok {
		return nil
	}
	var todo []Undelivered
	for _, u := range g.Undelivered {
		if u.Side == side && u.Resent == "" && (always || !strings.EqualFold(u.To, p.Address)) {
			todo = append(todo, u)
		}
	}
	for _, u := range todo {
		r := MailResent{ID: g.messageID(u.Kind, side), Of: u.ID, Original: u.Original, Kind: u.Kind, Side: side, To: p.Address, Phase: u.Phase}
		if err := emit(EvMailResent, r); err != nil {
			return err
		}
	}
	return nil
}

// applyResent applies a MailResent event: the mail goes to the outbox,
// to be rendered from the log when it is sent (see Host.renderResent).
func (g *Game) applyResent(ev events.Event) error {
	var d MailResent
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	i := g.undeliveredIndex(d.Of)
	if i < 0 || g.Undelivered[i].ID != d.Of || g.Undelivered[i].Resent != "" {
		return fmt.Errorf("mail %s is not undelivered, or is sent again already", d.Of)
	}
	if p, ok := g.Player(d.Side); !ok || p.Address != d.To || d.Side != g.Undelivered[i].Side {
		return fmt.Errorf("mail for %s sent again to %s, not to the side's registered address", d.Side, d.To)
	}
	g.Undelivered[i].Resent = d.ID
	g.mails[d.ID] = d.Side
	g.noteMail(d.ID, d.Kind, d.Phase, d.To, d.Original)
	g.Outbox = append(g.Outbox, &Outgoing{Queued: MailQueued{ID: d.ID, Kind: d.Kind, Side: d.Side, To: d.To, Phase: d.Phase}, Seq: ev.Seq, original: d.Original})
	return nil
}

// undeliveredData is what the referee is told of an undelivered mail
// (templates/undelivered.tmpl).
func (g *Game) undeliveredData(id string) (map[string]any, error) {
	i := g.undeliveredIndex(id)
	if i < 0 {
		return nil, fmt.Errorf("no undelivered mail %s to tell of", id)
	}
	u := g.Undelivered[i]
	phase := u.Phase
	if phase == "" {
		phase = "(before the first phase)"
	}
	how := "The mail server refused it"
	if u.Bounced {
		how = "It bounced"
	}
	return map[string]any{"Game": g.ID, "Side": u.Side, "Phase": phase, "Kind": u.Kind, "ID": u.ID, "To": u.To, "How": how, "Why": u.Why}, nil
}

// undeliveredMail renders the referee's mail about the undelivered mails
// about (Message-IDs, space-separated): undelivered.tmpl for one,
// undeliveredall.tmpl listing each for several.
func (g *Game) undeliveredMail(about string) (name string, data map[string]any, subject string, err error) {
	ids := strings.Fields(about)
	if len(ids) == 1 {
		d, err := g.undeliveredData(ids[0])
		if err != nil {
			return "", nil, "", err
		}
		return "undelivered.tmpl", d, fmt.Sprintf("[skagerrak] %s %s: mail to %s undelivered", g.ID, d["Phase"], d["Side"]), nil
	}
	var mails []map[string]any
	var sides []string
	for _, id := range ids {
		d, err := g.undeliveredData(id)
		if err != nil {
			return "", nil, "", err
		}
		mails = append(mails, d)
		if s := string(d["Side"].(engine.Side)); !slices.Contains(sides, s) {
			sides = append(sides, s)
		}
	}
	return "undeliveredall.tmpl", map[string]any{"Game": g.ID, "Count": len(ids), "Mails": mails, "Sides": sides},
		fmt.Sprintf("[skagerrak] %s: %d mails undelivered (%s)", g.ID, len(ids), strings.Join(sides, ", ")), nil
}

// renderResent renders a mail sent again: the text of its original, read
// back from the game's log, under its own Message-ID and address, with a
// line saying why it comes again.
func (h *Host) renderResent(hg *hosted, o *Outgoing) error {
	m, err := renderFromLog(hg.log, o.original)
	if err != nil {
		return fmt.Errorf("adjudicator: game %s: mail %s sent again: %w", hg.g.ID, o.Queued.ID, err)
	}
	m.ID, m.To = o.Queued.ID, o.Queued.To
	if p, ok := hg.g.Player(o.Queued.Side); ok && hg.g.Created.Encrypt {
		m.Encrypt, m.Key = true, p.Key
	}
	m.Text = "This mail is sent again: it did not reach you when first sent (" + o.original + ").\n\n" + m.Text
	o.Mail = m
	return nil
}

// renderFromLog replays a log until the mail id is queued and returns it
// as it was rendered then.
func renderFromLog(l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}, id string) (Mail, error) {
	g := NewGame(TemplateRenderer{}, false)
	var found *Mail
	g.OnMail = func(o *Outgoing) {
		if o.Queued.ID == id {
			m := o.Mail
			found = &m
		}
	}
	for ev, err := range l.Events(1) {
		if err != nil {
			return Mail{}, err
		}
		if err := g.Apply(ev); err != nil {
			return Mail{}, err
		}
		if found != nil {
			return *found, nil
		}
	}
	return Mail{}, fmt.Errorf("the log queues no mail %s", id)
}
