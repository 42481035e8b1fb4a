package wiring

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/adjudicator/replaypage"
	"skagerrak/config"
)

// HostOptions say how OpenHost opens the games.
type HostOptions struct {
	// Clock is the host clock; nil means the wall clock.
	Clock  adjudicator.Clock
	Logger *slog.Logger
	// Intake gives the host the mail verifier and the bounce triage
	// (submit, poll, run).
	Intake bool
	// Create makes a missing data directory (new, poll, run); without it,
	// one is an error.
	Create bool
	// Select, if not nil, picks the games opened.
	Select func(string) bool
}

// OpenHost opens the games of the configured store as a host whose mail
// is rendered ahead of sending (see Senders); ctx bounds its resolutions.
func OpenHost(ctx context.Context, c *config.Config, o HostOptions) (*adjudicator.Host, error) {
	ho := adjudicator.Options{Clock: o.Clock, Logger: o.Logger, MustExist: !o.Create, Senders: Senders(c), Select: o.Select, Context: ctx,
		Replay: replaypage.Make, ReplayMax: c.SMTP.ReplayMaxBytes()}
	if o.Intake {
		ho.Verifier, ho.Triage = Verifier{}, Triage{}
	}
	st, err := OpenStore(ctx, c, !o.Create)
	if err != nil {
		return nil, err
	}
	return adjudicator.OpenStore(st, ho)
}

// OpenDaemon opens the host with its mail as run and poll do: what is
// missing from the configuration (mail keys, secrets) is said before any
// game is opened or server asked; then the games (bounded by hostCtx),
// the host key, and the servers (asked within ctx). allowReadableKey
// loads a host key others may read (see LoadHostKey).
func OpenDaemon(hostCtx, ctx context.Context, c *config.Config, o HostOptions, allowReadableKey bool) (*Mail, error) {
	if err := c.RequireMail(); err != nil {
		return nil, err
	}
	if err := c.RequireSecrets(); err != nil {
		return nil, err
	}
	h, err := OpenHost(hostCtx, c, o)
	if err != nil {
		return nil, err
	}
	key, err := LoadHostKey(c.HostKey, c.HostKeyPassphrase, allowReadableKey)
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("config %s: %w", c.File, err)
	}
	clock := func() time.Time { return time.Now().UTC() }
	if o.Clock != nil {
		clock = o.Clock.Now
	}
	ms, err := OpenMail(ctx, h, c, key, clock, o.Logger)
	if err != nil {
		h.Close()
		return nil, err
	}
	return ms, nil
}
