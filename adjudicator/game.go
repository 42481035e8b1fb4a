package adjudicator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"skagerrak/engine"
	"skagerrak/events"
)

// Game is a game as its event log tells it: the fold of every event so far.
// Apply is the only way it changes.
type Game struct {
	// ID is the game's identifier, also its directory name.
	ID      string
	Created GameCreated
	Rules   engine.Ruleset
	// State is the ruleset state after the last resolution.
	State engine.State
	// Phase is the ruleset's open phase.
	Phase engine.Phase
	// Opened is the open phase's record (deadline); nil before the first
	// PhaseOpened and after the end.
	Opened *PhaseOpened
	// OpenedAt is when the open phase was opened.
	OpenedAt time.Time
	// deadlineSet is when the open phase's deadline was last set (opened
	// or moved): a resume moves it by the time paused since then.
	deadlineSet time.Time
	// Orders are the latest accepted orders of the open phase, by side.
	Orders map[engine.Side]OrdersAccepted
	parsed map[engine.Side]engine.Orders
	// Players by side, and the referee.
	Players map[engine.Side]Player
	Referee *Player
	// Outbox holds queued mail not yet sent or failed, in queue order.
	Outbox []*Outgoing
	// Failed holds mail whose delivery failed for good; Bounced the mail
	// that a delivery status notification reported as not delivered.
	Failed  []MailFailed
	Bounced []MailBounced
	// Undelivered holds the mail that did not arrive and still stands:
	// until it is sent again and delivered (see Undelivered).
	Undelivered []Undelivered
	// Paused is set while the game is paused; Pauses counts pauses so far.
	Paused   *GamePaused
	PausedAt time.Time
	Pauses   int
	// Missed counts the phases in a row each side missed.
	Missed map[engine.Side]int
	// Dice are the manual rolls supplied and not yet used; the first
	// DiceD6 of them were supplied as d6 faces (before dice of every type),
	// the rest as faces of the dice their rolls ask for.
	Dice   []int
	DiceD6 int
	// Ended is set once the game is over.
	Ended *GameEnded
	// Seq, Hash and Time are those of the last event applied.
	Seq  uint64
	Hash string
	Time time.Time
	// Resolved counts resolved phases.
	Resolved int
	// History lists every resolution, for reports and verify.
	History []PhaseResolved
	// Moves records every resolved phase's orders, side by side, for the
	// final report that reveals the game move by move.
	Moves []PhaseMoves
	// Unrendered counts, in a strict replay, the queued mails whose digest
	// could not be checked: an earlier build rendered them (see
	// RenderRevision).
	Unrendered int
	// OnMail, if set, sees every mail as it is queued, rendered (for
	// `skagerrak report`, which shows a report exactly as it was sent).
	OnMail func(*Outgoing)

	keys         map[string]uint64      // the seq where each message key was first recorded
	mails        map[string]engine.Side // the Message-ID of every mail queued, and whom it was for
	mailNotes    map[string]mailNote    // the kind, phase and address of every mail queued, by Message-ID
	justBounced  string                 // the mail the event just applied reported bounced
	createdHash  string                 // the hash of record 1, which receipts name
	legacy       map[string]bool        // messages recorded under packet keys, by contentKey
	rejected     map[string]bool        // keys of submissions rejected with an event
	signed       map[string]time.Time   // latest signature time accepted, by key fingerprint
	former       []Player               // registrations since replaced by the referee, by fingerprint
	replied      map[string]bool        // submissions whose reply is queued (or withheld), by key
	replies      map[string]int         // replies to each key in the open phase, by replyScope
	acceptedIn   map[engine.Side]int    // order files accepted from each side in the open phase
	finals       map[engine.Side]bool   // sides whose final report is queued
	reminded     map[string]bool
	flagged      map[engine.Side]int
	encrypts     map[engine.Side]bool // sides (the referee too) that sent signed mail encrypted to the host
	cache        map[string]engine.State
	strict       bool
	renderer     Renderer
	lastRejected *OrdersRejected
	lastNotice   string
	// waiting is set while the open phase waits for the mailbox.
	waiting *PhaseWaiting
	// judgedAt, while set, is when Tick judges deadlines: the start of
	// the last read of the whole mailbox, while mail read in a pass is
	// acted on. Not part of the game's state.
	judgedAt     *time.Time
	lastCommand  *PlayerCommand                  // the last command of a player's mail, for its answer
	reports      []*sentReport                   // every report queued, with the game as it stood
	lastMap      map[engine.Side]uint64          // the seq of the last report that carried each side's map
	past         func(seq uint64) (*Game, error) // the game as it stood before a record, from its log
	toldUnsigned map[string]bool                 // sides told how to sign, by remindKey of the phase
	mapSums      map[string][32]byte             // SHA-256 of the last map of each side, by Message-ID of its report (a cache)
	secret       []byte
	rendered     *Mail
	// fresh is the data of the event being emitted, so that Apply need not
	// decode what was encoded a moment ago; checked are the orders Submit
	// just parsed, for the same reason. Replay has neither.
	fresh   any
	checked checkedOrders
	// ctx is the context resolutions run in (SetContext).
	ctx context.Context
}

// checkedOrders remembers one side's orders parsed by Submit until Apply
// takes them.
type checkedOrders struct {
	side   engine.Side
	text   string
	orders engine.Orders
}

func (c *checkedOrders) take(side engine.Side, text string) (engine.Orders, []engine.LineError) {
	if c.orders == nil || c.side != side || c.text != text {
		return nil, nil
	}
	o := c.orders
	*c = checkedOrders{}
	return o, nil
}

// decode reads an event's data, or takes it as emitted when the event was
// just written by this process (the log holds the same, encoded).
func (g *Game) decode(ev events.Event, v any) error {
	if g.fresh != nil {
		dst := reflect.ValueOf(v).Elem()
		src := reflect.ValueOf(g.fresh)
		g.fresh = nil
		if src.Type() == dst.Type() {
			dst.Set(src)
			return nil
		}
	}
	return decode(ev, v)
}

// checkSigTime refuses a signed submission older than one already
// accepted from the same key: the order they were signed in is the order
// they count in. strict (an event keyed by its canonical identity) refuses
// one signed in the same second too, as Submit does.
func (g *Game) checkSigTime(fingerprint string, at time.Time, strict bool) error {
	last, ok := g.signed[fingerprint]
	if !ok || at.IsZero() {
		return nil
	}
	if at.Before(last) {
		return fmt.Errorf("signed %s, before the last accepted message of key %s (%s)", at.UTC().Format(time.RFC3339), fingerprint, last.UTC().Format(time.RFC3339))
	}
	if strict && at.Equal(last) {
		return fmt.Errorf("signed %s, the same second as the last accepted message of key %s", at.UTC().Format(time.RFC3339), fingerprint)
	}
	return nil
}

func (g *Game) noteSigned(fingerprint string, at time.Time) {
	if fingerprint != "" && !at.IsZero() && at.After(g.signed[fingerprint]) {
		g.signed[fingerprint] = at
	}
}

// SetSecret gives the game its dice secret, which the host keeps outside the
// log until the game ends.
func (g *Game) SetSecret(secret []byte) error {
	c := sha256.Sum256(secret)
	if g.Seq > 0 && hex.EncodeToString(c[:]) != g.Created.SecretCommitment {
		return fmt.Errorf("adjudicator: the dice secret of game %s does not match its commitment", g.ID)
	}
	g.secret = append([]byte(nil), secret...)
	return nil
}

// PhaseMoves is one resolved phase's orders: each side's order lines as
// accepted, or its default orders as played.
type PhaseMoves struct {
	Phase, Title, Why string
	Orders            map[engine.Side]string
	Defaulted         []engine.Side
	Rolls             int
}

// Outgoing is a queued message with what it takes to render it.
type Outgoing struct {
	Queued MailQueued
	Seq    uint64
	// Mail is the rendered message; see Render.
	Mail Mail
	// frozen is the game as it was when the mail was queued, for mail
	// that replay left unrendered.
	frozen *Game
	// original is, for a mail sent again (MailResent), the mail whose
	// text it carries: rendered from the log when it is sent.
	original string
}

// Render renders the mail if replay left it unrendered.
func (o *Outgoing) Render() error {
	if o.Mail.ID != "" {
		return nil
	}
	if o.frozen == nil {
		if o.original != "" {
			return fmt.Errorf("adjudicator: mail %s is sent again: its text is rendered from the game's log", o.Queued.ID)
		}
		return fmt.Errorf("adjudicator: mail %s cannot be rendered", o.Queued.ID)
	}
	m, err := o.frozen.render(o.Queued)
	if err != nil {
		return fmt.Errorf("adjudicator: rendering %s mail to %s: %w", o.Queued.Kind, o.Queued.Side, err)
	}
	o.Mail, o.frozen = m, nil
	return nil
}

// freeze returns a copy of the game that later events do not change: what
// rendering reads, copied where Apply changes it in place (states are
// never changed in place: each resolution makes a new one).
func (g *Game) freeze() *Game {
	c := *g
	c.Orders = make(map[engine.Side]OrdersAccepted, len(g.Orders))
	for k, v := range g.Orders {
		c.Orders[k] = v
	}
	c.parsed = make(map[engine.Side]engine.Orders, len(g.parsed))
	for k, v := range g.parsed {
		c.parsed[k] = v
	}
	c.encrypts = make(map[engine.Side]bool, len(g.encrypts))
	for k, v := range g.encrypts {
		c.encrypts[k] = v
	}
	c.Players = make(map[engine.Side]Player, len(g.Players))
	for k, v := range g.Players {
		c.Players[k] = v
	}
	if g.Opened != nil {
		o := *g.Opened
		c.Opened = &o
	}
	c.History = g.History[:len(g.History):len(g.History)]
	c.Undelivered = slices.Clone(g.Undelivered)
	c.reports = g.reports[:len(g.reports):len(g.reports)]
	c.Outbox, c.keys, c.rejected, c.cache, c.OnMail, c.mails, c.mailNotes = nil, nil, nil, nil, nil, nil, nil
	if c.renderer == nil {
		c.renderer = TemplateRenderer{}
	}
	return &c
}

// Mail is one outgoing message, rendered.
type Mail struct {
	// Kind is the MailQueued kind (report, accepted, rejected...).
	Kind        string
	ID          string
	To          string
	Subject     string
	Text        string
	Attachments []Attachment
	// Boundary, when set, is the Message-ID the MIME boundaries derive
	// from instead of ID: a report sent again keeps the first one's, so
	// that its signed body is the same bytes.
	Boundary string
	// Encrypt asks for the message to be encrypted to Key.
	Encrypt bool
	Key     string

	picture func() (Attachment, error)
}

// Attachment is a file attached to a Mail.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// ReplayError is a replay that does not reproduce what the log records.
type ReplayError struct {
	Seq    uint64
	Type   string
	Reason string
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("adjudicator: event %d (%s): %s", e.Seq, e.Type, e.Reason)
}

// NewGame returns an empty game to apply events to. strict makes Apply
// render every queued message and check it against its recorded digest,
// which verify wants and a daemon need not pay for.
func NewGame(r Renderer, strict bool) *Game {
	return &Game{
		Orders:       map[engine.Side]OrdersAccepted{},
		parsed:       map[engine.Side]engine.Orders{},
		Players:      map[engine.Side]Player{},
		Missed:       map[engine.Side]int{},
		keys:         map[string]uint64{},
		mails:        map[string]engine.Side{},
		mailNotes:    map[string]mailNote{},
		legacy:       map[string]bool{},
		rejected:     map[string]bool{},
		signed:       map[string]time.Time{},
		replied:      map[string]bool{},
		replies:      map[string]int{},
		finals:       map[engine.Side]bool{},
		acceptedIn:   map[engine.Side]int{},
		reminded:     map[string]bool{},
		flagged:      map[engine.Side]int{},
		encrypts:     map[engine.Side]bool{},
		lastMap:      map[engine.Side]uint64{},
		toldUnsigned: map[string]bool{},
		mapSums:      map[string][32]byte{},
		cache:        map[string]engine.State{},
		strict:       strict,
		renderer:     r,
	}
}

// Digest is the hex SHA-256 of v's canonical JSON.
func Digest(v any) (string, error) {
	b, err := engine.Canonical(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Reminded reports whether the open phase's reminders were queued
// (every side that still owes orders has had its reminder).
func (g *Game) Reminded() bool {
	if g.Opened == nil {
		return false
	}
	for _, s := range g.Owing() {
		if !g.reminded[remindKey(g.Opened.Phase, s)] {
			return false
		}
	}
	return true
}

func remindKey(phase string, side engine.Side) string { return phase + "/" + string(side) }

// forgetReminders clears the reminders of a phase whose deadline moved.
func (g *Game) forgetReminders(phase string) {
	for k := range g.reminded {
		if strings.HasPrefix(k, phase+"/") {
			delete(g.reminded, k)
		}
	}
}

// Owing returns the sides that owe orders for the open phase and have none.
func (g *Game) Owing() []engine.Side {
	var out []engine.Side
	if g.Opened == nil || g.Ended != nil {
		return nil
	}
	for _, s := range g.Opened.Owes {
		if _, ok := g.Orders[s]; !ok {
			out = append(out, s)
		}
	}
	return out
}

// afterEnd are the events a game takes after its end: its last mails, what
// became of them, and the referee's address for mail that did not arrive.
var afterEnd = map[string]bool{EvMailQueued: true, EvMailSent: true, EvMailFailed: true, EvRefereeResult: true, EvMailBounced: true,
	EvSideChanged: true, EvMailResent: true}

// Apply folds one event into the game.
func (g *Game) Apply(ev events.Event) error {
	fail := func(format string, args ...any) error {
		return &ReplayError{Seq: ev.Seq, Type: ev.Type, Reason: fmt.Sprintf(format, args...)}
	}
	if g.Seq == 0 && ev.Type != EvGameCreated {
		return fail("the first event of a game must be %s", EvGameCreated)
	}
	if g.Ended != nil && !afterEnd[ev.Type] {
		return fail("event after the game ended")
	}
	bounced := g.justBounced
	g.justBounced = ""
	switch ev.Type {
	case EvGameCreated:
		var d GameCreated
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if g.Seq != 0 {
			return fail("a second %s", EvGameCreated)
		}
		rs, err := engine.Lookup(d.Ruleset)
		if err != nil {
			return fail("%v", err)
		}
		if _, err := engine.RevisionOf(rs, d.Setup); err != nil {
			return fail("the game is played under rules this build does not have: %v", err)
		}
		st, err := rs.New(d.Setup.Played(), engine.NewReplayDice(d.SetupRolls))
		if err != nil {
			return fail("set-up: %v", err)
		}
		dg, err := Digest(st)
		if err != nil {
			return fail("%v", err)
		}
		if dg != d.StateDigest {
			return fail("the initial state digest is %s, the log says %s", dg, d.StateDigest)
		}
		g.ID, g.Created, g.Rules, g.State, g.createdHash = d.Game, d, rs, st, ev.Hash
		g.Phase = rs.Phase(st)
		for _, p := range d.Players {
			g.Players[p.Side] = p
		}
		g.Referee = d.Referee
	case EvPhaseOpened:
		var d PhaseOpened
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if d.Phase != g.Phase.ID {
			return fail("opens phase %q but the rules are at %q", d.Phase, g.Phase.ID)
		}
		g.Opened, g.OpenedAt, g.deadlineSet = &d, ev.Time, ev.Time
		clear(g.replies)
		clear(g.acceptedIn)
		g.Orders = map[engine.Side]OrdersAccepted{}
		g.parsed = map[engine.Side]engine.Orders{}
	case EvOrdersAccepted:
		var d OrdersAccepted
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if g.Opened == nil || d.Phase != g.Opened.Phase {
			return fail("orders for phase %q, which is not open", d.Phase)
		}
		if err := g.noteKey(ev.Seq, ev.Type, d.Key); err != nil {
			return fail("%v", err)
		}
		if err := g.countReply(d.Fingerprint, d.Key, d.Unanswered, false); err != nil {
			return fail("%v", err)
		}
		if err := g.checkSigTime(d.Fingerprint, d.SigTime, canonicalKey(d.Key)); err != nil {
			return fail("%v", err)
		}
		if !d.SigTime.IsZero() && d.SigTime.Before(g.OpenedAt.Add(-ClockSkew)) {
			return fail("orders signed %s, before their phase opened", d.SigTime.UTC().Format(time.RFC3339))
		}
		if !d.Received.IsZero() && g.Paused == nil && !d.Received.Before(g.dueAt()) {
			return fail("orders received %s, after the phase's deadline (%s)", stamp(d.Received), stamp(g.dueAt()))
		}
		o, errs := g.checked.take(d.Side, d.Text)
		if o == nil {
			p := readPlayerFile(d.Text)
			f, err := p.OrderFile, p.Err
			if err != nil {
				return fail("the accepted order file does not parse: %v", err)
			}
			if f.Game != g.ID || f.Phase != d.Phase || f.Side != d.Side {
				return fail("the order file says Game %s, Phase %s, Side %s; the event says %s, %s, %s", f.Game, f.Phase, f.Side, g.ID, d.Phase, d.Side)
			}
			if why := g.gameIDRefusal(f); why != "" && d.Source != "unsigned" {
				return fail("accepted, though %s", why)
			}
			var readTo int
			o, errs, readTo = g.parseSubmitted(d.Side, d.Text, p)
			if len(errs) == 0 && readTo != d.ReadTo {
				return fail("the orders were read to line %d of their text (0: all of it), where the rules read them to line %d", d.ReadTo, readTo)
			}
		}
		if len(errs) > 0 {
			return fail("the accepted orders of %s do not validate: %v", d.Side, errs[0])
		}
		d.Seq, d.Hash = ev.Seq, ev.Hash
		g.Orders[d.Side] = d
		if d.Source != "unsigned" {
			g.acceptedIn[d.Side]++ // paper orders keep no mail
		}
		g.parsed[d.Side] = o
		g.noteLegacy(d.Key, d.Fingerprint, d.SigTime, d.Text)
		g.noteSigned(d.Fingerprint, d.SigTime)
		g.Missed[d.Side] = 0
		g.noteEncrypted(d.Side, d.Encrypted)
	case EvOrdersRejected:
		var d OrdersRejected
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if err := g.noteKey(ev.Seq, ev.Type, d.Key); err != nil {
			return fail("%v", err)
		}
		if err := g.countReply(d.Fingerprint, d.Key, d.Unanswered, d.Stray); err != nil {
			return fail("%v", err)
		}
		g.rejected[d.Key] = d.Key != ""
		g.lastRejected = &d
		g.noteEncrypted(d.Side, d.Encrypted && !d.ByAddress)
	case EvPhaseResolved:
		var d PhaseResolved
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if g.Opened == nil || d.Phase != g.Opened.Phase {
			return fail("resolves phase %q, which is not open", d.Phase)
		}
		if owing := g.Owing(); !slices.Equal(owing, d.Defaulted) {
			return fail("the phase defaulted %v, but the sides without orders were %v", d.Defaulted, owing)
		}
		orders, texts := g.phaseOrders(d.Defaulted)
		if od := engine.OrdersDigest(texts); hex.EncodeToString(od[:]) != d.OrdersDigest {
			return fail("the orders digest is %x, the log says %s", od, d.OrdersDigest)
		}
		st, ok := g.cache[d.StateDigest]
		if !ok {
			dice := engine.NewReplayDice(d.Rolls)
			var err error
			st, err = g.resolveOpen(orders, dice)
			var stopped *engine.Stopped
			switch {
			case errors.As(err, &stopped):
				return fmt.Errorf("adjudicator: replaying event %d: %w", ev.Seq, err)
			case err != nil && dice.Short() > 0:
				return fail("the resolution asks for more rolls than the %d the log records", len(d.Rolls))
			case err != nil:
				return fail("resolution: %v", err)
			}
			if err := dice.Err(); err != nil {
				return fail("%v", err)
			}
			if dice.Used() != len(d.Rolls) || dice.Short() > 0 {
				return fail("the resolution used %d rolls, the log records %d", dice.Used()+dice.Short(), len(d.Rolls))
			}
			dg, err := Digest(st)
			if err != nil {
				return fail("%v", err)
			}
			if dg != d.StateDigest {
				return fail("the state digest is %s, the log says %s", dg, d.StateDigest)
			}
		}
		clear(g.cache)
		mv := PhaseMoves{Phase: d.Phase, Title: g.Opened.Title, Why: d.Why, Orders: map[engine.Side]string{}, Defaulted: d.Defaulted, Rolls: len(d.Rolls)}
		for side, o := range orders {
			mv.Orders[side] = g.Rules.FormatOrders(g.State, side, o)
		}
		g.Moves = append(g.Moves, mv)
		for _, s := range d.Defaulted {
			g.Missed[s]++
		}
		if g.Created.Dice == "manual" {
			if err := g.useDice(d.Rolls); err != nil {
				return fail("%v", err)
			}
		}
		if g.waiting != nil {
			g.lastNotice = fmt.Sprintf("Phase %s, which waited for the mailbox to be read, has resolved (%s): every order the mail server received before its deadline counted.", d.Phase, d.Why)
			g.waiting = nil
		}
		g.State = st
		g.Phase = g.Rules.Phase(st)
		g.Opened = nil
		g.Orders = map[engine.Side]OrdersAccepted{}
		g.parsed = map[engine.Side]engine.Orders{}
		g.Resolved++
		d.Seq = ev.Seq
		g.History = append(g.History, d)
	case EvMailQueued:
		var d MailQueued
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if p, ok := g.Player(d.Side); !ok || p.Address != d.To {
			return fail("mail for %s addressed to %s, not to the side's registered address", d.Side, d.To)
		}
		if d.Kind == MailReminder {
			g.reminded[remindKey(d.Phase, d.Side)] = true
		}
		if d.Kind == MailFlag {
			g.flagged[d.Side] = g.Missed[d.Side]
		}
		if d.About != "" {
			g.replied[d.About] = true
		}
		g.mails[d.ID] = d.Side
		g.noteMail(d.ID, d.Kind, d.Phase, d.To, "")
		switch {
		case d.Kind == MailUndelivered:
			g.told(d.About)
		case d.Kind == MailNotice && d.Side == Referee && bounced != "":
			// A build before MailUndelivered told the referee of a bounce
			// with a notice.
			g.told(bounced)
		}
		if d.Kind == MailFinal {
			g.finals[d.Side] = true
		}
		if d.Kind == MailReport {
			g.noteReport(d, ev.Seq)
		}
		out := &Outgoing{Queued: d, Seq: ev.Seq}
		switch {
		case g.rendered != nil && g.rendered.ID == d.ID:
			// Queued just now: the decision rendered it for its digest.
			out.Mail, g.rendered = *g.rendered, nil
		case g.strict || g.OnMail != nil:
			m, err := g.render(d)
			if err != nil {
				return fail("rendering %s mail: %v", d.Kind, err)
			}
			switch {
			case !g.strict:
			case d.rendered() != RenderRevision:
				// Rendered by a build whose mails read otherwise: what
				// the game decided is checked, this text cannot be.
				g.Unrendered++
			case digestText(m.Text) != d.Digest:
				return fail("the %s mail to %s renders with digest %s, the log says %s", d.Kind, d.Side, digestText(m.Text), d.Digest)
			}
			out.Mail = m
		default:
			// Replaying: most mail was sent long ago, so keep what it takes
			// to render it and render only what is still to be sent.
			out.frozen = g.freeze()
		}
		g.Outbox = append(g.Outbox, out)
		if g.OnMail != nil {
			g.OnMail(out)
		}
	case EvMailSent, EvMailFailed:
		var d MailFailed
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		i := g.outboxIndex(d.ID)
		if i < 0 {
			return fail("mail %s is not in the outbox", d.ID)
		}
		side := g.Outbox[i].Queued.Side
		g.Outbox = append(g.Outbox[:i], g.Outbox[i+1:]...)
		if ev.Type == EvMailFailed {
			g.Failed = append(g.Failed, d)
			g.noteUndelivered(d.ID, side, d.Error, false)
		} else {
			g.delivered(d.ID)
		}
	case EvDiceAdded:
		var d DiceAdded
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if !d.PerDie {
			if len(g.Dice) > g.DiceD6 {
				return fail("d6 faces supplied after dice of every type")
			}
			g.DiceD6 += len(d.Values)
		}
		g.Dice = append(g.Dice, d.Values...)
	case EvDiceCleared:
		var d DiceCleared
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if !slices.Equal(d.Values, g.Dice) {
			return fail("clears the dice %v, but the hand holds %v", d.Values, g.Dice)
		}
		g.Dice, g.DiceD6 = nil, 0
	case EvDeadlineChanged:
		var d DeadlineChanged
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if g.Opened == nil || g.Opened.Phase != d.Phase {
			return fail("deadline of phase %q, which is not open", d.Phase)
		}
		g.Opened.Deadline = d.Deadline
		g.deadlineSet = ev.Time
		g.forgetReminders(d.Phase)
		g.lastNotice = fmt.Sprintf("%s moved the deadline of %s to %s: %s", d.By, d.Phase, d.Deadline.UTC().Format(time.RFC1123), d.Why)
	case EvGamePaused:
		var d GamePaused
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		g.Paused, g.PausedAt = &d, ev.Time
		g.Pauses++
		g.lastNotice = fmt.Sprintf("%s paused the game: %s", d.By, d.Why)
	case EvGameResumed:
		var d GameResumed
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		g.Paused = nil
		if g.Opened != nil {
			g.Opened.Deadline = d.Deadline
			g.forgetReminders(g.Opened.Phase)
		}
		g.lastNotice = fmt.Sprintf("%s resumed the game: %s. The deadline is now %s.", d.By, d.Why, d.Deadline.UTC().Format(time.RFC1123))
	case EvSideChanged:
		var d SideChanged
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if old, ok := g.Player(d.Player.Side); ok && old.Fingerprint != d.Player.Fingerprint {
			g.noteFormer(old)
		}
		if d.Player.Side == Referee {
			g.Referee = &d.Player
		} else {
			g.Players[d.Player.Side] = d.Player
		}
		g.lastNotice = fmt.Sprintf("%s changed the registration of %s (address %s, key %s): %s", d.By, d.Player.Side, d.Player.Address, d.Player.Fingerprint, d.Why)
	case EvSideFlagged:
		var d SideFlagged
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		g.flagged[d.Side] = d.Missed
		g.lastNotice = fmt.Sprintf("Side %s has missed %d phases in a row and played them with default orders.", d.Side, d.Missed)
	case EvRefereeMail:
		var d RefereeMail
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if err := g.noteKey(ev.Seq, ev.Type, d.Key); err != nil {
			return fail("%v", err)
		}
		if err := g.countReply(d.Fingerprint, d.Key, d.Unanswered, false); err != nil {
			return fail("%v", err)
		}
		if err := g.checkSigTime(d.Fingerprint, d.SigTime, canonicalKey(d.Key)); err != nil {
			return fail("%v", err)
		}
		g.noteLegacy(d.Key, d.Fingerprint, d.SigTime, d.Text)
		g.noteSigned(d.Fingerprint, d.SigTime)
		g.noteEncrypted(Referee, d.Encrypted)
	case EvRefereeResult:
		var d RefereeResult
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		g.lastNotice = "Your commands:\n\n" + strings.Join(d.Lines, "\n")
	case EvGameEnded:
		var d GameEnded
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		sec, err := hex.DecodeString(d.Secret)
		if err != nil {
			return fail("the published secret is not hex")
		}
		if c := sha256.Sum256(sec); hex.EncodeToString(c[:]) != g.Created.SecretCommitment {
			return fail("the published dice secret does not match the commitment of %s", EvGameCreated)
		}
		g.Ended = &d
		g.Opened = nil
	case EvPlayerMail, EvPlayerCommand, EvUnsignedAnswered:
		if err := g.applyPlayer(ev); err != nil {
			return fail("%v", err)
		}
	case EvMailBounced:
		if err := g.applyBounce(ev); err != nil {
			return fail("%v", err)
		}
	case EvMailResent:
		if err := g.applyResent(ev); err != nil {
			return fail("%v", err)
		}
	case EvPhaseWaiting:
		var d PhaseWaiting
		if err := g.decode(ev, &d); err != nil {
			return fail("%v", err)
		}
		if g.Opened == nil || d.Phase != g.Opened.Phase {
			return fail("phase %q waits, but it is not open", d.Phase)
		}
		g.waiting = &d
		g.lastNotice = waitingNotice(d, g.dueAt())
	default:
		return fail("unknown event type")
	}
	g.Seq, g.Hash, g.Time = ev.Seq, ev.Hash, ev.Time
	return nil
}

// phaseOrders returns the orders the open phase resolves with: each owing
// side's accepted orders, or the ruleset's defaults for the sides listed.
// The texts are what seeds the dice: the accepted order files, and for a
// defaulted side the default orders as FormatOrders writes them.
func (g *Game) phaseOrders(defaulted []engine.Side) (map[engine.Side]engine.Orders, map[engine.Side]string) {
	orders := map[engine.Side]engine.Orders{}
	texts := map[engine.Side]string{}
	for _, s := range g.Opened.Owes {
		if o, ok := g.parsed[s]; ok && !containsSide(defaulted, s) {
			orders[s] = o
			texts[s] = g.Orders[s].Text
			continue
		}
		o := g.Rules.DefaultOrders(g.State, s)
		orders[s] = o
		texts[s] = "NMR\n" + g.Rules.FormatOrders(g.State, s, o)
	}
	return orders, texts
}

func (g *Game) outboxIndex(id string) int {
	for i, o := range g.Outbox {
		if o.Queued.ID == id {
			return i
		}
	}
	return -1
}

// Sides returns the game's sides, sorted.
func (g *Game) Sides() []engine.Side {
	return slices.Sorted(maps.Keys(g.Players))
}

// SideOf returns the side whose key has this fingerprint; the referee's
// key gives Referee.
func (g *Game) SideOf(fingerprint string) (engine.Side, bool) {
	for _, s := range g.Sides() {
		if g.Players[s].Fingerprint == fingerprint {
			return s, true
		}
	}
	if g.Referee != nil && g.Referee.Fingerprint == fingerprint {
		return Referee, true
	}
	return "", false
}

// Holds reports whether the key with this fingerprint is registered for
// side (one player may hold two sides where the rules allow, e.g. Kampen
// om Norge's two-player game).
func (g *Game) Holds(fingerprint string, side engine.Side) bool {
	p, ok := g.Player(side)
	return ok && fingerprint != "" && p.Fingerprint == fingerprint
}

// noteFormer remembers a registration the referee replaced: what its key
// signed stays recorded here when another key takes its place.
func (g *Game) noteFormer(p Player) {
	i, found := slices.BinarySearchFunc(g.former, p.Fingerprint, func(q Player, fp string) int { return strings.Compare(q.Fingerprint, fp) })
	if !found {
		g.former = slices.Insert(g.former, i, p)
	}
}

// Former lists the registrations once in the game and since replaced by
// the referee, by fingerprint.
func (g *Game) Former() []Player { return slices.Clone(g.former) }

// Player returns the registration of a side or of the referee.
func (g *Game) Player(s engine.Side) (Player, bool) {
	if s == Referee {
		if g.Referee == nil {
			return Player{}, false
		}
		return *g.Referee, true
	}
	p, ok := g.Players[s]
	return p, ok
}

func decode(ev events.Event, v any) error {
	if err := json.Unmarshal(ev.Data, v); err != nil {
		return fmt.Errorf("bad %s data: %v", ev.Type, err)
	}
	return nil
}

func containsSide(xs []engine.Side, s engine.Side) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func digestText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
