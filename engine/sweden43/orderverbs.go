package sweden43

import (
	"strings"

	"skagerrak/engine"
)

// orderLine is one order line being read: the order so far and its
// first error.
type orderLine struct {
	c    *ctx
	side engine.Side
	l    engine.OrderLine
	f    []string // the line's words, the verb at 0
	step string
	o    Order
	err  *engine.LineError
}

// bad records the line's error.
func (p *orderLine) bad(rule, valid, format string, a ...any) {
	e := p.l.Errorf(rule, valid, format, a...)
	p.err = &e
}

// orderDriver binds Verbs to their parse functions. A verb of another
// phase reads as a word that is no order of this one.
var orderDriver = engine.Driver[*orderLine]{
	Verbs: Verbs,
	Funcs: map[string]engine.VerbFunc[*orderLine]{
		"place":    (*orderLine).unitHex,
		"move":     (*orderLine).unitHex,
		"rail":     (*orderLine).unitHex,
		"land":     (*orderLine).unitHex,
		"drop":     (*orderLine).unitHex,
		"replace":  (*orderLine).unitHex,
		"base":     (*orderLine).base,
		"rebuild":  (*orderLine).rebuild,
		"mobilize": (*orderLine).mobilize,
		"assemble": (*orderLine).assemble,
		"attack":   (*orderLine).attack,
		"air":      (*orderLine).air,
	},
	Open:    func(p *orderLine, v engine.Verb) bool { return v.Allows(stepKind(p.step), "", 0) },
	Unknown: func(p *orderLine, _ engine.OrderLine, valid string) { p.notAnOrder(valid) },
	Closed:  func(p *orderLine, _ engine.OrderLine, _ engine.Verb, valid string) { p.notAnOrder(valid) },
	Refuse:  func(p *orderLine, e engine.LineError) { p.err = &e },
}

// stepKind is the kind of phase a step's orders are read in (an unknown
// step reads as the movement phase, as stepVerbs lists it).
func stepKind(step string) string {
	switch step {
	case "setup", "combat", "exploit":
		return step
	}
	return "move"
}

// notAnOrder refuses a line whose first word is no order of the step.
func (p *orderLine) notAnOrder(valid string) {
	p.bad("", valid, "%q is not an order of the %s phase", p.f[0], p.step)
}

// parse reads one line into an Order without checking it against the board
// beyond names.
func (c *ctx) parse(side engine.Side, l engine.OrderLine, step string) (Order, *engine.LineError) {
	p := &orderLine{c: c, side: side, l: l, f: l.Fields, step: step, o: Order{N: l.N, Verb: strings.ToLower(l.Fields[0])}}
	orderDriver.Line(p, l)
	return p.o, p.err
}

// ground finds one of the side's ground units by name, or records an
// error.
func (p *orderLine) ground(s string) (string, bool) {
	i := p.c.unitByName(s)
	if i < 0 || p.c.b.Units[i].Side != p.side {
		p.bad("", p.c.ownUnits(p.side, OnMap, s), "%q is not one of your units", s)
		return "", false
	}
	return p.c.b.Units[i].ID, true
}

// hexes reads hexes and places ("to" and "via" are skipped), or records
// an error.
func (p *orderLine) hexes(ws []string) ([]engine.Hex, bool) {
	var out []engine.Hex
	for _, w := range ws {
		if strings.EqualFold(w, "to") || strings.EqualFold(w, "via") {
			continue
		}
		h, err := data.ParseHexOrPlace(w)
		if err != nil {
			p.bad("", "a hex such as R18 or a place such as Stockholm", "%v", err)
			return nil, false
		}
		out = append(out, h)
	}
	return out, true
}

// airUnit finds one of the side's air units by name, or records an error.
func (p *orderLine) airUnit(s string) (string, bool) {
	i := p.c.airByName(s)
	if i < 0 || p.c.b.Air[i].Side != p.side {
		p.bad("", p.c.ownAir(p.side, s), "%q is not one of your air units", s)
		return "", false
	}
	return p.c.b.Air[i].ID, true
}

// unitHex reads "VERB UNIT HEX" for place, move (HEX ...), rail, land,
// drop and replace.
func (p *orderLine) unitHex(_ engine.OrderLine, _ []string) {
	f, verb := p.f, p.o.Verb
	id, ok := p.ground(f[1])
	if !ok {
		return
	}
	p.o.Unit = id
	hs, ok := p.hexes(f[2:])
	if !ok {
		return
	}
	if len(hs) == 0 {
		p.bad("", verb+" UNIT HEX", "no hex given")
		return
	}
	if verb != "move" && len(hs) != 1 {
		p.bad("", verb+" UNIT HEX", "%s takes one hex", verb)
		return
	}
	p.o.Hexes = hs
}

// rebuild reads "rebuild UNIT" (29B).
func (p *orderLine) rebuild(_ engine.OrderLine, _ []string) {
	if id, ok := p.ground(p.f[1]); ok {
		p.o.Unit = id
	}
}

// mobilize reads "mobilize REGIMENT DIVISION" (29E).
func (p *orderLine) mobilize(_ engine.OrderLine, _ []string) {
	reg, ok := p.ground(p.f[1])
	if !ok {
		return
	}
	div, ok := p.ground(p.f[2])
	if !ok {
		return
	}
	p.o.Unit, p.o.Units = div, []string{reg}
}

// assemble reads "assemble DIVISION R1 R2 R3" (29F).
func (p *orderLine) assemble(_ engine.OrderLine, _ []string) {
	f := p.f
	div, ok := p.ground(f[1])
	if !ok {
		return
	}
	p.o.Unit = div
	for _, w := range f[2:] {
		id, ok := p.ground(w)
		if !ok {
			return
		}
		p.o.Units = append(p.o.Units, id)
	}
}

// base reads "base AIRUNIT HEX" or "base AIRUNIT UK" (3F).
func (p *orderLine) base(_ engine.OrderLine, _ []string) {
	f := p.f
	id, ok := p.airUnit(f[1])
	if !ok {
		return
	}
	p.o.Unit = id
	if !strings.EqualFold(f[2], "uk") {
		if hs, ok := p.hexes(f[2:]); ok {
			p.o.Hexes = hs
		}
	}
}

// attack reads "attack HEX with UNIT ... [advance]".
func (p *orderLine) attack(_ engine.OrderLine, _ []string) {
	f := p.f
	if !strings.EqualFold(f[2], "with") {
		p.bad("", "attack HEX with UNIT UNIT ... [advance]", "malformed attack")
		return
	}
	hs, ok := p.hexes(f[1:2])
	if !ok {
		return
	}
	p.o.Hexes = hs
	for _, w := range f[3:] {
		if strings.EqualFold(w, "advance") {
			p.o.Flag = "advance"
			continue
		}
		id, ok := p.ground(w)
		if !ok {
			return
		}
		p.o.Units = append(p.o.Units, id)
	}
	if len(p.o.Units) == 0 {
		p.bad("", "attack HEX with UNIT UNIT ... [advance]", "no attacking units")
	}
}

// air reads "air AIRUNIT HEX [close]" (20).
func (p *orderLine) air(_ engine.OrderLine, _ []string) {
	f := p.f
	id, ok := p.airUnit(f[1])
	if !ok {
		return
	}
	p.o.Unit = id
	hs, ok := p.hexes(f[2:3])
	if !ok {
		return
	}
	p.o.Hexes = hs
	if len(f) == 4 {
		if !strings.EqualFold(f[3], "close") {
			p.bad("20C1", "close", "%q: the only mission flag is close (close escort)", f[3])
			return
		}
		p.o.Flag = "close"
	}
}
