package norge

import (
	"fmt"

	"strings"

	"skagerrak/engine"
)

// Ruleset is the Norge ruleset; it is registered as "norge".
type Ruleset struct {
	engine.Book[*State, *View, *Orders, rules]
}

// rules is the ruleset written against its own types (engine.TypedBook).
type rules struct{}

// The assertion also tells staticcheck that rules's methods are used:
// it does not follow them through engine.Book's type parameter.
var _ engine.TypedBook[*State, *View, *Orders] = rules{}

func init() { engine.Register(Ruleset{}) }

// Name implements engine.Ruleset.
func (rules) Name() string { return "norge" }

// Title implements engine.Ruleset.
func (rules) Title() string { return "Norge: the first battle between the Germans and the Allies" }

// Sides implements engine.Ruleset.
func (rules) Sides() []engine.Side { return []engine.Side{Allied, German} }

// Scenarios implements engine.Ruleset: the one game of the rulebook.
func (rules) Scenarios() []engine.Info {
	return []engine.Info{{ID: "campaign", Title: "The campaign, 10 turns", Rule: "6"}}
}

// Options implements engine.Ruleset: the rulebook's optional (blue) rules
// are not in the transcription, so there are none.
func (rules) Options() []engine.Info { return nil }

// newState is New: the set-up of rule 6.
func (rules) newState(setup engine.Setup, dice engine.Dice) (*State, error) {
	rev, err := engine.RevisionOf(Ruleset{}, setup)
	if err != nil {
		return nil, err
	}
	if setup.Scenario != "" && setup.Scenario != "campaign" {
		return nil, fmt.Errorf("norge: unknown scenario %q (known: campaign)", setup.Scenario)
	}
	if len(setup.Options) > 0 {
		return nil, fmt.Errorf("norge: unknown options %v (the game has none)", setup.Options)
	}
	s := &State{Turn: 1, Step: StepAirGerman, Setup: true, Weather: []Weather{{North: "fair", South: "fair"}}, German: []string{"Aalborg"}}
	s.Revision = engine.Rev(rev).Recorded()
	for _, u := range data.Units {
		loc := u.Start
		if at, ok := rev1Starts[u.ID]; ok && !s.rev().Has(ParaStartD3) {
			loc = at
		}
		s.Units = append(s.Units, Unit{ID: u.ID, Side: u.Side, Loc: loc})
	}
	for _, in := range data.Ships {
		sh := Ship{ID: in.ID, Side: in.Side, Kind: in.Kind}
		switch {
		case strings.HasPrefix(in.Start, "area "):
			fmt.Sscanf(in.Start, "area %d", &sh.Area)
		case in.Start != "off":
			sh.Loc = in.Start
			sh.Restricted = in.Side == German && in.Kind == "bs"
		}
		for _, u := range data.Units {
			if u.Start == shipPrefix+in.ID {
				sh.Cargo = append(sh.Cargo, u.ID)
			}
		}
		s.Ships = append(s.Ships, sh)
	}
	s.logf("", "Turn 1: weather fair in the North and the South (8.1)")
	return s, nil
}

// PhaseOf reports the open phase of a state.
func PhaseOf(s *State) engine.Phase {
	if s.Over {
		return engine.GameOver("over", "game over")
	}
	if s.Setup {
		return engine.Phase{ID: "T00-setup", Title: "Set-up: the troops on the German battleships (6.2)", Owes: []engine.Side{German}}
	}
	st := turnStages[s.Step]
	return engine.Phase{ID: fmt.Sprintf("T%02d-%s", s.Turn, st.Name), Title: fmt.Sprintf("Turn %d, %s", s.Turn, st.Title), Owes: st.Owing("")}
}

// Phase implements engine.Ruleset.
func (rules) Phase(st *State) engine.Phase { return PhaseOf(st) }

// DefaultOrders implements engine.Ruleset: a side that sends nothing does
// nothing, and its standing orders stay as they were.
func (rules) DefaultOrders(s *State, side engine.Side) *Orders {
	return &Orders{Side: side, Step: s.Step, Turn: s.Turn, Setup: s.Setup, Keep: true}
}

// resolve is Resolve. It never modifies its input.
func (rules) resolve(old *State, orders map[engine.Side]*Orders, dice engine.Dice) (*State, error) {
	if old.Over {
		return nil, fmt.Errorf("norge: the game is over")
	}
	s := old.clone()
	get := func(side engine.Side) (*Orders, error) {
		oo, ok := orders[side]
		if !ok || oo == nil {
			return nil, fmt.Errorf("norge: no orders for %s", side)
		}
		if oo.Turn != s.Turn || oo.Step != s.Step || oo.Setup != s.Setup {
			return nil, fmt.Errorf("norge: orders of %s are for another phase", side)
		}
		return oo, nil
	}
	for _, side := range PhaseOf(s).Owes {
		if _, err := get(side); err != nil {
			return nil, err
		}
	}
	if s.Setup {
		o, _ := get(German)
		for _, ord := range o.List {
			applyCarry(s, ord.ID, ord.Args)
			s.logf(German, "%s carries %s (6.2)", ord.ID, strings.Join(ord.Args, " "))
		}
		s.Setup = false
		s.logf("", "The German battleships are in Oslo, Kristiansand, Bergen, Trondheim and Narvik (6.2)")
		return s, nil
	}
	switch s.Step {
	case StepAirGerman:
		rollWeather(s, dice)
		g, _ := get(German)
		s.Air = nil
		resolveAir(s, g)
	case StepAirAllied:
		a, _ := get(Allied)
		resolveAir(s, a)
	case StepNavalGerman, StepNavalAllied:
		o, _ := get(PhaseOf(s).Owes[0])
		resolveNaval(s, o, dice)
	case StepLandGerman, StepLandAllied:
		o, _ := get(PhaseOf(s).Owes[0])
		resolveLand(s, o, dice)
	case StepSubs:
		g, _ := get(German)
		a, _ := get(Allied)
		resolveSubs(s, g)
		resolveSubs(s, a)
	}
	advance(s)
	return s, nil
}

// advance opens the next phase.
func advance(s *State) {
	next, turnEnds := turnStages.After(s.Step)
	if !turnEnds {
		s.Step = next
		return
	}
	if s.Turn >= Turns {
		s.Step = StepSubs
		s.Over = true
		r := result(s)
		s.logf("", "Game over: %s", r.Summary)
		return
	}
	s.Turn++
	s.Step = StepAirGerman
	s.Air = nil
	for len(s.Weather) < s.Turn {
		s.Weather = append(s.Weather, Weather{North: "fair", South: "fair"})
	}
	w := s.Weather[s.Turn-1]
	s.logf("", "Turn %d: weather %s in the North, %s in the South", s.Turn, w.North, w.South)
}

// rollWeather rolls the next turn's weather, North then South (8.2).
func rollWeather(s *State, d engine.Dice) {
	if s.Turn >= Turns || len(s.Weather) > s.Turn {
		return
	}
	n := data.Weather[d.Roll(6, "weather North, next turn (8.2)")-1]
	so := data.Weather[d.Roll(6, "weather South, next turn (8.2)")-1]
	s.Weather = append(s.Weather, Weather{North: n, South: so})
	s.logf("", "Weather for turn %d: %s in the North, %s in the South (8.2)", s.Turn+1, n, so)
}

// Result implements engine.Ruleset.
func (rules) Result(s *State) *engine.Result {
	if !s.Over {
		return nil
	}
	r := result(s)
	return &r
}

// Score is the victory point count of rule 2, item by item.
type Score struct {
	Side  engine.Side `json:"side"`
	Total int         `json:"total"`
	Items []string    `json:"items"`
}

// Scores counts both sides' victory points now (2.2-2.4).
func Scores(s *State) (german, allied Score) {
	german, allied = Score{Side: German}, Score{Side: Allied}
	add := func(sc *Score, n int, why string) {
		sc.Total += n
		sc.Items = append(sc.Items, fmt.Sprintf("%d %s", n, why))
	}
	for _, m := range data.Maps {
		if m.Kind != "tactical" {
			continue
		}
		g, a := mapStrength(s, m.ID)
		switch {
		case g > a:
			add(&german, 4, fmt.Sprintf("Map %s: %d to %d combat factors (2.2)", m.ID, g, a))
		case a > g:
			add(&allied, 6, fmt.Sprintf("Map %s: %d to %d combat factors (2.3)", m.ID, a, g))
		}
	}
	for _, af := range data.Airfields {
		if s.controller(af.Name) == German {
			add(&german, 2, af.Name+" airfield (2.2)")
		} else {
			add(&allied, 4, af.Name+" airfield (2.3)")
		}
	}
	if s.controller("Narvik") == German {
		add(&german, 2, "Narvik (2.2)")
	}
	if s.controller("Oslo") == Allied {
		add(&allied, 4, "Oslo (2.3)")
	}
	for _, sh := range s.Ships {
		sc := &german
		if sh.Side == German {
			sc = &allied
		}
		big := sh.Kind == "bs" || sh.Kind == "cv"
		switch {
		case sh.Sunk && big:
			add(sc, 4, sh.ID+" sunk (2.4)")
		case sh.Sunk && sh.Kind == "convoy":
			add(sc, 2, sh.ID+" sunk (2.4)")
		case sh.Damaged && big:
			add(sc, 2, sh.ID+" damaged (2.4)")
		case sh.Damaged && sh.Kind == "convoy":
			add(sc, 1, sh.ID+" damaged (2.4)")
		}
	}
	return german, allied
}

// mapStrength sums the combat factors of each side's units on a map (2.2).
func mapStrength(s *State, m string) (g, a int) {
	for i := range s.Units {
		u := &s.Units[i]
		if strings.HasPrefix(u.Loc, m+":") {
			if u.Side == German {
				g += u.cf()
			} else {
				a += u.cf()
			}
		}
	}
	return g, a
}

func result(s *State) engine.Result {
	g, a := Scores(s)
	r := engine.Result{Points: map[engine.Side]int{German: g.Total, Allied: a.Total}}
	switch {
	case g.Total >= a.Total+5:
		r.Winner, r.Level = German, "victory"
	case a.Total >= g.Total+5:
		r.Winner, r.Level = Allied, "victory"
	default:
		r.Level = "draw"
	}
	w := "draw (no side 5 points ahead, 2.5)"
	if r.Winner != "" {
		w = string(r.Winner) + " victory"
	}
	r.Summary = fmt.Sprintf("%s: German %d, Allied %d", w, g.Total, a.Total)
	return r
}

// Resolve implements engine.Ruleset: resolve, within the budget the dice
// carry (engine.Bound), a resolution that cannot go on (a manual die not in
// hand, its budget spent, its context done) returning why.
func (r rules) Resolve(st *State, orders map[engine.Side]*Orders, dice engine.Dice) (*State, error) {
	return engine.Guarded(r.resolve, st, orders, dice)
}

// New implements engine.Ruleset: newState, a set-up that asks a manual die
// not in hand returning why.
func (r rules) New(setup engine.Setup, dice engine.Dice) (*State, error) {
	return engine.GuardedNew(r.newState, setup, dice)
}
