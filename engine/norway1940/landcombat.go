package norway1940

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// combatDie is the die a unit rolls (10.2.1, 10.2.4, 10.2.5): regiments and
// brigades a d6, battalions, companies and all artillery a d3; HQs and AA
// roll none (10.2.6, 10.2.9).
func combatDie(u *Unit) int {
	switch u.Type {
	case "hq", "aa", "supply":
		return 0
	case "art":
		return 3
	}
	if u.Size == "reg" || u.Size == "bde" {
		return 6
	}
	return 3
}

func (u *Unit) modifier() int {
	if u.Steps < u.MaxSteps {
		return u.Red
	}
	return u.Mod
}

// combinedArms is the Combined Arms Table (10.5.4, data/tables.txt).
func combinedArms(inf, art, arm, air bool) int {
	key := 0
	for _, b := range []struct {
		on  bool
		bit int
	}{{inf, 8}, {art, 4}, {arm, 2}, {air, 1}} {
		if b.on {
			key += b.bit
		}
	}
	return data.CombinedArms.Lookup(key)
}

// effectiveSupport is how many land-support bomber markers count after the
// enemy AA units void one each (10.2.6, 10.5.4).
func effectiveSupport(markers, enemyAA int) int {
	if markers <= enemyAA {
		return 0
	}
	return markers - enemyAA
}

// sideRoll is one side's combat total (10.5.3) with its parts.
type sideRoll struct {
	Total int
	Parts []string
}

func (r *sideRoll) add(n int, why string) {
	if n == 0 {
		return
	}
	r.Total += n
	r.Parts = append(r.Parts, fmt.Sprintf("%+d %s", n, why))
}

func countType(us []*Unit, types ...string) int {
	n := 0
	for _, u := range us {
		for _, t := range types {
			if u.Type == t {
				n++
			}
		}
	}
	return n
}

// rollSide rolls the dice of a side's units and adds the modifiers that
// belong to that side alone.
func rollSide(s *State, d engine.Dice, us []*Unit, attacking bool, air bool, area string, high bool) sideRoll {
	var r sideRoll
	inf, art, arm := false, false, false
	aaOnly := true
	divs := map[string]bool{}
	engPaired := false
	for _, u := range us {
		switch u.Type {
		case "inf", "mtn", "cav", "eng", "para":
			inf = true
		case "art":
			art = true
		case "arm":
			arm = true
		}
		if u.Type != "aa" && u.Type != "hq" {
			aaOnly = false
		}
		if u.Type != "hq" && u.Div != "" {
			divs[u.Div] = true
		}
		die := combatDie(u)
		if die == 0 {
			continue
		}
		if u.Type == "eng" && countType(us, "eng") >= 2 {
			// 10.2.8: two engineers roll one d6 together.
			if engPaired {
				r.add(u.modifier(), u.ID+" modifier")
				continue
			}
			engPaired = true
			die = 6
		}
		v := d.Roll(die, fmt.Sprintf("10.5.3 %s in %s", u.ID, area))
		r.add(v, fmt.Sprintf("%s rolls d%d", u.ID, die))
		r.add(u.modifier(), u.ID+" modifier")
		for _, d := range s.Depots {
			if d.Unit == u.ID && !d.Used {
				d.Used = true
				r.add(1, u.ID+" captured Norwegian equipment (16.4)")
			}
		}
		if attacking && high && u.Type != "mtn" {
			r.add(-1, u.ID+" attacking higher ground (16.2.4)")
		}
		if attacking && u.Strait {
			r.add(-2, u.ID+" across a strait (10.5.5)")
		}
	}
	if aaOnly && countType(us, "aa") > 0 {
		r = sideRoll{}
		r.add(1, "AA alone (10.2.6)")
		return r
	}
	if countType(us, "aa") > 0 {
		r.add(1, "AA (10.2.6)")
	}
	hq := countType(us, "hq") > 0
	if hq {
		r.add(1, "HQ (10.2.9)")
	}
	r.add(combinedArms(inf, art, arm, air), "combined arms (10.5.4)")
	if s.has(OptChainOfCommand) && len(divs) > 1 && !hq {
		r.add(-1, "mixed divisions (16.3)")
	}
	return r
}

// holdsWorks reports whether side x holds a usable strongpoint or a
// finished fieldwork in an area.
func holdsWorks(s *State, area string, x engine.Side) bool {
	if sp := s.strongpoint(area); sp != nil && sp.Owner == x && sp.Usable {
		return true
	}
	w := s.work(area, "fieldwork", x)
	return w != nil && w.Done
}

// landCombats resolves every combat of the phasing player's land phase.
func (c *turnCtx) landCombats() {
	s := c.s
	set := map[string]bool{}
	for a := range c.attackAt {
		set[a] = true
	}
	for a := range c.mustAttack {
		set[a] = true
	}
	var areas []string
	for a := range set {
		areas = append(areas, a)
	}
	sort.Strings(areas)
	for _, a := range areas {
		if c.dry() {
			continue
		}
		if !enemyIn(s, a, c.x) || len(s.combatIn(a, c.x)) == 0 {
			c.afterLanding(a, false)
			continue
		}
		c.landCombat(a, c.attackAt[a])
	}
}

// afterLanding completes or fails the amphibious landings into an area.
func (c *turnCtx) afterLanding(area string, failed bool) {
	s := c.s
	fleets := map[string]bool{}
	for id, f := range c.landing {
		u := s.unit(id)
		if u != nil && (u.Loc == area || u.Fleet == f) && data.Area(area).Name == area {
			if fl := s.fleet(f); fl != nil && fl.Where == area {
				fleets[f] = true
			}
		}
	}
	var ids []string
	for f := range fleets {
		ids = append(ids, f)
	}
	sort.Strings(ids)
	for _, id := range ids {
		f := s.fleet(id)
		if failed {
			f.Failed, f.Detected = true, true
			s.log("9.16.1.2", "the landing of fleet %s at %s fails; the troops re-embark", f.ID, area)
			continue
		}
		c.landed(f)
	}
}

// landCombat fights the land combat at area (10.5): the attackers and
// defenders, support and terrain, then the combat table's result.
func (c *turnCtx) landCombat(area string, o *Order) {
	s, x, d := c.s, c.x, c.dice
	y := other(x)
	att := c.attackers(area, o)
	if countType(att, "inf", "mtn", "cav", "arm", "eng", "para") == 0 {
		s.log("10.2.5", "no attack at %s: artillery and AA cannot attack alone", area)
		if len(c.landing) > 0 {
			c.afterLanding(area, true)
			c.reembark(area)
		}
		return
	}
	def := c.defenders(area)
	for _, u := range append(att, def...) {
		u.Busy = s.Turn
	}
	bonus := c.supportBonus(area, countType(def, "aa"))
	high := false
	for _, u := range def {
		if u.High && s.has(OptElevation) {
			high = true
		}
	}
	a := rollSide(s, d, att, true, bonus > 0, area, high)
	a.add(bonus, "bomber support (10.5.4)")
	df := rollSide(s, d, def, false, false, area, false)
	strong := c.combatModifiers(area, att, def, &a, &df)
	diff := a.Total - df.Total
	s.log("10.5", "combat at %s: %s %d [%s] against %s %d [%s]", area, x, a.Total, strings.Join(a.Parts, ", "), y, df.Total, strings.Join(df.Parts, ", "))
	if diff == 0 {
		s.log("10.5.3", "combat at %s: a tie, no effect", area)
		c.afterLanding(area, false)
		return
	}
	c.combatResult(area, o, att, def, diff, strong)
}

// attackers lists the units that attack at area: those that can (10.5),
// paratroops only when named (8.11.1), units in their works only when
// named (13.2.1, 13.3.2), the named units when the order names some, and
// before turn 6 at most one Norwegian regiment and one battalion (18).
func (c *turnCtx) attackers(area string, o *Order) []*Unit {
	s, x := c.s, c.x
	var att []*Unit
	for _, u := range s.combatIn(area, x) {
		if _, _, msg := c.canAttack(u, area); msg != "" {
			continue
		}
		if u.Type == "para" && (o == nil || !contains(o.Units, u.ID)) {
			continue // 8.11.1
		}
		if c.mustAttack[area] && !c.moved[u.ID] && (o == nil || !contains(o.Units, u.ID)) && holdsWorks(s, area, x) {
			continue // 13.2.1, 13.3.2: units in their works need not attack
		}
		if o != nil && len(o.Units) > 0 && !c.mustAttack[area] && !contains(o.Units, u.ID) {
			continue
		}
		att = append(att, u)
	}
	if x == Allied && s.Turn < 6 {
		att = norwegianAttackLimit(att)
	}
	return att
}

// norwegianAttackLimit keeps one regiment and one battalion of the
// Norwegians in an attack, and every other unit (18).
func norwegianAttackLimit(att []*Unit) []*Unit {
	var keep []*Unit
	reg, bn := false, false
	for _, u := range att {
		if u.Nation != "norwegian" {
			keep = append(keep, u)
			continue
		}
		big := u.Size == "reg" || u.Size == "bde"
		if big && !reg {
			reg = true
			keep = append(keep, u)
		} else if !big && !bn && u.Type != "hq" {
			bn = true
			keep = append(keep, u)
		}
	}
	return keep
}

// defenders lists the defending units at area; paratroops at the airfield
// of a city the other units hold are withheld (8.11.4).
func (c *turnCtx) defenders(area string) []*Unit {
	s := c.s
	def := s.combatIn(area, other(c.x))
	if ai := data.Area(area); ai.City >= 0 && s.airfield(area) != nil && countType(def, "para") > 0 && countType(def, "para") < len(def) {
		// 8.11.4: the other units hold the city; the paratroops at the
		// airfield are withheld and cannot be attacked while they do.
		var held []*Unit
		for _, u := range def {
			if u.Type != "para" {
				held = append(held, u)
			}
		}
		def = held
		s.log("8.11.4", "the paratroops at %s are withheld while the city is held", area)
	}
	return def
}

// supportBonus is the attacker's bomber support at area (10.5.4): the
// markers the enemy AA leaves, times their strength, rolled for with the
// support option, at most 3.
func (c *turnCtx) supportBonus(area string, enemyAA int) int {
	s := c.s
	eff := effectiveSupport(c.support[area], enemyAA)
	bonus := 0
	if eff > 0 {
		per := c.supportStr[area] / c.support[area]
		bonus = eff * per
		if s.has(OptSupportRoll) {
			hits := 0
			for i := 0; i < bonus; i++ {
				if c.dice.Roll(6, "8.9.4 land support") == 6 {
					hits++
				}
			}
			bonus = hits
		}
		if bonus > 3 {
			bonus = 3
		}
	}
	return bonus
}

// combatModifiers adds the defender's terrain and the other modifiers to
// both sides' rolls, and tells whether the defender holds a strongpoint.
func (c *turnCtx) combatModifiers(area string, att, def []*Unit, a, df *sideRoll) (strong bool) {
	s, x := c.s, c.x
	y := other(x)
	// Defender terrain: strongpoint (13.2.1), city (14.1) or fieldwork
	// (13.3.3), the better fortification (13.3.6).
	ai := data.Area(area)
	// 14.1: the defender holding the city claims its bonus; when both
	// sides share a city (after a landing) the defender claims it too.
	defends := s.controller(area) == y || !c.mustAttack[area]
	fort := 0
	if ai.City >= 0 && defends {
		fort = ai.City
		if w := s.work(area, "fortify", y); w != nil && w.Done {
			fort++
		}
	}
	if w := s.work(area, "fieldwork", y); w != nil && w.Done && fort < 1 {
		fort = 1
	}
	df.add(fort, "city/fieldwork (14.1, 13.3.3)")
	sp := s.strongpoint(area)
	strong = sp != nil && sp.Owner == y && sp.Usable
	if strong {
		df.add(2, "strongpoint (13.2.1)")
	}
	if countType(att, "eng") > 0 && (strong || (ai.City > 0 && defends)) {
		a.add(1, "engineers (10.2.8)")
	}
	for _, u := range def {
		if u.OOS {
			a.add(1, "defender out of supply (7.5)")
			break
		}
	}
	if s.Turn == 4 {
		gbonus, why := 1, "invasion turn (18)"
		if area == "Oslo" && len(c.landing) > 0 {
			gbonus, why = 3, "Oslo landing with the air-landed 163rd (18)"
		}
		if x == German {
			a.add(gbonus, why)
		} else {
			df.add(1, "invasion turn (18)")
		}
	}
	return strong
}

// combatResult applies the combat table's result for differential diff
// (10.5.3): losses and retreats, the landing's outcome and the area's
// capture.
func (c *turnCtx) combatResult(area string, o *Order, att, def []*Unit, diff int, strong bool) {
	s, x := c.s, c.x
	y := other(x)
	loser, losers, winner := y, def, x
	if diff < 0 {
		loser, losers, winner, diff = x, att, y, -diff
	}
	table := data.LandCombat
	if s.has(OptCombatTablePage) {
		table = data.LandCombatPage
	}
	res := table.Lookup(diff)
	s.log("10.5.3", "combat at %s: differential %d for %s: %s", area, diff, winner, describe(res))
	retreatTo := ""
	if o != nil && winner == x {
		retreatTo = o.Flag
	}
	if s.rev().Has(OwnerDistributesLosses) {
		if o != nil && loser == x {
			retreatTo = o.Fallback // 10.5.6: the attacking player chooses
		}
		c.takeLosses(area, loser, losers, res, retreatTo, strong)
	} else {
		c.applyResult(area, loser, losers, res, retreatTo, strong)
	}
	if loser == x {
		c.afterLanding(area, strings.HasPrefix(res, "R") || res == "A")
	} else {
		c.afterLanding(area, false)
	}
	if win := s.combatIn(area, x); len(s.combatIn(area, y)) == 0 && len(win) > 0 {
		captureBy(s, area, x, win[0].ID)
	}
}

func describe(res string) string {
	switch res {
	case "-":
		return "no effect"
	case "R":
		return "retreat one area"
	case "R1":
		return "retreat and 1 step loss"
	case "R2":
		return "retreat and 2 step losses"
	case "R3":
		return "retreat and 3 step losses"
	case "RE":
		return "retreat and 1 unit eliminated"
	case "R1E":
		return "retreat, 1 step loss and 1 unit eliminated"
	case "A":
		return "all units eliminated"
	}
	return res
}

// stepLoss takes one step from a unit (10.2); an HQ returns later (10.2.9).
func stepLoss(s *State, u *Unit) {
	u.Steps--
	if u.Steps <= 0 {
		u.Dead = true
		if u.Type == "hq" {
			u.Returns = s.Turn + 2
		}
		s.log("10.2", "%s is eliminated", u.ID)
	}
}

func alive(us []*Unit) []*Unit {
	var out []*Unit
	for _, u := range us {
		if !u.Dead {
			out = append(out, u)
		}
	}
	return out
}

// applyResult applies a land combat result to the losing side as
// revision 1 does: the engine distributes the losses and the winner's
// retreat choice is honoured anywhere legal (revision 2: takeLosses).
func (c *turnCtx) applyResult(area string, loser engine.Side, us []*Unit, res, prefer string, strong bool) {
	s := c.s
	if res == "-" {
		return
	}
	if res == "A" {
		// All eliminated: landing troops too; only a retreat sends them
		// back aboard (10.5.6).
		for _, u := range us {
			u.Steps = 0
			stepLoss(s, u)
		}
		return
	}
	steps, n := lossesOf(res)
	elim := n > 0
	for i := 0; i < steps; i++ {
		live := alive(us)
		if len(live) == 0 {
			break
		}
		pick := live[0]
		for _, u := range live[1:] {
			if u.Steps > pick.Steps || (u.Steps == pick.Steps && combatDie(u) < combatDie(pick)) {
				pick = u
			}
		}
		stepLoss(s, pick)
	}
	if elim {
		live := alive(us)
		if len(live) > 0 {
			pick := live[0]
			for _, u := range live[1:] {
				if u.modifier() < pick.modifier() {
					pick = u
				}
			}
			pick.Steps = 0
			stepLoss(s, pick)
		}
	}
	c.retreat(area, loser, us, strong, func() string { return retreatArea(s, loser, area, prefer) })
}

// retreat carries out the retreat of a beaten stack (10.5.6) to the area
// dest gives; strongpoints, fortified cities, fieldworks and parachute
// units may ignore it (10.5.8, 13.2.1, 13.3.2).
func (c *turnCtx) retreat(area string, loser engine.Side, us []*Unit, strong bool, dest func() string) {
	s := c.s
	live := alive(us)
	if len(live) == 0 {
		return
	}
	if loser == c.x && len(c.landing) > 0 {
		c.reembark(area)
		live = alive(s.combatIn(area, loser))
	}
	fortified := strong
	if w := s.work(area, "fortify", loser); w != nil && w.Done {
		fortified = true
	}
	if w := s.work(area, "fieldwork", loser); w != nil && w.Done {
		fortified = true
	}
	if loser == c.x {
		fortified = false
	}
	to := dest()
	var moving []string
	for _, u := range live {
		if u.Type == "para" || fortified {
			continue
		}
		if to == "" {
			s.log("10.5.6", "%s cannot retreat from %s and loses a step", u.ID, area)
			stepLoss(s, u)
			continue
		}
		u.Loc, u.High = to, false
		moving = append(moving, u.ID)
	}
	if len(moving) > 0 {
		s.log("10.5.6", "%s retreat from %s to %s", strings.Join(moving, " "), area, to)
		for _, sup := range s.unitsIn(area, loser) {
			if sup.Type != "supply" {
				continue
			}
			if s.has(OptRetreatLoses) || sup.Steps <= 1 {
				sup.Dead = true
				s.log("10.5.6", "supply unit %s is lost in the retreat", sup.ID)
			} else {
				sup.Steps--
				s.log("7.4.4", "supply unit %s loses half its supplies in the retreat", sup.ID)
			}
		}
		if s.controller(to) != loser && !enemyIn(s, to, loser) {
			capture(s, to, loser)
		}
	} else if fortified {
		s.log("10.5.8", "the defenders of %s hold their fortifications and ignore the retreat", area)
	}
}

// reembark puts the phasing player's failed landing troops back aboard
// (10.5.6, 9.16.1.2).
func (c *turnCtx) reembark(area string) {
	s := c.s
	for id, fid := range c.landing {
		u := s.unit(id)
		f := s.fleet(fid)
		if u == nil || f == nil || u.Dead || u.Loc != area {
			continue
		}
		u.Loc, u.Fleet = "", fid
		f.Cargo = append(f.Cargo, id)
		sort.Strings(f.Cargo)
		f.Failed, f.Detected = true, true
	}
}

// retreatArea chooses where a losing stack retreats (10.5.6): an adjacent
// land area free of enemy units, closest to a friendly supply source; the
// winner's choice when it is one of those.
func retreatArea(s *State, x engine.Side, from, prefer string) string {
	src := sources(s, x)
	best, bestD := "", 1<<30
	var legal []string
	for _, n := range data.Graph.Neighbors(from) {
		if n == "Sweden" || enemyIn(s, n, x) {
			continue
		}
		legal = append(legal, n)
		dd := 99
		for _, a := range src {
			if v := dist(n, a); v < dd {
				dd = v
			}
		}
		if dd < bestD {
			best, bestD = n, dd
		}
	}
	if prefer != "" && contains(legal, prefer) {
		return prefer
	}
	return best
}
