package kriegsmarine

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// MoraleTable is the Norwegian Morale Table (PAC #3, 9.3), 1d6 for each
// Norwegian unit: true means it fights, false that it surrenders. Source:
// reconstructed — the chart is not transcribed; in April 1940 Norge and
// Eidsvold fought at Narvik and the ships at Horten were taken.
var MoraleTable = engine.MustTable("Norwegian Morale Table",
	engine.TableRow[bool]{Lo: 1, Hi: 3, Result: false},
	engine.TableRow[bool]{Lo: 4, Hi: 6, Result: true},
)

// norwegianDefence is the start of step 2 of the combat phase where German
// surface ships reached a Norwegian port held by Norwegian ships (9.3):
// each Norwegian unit not yet tried in battle rolls on the morale table;
// those that fight meet the Germans for one round (9.31), after which
// they must leave the port.
func (s *State) norwegianDefence(dice engine.Dice) {
	for _, p := range norwegianPorts() {
		if s.occupation("port", p.Port) >= 0 {
			continue
		}
		german := s.onMap(German, p.Hex, func(d *UnitDef) bool { return d.Surface() })
		if len(german) == 0 {
			continue
		}
		var fighters []string
		var out []string
		for _, id := range s.onMap(Allied, p.Hex, func(d *UnitDef) bool { return d.Surface() && d.Nation == "NO" }) {
			if s.unit(id).Resolute {
				fighters = append(fighters, id)
				continue
			}
			roll := dice.Roll(6, "Norwegian morale (9.3)")
			if MoraleTable.Lookup(roll) {
				fighters = append(fighters, id)
				out = append(out, fmt.Sprintf("%s rolls %d and fights", def(id).Name, roll))
			} else {
				s.unit(id).Where = AtOut
				out = append(out, fmt.Sprintf("%s rolls %d and surrenders", def(id).Name, roll))
			}
		}
		if len(out) > 0 {
			s.logf("both", "combat", p.Hex.String(), "9.3", "Norwegian morale at %s: %s.", p.Port, strings.Join(out, "; "))
		}
		if len(fighters) == 0 {
			continue
		}
		already := false
		for _, g := range s.Engagements {
			if g.Turn == s.Turn && g.Hex == p.Hex {
				already = true
			}
		}
		if !already {
			s.Engagements = append(s.Engagements, Engagement{Turn: s.Turn, Hex: p.Hex, Kind: ResEngage, Allied: sortedIDs(fighters), German: sortedIDs(german), Norwegian: true})
		}
	}
}

// norwegianWithdrawal: after one round Norwegian ships that have not proved
// themselves withdraw from the port (9.31), and survivors of the invasion
// turn fight on like Allied ships thereafter (9.32).
func (s *State) norwegianWithdrawal(g *Engagement) {
	for _, id := range g.Allied {
		u := s.unit(id)
		if def(id).Nation != "NO" || u.Where != AtMap {
			continue
		}
		if s.Turn == s.InvasionTurn {
			u.Resolute = true // 9.32
		}
		if u.Resolute && s.Turn != s.InvasionTurn {
			continue
		}
		from := u.Hex
		s.leavePort(id, "9.31")
		// 9.31: "If the port city is Oslo, the Norwegian ships must
		// withdraw to a hex outside the Oslo outer fortress" (revision 1
		// left them on it).
		if oslo, _ := portHex("Oslo"); from == oslo && u.Hex != oslo && s.rev().Has(WithdrawBeyondOsloOuter) {
			if h, ok := beyondOsloOuter(); ok {
				u.Hex = h
				s.ownMovef(Allied, h.String(), "9.31", "%s withdraws beyond the Oslo outer fortress to %s.", def(id).Name, h)
			}
		}
		if s.rev().Has(WithdrawalToldOwner) && u.Where == AtMap && u.Hex != from {
			s.logf(string(German), "move", "", "9.31", "%s withdraws from %s; the Norwegian withdrawal may not be tracked.", def(id).Name, placeName(from))
		}
	}
}

// placeName is the port in hex h, or the hex.
func placeName(h engine.Hex) string {
	if hi, ok := TheMap().Info(h); ok && hi.Port != "" {
		return hi.Port
	}
	return h.String()
}

// leavePort moves a ship one hex out of its port, to the first hex (in
// direction order) it may enter that is not a port.
func (s *State) leavePort(id, rule string) {
	u := s.unit(id)
	d := def(id)
	for _, n := range u.Hex.Neighbors() {
		hi, ok := TheMap().Info(n)
		if !ok || hi.Port != "" {
			continue
		}
		if r, _ := crossable(d.Sub(), u.Hex, n); r != "" {
			continue
		}
		if r, _ := enterable(d.Side, d.Nation, d.Sub(), n, s.Turn, s.intervention()); r != "" {
			continue
		}
		from := u.Hex
		u.Hex = n
		s.ownMovef(d.Side, n.String(), rule, "%s leaves %s for %s.", d.Name, from, n)
		return
	}
}

// moraleOnOccupation: when Germany takes a port, every Norwegian ship in it
// tests morale again: it surrenders, or leaves the port at once (8.8).
func (s *State) moraleOnOccupation(p engine.Hex, dice engine.Dice) {
	for _, id := range s.onMap(Allied, p, func(d *UnitDef) bool { return d.Surface() && d.Nation == "NO" }) {
		roll := dice.Roll(6, "Norwegian morale on occupation (8.8)")
		if MoraleTable.Lookup(roll) {
			s.logf("both", "combat", p.String(), "8.8", "%s rolls %d and fights on: it leaves the port.", def(id).Name, roll)
			s.leavePort(id, "8.8")
		} else {
			s.unit(id).Where = AtOut
			s.logf("both", "combat", p.String(), "8.8", "%s rolls %d and surrenders.", def(id).Name, roll)
		}
	}
}
