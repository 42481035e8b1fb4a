package kriegsmarine

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// Decisions taken in person (6.41, 8.24, 8.26-8.28).
//
// A side that writes "encounter UNIT|all ask" or "combat ask" in its turn
// orders decides those things only once they happen. Resolve then plays the
// turn up to the first such decision and stops: the state it returns keeps
// the turn's start (so that the other side's View is what it was), the
// turn's orders, the answers given so far, every die rolled so far and the
// partial state at the question (so that the asking side's View shows what
// it has learned up to that moment). The short phase that opens is owed by
// the asking sides only. Resolving it replays the turn from its start with
// the same orders and the same rolls, takes the recorded answers at the
// recorded questions, and goes on with fresh dice where the first pass
// stopped: the turn continues exactly where it stopped, and finishes or
// stops at the next asked decision.

// Decision kinds.
const (
	DecideEncounter = "encounter" // the encounter choice (6.41)
	DecideCombat    = "combat"    // the declarations of a battle round and the 8.24 check
)

// ChoiceAsk is the encounter "choice" of a group whose player decides in
// person when the encounter happens.
const ChoiceAsk = "ask"

// Decision is a side's answer in a short decision phase. Standing means
// "as my turn orders say": the standing encounter choice of the group (the
// documented default when it has none), or the turn's standing combat
// declarations and the group's standing choice for 8.24. Otherwise a
// combat decision replaces the turn's combat declarations for that round:
// what it does not say takes the rules' default (no restricted fire, no
// escort, targets chosen as standing orders do without a target line, all
// torpedoes), and a missing Choice is the standing one.
type Decision struct {
	Kind     string    `json:"kind"`
	Standing bool      `json:"standing,omitempty"`
	Choice   string    `json:"choice,omitempty"`
	Restrict bool      `json:"restrict,omitempty"`
	Escorts  []string  `json:"escorts,omitempty"`
	Targets  []Target  `json:"targets,omitempty"`
	TorpCaps []TorpCap `json:"torp_caps,omitempty"`
}

// Question is what one side must decide in a short phase, as its View
// shows it: only what the rules let it know at that moment.
type Question struct {
	Side engine.Side `json:"side"`
	Kind string      `json:"kind"`
	// Rule is the rulebook section of the decision.
	Rule string `json:"rule"`
	Hex  string `json:"hex"`
	// Round is the battle round about to be fought (combat decisions).
	Round int `json:"round,omitempty"`
	// Units are the side's own units in the encounter or battle (ids).
	Units []string `json:"units"`
	// Enemy are the enemy ship types as reported (6.41, 6.46) or seen in
	// the battle (8.21).
	Enemy []string `json:"enemy"`
	// Choices are the decision lines allowed now.
	Choices []string `json:"choices"`
	// Default is what the deadline gives (DefaultOrders), in words.
	Default string `json:"default"`
	// DefaultChoice is the standing encounter or 8.24 choice.
	DefaultChoice string `json:"default_choice,omitempty"`
	// InPort is set in a port or fjord hex, where evade is not allowed
	// (6.41 note).
	InPort bool `json:"in_port,omitempty"`
	// MayRestrict: the side may declare restricted fire (8.26);
	// EscortsAllowed: how many ships it may escort this round (8.27).
	MayRestrict    bool `json:"may_restrict,omitempty"`
	EscortsAllowed int  `json:"escorts_allowed,omitempty"`
	// SoFar are the rounds of the battle fought so far.
	SoFar []string `json:"so_far,omitempty"`
}

// Ask is an open short phase: the questions of one decision point.
type Ask struct {
	Kind string `json:"kind"`
	// Seq counts the short phases of this kind in the turn, from 1.
	Seq       int        `json:"seq"`
	Questions []Question `json:"questions"`
}

// Sides lists the sides owing answers, sorted.
func (a Ask) Sides() []engine.Side {
	var out []engine.Side
	for _, side := range []engine.Side{Allied, German} {
		for _, q := range a.Questions {
			if q.Side == side {
				out = append(out, side)
				break
			}
		}
	}
	return out
}

func (a Ask) question(side engine.Side) *Question {
	return engine.Find(a.Questions, func(x *Question) bool { return x.Side == side })
}

// Answer is one side's decision at a decision point.
type Answer struct {
	Side     engine.Side `json:"side"`
	Decision Decision    `json:"decision"`
}

// Point is one decision point of the turn already answered.
type Point struct {
	Kind    string   `json:"kind"`
	Answers []Answer `json:"answers"`
}

// Rolled is one die rolled during the turn so far (replayed when the turn
// goes on).
type Rolled struct {
	Sides int `json:"s"`
	Value int `json:"v"`
}

// TurnOrders are both sides' orders for the turn.
type TurnOrders struct {
	Allied *Orders `json:"allied"`
	German *Orders `json:"german"`
}

func (t TurnOrders) bySide() map[engine.Side]*Orders {
	return map[engine.Side]*Orders{Allied: t.Allied, German: t.German}
}

// Pending is a turn stopped at a decision taken in person.
type Pending struct {
	Orders TurnOrders `json:"orders"`
	Points []Point    `json:"points,omitempty"`
	Rolls  []Rolled   `json:"rolls,omitempty"`
	Ask    Ask        `json:"ask"`
	// At is the state at the question.
	At *State `json:"at"`
}

// turnRun is the bookkeeping of a turn being resolved: the answers known
// and how many decision points were passed.
type turnRun struct {
	points []Point
	next   int
}

// stopAt unwinds the resolution of a turn to Resolve at an unanswered
// decision point.
type stopAt struct{ ask Ask }

// decide returns the answers of the asking sides at the next decision
// point, or stops the turn there if they are not known yet.
func (s *State) decide(kind string, qs []Question) map[engine.Side]Decision {
	r := s.run
	if r == nil || len(qs) == 0 {
		return nil
	}
	k := r.next
	r.next++
	if k < len(r.points) {
		out := map[engine.Side]Decision{}
		for _, a := range r.points[k].Answers {
			out[a.Side] = a.Decision
		}
		return out
	}
	seq := 1
	for _, p := range r.points {
		if p.Kind == kind {
			seq++
		}
	}
	panic(stopAt{Ask{Kind: kind, Seq: seq, Questions: qs}})
}

// replayDice rolls the recorded rolls first, then fresh ones, and records
// them all.
type replayDice struct {
	old      []Rolled
	next     engine.Dice
	all      []Rolled
	mismatch string
}

// Roll implements engine.Dice.
func (d *replayDice) Roll(sides int, why string) int {
	if i := len(d.all); i < len(d.old) {
		r := d.old[i]
		if r.Sides != sides && d.mismatch == "" {
			d.mismatch = fmt.Sprintf("roll %d was a d%d and is now asked for as a d%d (%s)", i+1, r.Sides, sides, why)
		}
		d.all = append(d.all, r)
		return r.Value
	}
	v := d.next.Roll(sides, why)
	d.all = append(d.all, Rolled{Sides: sides, Value: v})
	return v
}

// playTurn resolves the turn of start with the given orders and answers,
// replaying rolls first. It returns the finished state, or the Ask it
// stopped at with the partial state.
func playTurn(start *State, orders map[engine.Side]*Orders, points []Point, rolls []Rolled, dice engine.Dice) (s *State, ask *Ask, all []Rolled, err error) {
	s = start.clone()
	s.Pending = nil
	rd := &replayDice{old: rolls, next: dice}
	s.run = &turnRun{points: points}
	func() {
		defer func() {
			if x := recover(); x != nil {
				st, ok := x.(stopAt)
				if !ok {
					panic(x)
				}
				ask = &st.ask
			}
		}()
		s.resolveTurn(orders, rd)
	}()
	s.run = nil
	if rd.mismatch != "" {
		return nil, nil, nil, fmt.Errorf("kriegsmarine: the turn does not replay: %s", rd.mismatch)
	}
	if ask == nil && len(rd.all) < len(rolls) {
		return nil, nil, nil, fmt.Errorf("kriegsmarine: the turn does not replay: %d of %d rolls used", len(rd.all), len(rolls))
	}
	return s, ask, rd.all, nil
}

// phaseName is the ID of the open phase of a state.
func (s *State) phaseName() string {
	if s.Pending == nil {
		return phaseID(s.Turn)
	}
	a := s.Pending.Ask
	id := fmt.Sprintf("%s-%s", phaseID(s.Turn), a.Kind)
	if a.Seq > 1 {
		id += fmt.Sprintf("-%d", a.Seq)
	}
	return id
}

// phaseTitle says what is owed in the open phase.
func (s *State) phaseTitle() string {
	if s.Pending == nil {
		return TurnTitle(s.Turn) + ": " + turnStages[0].Title
	}
	var who []string
	for _, side := range s.Pending.Ask.Sides() {
		who = append(who, "the "+sideName(side)+" player")
	}
	what := "an encounter choice (6.41)"
	if s.Pending.Ask.Kind == DecideCombat {
		what = "the decisions of a battle round (8.24, 8.26-8.28)"
	}
	return fmt.Sprintf("%s: %s decides %s in person", TurnTitle(s.Turn), strings.Join(who, " and "), what)
}

// standingChoice is the choice a group's standing orders give when its
// player asked to decide in person: its choice with the "ask" lines left
// out (6.41; the documented default).
func standingChoice(side engine.Side, o *Orders, group []string, h engine.Hex) string {
	return choiceOf(side, o, group, h)
}

// asksEncounter reports whether a group's player decides its encounter in
// person: the order that gives the group its choice (the first unit of the
// group by id with an order, else the side's "all") is "ask".
func asksEncounter(o *Orders, group []string) bool {
	for _, id := range sortedIDs(group) {
		for _, e := range o.Encounters {
			if e.Unit == id {
				return e.Choice == ChoiceAsk
			}
		}
	}
	for _, e := range o.Encounters {
		if e.Unit == "" {
			return e.Choice == ChoiceAsk
		}
	}
	return false
}

// encounterQuestion is what a side asking to decide an encounter in hex h
// is told: its own group and the enemy's types as reported (6.41, 6.46).
func (s *State) encounterQuestion(side engine.Side, o *Orders, own, enemy []string, h engine.Hex) Question {
	dc := standingChoice(side, o, own, h)
	q := Question{Side: side, Kind: DecideEncounter, Rule: "6.41", Hex: h.String(), Units: sortedIDs(own), Enemy: s.reported(enemy),
		DefaultChoice: dc, InPort: portOrFjord(h)}
	q.Choices = []string{ChoiceTrack, ChoiceEvade, ChoiceFight, "standing"}
	if q.InPort {
		q.Choices = []string{ChoiceTrack, ChoiceFight, "standing"}
	}
	q.Default = fmt.Sprintf("%s: the group's standing encounter choice, or if it has none track for the Allies and evade for the Germans (fight in a port or fjord)", dc)
	return q
}

// decided is a side's encounter choice from its answer.
func decidedChoice(d Decision, standing string, h engine.Hex) string {
	c := d.Choice
	if d.Standing || c == "" {
		c = standing
	}
	if c == ChoiceEvade && portOrFjord(h) {
		c = ChoiceFight // 6.41 note
	}
	return c
}

// combatQuestion is what a side asking to decide a battle round is told:
// the ships in the battle (8.21: both players see them), the rounds so
// far, and what it may declare.
func (s *State) combatQuestion(side engine.Side, g *Engagement, orders map[engine.Side]*Orders, round int, own, enemy []string, soFar []string) Question {
	q := Question{Side: side, Kind: DecideCombat, Rule: "8.2", Hex: g.Hex.String(), Round: round, Units: sortedIDs(own), Enemy: typesOf(enemy),
		SoFar: append([]string(nil), soFar...), MayRestrict: s.mayRestrict(own)}
	if round == 1 {
		q.EscortsAllowed = s.escortsAllowed(g, own, enemy)
	}
	if round > 1 {
		q.DefaultChoice = choiceOf(side, orders[side], own, g.Hex)
		q.Choices = append(q.Choices, ChoiceFight, ChoiceEvade)
	}
	if q.MayRestrict {
		q.Choices = append(q.Choices, "restrict")
	}
	if q.EscortsAllowed > 0 {
		q.Choices = append(q.Choices, "escort SHIP[, SHIP]")
	}
	q.Choices = append(q.Choices, "target UNIT TYPE", "torpedoes UNIT N", "standing")
	q.Default = "standing: the turn's standing combat orders (escort, restrict, target, torpedoes)"
	if round > 1 {
		q.Default += fmt.Sprintf(", and %s at the end-of-round check (the group's standing encounter choice)", q.DefaultChoice)
	}
	return q
}

// roundOrders are the orders a battle round is fought with: a side's turn
// orders, or for a side that decided the round in person its declarations.
func roundOrders(orders map[engine.Side]*Orders, dec map[engine.Side]Decision) map[engine.Side]*Orders {
	out := map[engine.Side]*Orders{}
	for side, o := range orders {
		out[side] = o
		d, ok := dec[side]
		if !ok || d.Standing {
			continue
		}
		c := *o
		c.Restrict, c.Escorts, c.Targets, c.TorpCaps = d.Restrict, d.Escorts, d.Targets, d.TorpCaps
		out[side] = &c
	}
	return out
}

// deciding is what a decision file has said so far: the lines of its
// choice, standing, restrict and escort orders, and how many decisions
// besides the choice it gives.
type deciding struct {
	p *parser
	q *Question
	d *Decision

	choiceLine, standingLine, restrictLine, escortLine int
	others                                             int
}

// phaseKind is the verb table's kind of the question's short phase.
func (x *deciding) phaseKind() string {
	if x.q.Kind == DecideCombat {
		return PhaseCombat
	}
	return PhaseEncounter
}

// decisionDriver binds the decision phases' verbs of the table to the
// functions that read them; what the open phase's question does not take
// is refused with the decision that is owed.
var decisionDriver = engine.Driver[*deciding]{
	Verbs: Verbs.In(PhaseEncounter, PhaseCombat),
	Funcs: map[string]engine.VerbFunc[*deciding]{
		"standing":  (*deciding).standing,
		"pass":      (*deciding).standing,
		"track":     (*deciding).choice,
		"encounter": (*deciding).choice,
		"restrict":  (*deciding).restrict,
		"escort":    (*deciding).escort,
		"target":    (*deciding).targets,
		"torpedoes": (*deciding).targets,
	},
	Open:    func(x *deciding, v engine.Verb) bool { return v.Allows(x.phaseKind(), "", int(x.p.v.rev())) },
	Valid:   func(x *deciding) []string { return x.q.Choices },
	Unknown: func(x *deciding, l engine.OrderLine, valid string) { x.owed(l, valid) },
	Closed:  func(x *deciding, l engine.OrderLine, _ engine.Verb, valid string) { x.owed(l, valid) },
	Refuse: func(x *deciding, e engine.LineError) {
		if e.Rule == "" {
			e.Rule = x.q.Rule
		}
		x.p.errs = append(x.p.errs, e)
	},
}

// owed refuses a line that is no decision of the question.
func (x *deciding) owed(l engine.OrderLine, valid string) {
	what := "the decision"
	if x.q.Kind == DecideEncounter {
		what = "the encounter choice"
	}
	x.p.fail(l, x.q.Rule, valid, "only %s is owed now: %s", what, strings.Join(x.q.Choices, ", "))
}

// decision parses the order file of a short decision phase: only the
// decision lines of its question (6.41 or 8.24, 8.26-8.28).
func (p *parser) decision(lines []engine.OrderLine) (*Orders, []engine.LineError) {
	q := p.v.Decision
	x := &deciding{p: p, q: q, d: &Decision{Kind: q.Kind}}
	for _, l := range lines {
		decisionDriver.Line(x, l)
	}
	if x.d.Standing && (x.choiceLine > 0 || x.others > 0) {
		p.fail(engine.OrderLine{N: x.standingLine, Text: p.text[x.standingLine]}, q.Rule, "standing alone, or the decisions", "standing keeps the turn's orders and stands alone")
	}
	if len(p.errs) > 0 {
		sortErrs(p.errs)
		return nil, p.errs
	}
	x.d.Targets, x.d.TorpCaps = p.o.Targets, p.o.TorpCaps
	return &Orders{Decision: x.d}, nil
}

// standing reads "standing" or "pass": the turn's orders stand, alone.
func (x *deciding) standing(l engine.OrderLine, _ []string) {
	verb := strings.ToLower(l.Fields[0])
	if x.standingLine > 0 {
		x.p.fail(l, x.q.Rule, "", "a second %s line (line %d)", verb, x.standingLine)
		return
	}
	x.standingLine = l.N
	x.d.Standing = verb == "standing"
}

// choice reads the encounter or end-of-round choice, alone or as
// "encounter [all] CHOICE" (6.41, 8.24).
func (x *deciding) choice(l engine.OrderLine, args []string) {
	q, d, p := x.q, x.d, x.p
	choice := strings.ToLower(l.Fields[0])
	if choice == "encounter" {
		if len(args) == 2 && strings.EqualFold(args[0], "all") {
			args = args[1:]
		}
		if len(args) != 1 {
			p.fail(l, "6.41", "encounter CHOICE, or the choice alone", "name the choice only: the group is the one asked about")
			return
		}
		choice = strings.ToLower(args[0])
	}
	if !p.checkChoice(l, q, choice) {
		return
	}
	if x.choiceLine > 0 {
		p.fail(l, q.Rule, "one choice", "a second choice (line %d)", x.choiceLine)
		return
	}
	x.choiceLine = l.N
	d.Choice = choice
}

// restrict reads "restrict": restricted fire (8.26).
func (x *deciding) restrict(l engine.OrderLine, _ []string) {
	switch {
	case !x.q.MayRestrict:
		x.p.fail(l, "8.26", "", "restricted fire may not be declared: one of your ships in the battle has moderate damage or half its speed")
	case x.restrictLine > 0:
		x.p.fail(l, "8.26", "", "restricted fire is already declared (line %d)", x.restrictLine)
	default:
		x.restrictLine, x.others = l.N, x.others+1
		x.d.Restrict = true
	}
}

// escort reads "escort SHIP[, SHIP]" for the battle (8.27).
func (x *deciding) escort(l engine.OrderLine, args []string) {
	q, d, p := x.q, x.d, x.p
	if q.EscortsAllowed == 0 || x.escortLine > 0 {
		p.fail(l, "8.27", "", "no escort now: only in the first round, by day, in a hex entirely of sea, one line, as far as escorting task forces and numbers allow")
		return
	}
	ids, ok := p.units(l, args)
	if !ok {
		return
	}
	bad := false
	for _, id := range ids {
		dd := def(id)
		if !contains(q.Units, id) || !dd.Surface() || escortingType(p.v.rev(), dd) || contains(d.Escorts, id) {
			p.fail(l, "8.27", "ships of yours in the battle, not the task forces that give escorts", "%s cannot be escorted in this battle", dd.Name)
			bad = true
			break
		}
		d.Escorts = append(d.Escorts, id)
	}
	if !bad && len(d.Escorts) > q.EscortsAllowed {
		p.fail(l, "8.27", fmt.Sprintf("at most %d", q.EscortsAllowed), "%d ships escorted, %d allowed", len(d.Escorts), q.EscortsAllowed)
		return
	}
	x.escortLine, x.others = l.N, x.others+1
}

// targets reads "target" and "torpedoes" lines for the battle (8.221,
// 8.28).
func (x *deciding) targets(l engine.OrderLine, _ []string) {
	q, p := x.q, x.p
	before := len(p.errs)
	nt, nc := len(p.o.Targets), len(p.o.TorpCaps)
	if strings.EqualFold(l.Fields[0], "target") {
		p.target(l)
	} else {
		p.torpLimit(l)
	}
	if len(p.errs) > before {
		return
	}
	for _, t := range p.o.Targets[nt:] {
		if !contains(q.Units, t.Unit) {
			p.fail(l, "8.221", "your ships in the battle", "%s is not in this battle", def(t.Unit).Name)
		} else if !contains(q.Enemy, t.Type) {
			p.fail(l, "8.221", strings.Join(uniq(q.Enemy), ", "), "there is no enemy %s in this battle", t.Type)
		}
	}
	for _, c := range p.o.TorpCaps[nc:] {
		if !contains(q.Units, c.Unit) {
			p.fail(l, "8.28", "your ships in the battle", "%s is not in this battle", def(c.Unit).Name)
		}
	}
	x.others++
}

// checkChoice checks a choice against the question (6.41, 8.24).
func (p *parser) checkChoice(l engine.OrderLine, q *Question, choice string) bool {
	if q.Kind == DecideCombat {
		if q.Round <= 1 {
			p.fail(l, "8.24", "", "the choice to fight on or end the battle is made after a round; this is the first round")
			return false
		}
		if choice != ChoiceFight && choice != ChoiceEvade {
			p.fail(l, "8.24", "fight or evade", "%q is not a choice at the end of a round", choice)
			return false
		}
		return true
	}
	if choice != ChoiceTrack && choice != ChoiceEvade && choice != ChoiceFight {
		p.fail(l, "6.41", "track, evade or fight", "%q is not an encounter choice", choice)
		return false
	}
	if choice == ChoiceEvade && q.InPort {
		p.fail(l, "6.41", "track or fight", "no evading in a port or fjord hex (6.41 note)")
		return false
	}
	return true
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// formatDecision writes a decision back as order-file lines.
func formatDecision(d *Decision) string {
	if d.Standing {
		return "standing\n"
	}
	var b strings.Builder
	if d.Choice != "" {
		b.WriteString(d.Choice + "\n")
	}
	if d.Restrict {
		b.WriteString("restrict\n")
	}
	if len(d.Escorts) > 0 {
		var names []string
		for _, id := range d.Escorts {
			names = append(names, def(id).Name)
		}
		fmt.Fprintf(&b, "escort %s\n", strings.Join(names, ", "))
	}
	for _, t := range d.Targets {
		fmt.Fprintf(&b, "target %s %s\n", def(t.Unit).Name, t.Type)
	}
	for _, c := range d.TorpCaps {
		fmt.Fprintf(&b, "torpedoes %s %d\n", def(c.Unit).Name, c.Points)
	}
	if b.Len() == 0 {
		return "pass\n"
	}
	return b.String()
}

func sortErrs(errs []engine.LineError) {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
}

// Budget implements engine.Budgeted: the budget of the live dice.
func (d *replayDice) Budget() *engine.Budget { return engine.BudgetOf(d.next) }
