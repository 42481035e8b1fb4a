package kriegsmarine

import (
	"fmt"

	"skagerrak/engine"
)

func init() { engine.Register(Ruleset{}) }

// Ruleset is Norway 1940: The Kriegsmarine Strikes: rules adapted by
// engine.Book to engine.Ruleset and the rulebook's optional interfaces.
type Ruleset struct {
	engine.Book[*State, *View, *Orders, rules]
}

// rules is the ruleset written against its own types (engine.TypedBook).
type rules struct{}

// The assertion also tells staticcheck that rules's methods are used:
// it does not follow them through engine.Book's type parameter.
var _ engine.TypedBook[*State, *View, *Orders] = rules{}

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
func (rules) Name() string { return "kriegsmarine" }

// Title implements engine.Ruleset.
func (rules) Title() string { return "Norway 1940: The Kriegsmarine Strikes" }

// Sides implements engine.Ruleset.
func (rules) Sides() []engine.Side { return []engine.Side{Allied, German} }

// Scenarios implements engine.Ruleset: the one game of the rulebook, 8-11
// April 1940 in 18 turns.
func (rules) Scenarios() []engine.Info {
	return []engine.Info{{ID: "historical", Title: "8-11 April 1940: the German objective drawn in secret (18 turns)", Rule: "4.0"}}
}

// Options implements engine.Ruleset.
func (rules) Options() []engine.Info { return append([]engine.Info(nil), options...) }

// newState is New: the target determination (4.1) and the
// set-up (4.2-4.6).
func (rules) newState(setup engine.Setup, dice engine.Dice) (*State, error) {
	return newState(setup, dice)
}

// AfterDecode implements engine.Decoded: a state read back is of version 1.
func (s *State) AfterDecode() error {
	if s.Version != 1 {
		return fmt.Errorf("state version %d, want 1", s.Version)
	}
	return nil
}

// turnStages is the turn's sequence: one stage, in which both sides give
// their orders at once.
var turnStages = engine.Sequence{
	{Name: "turn", Kind: PhaseTurn, Title: "movement, search and encounter orders", Owes: []engine.Side{Allied, German}},
}

// Phase implements engine.Ruleset: each turn is one phase "T01".."T18" in
// which both sides give movement, search and encounter orders at once.
// Where a side asked to decide an encounter or a battle round in person, a
// short phase opens inside the turn ("T05-encounter", "T05-combat",
// "T05-combat-2", ...), owed by the asking sides only.
func (rules) Phase(s *State) engine.Phase {
	if s.Over {
		return engine.GameOver("over", "The game is over")
	}
	owes := turnStages[0].Owing("")
	if s.Pending != nil {
		owes = s.Pending.Ask.Sides()
	}
	return engine.Phase{ID: s.phaseName(), Title: s.phaseTitle(), Owes: owes}
}

// ParseOrders implements engine.Ruleset. Orders are checked against the
// side's View only, so that an error never tells a player anything he does
// not know. In a short decision phase only the decision lines are valid.
func (rules) ParseOrders(s *State, side engine.Side, text string) (*Orders, []engine.LineError) {
	if side != Allied && side != German {
		return nil, []engine.LineError{{Msg: fmt.Sprintf("unknown side %q (allied or german)", side)}}
	}
	if s.Pending != nil && s.Pending.Ask.question(side) == nil {
		return nil, []engine.LineError{{Msg: fmt.Sprintf("the %s player owes no orders in phase %s", sideName(side), s.phaseName())}}
	}
	o, errs := parseOrders(s.sideView(side, false), text)
	if len(errs) > 0 {
		return nil, errs
	}
	return o, nil
}

// DefaultOrders implements engine.Ruleset: in a turn phase no movement and
// no searches, the standing encounter choices defaulting to Track for the
// Allies and Evade for the Germans; in a short decision phase "standing":
// the group's standing encounter choice (with its "ask" lines left out,
// else the default above, fight in a port or fjord), or the turn's
// standing combat declarations and 8.24 choice.
func (rules) DefaultOrders(s *State, side engine.Side) *Orders {
	if s.Pending != nil {
		return &Orders{Decision: &Decision{Kind: s.Pending.Ask.Kind, Standing: true}}
	}
	return &Orders{}
}

// FormatOrders implements engine.Ruleset.
func (rules) FormatOrders(st *State, side engine.Side, o *Orders) string {
	if o == nil {
		o = &Orders{}
	}
	return formatOrders(o)
}

// resolve is Resolve: one whole turn (5.1-5.6), up to the
// first decision a side asked to take in person; or, in a short decision
// phase, the rest of the turn from where it stopped.
func (rules) resolve(in *State, orders map[engine.Side]*Orders, dice engine.Dice) (*State, error) {
	if in.Over {
		return nil, fmt.Errorf("kriegsmarine: the game is over")
	}
	start := *in
	start.Pending = nil
	var turn map[engine.Side]*Orders
	var points []Point
	var rolls []Rolled
	if p := in.Pending; p != nil {
		turn = engine.DeepCopy(p.Orders).bySide()
		points = append(append([]Point(nil), p.Points...), Point{Kind: p.Ask.Kind})
		last := &points[len(points)-1]
		for _, side := range p.Ask.Sides() {
			o, ok := orders[side]
			if !ok {
				return nil, fmt.Errorf("kriegsmarine: no decision of %s", side)
			}
			d := Decision{Kind: p.Ask.Kind, Standing: true}
			if o != nil && o.Decision != nil {
				d = *engine.DeepCopy(o.Decision)
			}
			last.Answers = append(last.Answers, Answer{Side: side, Decision: d})
		}
		rolls = p.Rolls
	} else {
		turn = map[engine.Side]*Orders{}
		for _, side := range []engine.Side{Allied, German} {
			o, ok := orders[side]
			if !ok {
				return nil, fmt.Errorf("kriegsmarine: no orders for %s", side)
			}
			if o == nil {
				o = &Orders{}
			}
			turn[side] = engine.DeepCopy(o)
			if turn[side].Decision != nil {
				return nil, fmt.Errorf("kriegsmarine: %s gave a decision where turn orders are owed", side)
			}
		}
	}
	s, ask, all, err := playTurn(&start, turn, points, rolls, dice)
	if err != nil {
		return nil, err
	}
	if ask == nil {
		return s, nil
	}
	out := start.clone()
	out.Pending = engine.DeepCopy(&Pending{Orders: TurnOrders{Allied: turn[Allied], German: turn[German]}, Points: points, Rolls: all, Ask: *ask, At: s})
	return out, nil
}

// View implements engine.Ruleset. While a short decision phase is open,
// the sides that owe it see the turn as far as it went and their question;
// the others see the turn's start, as before they sent their orders.
func (rules) View(st *State, side engine.Side) *View {
	return st.sideView(side, true)
}

// sideView is View, with or without the reports (see viewOf).
func (s *State) sideView(side engine.Side, reports bool) *View {
	if s.Pending != nil {
		if q := s.Pending.Ask.question(side); q != nil {
			v := s.Pending.At.viewOf(side, reports)
			v.Phase = s.phaseName()
			v.Title = s.phaseTitle()
			v.Decision = engine.DeepCopy(q)
			return v
		}
	}
	return s.viewOf(side, reports)
}

// Result implements engine.Ruleset.
func (rules) Result(s *State) *engine.Result {
	if !s.Over {
		return nil
	}
	return s.Result
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
