package adjudicator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	// Orders are the latest accepted orders of the open phase, by side.
	Orders map[engine.Side]OrdersAccepted
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

	received // the messages received and what answered them
	intake   // the open phase's orders and replies
	outMail  // the mail queued, and what it told
	process  // how this process renders, resolves and replays
}

// received is what the fold keeps of the messages a game recorded: their
// identities (so that none counts twice), who signed them and when, and
// which were answered.
type received struct {
	keys         map[string]uint64    // the seq where each message key was first recorded
	legacy       map[string]bool      // messages recorded under packet keys, by contentKey
	rejected     map[string]bool      // keys of submissions rejected with an event
	signed       map[string]time.Time // latest signature time accepted, by key fingerprint
	former       []Player             // registrations since replaced by the referee, by fingerprint
	replied      map[string]bool      // submissions whose reply is queued (or withheld), by key
	encrypts     map[engine.Side]bool // sides (the referee too) that sent signed mail encrypted to the host
	toldUnsigned map[string]bool      // sides told how to sign, by remindKey of the phase
	lastRejected *OrdersRejected
	lastCommand  *PlayerCommand // the last command of a player's mail, for its answer
}

// intake is what the fold keeps of the open phase beyond Game.Orders and
// Game.Opened: cleared or replaced when a phase opens or resolves.
type intake struct {
	parsed     map[engine.Side]engine.Orders // Game.Orders, parsed
	replies    map[string]int                // replies to each key in the open phase, by replyScope
	acceptedIn map[engine.Side]int           // order files accepted from each side in the open phase
	// deadlineSet is when the open phase's deadline was last set (opened
	// or moved): a resume moves it by the time paused since then.
	deadlineSet time.Time
	// waiting is set while the open phase waits for the mailbox.
	waiting *PhaseWaiting
}

// outMail is what the fold keeps of the mail a game queued: for whom, of
// what kind, which reminders, flags and final reports went out, and each
// report with the game as it stood (short mail leaves out what did not
// change).
type outMail struct {
	mails       map[string]engine.Side // the Message-ID of every mail queued, and whom it was for
	mailNotes   map[string]mailNote    // the kind, phase and address of every mail queued, by Message-ID
	finals      map[engine.Side]bool   // sides whose final report is queued
	reminded    map[string]bool        // reminders queued, by remindKey
	flagged     map[engine.Side]int    // the phases missed when each side was last flagged
	reports     []*sentReport          // every report queued, with the game as it stood
	lastMap     map[engine.Side]uint64 // the seq of the last report that carried each side's map
	mapSums     map[string][32]byte    // SHA-256 of the last map of each side, by Message-ID of its report (a cache)
	lastNotice  string                 // what the next notice tells
	createdHash string                 // the hash of record 1, which receipts name
	// justBounced is the mail the event just applied reported bounced;
	// bouncedBefore the one the event before reported (Apply moves it).
	justBounced, bouncedBefore string
}

// process is not part of the game's state: what this process keeps to
// render, resolve and replay it.
type process struct {
	cache    map[string]engine.State // the state a decision just resolved, by digest, until Apply takes it
	strict   bool                    // render every mail on replay and check its digest
	renderer Renderer
	past     func(seq uint64) (*Game, error) // the game as it stood before a record, from its log
	secret   []byte
	// judgedAt, while set, is when Tick judges deadlines: the start of
	// the last read of the whole mailbox, while mail read in a pass is
	// acted on.
	judgedAt *time.Time
	// fresh is the data of the event being emitted, so that Apply need not
	// decode what was encoded a moment ago; checked are the orders Submit
	// just parsed, and rendered the mail a decision just rendered, for the
	// same reason. Replay has none of them.
	fresh    any
	checked  checkedOrders
	rendered *Mail
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
		Orders:  map[engine.Side]OrdersAccepted{},
		Players: map[engine.Side]Player{},
		Missed:  map[engine.Side]int{},
		received: received{
			keys:         map[string]uint64{},
			legacy:       map[string]bool{},
			rejected:     map[string]bool{},
			signed:       map[string]time.Time{},
			replied:      map[string]bool{},
			encrypts:     map[engine.Side]bool{},
			toldUnsigned: map[string]bool{},
		},
		intake: intake{
			parsed:     map[engine.Side]engine.Orders{},
			replies:    map[string]int{},
			acceptedIn: map[engine.Side]int{},
		},
		outMail: outMail{
			mails:     map[string]engine.Side{},
			mailNotes: map[string]mailNote{},
			finals:    map[engine.Side]bool{},
			reminded:  map[string]bool{},
			flagged:   map[engine.Side]int{},
			lastMap:   map[engine.Side]uint64{},
			mapSums:   map[string][32]byte{},
		},
		process: process{cache: map[string]engine.State{}, strict: strict, renderer: r},
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
