package kriegsmarine

import (
	"slices"
	"strings"

	"skagerrak/engine"
)

// OptWehrmacht is the option of 17.15.
const OptWehrmacht = "wehrmacht"

// wehrmachtTurns are the turns a Wehrmacht infantry marker may be placed
// (17.15).
var wehrmachtTurns = []int{14, 16}

// wehrmacht places the Wehrmacht infantry marker at the start of turn 14
// or 16 in Oslo (German ships in Oslo or at the Oslo outer fortress) or
// Kristiansand (German ships there), which it occupies (17.15). The
// scripted choice, standing for the German player's, is the first city
// Germany does not hold yet, Oslo before Kristiansand.
func (s *State) wehrmacht(dice engine.Dice) {
	if !s.has(OptWehrmacht) || s.WehrmachtPlaced || !containsInt(wehrmachtTurns, s.Turn) {
		return
	}
	type site struct {
		port  string
		hexes []string
	}
	for _, c := range []site{{"Oslo", []string{"I16", "H16"}}, {"Kristiansand", []string{"E14"}}} {
		if s.occupation("port", c.port) >= 0 || s.alliedHeld(c.port) {
			continue
		}
		present := false
		for _, hs := range c.hexes {
			h, _ := engine.ParseHex(hs)
			if len(s.onMap(German, h, func(d *UnitDef) bool { return d.Surface() })) > 0 {
				present = true
			}
		}
		if !present {
			continue
		}
		s.WehrmachtPlaced = true
		h, _ := portHex(c.port)
		s.logf("both", "occupation", h.String(), "17.15", "Wehrmacht infantry arrive at %s.", c.port)
		s.occupyPort(c.port, dice)
		return
	}
}

func containsInt(list []int, x int) bool {
	return slices.Contains(list, x)
}

// DanishResistance: when Germany invades Norway the Allies roll 1d6 and on
// a 1 Denmark resists (17.3). The Danish ships appear at Frederikshavn; with
// the German standing order "schlesien" Schlesien comes too and fights one
// round (17.31 option 1); otherwise the Danes wait a turn (option 2).
func (s *State) danishResistance(orders map[engine.Side]*Orders, dice engine.Dice) {
	if !s.has(OptDanish) || s.InvasionTurn != s.Turn || s.DanishRoll != 0 {
		return
	}
	s.DanishRoll = dice.Roll(6, "Danish resistance (17.3)")
	if s.DanishRoll != 1 {
		s.logf("allied", "setup", "", "17.3", "Danish resistance: rolled %d; Denmark does not resist.", s.DanishRoll)
		return
	}
	fh, ok := portHex("Frederikshavn")
	if !ok {
		return
	}
	var danes []string
	for _, id := range []string{"pederskram", "danishtbflot1"} {
		u := s.unit(id)
		u.Where, u.Hex = AtMap, fh
		danes = append(danes, id)
	}
	s.logf("both", "setup", fh.String(), "17.3", "Denmark resists strongly (rolled 1): the Danish ships are at Frederikshavn.")
	if orders[German].Schlesien {
		u := s.unit("schlesien")
		u.Where, u.Hex = AtMap, fh
		s.Engagements = append(s.Engagements, Engagement{Turn: s.Turn, Hex: fh, Kind: ResEngage, Allied: danes, German: []string{"schlesien"}, Danish: true})
		s.DanesFrom = s.Turn + 1
		s.logf("both", "setup", fh.String(), "17.31", "Schlesien comes to Frederikshavn and fights the Danes for one round; the Allies command the survivors from turn %d.", s.Turn+1)
	} else {
		s.DanesFrom = s.Turn + 1
		s.logf("both", "setup", fh.String(), "17.31", "The Danish ships may not move this turn; the Allies command them from turn %d.", s.Turn+1)
	}
}

// qShips: a Q-ship sharing a hex with Allied surface ships reveals itself
// and fires its gun at one of them (17.7).
func (s *State) qShips(dice engine.Dice) {
	q := s.unit("qships")
	if q == nil || q.Where != AtMap {
		return
	}
	enemies := s.visibleAt(Allied, q.Hex)
	if len(enemies) == 0 {
		return
	}
	t := weakest(s, enemies)
	var out []string
	for _, r := range s.fire("qships", t, s.gunnery("qships"), q.Hex, dice) {
		if x := s.damage(t, r); x != "" {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		out = append(out, "no damage")
	}
	s.logf("both", "combat", q.Hex.String(), "17.7", "German Q-ships at %s unmask and fire at %s: %s.", q.Hex, def(t).Name, strings.Join(out, "; "))
}
