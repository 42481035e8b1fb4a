package sweden43

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// seqDice rolls the given values in order, whatever the die, and records
// the dice asked for; it answers 1 when it runs out.
type seqDice struct {
	vals  []int
	asked []int
	whys  []string
}

func (d *seqDice) Roll(sides int, why string) int {
	d.asked = append(d.asked, sides)
	d.whys = append(d.whys, why)
	if len(d.vals) == 0 {
		return 1
	}
	v := d.vals[0]
	d.vals = d.vals[1:]
	return v
}

func hx(t *testing.T, s string) engine.Hex {
	t.Helper()
	h, err := data.ParseHexOrPlace(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// newGame builds a scenario's state as its first game turn opens, both
// sides having kept the order of battle's set-up (30).
func newGame(t *testing.T, scenario string, opts ...string) *State {
	t.Helper()
	return newGameOf(t, engine.Setup{Scenario: scenario, Options: opts})
}

// newGameOf is newGame of any set-up (a rules revision).
func newGameOf(t *testing.T, setup engine.Setup) *State {
	t.Helper()
	s, err := Ruleset{}.New(setup, nullDice{})
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*State)
	for st.Step == "setup" {
		st = resolve(t, st, "", nullDice{})
	}
	return st
}

// bare builds a state with only the named units on the map, at the hexes
// given ("ID@HEX"); every other ground unit set up on the map is out of
// play (units still to come keep their status) and the air
// units are grounded (flown this turn) unless named with "air:ID@HEX".
func bare(t *testing.T, scenario string, placements ...string) *State {
	t.Helper()
	st := newGame(t, scenario)
	for i := range st.Board.Units {
		if st.Board.Units[i].Status == OnMap {
			st.Board.Units[i].Status = Neutralized
			st.Board.Units[i].Hex = ""
		}
	}
	for i := range st.Board.Air {
		st.Board.Air[i].Flown = st.Turn
	}
	for _, p := range placements {
		id, h, _ := strings.Cut(p, "@")
		if strings.HasPrefix(id, "air:") {
			c := newCtx(st)
			i := c.findAir(id[4:])
			if i < 0 {
				t.Fatalf("no air unit %s", id)
			}
			st.Board.Air[i].Flown = 0
			st.Board.Air[i].Status = OnMap
			if h != "" {
				st.Board.Air[i].Base = h
				if h != "UK" {
					st.Board.Air[i].Base = hx(t, h).String()
				}
			}
			continue
		}
		c := newCtx(st)
		i := c.find(id)
		if i < 0 {
			t.Fatalf("no unit %s", id)
		}
		st.Board.Units[i].Status = OnMap
		st.Board.Units[i].Hex = hx(t, h).String()
	}
	return st
}

// at moves the game to a phase.
func at(st *State, turn, player int, step string) *State {
	st.Turn, st.Player, st.Step = turn, player, step
	return st
}

func unit(t *testing.T, st *State, id string) Unit {
	t.Helper()
	c := newCtx(st)
	i := c.find(id)
	if i < 0 {
		t.Fatalf("no unit %s", id)
	}
	return st.Board.Units[i]
}

// resolve parses text for the phasing side and resolves the phase.
func resolve(t *testing.T, st *State, text string, d engine.Dice) *State {
	t.Helper()
	side := st.phasing()
	o, errs := Ruleset{}.ParseOrders(st, side, text)
	if len(errs) > 0 {
		t.Fatalf("orders rejected: %v", errs)
	}
	next, err := Ruleset{}.Resolve(st, map[engine.Side]engine.Orders{side: o}, d)
	if err != nil {
		t.Fatal(err)
	}
	return next.(*State)
}

// parseErr returns the errors of an order text.
func parseErr(st *State, text string) []engine.LineError {
	_, errs := Ruleset{}.ParseOrders(st, st.phasing(), text)
	return errs
}

func logHas(st *State, sub string) bool {
	for _, e := range st.Log {
		if strings.Contains(e.Text, sub) {
			return true
		}
	}
	return false
}

// revision1 makes st a game of rules revision 1 (the rules as first
// released), which games created before revision 2 keep.
func revision1(st *State) *State {
	st.Revision = 0
	return st
}

// adjSwedish returns a Swedish land hex next to h that is not a place,
// not across a river, and of the given terrain key (0: any).
func adjSwedish(t *testing.T, h engine.Hex, key byte) engine.Hex {
	t.Helper()
	for _, n := range h.Neighbors() {
		if _, isPlace := data.PlaceAt(n); isPlace || data.CountryAt(n) != 'S' || !data.Land(n) || data.River(h, n) != "" {
			continue
		}
		if key == 0 || data.TerrainAt(n) == key {
			return n
		}
	}
	t.Fatalf("no Swedish hex next to %s", h)
	return engine.Hex{}
}

// findHex returns a Swedish non-place hex of terrain key with a Swedish
// non-place neighbour not across a river.
func findHex(t *testing.T, key byte) (engine.Hex, engine.Hex) {
	t.Helper()
	for _, h := range data.Grid.All() {
		if data.TerrainAt(h) != key || data.CountryAt(h) != 'S' {
			continue
		}
		if _, ok := data.PlaceAt(h); ok {
			continue
		}
		for _, n := range h.Neighbors() {
			if _, ok := data.PlaceAt(n); !ok && data.CountryAt(n) == 'S' && data.Land(n) && data.River(h, n) == "" {
				return h, n
			}
		}
	}
	t.Fatalf("no hex of terrain %c", key)
	return engine.Hex{}, engine.Hex{}
}

// hintOrders returns the orders an error's Valid field names ("; "
// between them), failing unless each starts with verb.
func hintOrders(t *testing.T, e engine.LineError, verb string) []string {
	t.Helper()
	items := strings.Split(e.Valid, "; ")
	for _, it := range items {
		if !strings.HasPrefix(it, verb+" ") {
			t.Fatalf("%s: hint %q is not %s orders", e.Msg, e.Valid, verb)
		}
	}
	return items
}
