package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"skagerrak/engine"
	"skagerrak/events"
)

// applier folds one event of its type into the game. It decodes the
// event's data itself and returns why the event cannot follow the game as
// it stands; Apply names the record.
type applier func(g *Game, ev events.Event) error

// appliers holds the applier of every event type this build knows; an
// event of any other type does not replay.
var appliers = map[string]applier{
	EvGameCreated:      (*Game).applyCreated,
	EvPhaseOpened:      (*Game).applyOpened,
	EvOrdersAccepted:   (*Game).applyAccepted,
	EvOrdersRejected:   (*Game).applyRejected,
	EvPhaseResolved:    (*Game).applyResolved,
	EvMailQueued:       (*Game).applyQueued,
	EvMailSent:         (*Game).applyMailDone,
	EvMailFailed:       (*Game).applyMailDone,
	EvDiceAdded:        (*Game).applyDiceAdded,
	EvDiceCleared:      (*Game).applyDiceCleared,
	EvDeadlineChanged:  (*Game).applyDeadline,
	EvGamePaused:       (*Game).applyPaused,
	EvGameResumed:      (*Game).applyResumed,
	EvSideChanged:      (*Game).applySideChanged,
	EvSideFlagged:      (*Game).applyFlagged,
	EvRefereeMail:      (*Game).applyRefereeMail,
	EvRefereeResult:    (*Game).applyRefereeResult,
	EvGameEnded:        (*Game).applyEnded,
	EvPlayerMail:       (*Game).applyPlayer,
	EvPlayerCommand:    (*Game).applyPlayer,
	EvUnsignedAnswered: (*Game).applyPlayer,
	EvMailBounced:      (*Game).applyBounce,
	EvMailResent:       (*Game).applyResent,
	EvPhaseWaiting:     (*Game).applyWaiting,
}

// afterEnd are the events a game takes after its end: its last mails, what
// became of them, and the referee's address for mail that did not arrive.
var afterEnd = map[string]bool{EvMailQueued: true, EvMailSent: true, EvMailFailed: true, EvRefereeResult: true, EvMailBounced: true,
	EvSideChanged: true, EvMailResent: true}

// halted is a resolution stopped on replay (its context ended, see
// SetContext): not a fault of the record, so Apply passes it on as it is.
type halted struct{ err error }

func (h *halted) Error() string { return h.err.Error() }

// Apply folds one event into the game: it checks that the event may come
// now, then hands it to the applier of its type.
func (g *Game) Apply(ev events.Event) error {
	fail := func(reason string) error { return &ReplayError{Seq: ev.Seq, Type: ev.Type, Reason: reason} }
	if g.Seq == 0 && ev.Type != EvGameCreated {
		return fail("the first event of a game must be " + EvGameCreated)
	}
	if g.Ended != nil && !afterEnd[ev.Type] {
		return fail("event after the game ended")
	}
	g.bouncedBefore, g.justBounced = g.justBounced, ""
	apply, ok := appliers[ev.Type]
	if !ok {
		return fail("unknown event type")
	}
	if err := apply(g, ev); err != nil {
		var h *halted
		if errors.As(err, &h) {
			return fmt.Errorf("adjudicator: replaying event %d: %w", ev.Seq, h.err)
		}
		return fail(err.Error())
	}
	g.Seq, g.Hash, g.Time = ev.Seq, ev.Hash, ev.Time
	return nil
}

func (g *Game) applyCreated(ev events.Event) error {
	var d GameCreated
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if g.Seq != 0 {
		return fmt.Errorf("a second %s", EvGameCreated)
	}
	rs, err := engine.Lookup(d.Ruleset)
	if err != nil {
		return err
	}
	if _, err := engine.RevisionOf(rs, d.Setup); err != nil {
		return fmt.Errorf("the game is played under rules this build does not have: %v", err)
	}
	st, err := rs.New(d.Setup.Played(), engine.NewReplayDice(d.SetupRolls))
	if err != nil {
		return fmt.Errorf("set-up: %v", err)
	}
	dg, err := Digest(st)
	if err != nil {
		return err
	}
	if dg != d.StateDigest {
		return fmt.Errorf("the initial state digest is %s, the log says %s", dg, d.StateDigest)
	}
	g.ID, g.Created, g.Rules, g.State, g.createdHash = d.Game, d, rs, st, ev.Hash
	g.Phase = rs.Phase(st)
	for _, p := range d.Players {
		g.Players[p.Side] = p
	}
	g.Referee = d.Referee
	return nil
}

func (g *Game) applyOpened(ev events.Event) error {
	var d PhaseOpened
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if d.Phase != g.Phase.ID {
		return fmt.Errorf("opens phase %q but the rules are at %q", d.Phase, g.Phase.ID)
	}
	g.Opened, g.OpenedAt, g.deadlineSet = &d, ev.Time, ev.Time
	clear(g.replies)
	clear(g.acceptedIn)
	g.Orders = map[engine.Side]OrdersAccepted{}
	g.parsed = map[engine.Side]engine.Orders{}
	return nil
}

func (g *Game) applyAccepted(ev events.Event) error {
	var d OrdersAccepted
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if err := g.admitOrders(ev, d); err != nil {
		return err
	}
	o, err := g.ordersOf(d)
	if err != nil {
		return err
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
	return nil
}

// admitOrders checks that accepted orders may be recorded now: for the
// open phase, under a key not recorded before, within the replies, signed
// in order and after the phase opened, received before the deadline.
func (g *Game) admitOrders(ev events.Event, d OrdersAccepted) error {
	if g.Opened == nil || d.Phase != g.Opened.Phase {
		return fmt.Errorf("orders for phase %q, which is not open", d.Phase)
	}
	if err := g.noteMessage(ev, d.Key, d.Fingerprint, d.Unanswered, false); err != nil {
		return err
	}
	if err := g.checkSigTime(d.Fingerprint, d.SigTime, canonicalKey(d.Key)); err != nil {
		return err
	}
	if !d.SigTime.IsZero() && d.SigTime.Before(g.OpenedAt.Add(-ClockSkew)) {
		return fmt.Errorf("orders signed %s, before their phase opened", d.SigTime.UTC().Format(time.RFC3339))
	}
	if !d.Received.IsZero() && g.Paused == nil && !d.Received.Before(g.dueAt()) {
		return fmt.Errorf("orders received %s, after the phase's deadline (%s)", stamp(d.Received), stamp(g.dueAt()))
	}
	return nil
}

// ordersOf returns the accepted orders parsed: as Submit just parsed them,
// or read again from the order file the event records.
func (g *Game) ordersOf(d OrdersAccepted) (engine.Orders, error) {
	o, errs := g.checked.take(d.Side, d.Text)
	if o == nil {
		p := readPlayerFile(d.Text)
		f, err := p.OrderFile, p.Err
		if err != nil {
			return nil, fmt.Errorf("the accepted order file does not parse: %v", err)
		}
		if f.Game != g.ID || f.Phase != d.Phase || f.Side != d.Side {
			return nil, fmt.Errorf("the order file says Game %s, Phase %s, Side %s; the event says %s, %s, %s", f.Game, f.Phase, f.Side, g.ID, d.Phase, d.Side)
		}
		if why := g.gameIDRefusal(f); why != "" && d.Source != "unsigned" {
			return nil, fmt.Errorf("accepted, though %s", why)
		}
		var readTo int
		o, errs, readTo = g.parseSubmitted(d.Side, d.Text, p)
		if len(errs) == 0 && readTo != d.ReadTo {
			return nil, fmt.Errorf("the orders were read to line %d of their text (0: all of it), where the rules read them to line %d", d.ReadTo, readTo)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("the accepted orders of %s do not validate: %v", d.Side, errs[0])
	}
	return o, nil
}

// noteMessage notes the key of a recorded message, which no earlier
// record may hold, and counts the reply it gets (or why it gets none).
func (g *Game) noteMessage(ev events.Event, key, fingerprint, unanswered string, stray bool) error {
	if err := g.noteKey(ev.Seq, ev.Type, key); err != nil {
		return err
	}
	return g.countReply(fingerprint, key, unanswered, stray)
}

func (g *Game) applyRejected(ev events.Event) error {
	var d OrdersRejected
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if err := g.noteMessage(ev, d.Key, d.Fingerprint, d.Unanswered, d.Stray); err != nil {
		return err
	}
	g.rejected[d.Key] = d.Key != ""
	g.lastRejected = &d
	g.noteEncrypted(d.Side, d.Encrypted && !d.ByAddress)
	return nil
}

func (g *Game) applyResolved(ev events.Event) error {
	var d PhaseResolved
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if g.Opened == nil || d.Phase != g.Opened.Phase {
		return fmt.Errorf("resolves phase %q, which is not open", d.Phase)
	}
	if owing := g.Owing(); !slices.Equal(owing, d.Defaulted) {
		return fmt.Errorf("the phase defaulted %v, but the sides without orders were %v", d.Defaulted, owing)
	}
	orders, texts := g.phaseOrders(d.Defaulted)
	if od := engine.OrdersDigest(texts); hex.EncodeToString(od[:]) != d.OrdersDigest {
		return fmt.Errorf("the orders digest is %x, the log says %s", od, d.OrdersDigest)
	}
	st, err := g.replayResolution(d, orders)
	if err != nil {
		return err
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
			return err
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
	return nil
}

// replayResolution returns the state a resolution leads to: the one the
// decision just computed (cache), or the phase resolved again with the
// recorded rolls, which must use them all and give the recorded digest.
func (g *Game) replayResolution(d PhaseResolved, orders map[engine.Side]engine.Orders) (engine.State, error) {
	if st, ok := g.cache[d.StateDigest]; ok {
		return st, nil
	}
	dice := engine.NewReplayDice(d.Rolls)
	st, err := g.resolveOpen(orders, dice)
	var stopped *engine.Stopped
	switch {
	case errors.As(err, &stopped):
		return nil, &halted{err}
	case err != nil && dice.Short() > 0:
		return nil, fmt.Errorf("the resolution asks for more rolls than the %d the log records", len(d.Rolls))
	case err != nil:
		return nil, fmt.Errorf("resolution: %v", err)
	}
	if err := dice.Err(); err != nil {
		return nil, err
	}
	if dice.Used() != len(d.Rolls) || dice.Short() > 0 {
		return nil, fmt.Errorf("the resolution used %d rolls, the log records %d", dice.Used()+dice.Short(), len(d.Rolls))
	}
	dg, err := Digest(st)
	if err != nil {
		return nil, err
	}
	if dg != d.StateDigest {
		return nil, fmt.Errorf("the state digest is %s, the log says %s", dg, d.StateDigest)
	}
	return st, nil
}

func (g *Game) applyQueued(ev events.Event) error {
	var d MailQueued
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if p, ok := g.Player(d.Side); !ok || p.Address != d.To {
		return fmt.Errorf("mail for %s addressed to %s, not to the side's registered address", d.Side, d.To)
	}
	g.noteQueued(d, ev.Seq)
	out := &Outgoing{Queued: d, Seq: ev.Seq}
	if err := g.renderQueued(out); err != nil {
		return err
	}
	g.Outbox = append(g.Outbox, out)
	if g.OnMail != nil {
		g.OnMail(out)
	}
	return nil
}

// noteQueued notes what a queued mail answers, tells or ends.
func (g *Game) noteQueued(d MailQueued, seq uint64) {
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
		for _, id := range strings.Fields(d.About) {
			g.told(id)
		}
	case d.Kind == MailNotice && d.Side == Referee && g.bouncedBefore != "":
		// A build before MailUndelivered told the referee of a bounce
		// with a notice.
		g.told(g.bouncedBefore)
	}
	if d.Kind == MailFinal {
		g.finals[d.Side] = true
	}
	if d.Kind == MailReport {
		g.noteReport(d, seq)
	}
}

// renderQueued gives a queued mail its text: the one the decision just
// rendered, or rendered now (a strict replay checks its digest), or, on
// replay, what it takes to render it later.
func (g *Game) renderQueued(out *Outgoing) error {
	d := out.Queued
	switch {
	case g.rendered != nil && g.rendered.ID == d.ID:
		// Queued just now: the decision rendered it for its digest.
		out.Mail, g.rendered = *g.rendered, nil
	case g.strict || g.OnMail != nil:
		m, err := g.render(d)
		if err != nil {
			return fmt.Errorf("rendering %s mail: %v", d.Kind, err)
		}
		switch {
		case !g.strict:
		case d.rendered() != RenderRevision:
			// Rendered by a build whose mails read otherwise: what
			// the game decided is checked, this text cannot be.
			g.Unrendered++
		case digestText(m.Text) != d.Digest:
			return fmt.Errorf("the %s mail to %s renders with digest %s, the log says %s", d.Kind, d.Side, digestText(m.Text), d.Digest)
		}
		out.Mail = m
	default:
		// Replaying: most mail was sent long ago, so keep what it takes
		// to render it and render only what is still to be sent.
		out.frozen = g.freeze()
	}
	return nil
}

// applyMailDone takes MailSent and MailFailed: the mail leaves the outbox.
func (g *Game) applyMailDone(ev events.Event) error {
	var d MailFailed
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	i := g.outboxIndex(d.ID)
	if i < 0 {
		return fmt.Errorf("mail %s is not in the outbox", d.ID)
	}
	side := g.Outbox[i].Queued.Side
	g.Outbox = append(g.Outbox[:i], g.Outbox[i+1:]...)
	if ev.Type == EvMailFailed {
		g.Failed = append(g.Failed, d)
		g.noteUndelivered(d.ID, side, d.Error, false)
	} else {
		g.delivered(d.ID)
	}
	return nil
}

func (g *Game) applyDiceAdded(ev events.Event) error {
	var d DiceAdded
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if !d.PerDie {
		if len(g.Dice) > g.DiceD6 {
			return errors.New("d6 faces supplied after dice of every type")
		}
		g.DiceD6 += len(d.Values)
	}
	g.Dice = append(g.Dice, d.Values...)
	return nil
}

func (g *Game) applyDiceCleared(ev events.Event) error {
	var d DiceCleared
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if !slices.Equal(d.Values, g.Dice) {
		return fmt.Errorf("clears the dice %v, but the hand holds %v", d.Values, g.Dice)
	}
	g.Dice, g.DiceD6 = nil, 0
	return nil
}

func (g *Game) applyDeadline(ev events.Event) error {
	var d DeadlineChanged
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if g.Opened == nil || g.Opened.Phase != d.Phase {
		return fmt.Errorf("deadline of phase %q, which is not open", d.Phase)
	}
	g.Opened.Deadline = d.Deadline
	g.deadlineSet = ev.Time
	g.forgetReminders(d.Phase)
	g.lastNotice = fmt.Sprintf("%s moved the deadline of %s to %s: %s", d.By, d.Phase, d.Deadline.UTC().Format(time.RFC1123), d.Why)
	return nil
}

func (g *Game) applyPaused(ev events.Event) error {
	var d GamePaused
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	g.Paused, g.PausedAt = &d, ev.Time
	g.Pauses++
	g.lastNotice = fmt.Sprintf("%s paused the game: %s", d.By, d.Why)
	return nil
}

func (g *Game) applyResumed(ev events.Event) error {
	var d GameResumed
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	g.Paused = nil
	if g.Opened != nil {
		g.Opened.Deadline = d.Deadline
		g.forgetReminders(g.Opened.Phase)
	}
	g.lastNotice = fmt.Sprintf("%s resumed the game: %s. The deadline is now %s.", d.By, d.Why, d.Deadline.UTC().Format(time.RFC1123))
	return nil
}

func (g *Game) applySideChanged(ev events.Event) error {
	var d SideChanged
	if err := g.decode(ev, &d); err != nil {
		return err
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
	return nil
}

func (g *Game) applyFlagged(ev events.Event) error {
	var d SideFlagged
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	g.flagged[d.Side] = d.Missed
	g.lastNotice = fmt.Sprintf("Side %s has missed %d phases in a row and played them with default orders.", d.Side, d.Missed)
	return nil
}

func (g *Game) applyRefereeMail(ev events.Event) error {
	var d RefereeMail
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if err := g.noteMessage(ev, d.Key, d.Fingerprint, d.Unanswered, false); err != nil {
		return err
	}
	if err := g.checkSigTime(d.Fingerprint, d.SigTime, canonicalKey(d.Key)); err != nil {
		return err
	}
	g.noteLegacy(d.Key, d.Fingerprint, d.SigTime, d.Text)
	g.noteSigned(d.Fingerprint, d.SigTime)
	g.noteEncrypted(Referee, d.Encrypted)
	return nil
}

func (g *Game) applyRefereeResult(ev events.Event) error {
	var d RefereeResult
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	g.lastNotice = "Your commands:\n\n" + strings.Join(d.Lines, "\n")
	return nil
}

func (g *Game) applyEnded(ev events.Event) error {
	var d GameEnded
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	sec, err := hex.DecodeString(d.Secret)
	if err != nil {
		return errors.New("the published secret is not hex")
	}
	if c := sha256.Sum256(sec); hex.EncodeToString(c[:]) != g.Created.SecretCommitment {
		return fmt.Errorf("the published dice secret does not match the commitment of %s", EvGameCreated)
	}
	g.Ended = &d
	g.Opened = nil
	return nil
}

func (g *Game) applyWaiting(ev events.Event) error {
	var d PhaseWaiting
	if err := g.decode(ev, &d); err != nil {
		return err
	}
	if g.Opened == nil || d.Phase != g.Opened.Phase {
		return fmt.Errorf("phase %q waits, but it is not open", d.Phase)
	}
	g.waiting = &d
	g.lastNotice = waitingNotice(d, g.dueAt())
	return nil
}
