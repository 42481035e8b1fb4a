package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// coinState, coinView and coinOrders are a one-side game written against
// its own types: the side calls heads or tails and the coin is tossed.
type coinState struct {
	Version int    `json:"version"`
	Calls   []bool `json:"calls"`
}

// AfterDecode refuses a state of another version.
func (s *coinState) AfterDecode() error {
	if s.Version != 1 {
		return fmt.Errorf("version %d, want 1", s.Version)
	}
	return nil
}

type coinView struct{ Tosses int }

type coinOrders struct{ Heads bool }

type coin struct{}

var _ TypedRules[*coinState, coinView, *coinOrders] = coin{}

func (coin) Name() string      { return "coin" }
func (coin) Title() string     { return "Coin" }
func (coin) Sides() []Side     { return []Side{"caller"} }
func (coin) Scenarios() []Info { return []Info{{ID: "one"}} }
func (coin) Options() []Info   { return nil }
func (coin) Guide() string     { return "call heads or tails\n" }
func (coin) New(Setup, Dice) (*coinState, error) {
	return &coinState{Version: 1}, nil
}
func (coin) Phase(s *coinState) Phase {
	return Phase{ID: fmt.Sprint(len(s.Calls)), Owes: []Side{"caller"}}
}
func (coin) ParseOrders(_ *coinState, _ Side, text string) (*coinOrders, []LineError) {
	return &coinOrders{Heads: strings.TrimSpace(text) == "heads"}, nil
}
func (coin) DefaultOrders(*coinState, Side) *coinOrders { return &coinOrders{} }
func (coin) FormatOrders(_ *coinState, _ Side, o *coinOrders) string {
	if o == nil {
		return "(none)\n"
	}
	return fmt.Sprintf("heads %v\n", o.Heads)
}
func (coin) Resolve(s *coinState, orders map[Side]*coinOrders, _ Dice) (*coinState, error) {
	o, ok := orders["caller"]
	if !ok {
		return nil, errors.New("no call")
	}
	return &coinState{Version: 1, Calls: append(append([]bool(nil), s.Calls...), o != nil && o.Heads)}, nil
}
func (coin) View(s *coinState, _ Side) coinView     { return coinView{Tosses: len(s.Calls)} }
func (coin) Result(*coinState) *Result              { return nil }
func (coin) Play(v coinView, _ Side, _ Dice) string { return fmt.Sprintf("heads # %d\n", v.Tosses) }
func (coin) Revisions() []Revision                  { return []Revision{{N: 1}, {N: 2}} }

// TestTypedPassesItsOwnTypes: the adapter hands the typed functions what
// they take, a pointer for a value and a value for a pointer too, and
// hands back what they return.
func TestTypedPassesItsOwnTypes(t *testing.T) {
	var rs Ruleset = Typed[*coinState, coinView, *coinOrders, coin]{}
	s, err := rs.New(Setup{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, errs := rs.ParseOrders(s, "caller", "heads")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	next, err := rs.Resolve(s, map[Side]Orders{"caller": o}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := next.(*coinState).Calls; len(got) != 1 || !got[0] {
		t.Errorf("calls %v, want [true]", got)
	}
	// A state by value, orders by value: converted, not refused.
	if got := rs.FormatOrders(*next.(*coinState), "caller", coinOrders{Heads: true}); got != "heads true\n" {
		t.Errorf("FormatOrders of values: %q", got)
	}
	v := rs.View(next, "caller").(coinView)
	if got := rs.(Player).Play(&v, "caller", nil); got != "heads # 1\n" {
		t.Errorf("Play of a *coinView: %q", got)
	}
	if got := CurrentRevision(rs); got != 2 {
		t.Errorf("revisions of the typed rules: current %d, want 2", got)
	}
}

// TestTypedNilOrdersAreTheZeroOrders: no orders (nil) reach the typed
// functions as O's zero value, here a nil pointer.
func TestTypedNilOrdersAreTheZeroOrders(t *testing.T) {
	rs := Typed[*coinState, coinView, *coinOrders, coin]{}
	if got := rs.FormatOrders(&coinState{Version: 1}, "caller", nil); got != "(none)\n" {
		t.Errorf("FormatOrders(nil) = %q", got)
	}
	next, err := rs.Resolve(&coinState{Version: 1}, map[Side]Orders{"caller": nil}, nil)
	if err != nil || len(next.(*coinState).Calls) != 1 || next.(*coinState).Calls[0] {
		t.Errorf("Resolve with nil orders: %v %v", next, err)
	}
}

// TestTypedRefusesAnotherType: a value of another type is an error naming
// the ruleset, the method, what it was given and what it wants; where the
// method returns no error, a panic saying the same.
func TestTypedRefusesAnotherType(t *testing.T) {
	rs := Typed[*coinState, coinView, *coinOrders, coin]{}
	_, err := rs.Resolve("a string", nil, nil)
	want := "coin: Resolve was given a state of type string: want a *engine.coinState"
	if err == nil || err.Error() != want {
		t.Errorf("Resolve of a string: %v, want %q", err, want)
	}
	_, err = rs.Resolve(&coinState{Version: 1}, map[Side]Orders{"caller": 3}, nil)
	if err == nil || !strings.Contains(err.Error(), "coin: Resolve was given a caller's orders of type int: want a *engine.coinOrders") {
		t.Errorf("Resolve of int orders: %v", err)
	}
	_, err = rs.Resolve((*coinState)(nil), nil, nil)
	if err == nil || !strings.Contains(err.Error(), "a nil *engine.coinState") {
		t.Errorf("Resolve of a nil state: %v", err)
	}
	defer func() {
		r := recover()
		e, ok := r.(error)
		if !ok || !strings.Contains(e.Error(), "coin: Phase was given a state of type engine.coinView: want a *engine.coinState") {
			t.Errorf("Phase of a view: panic %v", r)
		}
	}()
	rs.Phase(coinView{})
}

// TestTypedDecodes: states and views read back from their JSON, checked
// by AfterDecode; errors name the ruleset and what was decoded.
func TestTypedDecodes(t *testing.T) {
	rs := Typed[*coinState, coinView, *coinOrders, coin]{}
	s, err := rs.DecodeState([]byte(`{"version":1,"calls":[true]}`))
	if err != nil || len(s.(*coinState).Calls) != 1 {
		t.Fatalf("DecodeState: %v %v", s, err)
	}
	for in, want := range map[string]string{
		`{"version":2}`: "coin: decode state: version 2, want 1",
		`null`:          "coin: decode state: null",
		`[`:             "coin: decode state: unexpected end of JSON input",
	} {
		if _, err := rs.DecodeState([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("DecodeState(%s): %v, want %q", in, err, want)
		}
	}
	v, err := rs.DecodeView([]byte(`{"Tosses":3}`))
	if err != nil || v.(coinView).Tosses != 3 {
		t.Errorf("DecodeView: %v %v", v, err)
	}
}

func TestCheckMapSideNamesTheSides(t *testing.T) {
	cases := []struct {
		view, side Side
		want       string
	}{
		{"", "german", ""},
		{"allied", "allied", ""},
		{"", "swedish", `g: unknown side "swedish" (german, norwegian or allied)`},
		{"allied", "german", "g: the allied view cannot be drawn as the german map"},
	}
	for _, c := range cases {
		err := CheckMapSide("g", c.view, c.side, "german", "norwegian", "allied")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckMapSide(%q, %q) = %q, want %q", c.view, c.side, got, c.want)
		}
	}
}
