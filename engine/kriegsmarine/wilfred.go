package kriegsmarine

import (
	"skagerrak/engine"
)

// OptWilfred is the option of 11.0.
const OptWilfred = "wilfred"

// FourthEchelon are the cruisers that carry the Wilfred Force (11.1).
var FourthEchelon = []string{"york", "devonshire", "berwick", "glasgow"}

// WilfredTurn is the turn the Wilfred Force enters with the 4th Echelon (11.1).
const WilfredTurn = 7

// Wilfred is the state of the Wilfred Force (11.0): "" not in play,
// "aboard" the 4th Echelon, "landed" in Port, "destroyed".
type Wilfred struct {
	Status string `json:"status,omitempty"`
	Port   string `json:"port,omitempty"`
	// Held is set once the force holds Port for the Allies (11.1, 9.46).
	Held bool `json:"held,omitempty"`
}

// carrying reports whether ship id carries the Wilfred Force (11.2).
func (s *State) carrying(id string) bool {
	return s.Wilfred.Status == "aboard" && contains(FourthEchelon, id)
}

// wilfredEnters: on turn 7 the force sails with the 4th Echelon if Germany
// has invaded Norway (11.1; without an invasion the Allies leave it home,
// the choice 11.2 allows).
func (s *State) wilfredEnters() {
	if !s.has(OptWilfred) || s.Turn != WilfredTurn || s.Wilfred.Status != "" || s.InvasionTurn == 0 {
		return
	}
	s.Wilfred.Status = "aboard"
	s.logf("allied", "arrival", "", "11.1", "The Wilfred Force embarks in York, Devonshire, Berwick and Glasgow: they move together until it lands, with gunnery 1 less each (11.2).")
}

// wilfredPhase: the force is lost with two of its cruisers (11.1), lands
// when every surviving cruiser stops in one Norwegian port (11.1), and
// tries to retake a German port at the end of each day turn with +2 on
// the Port City Occupation Table (11.1, 9.46).
func (s *State) wilfredPhase(dice engine.Dice) {
	switch s.Wilfred.Status {
	case "aboard":
		var alive []string
		lost := 0
		for _, id := range FourthEchelon {
			if u := s.unit(id); u.Where == AtSunk {
				lost++
			} else if u.Where == AtMap {
				alive = append(alive, id)
			}
		}
		if lost >= 2 {
			s.Wilfred.Status = "destroyed"
			s.logf("both", "combat", "", "11.1", "Two cruisers of the 4th Echelon are lost: the Wilfred Force is destroyed.")
			return
		}
		if len(alive) == 0 {
			return
		}
		h := s.unit(alive[0]).Hex
		for _, id := range alive[1:] {
			if s.unit(id).Hex != h {
				return
			}
		}
		hi, _ := TheMap().Info(h)
		if hi.Port == "" || !hi.HasCountry("NO") {
			return
		}
		s.Wilfred.Status, s.Wilfred.Port = "landed", hi.Port
		if s.occupation("port", hi.Port) < 0 {
			s.Wilfred.Held = true
			if i := s.occupation("pending", hi.Port); i >= 0 {
				s.Occupied = append(s.Occupied[:i], s.Occupied[i+1:]...)
			}
			s.logf("both", "occupation", h.String(), "11.1", "The Wilfred Force lands at %s and holds it for the Allies.", hi.Port)
		} else {
			s.logf("both", "occupation", h.String(), "11.1", "The Wilfred Force lands at German-held %s.", hi.Port)
		}
	case "landed":
		if s.Wilfred.Held || !IsDay(s.Turn) {
			return
		}
		roll := dice.Roll(6, "Wilfred Force recapture (11.1)")
		h, _ := portHex(s.Wilfred.Port)
		switch PortTable.Lookup(roll + 2) {
		case "occupied", "later":
			if i := s.occupation("port", s.Wilfred.Port); i >= 0 {
				s.Occupied = append(s.Occupied[:i], s.Occupied[i+1:]...)
			}
			s.Wilfred.Held = true
			s.logf("both", "occupation", h.String(), "11.1", "The Wilfred Force attacks %s: rolled %d+2, the port is retaken for the Allies.", s.Wilfred.Port, roll)
		default:
			s.Wilfred.Status = "destroyed"
			s.logf("both", "occupation", h.String(), "11.1", "The Wilfred Force attacks %s: rolled %d+2, repulsed; the force is lost.", s.Wilfred.Port, roll)
		}
	}
}

// alliedHeld reports whether the Wilfred Force holds a port (9.46).
func (s *State) alliedHeld(port string) bool {
	return s.Wilfred.Status == "landed" && s.Wilfred.Held && s.Wilfred.Port == port
}
