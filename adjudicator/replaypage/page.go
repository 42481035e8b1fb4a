// Package replaypage builds the replay page of a game: one self-contained
// HTML file that steps through every resolved phase (orders, rolls with
// their rules, each side's report and map) and checks the game's log in
// the browser, offline.
//
// A whole game's page is made only once the game is over, when the final
// report reveals everything to every side anyway. A side's page holds only
// what that side's mails held: its reports (text and map) and the replies
// that accepted its orders, nothing of the log.
package replaypage

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"iter"
	"slices"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/events"
)

// Log is a game's records, in order.
type Log interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}

// Page is everything the replay page shows.
type Page struct {
	Game     string
	Title    string
	Ruleset  string
	Revision int
	// Side is the side whose history this is; "" for the whole game.
	Side  engine.Side
	Sides []engine.Side
	// Ended says why the game ended ("" while it goes on); Result is its
	// outcome with the points, nil when there is none.
	Ended  string
	Result *engine.Result
	// Revealed is the ruleset's description of the finished game (the
	// final report's), or, for a side, its final report's text.
	Revealed string
	// Phases are the resolved phases in order; the first, "start", is the
	// game as set up (its rolls are the set-up rolls).
	Phases []Phase
	// Maps are the distinct map pictures (PNG), which views name by index.
	Maps [][]byte
	// Log is the whole log as stored (record lines), for the page to
	// verify; nil in a side's page.
	Log []byte
	// Dice is "seeded" or "manual" (manual dice cannot be re-derived).
	Dice string
}

// Phase is one resolved phase.
type Phase struct {
	ID, Title string
	// Why says how it came to be resolved ("all-in", "deadline", ...).
	Why       string
	Defaulted []engine.Side
	// Seq is the record of its resolution (0 for the start).
	Seq    uint64
	Orders []SideText
	Rolls  []engine.Roll
	Views  []View
	// Whole is the map of the whole state after the phase, fog lifted (an
	// index into Page.Maps), where the ruleset draws one (an
	// engine.WholePicturer) and the page is the whole game's; else -1.
	Whole int
}

// SideText is a side's text.
type SideText struct {
	Side engine.Side
	Text string
}

// View is a side's report of a phase, as mailed: its text and its map
// (an index into Page.Maps, -1 when the ruleset draws none).
type View struct {
	Side   engine.Side
	Report string
	Map    int
}

// StartPhase is the ID of the game as set up, before the first phase.
const StartPhase = "start"

// Build replays a finished game's log and gathers the whole game's page:
// the log up to the record that ended the game (what follows is mail
// sent), so that the page is the same whenever it is made, and the host's
// copy attached to the final report is the one anyone makes from the log.
// A game still going on is refused: its page would reveal what each side
// hides from the other.
func Build(l Log) (*Page, error) {
	rec := recorder{maps: map[[32]byte]int{}}
	wholes := map[string]int{}
	g, records, err := replayToEnd(l, &rec, wholes)
	if err != nil {
		return nil, err
	}
	if g.Seq == 0 {
		return nil, fmt.Errorf("replay: the log is empty")
	}
	if g.Ended == nil {
		return nil, fmt.Errorf("replay: game %s is not over: the whole game's replay would show each side what the other hides; give --side SIDE for one side's history so far", g.ID)
	}
	p := header(g)
	p.Log = records
	p.Result = g.Ended.Result
	p.Ended = adjudicator.EndedText(g.Ended.Why)
	if rv, ok := g.Rules.(engine.Revealer); ok {
		p.Revealed = rv.Reveal(g.State)
	}
	p.Phases = wholePhases(g, &rec, wholes)
	if last := &p.Phases[len(p.Phases)-1]; len(last.Views) == 0 {
		// The phase that ended the game has no report (the final report
		// follows): each side's view of the final state, as a report
		// would have shown it.
		views, err := finalViews(g, &rec)
		if err != nil {
			return nil, err
		}
		last.Views = views
	}
	p.Maps = rec.pngs
	return p, nil
}

// replayToEnd replays the log up to the record that ended the game,
// recording each report and whole map in rec and wholes; it returns the
// game and the records replayed, as stored.
func replayToEnd(l Log, rec *recorder, wholes map[string]int) (*adjudicator.Game, []byte, error) {
	var logBuf bytes.Buffer
	g := adjudicator.NewGame(adjudicator.TemplateRenderer{}, false)
	g.OnMail = rec.keep(func(q adjudicator.MailQueued) bool {
		return q.Kind == adjudicator.MailReport
	})
	for ev, err := range l.Events(1) {
		if err != nil {
			return nil, nil, err
		}
		line, err := ev.MarshalJSON()
		if err != nil {
			return nil, nil, fmt.Errorf("replay: record %d: %w", ev.Seq, err)
		}
		logBuf.Write(line)
		logBuf.WriteByte('\n')
		if err := g.Apply(ev); err != nil {
			return nil, nil, fmt.Errorf("replay: %w", err)
		}
		if err := rec.whole(g, ev, wholes); err != nil {
			return nil, nil, err
		}
		if g.Ended != nil {
			break // the game, to its end: the same page whenever it is made
		}
	}
	if rec.err != nil {
		return nil, nil, rec.err
	}
	return g, logBuf.Bytes(), nil
}

// wholePhases lists the game as set up and each phase resolved, with its
// orders, rolls, the sides' reports and the whole map.
func wholePhases(g *adjudicator.Game, rec *recorder, wholes map[string]int) []Phase {
	phases := []Phase{{ID: StartPhase, Title: "the game as set up", Rolls: g.Created.SetupRolls, Views: rec.views[""], Whole: wholeOf(wholes, "")}}
	for i, h := range g.History {
		ph := Phase{ID: h.Phase, Why: h.Why, Defaulted: h.Defaulted, Seq: h.Seq, Rolls: h.Rolls, Views: rec.views[h.Phase], Whole: wholeOf(wholes, h.Phase)}
		if i < len(g.Moves) {
			mv := g.Moves[i]
			ph.Title = mv.Title
			for _, s := range sortedSides(mv.Orders) {
				ph.Orders = append(ph.Orders, SideText{Side: s, Text: mv.Orders[s]})
			}
		}
		phases = append(phases, ph)
	}
	return phases
}

// finalViews draws each side's view of the final state: its map and the
// ruleset's report of it, where the ruleset writes them.
func finalViews(g *adjudicator.Game, rec *recorder) ([]View, error) {
	var out []View
	for _, s := range g.Rules.Sides() {
		v := g.Rules.View(g.State, s)
		fv := View{Side: s, Map: -1}
		if r, ok := g.Rules.(engine.Reporter); ok {
			fv.Report = r.Report(v, s)
		}
		if pic, ok := g.Rules.(engine.Picturer); ok {
			png, err := pic.Picture(v, s)
			if err != nil {
				return nil, fmt.Errorf("replay: the final map of %s: %w", s, err)
			}
			fv.Map = rec.picture(png)
		}
		out = append(out, fv)
	}
	return out, nil
}

// BuildSide gathers one side's page from its mails alone: each report
// (text and map) and each reply that accepted its orders, and the final
// report once the game is over. It embeds no log.
func BuildSide(l Log, side engine.Side) (*Page, error) {
	rec := recorder{maps: map[[32]byte]int{}}
	accepted := map[string]string{}
	var final string
	g := adjudicator.NewGame(adjudicator.TemplateRenderer{}, false)
	keepReport := rec.keep(func(q adjudicator.MailQueued) bool {
		return q.Side == side && q.Kind == adjudicator.MailReport
	})
	g.OnMail = func(o *adjudicator.Outgoing) {
		switch {
		case o.Queued.Side != side:
		case o.Queued.Kind == adjudicator.MailAccepted:
			accepted[o.Queued.Phase] = o.Mail.Text // the last accepted orders count
		case o.Queued.Kind == adjudicator.MailFinal:
			final = o.Mail.Text
		default:
			keepReport(o)
		}
	}
	for ev, err := range l.Events(1) {
		if err != nil {
			return nil, err
		}
		if err := g.Apply(ev); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
	}
	if rec.err != nil {
		return nil, rec.err
	}
	if _, ok := g.Player(side); !ok {
		return nil, fmt.Errorf("replay: game %s has no side %q; its sides: %v", g.ID, side, g.Rules.Sides())
	}
	p := header(g)
	p.Side, p.Revealed = side, final
	if g.Ended != nil {
		p.Ended = "the game is over: see the final report"
	}
	for _, id := range rec.order {
		ph := Phase{ID: id, Views: rec.views[id], Whole: -1}
		if id == "" {
			ph.ID, ph.Title = StartPhase, "the game as set up"
		}
		if t, ok := accepted[id]; ok {
			ph.Orders = []SideText{{Side: side, Text: t}}
		}
		p.Phases = append(p.Phases, ph)
	}
	p.Maps = rec.pngs
	return p, nil
}

func header(g *adjudicator.Game) *Page {
	return &Page{Game: g.ID, Title: g.Rules.Title(), Ruleset: g.Rules.Name(), Revision: g.Revision(), Sides: g.Rules.Sides(), Dice: g.Created.Dice}
}

// recorder keeps report mails as they are queued: each side's view of
// each phase, with its map drawn and stored once.
type recorder struct {
	views map[string][]View
	order []string
	maps  map[[32]byte]int
	pngs  [][]byte
	err   error
	// lastMap is the map each side was last sent, which a report that
	// leaves its unchanged map out shows (adjudicator's short mail).
	lastMap map[engine.Side]int
}

// keep returns an OnMail that records the mails keep accepts.
func (r *recorder) keep(keep func(adjudicator.MailQueued) bool) func(*adjudicator.Outgoing) {
	return func(o *adjudicator.Outgoing) {
		if r.err != nil || !keep(o.Queued) {
			return
		}
		m := o.Mail
		if err := m.Complete(); err != nil {
			r.err = fmt.Errorf("replay: the map of %s's report of %q: %w", o.Queued.Side, o.Queued.Phase, err)
			return
		}
		v := View{Side: o.Queued.Side, Report: m.Text, Map: -1}
		if i, ok := r.lastMap[v.Side]; ok {
			v.Map = i // a short report leaves out a map that did not change
		}
		for _, a := range m.Attachments {
			if a.Name == "map.png" {
				v.Map = r.picture(a.Data)
				if r.lastMap == nil {
					r.lastMap = map[engine.Side]int{}
				}
				r.lastMap[v.Side] = v.Map
			}
		}
		if r.views == nil {
			r.views = map[string][]View{}
		}
		ph := o.Queued.Phase
		if _, ok := r.views[ph]; !ok {
			r.order = append(r.order, ph)
		}
		r.views[ph] = append(r.views[ph], v)
	}
}

// whole draws the whole state, fog lifted, where the ruleset can, once the
// game is set up (phase "") and after each phase is resolved.
func (r *recorder) whole(g *adjudicator.Game, ev events.Event, wholes map[string]int) error {
	wp, ok := g.Rules.(engine.WholePicturer)
	if !ok || (ev.Type != adjudicator.EvGameCreated && ev.Type != adjudicator.EvPhaseResolved) {
		return nil
	}
	id := ""
	if ev.Type == adjudicator.EvPhaseResolved {
		id = g.History[len(g.History)-1].Phase
	}
	png, err := wp.PictureWhole(g.State)
	if err != nil {
		return fmt.Errorf("replay: the whole map after %q: %w", id, err)
	}
	wholes[id] = r.picture(png)
	return nil
}

func wholeOf(wholes map[string]int, phase string) int {
	if i, ok := wholes[phase]; ok {
		return i
	}
	return -1
}

// picture stores a PNG once and returns its index.
func (r *recorder) picture(png []byte) int {
	k := sha256.Sum256(png)
	if i, ok := r.maps[k]; ok {
		return i
	}
	r.maps[k] = len(r.pngs)
	r.pngs = append(r.pngs, png)
	return len(r.pngs) - 1
}

func sortedSides(m map[engine.Side]string) []engine.Side {
	out := make([]engine.Side, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}
