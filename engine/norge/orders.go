package norge

import (
	"fmt"
	"strconv"
	"strings"

	"skagerrak/engine"
)

// Order is one parsed order line, with names made canonical.
type Order struct {
	Line int      `json:"line"`
	Verb string   `json:"verb"`
	ID   string   `json:"id,omitempty"`
	Args []string `json:"args,omitempty"`
	// Adv is the unit an attack advances with, "none", or "" for the first
	// that may (16.7).
	Adv string `json:"adv,omitempty"`
}

// Orders are one side's orders for one phase.
type Orders struct {
	Side engine.Side `json:"side"`
	Turn int         `json:"turn"`
	Step int         `json:"step"`
	// Setup marks orders of the set-up phase (6.2).
	Setup bool `json:"setup,omitempty"`
	// Keep is true for default orders (NMR): standing orders stay.
	Keep bool    `json:"keep,omitempty"`
	List []Order `json:"list,omitempty"`
}

// problem is a rule broken by an order.
type problem struct {
	rule, msg, valid string
}

func fail(rule, valid, format string, args ...any) *problem {
	return &problem{rule: rule, valid: valid, msg: fmt.Sprintf(format, args...)}
}

// verbRule is the rule a verb carries out, from the verb table.
func verbRule(verb string) string {
	v, _ := Verbs.Lookup(verb)
	return v.Rule
}

// ParseOrders implements engine.Ruleset.
func (rules) ParseOrders(s *State, side engine.Side, text string) (*Orders, []engine.LineError) {
	o := &Orders{Side: side, Turn: s.Turn, Step: s.Step, Setup: s.Setup}
	var errs []engine.LineError
	if s.Over {
		return o, []engine.LineError{{Msg: "the game is over", Rule: "2.1", Valid: "no orders"}}
	}
	owes := PhaseOf(s).Awaits(side)
	if side != German && side != Allied {
		return o, []engine.LineError{{Msg: fmt.Sprintf("unknown side %q", side), Valid: "german or allied", Rule: "1.1"}}
	}
	p := newParser(s, side)
	p.out = o
	for _, l := range engine.OrderLines(text) {
		if !owes {
			p.errs = append(p.errs, l.Errorf("7.1", "no orders", "%s owes no orders in %s", side, PhaseOf(s).ID))
			continue
		}
		orderDriver.Line(p, l)
	}
	errs = p.errs
	if s.Setup {
		errs = append(errs, p.finishSetup(o)...)
	} else if s.Step == StepLandGerman || s.Step == StepLandAllied {
		errs = append(errs, p.finishLand(o)...)
	}
	return o, errs
}

// parser checks orders against the state and against the earlier lines.
type parser struct {
	s     *State
	scr   *State // scratch copy with the earlier orders applied
	side  engine.Side
	used  map[string]bool
	moved map[string]int   // unit -> line
	cur   engine.OrderLine // the line being parsed
	// emptied records, for each set-up battleship, the last line that took
	// troops off it (6.2).
	emptied map[string]engine.OrderLine
	// lines records each line by number, and given the order lines that
	// settle what a unit does this phase besides moving: flown in
	// (airlift, 13.4), dropped (13.7) or taken aboard (embark, 12.8).
	lines map[int]engine.OrderLine
	given map[string]Order
	// out collects the orders read, errs the lines refused.
	out  *Orders
	errs []engine.LineError
}

func newParser(s *State, side engine.Side) *parser {
	return &parser{s: s, scr: s.clone(), side: side, used: map[string]bool{}, moved: map[string]int{}, emptied: map[string]engine.OrderLine{},
		lines: map[int]engine.OrderLine{}, given: map[string]Order{}}
}

// givenFirst is the problem of a move or ferry order for a unit an
// earlier line has already flown in, dropped or taken aboard (13.4, 13.7,
// 12.8), or nil: the rule that keeps the unit still, not merely "one
// order for each".
func (p *parser) givenFirst(u *Unit) *problem {
	o, ok := p.given[u.ID]
	if !ok {
		return nil
	}
	switch o.Verb {
	case "airlift":
		return fail("13.4", movableUnits(p.scr, p.side), "%s is flown in to %s by line %d: units flown in neither move nor attack in the turn they arrive", u.ID, o.Args[0], o.Line)
	case "drop":
		return fail("13.7", movableUnits(p.scr, p.side), "%s is air dropped on %s by line %d: units air dropped may not move this turn (they may attack)", u.ID, o.Args[0], o.Line)
	case "embark":
		return fail("12.8", "no other order for "+u.ID+" than its embark order on line "+strconv.Itoa(o.Line), "%s embarks on %s by line %d", u.ID, o.ID, o.Line)
	}
	return nil
}

func (p *parser) once(key, rule, what string) *problem {
	if p.used[key] {
		return fail(rule, "one order for each", "%s already has an order in this phase", what)
	}
	p.used[key] = true
	return nil
}

// findUnit resolves a unit name or alias, case-insensitively.
func findUnit(s *State, side engine.Side, name string) (*Unit, *problem) {
	for i := range data.Units {
		in := &data.Units[i]
		ok := strings.EqualFold(in.ID, name)
		for _, a := range in.Aliases {
			ok = ok || strings.EqualFold(a, name)
		}
		if ok {
			if in.Side != side {
				return nil, fail("1.2", "one of your units", "%s is not your unit", in.ID)
			}
			u := s.unit(in.ID)
			if u.Loc == LocElim {
				return nil, fail("16.3", "a unit still in play", "%s has been eliminated", in.ID)
			}
			return u, nil
		}
	}
	return nil, fail("1.2", engine.Suggest(name, ownUnitNames(s, side)), "no unit %q", name)
}

// ownUnitNames lists the side's units still in play.
func ownUnitNames(s *State, side engine.Side) []string {
	var n []string
	for _, u := range s.Units {
		if u.Side == side && u.Loc != LocElim {
			n = append(n, u.ID)
		}
	}
	return n
}

func findShip(s *State, side engine.Side, name string) (*Ship, *problem) {
	for i := range s.Ships {
		sh := &s.Ships[i]
		if strings.EqualFold(sh.ID, name) {
			if sh.Side != side {
				return nil, fail("1.2", "one of your naval units", "%s is not yours", sh.ID)
			}
			if sh.Sunk || sh.Scrapped {
				return nil, fail("10.8", "a naval unit still in play", "%s is no longer in play", sh.ID)
			}
			return sh, nil
		}
	}
	var n []string
	for _, sh := range s.Ships {
		if sh.Side == side && !sh.Sunk && !sh.Scrapped {
			n = append(n, sh.ID)
		}
	}
	return nil, fail("1.2", engine.Suggest(name, n), "no naval unit %q", name)
}

func findNode(name string) (*SeaNode, *problem) {
	for i := range data.Sea {
		if strings.EqualFold(data.Sea[i].Name, name) {
			return &data.Sea[i], nil
		}
	}
	var n []string
	for _, x := range data.Sea {
		n = append(n, x.Name)
	}
	return nil, fail("10.1", engine.Suggest(name, n), "no Strategic Map hex %q", name)
}

// finishSetup checks that every battleship still carries a regiment's
// worth after the whole file (6.2).
//
// A battleship left short lost troops to a later carry order (each carry
// line loads exactly a regiment's worth), so the error names the last line
// that took troops off it.
func (p *parser) finishSetup(o *Orders) []engine.LineError {
	var errs []engine.LineError
	for _, sh := range p.scr.Ships {
		if sh.Side != German || sh.Kind != "bs" || !sh.Restricted {
			continue
		}
		n := 0
		for _, id := range sh.Cargo {
			n += thirds(id)
		}
		if n != 3 {
			errs = append(errs, p.emptied[sh.ID].Errorf("6.2", "1 regiment or 3 battalions on each battleship", "%s is left with %d battalions' worth", sh.ID, n))
		}
	}
	return errs
}

// applyCarry puts units aboard a battleship at set-up, sending its former
// troops to the reserve (6.2).
func applyCarry(s *State, ship string, units []string) {
	sh := s.ship(ship)
	for _, id := range sh.Cargo {
		s.unit(id).Loc = LocReserve
	}
	for _, id := range units {
		u := s.unit(id)
		if from := s.ship(strings.TrimPrefix(u.Loc, shipPrefix)); strings.HasPrefix(u.Loc, shipPrefix) && from != nil {
			var keep []string
			for _, c := range from.Cargo {
				if c != id {
					keep = append(keep, c)
				}
			}
			from.Cargo = keep
		}
		u.Loc = shipPrefix + sh.ID
	}
	sh.Cargo = append([]string(nil), units...)
}

// finishLand checks what only the whole file shows: stacking at the end
// of movement (14.1) and the attacks against the units' final hexes (16).
func (p *parser) finishLand(o *Orders) []engine.LineError {
	errs := p.landingNow(o)
	bad := map[int]bool{}
	for _, e := range errs {
		bad[e.Line] = true
	}
	for _, ord := range o.List {
		if ord.Verb != "move" && ord.Verb != "ferry" {
			continue
		}
		to := ord.Args[len(ord.Args)-1]
		if n := p.scr.stackThirds(to, p.side); n > 9 {
			errs = append(errs, engine.LineError{Line: ord.Line, Text: p.lines[ord.Line].Text, Rule: "14.1", Msg: fmt.Sprintf("%s would end with %d battalions' worth on %s, more than 3 regiments", ord.ID, n, to), Valid: "at most 3 regiment equivalents a hex"})
			bad[ord.Line] = true
		}
	}
	for _, ord := range o.List {
		if ord.Verb != "attack" || bad[ord.Line] {
			continue
		}
		if pr := checkAttack(p.scr, p.side, ord.ID, ord.Args, o); pr != nil {
			errs = append(errs, p.lines[ord.Line].Errorf(pr.rule, pr.valid, "%s", pr.msg))
			continue
		}
		if ord.Adv != "" && ord.Adv != "none" && !containsStr(ord.Args, ord.Adv) {
			errs = append(errs, p.lines[ord.Line].Errorf("16.7", "advance "+strings.Join(ord.Args, " | advance ")+" | advance none", "%s does not take part in the attack", ord.Adv))
		}
	}
	return errs
}

// FormatOrders implements engine.Ruleset.
func (rules) FormatOrders(_ *State, _ engine.Side, o *Orders) string {
	if o == nil {
		return ""
	}
	var b strings.Builder
	if len(o.List) == 0 {
		b.WriteString("# no orders\n")
	}
	for _, ord := range o.List {
		b.WriteString(formatOrder(ord))
		b.WriteString("\n")
	}
	return b.String()
}

func formatOrder(o Order) string {
	w := []string{o.Verb}
	if o.ID != "" {
		w = append(w, o.ID)
	}
	if o.Verb == "attack" {
		w = append(w, "with")
	}
	w = append(w, o.Args...)
	if o.Adv != "" {
		w = append(w, "advance", o.Adv)
	}
	return strings.Join(w, " ")
}

// bridgeList lists the bridges still standing (15.1, 15.2).
func bridgeList(s *State) string {
	var out []string
	for _, k := range sortedKeys(data.Sides) {
		hs := data.Sides[k]
		if hs.Kind == "river" && hs.Bridge && !isBlown(s, k) {
			out = append(out, hs.A+" "+hs.B)
		}
	}
	if len(out) == 0 {
		return "none: every bridge is blown"
	}
	return strings.Join(out, ", ")
}

// sortedKeys is engine.SortedKeys.
func sortedKeys[V any](m map[string]V) []string { return engine.SortedKeys(m) }

func isBlown(s *State, key string) bool {
	for _, b := range s.Blown {
		if b.Side == key {
			return true
		}
	}
	return false
}

// unitsGiven are the units an order settles for the phase besides moving:
// the unit flown in or dropped, the units taken aboard.
func unitsGiven(o Order) []string {
	switch o.Verb {
	case "airlift", "drop":
		return []string{o.ID}
	case "embark":
		return o.Args
	}
	return nil
}

// landingNow refuses, from revision 2, the move, ferry and attack orders
// of units the same orders land this turn, which "may defend themselves,
// but NOT be moved or attack in the turn they have disembarked" (12.7) or
// "been flown in" (13.4): the troops a battleship's new landing takes from
// the quays into the port (disembark SHIP, 12.2), whatever the order of
// the lines, and the units flown in (airlift), which rule 13.4 keeps from
// attacking.
func (p *parser) landingNow(o *Orders) []engine.LineError {
	if !p.s.rev().Has(LandingTroopsOrdersRefused) {
		return nil
	}
	landing := map[string]Order{}
	var ids []string
	for _, ord := range o.List {
		if ord.Verb != "disembark" {
			continue
		}
		if sh := p.s.ship(ord.ID); retrying(p.s, sh) {
			for _, u := range ashore(p.s, sh) {
				landing[u.ID] = ord
				ids = append(ids, u.ID)
			}
		}
	}
	var errs []engine.LineError
	refuse := func(ord Order, rule, valid, format string, args ...any) {
		errs = append(errs, p.lines[ord.Line].Errorf(rule, valid, format, args...))
	}
	for _, ord := range o.List {
		var units []string
		switch ord.Verb {
		case "move", "ferry":
			units = []string{ord.ID}
		case "attack":
			units = ord.Args
		default:
			continue
		}
		for _, id := range units {
			if d, ok := landing[id]; ok {
				port := portOfNode(p.s.ship(d.ID).Loc)
				refuse(ord, "12.7", movableUnits(p.scr, p.side, ids...), "%s goes from the quays into %s with the new landing of %s (line %d): units landing this turn neither move nor attack before the next turn", id, port.Name, d.ID, d.Line)
				break
			}
			if g, ok := p.given[id]; ok && g.Verb == "airlift" && ord.Verb == "attack" {
				refuse(ord, "13.4", movableUnits(p.scr, p.side, ids...), "%s is flown in to %s by line %d: units flown in neither move nor attack in the turn they arrive", id, g.Args[0], g.Line)
				break
			}
		}
	}
	return errs
}
