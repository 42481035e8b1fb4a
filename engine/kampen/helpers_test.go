package kampen

import (
	"testing"

	"skagerrak/engine"
)

// scene builds a state for a rule test: the given stacks, empty hands, and
// each deck's cards face down, so that no one runs out by accident.
func scene(turn engine.Side, step string, stacks ...Stack) *State {
	s := &State{Scenario: ScenarioID, Round: 1, Turn: turn, Step: step, Stacks: []Stack{}, Events: []Event{}}
	for _, x := range stacks {
		s.add(x.Area, x.Side, x.N)
	}
	for _, side := range turnOrder {
		d := s.deck(side)
		d.Hand, d.Used = []string{}, []string{}
		for _, c := range data.Cards {
			if c.Side == side {
				for k := 0; k < c.Count; k++ {
					d.Draw = append(d.Draw, c.ID)
				}
			}
		}
	}
	return s
}

func at(side engine.Side, area string, n int) Stack { return Stack{Area: area, Side: side, N: n} }

func give(s *State, side engine.Side, ids ...string) {
	s.deck(side).Hand = append(s.deck(side).Hand, ids...)
}

// parse parses side's orders and fails the test on any error.
func parse(t *testing.T, s *State, side engine.Side, text string) Orders {
	t.Helper()
	o, errs := Ruleset{}.ParseOrders(s, side, text)
	if len(errs) > 0 {
		t.Fatalf("%s orders rejected: %v\n%s", side, errs, text)
	}
	return o.(Orders)
}

// parseErr parses side's orders and returns the errors, failing the test
// when there are none.
func parseErr(t *testing.T, s *State, side engine.Side, text string) []engine.LineError {
	t.Helper()
	_, errs := Ruleset{}.ParseOrders(s, side, text)
	if len(errs) == 0 {
		t.Fatalf("%s orders accepted, want an error:\n%s", side, text)
	}
	for _, e := range errs {
		if e.Rule == "" || e.Valid == "" || e.Line == 0 {
			t.Errorf("error without rule, valid or line: %+v", e)
		}
	}
	return errs
}

// run resolves the open phase with each owing side's text (default "")
// and the given d6 rolls, which must all be used, no more and no fewer.
func run(t *testing.T, s *State, texts map[engine.Side]string, rolls ...int) *State {
	t.Helper()
	d := engine.NewManualDice(rolls...)
	next := runWith(t, s, texts, d)
	if d.Short() > 0 || d.Used() != len(rolls) {
		t.Fatalf("dice: %d supplied, %d used, %d short", len(rolls), d.Used(), d.Short())
	}
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	return next
}

func runWith(t *testing.T, s *State, texts map[engine.Side]string, d engine.Dice) *State {
	t.Helper()
	orders := map[engine.Side]engine.Orders{}
	for _, side := range s.owes() {
		orders[side] = parse(t, s, side, texts[side])
	}
	for side := range texts {
		if _, ok := orders[side]; !ok {
			t.Fatalf("%s does not owe orders in %s (owes: %v)", side, s.phaseID(), s.owes())
		}
	}
	next, err := Ruleset{}.Resolve(s, orders, d)
	if err != nil {
		t.Fatal(err)
	}
	return next.(*State)
}

func hasRule(errs []engine.LineError, rule string) bool {
	for _, e := range errs {
		if e.Rule == rule {
			return true
		}
	}
	return false
}
