package kriegsmarine

import (
	"sort"

	"skagerrak/engine"
)

// PortTable is the Port City Occupation Table (PAC #3, 9.43), rolled with
// 1d6: "retreat", "later" (occupation after 2 turns) or "occupied".
// Source: reconstructed — the chart is not transcribed; a landing in force
// usually succeeds.
var PortTable = engine.MustTable("Port City Occupation Table",
	engine.TableRow[string]{Lo: 1, Hi: 1, Result: "retreat"},
	engine.TableRow[string]{Lo: 2, Hi: 3, Result: "later"},
	engine.TableRow[string]{Lo: 4, Hi: 6, Result: "occupied"},
)

// norwegianPorts are the six Norwegian port cities (16.2), in map order.
func norwegianPorts() []HexInfo {
	var out []HexInfo
	for _, p := range TheMap().Ports() {
		if p.HasCountry("NO") {
			out = append(out, p)
		}
	}
	return out
}

func (s *State) occupation(kind, place string) int {
	for i, o := range s.Occupied {
		if o.Kind == kind && o.Place == place {
			return i
		}
	}
	return -1
}

// airfieldUsable is the first turn German aircraft may use an airfield
// occupied on turn occ: the next turn if snow-free (9.621); after two day
// turns of snow clearing otherwise, counted from occ, at the next day turn
// (9.622 example: occupied at noon on 9 April, usable the morning of 10 April).
func airfieldUsable(occ int, snowFree bool) int {
	if snowFree {
		return occ + 1
	}
	t, n := occ, 0
	for n < 2 {
		if IsDay(t) {
			n++
		}
		t++
	}
	for !IsDay(t) {
		t++
	}
	return t
}

// occupyPort makes a port German now and its neighbouring airfields from
// the next turn (9.43, 9.51; Bardufoss by its own die roll, 5.13).
func (s *State) occupyPort(name string, dice engine.Dice) {
	s.occupyPortAt(name, s.Turn+1, dice)
}

// occupyPortAt makes a port German now and its neighbouring airfields from
// turn airTurn.
func (s *State) occupyPortAt(name string, airTurn int, dice engine.Dice) {
	h, ok := portHex(name)
	if !ok || s.occupation("port", name) >= 0 {
		return
	}
	s.Occupied = append(s.Occupied, Occupation{Kind: "port", Place: name, Hex: h.String(), Turn: s.Turn})
	s.logf("both", "occupation", h.String(), "9.43", "Germany occupies %s.", name)
	s.moraleOnOccupation(h, dice)
	for _, af := range TheMap().Airfields() {
		if af.Airfield.Country != "NO" || af.Hex.Distance(h) > 1 || af.Airfield.Name == "Bardufoss" || s.occupation("airfield", af.Airfield.Name) >= 0 {
			continue
		}
		s.Occupied = append(s.Occupied, Occupation{Kind: "airfield", Place: af.Airfield.Name, Hex: af.Hex.String(), Turn: airTurn, Usable: airfieldUsable(airTurn, af.Airfield.SnowFree)})
		// 9.51: aircraft on an occupied airfield are removed.
		for i := range s.Units {
			u := &s.Units[i]
			if def(u.ID).Air && def(u.ID).Side == Allied && u.Where == AtBase && u.Base == af.Airfield.Name {
				u.Where = AtSunk
			}
		}
	}
	sort.Slice(s.Occupied, func(i, j int) bool {
		if s.Occupied[i].Kind != s.Occupied[j].Kind {
			return s.Occupied[i].Kind > s.Occupied[j].Kind
		}
		return s.Occupied[i].Place < s.Occupied[j].Place
	})
}

// portPhase is step 6 of the combat phase (8.8, 9.4): German attempts on
// Norwegian ports with at least 2 surface units, and ports lost for want of
// a German ship (9.44).
func (s *State) portPhase(dice engine.Dice) {
	for _, p := range norwegianPorts() {
		german := s.onMap(German, p.Hex, func(d *UnitDef) bool { return d.Surface() && d.Type != "AO" })
		if i := s.occupation("port", p.Port); i >= 0 {
			if len(german) == 0 && !s.airborneHolds(p.Hex) {
				s.Occupied = append(s.Occupied[:i], s.Occupied[i+1:]...)
				s.logf("both", "occupation", p.Hex.String(), "9.44", "No German ship is left in %s: it is held by neither side.", p.Port)
			}
			continue
		}
		if i := s.occupation("pending", p.Port); i >= 0 {
			if len(german) == 0 {
				s.Occupied = append(s.Occupied[:i], s.Occupied[i+1:]...)
				s.logf("both", "occupation", p.Hex.String(), "9.43", "The German occupation of %s lapses: no German ship stayed.", p.Port)
			}
			continue
		}
		if len(german) < 2 {
			continue
		}
		if s.alliedHeld(p.Port) {
			s.logf("both", "occupation", p.Hex.String(), "11.1", "German attempt on %s: the Wilfred Force holds it; the attempt fails.", p.Port)
			continue
		}
		roll := dice.Roll(6, "port city occupation (9.43)")
		switch PortTable.Lookup(roll) {
		case "occupied":
			s.logf("both", "occupation", p.Hex.String(), "9.43", "German attempt on %s: rolled %d, occupation.", p.Port, roll)
			s.occupyPort(p.Port, dice)
		case "later":
			s.Occupied = append(s.Occupied, Occupation{Kind: "pending", Place: p.Port, Hex: p.Hex.String(), Turn: s.Turn + 2})
			s.logf("both", "occupation", p.Hex.String(), "9.43", "German attempt on %s: rolled %d, occupation after 2 turns (turn %d) if a German ship stays.", p.Port, roll, s.Turn+2)
		default:
			s.repulse(p, roll, german)
		}
	}
}

// repulse is the "retreat" of the Port City Occupation Table (9.43): "All
// German surface ships in the port city hex retreat 1 hex (if the port is
// Oslo, they retreat a further hex to outside the Oslo outer fortress)".
// Revision 1 stopped them one hex out of Oslo, on the outer fortress.
func (s *State) repulse(p HexInfo, roll int, german []string) {
	further := p.Port == "Oslo" && s.rev().Has(RepulseBeyondOsloOuter)
	if further {
		s.logf("both", "occupation", p.Hex.String(), "9.43", "German attempt on %s: rolled %d, repulsed: the German ships fall back 1 hex, and a further hex beyond the Oslo outer fortress.", p.Port, roll)
	} else {
		s.logf("both", "occupation", p.Hex.String(), "9.43", "German attempt on %s: rolled %d, repulsed: the German ships fall back 1 hex.", p.Port, roll)
	}
	back, ok := snap(p.Hex, func(h engine.Hex) bool {
		hi, _ := TheMap().Info(h)
		return h != p.Hex && h.Distance(p.Hex) == 1 && TheMap().ShipCanCross(p.Hex, h) && hi.Port == ""
	})
	if !ok {
		return
	}
	if beyond, found := beyondOsloOuter(); further && found {
		back = beyond
	}
	for _, id := range german {
		s.unit(id).Hex = back
	}
}

// beyondOsloOuter is the hex one beyond the Oslo outer fortress for a ship
// leaving Oslo (9.21, 9.31, 9.43): the first neighbour of the outer
// fortress's hex, in direction order, that a ship may cross into and that
// holds neither a port nor a fortress (G17).
func beyondOsloOuter() (engine.Hex, bool) {
	for _, f := range TheMap().Fortresses() {
		if f.Port != "" || fortressPort(f) != "Oslo" {
			continue
		}
		for _, n := range f.Hex.Neighbors() {
			hi, ok := TheMap().Info(n)
			if ok && hi.Port == "" && hi.Fortress == "" && TheMap().ShipCanCross(f.Hex, n) {
				return n, true
			}
		}
	}
	return engine.Hex{}, false
}

// pendingOccupations carries out "occupation after 2 turns" at the start of
// the turn it falls due (9.43), and the Bardufoss roll (5.13, 9.51).
func (s *State) pendingOccupations(dice engine.Dice) {
	for {
		engine.Step(dice, "pending occupations (9.43)")
		i := -1
		for j, o := range s.Occupied {
			if o.Kind == "pending" && o.Turn <= s.Turn {
				i = j
				break
			}
		}
		if i < 0 {
			break
		}
		name := s.Occupied[i].Place
		s.Occupied = append(s.Occupied[:i], s.Occupied[i+1:]...)
		// 9.43: "At the start of the turn on which the occupation marker
		// is placed, the port city, the fortress in that city and the
		// adjacent airfields are all occupied by Germany" (rules revision
		// 2; revision 1 took the airfields a turn later, as after a port
		// taken in step 6).
		airTurn := s.Turn + 1
		if s.rev().Has(AirfieldsWithPort) {
			airTurn = s.Turn
		}
		s.occupyPortAt(name, airTurn, dice)
	}
	if s.occupation("port", "Narvik") >= 0 && s.occupation("airfield", "Bardufoss") < 0 && IsDay(s.Turn) && s.Occupied[s.occupation("port", "Narvik")].Turn < s.Turn {
		roll := dice.Roll(6, "Bardufoss (9.51)")
		if roll == 6 {
			if h, af, ok := airfieldHex("Bardufoss"); ok {
				s.Occupied = append(s.Occupied, Occupation{Kind: "airfield", Place: "Bardufoss", Hex: h.String(), Turn: s.Turn, Usable: airfieldUsable(s.Turn, af.SnowFree)})
				s.logf("both", "occupation", h.String(), "9.51", "Bardufoss: rolled 6, Germany takes the airfield.")
			}
		}
	}
}

// AirborneTable is the Airborne Table of PAC #3 (8.7), rolled with 1d6.
// Source: reconstructed — the chart is not transcribed; historically Sola
// and Fornebu fell to airborne troops on 9 April.
var AirborneTable = engine.MustTable("Airborne Table",
	engine.TableRow[bool]{Lo: 1, Hi: 2, Result: false},
	engine.TableRow[bool]{Lo: 3, Hi: 6, Result: true},
)

// airbornePhase is step 5 of the combat phase (8.7): each landing is
// rolled openly; a success takes the airfield and tries once for the port
// next to it (8.71, 9.52), a failure loses the unit.
func (s *State) airbornePhase(drops []Drop, dice engine.Dice) {
	if s.InvasionTurn == 0 && len(drops) > 0 {
		// 6.28: not before the invasion; the orders that dropped them
		// began it this turn, or they were refused.
		s.logf("german", "airborne", "", "6.28", "No German ship entered Norwegian waters this turn: the airborne troops stay off the map.")
		return
	}
	for _, d := range drops {
		u := s.unit(d.Unit)
		h, af, ok := airfieldHex(d.Airfield)
		if u == nil || u.Where != AtBase || !ok {
			continue
		}
		roll := dice.Roll(6, "airborne landing (8.7)")
		if !AirborneTable.Lookup(roll) {
			u.Where = AtSunk
			s.logf("both", "airborne", h.String(), "8.7", "German airborne troops land at %s: rolled %d, failure; the unit is lost.", d.Airfield, roll)
			continue
		}
		u.Where, u.Base = AtLanded, d.Airfield
		s.logf("both", "airborne", h.String(), "8.7", "German airborne troops land at %s: rolled %d, the airfield is taken.", d.Airfield, roll)
		if s.occupation("airfield", af.Name) < 0 {
			s.Occupied = append(s.Occupied, Occupation{Kind: "airfield", Place: af.Name, Hex: h.String(), Turn: s.Turn, Usable: airfieldUsable(s.Turn, af.SnowFree)})
		}
		for _, p := range norwegianPorts() {
			if p.Hex.Distance(h) > 1 || s.occupation("port", p.Port) >= 0 || s.occupation("pending", p.Port) >= 0 {
				continue
			}
			r := dice.Roll(6, "port city occupation from an airfield (9.52)")
			switch PortTable.Lookup(r) {
			case "occupied":
				s.logf("both", "occupation", p.Hex.String(), "9.52", "The airborne troops at %s move on %s: rolled %d, occupation.", d.Airfield, p.Port, r)
				s.occupyPort(p.Port, dice)
			case "later":
				s.Occupied = append(s.Occupied, Occupation{Kind: "pending", Place: p.Port, Hex: p.Hex.String(), Turn: s.Turn + 2})
				s.logf("both", "occupation", p.Hex.String(), "9.52", "The airborne troops at %s move on %s: rolled %d, occupation after 2 turns.", d.Airfield, p.Port, r)
			default:
				// 9.52 note: repulsed, the unit is removed and the airfield
				// still belongs to Norway.
				u.Where = AtSunk
				if i := s.occupation("airfield", af.Name); i >= 0 {
					s.Occupied = append(s.Occupied[:i], s.Occupied[i+1:]...)
				}
				s.logf("both", "occupation", p.Hex.String(), "9.52", "The airborne troops at %s move on %s: rolled %d, repulsed; the unit is lost and the airfield stays Norwegian.", d.Airfield, p.Port, r)
			}
			break
		}
	}
}

// airborneHolds reports whether German airborne troops hold an airfield
// next to a port: they keep a port they took (9.52) as a ship would (9.44;
// reconstructed reading, else an airborne capture would lapse at once).
func (s *State) airborneHolds(port engine.Hex) bool {
	for _, u := range s.Units {
		if u.Where == AtLanded {
			if h, _, ok := airfieldHex(u.Base); ok && h.Distance(port) <= 1 {
				return true
			}
		}
	}
	return false
}
