package norway1940

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"skagerrak/engine"
)

// hide changes, at random, everything of side y that side x may not see:
// the contents of y's undetected fleets (points, decoys, cargo, nation),
// y's naval points in port, y's units off the map, y's air points, decoys,
// submarines and standing orders.
func hide(s *State, y engine.Side, d engine.Dice) {
	var hidden []*Fleet
	for _, f := range s.Fleets {
		if f.Side == y && !f.Detected {
			hidden = append(hidden, f)
		}
	}
	for _, f := range hidden {
		f.Combat = d.Roll(12, "combat") - 1
		f.Transport = d.Roll(9, "transport") - 1
		f.Decoys = d.Roll(3, "decoys") - 1
		f.Goal = fmt.Sprintf("goal%d", d.Roll(9, "goal"))
		if d.Roll(2, "nation") == 1 {
			f.Nation = "norwegian"
		}
	}
	// move cargo between undetected fleets and the reserve
	for _, u := range s.Units {
		if u.Side != y || u.Dead {
			continue
		}
		offMap := u.Fleet != "" || !data.Graph.Has(u.Loc)
		if !offMap {
			continue
		}
		if u.Fleet != "" {
			if f := s.fleet(u.Fleet); f != nil && f.Detected {
				continue
			}
		}
		u.Steps = d.Roll(2, "steps")
		u.Entry = d.Roll(21, "entry")
		if len(hidden) > 0 && d.Roll(2, "embark") == 1 {
			f := hidden[d.Roll(len(hidden), "fleet")-1]
			if u.Fleet != "" {
				if g := s.fleet(u.Fleet); g != nil {
					var rest []string
					for _, id := range g.Cargo {
						if id != u.ID {
							rest = append(rest, id)
						}
					}
					g.Cargo = rest
				}
			}
			u.Fleet, u.Loc = f.ID, ""
			f.Cargo = append(f.Cargo, u.ID)
		}
	}
	for _, p := range s.Pools {
		if p.Side == y {
			p.Combat = d.Roll(30, "pool") - 1
			p.Transport = d.Roll(30, "pool") - 1
		}
	}
	for _, dp := range s.Depots {
		if !dp.Flipped {
			dp.Real = d.Roll(2, "depot") == 1 // hidden from both sides
		}
	}
	ss := s.side(y)
	for i := range ss.Air {
		ss.Air[i].Used = d.Roll(3, "air") - 1
	}
	for i := range ss.Decoys {
		ss.Decoys[i].N = d.Roll(8, "decoys") - 1
	}
	ss.Subs = d.Roll(5, "subs") - 1
	ss.Standing = Standing{Keep: d.Roll(5, "keep") - 1, Evade: []string{"always", "never", "weaker"}[d.Roll(3, "evade")-1], React: d.Roll(2, "react") == 1, Continue: d.Roll(2, "continue") == 1}
	if d.Roll(2, "ask") == 1 {
		kinds := askKinds(s.rev())
		ss.Standing.Ask = kinds[d.Roll(len(kinds), "ask kind")-1:]
	}
	if d.Roll(2, "losses") == 1 && s.rev() >= 2 {
		ss.Standing.Losses = []string{"IR14", "159"}[d.Roll(2, "losses kind")-1:]
	}
}

// fogCheck checks, for both sides, that changing at random what the side
// may not see of state s leaves its view alone; it returns the number of
// views compared.
func fogCheck(t *testing.T, s *State) int {
	t.Helper()
	checked := 0
	for _, x := range []engine.Side{German, Allied} {
		want, _ := json.Marshal(viewOf(s, x))
		for k := 0; k < 5; k++ {
			c := s.clone()
			d := engine.NewSeededDice([]byte("hide"), phaseID(s), fmt.Sprintf("%s%d", x, k), [32]byte{})
			hide(c, other(x), d)
			if p := c.Pending; p != nil {
				// A stopped player-turn: its start, its orders and the
				// rolls made so far are for the replay, never for a view.
				hide(p.Start, other(x), d)
				for i := range p.Rolls {
					p.Rolls[i].Value = d.Roll(6, "roll")
				}
				p.Orders.Lines = p.Orders.Lines[:len(p.Orders.Lines)/2]
			}
			got, _ := json.Marshal(viewOf(c, x))
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: the %s view changed when hidden %s things changed:\n%s\n%s", PhaseOf(s).ID, x, other(x), want, got)
			}
			checked++
		}
	}
	return checked
}

// TestFogOfWarInShortPhases: the same property in the short phases of a
// game where both sides ask every decision: the question and the state
// where the player-turn stopped show nothing hidden, to either side.
func TestFogOfWarInShortPhases(t *testing.T) {
	checked, short := 0, 0
	playAsking(t, "b2", askGame{extra: map[engine.Side]string{German: "ask all", Allied: "ask all"}, each: func(s *State) {
		if s.Pending != nil {
			short++
			checked += fogCheck(t, s)
		}
	}})
	if short == 0 || checked == 0 {
		t.Fatal("no short phase checked")
	}
}

func phaseID(s *State) string { return PhaseOf(s).ID }
