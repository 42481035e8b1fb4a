package norway1940

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"skagerrak/engine"
)

// Orders is one side's orders for its player-turn, in the order written.
type Orders struct {
	Side  engine.Side `json:"side"`
	Lines []Order     `json:"lines"`
}

// Order is one parsed order line.
type Order struct {
	Line int `json:"line"`
	// Verb is fleet, sub, air, move, rail, attack, build, keep, evade,
	// react, continue or ask; "decide" for a decision line of a short
	// phase, whose Kind is evade, fight, fight on, break off, attack (ID
	// the fleet), intercept (To the place, N the fighters) or pass.
	Verb string `json:"verb"`
	// Kind refines the verb: fleet form/move/split/merge/attack; air
	// para/recon/transport/patrol/bomb/interdict/support/emergency; build
	// fieldwork/fortify/repair.
	Kind   string   `json:"kind,omitempty"`
	ID     string   `json:"id,omitempty"`     // fleet or unit
	New    string   `json:"new,omitempty"`    // split-off fleet
	From   string   `json:"from,omitempty"`   // port or base
	To     string   `json:"to,omitempty"`     // box, port or area
	Target string   `json:"target,omitempty"` // enemy fleet, unit, airfield, battery
	Path   []string `json:"path,omitempty"`
	Units  []string `json:"units,omitempty"`
	N      int      `json:"n,omitempty"`
	Combat int      `json:"combat,omitempty"`
	Trans  int      `json:"transport,omitempty"`
	Decoys int      `json:"decoys,omitempty"`
	// Carriers is aircraft carriers put in a fleet (9.12).
	Carriers int    `json:"carriers,omitempty"`
	Flag     string `json:"flag,omitempty"`
	// Fallback is where the attacker's own units retreat if beaten
	// (10.5.6, revision 2).
	Fallback string `json:"fallback,omitempty"`
}

func lineErr(l engine.OrderLine, rule, valid, format string, args ...any) engine.LineError {
	return l.Errorf(rule, valid, format, args...)
}

// unitName resolves a unit name or alias to the unit ID in state s
// (order-of-battle units and supply units).
func unitName(s *State, name string) (string, bool) {
	if ui, ok := data.UnitInfoOf(name); ok {
		return ui.ID, true
	}
	for _, u := range s.Units {
		if strings.EqualFold(u.ID, name) {
			return u.ID, true
		}
	}
	return "", false
}

// unitHint is the "valid:" text for an unknown unit name: the side's
// units nearest to it, or all of them.
func unitHint(s *State, side engine.Side, name string) string {
	var ids []string
	for _, u := range s.Units {
		if u.Side == side && !u.Dead {
			ids = append(ids, u.ID)
		}
	}
	return engine.Suggest(name, ids)
}

// areaHint is the "valid:" text for an unknown land area.
func areaHint(name string) string {
	var names []string
	for _, a := range data.Areas {
		names = append(names, a.Name)
	}
	return engine.Suggest(name, names)
}

// ParseOrders implements engine.Ruleset.
func (rules) ParseOrders(s *State, side engine.Side, text string) (*Orders, []engine.LineError) {
	if s.Pending != nil && !s.Over {
		return parseDecision(s, side, text)
	}
	o, errs := parseOrders(s, side, text)
	return o, errs
}

func parseOrders(s *State, side engine.Side, text string) (*Orders, []engine.LineError) {
	o := &Orders{Side: side}
	var errs []engine.LineError
	if s.Over {
		return o, []engine.LineError{{Rule: "12", Msg: "the game is over", Valid: "no orders"}}
	}
	if side != s.Phasing {
		return o, []engine.LineError{{Rule: "5.2", Msg: fmt.Sprintf("%s owes no orders in %s", side, PhaseOf(s).ID), Valid: "the " + string(s.Phasing) + " player-turn"}}
	}
	scratch := s.clone()
	ctx := newTurnCtx(scratch, side, nil)
	scratch.side(side).Standing.Keep = 0
	recallSubs(scratch, side)
	type parsed struct {
		l   engine.OrderLine
		ord Order
	}
	var ps []parsed
	for _, l := range engine.OrderLines(text) {
		ord, perr := parseLine(scratch, side, l)
		if perr != nil {
			errs = append(errs, *perr)
			continue
		}
		ps = append(ps, parsed{l, ord})
	}
	// Orders are checked in the sequence of play (5.2), whatever their
	// order in the file, as Resolve carries them out.
	sort.SliceStable(ps, func(i, j int) bool { return stage(ps[i].ord) < stage(ps[j].ord) })
	for _, p := range ps {
		if rule, valid, msg := ctx.check(p.ord); msg != "" {
			errs = append(errs, lineErr(p.l, rule, valid, "%s", msg))
			continue
		}
		ctx.exec(p.ord)
		o.Lines = append(o.Lines, p.ord)
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	sort.SliceStable(o.Lines, func(i, j int) bool { return o.Lines[i].Line < o.Lines[j].Line })
	if p := ctx.finalCheck(); p != nil {
		e := engine.LineError{Line: p.line, Rule: p.rule, Msg: p.msg, Valid: p.valid}
		for _, l := range engine.OrderLines(text) {
			if l.N == p.line {
				e.Text = l.Text
			}
		}
		errs = append(errs, e)
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	}
	return o, errs
}

// DefaultOrders implements engine.Ruleset: in a player-turn, no moves, and
// the standing orders of the side stay as they were; in a short phase, the
// decision the side's standing orders give (Question.Default): evade as
// its "evade" order says, fight on as its "continue" order says (a
// reacting fleet fights its three rounds), react as
// its "react" order says, and its kept fighters intercept by the
// reconstructed procedure of 8.9.3.1.
func (rules) DefaultOrders(s *State, side engine.Side) *Orders {
	if s.Pending != nil && !s.Over && s.Pending.Ask.Side == side {
		return defaultDecision(s.Pending.Ask)
	}
	return &Orders{Side: side}
}

// FormatOrders implements engine.Ruleset.
func (rules) FormatOrders(st *State, side engine.Side, o *Orders) string {
	if o == nil {
		return ""
	}
	var b strings.Builder
	for _, ord := range o.Lines {
		b.WriteString(formatOrder(ord))
		b.WriteByte('\n')
	}
	return b.String()
}

func formatOrder(o Order) string {
	var w []string
	add := func(x ...string) { w = append(w, x...) }
	switch o.Verb {
	case "fleet":
		add(fleetWords(o)...)
	case "sub":
		add("sub", o.To, o.Target, strconv.Itoa(o.N))
	case "air":
		add(airWords(o)...)
	case "move", "rail":
		if len(o.Path) == 0 {
			add("climb", o.ID)
			break
		}
		add(o.Verb, o.ID)
		add(o.Path...)
		if o.Flag == "high" {
			add("high")
		}
	case "attack":
		add("attack", o.To)
		if len(o.Units) > 0 {
			add("with")
			add(o.Units...)
		}
		if o.Flag != "" {
			add("retreat", o.Flag)
		}
		if o.Fallback != "" {
			add("fallback", o.Fallback)
		}
	case "losses":
		add("losses")
		if o.Flag == "none" {
			add("none")
		}
		add(o.Units...)
	case "build":
		if o.Kind == "repair" {
			add("repair", o.ID)
		} else {
			add("build", o.Kind, o.ID)
		}
	case "keep":
		add("keep", "fighters", strconv.Itoa(o.N))
	case "evade", "react", "continue", "ask":
		add(o.Verb, o.Flag)
	case "decide":
		switch o.Kind {
		case "attack":
			add("attack", "with", o.ID)
		case "intercept":
			add("intercept", o.To, strconv.Itoa(o.N))
		case "step", "eliminate":
			add(o.Kind, o.ID)
		default:
			add(o.Kind)
		}
	}
	return strings.Join(w, " ")
}

// fleetWords writes a fleet order back as its words (9.6-9.14).
func fleetWords(o Order) []string {
	var w []string
	add := func(x ...string) { w = append(w, x...) }
	add("fleet", o.ID)
	switch o.Kind {
	case "move":
		add("to", o.To)
	case "merge":
		add("merge", o.Target)
	case "attack":
		add("attack", o.Target, "rounds", strconv.Itoa(o.N))
	case "form", "split":
		if o.Kind == "split" {
			add("split", o.New)
		} else {
			add("from", o.From)
		}
		if o.Combat > 0 {
			add("combat", strconv.Itoa(o.Combat))
		}
		if o.Trans > 0 {
			add("transport", strconv.Itoa(o.Trans))
		}
		if o.Decoys > 0 {
			add("decoys", strconv.Itoa(o.Decoys))
		}
		if o.Carriers > 0 {
			add("carriers", strconv.Itoa(o.Carriers))
		}
		if len(o.Units) > 0 {
			add("carry")
			add(o.Units...)
		}
		add("to", o.To)
	}
	return w
}

// airWords writes an air order back as its words (8.9).
func airWords(o Order) []string {
	var w []string
	add := func(x ...string) { w = append(w, x...) }
	add("air", o.Kind)
	switch o.Kind {
	case "para":
		add(o.ID, o.To)
	case "recon":
		add(o.To, o.Target, strconv.Itoa(o.N))
	case "transport", "emergency":
		add(o.ID)
		add(o.Units...)
		add("to", o.To)
		if o.From != "" {
			add("from", o.From)
		}
	case "bomb":
		add(o.To, o.Target, strconv.Itoa(o.N))
	default:
		add(o.To, strconv.Itoa(o.N))
	}
	return w
}
