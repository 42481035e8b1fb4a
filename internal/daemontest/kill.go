package daemontest

import (
	"context"
	"os"
	"syscall"

	"skagerrak/adjudicator"
	"skagerrak/internal/wiring"
)

// KilledAt wraps a pass's mailbox and sender so that the process dies by
// SIGKILL at where: after-fetch, before-move (a message's outcome
// recorded, not moved), after-move, before-smtp (the first mail about to
// go) or after-smtp (accepted by the server, not yet marked sent).
func KilledAt(where string, in adjudicator.Inbox, out adjudicator.Sender) (adjudicator.Inbox, adjudicator.Sender) {
	kill := func() { syscall.Kill(os.Getpid(), syscall.SIGKILL); select {} }
	box := in.(wiring.Inbox)
	switch where {
	case "after-fetch":
		in = killingInbox{Inbox: box, kill: kill, onFetch: true}
	case "before-move":
		in = killingInbox{Inbox: box, kill: kill}
	case "after-move":
		in = movedThenKilled{box, kill}
	case "before-smtp":
		out = killedBeforeSMTP{kill}
	case "after-smtp":
		out = killingSender{out, kill}
	}
	return in, out
}

// movedThenKilled dies right after the first message was moved.
type movedThenKilled struct {
	wiring.Inbox
	kill func()
}

func (k movedThenKilled) MoveProcessed(ctx context.Context, v, uid uint32) error {
	k.Inbox.MoveProcessed(ctx, v, uid)
	k.kill()
	return nil
}

func (k movedThenKilled) MoveRejected(ctx context.Context, v, uid uint32) error {
	k.Inbox.MoveRejected(ctx, v, uid)
	k.kill()
	return nil
}

// killedBeforeSMTP dies as the first mail is about to go.
type killedBeforeSMTP struct{ kill func() }

func (k killedBeforeSMTP) Send(context.Context, adjudicator.Mail) error {
	k.kill()
	return nil
}

type killingInbox struct {
	wiring.Inbox
	kill    func()
	onFetch bool
}

func (k killingInbox) MoveProcessed(ctx context.Context, v, uid uint32) error {
	if k.onFetch {
		return k.Inbox.MoveProcessed(ctx, v, uid)
	}
	k.kill()
	return nil
}

type killingSender struct {
	adjudicator.Sender
	kill func()
}

func (k killingSender) Send(ctx context.Context, m adjudicator.Mail) error {
	if err := k.Sender.Send(ctx, m); err != nil {
		return err
	}
	k.kill()
	return nil
}

func (k killingInbox) Fetch(ctx context.Context) ([]adjudicator.InMessage, error) {
	ms, err := k.Inbox.Fetch(ctx)
	if len(ms) > 0 && k.onFetch {
		k.kill()
	}
	return ms, err
}
