package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"skagerrak/engine"
	"skagerrak/events"
)

// ClockSkew is how far a player's clock may run behind the host's: a
// signature made up to this long before its phase opened still counts as
// made for that phase (mail/verify allows as much into the future).
const ClockSkew = 10 * time.Minute

// Emit makes one event of a decision. The decisions below call it for each
// event in turn, so each sees the game as the events before it left it: a
// Batch's Emit applies the event to the game as it makes it.
type Emit func(typ string, data any) error

// Batch is the events of one decision, returned for the log to append as
// one (events.Log.AppendBatch): a crash leaves all of them or none, never
// half a decision. Each event is sealed after the game's head, and applied
// to the game as it is made, so that the rest of the decision sees it; if
// the log then cannot append the batch, the game holds what its log does
// not and must be replayed from the log.
type Batch struct {
	g      *Game
	clock  func() time.Time
	events []events.Event
	// spoiled is set when an event could not be applied: the game may
	// hold part of it.
	spoiled bool
}

// NewBatch starts the batch of a decision on the game; clock stamps each
// event as it is made.
func (g *Game) NewBatch(clock func() time.Time) *Batch {
	return &Batch{g: g, clock: clock}
}

// Emit seals the event that follows the game's head and applies it. An
// event that cannot be applied is left out of the batch, and spoils it.
func (b *Batch) Emit(typ string, data any) error {
	seq, prev := b.g.Seq, b.g.Hash
	if seq == 0 {
		prev = events.GenesisPrev
	}
	ev, err := events.NewEvent(seq+1, prev, typ, b.clock(), data)
	if err != nil {
		return fmt.Errorf("adjudicator: %w", err)
	}
	b.g.fresh = data
	if err := b.g.Apply(ev); err != nil {
		b.g.fresh, b.spoiled = nil, true
		return fmt.Errorf("adjudicator: applying the event just decided: %w", err)
	}
	b.events = append(b.events, ev)
	return nil
}

// Take returns the events made since the last Take, for the log to
// append as one, and whether one could not be applied (see Batch).
func (b *Batch) Take() ([]events.Event, bool) {
	evs, spoiled := b.events, b.spoiled
	b.events, b.spoiled = nil, false
	return evs, spoiled
}

// Len is how many events the batch holds.
func (b *Batch) Len() int { return len(b.events) }

// Submission is one order file that arrived, already authenticated.
type Submission struct {
	// Text is the whole order file (the signed bytes).
	Text string
	// Source is "mail", "file" or "unsigned".
	Source string
	// Raw is the whole message, for mail.
	Raw []byte
	// Signature is the detached armored signature of a signed file.
	Signature string
	// Fingerprint is the signer's key; "" for unsigned.
	Fingerprint string
	// Key is the canonical identity (see Verified.Key); "" for unsigned.
	Key string
	// PacketKey is the key older events recorded (see Verified.PacketKey).
	PacketKey string
	// SigTime is when the signature says it was made.
	SigTime time.Time
	// By names who entered unsigned orders (the operator).
	By string
	// Side, for unsigned orders, is the side they are for.
	Side engine.Side
	// Charset is the charset Text was decoded from ("" for UTF-8 as it
	// came); Ignored lists parts beside the order file not read as orders.
	Charset string
	Ignored []string
	// Refusal, when set, is why a message whose signature verified is
	// refused without reading it (see RefusedSigned).
	Refusal string
	// Others are the signer's other open games, when the text names no
	// game: the answer to its commands says to name one.
	Others []string
	// Received is when the host's own mail server received the message
	// (its IMAP INTERNALDATE); zero when not known (a file, paper orders,
	// a server that gave none). Orders received at or after the open
	// phase's deadline (plus grace) are late, whenever they are read.
	Received time.Time
	// Encrypted says the mail came encrypted to the host (Raw is the
	// decrypted message); ByAddress that no key signed it and it is
	// answered at the registered address its From names (see
	// OrdersRejected.ByAddress).
	Encrypted, ByAddress bool
}

// Outcome says what became of a submission.
type Outcome struct {
	// Status is "accepted", "rejected", "duplicate" or "referee".
	Status string
	// Side is whose orders they were, if known.
	Side engine.Side
	// Reason is why a rejection happened.
	Reason string
	// Errors are the line errors of rejected orders.
	Errors []engine.LineError
}

// Outcome statuses.
const (
	StatusAccepted  = "accepted"
	StatusRejected  = "rejected"
	StatusDuplicate = "duplicate"
	StatusReferee   = "referee"
	// StatusAnswered is a mail of a player's commands, answered.
	StatusAnswered = "answered"
)

// notOpen says why orders for phase are refused when open is the open
// phase: to a side that owes nothing in it, that its orders are not due
// now, rather than naming a phase that is not its own.
func notOpen(phase, open string, side engine.Side, opened *PhaseOpened) string {
	if opened != nil && side != Referee && !slices.Contains(opened.Owes, side) {
		return fmt.Sprintf("your side has no orders in the open phase %s (owed by %s); you will get a report with your order form when your orders are next due", open, joinSides(opened.Owes))
	}
	return fmt.Sprintf("phase %q is not open (it may have resolved already); the open phase is %s", phase, open)
}

// Submit takes an authenticated order file for this game: it checks the
// header, the signer's side, the phase and every line, and emits
// OrdersAccepted or OrdersRejected and the reply to the side's registered
// address. A message the log already holds (by its canonical identity,
// however it is encoded) emits nothing: a replay changes nothing and gets
// no reply.
func (g *Game) Submit(sub Submission, now time.Time, emit Emit) (Outcome, error) {
	if g.seen(sub) {
		return Outcome{Status: StatusDuplicate}, nil
	}
	side, known := g.SideOf(sub.Fingerprint)
	if sub.Source == "unsigned" {
		side, known = sub.Side, true
	}
	if !known {
		return Outcome{Status: StatusRejected, Reason: "the signing key is not registered in game " + g.ID}, nil
	}
	reject := func(phase string, reason string, errs []engine.LineError) (Outcome, error) {
		return g.reject(sub, side, phase, reason, errs, now, emit)
	}
	if sub.Refusal != "" {
		sub.Text = strings.ToValidUTF8(sub.Text, "\uFFFD")
		return reject("", sub.Refusal, nil)
	}
	if !utf8.ValidString(sub.Text) {
		// Nothing of it is kept as it came: the log holds JSON, which has
		// no place for bytes that are not UTF-8.
		sub.Text = strings.ToValidUTF8(sub.Text, "\uFFFD")
		return reject("", "the order file is not UTF-8 text (save it as UTF-8 and sign it again)", nil)
	}
	if side == Referee {
		f, err := engine.ParseOrderFile(sub.Text)
		return g.submitFile(playerFile{OrderFile: f, Err: err}, sub, side, now, emit)
	}
	p := readPlayerFile(sub.Text)
	if len(p.Commands) > 0 {
		return g.playerMail(p, sub, side, now, emit)
	}
	return g.submitFile(p, sub, side, now, emit)
}

// submitFile takes the order file of an authenticated submission (see
// Submit).
func (g *Game) submitFile(p playerFile, sub Submission, side engine.Side, now time.Time, emit Emit) (Outcome, error) {
	reject := func(phase string, reason string, errs []engine.LineError) (Outcome, error) {
		return g.reject(sub, side, phase, reason, errs, now, emit)
	}
	f, err := p.OrderFile, p.Err
	if err != nil {
		return reject("", err.Error(), nil)
	}
	var why string
	if side, why = g.headerRefusal(f, sub, side); why != "" {
		return reject(f.Phase, why, nil)
	}
	if side == Referee && g.Opened == nil {
		return g.refereeMail(f, sub, now, emit)
	}
	if why := g.openRefusal(f, sub, side); why != "" {
		return reject(f.Phase, why, nil)
	}
	if side == Referee {
		// Referee commands name the open phase too, so that an old
		// command cannot be sent again in a later phase.
		return g.refereeMail(f, sub, now, emit)
	}
	if why := g.intakeRefusal(f, sub, side); why != "" {
		return reject(f.Phase, why, nil)
	}
	parsed, errs, readTo := g.parseSubmitted(side, sub.Text, p)
	if len(errs) > 0 {
		return reject(f.Phase, fmt.Sprintf("%d error(s) in the orders", len(errs)), errs)
	}
	return g.accept(f, sub, side, parsed, readTo, now, emit)
}

// headerRefusal says why an order file's header refuses it, or "": another
// game, a game id the host does not take, a side the signer does not
// hold, a game over, a signature out of order. It returns the side the
// file is for (one player holding two sides names one in the header).
func (g *Game) headerRefusal(f engine.OrderFile, sub Submission, side engine.Side) (engine.Side, string) {
	if f.Game != g.ID {
		return side, fmt.Sprintf("the order file is for game %q; this is game %q", f.Game, g.ID)
	}
	if why := g.gameIDRefusal(f); why != "" && sub.Source != "unsigned" {
		// Paper orders are the operator's, entered on this host.
		return side, why
	}
	if f.Side != side && g.Holds(sub.Fingerprint, f.Side) {
		side = f.Side
	}
	switch {
	case f.Side != side && side == Referee:
		return side, fmt.Sprintf("the referee's key signed orders for side %q; referee commands say Side: referee", f.Side)
	case f.Side != side:
		return side, fmt.Sprintf("the signing key is registered for side %q, not %q", side, f.Side)
	case g.Ended != nil:
		return side, "the game is over"
	}
	return side, g.signingOrder(sub)
}

// openRefusal says why orders (or referee commands) for a phase are
// refused with a phase open, or "": not the open phase, or signed before
// it opened.
func (g *Game) openRefusal(f engine.OrderFile, sub Submission, side engine.Side) string {
	if g.Opened == nil || f.Phase != g.Opened.Phase {
		open := "none"
		if g.Opened != nil {
			open = g.Opened.Phase
		}
		return notOpen(f.Phase, open, side, g.Opened)
	}
	if !sub.SigTime.IsZero() && sub.SigTime.Before(g.OpenedAt.Add(-ClockSkew)) {
		return fmt.Sprintf("the signature was made %s, before phase %s opened (%s): an old message replayed?", sub.SigTime.UTC().Format(time.RFC3339), f.Phase, g.OpenedAt.UTC().Format(time.RFC3339))
	}
	return ""
}

// intakeRefusal says why a side's orders for the open phase are refused
// before they are read, or "": late, owed by others, or one file too many.
func (g *Game) intakeRefusal(f engine.OrderFile, sub Submission, side engine.Side) string {
	if due := g.dueAt(); g.Paused == nil && !sub.Received.IsZero() && !sub.Received.Before(due) {
		return fmt.Sprintf("the mail reached the host's mail server at %s, after phase %s's deadline (%s): it is late, and the phase resolves without it", stamp(sub.Received), f.Phase, stamp(due))
	}
	if !containsSide(g.Opened.Owes, side) {
		return fmt.Sprintf("side %s owes no orders in phase %s (orders are owed by %s)", side, f.Phase, joinSides(g.Opened.Owes))
	}
	if n := g.acceptedIn[side]; n >= MaxOrdersPerPhase && sub.Source != "unsigned" {
		return fmt.Sprintf("side %s has had %d order files accepted in phase %s, the most one phase takes: the last one accepted stands", side, n, f.Phase)
	}
	return ""
}

// accept emits OrdersAccepted for orders that parsed (read to line
// readTo, or whole when 0: see Game.parseSubmitted), and the reply.
func (g *Game) accept(f engine.OrderFile, sub Submission, side engine.Side, parsed engine.Orders, readTo int, now time.Time, emit Emit) (Outcome, error) {
	g.checked = checkedOrders{side: side, text: sub.Text, orders: parsed}
	a := OrdersAccepted{Phase: f.Phase, Side: side, Text: sub.Text, Source: sub.Source, Raw: sub.Raw, Signature: sub.Signature, Fingerprint: sub.Fingerprint, Key: sub.Key,
		SigTime: sub.SigTime, By: sub.By, Charset: sub.Charset, Ignored: boundIgnored(sub.Ignored), Unanswered: g.withheld(sub.Fingerprint, false), Received: sub.Received,
		Encrypted: sub.Encrypted, ReadTo: readTo}
	if a.Key == "" {
		a.Key = textKey(sub.Text, now)
	}
	if err := emit(EvOrdersAccepted, a); err != nil {
		return Outcome{}, err
	}
	if a.Unanswered == "" {
		if err := g.queue(MailAccepted, side, f.Phase, a.Key, emit); err != nil {
			return Outcome{}, err
		}
	}
	return Outcome{Status: StatusAccepted, Side: side}, nil
}

// signingOrder says why a signed submission cannot count after the last
// message accepted from its key, or "". A key's messages count in the
// order they were signed. One signed in the same second as the last, with
// another identity, is refused (a copy of the same message never gets
// here): which of the two was meant to count cannot be told, so the
// signer is asked to sign it again.
func (g *Game) signingOrder(sub Submission) string {
	last, ok := g.signed[sub.Fingerprint]
	if !ok || sub.SigTime.IsZero() {
		return ""
	}
	at := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	switch {
	case sub.SigTime.Before(last):
		return fmt.Sprintf("the signature was made %s, before the last message accepted from this key (%s): an old message replayed?", at(sub.SigTime), at(last))
	case sub.SigTime.Equal(last) && canonicalKey(sub.Key):
		return fmt.Sprintf("the signature was made %s, the same second as the last message accepted from this key, so the order they count in cannot be told: sign it again", at(sub.SigTime))
	}
	return ""
}

// textKey is the key of a submission without a signature: unique per text
// and receipt time.
func textKey(text string, now time.Time) string {
	sum := sha256.Sum256([]byte(now.UTC().Format(time.RFC3339Nano) + "\x00" + text))
	return "unsigned:" + hex.EncodeToString(sum[:])
}

// queue renders a mail, and emits it as MailQueued with its digest.
func (g *Game) queue(kind string, side engine.Side, phase, about string, emit Emit) error {
	p, ok := g.Player(side)
	if !ok {
		return nil // no referee registered: nobody to tell
	}
	q := MailQueued{Kind: kind, Side: side, To: p.Address, Phase: phase, About: about, Render: RenderRevision}
	q.ID = g.messageID(kind, side)
	if kind == MailReport {
		q.Map = g.mapDue(side)
	}
	m, err := g.render(q)
	if err != nil {
		return fmt.Errorf("adjudicator: rendering %s mail for %s: %w", kind, side, err)
	}
	q.Digest = digestText(m.Text)
	g.rendered = &m
	return emit(EvMailQueued, q)
}

func (g *Game) domain() string {
	if _, d, ok := strings.Cut(g.Created.HostFrom, "@"); ok && d != "" {
		return strings.Trim(d, "<> ")
	}
	return "skagerrak.invalid"
}

// Tick does what time asks of the game at now: resume a pause that reached
// its limit, resolve a phase that is all in or past its deadline (plus
// grace), queue reminders. It judges the deadline by the clock, for a
// command given at the command line; for mail read in a daemon's pass (a
// referee's command by mail too) it judges it by the mailbox (see
// TickRead and judgedAt). It reports how many manual rolls a resolution
// still waits for.
func (g *Game) Tick(now time.Time, emit Emit) (waitDice int, err error) {
	read := now
	if g.judgedAt != nil {
		read = *g.judgedAt
	}
	return g.TickRead(now, read, emit)
}

// TickRead is Tick with the deadline judged on the mailbox: a phase
// resolves for its deadline only when read, the time the last complete
// read of the mailbox began, is at or past it (plus grace), so that every
// order the host's server received in time has been read. Zero read judges
// no deadline (all-in phases still resolve).
func (g *Game) TickRead(now, read time.Time, emit Emit) (waitDice int, err error) {
	if err := g.repair(now, emit); err != nil {
		return 0, err
	}
	if g.Ended != nil || g.Seq == 0 {
		return 0, nil
	}
	if g.Paused != nil {
		if limit := time.Duration(g.Created.Timing.MaxPause); limit > 0 && now.Sub(g.PausedAt) >= limit {
			// Resumed as of the limit, whenever this tick comes.
			if err := g.resume("skagerrak", "the pause reached its limit of "+limit.String(), g.PausedAt.Add(limit), emit); err != nil {
				return 0, err
			}
		} else {
			return 0, nil
		}
	}
	for g.Opened != nil && g.Ended == nil {
		owing := g.Owing()
		switch {
		case len(owing) == 0:
			err = g.resolve(now, "all-in", emit)
		case !read.IsZero() && !read.Before(g.dueAt()):
			err = g.resolve(now, "deadline", emit)
		case !now.Before(g.dueAt()):
			return 0, nil // overdue: waits for the mailbox to be read
		default:
			if r := time.Duration(g.Created.Timing.Reminder); r > 0 && !now.Before(g.Opened.Deadline.Add(-r)) {
				for _, s := range owing {
					if g.reminded[remindKey(g.Opened.Phase, s)] {
						continue
					}
					if err := g.queue(MailReminder, s, g.Opened.Phase, "", emit); err != nil {
						return 0, err
					}
				}
			}
			return 0, nil
		}
		if w, ok := err.(*DiceWait); ok {
			return w.N(), nil
		}
		if err != nil {
			return 0, err
		}
	}
	return 0, nil
}

// repair finishes a decision the log holds only the first events of. The
// host appends a decision as one batch, so a crash no longer leaves one;
// but logs written before batches appended each event on its own, durable
// before the next, and a process that died in between left the first ones
// in the log; and a decision that failed (a mail that would not render)
// keeps what it emitted before it failed. What they leave undone is plain
// from the game: a resolved phase with no next phase opened (or the end not
// declared), a game created with no first phase, an ended game whose final
// reports are not all queued, orders recorded with no reply queued.
func (g *Game) repair(now time.Time, emit Emit) error {
	if g.Seq == 0 {
		return nil
	}
	if err := g.tellReferee(emit); err != nil {
		return err
	}
	for _, s := range append(g.Sides(), Referee) {
		if err := g.resend(s, false, emit); err != nil {
			return err
		}
	}
	if g.Ended != nil {
		for _, s := range g.Sides() {
			if !g.finals[s] {
				if err := g.queue(MailFinal, s, "", "", emit); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if g.Opened == nil {
		if g.Phase.Over {
			return g.end("over", g.Rules.Result(g.State), now, emit)
		}
		if err := g.open(now, emit); err != nil {
			return err
		}
		phase := ""
		if n := len(g.History); n > 0 {
			phase = g.History[n-1].Phase
		}
		for _, s := range g.Sides() {
			if err := g.queue(MailReport, s, phase, "", emit); err != nil {
				return err
			}
		}
	}
	return g.answerOwed(emit)
}

// answerOwed queues the replies a crash left owed: to orders recorded, to
// the last player's commands, to the last rejected submission.
func (g *Game) answerOwed(emit Emit) error {
	for _, s := range g.Sides() {
		if o, ok := g.Orders[s]; ok && o.Key != "" && !g.replied[o.Key] {
			if err := g.queue(MailAccepted, s, o.Phase, o.Key, emit); err != nil {
				return err
			}
		}
	}
	if c := g.lastCommand; c != nil && c.Unanswered == "" && !g.replied[c.about()] {
		kind := MailAnswer
		if c.Report != "" {
			kind = MailResend
		}
		if err := g.queue(kind, c.Side, "", c.about(), emit); err != nil {
			return err
		}
	}
	if r := g.lastRejected; r != nil && r.Key != "" && !g.replied[r.Key] {
		if _, ok := g.Player(r.Side); ok {
			if err := g.queue(MailRejected, r.Side, r.Phase, r.Key, emit); err != nil {
				return err
			}
		}
	}
	return nil
}

// ForceResolve resolves the open phase now, with default orders for the
// sides that owe them. A manual-dice game whose dice are not yet supplied
// waits for them: a phase that was not due is made due now (its deadline
// moved, recorded with who and why), so that the dice the referee supplies
// resolve it at once, with default orders for the sides that still owe
// them; DiceWanted then says what to roll.
func (g *Game) ForceResolve(now time.Time, by, why string, emit Emit) error {
	if g.Opened == nil || g.Ended != nil {
		return fmt.Errorf("adjudicator: game %s has no open phase", g.ID)
	}
	err := g.resolve(now, "forced by "+by+": "+why, emit)
	var wait *DiceWait
	if errors.As(err, &wait) {
		switch {
		case g.Paused != nil:
			return fmt.Errorf("%w; the game is paused: resume it, then supply the dice", wait)
		case g.due(now):
			return nil
		}
		at := now.Add(-time.Duration(g.Created.Timing.Grace))
		return g.setDeadline(at, Command{By: by, Why: "resolve: " + why}, emit)
	}
	if err != nil {
		return err
	}
	_, err = g.Tick(now, emit)
	return err
}

func (g *Game) resolve(now time.Time, why string, emit Emit) error {
	// What each side knew before: a side whose View the phase leaves as it
	// was, and who owes nothing next, gets no report (a short phase that
	// another side asked for is none of its business).
	before := map[engine.Side]string{}
	for _, s := range g.Sides() {
		before[s], _ = Digest(g.Rules.View(g.State, s))
	}
	defaulted := g.Owing()
	orders, texts := g.phaseOrders(defaulted)
	od := engine.OrdersDigest(texts)
	next, rolls, err := g.resolveWith(orders, od)
	if err != nil {
		return err
	}
	dg, err := Digest(next)
	if err != nil {
		return err
	}
	g.cache[dg] = next
	phase := g.Opened.Phase
	waited := g.waiting != nil
	if err := emit(EvPhaseResolved, PhaseResolved{Phase: phase, Defaulted: defaulted, Why: why, OrdersDigest: hex.EncodeToString(od[:]), Rolls: rolls, StateDigest: dg}); err != nil {
		return err
	}
	if err := g.tellResolved(phase, waited, defaulted, emit); err != nil {
		return err
	}
	if g.Phase.Over {
		return g.end("over", g.Rules.Result(g.State), now, emit)
	}
	if err := g.open(now, emit); err != nil {
		return err
	}
	for _, s := range g.Sides() {
		if after, _ := Digest(g.Rules.View(g.State, s)); after == before[s] && !containsSide(g.Opened.Owes, s) {
			continue
		}
		if err := g.queue(MailReport, s, phase, "", emit); err != nil {
			return err
		}
	}
	return nil
}

// resolveWith resolves the open phase with the orders: with the dice in
// hand in a manual-dice game (a *DiceWait while they do not fit), seeded
// from the secret and the orders digest otherwise.
func (g *Game) resolveWith(orders map[engine.Side]engine.Orders, od [32]byte) (engine.State, []engine.Roll, error) {
	var (
		next  engine.State
		rolls []engine.Roll
		err   error
	)
	if g.Created.Dice == "manual" {
		d := g.hand()
		next, err = g.resolveOpen(orders, d)
		// A value in hand that fits no roll it is for, or a die not in
		// hand: the game waits for the referee.
		var w *DiceWait
		if w, err = handOutcome(g.Opened.Phase, d, err); w != nil {
			return nil, nil, w
		}
		rolls = d.Rolls()
	} else {
		d := engine.NewSeededDice(g.secret, g.ID, g.Opened.Phase, od)
		next, err = g.resolveOpen(orders, d)
		rolls = d.Rolls()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("adjudicator: resolving %s of game %s: %w", g.Opened.Phase, g.ID, err)
	}
	return next, rolls, nil
}

// tellResolved tells the referee that a phase that waited for the mailbox
// has resolved, and flags the sides that missed too many phases.
func (g *Game) tellResolved(phase string, waited bool, defaulted []engine.Side, emit Emit) error {
	if waited {
		// The referee, told the phase waited, is told it resolved.
		if err := g.queue(MailNotice, Referee, phase, "", emit); err != nil {
			return err
		}
	}
	for _, s := range defaulted {
		if n := g.Created.Timing.FlagAfter; n > 0 && g.Missed[s] >= n && g.flagged[s] < g.Missed[s] {
			if err := emit(EvSideFlagged, SideFlagged{Side: s, Missed: g.Missed[s]}); err != nil {
				return err
			}
			if err := g.queue(MailFlag, Referee, phase, "", emit); err != nil {
				return err
			}
		}
	}
	return nil
}

// dueAt is when the open phase's deadline, plus grace, passes.
func (g *Game) dueAt() time.Time {
	return g.Opened.Deadline.Add(time.Duration(g.Created.Timing.Grace))
}

// Overdue reports whether the open phase is past its deadline (plus
// grace) at now and still owed orders: it resolves once the mailbox has
// been read after the deadline.
func (g *Game) Overdue(now time.Time) bool {
	return g.Opened != nil && g.Ended == nil && g.Paused == nil && len(g.Owing()) > 0 && !now.Before(g.dueAt())
}

// stamp writes a time for a reply or a reason: UTC, to the second.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// open emits PhaseOpened for the ruleset's open phase.
func (g *Game) open(now time.Time, emit Emit) error {
	p := g.Phase
	return emit(EvPhaseOpened, PhaseOpened{Phase: p.ID, Title: p.Title, Owes: p.Owes, Deadline: now.Add(time.Duration(g.Created.Timing.Deadline))})
}

func (g *Game) end(why string, res *engine.Result, now time.Time, emit Emit) error {
	if err := emit(EvGameEnded, GameEnded{Why: why, Result: res, Secret: hex.EncodeToString(g.secret)}); err != nil {
		return err
	}
	for _, s := range g.Sides() {
		if err := g.queue(MailFinal, s, "", "", emit); err != nil {
			return err
		}
	}
	return nil
}

func (g *Game) resume(by, why string, now time.Time, emit Emit) error {
	r := GameResumed{By: by, Why: why}
	if g.Opened != nil {
		// The deadline moves by the time the game stood paused since the
		// deadline was set: a phase opened, or a deadline set, during the
		// pause already counts from then.
		since := g.PausedAt
		if g.deadlineSet.After(since) {
			since = g.deadlineSet
		}
		r.Deadline = g.Opened.Deadline
		if now.After(since) {
			r.Deadline = r.Deadline.Add(now.Sub(since))
		}
	}
	if err := emit(EvGameResumed, r); err != nil {
		return err
	}
	return g.notifyAll(emit)
}

func (g *Game) notifyAll(emit Emit) error {
	for _, s := range g.Sides() {
		if err := g.queue(MailNotice, s, "", "", emit); err != nil {
			return err
		}
	}
	return nil
}

func joinSides(ss []engine.Side) string { return strings.Join(sideStrings(ss), ", ") }
