package norway1940

import (
	"fmt"
	"sort"

	"skagerrak/engine"
)

func init() { engine.Register(Ruleset{}) }

// Ruleset is the Norway 1940 area game: rules adapted by engine.Book.
type Ruleset struct {
	engine.Book[*State, *View, *Orders, rules]
}

// rules is the ruleset written against its own types (engine.TypedBook).
type rules struct{}

// The assertion also tells staticcheck that rules's methods are used:
// it does not follow them through engine.Book's type parameter.
var _ engine.TypedBook[*State, *View, *Orders] = rules{}

// Option identifiers (Setup.Options).
const (
	OptCombatTablePage = "combat-table-page"
	OptNavalBonusFloor = "naval-bonus-floor"
	OptInterceptMono   = "interception-monotone"
	OptCBDetectSix     = "cb-detect-six"
	OptAnchored13      = "anchored-1-3"
	OptGarrisonSurrend = "garrison-surrender"
	OptDecisivePorts   = "decisive-grey-ports"
	OptRetreatLoses    = "retreat-loses-supply"
	OptSupportRoll     = "support-roll"
	OptAmphibAnywhere  = "16.1-amphibious-landings"
	OptElevation       = "16.2-ground-elevation"
	OptChainOfCommand  = "16.3-chain-of-command"
	OptNorwegianDepots = "16.4-norwegian-equipment"
	OptNarvikAirSupply = "16.5-narvik-air-supply"
	OptSpecialAir      = "16.6-special-air-units"
)

// Name implements engine.Ruleset.
func (rules) Name() string { return "norway1940" }

// Title implements engine.Ruleset.
func (rules) Title() string { return "Norway 1940 (area game)" }

// Sides implements engine.Ruleset.
func (rules) Sides() []engine.Side { return []engine.Side{Allied, German} }

// Scenarios implements engine.Ruleset.
func (rules) Scenarios() []engine.Info {
	return []engine.Info{{ID: "campaign", Title: "The Norwegian campaign, 6 April - June 1940 (21 turns)", Rule: "5.1"}}
}

// Options implements engine.Ruleset.
func (rules) Options() []engine.Info {
	return []engine.Info{
		{ID: OptCombatTablePage, Title: "Land combat on the Game Tables page Combat Table instead of the 10.5.3 table (the 10.5.8 example follows 10.5.3)", Rule: "10.5.3"},
		{ID: OptNavalBonusFloor, Title: "Naval combat bonus +1 per full 4 points of differential instead of the 9.14.5 example's +2 for 5", Rule: "9.14.5"},
		{ID: OptInterceptMono, Title: "Naval Interception Table -6 or less read as 1-6 evades instead of the printed 1", Rule: "9.14.5"},
		{ID: OptCBDetectSix, Title: "Coastal batteries detect on a 6 (table footnote) instead of 5-6 (15.2.1)", Rule: "15.2.1"},
		{ID: OptAnchored13, Title: "Anchored fleets are active on 1-3 (second printed box) instead of 1-2 (9.15.2)", Rule: "9.15.2"},
		{ID: OptGarrisonSurrend, Title: "Trondheim/Narvik garrisons surrender on 2-6 (printed table) instead of retreating (18)", Rule: "18"},
		{ID: OptDecisivePorts, Title: "Decisive victory counts only the grey German target ports, not every VP location", Rule: "12.3"},
		{ID: OptRetreatLoses, Title: "Retreating units lose all supplies stacked with them (10.5.6) instead of half (7.4.4)", Rule: "10.5.6"},
		{ID: OptSupportRoll, Title: "Land support bombers must roll a 6 to count (8.9.4) instead of adding their bonus (10.5.4)", Rule: "8.9.4"},
		{ID: OptAmphibAnywhere, Title: "Amphibious landings at any port (6 or 3 transport points a turn)", Rule: "16.1"},
		{ID: OptElevation, Title: "Ground elevation: a movement point to hold higher ground, -1 to attack it", Rule: "16.2"},
		{ID: OptChainOfCommand, Title: "Chain of command integrity: -1 for mixed divisions without an HQ", Rule: "16.3"},
		{ID: OptNorwegianDepots, Title: "Capture of Norwegian equipment: six depot markers, three real, each real one +1 in one combat", Rule: "16.4"},
		{ID: OptNarvikAirSupply, Title: "Narvik emergency air supply", Rule: "16.5"},
		{ID: OptSpecialAir, Title: "Special air units: Stukas hit on 5-6; Swordfish hit fleets on 5-6", Rule: "16.6"},
	}
}

// newState is New.
func (r rules) newState(setup engine.Setup, dice engine.Dice) (*State, error) {
	rev, err := engine.RevisionOf(Ruleset{}, setup)
	if err != nil {
		return nil, err
	}
	if setup.Scenario != "" && setup.Scenario != "campaign" {
		return nil, fmt.Errorf("norway1940: unknown scenario %q", setup.Scenario)
	}
	opts, err := r.setupOptions(setup)
	if err != nil {
		return nil, err
	}
	s := &State{Game: "norway1940", Scenario: "campaign", Options: opts, Turn: 1, Phasing: German,
		Weather: Weather{South: "clear", Centre: "clear", North: "clear"}}
	s.Revision = engine.Rev(rev).Recorded()
	setUpAreas(s)
	setUpForces(s)
	setUpSides(s)
	if s.has(OptNorwegianDepots) {
		placeDepots(s, dice)
	}
	startTurn(s, dice)
	return s, nil
}

// setupOptions returns the game's options sorted, each one the ruleset
// knows.
func (r rules) setupOptions(setup engine.Setup) ([]string, error) {
	known := map[string]bool{}
	for _, o := range r.Options() {
		known[o.ID] = true
	}
	opts := append([]string(nil), setup.Options...)
	sort.Strings(opts)
	for _, o := range opts {
		if !known[o] {
			return nil, fmt.Errorf("norway1940: unknown option %q", o)
		}
	}
	return opts, nil
}

// setUpAreas starts every Norwegian area Allied, with its airfields,
// coastal batteries and strongpoints.
func setUpAreas(s *State) {
	for _, a := range data.Areas {
		if a.Name == "Sweden" {
			continue
		}
		s.setControl(a.Name, Allied)
		if a.Airfields > 0 || a.Runway {
			s.Fields = append(s.Fields, &Airfield{Area: a.Name})
		}
		for i := 1; i <= a.CB; i++ {
			s.Bats = append(s.Bats, &Battery{Area: a.Name, N: i, Owner: Allied, Status: "active"})
		}
		if a.Strong {
			s.Strong = append(s.Strong, &Strongpoint{Area: a.Name, Owner: Allied, Usable: true})
		}
	}
}

// setUpForces places the land units where they start (aboard a fleet, or
// pending for a later entry on the map) and the fleets with their cargo.
func setUpForces(s *State) {
	d := data
	for _, ui := range d.Units {
		u := &Unit{ID: ui.ID, Side: ui.Side, Nation: ui.Nation, Type: ui.Type, Size: ui.Size, Mod: ui.Mod, Red: ui.Red,
			Move: ui.Move, Steps: ui.Steps, MaxSteps: ui.Steps, Div: ui.Div, Entry: ui.Entry, Goal: ui.Goal}
		switch {
		case d.fleetInfo(ui.Start) != nil:
			u.Fleet = ui.Start
		case ui.Entry > 1 && ui.Start != Germany && ui.Start != UK && ui.Start != ParaBox:
			u.Loc = "Pending:" + ui.Start
		default:
			u.Loc = ui.Start
		}
		s.Units = append(s.Units, u)
	}
	for _, fi := range d.Fleets {
		f := &Fleet{ID: fi.ID, Side: fi.Side, Nation: fi.Nation, Where: fi.Where, Combat: fi.Combat, Transport: fi.Transport, Goal: fi.Goal}
		for _, u := range s.Units {
			if u.Fleet == f.ID {
				f.Cargo = append(f.Cargo, u.ID)
			}
		}
		s.Fleets = append(s.Fleets, f)
	}
}

// setUpSides gives each side its submarines, standing orders and decoys.
func setUpSides(s *State) {
	d := data
	for _, x := range []engine.Side{Allied, German} {
		ss := &SideState{Side: x, Subs: d.Subs[string(x)], Standing: Standing{Evade: "weaker", React: true}}
		var nations []string
		for n := range d.Decoys {
			nations = append(nations, n)
		}
		sort.Strings(nations)
		for _, n := range nations {
			if (n == "german") == (x == German) {
				ss.Decoys = append(ss.Decoys, Count{Nation: n, N: d.Decoys[n]})
				ss.Returned = append(ss.Returned, Count{Nation: n})
			}
		}
		s.Sides = append(s.Sides, ss)
	}
}

func (d *Data) fleetInfo(id string) *FleetInfo {
	return engine.Find(d.Fleets, func(x *FleetInfo) bool { return x.ID == id })
}

// turnStages is the turn's sequence: the German player-turn, then the
// Allied, each owed by its phasing side (State.Phasing names the stage);
// a decision asked for in person opens a short phase inside one
// (shortPhase).
var turnStages = engine.Sequence{
	{Name: string(German), Kind: PhaseTurn, Title: "German player-turn (naval, air and land phases)", Phasing: true},
	{Name: string(Allied), Kind: PhaseTurn, Title: "Allied player-turn (naval, air and land phases)", Phasing: true},
}

// PhaseOf returns the open phase of a state.
func PhaseOf(s *State) engine.Phase {
	if s.Over {
		return engine.GameOver(fmt.Sprintf("T%02d-end", s.Turn), "Game over")
	}
	if s.Pending != nil {
		return shortPhase(s)
	}
	date := ""
	if s.Turn < len(data.Calendar) {
		date = data.Calendar[s.Turn]
	}
	stage := turnStages.Named(string(s.Phasing))
	return engine.Phase{ID: fmt.Sprintf("T%02d-%s", s.Turn, stage.Name),
		Title: fmt.Sprintf("Turn %d, %s: %s", s.Turn, date, stage.Title),
		Owes:  stage.Owing(s.Phasing)}
}

// Phase implements engine.Ruleset.
func (rules) Phase(st *State) engine.Phase { return PhaseOf(st) }

// Result implements engine.Ruleset.
func (rules) Result(s *State) *engine.Result {
	if !s.Over || s.Result == nil {
		return nil
	}
	r := *s.Result
	return &r
}

// resolve is Resolve. A player-turn phase resolves the
// phasing side's orders; when a decision comes up that the other side
// asked to take in person, it stops there and returns the state of that
// moment with a short phase open (Pending). Resolving the short phase
// adds the decision and goes on where the player-turn stopped: the
// player-turn is resolved again from its start with the same orders, the
// rolls already made and the decisions already taken, then with the short
// phase's dice.
func (rules) resolve(s0 *State, orders map[engine.Side]*Orders, dice engine.Dice) (*State, error) {
	if s0.Over {
		return nil, fmt.Errorf("norway1940: the game is over")
	}
	if s0.Pending != nil {
		return resume(s0, orders, dice)
	}
	o, ok := orders[s0.Phasing]
	if !ok || o == nil {
		return nil, fmt.Errorf("norway1940: no orders for %s", s0.Phasing)
	}
	start := s0.clone()
	start.Events = nil
	return runPlayerTurn(&Pending{Start: start, Orders: engine.DeepCopy(o)}, dice)
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
