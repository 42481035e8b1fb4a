package norge

import (
	"strconv"
	"strings"

	"skagerrak/engine"
)

// orderDriver binds Verbs to the parser's per-verb functions. A verb of
// another phase reads as a word that is no order of this one.
var orderDriver = engine.Driver[*parser]{
	Verbs: Verbs,
	Funcs: map[string]engine.VerbFunc[*parser]{
		"air":       parseVerb((*parser).air),
		"intercept": parseVerb((*parser).intercept),
		"move":      parseVerb((*parser).move),
		"load":      parseVerb((*parser).load),
		"merge":     parseVerb((*parser).merge),
		"disembark": parseVerb((*parser).disembark),
		"embark":    parseVerb((*parser).embark),
		"airlift":   parseVerb((*parser).airlift),
		"drop":      parseVerb((*parser).drop),
		"ferry":     parseVerb((*parser).ferry),
		"blow":      parseVerb((*parser).bridge),
		"sabotage":  parseVerb((*parser).bridge),
		"attack":    parseVerb((*parser).attack),
		"carry":     parseVerb((*parser).carry),
		"losses":    parseVerb((*parser).losses),
		"hold":      parseVerb((*parser).hold),
		"sub":       parseVerb((*parser).sub),
	},
	Open:    func(p *parser, v engine.Verb) bool { return v.Allows(phaseKind(p.s), "", 0) },
	Unknown: (*parser).notAnOrder,
	Closed:  func(p *parser, l engine.OrderLine, _ engine.Verb, valid string) { p.notAnOrder(l, valid) },
	Refuse:  func(p *parser, e engine.LineError) { p.errs = append(p.errs, e) },
}

// notAnOrder refuses a line whose first word is no order of the phase.
func (p *parser) notAnOrder(l engine.OrderLine, valid string) {
	p.errs = append(p.errs, l.Errorf("7.1", valid, "%q is not an order of %s", l.Fields[0], PhaseOf(p.s).ID))
}

// parseVerb binds a verb's function to the driver: the function reads
// the line's words into the order, or says the rule they break; the
// order is kept, or the line refused.
func parseVerb(f func(p *parser, o *Order, args []string) *problem) engine.VerbFunc[*parser] {
	return func(p *parser, l engine.OrderLine, args []string) {
		p.cur = l
		p.lines[l.N] = l
		ord := Order{Verb: strings.ToLower(l.Fields[0])}
		if pr := f(p, &ord, args); pr != nil {
			p.errs = append(p.errs, l.Errorf(pr.rule, pr.valid, "%s", pr.msg))
			return
		}
		ord.Line = l.N
		p.out.List = append(p.out.List, ord)
		for _, id := range unitsGiven(ord) {
			if _, ok := p.given[id]; !ok {
				p.given[id] = ord
			}
		}
	}
}

// air reads "air BASE MAP": an air unit flies to a Tactical Map (9.3).
func (p *parser) air(o *Order, args []string) *problem {
	s, side := p.s, p.side
	base, m, pr := checkAir(s, side, args[0], args[1])
	if pr != nil {
		return pr
	}
	if pr := p.once("air "+base, "9.1", base); pr != nil {
		return pr
	}
	o.ID, o.Args = base, []string{m}
	return nil
}

// intercept reads "intercept on|off" (10.9).
func (p *parser) intercept(o *Order, args []string) *problem {

	if !strings.EqualFold(args[0], "on") && !strings.EqualFold(args[0], "off") {
		return fail("10.9", "intercept on | intercept off", "intercept takes on or off")
	}
	o.Args = []string{strings.ToLower(args[0])}
	return nil
}

// move reads "move SHIP HEX ... [off]" in a naval step and "move UNIT
// HEX ..." on land (10.1, 14.3).
func (p *parser) move(o *Order, args []string) *problem {
	s, side := p.s, p.side
	if s.Step == StepNavalGerman || s.Step == StepNavalAllied {
		sh, pr := findShip(s, side, args[0])
		if pr != nil {
			return pr
		}
		if pr := p.once(sh.ID, "10.1", sh.ID); pr != nil {
			return pr
		}
		if p.used["load "+sh.ID] {
			return fail("11.3", "load now and sail next turn", "%s is loaded this turn and sails next turn", sh.ID)
		}
		path, off, pr := planNaval(p.scr, sh, args[1:])
		if pr != nil {
			return pr
		}
		o.ID, o.Args = sh.ID, path
		if off {
			o.Args = append(o.Args, "off")
		}
		return nil
	}
	u, pr := findUnit(s, side, args[0])
	if pr != nil {
		return pr
	}
	if pr := p.givenFirst(u); pr != nil {
		return pr
	}
	if pr := p.once(u.ID, "14.3", u.ID); pr != nil {
		return pr
	}
	su := p.scr.unit(u.ID)
	if pr := aboardLanding(p.scr, su); pr != nil {
		return pr
	}
	path, pr := planLand(p.scr, su, args[1:])
	if pr != nil {
		return pr
	}
	su.Loc = path[len(path)-1]
	o.ID, o.Args = u.ID, path
	return nil
}

// load reads "load CONVOY UNIT ...": reserves loaded to sail next turn
// (11.1).
func (p *parser) load(o *Order, args []string) *problem {
	s, side := p.s, p.side
	sh, pr := findShip(s, side, args[0])
	if pr != nil {
		return pr
	}
	if p.used[sh.ID] {
		return fail("11.3", "load now and sail next turn", "%s has a move order; a convoy loaded this turn sails next turn", sh.ID)
	}
	if pr := p.once("load "+sh.ID, "11.1", sh.ID); pr != nil {
		return pr
	}
	if pr := canLoad(s, sh); pr != nil {
		return pr
	}
	o.ID = sh.ID
	total := 0
	for _, a := range args[1:] {
		u, pr := findUnit(s, side, a)
		if pr != nil {
			return pr
		}
		if u.Loc != LocReserve {
			return fail("11.1", "units in reserve off-map", "%s is not in reserve (it is at %s)", u.ID, u.Loc)
		}
		if unitInfo(u.ID).Avail > s.Turn+1 {
			return fail("3.3", "units available next turn", "%s arrives on turn %d", u.ID, unitInfo(u.ID).Avail)
		}
		if pr := p.once("unit "+u.ID, "11.1", u.ID); pr != nil {
			return pr
		}
		total += thirds(u.ID)
		o.Args = append(o.Args, u.ID)
	}
	if total > 9 {
		return fail("11.1", "at most 3 regiment equivalents (a brigade is 2, a battalion 1/3)", "%d battalions' worth is more than 3 regiment equivalents", total)
	}
	return nil
}

// merge reads "merge CONVOY CONVOY" (11.2).
func (p *parser) merge(o *Order, args []string) *problem {
	s, side := p.s, p.side
	a, pr := findShip(s, side, args[0])
	if pr != nil {
		return pr
	}
	b, pr := findShip(s, side, args[1])
	if pr != nil {
		return pr
	}
	for _, c := range []*Ship{a, b} {
		if c.Kind != "convoy" || !c.Reduced || c.Loc != "" || len(c.Cargo) > 0 {
			return fail("11.2", "two empty reduced convoys off the board", "%s is not an empty reduced convoy off the board", c.ID)
		}
		if pr := p.once(c.ID, "11.2", c.ID); pr != nil {
			return pr
		}
	}
	if a == b {
		return fail("11.2", "two different convoys", "a convoy cannot merge with itself")
	}
	o.ID, o.Args = a.ID, []string{b.ID}
	return nil
}

// disembark reads "disembark SHIP" (12.1).
func (p *parser) disembark(o *Order, args []string) *problem {
	s, side := p.s, p.side
	sh, pr := findShip(s, side, args[0])
	if pr != nil {
		return pr
	}
	if pr := p.once(sh.ID, "12.1", sh.ID); pr != nil {
		return pr
	}
	if s.rev().Has(BattleshipOwnLanding) && sh.Kind == "bs" && s.Turn == 1 && !sh.Tried && len(sh.Cargo) > 0 {
		return fail("12.2", "no disembark order for the battleships on turn 1", "%s makes its turn-1 landing by itself at the start of this phase", sh.ID)
	}
	if _, pr := landingPort(s, sh); pr != nil {
		return pr
	}
	o.ID = sh.ID
	return nil
}

// embark reads "embark CONVOY UNIT ..." (12.8).
func (p *parser) embark(o *Order, args []string) *problem {
	s, side := p.s, p.side
	sh, pr := findShip(s, side, args[0])
	if pr != nil {
		return pr
	}
	if pr := p.once(sh.ID, "12.8", sh.ID); pr != nil {
		return pr
	}
	port, pr := embarkPort(s, sh)
	if pr != nil {
		return pr
	}
	o.ID = sh.ID
	total := 0
	for _, id := range sh.Cargo {
		total += thirds(id)
	}
	back := reembarking(s, sh)
	for _, a := range args[1:] {
		u, pr := findUnit(s, side, a)
		if pr != nil {
			return pr
		}
		if back && !containsStr(sh.Ashore, u.ID) {
			return fail("12.2", "the troops of "+sh.ID+" on the quays: "+ashoreNames(s, sh), "%s takes back only the troops of its own failed landing", sh.ID)
		}
		if u.Loc != port.Hex && u.Loc != port.Quay {
			return fail("12.8", "units on "+port.Hex+" or "+port.Quay, "%s is not in the port of %s", u.ID, port.Name)
		}
		if pr := p.once(u.ID, "12.8", u.ID); pr != nil {
			return pr
		}
		total += thirds(u.ID)
		o.Args = append(o.Args, u.ID)
	}
	if total > 9 {
		return fail("11.1", "at most 3 regiment equivalents", "the convoy would carry more than 3 regiment equivalents")
	}
	return nil
}

// airlift reads "airlift UNIT AIRFIELD" (13.1).
func (p *parser) airlift(o *Order, args []string) *problem {
	s, side := p.s, p.side
	u, pr := findUnit(s, side, args[0])
	if pr != nil {
		return pr
	}
	if pr := p.once("airlift", "13.1", "air transport"); pr != nil {
		return fail("13.1", "one airlift a turn", "only one air transport a turn")
	}
	p.used[u.ID] = true
	af, pr := checkAirlift(s, u, args[1])
	if pr != nil {
		return pr
	}
	o.ID, o.Args = u.ID, []string{af}
	p.scr.unit(u.ID).Loc = data.airfield(af).Hex
	if s.rev().Has(FlownInAttackRefused) {
		// flown in: no attack this turn (13.4), refused here rather
		// than cancelled later
		p.scr.unit(u.ID).Landed = s.Turn
	}
	return nil
}

// drop reads "drop UNIT HEX" (13.5).
func (p *parser) drop(o *Order, args []string) *problem {
	s, side := p.s, p.side
	u, pr := findUnit(s, side, args[0])
	if pr != nil {
		return pr
	}
	if pr := p.once(u.ID, "13.5", u.ID); pr != nil {
		return pr
	}
	h, pr := checkDrop(s, u, args[1])
	if pr != nil {
		return pr
	}
	o.ID, o.Args = u.ID, []string{h}
	p.scr.unit(u.ID).Loc = h
	if s.rev().Has(FlownInAttackRefused) {
		p.scr.unit(u.ID).Dropped = s.Turn
	}
	return nil
}

// ferry reads "ferry UNIT" (14.6).
func (p *parser) ferry(o *Order, args []string) *problem {
	s, side := p.s, p.side
	u, pr := findUnit(s, side, args[0])
	if pr != nil {
		return pr
	}
	if pr := p.givenFirst(u); pr != nil {
		return pr
	}
	if pr := p.once(u.ID, "14.6", u.ID); pr != nil {
		return pr
	}
	if pr := aboardLanding(p.scr, p.scr.unit(u.ID)); pr != nil {
		return pr
	}
	to, pr := checkFerry(p.scr, p.scr.unit(u.ID))
	if pr != nil {
		return pr
	}
	p.scr.unit(u.ID).Loc = to
	o.ID, o.Args = u.ID, []string{to}
	return nil
}

// bridge reads "blow HEX HEX" and "sabotage HEX HEX" (15.1, 15.2).
func (p *parser) bridge(o *Order, args []string) *problem {
	s, side := p.s, p.side
	a, ok1 := canonHex(args[0])
	b, ok2 := canonHex(args[1])
	hs, isSide := data.Sides[sideKey(a, b)]
	if !ok1 || !ok2 || !isSide || hs.Kind != "river" || !hs.Bridge {
		return fail(verbRule(o.Verb), bridgeList(s), "%s %s is not a bridge", args[0], args[1])
	}
	if isBlown(s, sideKey(a, b)) {
		return fail(verbRule(o.Verb), "a standing bridge", "the bridge %s/%s is already blown", a, b)
	}
	if o.Verb == "sabotage" {
		if side != Allied {
			return fail("15.2", "blow", "only the Allied player rolls to blow a bridge")
		}
		if s.SabotageTurn == s.Turn {
			return fail("15.2", "one roll a turn", "the Allies have already tried a bridge this turn")
		}
		if pr := p.once("sabotage", "15.2", "sabotage"); pr != nil {
			return fail("15.2", "one sabotage order a turn", "only one bridge a turn")
		}
	} else if pr := p.once("blow "+sideKey(a, b), "15.1", "that bridge"); pr != nil {
		return pr
	}
	if a > b {
		a, b = b, a
	}
	o.Args = []string{a, b}
	return nil
}

// attack reads "attack HEX with UNIT ... [advance UNIT|none]" (16.1,
// 16.7).
func (p *parser) attack(o *Order, args []string) *problem {
	s, side := p.s, p.side
	if !strings.EqualFold(args[1], "with") {
		return fail("16.1", "attack HEX with UNIT [UNIT ...]", "attack needs a hex, \"with\" and units")
	}
	h, ok := canonHex(args[0])
	if !ok {
		return fail("16.1", "a hex such as B:E3", "%q is not a land hex", args[0])
	}
	if pr := p.once("attack "+h, "16.1", "hex "+h); pr != nil {
		return fail("16.1", "one attack on each hex", "%s is already attacked in this phase", h)
	}
	o.ID = h
	units := args[2:]
	for i, a := range units {
		if !strings.EqualFold(a, "advance") {
			continue
		}
		if len(units) != i+2 {
			return fail("16.7", "attack HEX with UNIT ... advance UNIT|none", "advance names one unit or none")
		}
		adv := units[i+1]
		units = units[:i]
		if strings.EqualFold(adv, "none") {
			o.Adv = "none"
			break
		}
		u, pr := findUnit(s, side, adv)
		if pr != nil {
			return pr
		}
		o.Adv = u.ID
		break
	}
	if len(units) == 0 {
		return fail("16.1", "attack HEX with UNIT [UNIT ...]", "attack needs units")
	}
	for _, a := range units {
		u, pr := findUnit(s, side, a)
		if pr != nil {
			return pr
		}
		if pr := p.once("attacker "+u.ID, "16.1", u.ID); pr != nil {
			return fail("16.1", "each unit in one attack", "%s already attacks in this phase", u.ID)
		}
		if pr := aboardLanding(s, u); pr != nil {
			return pr
		}
		o.Args = append(o.Args, u.ID)
	}
	return nil
}

// carry reads "carry BATTLESHIP UNIT ..." in the set-up (6.2).
func (p *parser) carry(o *Order, args []string) *problem {
	s, side := p.s, p.side
	sh, pr := findShip(s, side, args[0])
	if pr != nil {
		return pr
	}
	if sh.Kind != "bs" || !sh.Restricted || sh.Loc == "" {
		return fail("6.2", "one of the 5 battleships in the Norwegian ports", "%s is not a battleship of the set-up", sh.ID)
	}
	if pr := p.once(sh.ID, "6.2", sh.ID); pr != nil {
		return pr
	}
	n := 0
	for _, a := range args[1:] {
		u, pr := findUnit(s, side, a)
		if pr != nil {
			return pr
		}
		if in := unitInfo(u.ID); in.Type == "arm" || in.Type == "para" {
			return fail("6.2", "infantry, mountain, artillery or AT units", "no armor or para on the battleships")
		}
		if u.Loc != LocReserve && !strings.HasPrefix(u.Loc, shipPrefix) {
			return fail("6.2", "units in reserve", "%s is not in reserve (%s)", u.ID, u.Loc)
		}
		if pr := p.once("carry "+u.ID, "6.2", u.ID); pr != nil {
			return pr
		}
		n += thirds(u.ID)
		o.Args = append(o.Args, u.ID)
	}
	if n != 3 {
		return fail("6.2", "1 regiment or 3 battalions", "%s would carry %d battalions' worth", sh.ID, n)
	}
	o.ID = sh.ID
	for _, id := range o.Args {
		if from := strings.TrimPrefix(p.scr.unit(id).Loc, shipPrefix); from != sh.ID && from != p.scr.unit(id).Loc {
			p.emptied[from] = p.cur
		}
	}
	applyCarry(p.scr, sh.ID, o.Args)
	return nil
}

// losses reads "losses UNIT|SHIP ... | losses none" (10.8).
func (p *parser) losses(o *Order, args []string) *problem {
	s, side := p.s, p.side
	if len(args) == 1 && strings.EqualFold(args[0], "none") {
		o.Args = []string{"none"}
		return nil
	}
	for _, a := range args {
		if sh, pr := findShip(s, side, a); pr == nil {
			o.Args = append(o.Args, sh.ID)
			continue
		}
		u, pr := findUnit(s, side, a)
		if pr != nil {
			return fail("10.8", "your units and naval units", "no unit or naval unit of yours is called %q", a)
		}
		o.Args = append(o.Args, u.ID)
	}
	return nil
}

// hold reads "hold UNIT ... | hold none" (16.6).
func (p *parser) hold(o *Order, args []string) *problem {
	s, side := p.s, p.side
	if len(args) == 1 && strings.EqualFold(args[0], "none") {
		o.Args = []string{"none"}
		return nil
	}
	for _, a := range args {
		u, pr := findUnit(s, side, a)
		if pr != nil {
			return pr
		}
		o.Args = append(o.Args, u.ID)
	}
	return nil
}

// sub reads "sub SUB AREA" (17.1).
func (p *parser) sub(o *Order, args []string) *problem {
	s, side := p.s, p.side
	sh, pr := findShip(s, side, args[0])
	if pr != nil {
		return pr
	}
	if pr := p.once(sh.ID, "17.1", sh.ID); pr != nil {
		return pr
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		return fail("4.3", "a sea area number 1-7", "%q is not a sea area number", args[1])
	}
	if pr := checkSub(s, sh, n); pr != nil {
		return pr
	}
	o.ID, o.Args = sh.ID, []string{strconv.Itoa(n)}
	return nil
}
