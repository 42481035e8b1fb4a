package norway1940

import (
	"strconv"
	"strings"

	"skagerrak/engine"
)

// line is one order line being read: its words as written (f) and in
// lower case (low), both with the verb at 0 as the rulebook counts them,
// the order read so far and the first error.
type line struct {
	s    *State
	side engine.Side
	l    engine.OrderLine
	f    []string
	low  []string
	o    Order
	err  *engine.LineError
}

// bad records the line's error.
func (p *line) bad(rule, valid, format string, args ...any) {
	e := lineErr(p.l, rule, valid, format, args...)
	p.err = &e
}

// num reads word i as a count of 0 or more.
func (p *line) num(i int) (int, bool) {
	if i >= len(p.f) {
		return 0, false
	}
	n, err := strconv.Atoi(p.f[i])
	return n, err == nil && n >= 0
}

// lineVerb binds a method of line to the driver.
func lineVerb(f func(*line)) engine.VerbFunc[*line] {
	return func(p *line, _ engine.OrderLine, _ []string) { f(p) }
}

// orderDriver binds Verbs to their parse functions; a verb of a later
// revision than the game's is an unknown order, as it always was.
var orderDriver = engine.Driver[*line]{
	Verbs: Verbs,
	Funcs: map[string]engine.VerbFunc[*line]{
		"fleet":    lineVerb((*line).fleet),
		"sub":      lineVerb((*line).sub),
		"air":      lineVerb((*line).air),
		"move":     lineVerb((*line).move),
		"rail":     lineVerb((*line).move),
		"climb":    lineVerb((*line).climb),
		"attack":   lineVerb((*line).attack),
		"build":    lineVerb((*line).build),
		"repair":   lineVerb((*line).build),
		"keep":     lineVerb((*line).keep),
		"evade":    lineVerb((*line).evade),
		"react":    lineVerb((*line).react),
		"continue": lineVerb((*line).react),
		"ask":      lineVerb((*line).ask),
		"losses":   lineVerb((*line).losses),
	},
	Open:    func(p *line, v engine.Verb) bool { return v.Allows(PhaseTurn, "", int(p.s.rev())) },
	Unknown: func(p *line, _ engine.OrderLine, valid string) { p.unknown(valid) },
	Closed: func(p *line, l engine.OrderLine, v engine.Verb, valid string) {
		p.bad("5.2", valid, "%s", v.Closed(l.Fields[0], int(p.s.rev())))
	},
	Refuse: func(p *line, e engine.LineError) { p.err = &e },
}

// unknown records that the line's verb is none of the turn's orders.
func (p *line) unknown(valid string) {
	p.bad("5.2", valid, "unknown order %q", p.f[0])
}

// parseLine turns one order line into an Order, without checking it
// against the state beyond names.
func parseLine(s *State, side engine.Side, l engine.OrderLine) (Order, *engine.LineError) {
	p := &line{s: s, side: side, l: l, f: l.Fields, low: make([]string, len(l.Fields))}
	for i := range p.f {
		p.low[i] = strings.ToLower(p.f[i])
	}
	p.o = Order{Line: l.N, Verb: p.low[0]}
	orderDriver.Line(p, l)
	return p.o, p.err
}

// fleet reads "fleet ID ...": a move, a new fleet from port, a split, a
// merge or an attack (9.6-9.14).
func (p *line) fleet() {
	p.o.ID = strings.ToUpper(p.f[1])
	rest := p.low[2:]
	raw := p.f[2:]
	switch rest[0] {
	case "to":
		p.fleetTo(rest, raw)
	case "from", "split":
		p.fleetForm(rest, raw)
	case "merge":
		p.fleetMerge(rest, raw)
	case "attack":
		p.fleetAttack(rest, raw)
	default:
		p.bad("9.13", "to, from, split, merge or attack", "unknown fleet order %q", raw[0])
	}
}

// fleetTo reads "fleet ID to BOX" (9.13).
func (p *line) fleetTo(rest, raw []string) {
	p.o.Kind = "move"
	if len(rest) != 2 {
		p.bad("9.13", "fleet ID to BOX", "fleet move takes one destination")
		return
	}
	w, ok := data.Canon(raw[1])
	if !ok {
		p.bad("9.13", "a naval box (South-1 .. North-4) or a port", "unknown destination %q", raw[1])
		return
	}
	p.o.To = w
}

// fleetForm reads "fleet ID from PORT ... to BOX" and "fleet ID split NEW
// ... to BOX" (9.6, 9.9).
func (p *line) fleetForm(rest, raw []string) {
	p.o.Kind = "form"
	if rest[0] == "split" {
		p.o.Kind = "split"
		if len(rest) < 2 {
			p.bad("9.9", "fleet ID split NEW [combat N] [transport N] [decoys N] [carry U..] to BOX", "split needs the new fleet's ID")
			return
		}
		p.o.New = strings.ToUpper(raw[1])
	} else {
		if len(rest) < 2 {
			p.bad("9.6", "fleet ID from PORT to BOX ...", "from needs a port")
			return
		}
		port, ok := data.Canon(raw[1])
		if !ok {
			p.bad("9.6", "Germany, UK or a port", "unknown port %q", raw[1])
			return
		}
		p.o.From = port
	}
	if !p.fleetOptions(rest, raw) {
		return
	}
	if p.o.To == "" {
		p.bad("9.13", "... to BOX", "a new fleet needs a destination")
	}
}

// fleetOptions reads a new fleet's words after its port or new ID:
// ships by type, units carried and where to; false after an error.
func (p *line) fleetOptions(rest, raw []string) bool {
	for i := 2; i < len(rest); i++ {
		switch rest[i] {
		case "combat", "transport", "decoys", "decoy", "carriers", "carrier":
			n, ok := p.num(i + 3)
			if !ok {
				p.bad("9.13.4", rest[i]+" N", "%s needs a number", rest[i])
				return false
			}
			switch rest[i] {
			case "combat":
				p.o.Combat = n
			case "transport":
				p.o.Trans = n
			case "carriers", "carrier":
				p.o.Carriers = n
			default:
				p.o.Decoys = n
			}
			i++
		case "carry":
			for i+1 < len(rest) && rest[i+1] != "to" && rest[i+1] != "combat" && rest[i+1] != "transport" && rest[i+1] != "decoys" && rest[i+1] != "carriers" {
				i++
				id, ok := unitName(p.s, raw[i])
				if !ok {
					p.bad("9.10", "a unit or supply unit name", "unknown unit %q", raw[i])
					return false
				}
				p.o.Units = append(p.o.Units, id)
			}
		case "to":
			if i+1 >= len(rest) {
				p.bad("9.13", "to BOX", "to needs a destination")
				return false
			}
			w, ok := data.Canon(raw[i+1])
			if !ok {
				p.bad("9.13", "a naval box or port", "unknown destination %q", raw[i+1])
				return false
			}
			p.o.To = w
			i++
		default:
			p.bad("9.13.1", "combat N, transport N, decoys N, carriers N, carry UNITS, to BOX", "unknown word %q", raw[i])
			return false
		}
	}
	return true
}

// fleetMerge reads "fleet ID merge OTHER" (9.9).
func (p *line) fleetMerge(rest, raw []string) {
	p.o.Kind = "merge"
	if len(rest) != 2 {
		p.bad("9.9", "fleet ID merge OTHER", "merge takes one fleet")
		return
	}
	p.o.Target = strings.ToUpper(raw[1])
}

// fleetAttack reads "fleet ID attack ENEMY [rounds N]" (9.14).
func (p *line) fleetAttack(rest, raw []string) {
	p.o.Kind = "attack"
	if len(rest) != 2 && !(len(rest) == 4 && rest[2] == "rounds") {
		p.bad("9.14", "fleet ID attack ENEMY [rounds 1-3]", "attack takes one enemy fleet")
		return
	}
	p.o.Target = strings.ToUpper(raw[1])
	p.o.N = 3
	if len(rest) == 4 {
		n, ok := p.num(5)
		if !ok || n < 1 || n > 3 {
			p.bad("9.14.5", "rounds 1, 2 or 3", "rounds must be 1 to 3")
			return
		}
		p.o.N = n
	}
}

// sub reads "sub BOX ENEMY [N]" (9.11).
func (p *line) sub() {
	p.o.Verb = "sub"
	p.boxEnemy(1, "9.11", "1, 2 or 3 markers", "up to three submarine markers may be grouped")
}

// boxEnemy reads "BOX ENEMY [N]" from word i on, as sub and air recon
// give them: a naval box, an enemy fleet and 1 to 3 markers (rule the
// order's, valid and tooMany its words for the markers).
func (p *line) boxEnemy(i int, rule, valid, tooMany string) {
	b, ok := data.Box(p.f[i])
	if !ok {
		p.bad(rule, "a naval box", "unknown box %q", p.f[i])
		return
	}
	p.o.To, p.o.Target, p.o.N = b.Name, strings.ToUpper(p.f[i+1]), 1
	if len(p.f) == i+3 {
		n, ok := p.num(i + 2)
		if !ok || n < 1 || n > 3 {
			p.bad(rule, valid, "%s", tooMany)
			return
		}
		p.o.N = n
	}
}

// air reads "air MISSION ...", one function a mission (8.9).
func (p *line) air() {
	p.o.Kind = p.low[1]
	switch p.o.Kind {
	case "para":
		p.airPara()
	case "recon":
		p.airRecon()
	case "transport", "emergency":
		p.airTransport()
	case "patrol", "interdict", "support", "ferry":
		p.airMarkers()
	case "bomb":
		p.airBomb()
	default:
		p.bad("8.9", "para, recon, transport, patrol, bomb, interdict, support, emergency, ferry", "unknown air mission %q", p.f[1])
	}
}

// airPara reads "air para UNIT AREA" (8.11).
func (p *line) airPara() {
	if len(p.f) != 4 {
		p.bad("8.11", "air para UNIT AREA", "para takes a unit and a drop site")
		return
	}
	id, ok := unitName(p.s, p.f[2])
	if !ok {
		p.bad("8.11", "a parachute unit", "unknown unit %q", p.f[2])
		return
	}
	a, ok := data.AreaByName(p.f[3])
	if !ok {
		p.bad("8.11", "a drop site", "unknown area %q", p.f[3])
		return
	}
	p.o.ID, p.o.To = id, a.Name
}

// airRecon reads "air recon BOX ENEMY [N]" (8.9.1).
func (p *line) airRecon() {
	if len(p.f) != 4 && len(p.f) != 5 {
		p.bad("8.9.1", "air recon BOX ENEMY [1-3]", "recon takes a box, an enemy fleet and 1-3 points")
		return
	}
	p.boxEnemy(2, "8.9.1", "1, 2 or 3 recon points", "up to 3 recon points may be grouped")
}

// airTransport reads "air transport|emergency UNIT [SUPPLY] to AREA
// [from AREA]" (8.9.2).
func (p *line) airTransport() {
	// air transport UNIT [SUPPLY] to AREA [from AREA]
	if len(p.f) >= 6 && p.low[4] == "to" && p.o.Kind == "transport" {
		id2, ok := unitName(p.s, p.f[3])
		if !ok {
			p.bad("8.9.2", "a second supply unit", "unknown unit %q", p.f[3])
			return
		}
		p.o.Units = []string{id2}
		p.f = append(p.f[:3:3], p.f[4:]...)
		p.low = append(p.low[:3:3], p.low[4:]...)
	}
	if len(p.f) != 5 && len(p.f) != 7 || p.low[3] != "to" || (len(p.f) == 7 && p.low[5] != "from") {
		p.bad("8.9.2", "air transport UNIT [SUPPLY] to AREA [from AREA]", "malformed transport order")
		return
	}
	id, ok := unitName(p.s, p.f[2])
	if !ok {
		p.bad("8.9.2", "an infantry regiment or a supply unit", "unknown unit %q", p.f[2])
		return
	}
	a, ok := data.AreaByName(p.f[4])
	if !ok {
		p.bad("8.9.2", "an airfield area", "unknown area %q", p.f[4])
		return
	}
	p.o.ID, p.o.To = id, a.Name
	if len(p.f) == 7 {
		fr, ok := data.Canon(p.f[6])
		if !ok && !strings.EqualFold(p.f[6], Denmark) {
			p.bad("8.9.2.1", "Germany, Denmark or an airfield area", "unknown base %q", p.f[6])
			return
		}
		if !ok {
			fr = Denmark
		}
		p.o.From = fr
	}
}

// airMarkers reads "air patrol|interdict|support|ferry WHERE [N]" (8.9).
func (p *line) airMarkers() {
	if len(p.f) != 3 && len(p.f) != 4 {
		p.bad("8.9", "air "+p.o.Kind+" WHERE [N]", "%s takes a place and a number of markers", p.o.Kind)
		return
	}
	w, ok := data.Canon(p.f[2])
	if !ok {
		p.bad("8.9", "an area or naval box", "unknown place %q", p.f[2])
		return
	}
	p.o.To, p.o.N = w, 1
	if len(p.f) == 4 {
		n, ok := p.num(3)
		if !ok || n < 1 {
			p.bad("8.9", "a number of markers", "bad number %q", p.f[3])
			return
		}
		p.o.N = n
	}
}

// airBomb reads "air bomb WHERE TARGET [N]" (8.9.4).
func (p *line) airBomb() {
	if len(p.f) != 4 && len(p.f) != 5 {
		p.bad("8.9.4", "air bomb WHERE TARGET [N] (TARGET: a unit, an enemy fleet, airfield, battery)", "bomb takes a place and a target")
		return
	}
	w, ok := data.Canon(p.f[2])
	if !ok {
		p.bad("8.9.4", "an area or naval box", "unknown place %q", p.f[2])
		return
	}
	p.o.To, p.o.N = w, 1
	switch p.low[3] {
	case "airfield", "battery", "sub":
		p.o.Target = p.low[3]
	case "submarine", "submarines", "subs":
		p.o.Target = "sub"
	default:
		if id, ok := unitName(p.s, p.f[3]); ok {
			p.o.Target = id
		} else {
			p.o.Target = strings.ToUpper(p.f[3])
		}
	}
	if len(p.f) == 5 {
		n, ok := p.num(4)
		if !ok || n < 1 {
			p.bad("8.9.4", "a number of bomber markers", "bad number %q", p.f[4])
			return
		}
		p.o.N = n
	}
}

// climb reads "climb UNIT", a move to high ground in place (16.2.2).
func (p *line) climb() {
	id, ok := unitName(p.s, p.f[1])
	if !ok {
		p.bad("16.2.2", unitHint(p.s, p.side, p.f[1]), "unknown unit %q", p.f[1])
		return
	}
	p.o.Verb, p.o.ID, p.o.Flag = "move", id, "high"
}

// move reads "move|rail UNIT AREA ... [high]" (10.3).
func (p *line) move() {
	id, ok := unitName(p.s, p.f[1])
	if !ok {
		p.bad("10.3", unitHint(p.s, p.side, p.f[1]), "unknown unit %q", p.f[1])
		return
	}
	p.o.ID = id
	areas := p.f[2:]
	if p.low[len(p.low)-1] == "high" && p.o.Verb == "move" {
		p.o.Flag = "high"
		areas = areas[:len(areas)-1]
		if len(areas) == 0 {
			p.bad("16.2.2", "move UNIT AREA ... high, or climb UNIT", "no area before high")
			return
		}
	}
	for _, n := range areas {
		a, ok := data.AreaByName(n)
		if !ok {
			p.bad("2.2", areaHint(n), "unknown area %q", n)
			return
		}
		p.o.Path = append(p.o.Path, a.Name)
	}
}

// attack reads "attack AREA [with UNIT ...] [retreat AREA] [fallback
// AREA]" (10.5).
func (p *line) attack() {
	a, ok := data.AreaByName(p.f[1])
	if !ok {
		p.bad("10.5", areaHint(p.f[1]), "unknown area %q", p.f[1])
		return
	}
	p.o.To = a.Name
	mode := ""
	for i := 2; i < len(p.f); i++ {
		switch p.low[i] {
		case "with":
			mode = "with"
		case "retreat", "fallback":
			if p.low[i] == "fallback" && !p.s.rev().Has(RetreatTowardSupply) {
				p.bad("10.5", "attack AREA [with UNITS] [retreat AREA]", "unexpected %q", p.f[i])
				return
			}
			if i+1 >= len(p.f) {
				p.bad("10.5.6", p.low[i]+" AREA", "%s needs an area", p.low[i])
				return
			}
			r, ok := data.AreaByName(p.f[i+1])
			if !ok {
				p.bad("10.5.6", areaHint(p.f[i+1]), "unknown area %q", p.f[i+1])
				return
			}
			if p.low[i] == "retreat" {
				p.o.Flag = r.Name
			} else {
				p.o.Fallback = r.Name
			}
			i++
		default:
			if mode != "with" {
				p.bad("10.5", "attack AREA [with UNITS] [retreat AREA]", "unexpected %q", p.f[i])
				return
			}
			id, ok := unitName(p.s, p.f[i])
			if !ok {
				p.bad("10.5", unitHint(p.s, p.side, p.f[i]), "unknown unit %q", p.f[i])
				return
			}
			p.o.Units = append(p.o.Units, id)
		}
	}
}

// build reads "build fieldwork|fortify UNIT" and "repair UNIT" (13.2.2,
// 13.3).
func (p *line) build() {
	if p.o.Verb == "repair" {
		p.o.Kind, p.f = "repair", append([]string{"build", "repair"}, p.f[1:]...)
	} else {
		if p.low[1] != "fieldwork" && p.low[1] != "fortify" {
			p.bad("13.3.1", "build fieldwork UNIT | build fortify UNIT | repair UNIT", "malformed build order")
			return
		}
		p.o.Kind = p.low[1]
	}
	p.o.Verb = "build"
	id, ok := unitName(p.s, p.f[2])
	if !ok {
		p.bad("13.3.1", "an infantry unit", "unknown unit %q", p.f[2])
		return
	}
	p.o.ID = id
}

// keep reads "keep fighters N" (8.9.3.1).
func (p *line) keep() {
	if p.low[1] != "fighters" {
		p.bad("8.9.3.1", "keep fighters N", "malformed keep order")
		return
	}
	n, ok := p.num(2)
	if !ok {
		p.bad("8.9.3.1", "keep fighters N", "bad number %q", p.f[2])
		return
	}
	p.o.N = n
}

// evade reads "evade always|never|weaker" (9.14.5).
func (p *line) evade() {
	if p.low[1] != "always" && p.low[1] != "never" && p.low[1] != "weaker" {
		p.bad("9.14.5", "evade always | evade never | evade weaker", "malformed evade order")
		return
	}
	p.o.Flag = p.low[1]
}

// ask reads "ask KIND ...", the decisions asked in person (5.2).
func (p *line) ask() {
	kinds, ok := askOrder(p.low[1:], p.s.rev())
	if !ok {
		p.bad("5.2", "ask none | ask KIND... with KIND "+strings.Join(askKinds(p.s.rev()), ", ")+" or all", "malformed ask order")
		return
	}
	p.o.Flag = strings.TrimPrefix(askText(kinds), "ask ")
}

// losses reads "losses UNIT ... | losses none", from revision 2 (the
// driver refuses it before, 10.5.6).
func (p *line) losses() {
	if len(p.f) == 2 && p.low[1] == "none" {
		p.o.Flag = "none"
		return
	}
	for _, n := range p.f[1:] {
		id, ok := unitName(p.s, n)
		if !ok {
			p.bad("10.5.6", unitHint(p.s, p.side, n), "unknown unit %q", n)
			return
		}
		p.o.Units = append(p.o.Units, id)
	}
}

// react reads "react|continue on|off" (9.14.4, 9.14.5).
func (p *line) react() {
	if p.low[1] != "on" && p.low[1] != "off" {
		p.bad("9.14.4", p.o.Verb+" on | "+p.o.Verb+" off", "malformed %s order", p.o.Verb)
		return
	}
	p.o.Flag = p.low[1]
}

// decisionLine is one decision line of a short phase being read: the
// question, the decision so far and its error.
type decisionLine struct {
	q   *Question
	l   engine.OrderLine
	o   Order
	err *engine.LineError
}

// bad records the line's error, with the question's rule and its
// decision lines as valid.
func (x *decisionLine) bad(format string, args ...any) {
	e := x.l.Errorf(x.q.Rule, strings.Join(x.q.Choices, " | "), format, args...)
	x.err = &e
}

// notADecision refuses a line that is no decision of the question.
func (x *decisionLine) notADecision() {
	x.bad("not a decision of this phase: %s", askTitle[x.q.Kind])
}

// decisionDriver binds Decisions to the answers' functions; the phase
// kind is the question's. Its refusals cite the question's rule and list
// its decision lines, with the fleets, units and places filled in.
var decisionDriver = engine.Driver[*decisionLine]{
	Verbs: Decisions,
	Funcs: map[string]engine.VerbFunc[*decisionLine]{
		"evade":     func(x *decisionLine, _ engine.OrderLine, _ []string) { x.o.Kind = "evade" },
		"fight":     (*decisionLine).fight,
		"break":     (*decisionLine).breakOff,
		"attack":    (*decisionLine).attackWith,
		"pass":      func(x *decisionLine, _ engine.OrderLine, _ []string) { x.o.Kind = "pass" },
		"intercept": (*decisionLine).intercept,
		"step":      (*decisionLine).stepLoss,
	},
	Open:    func(x *decisionLine, v engine.Verb) bool { return v.Allows(x.q.Kind, "", 0) },
	Unknown: func(x *decisionLine, _ engine.OrderLine, _ string) { x.notADecision() },
	Closed:  func(x *decisionLine, _ engine.OrderLine, _ engine.Verb, _ string) { x.notADecision() },
	Refuse: func(x *decisionLine, e engine.LineError) {
		x.bad("%s", e.Msg)
	},
}

// fight reads "fight" (evasion) and "fight on" (continue), 9.14.5.
func (x *decisionLine) fight(_ engine.OrderLine, args []string) {
	switch {
	case x.q.Kind == AskEvasion && len(args) == 0:
		x.o.Kind = "fight"
	case x.q.Kind == AskContinue && len(args) == 1 && strings.EqualFold(args[0], "on"):
		x.o.Kind = "fight on"
	default:
		x.notADecision()
	}
}

// breakOff reads "break off" (9.14.5.1).
func (x *decisionLine) breakOff(_ engine.OrderLine, args []string) {
	if !strings.EqualFold(args[0], "off") {
		x.notADecision()
		return
	}
	x.o.Kind = "break off"
}

// attackWith reads "attack with FLEET", one of the fleets the question
// names (9.14.4).
func (x *decisionLine) attackWith(_ engine.OrderLine, args []string) {
	if !strings.EqualFold(args[0], "with") {
		x.notADecision()
		return
	}
	x.o.Kind, x.o.ID = "attack", strings.ToUpper(args[1])
	if !contains(x.q.Fleets, x.o.ID) {
		x.bad("fleet %s may not attack: not one of your undetected fleets with combat points in %s", x.o.ID, x.q.Box)
	}
}

// stepLoss reads "step UNIT" and "eliminate UNIT", a beaten unit of the
// question (10.5.6).
func (x *decisionLine) stepLoss(l engine.OrderLine, args []string) {
	for _, u := range x.q.Losses {
		if strings.EqualFold(u.ID, args[0]) {
			x.o.Kind, x.o.ID = strings.ToLower(l.Fields[0]), u.ID
			return
		}
	}
	x.bad("%s is not one of your beaten units in %s", args[0], x.q.Box)
}

// intercept reads "intercept PLACE N": kept fighters over a raid the
// question lists (8.9.3.1).
func (x *decisionLine) intercept(_ engine.OrderLine, args []string) {
	x.o.Kind = "intercept"
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 1 {
		x.bad("bad number of fighter markers %q", args[1])
		return
	}
	x.o.N = n
	for _, r := range x.q.Raids {
		if strings.EqualFold(r.Place, args[0]) {
			x.o.To = r.Place
			return
		}
	}
	x.bad("no raid within reach of your kept fighters over %q", args[0])
}
