package norway1940

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// capture gives an area to side x (12.2.2): control, a strongpoint that
// must be repaired before use (13.2.2), enemy fieldworks and city
// fortifications removed (13.3.4, 14.5).
func capture(s *State, area string, x engine.Side) {
	if s.controller(area) == x || area == "Sweden" {
		return
	}
	s.setControl(area, x)
	if x == German {
		ss := s.side(Allied)
		var keep []Count
		for _, c := range ss.Based {
			if c.Nation != area {
				keep = append(keep, c)
			}
		}
		ss.Based = keep // 8.12: planes based there are lost with it
	}
	if sp := s.strongpoint(area); sp != nil && sp.Owner != x {
		sp.Owner, sp.Usable = x, false
	}
	var keep []*Work
	for _, w := range s.Works {
		if w.Area == area && w.Side != x {
			continue
		}
		keep = append(keep, w)
	}
	s.Works = keep
	if data.Area(area).VP > 0 {
		s.log("12.2.2", "%s takes control of %s (%d VP)", x, area, data.Area(area).VP)
	}
}

// captureBy is capture by a land unit, which flips a 16.4 depot marker
// there if the German takes it.
func captureBy(s *State, area string, x engine.Side, unit string) {
	capture(s, area, x)
	if x != German || unit == "" {
		return
	}
	for _, d := range s.Depots {
		if d.Area == area && !d.Flipped {
			d.Flipped = true
			if d.Real {
				d.Unit = unit
				s.log("16.4.1.3", "the depot at %s is real: %s gains +1 for one combat", area, unit)
			} else {
				s.log("16.4.1.3", "the depot marker at %s was a decoy", area)
			}
		}
	}
}

// placeDepots sets the six depot markers, three real, at random
// (16.4.1.1, 16.4.1.2).
func placeDepots(s *State, dice engine.Dice) {
	var areas []string
	for _, a := range data.Areas {
		if a.Depot {
			areas = append(areas, a.Name)
		}
	}
	real := make([]bool, len(areas))
	for i := 0; i < len(real)/2; i++ {
		real[i] = true
	}
	for i := len(real) - 1; i > 0; i-- {
		j := dice.Roll(i+1, "16.4.1.2 depot markers") - 1
		real[i], real[j] = real[j], real[i]
	}
	for i, a := range areas {
		s.Depots = append(s.Depots, &Depot{Area: a, Real: real[i]})
	}
}

func enemyIn(s *State, area string, x engine.Side) bool {
	return len(s.combatIn(area, other(x))) > 0
}

// hasRail reports whether an area has a railway.
func hasRail(area string) bool {
	for _, e := range data.Graph.Edges(area) {
		if e.Kind == "rail" {
			return true
		}
	}
	return false
}

// edgeKind is the kind of the connection a-b ("road", "rail", "strait"
// ...), or "".
func edgeKind(a, b string) string { return data.Graph.EdgeKind(a, b) }

// moveAllowance is a unit's movement factor this turn, how many times it
// is halved, and whether it may move at all (6.3, 9.10.1, 10.3.4). The
// road bonus (10.3) is added before halving.
func moveAllowance(s *State, u *Unit) (int, int, string, string) {
	mf := u.Move
	if u.Type == "supply" {
		mf = 2 // 7.7
	}
	halves := 0
	w := s.areaWeather(u.Loc)
	mtn := u.Type == "mtn"
	switch w {
	case "storm":
		if !mtn {
			halves++
		}
	case "thunder":
		if !mtn {
			return 0, 0, "6.3.4", "no land unit but mountain infantry moves in the thunderstorm"
		}
		halves++
	}
	if u.Half {
		halves++
	}
	return mf, halves, "", ""
}

// checkMove validates a land or rail move (10.3): the unit, each step of
// its path, the movement points it costs and where it ends.
func (c *turnCtx) checkMove(o Order) (string, string, string) {
	s := c.s
	u := s.unit(o.ID)
	if u == nil || u.Side != c.x || u.Dead {
		return "10.3", "one of your units", fmt.Sprintf("no unit %s of yours", o.ID)
	}
	if u.Fleet != "" || !data.Graph.Has(u.Loc) {
		return "10.3", "a unit on the map", fmt.Sprintf("%s is not on the map (it is %s)", u.ID, where(u))
	}
	path := o.Path
	if len(path) > 0 && path[0] == u.Loc {
		path = path[1:]
	}
	if rule, valid, msg := c.checkMayMove(o, u, path); rule != "" {
		return rule, valid, msg
	}
	mf, halves, rule, msg := moveAllowance(s, u)
	if msg != "" {
		return rule, "clearer weather, or mountain units", msg
	}
	if o.Verb == "rail" {
		return c.checkRail(u, path)
	}
	if len(path) == 0 {
		if u.High {
			return "16.2.2", "a unit not yet on higher ground", fmt.Sprintf("%s already holds the higher ground", u.ID)
		}
		return "", "", "" // climbing in place costs one point (16.2.2)
	}
	if rule, valid, msg := c.checkPath(u, path); rule != "" {
		return rule, valid, msg
	}
	cost, allRoad := moveCost(u, path, o.Flag == "high")
	budget := mf
	if allRoad {
		budget++
	}
	for i := 0; i < halves; i++ {
		budget /= 2
	}
	if cost > budget && len(path) > 1 {
		return "10.3", fmt.Sprintf("at most %d movement points (road +1, strait 2)", budget), fmt.Sprintf("the move costs %d movement points, %s has %d", cost, u.ID, budget)
	}
	if mf == 0 {
		return "10.3", "a unit with a movement factor", fmt.Sprintf("%s cannot move", u.ID)
	}
	return c.checkMoveEnd(u, path[len(path)-1])
}

// checkMayMove validates that unit u may move this turn at all: higher
// ground only with its option (16.2), somewhere to go, one move a turn
// (10.3), no paratroops once dropped (8.11.3), no Norwegians before the
// invasion (18), no blast marker (8.9.4.3), not landed this turn (10.3.4).
func (c *turnCtx) checkMayMove(o Order, u *Unit, path []string) (string, string, string) {
	s := c.s
	if o.Flag == "high" && !s.has(OptElevation) {
		return "16.2", "the option " + OptElevation, "higher ground counts only with the ground elevation option"
	}
	if len(path) == 0 && o.Flag != "high" {
		return "10.3", "at least one area beyond the start", "the move goes nowhere"
	}
	if c.moved[u.ID] {
		return "10.3", "one move a unit", fmt.Sprintf("%s has already moved this turn", u.ID)
	}
	if u.Type == "para" {
		return "8.11.3", "other units", "parachute units never move once dropped"
	}
	if u.Nation == "norwegian" && !s.Invaded {
		return "18", "after the invasion", "the Norwegians cannot use any unit until invaded"
	}
	if u.Blast > 0 {
		return "8.9.4.3", "next turn", fmt.Sprintf("%s is disorganised by a blast marker", u.ID)
	}
	if u.Landed == s.Turn && !u.Half {
		return "10.3.4", "next turn", fmt.Sprintf("%s landed this turn and cannot move beyond the landing zone", u.ID)
	}
	return "", "", ""
}

// checkPath validates each step of unit u's path: adjacent areas (2.2),
// not into Sweden (2.1), the 5th and 6th Divisions north of Dombas until
// the Allies land (17.1), and a stop on entering the enemy (10.3.2) or an
// interdicted area by road (10.3.6).
func (c *turnCtx) checkPath(u *Unit, path []string) (string, string, string) {
	s := c.s
	at := u.Loc
	for i, next := range path {
		k := edgeKind(at, next)
		if k == "" {
			return "2.2", "an adjacent area: " + strings.Join(data.Graph.Neighbors(at), ", "), fmt.Sprintf("%s is not adjacent to %s", next, at)
		}
		if next == "Sweden" {
			return "2.1", "an area in Norway", "Sweden is neutral"
		}
		if u.Nation == "norwegian" && (u.Div == "5 Div" || u.Div == "6 Div") && !s.AlliedLanded && data.Area(next).Lat < data.Area("Dombas").Lat {
			return "17.1", "areas from Dombas north", "the 5th and 6th Divisions cannot move south of Dombas until the Allied landing"
		}
		if enemyIn(s, next, c.x) && i != len(path)-1 {
			return "10.3.2", "stop in " + next, fmt.Sprintf("a unit must stop on entering %s, occupied by the enemy", next)
		}
		if (k == "road" || k == "rail") && s.marks(next) > 0 && i != len(path)-1 {
			return "10.3.6", "stop in " + next, fmt.Sprintf("interdiction in %s stops road movement", next)
		}
		at = next
	}
	return "", "", ""
}

// moveCost is what unit u's path costs in movement points (10.3: a strait
// 2), whether it goes all by road, and with high the point more to hold
// the higher ground (16.2.2) unless entered by road or railway (16.2.3).
func moveCost(u *Unit, path []string, high bool) (cost int, allRoad bool) {
	allRoad = true
	at := u.Loc
	for _, next := range path {
		k := edgeKind(at, next)
		if k == "strait" {
			cost += 2
		} else {
			cost++
		}
		if k == "cross" || k == "strait" {
			allRoad = false
		}
		at = next
	}
	if high && u.Type != "mtn" {
		prev := u.Loc
		if len(path) > 1 {
			prev = path[len(path)-2]
		}
		if k := edgeKind(prev, path[len(path)-1]); k != "road" && k != "rail" {
			cost++
		}
	}
	return cost, allRoad
}

// checkMoveEnd validates where unit u's move ends: an attack it may make,
// or, leaving an area it shares with the enemy, an area where it stays in
// supply (10.5.1).
func (c *turnCtx) checkMoveEnd(u *Unit, dest string) (string, string, string) {
	s, x := c.s, c.x
	if enemyIn(s, dest, x) {
		if rule, valid, msg := c.canAttack(u, dest); msg != "" {
			return rule, valid, msg
		}
	} else if s.rev().Has(LeaveOnlyIntoSupply) && enemyIn(s, u.Loc, x) && !u.OOS {
		// 10.5.1: units starting their movement sharing an area with the
		// enemy "may attack or move to another area ... where the unit
		// wouldn't be out of supply" (rules revision 2; revision 1 let
		// them go anywhere). A unit already out of supply there may move
		// one area wherever (7.5.1).
		there := *u
		there.Loc = dest
		if !supplied(s, &there) {
			return "10.5.1", "an area where it stays in supply, or an attack", fmt.Sprintf("%s leaves an area it shares with the enemy for %s, where it would be out of supply", u.ID, dest)
		}
	}
	return "", "", ""
}

func where(u *Unit) string {
	switch {
	case u.Fleet != "":
		return "aboard fleet " + u.Fleet
	case strings.HasPrefix(u.Loc, "Pending"):
		return "not yet arrived"
	}
	return "in " + u.Loc
}

// canAttack checks whether unit u may attack into area (7.5, 17.1, 18).
func (c *turnCtx) canAttack(u *Unit, area string) (string, string, string) {
	s := c.s
	if u.OOS {
		return "7.5", "a supplied unit", fmt.Sprintf("%s is out of supply and cannot attack", u.ID)
	}
	if u.Type == "supply" {
		return "7.7", "combat units", "supply units do not attack"
	}
	if u.Side == Allied && (area == "Narvik" || area == "Trondheim") && !s.AlliedLanded {
		return "17.1", "after the Franco-British landing", "the Allied cannot attack Narvik nor Trondheim until Franco-British units have landed"
	}
	if u.Side == Allied && s.rev().Has(NoEarlyPortAttack) && s.Turn < 6 && data.Area(area).Port != "" && s.controller(area) == German {
		// 18: "The Allied player cannot attack Norwegian ports controlled
		// by the Germans until the April 11th turn", by land as by sea
		// (rules revision 2; revision 1 barred only the landings).
		return "18", "turn 6 (11 April) or later", fmt.Sprintf("the Allied player cannot attack German-held %s before the April 11th turn (turn 6)", area)
	}
	return "", "", ""
}

// checkRail is 10.3.7.
func (c *turnCtx) checkRail(u *Unit, path []string) (string, string, string) {
	s, x := c.s, c.x
	limit := 6
	if x == German {
		limit = 4
	}
	if c.railUsed >= limit {
		return "10.3.7.2", fmt.Sprintf("at most %d units by rail", limit), "no more railroad movement this turn"
	}
	if !hasRail(u.Loc) || enemyIn(s, u.Loc, x) {
		return "10.3.7.2", "a start in a railway area free of enemy units", fmt.Sprintf("%s cannot start a rail move", u.Loc)
	}
	at := u.Loc
	for _, next := range append([]string{u.Loc}, path...) {
		if next != at && edgeKind(at, next) != "rail" {
			return "10.3.7", "a railway connection", fmt.Sprintf("no railway from %s to %s", at, next)
		}
		if next == "Sweden" {
			return "2.1", "an area in Norway", "Sweden is neutral"
		}
		if enemyIn(s, next, x) || s.marks(next) > 0 {
			return "10.3.7", "areas free of enemy units and interdiction", fmt.Sprintf("the railway through %s is cut", next)
		}
		if x == German && !contains(s.RailNet, next) {
			return "10.3.7.3", "areas behind the German railhead", fmt.Sprintf("%s is beyond the German railhead", next)
		}
		if x == Allied && s.controller(next) == German {
			return "10.3.7", "Allied-held railways", fmt.Sprintf("%s is German-held", next)
		}
		if u.Nation == "norwegian" && (u.Div == "5 Div" || u.Div == "6 Div") && !s.AlliedLanded && data.Area(next).Lat < data.Area("Dombas").Lat {
			return "17.1", "areas from Dombas north", "the 5th and 6th Divisions cannot move south of Dombas until the Allied landing"
		}
		at = next
	}
	return "", "", ""
}

func (c *turnCtx) execMove(o Order) {
	s, x := c.s, c.x
	u := s.unit(o.ID)
	path := o.Path
	if len(path) > 0 && path[0] == u.Loc {
		path = path[1:]
	}
	from := u.Loc
	c.moved[u.ID] = true
	if o.Verb == "rail" {
		c.railUsed++
	}
	u.Strait = false
	at := u.Loc
	for _, next := range path {
		if edgeKind(at, next) == "strait" {
			u.Strait = true
		} else {
			u.Strait = false
		}
		at = next
		if !enemyIn(s, next, x) {
			captureBy(s, next, x, u.ID)
		}
	}
	u.Loc = at
	u.High = o.Flag == "high"
	c.enter(at)
	if enemyIn(s, at, x) {
		c.mustAttack[at] = true
	}
	if !c.dry() {
		how := "moves"
		if o.Verb == "rail" {
			how = "moves by rail"
		}
		s.log("10.3", "%s %s from %s to %s", u.ID, how, from, at)
	}
}

func (c *turnCtx) checkAttack(o Order) (string, string, string) {
	s, x := c.s, c.x
	if !enemyIn(s, o.To, x) {
		return "10.5", "an area with enemy units", fmt.Sprintf("no enemy units in %s", o.To)
	}
	own := s.combatIn(o.To, x)
	landing := false
	if s.rev().Has(LandingAttackRetreat) {
		// 9.16, 10.5.6: the troops landing at an enemy-held port this
		// turn fight there, beside any already there (paratroops dropped
		// on it this turn, 8.11); their attack order names the retreat.
		if force := c.landingForce(o.To); len(force) > 0 {
			landing = true
			for _, u := range force {
				if !containsUnit(own, u.ID) {
					own = append(own, u)
				}
			}
		}
	}
	if len(own) == 0 {
		valid := "an area your units occupy after moving"
		if s.rev().Has(LandingAttackRetreat) {
			valid += ", or a port your fleets land troops at this turn"
		}
		return "10.5", valid, fmt.Sprintf("none of your units is in %s", o.To)
	}
	if c.attackAt[o.To] != nil {
		return "10.5", "one attack an area", fmt.Sprintf("a second attack on %s", o.To)
	}
	for _, id := range o.Units {
		if u := s.unit(id); !s.rev().Has(LandingWithParatroops) && (u == nil || u.Side != x || u.Loc != o.To || u.Dead) {
			return "10.5", "your units in " + o.To, fmt.Sprintf("%s is not in %s", id, o.To)
		}
		if s.rev().Has(LandingWithParatroops) && !containsUnit(own, id) {
			var names []string
			for _, u := range own {
				names = append(names, u.ID)
			}
			return "10.5", "attack " + o.To + " with " + strings.Join(names, " "), fmt.Sprintf("%s is not in %s, nor landing there this turn", id, o.To)
		}
	}
	ok := false
	for _, u := range own {
		if rule, valid, msg := c.canAttack(u, o.To); msg != "" {
			if contains(o.Units, u.ID) {
				return rule, valid, msg
			}
			continue
		}
		if u.Nation == "norwegian" && !s.Invaded {
			return "18", "after the invasion", "the Norwegians cannot use any unit until invaded"
		}
		ok = true
	}
	if !ok {
		return "7.5", "supplied units", "none of your units there may attack"
	}
	if s.rev().Has(RetreatTowardSupply) {
		return c.checkRetreatChoice(o, landing)
	}
	if o.Flag != "" && edgeKind(o.To, o.Flag) == "" {
		return "10.5.6", "an area adjacent to " + o.To, fmt.Sprintf("%s is not adjacent to %s", o.Flag, o.To)
	}
	return "", "", ""
}

// landingForce are the combat units aboard side x's fleets that entered
// the enemy port box of area this turn, to land there (9.16).
func (c *turnCtx) landingForce(area string) []*Unit {
	s := c.s
	if s.controller(area) == c.x {
		return nil
	}
	var out []*Unit
	for _, f := range s.Fleets {
		if f.Side != c.x || f.Where != area || !c.fleetMoved[f.ID] {
			continue
		}
		for _, id := range f.Cargo {
			if u := s.unit(id); u != nil && !u.Dead && u.Type != "supply" {
				out = append(out, u)
			}
		}
	}
	return out
}

func containsUnit(us []*Unit, id string) bool {
	for _, u := range us {
		if u.ID == id {
			return true
		}
	}
	return false
}

// checkBuild validates starting works: a supplied unit of the player's on
// the map that does nothing else, away from the enemy (13.3.1), then the
// work's own rules.
func (c *turnCtx) checkBuild(o Order) (string, string, string) {
	s, x := c.s, c.x
	u := s.unit(o.ID)
	if u == nil || u.Side != x || u.Dead || !data.Graph.Has(u.Loc) || u.Fleet != "" {
		return "13.3.1", "one of your units on the map", fmt.Sprintf("no unit %s of yours on the map", o.ID)
	}
	if c.moved[u.ID] {
		return "13.3.1", "a unit that does nothing else", fmt.Sprintf("%s moved this turn", u.ID)
	}
	if u.OOS {
		return "13.3.1", "a supplied unit", fmt.Sprintf("%s is out of supply", u.ID)
	}
	if enemyIn(s, u.Loc, x) {
		return "13.3.1", "an area free of enemy units", "works cannot start under attack"
	}
	switch o.Kind {
	case "fieldwork", "fortify":
		return c.checkFieldwork(o, u)
	case "repair":
		return c.checkRepair(u)
	}
	return "", "", ""
}

// checkFieldwork validates a fieldwork or fort: built by infantry other
// than paratroops (13.3.1, 13.3.5), a fort in a city (14.2), one of a kind
// an area (14.3), and the German pays half a supply point (13.3.1).
func (c *turnCtx) checkFieldwork(o Order, u *Unit) (string, string, string) {
	s, x := c.s, c.x
	if u.Type == "para" {
		return "13.3.5", "an infantry unit other than paratroops", "parachute units cannot build fieldworks"
	}
	if u.Type != "inf" && u.Type != "mtn" && u.Type != "eng" {
		return "13.3.1", "an infantry unit", fmt.Sprintf("%s is not infantry", u.ID)
	}
	if o.Kind == "fortify" && data.Area(u.Loc).City < 0 {
		return "14.2", "a city", fmt.Sprintf("%s has no city", u.Loc)
	}
	if s.work(u.Loc, o.Kind, x) != nil {
		return "14.3", "one work of a kind an area", fmt.Sprintf("%s already has one", u.Loc)
	}
	if x == German {
		half := 0
		for _, sup := range s.unitsIn(u.Loc, x) {
			if sup.Type == "supply" {
				half += sup.Steps
			}
		}
		if half == 0 {
			return "13.3.1", "half a supply unit in the area", "the German pays half a supply point for a fieldwork"
		}
	}
	return "", "", ""
}

// checkRepair validates a repair: a captured strongpoint by infantry
// (13.2.2) or an inoperative battery by engineers (15.3.2).
func (c *turnCtx) checkRepair(u *Unit) (string, string, string) {
	s, x := c.s, c.x
	sp := s.strongpoint(u.Loc)
	if sp != nil && sp.Owner == x && !sp.Usable {
		if u.Type != "inf" && u.Type != "mtn" && u.Type != "eng" {
			return "13.2.2", "an infantry unit", "strongpoints are repaired by infantry"
		}
		return "", "", ""
	}
	for _, b := range s.Bats {
		if b.Area == u.Loc && b.Owner == x && b.Status == "inoperative" {
			if u.Type != "eng" {
				return "15.3.2", "an engineer unit", "coastal batteries are repaired by engineers"
			}
			return "", "", ""
		}
	}
	return "13.2.2", "a captured strongpoint or an inoperative battery of yours", "nothing to repair in " + u.Loc
}
