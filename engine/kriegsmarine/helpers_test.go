package kriegsmarine

import (
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// newGame starts a game whose objective roll is 3+4 = 7 (Invasion of
// Norway) unless other dice are given.
func newGame(t *testing.T, opts []string, dice ...int) *State {
	t.Helper()
	if len(dice) == 0 {
		dice = []int{3, 4}
	}
	st, err := Ruleset{}.New(engine.Setup{Options: opts}, enginetest.ThenOnes(dice...))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func hex(t *testing.T, s string) engine.Hex {
	t.Helper()
	h, err := engine.ParseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// put places a unit on the map.
func put(t *testing.T, s *State, id, at string) {
	t.Helper()
	u := s.unit(id)
	if u == nil {
		t.Fatalf("no unit %s", id)
	}
	u.Where, u.Hex = AtMap, hex(t, at)
}

// clearMap takes every ship off the map, so that a test sees only its own.
func clearMap(s *State) {
	for i := range s.Units {
		if s.Units[i].Where == AtMap {
			s.Units[i].Where = AtOut
		}
	}
}

func parse(t *testing.T, s *State, side engine.Side, text string) *Orders {
	t.Helper()
	o, errs := Ruleset{}.ParseOrders(s, side, text)
	if len(errs) > 0 {
		t.Fatalf("%s orders rejected: %v", side, errs)
	}
	return o.(*Orders)
}

func resolve(t *testing.T, s *State, allied, german string, dice ...int) *State {
	t.Helper()
	orders := map[engine.Side]engine.Orders{Allied: parse(t, s, Allied, allied), German: parse(t, s, German, german)}
	md := enginetest.ThenOnes(dice...)
	next, err := Ruleset{}.Resolve(s, orders, md)
	if err != nil {
		t.Fatal(err)
	}
	if md.Short() > 0 {
		t.Fatalf("resolution asked for %d more dice than given", md.Short())
	}
	return next.(*State)
}

func reportsTo(s *State, side engine.Side, turn int) []Entry {
	var out []Entry
	for _, e := range s.Log {
		if e.Turn == turn && (e.To == string(side) || e.To == "both") {
			out = append(out, e)
		}
	}
	return out
}

func rejects(t *testing.T, s *State, side engine.Side, text string, line int, rule string) engine.LineError {
	t.Helper()
	_, errs := Ruleset{}.ParseOrders(s, side, text)
	if len(errs) == 0 {
		t.Fatalf("accepted: %q", text)
	}
	e := errs[0]
	if e.Line != line || e.Rule != rule {
		t.Fatalf("error %v: want line %d rule %s", e, line, rule)
	}
	if e.Msg == "" || e.Text == "" {
		t.Fatalf("error without message or text: %+v", e)
	}
	return e
}

func indexOf(s *State, id string) int {
	for i := range s.Units {
		if s.Units[i].ID == id {
			return i
		}
	}
	return -1
}

// newGameRev starts a game of rules revision rev (see newGame).
func newGameRev(t *testing.T, rev int, opts []string, dice ...int) *State {
	t.Helper()
	if len(dice) == 0 {
		dice = []int{3, 4}
	}
	st, err := Ruleset{}.New(engine.Setup{Options: opts, Revision: rev}, enginetest.ThenOnes(dice...))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// resolveExactly is resolve, and every die given must be rolled: the
// test's hand count of the rolls the rules ask for is checked too.
func resolveExactly(t *testing.T, s *State, allied, german string, dice ...int) (*State, []engine.Roll) {
	t.Helper()
	orders := map[engine.Side]engine.Orders{Allied: parse(t, s, Allied, allied), German: parse(t, s, German, german)}
	md := enginetest.ThenOnes(dice...)
	next, err := Ruleset{}.Resolve(s, orders, md)
	if err != nil {
		t.Fatal(err)
	}
	if md.Short() > 0 || md.Used() != len(dice) {
		var why []string
		for _, r := range md.Rolls() {
			why = append(why, r.Why)
		}
		t.Fatalf("the rules rolled %d dice (%d short), the test worked out %d: %s", md.Used()+md.Short(), md.Short(), len(dice), strings.Join(why, "; "))
	}
	return next.(*State), md.Rolls()
}

// logWith returns the first log entry of the turn whose text contains
// every part, or nil.
func logWith(s *State, turn int, parts ...string) *Entry {
	for i, e := range s.Log {
		if e.Turn != turn {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && strings.Contains(e.Text, p)
		}
		if all {
			return &s.Log[i]
		}
	}
	return nil
}

func ones(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	return out
}
