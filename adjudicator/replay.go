package adjudicator

import (
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
	g := NewGame(TemplateRenderer{}, strict)
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
func replayFrom(l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}, snap *Game) (*Game, error) {
	if snap == nil {
		return Replay(l, false)
	}
	first := true
	for ev, err := range l.Events(snap.Seq) {
		if err != nil {
			return nil, err
		}
		if first {
			first = false
			if ev.Seq != snap.Seq || ev.Hash != snap.Hash {
				return Replay(l, false)
			}
			continue
		}
		if err := snap.Apply(ev); err != nil {
			return nil, err
		}
	}
	if first {
		return Replay(l, false) // the log is shorter than the snapshot
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
