package norway1940

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"skagerrak/engine"
)

// turnCtx carries one player-turn's bookkeeping. With dice == nil it is a
// dry run: ParseOrders uses it to check each order against the state as the
// earlier orders of the same file leave it, without rolling.
type turnCtx struct {
	s    *State
	x    engine.Side
	dice engine.Dice

	moved      map[string]bool // land units moved
	fleetMoved map[string]bool
	railUsed   int
	subsUsed   int
	attackAt   map[string]*Order
	mustAttack map[string]bool
	support    map[string]int // area -> bomber markers supporting
	supportStr map[string]int // area -> bomber strength supporting
	bombAt     map[string]int // area -> bomber markers (8.9.4.1.1/8.9.4.1.2)
	bombFleet  map[string]int // fleet -> bomber points (8.9.4.2)
	subBonus   map[string]bool
	attacked   map[string]bool   // fleets attacked this phase (9.14.5.2)
	landing    map[string]string // unit -> fleet it landed from (9.16.1.2)
	entered    map[string]bool   // areas units of x moved into
	turnedBack map[int]bool      // order lines turned back by fighters
	escorts    map[string]int
	// line is the order line being carried out (0 outside exec); lineOf
	// remembers the last line that put a fleet in its box ("fleet:ID"),
	// units in an area ("area:NAME") and the first land support over an
	// area ("support:NAME"), so that an error only the whole file breaks
	// names that line; fleetFrom is where a fleet came from this turn.
	line      int
	lineOf    map[string]int
	fleetFrom map[string]string
}

func newTurnCtx(s *State, x engine.Side, dice engine.Dice) *turnCtx {
	return &turnCtx{s: s, x: x, dice: dice, moved: map[string]bool{}, fleetMoved: map[string]bool{}, attackAt: map[string]*Order{},
		mustAttack: map[string]bool{}, support: map[string]int{}, supportStr: map[string]int{}, bombAt: map[string]int{}, bombFleet: map[string]int{},
		subBonus: map[string]bool{}, attacked: map[string]bool{}, landing: map[string]string{}, entered: map[string]bool{},
		turnedBack: map[int]bool{}, escorts: map[string]int{}, lineOf: map[string]int{}, fleetFrom: map[string]string{}}
}

// enter notes that units of the phasing side entered an area, by the
// order line being carried out.
func (c *turnCtx) enter(area string) {
	c.entered[area] = true
	if c.line > 0 {
		c.lineOf["area:"+area] = c.line
	}
}

// placed notes that the order line being carried out put fleet id in its
// box, coming from from.
func (c *turnCtx) placed(id, from string) {
	c.lineOf["fleet:"+id] = c.line
	c.fleetFrom[id] = from
}

func (c *turnCtx) dry() bool { return c.dice == nil }

// snapshot copies the context and its state, for the scripted player to
// try an order and take it back.
func (c *turnCtx) snapshot() *turnCtx {
	n := *c
	n.s = c.s.clone()
	cp := func(m map[string]bool) map[string]bool {
		out := map[string]bool{}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	cpi := func(m map[string]int) map[string]int {
		out := map[string]int{}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	n.moved, n.fleetMoved, n.mustAttack, n.subBonus, n.attacked, n.entered = cp(c.moved), cp(c.fleetMoved), cp(c.mustAttack), cp(c.subBonus), cp(c.attacked), cp(c.entered)
	n.support, n.supportStr, n.bombAt, n.bombFleet, n.escorts = cpi(c.support), cpi(c.supportStr), cpi(c.bombAt), cpi(c.bombFleet), cpi(c.escorts)
	n.attackAt = map[string]*Order{}
	for k, v := range c.attackAt {
		n.attackAt[k] = v
	}
	n.landing = map[string]string{}
	for k, v := range c.landing {
		n.landing[k] = v
	}
	n.turnedBack = map[int]bool{}
	for k, v := range c.turnedBack {
		n.turnedBack[k] = v
	}
	n.lineOf = map[string]int{}
	for k, v := range c.lineOf {
		n.lineOf[k] = v
	}
	n.fleetFrom = map[string]string{}
	for k, v := range c.fleetFrom {
		n.fleetFrom[k] = v
	}
	return &n
}

func (c *turnCtx) roll(sides int, why string) int { return c.dice.Roll(sides, why) }

// stage orders the kinds of orders as the sequence of play does (5.2).
func stage(o Order) int {
	switch o.Verb {
	case "fleet":
		if o.Kind == "attack" {
			return 2
		}
		return 0
	case "sub":
		return 1
	case "air":
		switch o.Kind {
		case "para":
			return 3
		case "recon":
			return 4
		}
		return 5
	case "move", "rail":
		return 6
	case "attack", "losses":
		return 7 // the losses order counts in this player-turn's combats
	}
	return 8
}

var fleetIDRe = regexp.MustCompile(`^[GA][0-9]{1,3}$`)

// cargoCost is the transport points a unit needs at sea (9.10 example: a
// regiment and half a supply unit fill 4 points; reconstructed: regiment or
// brigade 3, battalion or company 1, supply unit 2, i.e. 1 per half).
func cargoCost(u *Unit) int {
	if u.Type == "supply" {
		return u.Steps
	}
	if u.Size == "reg" || u.Size == "bde" {
		return 3
	}
	return 1
}

// capacity is what a fleet can carry: its transport points, and before
// turn 6 (the 11th) its combat points too (9.13.7).
func (c *turnCtx) capacity(combat, transport int) int {
	if c.s.Turn < 6 {
		return combat + transport
	}
	return transport
}

func (c *turnCtx) cargoLoad(ids []string) int {
	n := 0
	for _, id := range ids {
		if u := c.s.unit(id); u != nil {
			n += cargoCost(u)
		}
	}
	return n
}

func (c *turnCtx) decoysAvail(nation string) *Count {
	ss := c.s.side(c.x)
	for i := range ss.Decoys {
		if ss.Decoys[i].Nation == nation {
			return &ss.Decoys[i]
		}
	}
	return nil
}

func returnDecoys(s *State, f *Fleet) {
	if f.Decoys == 0 {
		return
	}
	ss := s.side(f.Side)
	nation := f.Nation
	for i := range ss.Returned {
		if ss.Returned[i].Nation == nation {
			ss.Returned[i].N += f.Decoys
		}
	}
	f.Decoys = 0
}

// portAllowed says whether side x may land or dock at a port (9.16, 10.4,
// 16.1).
func (c *turnCtx) portAllowed(a *AreaInfo) bool {
	if a.Port == "" {
		return false
	}
	if c.s.controller(a.Name) == c.x {
		return true
	}
	if c.minorClosed(a) {
		return false
	}
	if c.s.has(OptAmphibAnywhere) || a.Port == "minor" {
		return true
	}
	if c.x == German {
		return a.Port == "grey"
	}
	return a.Port == "red"
}

// minorClosed: from revision 2, a secondary (anchor) port takes no
// landing on the invasion turn (9.16: "only ... against ports marked on
// the map"; 9.16.1: anchor ports "in any turn following the invasion
// turn"), with option 16.1 too (16.1.2: otherwise the regular rules).
func (c *turnCtx) minorClosed(a *AreaInfo) bool {
	return a.Port == "minor" && c.s.rev().Has(InvasionMarkedPortsOnly) && c.s.Turn == 4 && c.s.controller(a.Name) != c.x
}

// landingPorts are the ports of a sea area side x may enter this turn.
func (c *turnCtx) landingPorts(sea string) []string {
	var out []string
	for _, p := range data.PortsOf(sea) {
		if c.portAllowed(data.Area(p)) {
			out = append(out, p)
		}
	}
	return out
}

func (c *turnCtx) britishHalf() (atSea, total int) {
	for _, f := range c.s.Fleets {
		if f.Side == Allied && f.Nation == "british" {
			atSea += f.Combat
			total += f.Combat
		}
	}
	for _, p := range c.s.Pools {
		if p.Side == Allied && p.Nation == "british" {
			total += p.Combat
		}
	}
	return
}

// checkDest validates a fleet destination from where it is (9.13, 10.4.1).
func (c *turnCtx) checkDest(from, to string, f *Fleet) (string, string, string) {
	if to == UK && c.x == German {
		return "4.1", "a naval box", "the German player can never invade the UK"
	}
	if to == Germany && c.x == Allied {
		return "9.13", "a naval box", "Allied fleets cannot enter German ports"
	}
	if isBox(to) {
		return checkDestBox(from, to)
	}
	fromSea := seaOf(from)
	if to == Germany || to == UK {
		if !isBox(from) {
			return "9.13", "a naval box", "a fleet in port sails to a naval box first"
		}
		if to == Germany && fromSea != "South" {
			return "9.13", "Germany from a South box", "Germany is reached from the South sea area"
		}
		return "", "", ""
	}
	a, ok := data.AreaByName(to)
	if !ok || a.Port == "" {
		return "9.13", "a naval box or a port", fmt.Sprintf("%s is not a port", to)
	}
	if from == to && f != nil && f.Failed {
		return "", "", "" // a failed landing tries again (9.16.1.2)
	}
	if !isBox(from) || fromSea != a.Sea {
		return "10.4.1", "a port of the sea area the fleet is in at the start of its move", fmt.Sprintf("a fleet must spend a turn in a box of the %s sea area before entering %s", a.Sea, to)
	}
	if c.s.controller(a.Name) != c.x {
		return c.checkLandingPort(to, a, f)
	}
	return "", "", ""
}

// checkDestBox validates a move into naval box to: from a box of the same
// or an adjacent sea area (9.13), from a port into a box of its own sea
// area (10.4.1).
func checkDestBox(from, to string) (string, string, string) {
	toSea := seaOf(to)
	if isBox(from) {
		if !seaAdjacent(seaOf(from), toSea) {
			return "9.13", "a box of the same or an adjacent sea area", fmt.Sprintf("%s is not in the same or an adjacent sea area as %s", to, from)
		}
		return "", "", ""
	}
	for _, h := range homeSeas(from) {
		if h == toSea {
			return "", "", ""
		}
	}
	return "10.4.1", "a box of the port's sea area: " + strings.Join(homeSeas(from), ", "), fmt.Sprintf("from %s a fleet sails into a box of the port's sea area", from)
}

// checkLandingPort validates a fleet entering port to (area a) its side does
// not hold: a landing port of its side (9.16, 9.16.1, 10.4), not before the
// invasion (15.2, 18), and only with land units aboard (9.15.8).
func (c *turnCtx) checkLandingPort(to string, a *AreaInfo, f *Fleet) (string, string, string) {
	if !c.portAllowed(a) {
		if c.minorClosed(a) {
			return "9.16.1", "a port marked for your landings: " + strings.Join(c.landingPorts(a.Sea), ", "),
				fmt.Sprintf("%s is a secondary (anchor) port: landings there only in the turns following the invasion turn", to)
		}
		if c.x == German {
			return "9.16", "a grey German target port or a minor port", fmt.Sprintf("%s is not a German landing port", to)
		}
		return "10.4", "a red Allied landing port or a minor port", fmt.Sprintf("%s is not an Allied landing port", to)
	}
	if c.x == German && c.s.Turn < 4 {
		return "15.2", "turn 4 or later", "the German landings are made on turn 4, the invasion turn"
	}
	if c.x == Allied && !c.s.Invaded {
		return "18", "after the invasion", "Norway is neutral until the German invasion"
	}
	if c.x == Allied && c.s.controller(a.Name) == German && c.s.Turn < 6 {
		return "18", "turn 6 or later", "the Allied player cannot attack German-held ports until the April 11th turn"
	}
	if f != nil && len(f.Cargo) == 0 {
		return "9.15.8", "a fleet carrying land units", "only amphibious landings enter an enemy port box"
	}
	return "", "", ""
}

// check validates one order against the current state of the turn.
func (c *turnCtx) check(o Order) (rule, valid, msg string) {
	switch o.Verb {
	case "fleet":
		if check, ok := fleetChecks[o.Kind]; ok {
			return check(c, o)
		}
	case "sub":
		return c.checkSub(o)
	case "air":
		return c.checkAir(o)
	case "move", "rail":
		return c.checkMove(o)
	case "attack":
		return c.checkAttack(o)
	case "build":
		return c.checkBuild(o)
	case "keep":
		if c.airLeft("fighter") < o.N {
			return "8.9.3.1", fmt.Sprintf("at most %d", c.airLeft("fighter")), "not that many fighter markers left this turn"
		}
		return "", "", ""
	case "evade", "react", "continue", "ask":
		return "", "", ""
	case "losses":
		return c.checkLosses(o)
	}
	return "5.2", "fleet, sub, air, move, rail, attack, build, repair, keep, evade, react, continue, ask", "unknown order"
}

// fleetChecks validates each kind of fleet order.
var fleetChecks = map[string]func(*turnCtx, Order) (string, string, string){
	"form":   (*turnCtx).checkFleetForm,
	"move":   (*turnCtx).checkFleetMove,
	"split":  (*turnCtx).checkFleetSplit,
	"merge":  (*turnCtx).checkFleetMerge,
	"attack": (*turnCtx).checkFleetAttack,
}

// formPool is the pool in the order's port a new fleet is formed from: the
// first with enough points, or one with decoys of its nation when the order
// asks for decoys (9.6, 9.8); nil if none has enough.
func (c *turnCtx) formPool(o Order) *Pool {
	var p *Pool
	for _, q := range c.s.Pools {
		if q.Side == c.x && q.Port == o.From && q.Combat >= o.Combat && q.Transport >= o.Trans && q.Carriers >= o.Carriers {
			if p == nil || (o.Decoys > 0 && c.decoysAvail(q.Nation) != nil && c.decoysAvail(p.Nation) == nil) {
				p = q
			}
		}
	}
	return p
}

// checkFleetForm validates forming a new fleet from a port's naval points
// (9.6, 9.13.2, 9.13.4) and where it sails (10.4.1, 9.15.9).
func (c *turnCtx) checkFleetForm(o Order) (string, string, string) {
	s, x := c.s, c.x
	if !fleetIDRe.MatchString(o.ID) || (x == German) != strings.HasPrefix(o.ID, "G") {
		return "9.6", map[engine.Side]string{German: "G followed by a number", Allied: "A followed by a number"}[x], fmt.Sprintf("%s is not a %s fleet number", o.ID, x)
	}
	if s.fleet(o.ID) != nil {
		return "9.6", "an unused fleet number", fmt.Sprintf("fleet %s already exists", o.ID)
	}
	p := c.formPool(o)
	if p == nil {
		return "9.13.2", "naval points in that port", fmt.Sprintf("not enough %s naval points in %s", x, o.From)
	}
	if p.Nation == "norwegian" && s.Turn <= 4 {
		return "18", "turn 5 or later", "Norwegian naval points are used normally only after the invasion turn"
	}
	if p.Port != Germany && p.Port != UK && s.controller(p.Port) != x {
		return "9.13.2", "a friendly port", fmt.Sprintf("%s is not a friendly port", p.Port)
	}
	if o.Combat > 12 || o.Trans > 8 {
		return "9.13.4", "at most 12 combat and 8 transport points", "a fleet may hold no more than 12 combat and 8 transport points"
	}
	if o.Combat+o.Trans+o.Decoys+o.Carriers == 0 {
		return "9.6", "combat, transport or decoys", "an empty fleet"
	}
	if rule, valid, msg := c.checkFormContents(o, p); rule != "" {
		return rule, valid, msg
	}
	if o.To == o.From && o.From != Germany && o.From != UK {
		if len(o.Units) > 0 {
			return "9.15.9", "a fleet without cargo", "a fleet marker formed in its port box carries nothing"
		}
		return "", "", "" // 9.15.9: a fleet marker in the port box
	}
	if !isBox(o.To) {
		return "10.4.1", "a naval box", "a new fleet sails into a naval box first"
	}
	return c.checkDest(o.From, o.To, nil)
}

// checkFormContents validates what a new fleet takes from pool p: its
// decoys (9.8), its cargo (10.4.1, 8.11, 9.10) and the British half-fleet
// limit of the first turns (18).
func (c *turnCtx) checkFormContents(o Order, p *Pool) (string, string, string) {
	s, x := c.s, c.x
	if o.Decoys > 0 {
		d := c.decoysAvail(p.Nation)
		if d == nil || d.N < o.Decoys {
			return "9.8", "no more decoys than available", "not enough decoys available"
		}
	}
	for _, id := range o.Units {
		u := s.unit(id)
		if u == nil || u.Side != x || u.Dead || u.Loc != o.From || u.Fleet != "" || u.Entry > s.Turn || c.moved[id] {
			return "10.4.1", "units and supplies in the port", fmt.Sprintf("%s is not available in %s", id, o.From)
		}
		if u.Type == "para" {
			return "8.11", "other units", "parachute units arrive only by air"
		}
	}
	if c.cargoLoad(o.Units) > c.capacity(o.Combat, o.Trans) {
		return "9.10", "regiment 3, battalion 1, supply unit 2 transport points", fmt.Sprintf("the cargo needs %d transport points, the fleet has %d", c.cargoLoad(o.Units), c.capacity(o.Combat, o.Trans))
	}
	if p.Nation == "british" && s.Turn <= 4 {
		sea, total := c.britishHalf()
		if sea+o.Combat > total/2 {
			return "18", fmt.Sprintf("at most %d British combat points at sea", total/2), "in the first 4 turns the Franco-British use only half their naval combat points"
		}
	}
	return "", "", ""
}

// checkFleetFree finds the player's fleet an order moves or splits and
// checks it is free to leave (9.13, 15.2.2, and 9.13.1 for a split).
func (c *turnCtx) checkFleetFree(o Order) (*Fleet, string, string, string) {
	s := c.s
	f := s.fleet(o.ID)
	if f == nil || f.Side != c.x {
		return nil, "9.13", "one of your fleets", fmt.Sprintf("no fleet %s of yours", o.ID)
	}
	if f.Stuck >= s.Turn {
		return nil, "15.2.2", "next turn", fmt.Sprintf("%s is held in the port box by the coastal batteries", f.ID)
	}
	if o.Kind == "split" && f.Goal != "" && s.Turn <= 4 {
		return nil, "9.13.1", "after the invasion turn", fmt.Sprintf("%s is an invasion task force, fixed until the invasion is under way", f.ID)
	}
	return f, "", "", ""
}

// checkFleetMove validates a fleet's move: once a turn, to a destination
// it can reach (9.13).
func (c *turnCtx) checkFleetMove(o Order) (string, string, string) {
	f, rule, valid, msg := c.checkFleetFree(o)
	if f == nil {
		return rule, valid, msg
	}
	if c.fleetMoved[f.ID] {
		return "9.13", "one move per fleet", fmt.Sprintf("%s has already moved", f.ID)
	}
	return c.checkDest(f.Where, o.To, f)
}

// checkFleetSplit validates splitting a fleet in two (9.9, 9.10) and where
// the new one sails.
func (c *turnCtx) checkFleetSplit(o Order) (string, string, string) {
	f, rule, valid, msg := c.checkFleetFree(o)
	if f == nil {
		return rule, valid, msg
	}
	x := c.x
	if !fleetIDRe.MatchString(o.New) || (x == German) != strings.HasPrefix(o.New, "G") || c.s.fleet(o.New) != nil {
		return "9.9", "an unused fleet number", fmt.Sprintf("%s is not a free fleet number", o.New)
	}
	if o.Combat > f.Combat || o.Trans > f.Transport || o.Decoys > f.Decoys || o.Carriers > f.Carriers {
		return "9.9", fmt.Sprintf("at most combat %d transport %d decoys %d carriers %d", f.Combat, f.Transport, f.Decoys, f.Carriers), "the split takes more than the fleet has"
	}
	for _, id := range o.Units {
		if !contains(f.Cargo, id) {
			return "9.9", "units the fleet carries", fmt.Sprintf("%s is not aboard %s", id, f.ID)
		}
	}
	var rest []string
	for _, id := range f.Cargo {
		if !contains(o.Units, id) {
			rest = append(rest, id)
		}
	}
	if c.cargoLoad(o.Units) > c.capacity(o.Combat, o.Trans) || c.cargoLoad(rest) > c.capacity(f.Combat-o.Combat, f.Transport-o.Trans) {
		return "9.10", "cargo within each fleet's transport points", "the split leaves a fleet with more cargo than it can carry"
	}
	if o.Combat+o.Trans+o.Decoys+o.Carriers == 0 {
		return "9.9", "combat, transport or decoys", "an empty fleet"
	}
	return c.checkDest(f.Where, o.To, f)
}

// checkFleetMerge validates merging two fleets in one box (9.9, 9.4,
// 9.13.1, 9.13.4).
func (c *turnCtx) checkFleetMerge(o Order) (string, string, string) {
	s, x := c.s, c.x
	f, g := s.fleet(o.ID), s.fleet(o.Target)
	if f == nil || g == nil || f.Side != x || g.Side != x || f == g {
		return "9.9", "two of your fleets", "merge needs two of your fleets"
	}
	if f.Where != g.Where {
		return "9.9", "fleets in the same box", fmt.Sprintf("%s is in %s, %s in %s", f.ID, f.Where, g.ID, g.Where)
	}
	if f.Nation != g.Nation {
		return "9.4", "fleets of one nation", "Norwegian naval points are used only by Norwegians"
	}
	if (f.Goal != "" || g.Goal != "") && s.Turn <= 4 {
		return "9.13.1", "after the invasion turn", "the invasion task forces are fixed until the invasion is under way"
	}
	if f.Combat+g.Combat > 12 || f.Transport+g.Transport > 8 {
		return "9.13.4", "at most 12 combat and 8 transport points", "the merged fleet would be too large"
	}
	return "", "", ""
}

// checkFleetAttack validates a naval attack on a detected enemy fleet in
// the same box (9.14, 9.3, 9.10).
func (c *turnCtx) checkFleetAttack(o Order) (string, string, string) {
	s, x := c.s, c.x
	f, e := s.fleet(o.ID), s.fleet(o.Target)
	if f == nil || f.Side != x {
		return "9.14", "one of your fleets", fmt.Sprintf("no fleet %s of yours", o.ID)
	}
	if e == nil || e.Side == x {
		return "9.14", "an enemy fleet marker", fmt.Sprintf("no enemy fleet %s", o.Target)
	}
	if f.Where != e.Where || !isBox(f.Where) {
		return "9.14.1", "an enemy fleet in the same naval box", fmt.Sprintf("%s is not in %s's box", e.ID, f.ID)
	}
	if f.Combat == 0 {
		return "9.10", "a fleet with combat points", "transport fleets have no combat rating"
	}
	if !e.Detected && !c.dry() {
		return "9.3", "a detected enemy fleet", fmt.Sprintf("%s is not detected", e.ID)
	}
	if !e.Detected && c.dry() && !c.subBonus["?"+e.ID] {
		return "9.3", "a detected enemy fleet (or one your submarines look for in this phase)", fmt.Sprintf("%s is not detected", e.ID)
	}
	if c.attacked[e.ID] {
		return "9.14.5.2", "another fleet", fmt.Sprintf("%s has already been attacked this phase", e.ID)
	}
	return "", "", ""
}

// checkSub validates placing submarine markers on an enemy fleet (9.11,
// 9.13.6).
func (c *turnCtx) checkSub(o Order) (string, string, string) {
	s, x := c.s, c.x
	ss := s.side(x)
	if c.subsUsed+o.N > ss.Subs {
		return "9.11", fmt.Sprintf("at most %d submarine markers", ss.Subs), "not enough submarine markers"
	}
	e := s.fleet(o.Target)
	if e == nil || e.Side == x || e.Where != o.To {
		return "9.13.6", "an enemy fleet marker in that box", fmt.Sprintf("no enemy fleet %s in %s", o.Target, o.To)
	}
	return "", "", ""
}

// checkLosses validates a standing loss order: the player's own land units
// (10.5.6).
func (c *turnCtx) checkLosses(o Order) (string, string, string) {
	for _, id := range o.Units {
		if u := c.s.unit(id); u == nil || u.Side != c.x || u.Type == "supply" {
			return "10.5.6", "your own land units", fmt.Sprintf("%s is not one of your land units", id)
		}
	}
	return "", "", ""
}

func contains(xs []string, s string) bool {
	return slices.Contains(xs, s)
}

// exec carries out a checked order (dry or for real).
func (c *turnCtx) exec(o Order) {
	c.line = o.Line
	defer func() { c.line = 0 }()
	switch o.Verb {
	case "fleet":
		if do, ok := fleetExecs[o.Kind]; ok {
			do(c, o)
		}
	case "sub":
		c.execSub(o)
	case "air":
		c.execAir(o)
	case "move", "rail":
		c.execMove(o)
	case "attack":
		c.attackAt[o.To] = &o
	case "build":
		c.execBuild(o)
	default:
		c.execStanding(o)
	}
}

// fleetExecs carries out each kind of fleet order.
var fleetExecs = map[string]func(*turnCtx, Order){
	"form":   (*turnCtx).execFleetForm,
	"move":   (*turnCtx).execFleetMove,
	"split":  (*turnCtx).execFleetSplit,
	"merge":  (*turnCtx).execFleetMerge,
	"attack": (*turnCtx).execFleetAttack,
}

// execFleetForm forms a new fleet from a port's naval points and sails it
// (9.6, 9.5, 9.15.9).
func (c *turnCtx) execFleetForm(o Order) {
	s, x := c.s, c.x
	p := c.formPool(o)
	p.Combat -= o.Combat
	p.Transport -= o.Trans
	p.Carriers -= o.Carriers
	if o.Decoys > 0 {
		c.decoysAvail(p.Nation).N -= o.Decoys
	}
	f := &Fleet{ID: o.ID, Side: x, Nation: p.Nation, Where: o.To, Combat: o.Combat, Transport: o.Trans, Decoys: o.Decoys, Carriers: o.Carriers}
	for _, id := range o.Units {
		u := s.unit(id)
		u.Loc, u.Fleet = "", f.ID
		f.Cargo = append(f.Cargo, id)
	}
	s.Fleets = append(s.Fleets, f)
	sortFleets(s)
	c.fleetMoved[f.ID] = true
	c.placed(f.ID, o.From)
	if !c.dry() {
		s.logTo(x, "9.6", "fleet %s sails from %s to %s", f.ID, o.From, o.To)
		s.logTo(other(x), "9.5", "an undetected %s fleet marker %s appears in %s", x, f.ID, o.To)
	}
	if o.To == o.From {
		return // 9.15.9: it stays in the port box, undetected
	}
	c.arrive(f, o.From)
}

// execFleetMove moves a fleet (9.13).
func (c *turnCtx) execFleetMove(o Order) {
	s := c.s
	f := s.fleet(o.ID)
	from := f.Where
	f.Where = o.To
	c.fleetMoved[f.ID] = true
	c.placed(f.ID, from)
	if !c.dry() {
		s.log("9.13", "fleet %s moves from %s to %s", f.ID, from, o.To)
	}
	c.arrive(f, from)
}

// execFleetSplit splits a new fleet off and moves it (9.9).
func (c *turnCtx) execFleetSplit(o Order) {
	s := c.s
	f := s.fleet(o.ID)
	n := &Fleet{ID: o.New, Side: c.x, Nation: f.Nation, Where: o.To, Detected: f.Detected, Combat: o.Combat, Transport: o.Trans, Decoys: o.Decoys, Goal: f.Goal, Carriers: o.Carriers}
	f.Combat -= o.Combat
	f.Transport -= o.Trans
	f.Decoys -= o.Decoys
	f.Carriers -= o.Carriers
	var rest []string
	for _, id := range f.Cargo {
		if contains(o.Units, id) {
			n.Cargo = append(n.Cargo, id)
			s.unit(id).Fleet = n.ID
		} else {
			rest = append(rest, id)
		}
	}
	f.Cargo = rest
	s.Fleets = append(s.Fleets, n)
	sortFleets(s)
	c.fleetMoved[n.ID] = true
	c.placed(n.ID, f.Where)
	if !c.dry() {
		s.log("9.9", "fleet %s splits off fleet %s, which moves to %s", f.ID, n.ID, o.To)
	}
	c.arrive(n, f.Where)
	if f.Combat+f.Transport+f.Decoys+f.Carriers == 0 && len(f.Cargo) == 0 {
		removeFleet(s, f.ID)
	}
}

// execFleetMerge merges the target fleet into the ordered one (9.9).
func (c *turnCtx) execFleetMerge(o Order) {
	s := c.s
	f, g := s.fleet(o.ID), s.fleet(o.Target)
	f.Combat += g.Combat
	f.Transport += g.Transport
	f.Decoys += g.Decoys
	f.Carriers += g.Carriers
	f.CarrierDamage += g.CarrierDamage
	f.CarrierUsed += g.CarrierUsed
	for _, id := range g.Cargo {
		s.unit(id).Fleet = f.ID
		f.Cargo = append(f.Cargo, id)
	}
	f.Detected = f.Detected || g.Detected
	removeFleet(s, g.ID)
	if !c.dry() {
		s.log("9.9", "fleet %s merges into fleet %s in %s", g.ID, f.ID, f.Where)
	}
}

// execFleetAttack fights a naval combat (9.14).
func (c *turnCtx) execFleetAttack(o Order) {
	c.attacked[o.Target] = true
	if !c.dry() {
		s := c.s
		f, e := s.fleet(o.ID), s.fleet(o.Target)
		navalCombat(s, c.dice, f, e, o.N, c.subBonus[f.Where], "9.14")
	}
}

// execSub places submarine markers and rolls to detect the enemy fleet
// (9.11): 6, or 5 with more than one marker.
func (c *turnCtx) execSub(o Order) {
	s, x := c.s, c.x
	c.subsUsed += o.N
	s.SubsOut = append(s.SubsOut, &SubMarker{Side: x, Box: o.To, N: o.N})
	if c.dry() {
		c.subBonus["?"+o.Target] = true
		return
	}
	e := s.fleet(o.Target)
	need := 6
	if o.N > 1 {
		need = 5
	}
	r := c.roll(6, fmt.Sprintf("9.11 submarine detection of %s in %s", e.ID, o.To))
	if r >= need {
		s.log("9.11", "%s submarines in %s detect fleet %s (rolled %d)", x, o.To, e.ID, r)
		detect(s, e)
		c.subBonus[o.To] = true
	} else {
		s.logTo(x, "9.11", "submarines in %s fail to detect %s (rolled %d, needed %d)", o.To, e.ID, r, need)
	}
}

// execBuild starts field works, a fort or a repair (13.3.1, 14.4, 13.2.2,
// 15.3.2); German works use up a supply step.
func (c *turnCtx) execBuild(o Order) {
	s, x := c.s, c.x
	u := s.unit(o.ID)
	kind := o.Kind
	if kind == "repair" {
		if sp := s.strongpoint(u.Loc); sp != nil && sp.Owner == x && !sp.Usable {
			kind = "repair-strongpoint"
		} else {
			kind = "repair-battery"
		}
	}
	if x == German && (kind == "fieldwork" || kind == "fortify") {
		for _, sup := range s.unitsIn(u.Loc, x) {
			if sup.Type == "supply" && sup.Steps > 0 {
				sup.Steps--
				if sup.Steps == 0 {
					sup.Dead = true
				}
				break
			}
		}
	}
	s.Works = append(s.Works, &Work{Area: u.Loc, Kind: kind, Side: x, Unit: u.ID, Start: s.Turn})
	sort.SliceStable(s.Works, func(i, j int) bool { return s.Works[i].Area < s.Works[j].Area })
	if !c.dry() {
		s.log(map[string]string{"fieldwork": "13.3.1", "fortify": "14.4", "repair-strongpoint": "13.2.2", "repair-battery": "15.3.2"}[kind], "%s starts work (%s) in %s", u.ID, kind, u.Loc)
	}
}

// execStanding records a standing order: fighters kept back (8.9.3.1),
// evasion, reaction, continued combat, losses and questions.
func (c *turnCtx) execStanding(o Order) {
	s, x := c.s, c.x
	switch o.Verb {
	case "keep":
		ss := s.side(x)
		ss.Standing.Keep = o.N
		c.useAir("fighter", o.N)
	case "evade":
		s.side(x).Standing.Evade = o.Flag
	case "react":
		s.side(x).Standing.React = o.Flag == "on"
	case "continue":
		s.side(x).Standing.Continue = o.Flag == "on"
	case "losses":
		s.side(x).Standing.Losses = append([]string(nil), o.Units...)
	case "ask":
		kinds, _ := askOrder(strings.Fields(o.Flag), s.rev())
		s.side(x).Standing.Ask = kinds
	}
}

func sortFleets(s *State) {
	sort.Slice(s.Fleets, func(i, j int) bool {
		a, b := s.Fleets[i], s.Fleets[j]
		if a.ID[0] != b.ID[0] {
			return a.ID[0] < b.ID[0]
		}
		if len(a.ID) != len(b.ID) {
			return len(a.ID) < len(b.ID)
		}
		return a.ID < b.ID
	})
}

func removeFleet(s *State, id string) {
	for i, f := range s.Fleets {
		if f.ID == id {
			s.Fleets = append(s.Fleets[:i], s.Fleets[i+1:]...)
			return
		}
	}
}

// arrive handles a fleet's arrival: storm (6.3.3), docking at a friendly
// port (9.13.7) and the landing marks for an enemy port (9.16).
func (c *turnCtx) arrive(f *Fleet, from string) {
	s := c.s
	if isBox(f.Where) {
		if f.Detected && s.seaWeather(seaOf(f.Where)) == "storm" {
			f.Detected = false
			if !c.dry() {
				s.log("6.3.3", "fleet %s moves in the storm and is lost from sight", f.ID)
			}
		}
		if f.Failed && !isBox(from) {
			f.Failed = false
			// 9.16.1.2: "If moving to a naval box, 1d6 is rolled; on 1-3,
			// the fleet remains detected": a fleet the coastal batteries
			// held undetected in the port box (15.2.2) has nothing to roll
			// for (rules revision 2; revision 1 rolled anyway).
			if !c.dry() && (f.Detected || !c.s.rev().Has(BatteryHeldNoRoll)) {
				if data.LandingFleet.Lookup(c.roll(6, "9.16.1.2 fleet leaving after a failed landing")) == "undetected" {
					f.Detected = false
				}
			}
		}
		return
	}
	if f.Where == Germany || f.Where == UK || s.controller(f.Where) == f.Side {
		if f.Where != Germany && f.Where != UK {
			c.enter(f.Where)
		}
		dock(s, f, !c.dry())
		return
	}
	// enemy port: the landing is resolved after the movement step.
}

// dock puts a fleet in a friendly port: its points join the port's pool,
// decoys return (9.8), cargo lands and may move half (9.10.1).
func dock(s *State, f *Fleet, logIt bool) {
	p := s.pool(f.Side, f.Nation, f.Where)
	p.Combat += f.Combat
	p.Transport += f.Transport
	p.Carriers += f.Carriers
	returnDecoys(s, f)
	for _, id := range f.Cargo {
		u := s.unit(id)
		u.Fleet, u.Loc = "", f.Where
		if f.Where != Germany && f.Where != UK {
			u.Half = true
			if u.Nation == "british" || u.Nation == "french" || u.Nation == "polish" {
				s.AlliedLanded = true // 17.1, 18: the Franco-British have landed
			}
		}
	}
	if logIt {
		if len(f.Cargo) == 0 && s.rev().Has(DockEmptyReport) {
			s.logTo(f.Side, "9.10.1", "fleet %s docks at %s", f.ID, f.Where)
		} else {
			s.logTo(f.Side, "9.10.1", "fleet %s docks at %s and unloads %s", f.ID, f.Where, strings.Join(f.Cargo, " "))
		}
		s.logTo(other(f.Side), "9.3", "fleet marker %s enters port at %s", f.ID, f.Where)
	}
	removeFleet(s, f.ID)
}

// detect makes a fleet detected; its decoys are removed (9.8).
func detect(s *State, f *Fleet) {
	if f.Detected {
		return
	}
	f.Detected = true
	if f.Decoys > 0 {
		s.log("9.8", "fleet %s held %d decoy marker(s), now removed", f.ID, f.Decoys)
		returnDecoys(s, f)
	}
	if f.Combat+f.Transport+f.Carriers == 0 && len(f.Cargo) == 0 {
		s.log("9.8", "fleet %s was only a decoy", f.ID)
		removeFleet(s, f.ID)
		return
	}
	s.log("9.3", "fleet %s in %s is detected: %d combat, %d transport points, carrying %s", f.ID, f.Where, f.Combat, f.Transport, cargoText(f))
}

func cargoText(f *Fleet) string {
	if len(f.Cargo) == 0 {
		return "nothing"
	}
	return strings.Join(f.Cargo, " ")
}

func (c *turnCtx) landingAt(area string) bool {
	for _, f := range c.s.Fleets {
		if f.Side == c.x && f.Where == area && len(f.Cargo) > 0 {
			return true
		}
	}
	return false
}

// stackEquiv is a unit's battalion equivalents (11.1.2).
func stackEquiv(u *Unit) int {
	switch u.Type {
	case "hq", "para", "supply":
		return 0
	}
	if u.Size == "reg" || u.Size == "bde" {
		return 3
	}
	return 1
}

// stackingProblem checks 11.1.2 (and the Norwegian disorganisation of 18)
// for side x in an area.
func stackingProblem(s *State, area string, x engine.Side) (string, string) {
	us := s.combatIn(area, x)
	total, regs, hqs := 0, 0, 0
	freeArt, freeEng := false, false
	for _, u := range us {
		if (u.Size == "reg" || u.Size == "bde") && (u.Type == "inf" || u.Type == "mtn" || u.Type == "cav" || u.Type == "arm") {
			regs++
		}
		if u.Type == "hq" {
			hqs++
		}
	}
	nReg, nBn := 0, 0
	for _, u := range us {
		e := stackEquiv(u)
		if regs >= 2 && u.Size == "bn" && (u.Type == "art" || u.Type == "aa") && !freeArt {
			freeArt = true
			e = 0
		} else if regs >= 2 && u.Size == "bn" && u.Type == "eng" && !freeEng {
			freeEng = true
			e = 0
		}
		total += e
		if u.Nation == "norwegian" && u.Type != "hq" {
			if u.Size == "reg" || u.Size == "bde" {
				nReg++
			} else {
				nBn++
			}
		}
	}
	if hqs > 1 {
		return "10.2.9", fmt.Sprintf("more than one HQ in %s", area)
	}
	if total > 7 {
		return "11.1.2", fmt.Sprintf("%d battalion equivalents of %s in %s; the limit is 7", total, x, area)
	}
	if s.Turn < 6 && (nReg > 1 || nBn > 1) {
		return "18", fmt.Sprintf("until turn 6 the Norwegians stack at most one regiment and one battalion an area (%s)", area)
	}
	return "", ""
}
