package norge

import (
	"encoding/json"
	"strings"
	"testing"

	"skagerrak/engine"
)

// bare is a new game with every land unit in reserve and every naval unit
// off the board, at the given phase of turn 1, for rule tests that set up
// their own position.
func bare(t *testing.T, step int) *State {
	t.Helper()
	st, err := Ruleset{}.New(engine.Setup{}, engine.NewManualDice())
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	for i := range s.Units {
		s.Units[i].Loc = LocReserve
	}
	for i := range s.Ships {
		sh := &s.Ships[i]
		sh.Loc, sh.Cargo, sh.Area, sh.Restricted = "", nil, 0, false
	}
	s.Step = step
	s.Setup = false
	s.Log = nil
	return s
}

// fresh is a new game after the German set-up, at the turn-1 air phase.
func fresh(t *testing.T) *State {
	t.Helper()
	st, err := Ruleset{}.New(engine.Setup{}, engine.NewManualDice())
	if err != nil {
		t.Fatal(err)
	}
	return run(t, st.(*State), German, "")
}

func put(s *State, id, loc string) { s.unit(id).Loc = loc }

func sail(s *State, id, loc string) { s.ship(id).Loc = loc }

func setWeather(s *State, turn int, north, south string) {
	for len(s.Weather) < turn {
		s.Weather = append(s.Weather, Weather{North: "fair", South: "fair"})
	}
	s.Weather[turn-1] = Weather{North: north, South: south}
}

func parseOK(t *testing.T, s *State, side engine.Side, text string) *Orders {
	t.Helper()
	o, errs := Ruleset{}.ParseOrders(s, side, text)
	if len(errs) > 0 {
		t.Fatalf("orders rejected: %v", errs)
	}
	return o.(*Orders)
}

// parseErr expects an error citing rule on some line.
func parseErr(t *testing.T, s *State, side engine.Side, text, rule string) engine.LineError {
	t.Helper()
	_, errs := Ruleset{}.ParseOrders(s, side, text)
	for _, e := range errs {
		if e.Rule == rule {
			if e.Valid == "" || e.Line == 0 {
				t.Errorf("error %v lacks Valid or Line", e)
			}
			return e
		}
	}
	t.Fatalf("want an error citing %s, got %v", rule, errs)
	return engine.LineError{}
}

// run resolves the open phase: side orders text, every other owing side
// gives its default orders; dice are the given d6 faces.
func run(t *testing.T, s *State, side engine.Side, text string, dice ...int) *State {
	t.Helper()
	r := Ruleset{}
	orders := map[engine.Side]engine.Orders{}
	for _, x := range r.Phase(s).Owes {
		if x == side {
			orders[x] = parseOK(t, s, side, text)
		} else {
			orders[x] = r.DefaultOrders(s, x)
		}
	}
	d := engine.NewManualDice(dice...)
	next, err := r.Resolve(s, orders, d)
	if err != nil {
		t.Fatal(err)
	}
	if d.Short() > 0 {
		t.Fatalf("resolution needed %d more dice than the %d given", d.Short(), len(dice))
	}
	return next.(*State)
}

func hasLog(s *State, sub string) bool {
	for _, e := range s.Log {
		if strings.Contains(e.Text, sub) {
			return true
		}
	}
	return false
}

func mustLog(t *testing.T, s *State, sub string) {
	t.Helper()
	if !hasLog(s, sub) {
		var all []string
		for _, e := range s.Log {
			all = append(all, e.Text)
		}
		t.Fatalf("no log line with %q in:\n%s", sub, strings.Join(all, "\n"))
	}
}

func viewJSON(t *testing.T, s *State, side engine.Side) string {
	t.Helper()
	b, err := json.Marshal(Ruleset{}.View(s, side))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
