package kampen

import (
	"fmt"
	"strings"

	"skagerrak/engine"
)

// Ruleset is "Kampen om Norge", scenario 2: rules adapted by engine.Book
// to engine.Ruleset and the rulebook's optional interfaces, and
// engine.SideSharer.
type Ruleset struct {
	engine.Book[*State, *View, Orders, rules]
}

// rules is the ruleset written against its own types (engine.TypedBook).
type rules struct{}

// The assertion also tells staticcheck that rules's methods are used:
// it does not follow them through engine.Book's type parameter.
var _ engine.TypedBook[*State, *View, Orders] = rules{}

func init() { engine.Register(Ruleset{}) }

// ScenarioID is the one scenario of the rulebook text.
const ScenarioID = "gudbrandsdalen"

// Name implements engine.Ruleset.
func (rules) Name() string { return "kampen" }

// Title implements engine.Ruleset.
func (rules) Title() string {
	return "Kampen om Norge, scenario 2: Gudbrandsdalen og Østerdalen"
}

// Sides implements engine.Ruleset: the three-player game. In the
// two-player game one player holds the Norwegian and the Allied keys.
func (rules) Sides() []engine.Side { return []engine.Side{Allied, German, Norwegian} }

// Scenarios implements engine.Ruleset.
func (rules) Scenarios() []engine.Info {
	return []engine.Info{{ID: ScenarioID, Title: "Scenario 2: Gudbrandsdalen og Østerdalen", Rule: "1"}}
}

// Options implements engine.Ruleset: the scenario has no optional rules.
func (rules) Options() []engine.Info { return []engine.Info{} }

// newState is New: the set-up of the text (1.1, 1.2), and
// every deck shuffled with the dice and dealt to its hand size.
func (rules) newState(setup engine.Setup, dice engine.Dice) (*State, error) {
	if _, err := engine.RevisionOf(Ruleset{}, setup); err != nil {
		return nil, err
	}
	if setup.Scenario != "" && setup.Scenario != ScenarioID {
		return nil, fmt.Errorf("kampen: unknown scenario %q (known: %s)", setup.Scenario, ScenarioID)
	}
	if len(setup.Options) > 0 {
		return nil, fmt.Errorf("kampen: unknown options %v (the scenario has none)", setup.Options)
	}
	s := &State{Scenario: ScenarioID, Round: 1, Turn: German, Step: StepMove, Stacks: []Stack{}, Events: []Event{}}
	for _, x := range data.Setup {
		s.add(x.Area, x.Side, x.N)
	}
	for _, side := range turnOrder {
		var cards []string
		for _, c := range data.Cards {
			if c.Side == side {
				for k := 0; k < c.Count; k++ {
					cards = append(cards, c.ID)
				}
			}
		}
		shuffle(cards, dice, "shuffle the "+string(side)+" deck")
		d := s.deck(side)
		n := HandSize(side)
		d.Hand = append([]string{}, cards[:n]...)
		d.Draw = append([]string{}, cards[n:]...)
		d.Used = []string{}
		s.logf(side, "%s is dealt%s", side, cardsText(side, d.Hand, " "))
	}
	s.logf("", "set-up: Germany in Oslo, Gjøvik, Hønefoss, Kongsvinger, Kongsberg and Trondheim; Norway in Hamar, Valdres, Lillehammer and Oppdal; the Allies in Åndalsnes and Dombås")
	return s, nil
}

// roundStages is the sequence of a player's round: the phasing side moves
// and reinforces; the sides it attacked answer (State.defenders).
var roundStages = engine.Sequence{
	{Name: StepMove, Title: "movement (phase 1): move battalions, play movement and attack cards", Phasing: true},
	{Name: StepDefend, Title: "the answer (phases 1-2): sabotage, flight, defence cards and retreats, then combat"},
	{Name: StepReinforce, Title: "reinforcement and new cards (phases 3-4): trade cards for battalions, place them, draw", Phasing: true},
}

// Phase implements engine.Ruleset.
func (rules) Phase(s *State) engine.Phase {
	if s.Over {
		return engine.GameOver("over", "game over: "+s.Summary)
	}
	return engine.Phase{ID: s.phaseID(), Title: phaseTitle(s.Round, s.Turn, s.Step), Owes: s.owes()}
}

func phaseTitle(round int, turn engine.Side, step string) string {
	return fmt.Sprintf("Round %d, %s round: %s", round, sideTitle(turn), roundStages.Named(step).Title)
}

func sideTitle(side engine.Side) string {
	return map[engine.Side]string{German: "the German", Norwegian: "the Norwegian", Allied: "the Allied"}[side]
}

// DefaultOrders implements engine.Ruleset: no movement and no cards; in
// the reinforcement step Germany places its free battalion in the first
// area it may (Oslo when it can).
func (rules) DefaultOrders(s *State, side engine.Side) Orders {
	o := Orders{Step: s.Step}
	if s.Step == StepReinforce && side == German && s.Turn == German {
		if ok, _ := s.CanPlace(German, "oslo"); ok {
			o.Places = []Place{{Area: "oslo", N: 1}}
		} else if p := s.placeable(German); len(p) > 0 {
			o.Places = []Place{{Area: p[0], N: 1}}
		}
	}
	return o
}

// FormatOrders implements engine.Ruleset: the orders as order-file lines.
func (rules) FormatOrders(_ *State, side engine.Side, o Orders) string {
	return formatOrders(o)
}

func formatOrders(o Orders) string {
	var b strings.Builder
	for _, m := range o.Moves {
		switch m.Card {
		case "":
			fmt.Fprintf(&b, "move %s %s %d\n", m.From, m.To(), m.N)
		case "rask-forflytning":
			fmt.Fprintf(&b, "rapid %s %s %d\n", m.From, strings.Join(m.Path, " "), m.N)
		case "fallskjermtropp":
			fmt.Fprintf(&b, "para %s %s\n", m.From, m.To())
		}
	}
	for _, a := range o.Attacks {
		line := strings.TrimSpace("attack " + a.Area + " " + strings.Join(a.Cards, " "))
		if a.First != "" {
			line += " first " + a.First
		}
		fmt.Fprintf(&b, "%s\n", line)
	}
	for _, a := range o.Reacts {
		fmt.Fprintf(&b, "react %s %s\n", a.Area, strings.Join(a.Cards, " "))
	}
	if o.Engineer != "" {
		fmt.Fprintf(&b, "engineer %s\n", o.Engineer)
	}
	for _, x := range o.Blocks {
		if x.From != "" {
			fmt.Fprintf(&b, "block %s %s from %s\n", x.Card, x.Area, x.From)
		} else {
			fmt.Fprintf(&b, "block %s %s\n", x.Card, x.Area)
		}
	}
	for _, f := range o.Flees {
		fmt.Fprintf(&b, "flee %s %s\n", f.From, f.To)
	}
	for _, d := range o.Defends {
		fmt.Fprintf(&b, "defend %s %s\n", d.Area, strings.Join(d.Cards, " "))
	}
	for _, r := range o.Retreats {
		fmt.Fprintf(&b, "retreat %s %s\n", r.From, r.To)
	}
	if o.Losses != "" {
		fmt.Fprintf(&b, "losses %s\n", o.Losses)
	}
	if len(o.Trade) > 0 {
		fmt.Fprintf(&b, "trade %s\n", strings.Join(o.Trade, " "))
	}
	for _, p := range o.Places {
		fmt.Fprintf(&b, "place %s %d\n", p.Area, p.N)
	}
	if o.Discard != "" {
		fmt.Fprintf(&b, "discard %s\n", o.Discard)
	}
	if o.Submarine != "" {
		fmt.Fprintf(&b, "submarine %s\n", o.Submarine)
	}
	return b.String()
}

// Result implements engine.Ruleset. Norway and the Allies win or lose
// together (1.4); their joint victory is reported with Winner "norwegian"
// and Level "joint".
func (rules) Result(s *State) *engine.Result {
	if !s.Over {
		return nil
	}
	r := &engine.Result{Winner: s.Winner, Summary: s.Summary,
		Points: map[engine.Side]int{German: s.germanObjectives()}}
	if s.Winner == Norwegian {
		r.Level = "joint"
	}
	return r
}

// New implements engine.Ruleset: newState, a set-up that asks a manual die
// not in hand returning why.
func (r rules) New(setup engine.Setup, dice engine.Dice) (*State, error) {
	return engine.GuardedNew(r.newState, setup, dice)
}

// SharedSides implements engine.SideSharer: with two players, one holds
// both Norway and the Allies (1.4); the two sides still play their own
// rounds with their own cards.
func (Ruleset) SharedSides() [][]engine.Side {
	return [][]engine.Side{{Norwegian, Allied}}
}
