package adjudicator

import (
	"bytes"

	"skagerrak/engine"
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
	last, sent := g.lastMap[side]
	if g.owes(side) || !sent {
		return true
	}
	now, err := pic.Picture(g.Rules.View(g.State, side), side)
	if err != nil {
		return true // drawn again when sent, and the error told then
	}
	before, err := pic.Picture(last, side)
	return err != nil || !bytes.Equal(now, before)
}

// carriesMap reports whether a queued report carries the map.
func (g *Game) carriesMap(q MailQueued) bool {
	if _, ok := g.Rules.(engine.Picturer); !ok {
		return false
	}
	return q.Map || q.rendered() < shortMailSince
}

// noteReport remembers a report as it is queued: the game as it stands,
// to send it again as it was, and the View its map was drawn from.
func (g *Game) noteReport(q MailQueued) {
	r := &sentReport{Queued: q, frozen: g.freeze()}
	if g.Opened != nil {
		r.Open = g.Opened.Phase
	}
	g.reports = append(g.reports, r)
	if g.carriesMap(q) {
		g.lastMap[q.Side] = g.Rules.View(g.State, q.Side)
	}
}
