package adjudicator

import (
	"bytes"
	"fmt"
	"iter"

	"skagerrak/engine"
	"skagerrak/events"
)

// shortMailSince is the RenderRevision from which a report to a side that
// owes no orders carries its map only when the map changed (MailQueued.Map),
// and reports' subjects say whether the side must act.
const shortMailSince = 19

// owes reports whether a side owes orders for the open phase.
func (g *Game) owes(side engine.Side) bool {
	return g.Opened != nil && g.Ended == nil && containsSide(g.Opened.Owes, side)
}

// mapDue decides whether a report queued now for a side carries its map:
// always when the side owes orders; else only when the map drawn from
// its View differs from the last map it was sent, so that a side with
// nothing to do gets a short mail.
func (g *Game) mapDue(side engine.Side) bool {
	pic, ok := g.Rules.(engine.Picturer)
	if !ok {
		return false
	}
	if g.owes(side) || g.lastMap[side] == 0 {
		return true
	}
	last, err := g.reportAt(g.lastMap[side])
	if err != nil {
		return true
	}
	now, err := pic.Picture(g.Rules.View(g.State, side), side)
	if err != nil {
		return true // drawn again when sent, and the error told then
	}
	before, err := pic.Picture(last.Rules.View(last.State, side), side)
	return err != nil || !bytes.Equal(now, before)
}

// carriesMap reports whether a queued report carries the map.
func (g *Game) carriesMap(q MailQueued) bool {
	if _, ok := g.Rules.(engine.Picturer); !ok {
		return false
	}
	return q.Map || q.rendered() < shortMailSince
}

// noteReport remembers a report as it is queued at seq: the game as it
// stands, to send it again as it was, and that it carried the map.
func (g *Game) noteReport(q MailQueued, seq uint64) {
	r := &sentReport{Queued: q, Seq: seq, frozen: g.freeze()}
	if g.Opened != nil {
		r.Open = g.Opened.Phase
	}
	g.reports = append(g.reports, r)
	if g.carriesMap(q) {
		g.lastMap[q.Side] = seq
	}
}

// reportAt returns the game as it stood when the report queued at seq
// was rendered: kept since, or replayed from the log (a game opened from
// a snapshot keeps only what its reports were).
func (g *Game) reportAt(seq uint64) (*Game, error) {
	for _, r := range g.reports {
		if r.Seq != seq {
			continue
		}
		if r.frozen == nil {
			if g.past == nil {
				return nil, fmt.Errorf("the game as it stood at record %d is not kept", seq)
			}
			p, err := g.past(seq)
			if err != nil {
				return nil, err
			}
			r.frozen = p.freeze()
		}
		return r.frozen, nil
	}
	return nil, fmt.Errorf("record %d is no report", seq)
}

// pastOf is Game.past over a game's log: the game replayed up to the
// record before seq.
func pastOf(l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}) func(uint64) (*Game, error) {
	return func(seq uint64) (*Game, error) {
		g := NewGame(TemplateRenderer{}, false)
		for ev, err := range l.Events(1) {
			if err != nil {
				return nil, err
			}
			if ev.Seq >= seq {
				break
			}
			if err := g.Apply(ev); err != nil {
				return nil, err
			}
		}
		return g, nil
	}
}
