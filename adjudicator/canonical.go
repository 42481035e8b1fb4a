package adjudicator

import (
	"fmt"

	"skagerrak/events"
)

// eventValue returns a pointer to a zero value of the struct an event type
// is written from, for the canonical check of verify.
func eventValue(typ string) (any, bool) {
	switch typ {
	case EvGameCreated:
		return new(GameCreated), true
	case EvPhaseOpened:
		return new(PhaseOpened), true
	case EvOrdersAccepted:
		return new(OrdersAccepted), true
	case EvOrdersRejected:
		return new(OrdersRejected), true
	case EvPhaseResolved:
		return new(PhaseResolved), true
	case EvMailQueued:
		return new(MailQueued), true
	case EvMailSent:
		return new(MailSent), true
	case EvMailFailed:
		return new(MailFailed), true
	case EvDiceAdded:
		return new(DiceAdded), true
	case EvDiceCleared:
		return new(DiceCleared), true
	case EvDeadlineChanged:
		return new(DeadlineChanged), true
	case EvGamePaused:
		return new(GamePaused), true
	case EvGameResumed:
		return new(GameResumed), true
	case EvSideChanged:
		return new(SideChanged), true
	case EvSideFlagged:
		return new(SideFlagged), true
	case EvGameEnded:
		return new(GameEnded), true
	case EvRefereeMail:
		return new(RefereeMail), true
	case EvRefereeResult:
		return new(RefereeResult), true
	case EvMailBounced:
		return new(MailBounced), true
	case EvPhaseWaiting:
		return new(PhaseWaiting), true
	case EvMailResent:
		return new(MailResent), true
	case EvPlayerMail:
		return new(PlayerMail), true
	case EvPlayerCommand:
		return new(PlayerCommand), true
	case EvUnsignedAnswered:
		return new(UnsignedAnswered), true
	}
	return nil, false
}

// checkCanonical requires a record's data to be exactly what this
// program writes for its decoded value (events.CheckSchema): two byte
// strings of one log never both verify.
func checkCanonical(ev events.Event) error {
	v, ok := eventValue(ev.Type)
	if !ok {
		return &ReplayError{Seq: ev.Seq, Type: ev.Type, Reason: fmt.Sprintf("unknown event type %q (a type this build writes is listed in eventValue, adjudicator/canonical.go)", ev.Type)}
	}
	if err := events.CheckSchema(ev, v); err != nil {
		return err
	}
	return nil
}
