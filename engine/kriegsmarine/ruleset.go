package kriegsmarine

import (
	"encoding/json"
	"fmt"

	"skagerrak/engine"
)

func init() { engine.Register(Ruleset{}) }

// Ruleset is Norway 1940: The Kriegsmarine Strikes. It implements
// engine.Ruleset, engine.OrderFormer, engine.Player and engine.RuleLister.
type Ruleset struct{}

var (
	_ engine.Ruleset     = Ruleset{}
	_ engine.OrderFormer = Ruleset{}
	_ engine.Player      = Ruleset{}
	_ engine.RuleLister  = Ruleset{}
)

var options = []engine.Info{
	{ID: OptWeather, Title: "Weather: gale at the start, changes on morning and afternoon turns", Rule: "15.0"},
	{ID: OptIndependent, Title: "Independent destroyers detached from destroyer task forces", Rule: "12.0"},
	{ID: OptCommanders, Title: "Commanders", Rule: "10.0"},
	{ID: OptSupply, Title: "Fleet oiler supply north of row S", Rule: "13.1"},
	{ID: OptWilfred, Title: "The Wilfred Force", Rule: "11.0"},
	{ID: OptSplitting, Title: "Splitting tracked groups to escape", Rule: "6.43"},
	{ID: OptGrafZeppelin, Title: "Graf Zeppelin (German); Ark Royal answers on turn 4", Rule: "4.5"},
	{ID: OptBismarck, Title: "Bismarck (German); the Allies answer with one of the three choices", Rule: "4.5"},
	{ID: OptBismarckHood, Title: "Allied answer to Bismarck: Hood and King George V, second wave", Rule: "4.5"},
	{ID: OptBismarckStr, Title: "Allied answer to Bismarck: Strasbourg and Dunkerque, third wave", Rule: "4.5"},
	{ID: OptBismarckFr, Title: "Allied answer to Bismarck: Richelieu, Suffren and French DD Flot 2, third wave", Rule: "4.5"},
	{ID: OptQShips, Title: "German Q-ships", Rule: "17.7"},
	{ID: OptDanish, Title: "The Danish forces", Rule: "17.3"},
	{ID: OptWehrmacht, Title: "Wehrmacht infantry at Oslo or Kristiansand on turn 14 or 16", Rule: "17.15"},
	{ID: OptNorFighters, Title: "Additional aircraft: Norwegian fighter squadrons; airborne landings on every Norwegian airfield", Rule: "17.1"},
	{ID: OptInvasion, Title: "The German player takes the Invasion of Norway whatever the dice say", Rule: "4.1"},
	{ID: OptGladiators, Title: "Gladiator fighters added to Furious", Rule: "17.14"},
	{ID: OptSkua, Title: "The Skua flies as a fighter or a dive bomber", Rule: "17.8"},
	{ID: OptTorpedoes, Title: "German torpedoes work as advertised", Rule: "17.5"},
	{ID: OptBergenTorp, Title: "Bergen's secret torpedo tubes", Rule: "17.6"},
	{ID: OptKGV, Title: "King George V's main armament works: gunnery 11 (5 damaged)", Rule: "17.2"},
}

// Name implements engine.Ruleset.
func (Ruleset) Name() string { return "kriegsmarine" }

// Title implements engine.Ruleset.
func (Ruleset) Title() string { return "Norway 1940: The Kriegsmarine Strikes" }

// Sides implements engine.Ruleset.
func (Ruleset) Sides() []engine.Side { return []engine.Side{Allied, German} }

// Scenarios implements engine.Ruleset: the one game of the rulebook, 8-11
// April 1940 in 18 turns.
func (Ruleset) Scenarios() []engine.Info {
	return []engine.Info{{ID: "historical", Title: "8-11 April 1940: the German objective drawn in secret (18 turns)", Rule: "4.0"}}
}

// Options implements engine.Ruleset.
func (Ruleset) Options() []engine.Info { return append([]engine.Info(nil), options...) }

// New implements engine.Ruleset: the target determination (4.1) and the
// set-up (4.2-4.6).
func (Ruleset) New(setup engine.Setup, dice engine.Dice) (engine.State, error) {
	return newState(setup, dice)
}

// DecodeState implements engine.Ruleset.
func (Ruleset) DecodeState(data []byte) (engine.State, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("kriegsmarine: decode state: %w", err)
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("kriegsmarine: state version %d, want 1", s.Version)
	}
	return &s, nil
}

func asState(st engine.State) *State {
	switch x := st.(type) {
	case *State:
		return x
	case State:
		return &x
	}
	panic(fmt.Sprintf("kriegsmarine: not a kriegsmarine state: %T", st))
}

// Phase implements engine.Ruleset: each turn is one phase "T01".."T18" in
// which both sides give movement, search and encounter orders at once.
func (Ruleset) Phase(st engine.State) engine.Phase {
	s := asState(st)
	if s.Over {
		return engine.Phase{ID: "over", Title: "The game is over", Over: true}
	}
	return engine.Phase{ID: phaseID(s.Turn), Title: TurnTitle(s.Turn) + ": movement, search and encounter orders", Owes: []engine.Side{Allied, German}}
}

// ParseOrders implements engine.Ruleset. Orders are checked against the
// side's View only, so that an error never tells a player anything he does
// not know.
func (Ruleset) ParseOrders(st engine.State, side engine.Side, text string) (engine.Orders, []engine.LineError) {
	s := asState(st)
	if side != Allied && side != German {
		return nil, []engine.LineError{{Msg: fmt.Sprintf("unknown side %q (allied or german)", side)}}
	}
	o, errs := parseOrders(s.view(side), text)
	if len(errs) > 0 {
		return nil, errs
	}
	return o, nil
}

// DefaultOrders implements engine.Ruleset: no movement and no searches; the
// standing encounter choices default to Track for the Allies and Evade for
// the Germans.
func (Ruleset) DefaultOrders(st engine.State, side engine.Side) engine.Orders { return &Orders{} }

// FormatOrders implements engine.Ruleset.
func (Ruleset) FormatOrders(st engine.State, side engine.Side, o engine.Orders) string {
	return formatOrders(asOrders(o))
}

func asOrders(o engine.Orders) *Orders {
	switch x := o.(type) {
	case *Orders:
		if x == nil {
			return &Orders{}
		}
		return x
	case Orders:
		return &x
	case nil:
		return &Orders{}
	}
	b, err := json.Marshal(o)
	if err == nil {
		var out Orders
		if json.Unmarshal(b, &out) == nil {
			return &out
		}
	}
	return &Orders{}
}

// Resolve implements engine.Ruleset: one whole turn (5.1-5.6).
func (Ruleset) Resolve(st engine.State, orders map[engine.Side]engine.Orders, dice engine.Dice) (engine.State, error) {
	in := asState(st)
	if in.Over {
		return nil, fmt.Errorf("kriegsmarine: the game is over")
	}
	s := in.clone()
	os := map[engine.Side]*Orders{}
	for _, side := range []engine.Side{Allied, German} {
		o, ok := orders[side]
		if !ok {
			return nil, fmt.Errorf("kriegsmarine: no orders for %s", side)
		}
		os[side] = asOrders(o)
	}
	s.resolveTurn(os, dice)
	return s, nil
}

// View implements engine.Ruleset.
func (Ruleset) View(st engine.State, side engine.Side) engine.View {
	return asState(st).view(side)
}

// Result implements engine.Ruleset.
func (Ruleset) Result(st engine.State) *engine.Result {
	s := asState(st)
	if !s.Over {
		return nil
	}
	return s.Result
}
