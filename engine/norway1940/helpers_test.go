package norway1940

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// bare returns a state at a turn with every land unit off the board (dead)
// and no fleets, for tests that place exactly what they need.
func bare(t *testing.T, turn int, phasing engine.Side) *State {
	t.Helper()
	st, err := Ruleset{}.New(engine.Setup{}, enginetest.ThenOnes())
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	s.Turn, s.Phasing = turn, phasing
	for _, u := range s.Units {
		u.Dead = true
	}
	s.Fleets = nil
	s.Invaded, s.AlliedLanded = true, true
	s.Events = nil
	resetAir(s)
	return s
}

// put places a unit of the order of battle in an area at full strength.
func put(s *State, id, area string) *Unit {
	u := s.unit(id)
	u.Dead, u.Loc, u.Fleet, u.Steps, u.OOS, u.Blast = false, area, "", u.MaxSteps, false, 0
	return u
}

// supply adds a German supply unit in an area.
func supplyAt(s *State, area string) *Unit {
	u := &Unit{ID: s.newID("S"), Side: German, Nation: "german", Type: "supply", Size: "sup", Steps: 2, MaxSteps: 2, Loc: area}
	s.Units = append(s.Units, u)
	return u
}

func fleetAt(s *State, id string, side engine.Side, where string, combat, transport int) *Fleet {
	nation := "german"
	if side == Allied {
		nation = "british"
	}
	f := &Fleet{ID: id, Side: side, Nation: nation, Where: where, Combat: combat, Transport: transport}
	s.Fleets = append(s.Fleets, f)
	sortFleets(s)
	return f
}

func parseOK(t *testing.T, s *State, text string) *Orders {
	t.Helper()
	o, errs := parseOrders(s, s.Phasing, text)
	if len(errs) > 0 {
		t.Fatalf("orders rejected: %v", errs)
	}
	return o
}

// parseErr returns the rule of the first error, failing if there is none.
func parseErr(t *testing.T, s *State, text string) engine.LineError {
	t.Helper()
	_, errs := parseOrders(s, s.Phasing, text)
	if len(errs) == 0 {
		t.Fatalf("orders accepted, want an error:\n%s", text)
	}
	return errs[0]
}

// play resolves the phasing side's orders with manual dice.
func play(t *testing.T, s *State, text string, rolls ...int) (*State, *enginetest.OnesDice) {
	t.Helper()
	o := parseOK(t, s, text)
	d := enginetest.ThenOnes(rolls...)
	next, err := Ruleset{}.Resolve(s, map[engine.Side]engine.Orders{s.Phasing: o}, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	return next.(*State), d
}

func logHas(s *State, sub string) bool {
	for _, e := range s.Events {
		if strings.Contains(e.Text, sub) {
			return true
		}
	}
	return false
}

func logText(s *State) string {
	var b strings.Builder
	for _, e := range s.Events {
		b.WriteString("[" + e.Rule + "] " + e.Text + "\n")
	}
	return b.String()
}
