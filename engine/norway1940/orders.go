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

// parseLine turns one order line into an Order, without checking it
// against the state beyond names.
func parseLine(s *State, side engine.Side, l engine.OrderLine) (Order, *engine.LineError) {
	f := l.Fields
	low := make([]string, len(f))
	for i := range f {
		low[i] = strings.ToLower(f[i])
	}
	o := Order{Line: l.N, Verb: low[0]}
	bad := func(rule, valid, format string, args ...any) (Order, *engine.LineError) {
		e := lineErr(l, rule, valid, format, args...)
		return o, &e
	}
	place := func(name string) (string, bool) { return data.Canon(name) }
	num := func(i int) (int, bool) {
		if i >= len(f) {
			return 0, false
		}
		n, err := strconv.Atoi(f[i])
		return n, err == nil && n >= 0
	}
	switch low[0] {
	case "fleet":
		if len(f) < 3 {
			return bad("9.13", "fleet ID to BOX | fleet ID from PORT to BOX ... | fleet ID split NEW ... to BOX | fleet ID merge ID | fleet ID attack ENEMY", "incomplete fleet order")
		}
		o.ID = strings.ToUpper(f[1])
		rest := low[2:]
		raw := f[2:]
		switch rest[0] {
		case "to":
			o.Kind = "move"
			if len(rest) != 2 {
				return bad("9.13", "fleet ID to BOX", "fleet move takes one destination")
			}
			w, ok := place(raw[1])
			if !ok {
				return bad("9.13", "a naval box (South-1 .. North-4) or a port", "unknown destination %q", raw[1])
			}
			o.To = w
			return o, nil
		case "from", "split":
			o.Kind = "form"
			if rest[0] == "split" {
				o.Kind = "split"
				if len(rest) < 2 {
					return bad("9.9", "fleet ID split NEW [combat N] [transport N] [decoys N] [carry U..] to BOX", "split needs the new fleet's ID")
				}
				o.New = strings.ToUpper(raw[1])
			} else {
				if len(rest) < 2 {
					return bad("9.6", "fleet ID from PORT to BOX ...", "from needs a port")
				}
				p, ok := place(raw[1])
				if !ok {
					return bad("9.6", "Germany, UK or a port", "unknown port %q", raw[1])
				}
				o.From = p
			}
			for i := 2; i < len(rest); i++ {
				switch rest[i] {
				case "combat", "transport", "decoys", "decoy", "carriers", "carrier":
					n, ok := num(i + 3)
					if !ok {
						return bad("9.13.4", rest[i]+" N", "%s needs a number", rest[i])
					}
					switch rest[i] {
					case "combat":
						o.Combat = n
					case "transport":
						o.Trans = n
					case "carriers", "carrier":
						o.Carriers = n
					default:
						o.Decoys = n
					}
					i++
				case "carry":
					for i+1 < len(rest) && rest[i+1] != "to" && rest[i+1] != "combat" && rest[i+1] != "transport" && rest[i+1] != "decoys" && rest[i+1] != "carriers" {
						i++
						id, ok := unitName(s, raw[i])
						if !ok {
							return bad("9.10", "a unit or supply unit name", "unknown unit %q", raw[i])
						}
						o.Units = append(o.Units, id)
					}
				case "to":
					if i+1 >= len(rest) {
						return bad("9.13", "to BOX", "to needs a destination")
					}
					w, ok := place(raw[i+1])
					if !ok {
						return bad("9.13", "a naval box or port", "unknown destination %q", raw[i+1])
					}
					o.To = w
					i++
				default:
					return bad("9.13.1", "combat N, transport N, decoys N, carriers N, carry UNITS, to BOX", "unknown word %q", raw[i])
				}
			}
			if o.To == "" {
				return bad("9.13", "... to BOX", "a new fleet needs a destination")
			}
			return o, nil
		case "merge":
			o.Kind = "merge"
			if len(rest) != 2 {
				return bad("9.9", "fleet ID merge OTHER", "merge takes one fleet")
			}
			o.Target = strings.ToUpper(raw[1])
			return o, nil
		case "attack":
			o.Kind = "attack"
			if len(rest) != 2 && !(len(rest) == 4 && rest[2] == "rounds") {
				return bad("9.14", "fleet ID attack ENEMY [rounds 1-3]", "attack takes one enemy fleet")
			}
			o.Target = strings.ToUpper(raw[1])
			o.N = 3
			if len(rest) == 4 {
				n, ok := num(5)
				if !ok || n < 1 || n > 3 {
					return bad("9.14.5", "rounds 1, 2 or 3", "rounds must be 1 to 3")
				}
				o.N = n
			}
			return o, nil
		}
		return bad("9.13", "to, from, split, merge or attack", "unknown fleet order %q", raw[0])
	case "sub", "subs", "submarine":
		o.Verb = "sub"
		if len(f) != 3 && len(f) != 4 {
			return bad("9.11", "sub BOX ENEMY [1-3]", "sub takes a box, an enemy fleet and a number of markers")
		}
		b, ok := data.Box(f[1])
		if !ok {
			return bad("9.11", "a naval box", "unknown box %q", f[1])
		}
		o.To, o.Target, o.N = b.Name, strings.ToUpper(f[2]), 1
		if len(f) == 4 {
			n, ok := num(3)
			if !ok || n < 1 || n > 3 {
				return bad("9.11", "1, 2 or 3 markers", "up to three submarine markers may be grouped")
			}
			o.N = n
		}
		return o, nil
	case "air":
		if len(f) < 3 {
			return bad("8.9", "air recon|transport|patrol|bomb|interdict|support|para ...", "incomplete air order")
		}
		o.Kind = low[1]
		switch o.Kind {
		case "para":
			if len(f) != 4 {
				return bad("8.11", "air para UNIT AREA", "para takes a unit and a drop site")
			}
			id, ok := unitName(s, f[2])
			if !ok {
				return bad("8.11", "a parachute unit", "unknown unit %q", f[2])
			}
			a, ok := data.AreaByName(f[3])
			if !ok {
				return bad("8.11", "a drop site", "unknown area %q", f[3])
			}
			o.ID, o.To = id, a.Name
			return o, nil
		case "recon":
			if len(f) != 4 && len(f) != 5 {
				return bad("8.9.1", "air recon BOX ENEMY [1-3]", "recon takes a box, an enemy fleet and 1-3 points")
			}
			b, ok := data.Box(f[2])
			if !ok {
				return bad("8.9.1", "a naval box", "unknown box %q", f[2])
			}
			o.To, o.Target, o.N = b.Name, strings.ToUpper(f[3]), 1
			if len(f) == 5 {
				n, ok := num(4)
				if !ok || n < 1 || n > 3 {
					return bad("8.9.1", "1, 2 or 3 recon points", "up to 3 recon points may be grouped")
				}
				o.N = n
			}
			return o, nil
		case "transport", "emergency":
			// air transport UNIT [SUPPLY] to AREA [from AREA]
			if len(f) >= 6 && low[4] == "to" && o.Kind == "transport" {
				id2, ok := unitName(s, f[3])
				if !ok {
					return bad("8.9.2", "a second supply unit", "unknown unit %q", f[3])
				}
				o.Units = []string{id2}
				f = append(f[:3:3], f[4:]...)
				low = append(low[:3:3], low[4:]...)
			}
			if len(f) != 5 && len(f) != 7 || low[3] != "to" || (len(f) == 7 && low[5] != "from") {
				return bad("8.9.2", "air transport UNIT [SUPPLY] to AREA [from AREA]", "malformed transport order")
			}
			id, ok := unitName(s, f[2])
			if !ok {
				return bad("8.9.2", "an infantry regiment or a supply unit", "unknown unit %q", f[2])
			}
			a, ok := data.AreaByName(f[4])
			if !ok {
				return bad("8.9.2", "an airfield area", "unknown area %q", f[4])
			}
			o.ID, o.To = id, a.Name
			if len(f) == 7 {
				fr, ok := place(f[6])
				if !ok && !strings.EqualFold(f[6], Denmark) {
					return bad("8.9.2.1", "Germany, Denmark or an airfield area", "unknown base %q", f[6])
				}
				if !ok {
					fr = Denmark
				}
				o.From = fr
			}
			return o, nil
		case "patrol", "interdict", "support", "ferry":
			if len(f) != 3 && len(f) != 4 {
				return bad("8.9", "air "+o.Kind+" WHERE [N]", "%s takes a place and a number of markers", o.Kind)
			}
			w, ok := place(f[2])
			if !ok {
				return bad("8.9", "an area or naval box", "unknown place %q", f[2])
			}
			o.To, o.N = w, 1
			if len(f) == 4 {
				n, ok := num(3)
				if !ok || n < 1 {
					return bad("8.9", "a number of markers", "bad number %q", f[3])
				}
				o.N = n
			}
			return o, nil
		case "bomb":
			if len(f) != 4 && len(f) != 5 {
				return bad("8.9.4", "air bomb WHERE TARGET [N] (TARGET: a unit, an enemy fleet, airfield, battery)", "bomb takes a place and a target")
			}
			w, ok := place(f[2])
			if !ok {
				return bad("8.9.4", "an area or naval box", "unknown place %q", f[2])
			}
			o.To, o.N = w, 1
			switch low[3] {
			case "airfield", "battery", "sub":
				o.Target = low[3]
			case "submarine", "submarines", "subs":
				o.Target = "sub"
			default:
				if id, ok := unitName(s, f[3]); ok {
					o.Target = id
				} else {
					o.Target = strings.ToUpper(f[3])
				}
			}
			if len(f) == 5 {
				n, ok := num(4)
				if !ok || n < 1 {
					return bad("8.9.4", "a number of bomber markers", "bad number %q", f[4])
				}
				o.N = n
			}
			return o, nil
		}
		return bad("8.9", "para, recon, transport, patrol, bomb, interdict, support, emergency, ferry", "unknown air mission %q", f[1])
	case "climb":
		if len(f) != 2 {
			return bad("16.2.2", "climb UNIT", "climb takes a unit")
		}
		id, ok := unitName(s, f[1])
		if !ok {
			return bad("16.2.2", unitHint(s, side, f[1]), "unknown unit %q", f[1])
		}
		o.Verb, o.ID, o.Flag = "move", id, "high"
		return o, nil
	case "move", "rail":
		if len(f) < 3 {
			return bad("10.3", o.Verb+" UNIT AREA [AREA ...] [high]", "a move needs a unit and at least one area")
		}
		id, ok := unitName(s, f[1])
		if !ok {
			return bad("10.3", unitHint(s, side, f[1]), "unknown unit %q", f[1])
		}
		o.ID = id
		areas := f[2:]
		if low[len(low)-1] == "high" && o.Verb == "move" {
			o.Flag = "high"
			areas = areas[:len(areas)-1]
			if len(areas) == 0 {
				return bad("16.2.2", "move UNIT AREA ... high, or climb UNIT", "no area before high")
			}
		}
		for _, n := range areas {
			a, ok := data.AreaByName(n)
			if !ok {
				return bad("2.2", areaHint(n), "unknown area %q", n)
			}
			o.Path = append(o.Path, a.Name)
		}
		return o, nil
	case "attack":
		if len(f) < 2 {
			return bad("10.5", "attack AREA [with UNITS] [retreat AREA]", "attack needs an area")
		}
		a, ok := data.AreaByName(f[1])
		if !ok {
			return bad("10.5", areaHint(f[1]), "unknown area %q", f[1])
		}
		o.To = a.Name
		mode := ""
		for i := 2; i < len(f); i++ {
			switch low[i] {
			case "with":
				mode = "with"
			case "retreat", "fallback":
				if low[i] == "fallback" && s.rev() < 2 {
					return bad("10.5", "attack AREA [with UNITS] [retreat AREA]", "unexpected %q", f[i])
				}
				if i+1 >= len(f) {
					return bad("10.5.6", low[i]+" AREA", "%s needs an area", low[i])
				}
				r, ok := data.AreaByName(f[i+1])
				if !ok {
					return bad("10.5.6", areaHint(f[i+1]), "unknown area %q", f[i+1])
				}
				if low[i] == "retreat" {
					o.Flag = r.Name
				} else {
					o.Fallback = r.Name
				}
				i++
			default:
				if mode != "with" {
					return bad("10.5", "attack AREA [with UNITS] [retreat AREA]", "unexpected %q", f[i])
				}
				id, ok := unitName(s, f[i])
				if !ok {
					return bad("10.5", unitHint(s, side, f[i]), "unknown unit %q", f[i])
				}
				o.Units = append(o.Units, id)
			}
		}
		return o, nil
	case "build", "repair":
		if o.Verb == "repair" {
			if len(f) != 2 {
				return bad("13.2.2", "repair UNIT", "repair takes a unit")
			}
			o.Kind, f = "repair", append([]string{"build", "repair"}, f[1:]...)
		} else {
			if len(f) != 3 || (low[1] != "fieldwork" && low[1] != "fortify") {
				return bad("13.3.1", "build fieldwork UNIT | build fortify UNIT | repair UNIT", "malformed build order")
			}
			o.Kind = low[1]
		}
		o.Verb = "build"
		id, ok := unitName(s, f[2])
		if !ok {
			return bad("13.3.1", "an infantry unit", "unknown unit %q", f[2])
		}
		o.ID = id
		return o, nil
	case "keep":
		if len(f) != 3 || low[1] != "fighters" {
			return bad("8.9.3.1", "keep fighters N", "malformed keep order")
		}
		n, ok := num(2)
		if !ok {
			return bad("8.9.3.1", "keep fighters N", "bad number %q", f[2])
		}
		o.N = n
		return o, nil
	case "evade":
		if len(f) != 2 || (low[1] != "always" && low[1] != "never" && low[1] != "weaker") {
			return bad("9.14.5", "evade always | evade never | evade weaker", "malformed evade order")
		}
		o.Flag = low[1]
		return o, nil
	case "ask":
		kinds, ok := askOrder(low[1:], s.rev())
		if !ok {
			return bad("5.2", "ask none | ask KIND... with KIND "+strings.Join(askKinds(s.rev()), ", ")+" or all", "malformed ask order")
		}
		o.Flag = strings.TrimPrefix(askText(kinds), "ask ")
		return o, nil
	case "losses":
		if s.rev() < 2 {
			break
		}
		if len(f) < 2 {
			return bad("10.5.6", "losses UNIT [UNIT ...] | losses none", "losses needs your units in the order they take combat losses")
		}
		if len(f) == 2 && low[1] == "none" {
			o.Flag = "none"
			return o, nil
		}
		for _, n := range f[1:] {
			id, ok := unitName(s, n)
			if !ok {
				return bad("10.5.6", unitHint(s, side, n), "unknown unit %q", n)
			}
			o.Units = append(o.Units, id)
		}
		return o, nil
	case "react", "continue":
		if len(f) != 2 || (low[1] != "on" && low[1] != "off") {
			return bad("9.14.4", o.Verb+" on | "+o.Verb+" off", "malformed %s order", o.Verb)
		}
		o.Flag = low[1]
		return o, nil
	}
	return bad("5.2", engine.Suggest(f[0], Verbs.Names(PhaseTurn, "", s.rev())), "unknown order %q", f[0])
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
	case "sub":
		add("sub", o.To, o.Target, strconv.Itoa(o.N))
	case "air":
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
