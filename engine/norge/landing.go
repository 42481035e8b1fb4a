package norge

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// landingPort is the port a naval unit may disembark at (12.1-12.4).
func landingPort(s *State, sh *Ship) (*PortInfo, *problem) {
	if sh.Kind != "convoy" && !(sh.Kind == "bs" && sh.Side == German) {
		return nil, fail("12.2", "a convoy (or a German battleship of the set-up)", "%s cannot disembark troops", sh.ID)
	}
	if !sh.onMap() {
		return nil, fail("12.1", "a unit in a port", "%s is not on the board", sh.ID)
	}
	retry := retrying(s, sh)
	if len(sh.Cargo) == 0 && !retry {
		return nil, fail("12.1", "a loaded unit", "%s carries no troops", sh.ID)
	}
	if sh.Kind == "bs" && sh.Exited > 0 {
		return nil, fail("12.2", "a convoy", "%s has been home: battleships land troops only on their first voyage", sh.ID)
	}
	port := portOfNode(sh.Loc)
	if port == nil {
		return nil, fail("12.1", "a port hex or the fjord hex of Arendal or Namsos", "%s at %s is not in a port", sh.ID, sh.Loc)
	}
	if s.occupant(port.Hex) == enemy(sh.Side) {
		return nil, fail("12.4", "a port without enemy units", "%s is occupied by the enemy", port.Name)
	}
	if s.rev().Has(NoLandingOnHeldQuays) && !retry && s.occupant(port.Quay) == enemy(sh.Side) {
		return nil, fail("12.1", "a port whose quays hex holds no enemy units", "the quays hex %s of %s holds enemy units", port.Quay, port.Name)
	}
	if usesPort(s, sh) && containsStr(s.PortUse, fmt.Sprintf("%d:%s", s.Turn, port.Name)) {
		return nil, fail("11.4", "one convoy a port a turn", "a convoy has already used %s this turn", port.Name)
	}
	return port, nil
}

// usesPort says whether sh's landing or embarking is the one a port allows
// a turn (11.4: "only 1 convoy in each port"): every naval unit's in
// revision 1, only a convoy's from revision 2.
func usesPort(s *State, sh *Ship) bool {
	return !s.rev().Has(BattleshipOwnLanding) || sh.Kind == "convoy"
}

// ashore lists the troops of sh's failed landing still on the quays hex of
// the port sh is in (12.2, from revision 2).
func ashore(s *State, sh *Ship) []*Unit {
	port := portOfNode(sh.Loc)
	if port == nil || !sh.onMap() {
		return nil
	}
	var out []*Unit
	for _, id := range sh.Ashore {
		if u := s.unit(id); u.Loc == port.Quay {
			out = append(out, u)
		}
	}
	return out
}

// ashoreNames are the names of ashore(s, sh).
func ashoreNames(s *State, sh *Ship) string {
	var ids []string
	for _, u := range ashore(s, sh) {
		ids = append(ids, u.ID)
	}
	return strings.Join(ids, " ")
}

// retrying says whether a disembark order of sh is a battleship's new
// attempt for the troops its failed landing left on the quays on an
// earlier turn (12.2: "Next turn they may try again", from revision 2).
func retrying(s *State, sh *Ship) bool {
	if !s.rev().Has(BattleshipLandingQuays) || sh.Kind != "bs" || len(sh.Cargo) > 0 {
		return false
	}
	us := ashore(s, sh)
	for _, u := range us {
		if u.Landed == s.Turn {
			return false
		}
	}
	return len(us) > 0
}

func portOfNode(node string) *PortInfo {
	n := data.node(node)
	if n == nil {
		return nil
	}
	if n.Kind == "port" {
		return data.port(n.Name)
	}
	if n.Port != "" {
		return data.port(n.Port)
	}
	return nil
}

func embarkPort(s *State, sh *Ship) (*PortInfo, *problem) {
	if port, pr := reembarkPort(s, sh); port != nil || pr != nil {
		return port, pr
	}
	if sh.Kind != "convoy" {
		return nil, fail("12.8", "a convoy", "only convoys embark troops")
	}
	if sh.Reduced {
		return nil, fail("11.1", "a convoy that is not reduced", "%s is reduced", sh.ID)
	}
	port := portOfNode(sh.Loc)
	if !sh.onMap() || port == nil {
		return nil, fail("12.8", "a convoy in a port", "%s is not in a port", sh.ID)
	}
	if containsStr(s.PortUse, fmt.Sprintf("%d:%s", s.Turn, port.Name)) {
		return nil, fail("11.4", "one convoy a port a turn", "a convoy has already used %s this turn", port.Name)
	}
	return port, nil
}

// reembarkPort is the port where a naval unit takes back the troops its
// failed landing left on the quays, which it may only when the enemy has
// occupied the port (12.2: "If this is the case the reduced battleship
// embarks the reduced units on the quays"; 12.3: "Same rules as for
// battleships"), from revision 2. It is nil, nil when sh has no troops
// ashore there, or is a full convoy, which embarks as any convoy (12.8).
func reembarkPort(s *State, sh *Ship) (*PortInfo, *problem) {
	if !s.rev().Has(ConvoyLandingQuays) || len(ashore(s, sh)) == 0 {
		return nil, nil
	}
	port := portOfNode(sh.Loc)
	if !reembarking(s, sh) {
		if sh.Kind == "bs" {
			return nil, fail("12.2", "disembark "+sh.ID+" to try the landing again", "%s takes its troops back from the quays only once the enemy has occupied %s", sh.ID, port.Name)
		}
		if sh.Reduced {
			return nil, fail("12.2", "an embark order once the enemy has occupied "+port.Name, "the reduced %s takes its troops back from the quays only once the enemy has occupied %s", sh.ID, port.Name)
		}
		return nil, nil
	}
	if usesPort(s, sh) && containsStr(s.PortUse, fmt.Sprintf("%d:%s", s.Turn, port.Name)) {
		return nil, fail("11.4", "one convoy a port a turn", "a convoy has already used %s this turn", port.Name)
	}
	return port, nil
}

// reembarking says whether sh takes back the troops of its failed landing
// (see reembarkPort): only those may then go aboard.
func reembarking(s *State, sh *Ship) bool {
	if !s.rev().Has(ConvoyLandingQuays) || len(ashore(s, sh)) == 0 {
		return false
	}
	return s.occupant(portOfNode(sh.Loc).Hex) == enemy(sh.Side)
}

// disembark lands a naval unit's troops (12.2-12.5).
func disembark(s *State, sh *Ship, d engine.Dice) {
	port, pr := landingPort(s, sh)
	if pr != nil {
		s.logf(sh.Side, "%s cannot land at its port: %s", sh.ID, pr.msg)
		return
	}
	retry := retrying(s, sh)
	if usesPort(s, sh) {
		s.PortUse = append(s.PortUse, fmt.Sprintf("%d:%s", s.Turn, port.Name))
	}
	ok := true
	switch {
	case s.rev().Has(BattleshipOwnPortLanding) && s.controller(port.Name) == sh.Side:
		// 12.5 "always successful", for battleships too from revision 2
		sh.Tried = sh.Tried || sh.Kind == "bs"
		s.logf("", "%s %s disembarks at %s, a port under own control (12.5)", sh.Side, sh.ID, port.Name)
	case sh.Kind == "bs":
		sh.Tried = true
		need := 5
		if port.Name == "Oslo" {
			need = 4
		}
		r := d.Roll(6, "German landing from "+sh.ID+" at "+port.Name+" (12.2)")
		ok = r <= need
		s.logf("", "German landing at %s from %s: die %d, %s (12.2: 1-%d succeeds)", port.Name, sh.ID, r, okText(ok), need)
	case s.controller(port.Name) != sh.Side:
		r := d.Roll(6, "convoy disembarkation at "+port.Name+" (12.3)")
		ok = r <= 3
		s.logf("", "%s %s disembarks at %s: die %d, %s (12.3: 1-3 succeeds)", sh.Side, sh.ID, port.Name, r, okText(ok))
	default:
		s.logf("", "%s %s disembarks at %s, a port under own control (12.5)", sh.Side, sh.ID, port.Name)
	}
	switch {
	case !ok && s.rev().Has(BattleshipLandingQuays):
		failedLanding(s, sh, port, retry)
		return
	case !ok:
		damageShip(s, sh, false)
		return
	case retry:
		var ids []string
		for _, u := range ashore(s, sh) {
			u.Landed = s.Turn
			moveUnit(s, u, port.Hex)
			ids = append(ids, u.ID)
		}
		sh.Ashore = nil
		s.logf("", "the troops of %s go from the quays into %s: %s (12.2)", sh.ID, port.Hex, strings.Join(ids, " "))
		return
	}
	to := port.Quay
	if sh.Kind == "bs" {
		to = port.Hex
	}
	var landed []string
	for _, id := range sh.Cargo {
		u := s.unit(id)
		u.Landed = s.Turn
		moveUnit(s, u, to)
		landed = append(landed, id)
	}
	sh.Cargo = nil
	s.logf("", "%s lands on %s: %s", sh.ID, to, strings.Join(landed, " "))
}

// failedLanding is a landing that failed, from revision 2: "the naval unit
// and units on the quays hex are reduced" (12.2, and for convoys 12.3).
// The troops are on the quays hex, where disembarking units are placed
// (12.1): those coming off the ship now are put there first, a new
// attempt's are there already. A reduced unit reduced again is sunk or
// eliminated (10.8). The survivors may try again from the next turn
// (12.2), or go back aboard once the enemy holds the port.
func failedLanding(s *State, sh *Ship, port *PortInfo, retry bool) {
	var troops []*Unit
	if retry {
		troops = ashore(s, sh)
	} else {
		for _, id := range sh.Cargo {
			u := s.unit(id)
			u.Loc, u.Landed = port.Quay, s.Turn
			troops = append(troops, u)
		}
		sh.Cargo = nil
	}
	damageShip(s, sh, false)
	var left []string
	for _, u := range troops {
		if reduceUnit(s, u) {
			left = append(left, u.ID)
		}
	}
	sh.Ashore = nil
	if !sh.Sunk {
		sh.Ashore = left
	}
	if len(left) > 0 {
		s.logf("", "%s %s: the troops are on the quays hex %s, reduced: %s (12.2)", sh.Side, sh.ID, port.Quay, strings.Join(left, " "))
	}
}

func okText(ok bool) string {
	if ok {
		return "success"
	}
	return "failure"
}

// aboardLanding is the problem of a move, ferry or attack order for a unit
// aboard a naval unit in port in a land phase: it lands this turn (the
// battleships' turn-1 landings are made by themselves, a convoy's by its
// disembark order), and units may "NOT be moved or attack in the turn
// they have disembarked" (12.7). Nil for a unit ashore.
func aboardLanding(s *State, u *Unit) *problem {
	if !strings.HasPrefix(u.Loc, shipPrefix) {
		return nil
	}
	sh := s.ship(strings.TrimPrefix(u.Loc, shipPrefix))
	if sh == nil || !sh.onMap() || portOfNode(sh.Loc) == nil {
		return nil
	}
	return fail("12.7", movableUnits(s, u.Side), "%s is aboard %s at %s: a unit landing this turn neither moves nor attacks before the next turn", u.ID, sh.ID, portOfNode(sh.Loc).Name)
}

// movableUnits lists side's units that may move or attack this phase,
// but those named in but.
func movableUnits(s *State, side engine.Side, but ...string) string {
	var n []string
	for _, u := range s.Units {
		if u.Side == side && onHex(u.Loc) && u.Landed != s.Turn && u.Dropped != s.Turn && !containsStr(but, u.ID) {
			n = append(n, u.ID)
		}
	}
	if len(n) == 0 {
		return "none: no unit of yours is ashore since an earlier turn"
	}
	return "units ashore since an earlier turn: " + engine.CutList(n, 0)
}
