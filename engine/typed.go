package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// How a ruleset plugs in: it writes its functions against its own types
// (S its state, V a side's view, O a side's orders; each a pointer or a
// value, as the ruleset keeps it) by implementing TypedRules, or
// TypedBook for a full rulebook, and registers Typed or Book around it.
// The adapter implements Ruleset and the optional interfaces with the
// State, View and Orders the adjudicator passes around: the JSON decoding
// of states and views and every type check are here, once, and a value
// of the wrong type is an error naming the ruleset, what it was given and
// what it wants.

// TypedRules is the contract every ruleset implements against its own
// types: Ruleset's methods (less DecodeState, which Typed does), the
// scripted player (Player) and the player's guide (Guider).
type TypedRules[S, V, O any] interface {
	Name() string
	Title() string
	Sides() []Side
	Scenarios() []Info
	Options() []Info
	New(setup Setup, dice Dice) (S, error)
	Phase(s S) Phase
	ParseOrders(s S, side Side, text string) (O, []LineError)
	DefaultOrders(s S, side Side) O
	FormatOrders(s S, side Side, o O) string
	Resolve(s S, orders map[Side]O, dice Dice) (S, error)
	View(s S, side Side) V
	Result(s S) *Result
	Play(v V, side Side, dice Dice) string
	Guide() string
}

// TypedBook is the contract of a full rulebook: TypedRules, and the
// report, order form, final reveal, rules listing and map that every
// rulebook ruleset gives its players (Reporter, OrderFormer, Revealer,
// RuleLister, and through DrawMap Picturer and MapDigester).
type TypedBook[S, V, O any] interface {
	TypedRules[S, V, O]
	Report(v V, side Side) string
	OrderForm(v V, side Side) string
	Reveal(s S) string
	Rules() []RuleStatus
	// DrawMap builds side's map from v alone, ready to draw: Book's
	// Picture is its PNG, MapDigest its Digest.
	DrawMap(v V, side Side) (Drawing, error)
}

// Drawing is a side's map built and ready to draw (a draw list of package
// picture, or a sheet of them).
type Drawing interface {
	// PNG draws the map.
	PNG() ([]byte, error)
	// Digest is a digest of what the map shows, captions (which name the
	// phase) left out: two maps with the same digest show the same things.
	Digest() [32]byte
}

// CheckMapSide is the error, or nil, of drawing a view of viewSide ("" for
// a view of no one side) as side's map in game, side one of sides (named
// in the error in the order given).
func CheckMapSide(game string, viewSide, side Side, sides ...Side) error {
	known := false
	names := make([]string, len(sides))
	for i, s := range sides {
		known = known || s == side
		names[i] = string(s)
	}
	if !known {
		list := names[len(names)-1]
		if len(names) > 1 {
			list = strings.Join(names[:len(names)-1], ", ") + " or " + list
		}
		return fmt.Errorf("%s: unknown side %q (%s)", game, side, list)
	}
	if viewSide != "" && viewSide != side {
		return fmt.Errorf("%s: the %s view cannot be drawn as the %s map", game, viewSide, side)
	}
	return nil
}

// Decoded is implemented by a ruleset's state or view type that checks or
// completes itself once read back from JSON (a version to check, a map to
// make); DecodeState and DecodeView call it.
type Decoded interface {
	AfterDecode() error
}

// Typed adapts the TypedRules R to Ruleset, ViewDecoder, Player, Guider
// and Reviser (R's revisions when it implements Reviser, else none: only
// revision 1). Its zero value is ready when R's is.
type Typed[S, V, O any, R TypedRules[S, V, O]] struct {
	R R
}

// Book adapts the TypedBook R as Typed does, and to Reporter,
// OrderFormer, Revealer, RuleLister, Picturer and MapDigester.
type Book[S, V, O any, R TypedBook[S, V, O]] struct {
	Typed[S, V, O, R]
}

var (
	_ Ruleset     = Typed[int, int, int, TypedRules[int, int, int]]{}
	_ ViewDecoder = Typed[int, int, int, TypedRules[int, int, int]]{}
	_ Player      = Typed[int, int, int, TypedRules[int, int, int]]{}
	_ Guider      = Typed[int, int, int, TypedRules[int, int, int]]{}
	_ Reviser     = Typed[int, int, int, TypedRules[int, int, int]]{}
	_ Reporter    = Book[int, int, int, TypedBook[int, int, int]]{}
	_ OrderFormer = Book[int, int, int, TypedBook[int, int, int]]{}
	_ Revealer    = Book[int, int, int, TypedBook[int, int, int]]{}
	_ RuleLister  = Book[int, int, int, TypedBook[int, int, int]]{}
	_ Picturer    = Book[int, int, int, TypedBook[int, int, int]]{}
	_ MapDigester = Book[int, int, int, TypedBook[int, int, int]]{}
)

// Name implements Ruleset.
func (t Typed[S, V, O, R]) Name() string { return t.R.Name() }

// Title implements Ruleset.
func (t Typed[S, V, O, R]) Title() string { return t.R.Title() }

// Sides implements Ruleset.
func (t Typed[S, V, O, R]) Sides() []Side { return t.R.Sides() }

// Scenarios implements Ruleset.
func (t Typed[S, V, O, R]) Scenarios() []Info { return t.R.Scenarios() }

// Options implements Ruleset.
func (t Typed[S, V, O, R]) Options() []Info { return t.R.Options() }

// Guide implements Guider.
func (t Typed[S, V, O, R]) Guide() string { return t.R.Guide() }

// Revisions implements Reviser.
func (t Typed[S, V, O, R]) Revisions() []Revision {
	if rv, ok := any(t.R).(Reviser); ok {
		return rv.Revisions()
	}
	return nil
}

// New implements Ruleset.
func (t Typed[S, V, O, R]) New(setup Setup, dice Dice) (State, error) {
	s, err := t.R.New(setup, dice)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// DecodeState implements Ruleset: the JSON of an S, checked by its
// AfterDecode where it has one.
func (t Typed[S, V, O, R]) DecodeState(data []byte) (State, error) {
	return decode[S](t.R.Name(), "state", data)
}

// DecodeView implements ViewDecoder: the JSON of a V, checked by its
// AfterDecode where it has one.
func (t Typed[S, V, O, R]) DecodeView(data []byte) (View, error) {
	return decode[V](t.R.Name(), "view", data)
}

// Phase implements Ruleset.
func (t Typed[S, V, O, R]) Phase(s State) Phase { return t.R.Phase(t.state("Phase", s)) }

// ParseOrders implements Ruleset.
func (t Typed[S, V, O, R]) ParseOrders(s State, side Side, text string) (Orders, []LineError) {
	o, errs := t.R.ParseOrders(t.state("ParseOrders", s), side, text)
	if len(errs) > 0 && isNil(o) {
		return nil, errs
	}
	return o, errs
}

// DefaultOrders implements Ruleset.
func (t Typed[S, V, O, R]) DefaultOrders(s State, side Side) Orders {
	return t.R.DefaultOrders(t.state("DefaultOrders", s), side)
}

// FormatOrders implements Ruleset.
func (t Typed[S, V, O, R]) FormatOrders(s State, side Side, o Orders) string {
	return t.R.FormatOrders(t.state("FormatOrders", s), side, t.orders("FormatOrders", o))
}

// Resolve implements Ruleset.
func (t Typed[S, V, O, R]) Resolve(s State, orders map[Side]Orders, dice Dice) (State, error) {
	st, err := convert[S](s)
	if err != nil {
		return nil, t.wrong("Resolve", "state", s, err)
	}
	typed := make(map[Side]O, len(orders))
	for side, o := range orders {
		x, err := convertOrders[O](o)
		if err != nil {
			return nil, t.wrong("Resolve", string(side)+"'s orders", o, err)
		}
		typed[side] = x
	}
	next, err := t.R.Resolve(st, typed, dice)
	if err != nil {
		return nil, err
	}
	return next, nil
}

// View implements Ruleset.
func (t Typed[S, V, O, R]) View(s State, side Side) View { return t.R.View(t.state("View", s), side) }

// Result implements Ruleset.
func (t Typed[S, V, O, R]) Result(s State) *Result { return t.R.Result(t.state("Result", s)) }

// Play implements Player.
func (t Typed[S, V, O, R]) Play(v View, side Side, dice Dice) string {
	return t.R.Play(t.view("Play", v), side, dice)
}

// Report implements Reporter.
func (b Book[S, V, O, R]) Report(v View, side Side) string {
	return b.R.Report(b.view("Report", v), side)
}

// OrderForm implements OrderFormer.
func (b Book[S, V, O, R]) OrderForm(v View, side Side) string {
	return b.R.OrderForm(b.view("OrderForm", v), side)
}

// Reveal implements Revealer.
func (b Book[S, V, O, R]) Reveal(s State) string { return b.R.Reveal(b.state("Reveal", s)) }

// Rules implements RuleLister.
func (b Book[S, V, O, R]) Rules() []RuleStatus { return b.R.Rules() }

// Picture implements Picturer: the PNG of R's DrawMap.
func (b Book[S, V, O, R]) Picture(v View, side Side) ([]byte, error) {
	d, err := b.drawMap("Picture", v, side)
	if err != nil {
		return nil, err
	}
	return d.PNG()
}

// MapDigest implements MapDigester: the Digest of R's DrawMap.
func (b Book[S, V, O, R]) MapDigest(v View, side Side) ([32]byte, error) {
	d, err := b.drawMap("MapDigest", v, side)
	if err != nil {
		return [32]byte{}, err
	}
	return d.Digest(), nil
}

// drawMap is R's DrawMap of v as a V.
func (b Book[S, V, O, R]) drawMap(method string, v View, side Side) (Drawing, error) {
	x, err := convert[V](v)
	if err != nil {
		return nil, b.wrong(method, "view", v, err)
	}
	return b.R.DrawMap(x, side)
}

// state is s as an S; anything else is a programming error, a panic
// naming the ruleset, the method and the types.
func (t Typed[S, V, O, R]) state(method string, s State) S {
	x, err := convert[S](s)
	if err != nil {
		panic(t.wrong(method, "state", s, err))
	}
	return x
}

// view is v as a V, as state is for states.
func (t Typed[S, V, O, R]) view(method string, v View) V {
	x, err := convert[V](v)
	if err != nil {
		panic(t.wrong(method, "view", v, err))
	}
	return x
}

// orders is o as an O, as state is for states.
func (t Typed[S, V, O, R]) orders(method string, o Orders) O {
	x, err := convertOrders[O](o)
	if err != nil {
		panic(t.wrong(method, "orders", o, err))
	}
	return x
}

func (t Typed[S, V, O, R]) wrong(method, what string, x any, err error) error {
	return fmt.Errorf("%s: %s was given a %s of type %T: %w", t.R.Name(), method, what, x, err)
}

// decode reads a T from its JSON.
func decode[T any](game, what string, data []byte) (T, error) {
	var x T
	if err := json.Unmarshal(data, &x); err != nil {
		return x, fmt.Errorf("%s: decode %s: %w", game, what, err)
	}
	if isNil(x) {
		return x, fmt.Errorf("%s: decode %s: null", game, what)
	}
	if d, ok := any(x).(Decoded); ok {
		if err := d.AfterDecode(); err != nil {
			return x, fmt.Errorf("%s: decode %s: %w", game, what, err)
		}
	} else if d, ok := any(&x).(Decoded); ok {
		if err := d.AfterDecode(); err != nil {
			return x, fmt.Errorf("%s: decode %s: %w", game, what, err)
		}
	}
	return x, nil
}

// convert is x as a T: x itself, or the value a non-nil pointer x points
// to when T is the pointed-to type, or a pointer to a copy of x when T is
// a pointer to x's type.
func convert[T any](x any) (T, error) {
	var zero T
	if t, ok := x.(T); ok {
		if isNil(t) {
			return zero, fmt.Errorf("a nil %v", reflect.TypeFor[T]())
		}
		return t, nil
	}
	want := reflect.TypeFor[T]()
	if x != nil {
		xv := reflect.ValueOf(x)
		switch {
		case xv.Kind() == reflect.Pointer && xv.Type().Elem() == want && !xv.IsNil():
			return xv.Elem().Interface().(T), nil
		case want.Kind() == reflect.Pointer && want.Elem() == xv.Type():
			p := reflect.New(xv.Type())
			p.Elem().Set(xv)
			return p.Interface().(T), nil
		}
	}
	return zero, fmt.Errorf("want a %v", want)
}

// convertOrders is convert for orders, where nil (no orders) is O's zero
// value (a nil pointer when O is one).
func convertOrders[T any](x any) (T, error) {
	if isNil(x) {
		var zero T
		return zero, nil
	}
	return convert[T](x)
}

// isNil reports whether x is nil or a nil pointer.
func isNil(x any) bool {
	if x == nil {
		return true
	}
	v := reflect.ValueOf(x)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
