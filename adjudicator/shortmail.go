package adjudicator

import (
	"crypto/sha256"
	"fmt"
	"iter"

	"skagerrak/engine"
	"skagerrak/events"
)

// shortMailSince is the RenderRevision from which a report to a side that
// owes no orders carries its map only when the map changed (MailQueued.Map),
// and reports' subjects say whether the side must act.
const shortMailSince = 21

// owes reports whether a side owes orders for the open phase.
func (g *Game) owes(side engine.Side) bool {
	return g.Opened != nil && g.Ended == nil && containsSide(g.Opened.Owes, side)
}

// mapDue decides whether a report queued now for a side carries its map:
// always when the side owes orders; else only when the map drawn from
// its View shows something the last map it was sent did not (captions,
// which name the phase, aside), so that a side with nothing to do gets a
// short mail.
func (g *Game) mapDue(side engine.Side) bool {
	if _, ok := g.Rules.(engine.Picturer); !ok {
		return false
	}
	if g.owes(side) || g.lastMap[side] == 0 {
		return true
	}
	sum, err := mapSum(g.Rules, g.Rules.View(g.State, side), side)
	if err != nil {
		return true // drawn again when sent, and the error told then
	}
	before, ok := g.lastMapSum(side)
	if ok && before == sum {
		return false
	}
	// Sent with this report, queued next: its digest is known already.
	g.mapSums[g.messageID(MailReport, side)] = sum
	return true
}

// lastMapSum is the mapSum of the last map a side was sent: remembered
// from when it was drawn, else worked out again from the game as it stood.
func (g *Game) lastMapSum(side engine.Side) ([32]byte, bool) {
	seq := g.lastMap[side]
	for _, r := range g.reports {
		if r.Seq != seq {
			continue
		}
		if sum, ok := g.mapSums[r.Queued.ID]; ok {
			return sum, true
		}
		then, err := g.reportAt(seq)
		if err != nil {
			return [32]byte{}, false
		}
		sum, err := mapSum(then.Rules, then.Rules.View(then.State, side), side)
		if err != nil {
			return [32]byte{}, false
		}
		g.mapSums[r.Queued.ID] = sum
		return sum, true
	}
	return [32]byte{}, false
}

// mapSum is the digest of what a side's map shows: the ruleset's
// MapDigest (captions left out) where it has one, else the SHA-256 of the
// picture.
func mapSum(rules engine.Ruleset, v engine.View, side engine.Side) ([32]byte, error) {
	if d, ok := rules.(engine.MapDigester); ok {
		return d.MapDigest(v, side)
	}
	png, err := rules.(engine.Picturer).Picture(v, side)
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(png), nil
}

// noteMapSum remembers the digest of a map drawn for a mail, so that the
// next report need not work it out again to tell whether the map changed.
func (g *Game) noteMapSum(id string, v engine.View, side engine.Side, png []byte) {
	if g.mapSums == nil {
		return
	}
	if _, ok := g.Rules.(engine.MapDigester); !ok {
		g.mapSums[id] = sha256.Sum256(png)
	} else if sum, err := mapSum(g.Rules, v, side); err == nil {
		g.mapSums[id] = sum
	}
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
		if prev := g.reportSeqID(g.lastMap[q.Side]); prev != "" {
			delete(g.mapSums, prev) // only the last map of a side is compared
		}
		g.lastMap[q.Side] = seq
	} else {
		delete(g.mapSums, q.ID)
	}
}

// reportSeqID is the Message-ID of the report queued at seq, or "".
func (g *Game) reportSeqID(seq uint64) string {
	for i := len(g.reports) - 1; i >= 0; i-- {
		if g.reports[i].Seq == seq {
			return g.reports[i].Queued.ID
		}
	}
	return ""
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
