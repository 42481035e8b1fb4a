package adjudicator

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"skagerrak/events"
)

// Replay folds every event of a log into a new Game. strict checks every
// queued mail's digest too (verify).
func Replay(l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}, strict bool) (*Game, error) {
	return ReplayContext(context.Background(), l, strict)
}

// ReplayContext is Replay within ctx: when ctx ends, the resolution being
// replayed stops, and the replay with it (an error that unwraps to
// *engine.Stopped). The game it returns resolves within ctx too.
func ReplayContext(ctx context.Context, l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}, strict bool) (*Game, error) {
	g := NewGame(TemplateRenderer{}, strict)
	g.SetContext(ctx)
	for ev, err := range l.Events(1) {
		if err != nil {
			return nil, err
		}
		if err := g.Apply(ev); err != nil {
			return nil, err
		}
	}
	if g.Seq == 0 {
		return nil, fmt.Errorf("adjudicator: the log is empty")
	}
	return g, nil
}

// replayFrom replays a log onto a snapshot (nil: from nothing). A snapshot
// whose last event is not in the log as recorded is not used.
func replayFrom(ctx context.Context, l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}, snap *Game) (*Game, error) {
	if snap == nil {
		return ReplayContext(ctx, l, false)
	}
	snap.SetContext(ctx)
	first := true
	for ev, err := range l.Events(snap.Seq) {
		if err != nil {
			return nil, err
		}
		if first {
			first = false
			if ev.Seq != snap.Seq || ev.Hash != snap.Hash {
				return ReplayContext(ctx, l, false)
			}
			continue
		}
		if err := snap.Apply(ev); err != nil {
			return nil, err
		}
	}
	if first {
		return ReplayContext(ctx, l, false) // the log is shorter than the snapshot
	}
	return snap, nil
}

// Mails replays a game's log and returns every mail it queued that keep
// accepts, rendered as it was sent.
func Mails(l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}, keep func(MailQueued) bool) ([]Mail, error) {
	g := NewGame(TemplateRenderer{}, false)
	var out []Mail
	g.OnMail = func(o *Outgoing) {
		if keep(o.Queued) {
			out = append(out, o.Mail)
		}
	}
	for ev, err := range l.Events(1) {
		if err != nil {
			return nil, err
		}
		if err := g.Apply(ev); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func snapSeqOf(b []byte) uint64 {
	var s struct {
		Seq uint64 `json:"seq"`
	}
	json.Unmarshal(b, &s)
	return s.Seq
}
