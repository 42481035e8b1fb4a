package norge

import (
	"fmt"
	"sort"
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
	owes := false
	for _, x := range PhaseOf(s).Owes {
		owes = owes || x == side
	}
	if side != German && side != Allied {
		return o, []engine.LineError{{Msg: fmt.Sprintf("unknown side %q", side), Valid: "german or allied", Rule: "1.1"}}
	}
	p := newParser(s, side)
	for _, l := range engine.OrderLines(text) {
		if !owes {
			errs = append(errs, l.Errorf("7.1", "no orders", "%s owes no orders in %s", side, PhaseOf(s).ID))
			continue
		}
		verb := strings.ToLower(l.Fields[0])
		verbs := Verbs.Names(phaseKind(s), "", 0)
		if !containsStr(verbs, verb) {
			errs = append(errs, l.Errorf("7.1", engine.Suggest(l.Fields[0], verbs), "%q is not an order of %s", l.Fields[0], PhaseOf(s).ID))
			continue
		}
		p.cur = l
		p.lines[l.N] = l
		ord, pr := p.parse(verb, l.Fields[1:])
		if pr != nil {
			errs = append(errs, l.Errorf(pr.rule, pr.valid, "%s", pr.msg))
			continue
		}
		ord.Line = l.N
		o.List = append(o.List, ord)
		for _, id := range unitsGiven(ord) {
			if _, ok := p.given[id]; !ok {
				p.given[id] = ord
			}
		}
	}
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

func (p *parser) parse(verb string, args []string) (Order, *problem) {
	o := Order{Verb: verb}
	need := func(n int, usage string) *problem {
		if len(args) < n {
			return fail(verbRule(verb), usage, "%s needs more words", verb)
		}
		return nil
	}
	s, side := p.s, p.side
	switch verb {
	case "air":
		if pr := need(2, "air BASE MAP"); pr != nil {
			return o, pr
		}
		if len(args) != 2 {
			return o, fail("9.3", "air BASE MAP", "air takes a base and a map")
		}
		base, m, pr := checkAir(s, side, args[0], args[1])
		if pr != nil {
			return o, pr
		}
		if pr := p.once("air "+base, "9.1", base); pr != nil {
			return o, pr
		}
		o.ID, o.Args = base, []string{m}
	case "intercept":
		if len(args) != 1 || (!strings.EqualFold(args[0], "on") && !strings.EqualFold(args[0], "off")) {
			return o, fail("10.9", "intercept on | intercept off", "intercept takes on or off")
		}
		o.Args = []string{strings.ToLower(args[0])}
	case "move":
		if pr := need(2, "move UNIT HEX [HEX ...]"); pr != nil {
			return o, pr
		}
		if s.Step == StepNavalGerman || s.Step == StepNavalAllied {
			sh, pr := findShip(s, side, args[0])
			if pr != nil {
				return o, pr
			}
			if pr := p.once(sh.ID, "10.1", sh.ID); pr != nil {
				return o, pr
			}
			if p.used["load "+sh.ID] {
				return o, fail("11.3", "load now and sail next turn", "%s is loaded this turn and sails next turn", sh.ID)
			}
			path, off, pr := planNaval(p.scr, sh, args[1:])
			if pr != nil {
				return o, pr
			}
			o.ID, o.Args = sh.ID, path
			if off {
				o.Args = append(o.Args, "off")
			}
			return o, nil
		}
		u, pr := findUnit(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		if pr := p.givenFirst(u); pr != nil {
			return o, pr
		}
		if pr := p.once(u.ID, "14.3", u.ID); pr != nil {
			return o, pr
		}
		su := p.scr.unit(u.ID)
		if pr := aboardLanding(p.scr, su); pr != nil {
			return o, pr
		}
		path, pr := planLand(p.scr, su, args[1:])
		if pr != nil {
			return o, pr
		}
		su.Loc = path[len(path)-1]
		o.ID, o.Args = u.ID, path
	case "load":
		if pr := need(2, "load CONVOY UNIT [UNIT ...]"); pr != nil {
			return o, pr
		}
		sh, pr := findShip(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		if p.used[sh.ID] {
			return o, fail("11.3", "load now and sail next turn", "%s has a move order; a convoy loaded this turn sails next turn", sh.ID)
		}
		if pr := p.once("load "+sh.ID, "11.1", sh.ID); pr != nil {
			return o, pr
		}
		if pr := canLoad(s, sh); pr != nil {
			return o, pr
		}
		o.ID = sh.ID
		total := 0
		for _, a := range args[1:] {
			u, pr := findUnit(s, side, a)
			if pr != nil {
				return o, pr
			}
			if u.Loc != LocReserve {
				return o, fail("11.1", "units in reserve off-map", "%s is not in reserve (it is at %s)", u.ID, u.Loc)
			}
			if unitInfo(u.ID).Avail > s.Turn+1 {
				return o, fail("3.3", "units available next turn", "%s arrives on turn %d", u.ID, unitInfo(u.ID).Avail)
			}
			if pr := p.once("unit "+u.ID, "11.1", u.ID); pr != nil {
				return o, pr
			}
			total += thirds(u.ID)
			o.Args = append(o.Args, u.ID)
		}
		if total > 9 {
			return o, fail("11.1", "at most 3 regiment equivalents (a brigade is 2, a battalion 1/3)", "%d battalions' worth is more than 3 regiment equivalents", total)
		}
	case "merge":
		if len(args) != 2 {
			return o, fail("11.2", "merge CONVOY CONVOY", "merge takes two convoys")
		}
		a, pr := findShip(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		b, pr := findShip(s, side, args[1])
		if pr != nil {
			return o, pr
		}
		for _, c := range []*Ship{a, b} {
			if c.Kind != "convoy" || !c.Reduced || c.Loc != "" || len(c.Cargo) > 0 {
				return o, fail("11.2", "two empty reduced convoys off the board", "%s is not an empty reduced convoy off the board", c.ID)
			}
			if pr := p.once(c.ID, "11.2", c.ID); pr != nil {
				return o, pr
			}
		}
		if a == b {
			return o, fail("11.2", "two different convoys", "a convoy cannot merge with itself")
		}
		o.ID, o.Args = a.ID, []string{b.ID}
	case "disembark":
		if len(args) != 1 {
			return o, fail("12.1", "disembark SHIP", "disembark takes one convoy or battleship")
		}
		sh, pr := findShip(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		if pr := p.once(sh.ID, "12.1", sh.ID); pr != nil {
			return o, pr
		}
		if s.rev() >= 2 && sh.Kind == "bs" && s.Turn == 1 && !sh.Tried && len(sh.Cargo) > 0 {
			return o, fail("12.2", "no disembark order for the battleships on turn 1", "%s makes its turn-1 landing by itself at the start of this phase", sh.ID)
		}
		if _, pr := landingPort(s, sh); pr != nil {
			return o, pr
		}
		o.ID = sh.ID
	case "embark":
		if pr := need(2, "embark CONVOY UNIT [UNIT ...]"); pr != nil {
			return o, pr
		}
		sh, pr := findShip(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		if pr := p.once(sh.ID, "12.8", sh.ID); pr != nil {
			return o, pr
		}
		port, pr := embarkPort(s, sh)
		if pr != nil {
			return o, pr
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
				return o, pr
			}
			if back && !containsStr(sh.Ashore, u.ID) {
				return o, fail("12.2", "the troops of "+sh.ID+" on the quays: "+ashoreNames(s, sh), "%s takes back only the troops of its own failed landing", sh.ID)
			}
			if u.Loc != port.Hex && u.Loc != port.Quay {
				return o, fail("12.8", "units on "+port.Hex+" or "+port.Quay, "%s is not in the port of %s", u.ID, port.Name)
			}
			if pr := p.once(u.ID, "12.8", u.ID); pr != nil {
				return o, pr
			}
			total += thirds(u.ID)
			o.Args = append(o.Args, u.ID)
		}
		if total > 9 {
			return o, fail("11.1", "at most 3 regiment equivalents", "the convoy would carry more than 3 regiment equivalents")
		}
	case "airlift":
		if len(args) != 2 {
			return o, fail("13.1", "airlift UNIT AIRFIELD", "airlift takes a unit and an airfield")
		}
		u, pr := findUnit(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		if pr := p.once("airlift", "13.1", "air transport"); pr != nil {
			return o, fail("13.1", "one airlift a turn", "only one air transport a turn")
		}
		p.used[u.ID] = true
		af, pr := checkAirlift(s, u, args[1])
		if pr != nil {
			return o, pr
		}
		o.ID, o.Args = u.ID, []string{af}
		p.scr.unit(u.ID).Loc = data.airfield(af).Hex
		if s.rev() >= 2 {
			// flown in: no attack this turn (13.4), refused here rather
			// than cancelled later
			p.scr.unit(u.ID).Landed = s.Turn
		}
	case "drop":
		if len(args) != 2 {
			return o, fail("13.5", "drop UNIT HEX", "drop takes a unit and a hex")
		}
		u, pr := findUnit(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		if pr := p.once(u.ID, "13.5", u.ID); pr != nil {
			return o, pr
		}
		h, pr := checkDrop(s, u, args[1])
		if pr != nil {
			return o, pr
		}
		o.ID, o.Args = u.ID, []string{h}
		p.scr.unit(u.ID).Loc = h
		if s.rev() >= 2 {
			p.scr.unit(u.ID).Dropped = s.Turn
		}
	case "ferry":
		if len(args) != 1 {
			return o, fail("14.6", "ferry UNIT", "ferry takes one unit")
		}
		u, pr := findUnit(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		if pr := p.givenFirst(u); pr != nil {
			return o, pr
		}
		if pr := p.once(u.ID, "14.6", u.ID); pr != nil {
			return o, pr
		}
		if pr := aboardLanding(p.scr, p.scr.unit(u.ID)); pr != nil {
			return o, pr
		}
		to, pr := checkFerry(p.scr, p.scr.unit(u.ID))
		if pr != nil {
			return o, pr
		}
		p.scr.unit(u.ID).Loc = to
		o.ID, o.Args = u.ID, []string{to}
	case "blow", "sabotage":
		if len(args) != 2 {
			return o, fail(verbRule(verb), verb+" HEX HEX", "%s takes the two hexes of a bridge", verb)
		}
		a, ok1 := canonHex(args[0])
		b, ok2 := canonHex(args[1])
		hs, isSide := data.Sides[sideKey(a, b)]
		if !ok1 || !ok2 || !isSide || hs.Kind != "river" || !hs.Bridge {
			return o, fail(verbRule(verb), bridgeList(s), "%s %s is not a bridge", args[0], args[1])
		}
		if isBlown(s, sideKey(a, b)) {
			return o, fail(verbRule(verb), "a standing bridge", "the bridge %s/%s is already blown", a, b)
		}
		if verb == "sabotage" {
			if side != Allied {
				return o, fail("15.2", "blow", "only the Allied player rolls to blow a bridge")
			}
			if s.SabotageTurn == s.Turn {
				return o, fail("15.2", "one roll a turn", "the Allies have already tried a bridge this turn")
			}
			if pr := p.once("sabotage", "15.2", "sabotage"); pr != nil {
				return o, fail("15.2", "one sabotage order a turn", "only one bridge a turn")
			}
		} else if pr := p.once("blow "+sideKey(a, b), "15.1", "that bridge"); pr != nil {
			return o, pr
		}
		if a > b {
			a, b = b, a
		}
		o.Args = []string{a, b}
	case "attack":
		if len(args) < 3 || !strings.EqualFold(args[1], "with") {
			return o, fail("16.1", "attack HEX with UNIT [UNIT ...]", "attack needs a hex, \"with\" and units")
		}
		h, ok := canonHex(args[0])
		if !ok {
			return o, fail("16.1", "a hex such as B:E3", "%q is not a land hex", args[0])
		}
		if pr := p.once("attack "+h, "16.1", "hex "+h); pr != nil {
			return o, fail("16.1", "one attack on each hex", "%s is already attacked in this phase", h)
		}
		o.ID = h
		units := args[2:]
		for i, a := range units {
			if !strings.EqualFold(a, "advance") {
				continue
			}
			if len(units) != i+2 {
				return o, fail("16.7", "attack HEX with UNIT ... advance UNIT|none", "advance names one unit or none")
			}
			adv := units[i+1]
			units = units[:i]
			if strings.EqualFold(adv, "none") {
				o.Adv = "none"
				break
			}
			u, pr := findUnit(s, side, adv)
			if pr != nil {
				return o, pr
			}
			o.Adv = u.ID
			break
		}
		if len(units) == 0 {
			return o, fail("16.1", "attack HEX with UNIT [UNIT ...]", "attack needs units")
		}
		for _, a := range units {
			u, pr := findUnit(s, side, a)
			if pr != nil {
				return o, pr
			}
			if pr := p.once("attacker "+u.ID, "16.1", u.ID); pr != nil {
				return o, fail("16.1", "each unit in one attack", "%s already attacks in this phase", u.ID)
			}
			if pr := aboardLanding(s, u); pr != nil {
				return o, pr
			}
			o.Args = append(o.Args, u.ID)
		}
	case "carry":
		if pr := need(2, "carry BATTLESHIP UNIT [UNIT ...]"); pr != nil {
			return o, pr
		}
		sh, pr := findShip(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		if sh.Kind != "bs" || !sh.Restricted || sh.Loc == "" {
			return o, fail("6.2", "one of the 5 battleships in the Norwegian ports", "%s is not a battleship of the set-up", sh.ID)
		}
		if pr := p.once(sh.ID, "6.2", sh.ID); pr != nil {
			return o, pr
		}
		n := 0
		for _, a := range args[1:] {
			u, pr := findUnit(s, side, a)
			if pr != nil {
				return o, pr
			}
			if in := unitInfo(u.ID); in.Type == "arm" || in.Type == "para" {
				return o, fail("6.2", "infantry, mountain, artillery or AT units", "no armor or para on the battleships")
			}
			if u.Loc != LocReserve && !strings.HasPrefix(u.Loc, shipPrefix) {
				return o, fail("6.2", "units in reserve", "%s is not in reserve (%s)", u.ID, u.Loc)
			}
			if pr := p.once("carry "+u.ID, "6.2", u.ID); pr != nil {
				return o, pr
			}
			n += thirds(u.ID)
			o.Args = append(o.Args, u.ID)
		}
		if n != 3 {
			return o, fail("6.2", "1 regiment or 3 battalions", "%s would carry %d battalions' worth", sh.ID, n)
		}
		o.ID = sh.ID
		for _, id := range o.Args {
			if from := strings.TrimPrefix(p.scr.unit(id).Loc, shipPrefix); from != sh.ID && from != p.scr.unit(id).Loc {
				p.emptied[from] = p.cur
			}
		}
		applyCarry(p.scr, sh.ID, o.Args)
	case "losses":
		if len(args) == 1 && strings.EqualFold(args[0], "none") {
			o.Args = []string{"none"}
			return o, nil
		}
		if len(args) == 0 {
			return o, fail("10.8", "losses UNIT|SHIP ... | losses none", "losses needs units or ships, or none")
		}
		for _, a := range args {
			if sh, pr := findShip(s, side, a); pr == nil {
				o.Args = append(o.Args, sh.ID)
				continue
			}
			u, pr := findUnit(s, side, a)
			if pr != nil {
				return o, fail("10.8", "your units and naval units", "no unit or naval unit of yours is called %q", a)
			}
			o.Args = append(o.Args, u.ID)
		}
	case "hold":
		if len(args) == 1 && strings.EqualFold(args[0], "none") {
			o.Args = []string{"none"}
			return o, nil
		}
		if len(args) == 0 {
			return o, fail("16.6", "hold UNIT [UNIT ...] | hold none", "hold needs units or none")
		}
		for _, a := range args {
			u, pr := findUnit(s, side, a)
			if pr != nil {
				return o, pr
			}
			o.Args = append(o.Args, u.ID)
		}
	case "sub":
		if len(args) != 2 {
			return o, fail("17.1", "sub SUB AREA", "sub takes a submarine and a sea area number")
		}
		sh, pr := findShip(s, side, args[0])
		if pr != nil {
			return o, pr
		}
		if pr := p.once(sh.ID, "17.1", sh.ID); pr != nil {
			return o, pr
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return o, fail("4.3", "a sea area number 1-7", "%q is not a sea area number", args[1])
		}
		if pr := checkSub(s, sh, n); pr != nil {
			return o, pr
		}
		o.ID, o.Args = sh.ID, []string{strconv.Itoa(n)}
	}
	return o, nil
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

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

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
	if p.s.rev() < 2 {
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
