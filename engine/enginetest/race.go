// Package enginetest holds a minimal ruleset, "racetest", for testing the
// machinery around rulesets (the adjudicator, the command line, the demo)
// without the weight of a real rulebook. It is registered by Register.
package enginetest

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"skagerrak/engine"
)

// Race is a tiny ruleset for tests: each phase both sides
// order "advance N" (1-3); each side then rolls a d6 and moves N if the roll
// is at least N (or "dawdle", which never ends: see loop.go). First to 10 wins; the game lasts at most 5 phases. A side
// sees its own position and orders, and the enemy's position only. Race
// is race, the ruleset written against its own types, adapted by
// engine.Typed.
type Race struct {
	engine.Typed[*RaceState, RaceView, RaceOrders, race]
}

type race struct{}

var _ engine.TypedRules[*RaceState, RaceView, RaceOrders] = race{}

type RaceState struct {
	Turn int                 `json:"turn"`
	Pos  map[string]int      `json:"pos"`
	Last map[string]string   `json:"last"`
	Log  map[string][]string `json:"log"`
}

type RaceOrders struct{ N int }

// Name implements engine.TypedRules, as do the methods below.
func (race) Name() string         { return "racetest" }
func (race) Title() string        { return "Race (test ruleset)" }
func (race) Sides() []engine.Side { return []engine.Side{"allied", "german"} }
func (race) Scenarios() []engine.Info {
	return []engine.Info{{ID: "standard", Title: "Standard"}}
}
func (race) Options() []engine.Info { return []engine.Info{{ID: "long", Title: "Long race"}} }

func (r race) New(s engine.Setup, d engine.Dice) (_ *RaceState, err error) {
	defer engine.Halted(&err)
	if s.Scenario != "" && s.Scenario != "standard" {
		return nil, fmt.Errorf("racetest has no scenario %q; valid: standard", s.Scenario)
	}
	for _, o := range s.Options {
		if o != "long" {
			return nil, fmt.Errorf("racetest has no option %q; valid: long", o)
		}
	}
	if _, err := engine.RevisionOf(Race{}, s); err != nil {
		return nil, err
	}
	st := &RaceState{Turn: 1, Pos: map[string]int{"allied": 0, "german": d.Roll(2, "head start") - 1}, Last: map[string]string{}, Log: map[string][]string{}}
	return st, nil
}

func (race) Phase(st *RaceState) engine.Phase {
	if st.Turn > 5 || st.Pos["allied"] >= 10 || st.Pos["german"] >= 10 {
		return engine.Phase{ID: "over", Title: "game over", Over: true}
	}
	return engine.Phase{ID: fmt.Sprintf("T%02d", st.Turn), Title: fmt.Sprintf("Turn %d", st.Turn), Owes: []engine.Side{"allied", "german"}}
}

func (race) ParseOrders(s *RaceState, side engine.Side, text string) (RaceOrders, []engine.LineError) {
	var o RaceOrders
	var errs []engine.LineError
	if side != "allied" && side != "german" {
		return o, []engine.LineError{{Msg: fmt.Sprintf("%q is no side of this game", side), Valid: "allied or german"}}
	}
	if o, ok := parseDawdle(text); ok {
		return o, nil
	}
	for _, l := range engine.OrderLines(text) {
		if len(l.Fields) != 2 || strings.ToLower(l.Fields[0]) != "advance" {
			errs = append(errs, l.Errorf("1.1", "advance 1, advance 2 or advance 3", "unknown order"))
			continue
		}
		n, err := strconv.Atoi(l.Fields[1])
		if err != nil || n < 1 || n > 3 {
			errs = append(errs, l.Errorf("1.2", "1, 2 or 3", "%q is not a number of steps", l.Fields[1]))
			continue
		}
		o.N = n
	}
	return o, errs
}

func (race) DefaultOrders(*RaceState, engine.Side) RaceOrders { return RaceOrders{N: 1} }

// FormatOrders writes nothing for orders that order nothing (an empty
// file), which advance no step.
func (race) FormatOrders(_ *RaceState, _ engine.Side, o RaceOrders) string {
	if s := formatDawdle(o); s != "" {
		return s
	}
	if o.N == 0 {
		return ""
	}
	return fmt.Sprintf("advance %d\n", o.N)
}

func (race) Resolve(old *RaceState, orders map[engine.Side]RaceOrders, d engine.Dice) (next *RaceState, err error) {
	defer engine.Halted(&err)
	d = engine.Bound(d)
	dawdling(orders, d)
	st := &RaceState{Turn: old.Turn + 1, Pos: map[string]int{}, Last: map[string]string{}, Log: map[string][]string{}}
	for k, v := range old.Pos {
		st.Pos[k] = v
	}
	for k, v := range old.Log {
		st.Log[k] = append([]string(nil), v...)
	}
	for _, side := range []engine.Side{"allied", "german"} {
		n := orders[side].N
		r := d.Roll(6, string(side)+" advance")
		if r >= n {
			st.Pos[string(side)] += n
		}
		st.Last[string(side)] = fmt.Sprintf("advance %d, rolled %d", n, r)
		st.Log[string(side)] = append(st.Log[string(side)], st.Last[string(side)])
	}
	return st, nil
}

type RaceView struct {
	Side  string `json:"side"`
	Turn  int    `json:"turn"`
	Mine  int    `json:"mine"`
	Enemy int    `json:"enemy"`
	Last  string `json:"last"`
}

func (race) View(st *RaceState, side engine.Side) RaceView {
	enemy := "german"
	if side == "german" {
		enemy = "allied"
	}
	return RaceView{Side: string(side), Turn: st.Turn, Mine: st.Pos[string(side)], Enemy: st.Pos[enemy], Last: st.Last[string(side)]}
}

func (race) Result(st *RaceState) *engine.Result {
	if st.Turn <= 5 && st.Pos["allied"] < 10 && st.Pos["german"] < 10 {
		return nil
	}
	r := &engine.Result{Points: map[engine.Side]int{"allied": st.Pos["allied"], "german": st.Pos["german"]}}
	switch {
	case st.Pos["allied"] > st.Pos["german"]:
		r.Winner = "allied"
	case st.Pos["german"] > st.Pos["allied"]:
		r.Winner = "german"
	}
	r.Summary = fmt.Sprintf("allied %d, german %d", st.Pos["allied"], st.Pos["german"])
	return r
}

var once sync.Once

// Register registers Race as "racetest" (once; later calls do nothing).
func Register() { once.Do(func() { engine.Register(Race{}) }) }

// Play implements engine.Player: advance 3 when well behind, else 2.
func (race) Play(rv RaceView, side engine.Side, d engine.Dice) string {
	if rv.Enemy-rv.Mine >= 2 {
		return "advance 3\n"
	}
	return fmt.Sprintf("advance %d\n", 1+d.Roll(2, "choice"))
}

// Guide implements engine.Guider.
func (race) Guide() string {
	return `Race: a player's guide

Each turn both sides order how far to advance:

  advance N     N is 1, 2 or 3 (rule 1.1); e.g. advance 2

Each side then rolls a die and moves N if the roll is at least N. The
first to 10 wins; the game lasts at most 5 turns. A side that sends no
orders advances 1.
`
}
