package norway1940

import (
	"fmt"

	"skagerrak/engine"
)

// navalBonus is the Naval Combat Table modifier for a strength
// differential (9.14.5): the example gives +2 for a differential of 5, so
// the default rounds up (+1 per 4 points or part of 4); the option
// naval-bonus-floor counts only full 4-point steps.
func navalBonus(s *State, diff int) int {
	if diff <= 0 {
		return 0
	}
	if s.has(OptNavalBonusFloor) {
		return diff / 4
	}
	return (diff + 3) / 4
}

// evadeMax is the highest roll that evades on the Naval Interception Table.
func evadeMax(s *State, diff int) int {
	if diff <= -6 && s.has(OptInterceptMono) {
		return 6
	}
	return data.Interception.Lookup(diff)
}

// takeNavalLosses removes hits from a fleet: combat points first when it
// has more combat than transport points (9.14.5.2), then transports, whose
// cargo suffers in proportion (9.10): a regiment step or half a supply unit
// a point.
func takeNavalLosses(s *State, f *Fleet, hits int) {
	for ; hits > 0; hits-- {
		if f.Combat > 0 && (f.Combat >= f.Transport || f.Transport == 0) {
			f.Combat--
			continue
		}
		if f.Transport > 0 {
			f.Transport--
			if len(f.Cargo) > 0 && cargoLoadOf(s, f) > f.Transport+capacityBonus(s, f) {
				loseCargo(s, f)
			}
			continue
		}
		if f.Combat > 0 {
			f.Combat--
		}
	}
	if f.Combat+f.Transport == 0 && f.Carriers == 0 {
		for _, id := range f.Cargo {
			if u := s.unit(id); u != nil {
				u.Dead, u.Fleet = true, ""
			}
		}
		s.log("9.14.5", "fleet %s is sunk", f.ID)
		returnDecoys(s, f)
		removeFleet(s, f.ID)
	}
}

func capacityBonus(s *State, f *Fleet) int {
	if s.Turn < 6 {
		return f.Combat
	}
	return 0
}

func cargoLoadOf(s *State, f *Fleet) int {
	n := 0
	for _, id := range f.Cargo {
		if u := s.unit(id); u != nil {
			n += cargoCost(u)
		}
	}
	return n
}

// loseCargo takes one point of cargo (9.10 example: "½ a supply unit or
// a step from the regimental unit would be lost, at the owner's
// choosing"): from rules revision 2 the first unit aboard that the
// owner's "losses" order names; else half a supply unit first, else a step
// of the largest unit (revision 1 always made this choice for him).
func loseCargo(s *State, f *Fleet) {
	var pick *Unit
	if s.rev().Has(CargoLossesChosen) {
		for _, id := range s.side(f.Side).Standing.Losses {
			if contains(f.Cargo, id) {
				pick = s.unit(id)
				break
			}
		}
	}
	if pick == nil {
		pick = cargoLossDefault(s, f)
	}
	if pick == nil {
		return
	}
	pick.Steps--
	if pick.Steps <= 0 {
		pick.Dead, pick.Fleet = true, ""
		var rest []string
		for _, id := range f.Cargo {
			if id != pick.ID {
				rest = append(rest, id)
			}
		}
		f.Cargo = rest
	}
	s.logTo(f.Side, "9.10", "cargo lost with the transports of %s: a step of %s", f.ID, pick.ID)
}

func wantsEvade(s *State, def *Fleet, defStr, attStr int) bool {
	switch s.side(def.Side).Standing.Evade {
	case "always":
		return true
	case "never":
		return false
	}
	return defStr < attStr
}

// navalCombat resolves a naval combat of up to rounds rounds (9.14.5).
// bonus adds the attacker's submarine +1 (9.11).
func navalCombat(s *State, dice engine.Dice, att, def *Fleet, rounds int, sub bool, rule string) {
	navalCombatX(s, dice, att, def, rounds, sub, rule, false)
}

// navalCombatX is navalCombat; anchored fleets in a port attack cannot
// evade (9.15.2).
func navalCombatX(s *State, dice engine.Dice, att, def *Fleet, rounds int, sub bool, rule string, anchored bool) {
	detect(s, att)
	detect(s, def)
	if s.fleet(att.ID) == nil || s.fleet(def.ID) == nil {
		return
	}
	attStr := att.Combat
	if sub {
		attStr++
	}
	defStr := def.Combat
	w := s.whereWeather(def.Where)
	s.log(rule, "fleet %s (%d combat) attacks fleet %s (%d combat) in %s", att.ID, attStr, def.ID, defStr, def.Where)
	if def.Combat == 0 {
		// 9.10.2: an unescorted transport fleet is eliminated in clear
		// weather; in bad weather or storm it may evade on a 1.
		if (w == "bad" || w == "storm") && dice.Roll(6, "9.10.2 transport fleet evasion") == 1 {
			s.log("9.10.2", "transport fleet %s slips away in the weather", def.ID)
			return
		}
		s.log("9.10.2", "unescorted transport fleet %s is destroyed", def.ID)
		takeNavalLosses(s, def, def.Transport+def.Combat)
		return
	}
	if !anchored && askEvasion(s, att, def, attStr, defStr) {
		r := dice.Roll(6, "9.14.5 Naval Interception Table")
		max := evadeMax(s, attStr-defStr)
		if r <= max || ((w == "bad" || w == "storm") && r == 1) {
			s.log("9.14.5", "fleet %s evades (rolled %d, evades on %d or less)", def.ID, r, max)
			return
		}
		s.log("9.14.5", "fleet %s fails to evade (rolled %d, evades on %d or less)", def.ID, r, max)
	}
	for round := 1; round <= 3; round++ {
		diff := attStr - defStr
		ra := dice.Roll(6, "9.14.5 naval combat, attacker")
		rd := dice.Roll(6, "9.14.5 naval combat, defender")
		ma, md := ra+navalBonus(s, diff), rd+navalBonus(s, -diff)
		ha, hd := data.NavalCombat.Lookup(ma), data.NavalCombat.Lookup(md)
		s.log("9.14.5", "round %d: %s rolls %d (%d), %d hit(s) on %s; %s rolls %d (%d), %d hit(s) on %s", round, att.ID, ra, ma, ha, def.ID, def.ID, rd, md, hd, att.ID)
		takeNavalLosses(s, def, ha)
		takeNavalLosses(s, att, hd)
		if s.fleet(att.ID) == nil || s.fleet(def.ID) == nil || round == 3 {
			return
		}
		// The winner (more hits inflicted; the attacker on a tie) decides.
		attackerWins := ha >= hd
		if attackerWins && round >= rounds {
			return
		}
		attStr, defStr = att.Combat, def.Combat
		if sub {
			attStr++
		}
		if attackerWins && att.Side != s.Phasing && !askContinue(s, att, def, round, attStr, defStr, true) {
			return // a reacting fleet (9.14.4) fights its rounds unless its player asked
		}
		if !attackerWins && !askContinue(s, def, att, round, defStr, attStr, s.side(def.Side).Standing.Continue) {
			return
		}
		r := dice.Roll(6, "9.14.5 Naval Combat Continuation Table")
		disengage := data.Continuation.Lookup(r) == "disengage"
		if attStr >= 2*defStr && r == 5 {
			disengage = false
		}
		if disengage {
			s.log("9.14.5", "the fleets disengage (rolled %d)", r)
			return
		}
		s.log("9.14.5", "the combat goes on (rolled %d)", r)
	}
}

// resolveLandings handles every fleet of side x in an enemy port box after
// the movement step: coastal batteries (15.2), anchored fleets (9.15) and
// the landing itself (9.16).
func (c *turnCtx) resolveLandings() {
	s, x := c.s, c.x
	var fleets []*Fleet
	for _, f := range s.Fleets {
		if f.Side == x && !isBox(f.Where) && f.Where != Germany && f.Where != UK && s.controller(f.Where) != x && c.fleetMoved[f.ID] {
			fleets = append(fleets, f)
		}
	}
	for _, f := range fleets {
		if s.fleet(f.ID) == nil {
			continue
		}
		c.landingFleet(f)
	}
}

// landingFleet brings fleet f into its landing port: the coastal
// batteries fire (15.2), enemy fleet markers in the port box (9.15.9) and
// anchored naval points (9.15) are fought, then the troops land.
func (c *turnCtx) landingFleet(f *Fleet) {
	port := f.Where
	cbDetected, ok := c.batteriesFire(f, port)
	if !ok || !c.clearFleetMarkers(f, port, cbDetected) || !c.clearAnchored(f, port, cbDetected) {
		return
	}
	c.land(f)
}

// invading tells whether this is the German invasion turn (15.2, 9.15.2).
func (c *turnCtx) invading() bool { return c.s.Turn == 4 && c.x == German }

// batteriesFire has the enemy's active coastal batteries at port fire on
// fleet f, on the invasion turn only if they detect it (15.2.1, 15.2.2).
// It tells whether they fired, and whether f can go on to land.
func (c *turnCtx) batteriesFire(f *Fleet, port string) (detected, ok bool) {
	s, x, d := c.s, c.x, c.dice
	invasion := c.invading()
	var bats []*Battery
	for _, b := range s.Bats {
		if b.Area == port && b.Owner != x && b.Status == "active" {
			bats = append(bats, b)
		}
	}
	if len(bats) == 0 {
		return false, true
	}
	fire := true
	if invasion {
		t := data.CBDetect
		if s.has(OptCBDetectSix) {
			t = data.CBDetectNote
		}
		r := d.Roll(6, "15.2.1 coastal battery detection at "+port)
		fire = t.Lookup(r) == "detected"
		s.log("15.2.1", "the coastal batteries at %s %s the fleet %s (rolled %d)", port, map[bool]string{true: "detect", false: "do not detect"}[fire], f.ID, r)
	}
	if !fire {
		return false, true
	}
	hits := 0
	for range bats {
		for i := 0; i < 3; i++ {
			if d.Roll(6, "15.2.2 coastal battery fire at "+port) == 6 {
				hits++
			}
		}
	}
	s.log("15.2.2", "the coastal batteries at %s score %d hit(s) on fleet %s", port, hits, f.ID)
	takeNavalLosses(s, f, hits)
	if s.fleet(f.ID) == nil {
		return true, false
	}
	if hits >= 2 && invasion {
		f.Stuck, f.Failed = s.Turn, true
		s.log("15.2.2", "fleet %s is paralysed by the batteries and cannot land this turn", f.ID)
		return true, false
	}
	return true, true
}

// clearFleetMarkers fights the enemy fleet markers in the port box
// (9.15.9), which fight like anchored ships; decoys among them are
// revealed. On the invasion turn, unless the batteries detected the
// landing, a marker not ready is captured (9.15.2, 9.15.3). It tells
// whether fleet f can go on to land (9.16.2).
func (c *turnCtx) clearFleetMarkers(f *Fleet, port string, cbDetected bool) bool {
	s, x, d := c.s, c.x, c.dice
	for _, e := range append([]*Fleet(nil), s.Fleets...) {
		if e.Side == x || e.Where != port || s.fleet(e.ID) == nil {
			continue
		}
		detect(s, e)
		if s.fleet(e.ID) == nil {
			continue
		}
		if f.Combat == 0 {
			s.log("9.16.2", "fleet %s has no combat points to clear the enemy fleet %s from %s and cannot land", f.ID, e.ID, port)
			f.Failed, f.Detected = true, true
			return false
		}
		if c.invading() && !cbDetected && data.Anchored.Lookup(d.Roll(6, "9.15.2 fleet in port at "+port)) != "active" {
			s.log("9.15.3", "fleet %s in %s is not ready and is captured", e.ID, port)
			s.pool(x, x2nation(x), port).Combat += e.Combat
			returnDecoys(s, e)
			removeFleet(s, e.ID)
			continue
		}
		navalCombatX(s, d, f, e, 3, false, "9.15", true)
		if s.fleet(f.ID) == nil {
			return false
		}
		if s.fleet(e.ID) != nil {
			s.log("9.16.2", "enemy fleet %s remains at %s: fleet %s cannot land", e.ID, port, f.ID)
			f.Failed, f.Detected = true, true
			return false
		}
	}
	return true
}

// clearAnchored fights the enemy naval points anchored in the port (9.15).
// It tells whether fleet f can go on to land.
func (c *turnCtx) clearAnchored(f *Fleet, port string, cbDetected bool) bool {
	for _, p := range c.s.Pools {
		if p.Side == c.x || p.Port != port || p.Combat == 0 {
			continue
		}
		if !c.fightAnchored(f, p, port, cbDetected) {
			return false
		}
	}
	return true
}

// fightAnchored fights pool p's anchored naval points at port: those not
// ready are captured (9.15.2, 9.15.3), the rest fight fleet f and, halved
// on the invasion turn, surrender or escape (9.15.4). It tells whether f
// can go on to land (9.16.2).
func (c *turnCtx) fightAnchored(f *Fleet, p *Pool, port string, cbDetected bool) bool {
	s, x, d := c.s, c.x, c.dice
	invasion := c.invading()
	active := p.Combat
	if invasion && !cbDetected {
		active = c.readyAnchored(p, port)
	}
	captured := p.Combat - active
	p.Combat = active
	if captured > 0 && active == 0 {
		s.log("9.15.3", "%d naval points anchored at %s are captured", captured, port)
		s.pool(x, x2nation(x), port).Combat += captured
		return true
	} else if captured > 0 {
		s.log("9.15.2", "%d naval points anchored at %s cannot fight back", captured, port)
	}
	def := &Fleet{ID: "anchored-" + port, Side: p.Side, Nation: p.Nation, Where: port, Detected: true, Combat: active}
	s.Fleets = append(s.Fleets, def)
	start := def.Combat
	if f.Combat == 0 {
		s.log("9.16.2", "fleet %s has no combat points to clear the enemy ships from %s and cannot land", f.ID, port)
		removeFleet(s, def.ID)
		f.Failed, f.Detected = true, true
		return false
	}
	navalCombatX(s, d, f, def, 3, false, "9.15", true)
	if df := s.fleet(def.ID); df != nil {
		removeFleet(s, def.ID)
		p.Combat = df.Combat
		if invasion && df.Combat*2 <= start {
			captured = c.anchoredSurrender(p, df, port, captured)
		}
	} else {
		p.Combat = 0
	}
	if captured > 0 && p.Combat == 0 {
		s.pool(x, x2nation(x), port).Combat += captured
		s.log("9.15.3", "%d naval points anchored at %s are captured", captured, port)
	}
	if s.fleet(f.ID) == nil {
		return false
	}
	if p.Combat > 0 {
		s.log("9.16.2", "enemy ships remain at %s: fleet %s cannot land", port, f.ID)
		f.Failed = true
		f.Detected = true
		return false
	}
	return true
}

// readyAnchored rolls for each group of pool p's anchored naval points at
// port whether it is ready to fight (9.15.2), and returns the points that
// are.
func (c *turnCtx) readyAnchored(p *Pool, port string) int {
	s := c.s
	t := data.Anchored
	if s.has(OptAnchored13) {
		t = data.AnchoredAlt
	}
	groups := p.Groups
	if len(groups) == 0 {
		groups = []int{p.Combat}
	}
	active := 0
	left := p.Combat
	for _, g := range groups {
		if g > left {
			g = left
		}
		left -= g
		r := c.dice.Roll(6, "9.15.2 anchored fleet at "+port)
		if t.Lookup(r) == "active" {
			active += g
		}
	}
	s.log("9.15.2", "at %s %d of %d anchored naval points are ready to fight", port, active, p.Combat)
	return active
}

// anchoredSurrender rolls whether the anchored ships left after combat, df,
// surrender to the lander or escape to a box of the sea area as a detected
// fleet (9.15.4); it returns the points still to be captured.
func (c *turnCtx) anchoredSurrender(p *Pool, df *Fleet, port string, captured int) int {
	s, x := c.s, c.x
	if data.Surrender.Lookup(c.dice.Roll(6, "9.15.4 surrender")) == "surrender" {
		s.log("9.15.4", "the anchored ships at %s surrender", port)
		s.pool(x, x2nation(x), port).Combat += df.Combat + captured
		p.Combat = 0
		return 0
	}
	boxes := data.BoxesOf(data.Area(port).Sea)
	n := &Fleet{ID: s.newID("A"), Side: p.Side, Nation: p.Nation, Where: boxes[0], Detected: true, Combat: df.Combat}
	s.Fleets = append(s.Fleets, n)
	sortFleets(s)
	p.Combat = 0
	s.log("9.15.4", "the anchored ships at %s escape to %s as detected fleet %s", port, n.Where, n.ID)
	return captured
}

// cargoLossDefault is the cargo unit that loses a point when the owner
// named none: half a supply unit first, else the unit with most steps.
func cargoLossDefault(s *State, f *Fleet) *Unit {
	var pick *Unit
	for _, id := range f.Cargo {
		u := s.unit(id)
		if u.Type == "supply" {
			return u
		}
		if pick == nil || u.Steps > pick.Steps {
			pick = u
		}
	}
	return pick
}

func x2nation(x engine.Side) string {
	if x == German {
		return "german"
	}
	return "british"
}

// land puts a fleet's cargo ashore (9.16.1).
func (c *turnCtx) land(f *Fleet) {
	s, x := c.s, c.x
	port := f.Where
	a := data.Area(port)
	limit := 99
	if s.Turn > 4 {
		limit = 6
		if a.Port == "minor" {
			limit = 3
		}
	}
	var ashore, aboard []string
	load := 0
	for _, id := range f.Cargo {
		u := s.unit(id)
		if load+cargoCost(u) > limit {
			aboard = append(aboard, id)
			continue
		}
		load += cargoCost(u)
		ashore = append(ashore, id)
	}
	if len(ashore) == 0 {
		return
	}
	for _, id := range ashore {
		u := s.unit(id)
		u.Fleet, u.Loc, u.Landed, u.Half = "", port, s.Turn, false
		if s.rev().Has(ArrivalsSupplied) {
			u.OOS = false // 7.4.3, 9.16.2: supplied the turn they land
		}
		c.landing[id] = f.ID
		c.moved[id] = true
	}
	f.Cargo = aboard
	s.log("9.16", "fleet %s lands %s at %s", f.ID, joinIDs(ashore), port)
	if x == German && !s.Invaded {
		s.Invaded = true
	}
	if x == Allied {
		for _, id := range ashore {
			if n := s.unit(id).Nation; n == "british" || n == "french" || n == "polish" {
				s.AlliedLanded = true
			}
		}
	}
	if x == German && s.Turn == 4 && (port == "Trondheim" || port == "Narvik") {
		for _, u := range s.combatIn(port, Allied) {
			r := c.dice.Roll(6, "18 garrison of "+port)
			res := data.Garrison.Lookup(r)
			if res == "fight" {
				s.log("18", "%s at %s stays and fights (rolled %d)", u.ID, port, r)
				continue
			}
			if s.has(OptGarrisonSurrend) {
				u.Dead = true
				s.log("18", "%s at %s surrenders (rolled %d)", u.ID, port, r)
				continue
			}
			to := retreatArea(s, u.Side, port, "")
			if to == "" {
				u.Dead = true
				s.log("18", "%s at %s cannot withdraw and surrenders", u.ID, port)
				continue
			}
			u.Loc = to
			s.log("18", "%s withdraws from %s to %s (rolled %d)", u.ID, port, to, r)
		}
	}
	if enemyIn(s, port, x) {
		c.mustAttack[port] = true
		c.enter(port)
		return
	}
	c.landed(f)
}

// landed completes a successful landing: control, batteries (15.3.3),
// supply ships (18), and the fleet enters port (9.15.4).
func (c *turnCtx) landed(f *Fleet) {
	s, x := c.s, c.x
	port := f.Where
	capture(s, port, x)
	for _, b := range s.Bats {
		if b.Area != port || b.Owner == x || b.Status == "destroyed" {
			continue
		}
		r := c.dice.Roll(6, "15.3.3 coastal battery at "+port)
		switch data.CBLand.Lookup(r) {
		case "captured":
			b.Owner = x
		case "inoperative":
			b.Owner, b.Status = x, "inoperative"
		default:
			b.Status = "destroyed"
		}
		s.log("15.3.3", "coastal battery %d at %s: %s (rolled %d)", b.N, port, data.CBLand.Lookup(r), r)
	}
	if x == German && s.Turn == 4 {
		if halves := data.SupplyShips[port]; halves > 0 {
			u := &Unit{ID: s.newID("S"), Side: German, Nation: "german", Type: "supply", Size: "sup", Steps: halves, MaxSteps: 2, Loc: port, Entry: s.Turn}
			s.Units = append(s.Units, u)
			s.log("18", "the supply ships sailed ahead land supply unit %s at %s", u.ID, port)
		}
	}
	if len(f.Cargo) == 0 {
		dock(s, f, true)
	} else {
		f.Detected = false
	}
}

func joinIDs(ids []string) string {
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += " "
		}
		out += id
	}
	return out
}

// reactions: the non-phasing player's undetected fleets attack detected
// enemy fleets that entered their box (9.14.4), by standing order ("react
// on": the strongest fleet stronger than the enemy attacks) or by his
// decision in person ("ask react").
func (c *turnCtx) reactions() {
	s, x := c.s, c.x
	y := other(x)
	if !s.side(y).Standing.React && !contains(s.side(y).Standing.Ask, AskReact) {
		return
	}
	for _, e := range append([]*Fleet(nil), s.Fleets...) {
		if e.Side != x || !e.Detected || !c.fleetMoved[e.ID] || !isBox(e.Where) || s.fleet(e.ID) == nil || c.attacked[e.ID] {
			continue
		}
		if best := askReact(s, e); best != nil {
			c.attacked[e.ID] = true
			s.log("9.14.4", "%s fleet %s attacks the detected fleet %s entering %s", y, best.ID, e.ID, e.Where)
			navalCombat(s, c.dice, best, e, 3, false, "9.14.4")
		}
	}
}

// batteryFire: coastal batteries fire at enemy fleets held in their port
// box in later turns (15.2.3).
func batteryFire(s *State, d engine.Dice, x engine.Side) {
	for _, f := range append([]*Fleet(nil), s.Fleets...) {
		if f.Side == x || isBox(f.Where) || s.fleet(f.ID) == nil {
			continue
		}
		hits := 0
		n := 0
		for _, b := range s.Bats {
			if b.Area == f.Where && b.Owner == x && b.Status == "active" {
				n++
				for i := 0; i < 3; i++ {
					if d.Roll(6, "15.2.3 coastal battery fire") == 6 {
						hits++
					}
				}
			}
		}
		if n > 0 {
			s.log("15.2.3", "coastal batteries at %s fire on fleet %s: %d hit(s)", f.Where, f.ID, hits)
			takeNavalLosses(s, f, hits)
		}
	}
}

var _ = fmt.Sprintf
