package norway1940

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"skagerrak/engine"
)

// Decisions the non-phasing player may ask to take in person ("ask"
// standing order) instead of leaving them to his other standing orders.
const (
	AskEvasion      = "evasion"      // evade an attack on one of his fleets (9.14.5)
	AskContinue     = "continue"     // fight on after winning a round as the defender or a reacting fleet (9.14.5, 9.14.5.1)
	AskReact        = "react"        // attack a detected fleet entering his box (9.14.4)
	AskInterception = "interception" // where his kept fighters intercept (8.9.3.1)
	AskLosses       = "losses"       // how his beaten defenders take their combat losses (10.5.6, revision 2)
)

// askKinds lists the decisions of a rules revision in the order the "ask"
// order writes them.
func askKinds(rev engine.Rev) []string {
	if rev.Has(OwnerDistributesLosses) {
		return []string{AskContinue, AskEvasion, AskInterception, AskLosses, AskReact}
	}
	return []string{AskContinue, AskEvasion, AskInterception, AskReact}
}

// askRule is the rule each kind of decision comes from.
var askRule = map[string]string{AskEvasion: "9.14.5", AskContinue: "9.14.5.1", AskReact: "9.14.4", AskInterception: "8.9.3.1", AskLosses: "10.5.6"}

// askTitle names each kind of decision in the short phase's title.
var askTitle = map[string]string{
	AskEvasion:      "evade a naval attack or fight (9.14.5)",
	AskContinue:     "fight another naval combat round or break off (9.14.5.1)",
	AskReact:        "attack a detected fleet entering a box (9.14.4)",
	AskInterception: "where kept fighters intercept (8.9.3.1)",
	AskLosses:       "how beaten defenders take their combat losses (10.5.6)",
}

// Pending is a player-turn stopped for a decision the non-phasing side
// asked to take in person. The player-turn is resolved again from Start
// with the same orders, the rolls already made and the answers already
// given, so that it continues exactly where it stopped.
type Pending struct {
	// Start is the state the player-turn was resolved from.
	Start *State `json:"start"`
	// Orders are the phasing side's orders of the player-turn.
	Orders *Orders `json:"orders"`
	// Rolls are every roll made in the player-turn so far, in order.
	Rolls []engine.Roll `json:"rolls"`
	// Answers are the decisions taken so far, in the order asked.
	Answers []Answer `json:"answers,omitempty"`
	// Ask is the open question.
	Ask *Question `json:"ask"`
}

// Answer is one decision taken in person: its kind and its decision
// lines as FormatOrders writes them.
type Answer struct {
	Kind  string   `json:"kind"`
	Lines []string `json:"lines"`
}

// Question is a decision the asking side must take: what it may know of
// the situation at that moment and the decision lines it may send.
type Question struct {
	Kind string      `json:"kind"`
	Side engine.Side `json:"side"`
	Rule string      `json:"rule"`
	// N numbers the short phases of one player-turn from 1.
	N int `json:"n"`
	// Text describes the situation and the choice.
	Text string `json:"text"`
	// Choices are the valid decision lines.
	Choices []string `json:"choices"`
	// Default are the decision lines the side's standing orders give; a
	// side that sends nothing by the deadline gets them (DefaultOrders).
	Default []string `json:"default"`
	// Fleet is the asking side's fleet concerned (evasion, continue),
	// Enemy the enemy fleet, Box where they are.
	Fleet string `json:"fleet,omitempty"`
	Enemy string `json:"enemy,omitempty"`
	Box   string `json:"box,omitempty"`
	// Own and Them are the combat ratings of the two fleets as the table
	// compares them (the attacker's includes a submarine +1).
	Own  int `json:"own,omitempty"`
	Them int `json:"them,omitempty"`
	// EvadeOn: the attacked fleet evades on this roll or less (evasion).
	EvadeOn int `json:"evade_on,omitempty"`
	// Round is the round just fought (continue).
	Round int `json:"round,omitempty"`
	// Fleets are the asking side's fleets that may attack (react).
	Fleets []string `json:"fleets,omitempty"`
	// Raids are the places the opponent's bomber and transport missions
	// fly to within reach of the kept fighters (interception); Keep is
	// the kept fighter markers.
	Raids []Raid `json:"raids,omitempty"`
	Keep  int    `json:"keep,omitempty"`
	// Losses are the beaten units that may take the losses, Steps the
	// step losses and Elim the units eliminated they must take (losses).
	Losses []LossUnit `json:"losses,omitempty"`
	Steps  int        `json:"steps,omitempty"`
	Elim   int        `json:"eliminate,omitempty"`
}

// Raid is the air missions over one place as the interceptors see them.
type Raid struct {
	Place    string `json:"place"`
	Missions int    `json:"missions"`
	Escorts  int    `json:"escorts"`
}

// stopFor unwinds a resolution that needs a decision not yet taken.
type stopFor struct{ q *Question }

// decider hands out the answers given so far during a resolution.
type decider struct {
	answers []Answer
	next    int
	err     error
}

// asked reports whether side y asked to decide kind in person.
func (s *State) asked(y engine.Side, kind string) bool {
	if y == s.Phasing || s.dec == nil {
		return false
	}
	return contains(s.side(y).Standing.Ask, kind)
}

// decide returns the decision lines for q: the standing orders' def when
// the side did not ask, the answer given in person when there is one, and
// otherwise it stops the resolution for the question.
func (s *State) decide(q *Question, def []string) []string {
	if !s.asked(q.Side, q.Kind) {
		return def
	}
	d := s.dec
	if d.next < len(d.answers) {
		a := d.answers[d.next]
		d.next++
		if a.Kind != q.Kind && d.err == nil {
			d.err = fmt.Errorf("norway1940: replay asked %s where %s was answered", q.Kind, a.Kind)
		}
		return a.Lines
	}
	q.Rule = askRule[q.Kind]
	q.Default = def
	q.N = len(d.answers) + 1
	panic(stopFor{q})
}

// recDice replays the rolls already made in a player-turn, then rolls the
// live dice, and records every roll.
type recDice struct {
	old  []engine.Roll
	live engine.Dice
	all  []engine.Roll
	err  error
}

// Roll implements engine.Dice.
func (d *recDice) Roll(sides int, why string) int {
	i := len(d.all)
	var v int
	if i < len(d.old) {
		v = d.old[i].Value
		if (d.old[i].Sides != sides || d.old[i].Why != why) && d.err == nil {
			d.err = fmt.Errorf("norway1940: replay roll %d is %q d%d, recorded %q d%d", i+1, why, sides, d.old[i].Why, d.old[i].Sides)
		}
	} else {
		v = d.live.Roll(sides, why)
	}
	d.all = append(d.all, engine.Roll{Sides: sides, Value: v, Why: why})
	return v
}

// runPlayerTurn resolves a player-turn from p.Start with p.Orders and the
// answers given so far. It returns the next state: either the first state
// of the next player-turn, or the state where the resolution stopped for
// a new question, with Pending set.
func runPlayerTurn(p *Pending, dice engine.Dice) (*State, error) {
	s := p.Start.clone()
	s.Events = nil
	rd := &recDice{old: p.Rolls, live: dice}
	s.dec = &decider{answers: p.Answers}
	q := func() (q *Question) {
		defer func() {
			if r := recover(); r != nil {
				st, ok := r.(stopFor)
				if !ok {
					panic(r)
				}
				q = st.q
			}
		}()
		playerTurn(s, p.Orders, rd)
		endPlayerTurn(s, rd)
		return nil
	}()
	dec := s.dec
	s.dec = nil
	if rd.err != nil {
		return nil, rd.err
	}
	if dec.err != nil {
		return nil, dec.err
	}
	if dec.next != len(p.Answers) {
		return nil, fmt.Errorf("norway1940: replay used %d of %d answers", dec.next, len(p.Answers))
	}
	if q != nil {
		s.Pending = &Pending{Start: p.Start, Orders: p.Orders, Rolls: rd.all, Answers: p.Answers, Ask: q}
	}
	return s, nil
}

// resume resolves a short phase: the asking side's decision is added to
// the answers and the player-turn goes on from where it stopped.
func resume(s0 *State, orders map[engine.Side]*Orders, dice engine.Dice) (*State, error) {
	p := engine.DeepCopy(s0.Pending)
	q := p.Ask
	o := orders[q.Side]
	if o == nil {
		return nil, fmt.Errorf("norway1940: no decision of %s", q.Side)
	}
	var lines []string
	for i, l := range o.Lines {
		text := formatOrder(l)
		if _, err := parseDecisionLine(q, engine.OrderLine{N: i + 1, Text: text, Fields: strings.Fields(text)}); l.Verb != "decide" || err != nil {
			return nil, fmt.Errorf("norway1940: %q is not a decision of %s", text, shortPhase(s0).ID)
		}
		lines = append(lines, text)
	}
	if errs := checkDecision(q, o); len(errs) > 0 {
		return nil, fmt.Errorf("norway1940: %s decision: %v", q.Side, errs[0])
	}
	p.Answers = append(p.Answers, Answer{Kind: q.Kind, Lines: lines})
	p.Ask = nil
	return runPlayerTurn(p, dice)
}

// shortPhase is the open short phase of a state with a pending question.
func shortPhase(s *State) engine.Phase {
	q := s.Pending.Ask
	id := fmt.Sprintf("T%02d-%s-react", s.Turn, s.Phasing)
	if q.N > 1 {
		id += strconv.Itoa(q.N)
	}
	date := ""
	if s.Turn < len(data.Calendar) {
		date = data.Calendar[s.Turn]
	}
	return engine.Phase{ID: id, Title: fmt.Sprintf("Turn %d, %s: %s player-turn, %s decision in person: %s", s.Turn, date, sideTitle(s.Phasing), sideTitle(q.Side), askTitle[q.Kind]),
		Owes: []engine.Side{q.Side}}
}

// parseDecision parses the decision lines of a short phase. Every line
// must be one of the question's decision lines; the errors cite its rule.
func parseDecision(s *State, side engine.Side, text string) (*Orders, []engine.LineError) {
	q := s.Pending.Ask
	o := &Orders{Side: side}
	if side != q.Side {
		return o, []engine.LineError{{Rule: "5.2", Msg: fmt.Sprintf("%s owes no orders in %s", side, shortPhase(s).ID), Valid: "the " + string(q.Side) + " decision"}}
	}
	var errs []engine.LineError
	for _, l := range engine.OrderLines(text) {
		ord, err := parseDecisionLine(q, l)
		if err != nil {
			errs = append(errs, *err)
			continue
		}
		o.Lines = append(o.Lines, ord)
	}
	if len(errs) == 0 {
		errs = checkDecision(q, o)
	}
	return o, errs
}

// parseDecisionLine reads one decision line of q's short phase through
// the Decisions table (decisionDriver).
func parseDecisionLine(q *Question, l engine.OrderLine) (Order, *engine.LineError) {
	x := &decisionLine{q: q, l: l, o: Order{Line: l.N, Verb: "decide"}}
	decisionDriver.Line(x, l)
	return x.o, x.err
}

// checkDecision checks the decision lines as a whole.
func checkDecision(q *Question, o *Orders) []engine.LineError {
	valid := strings.Join(q.Choices, " | ")
	if len(o.Lines) == 0 {
		return []engine.LineError{{Rule: q.Rule, Msg: "a decision line is needed", Valid: valid}}
	}
	if q.Kind == AskLosses {
		return checkLosses(q, o)
	}
	if q.Kind == AskInterception {
		total, pass := 0, 0
		seen := map[string]bool{}
		for _, l := range o.Lines {
			if l.Kind == "pass" {
				pass = l.Line
				continue
			}
			if l.Kind != "intercept" {
				return []engine.LineError{{Line: l.Line, Rule: q.Rule, Msg: "not an interception decision", Valid: valid}}
			}
			if seen[l.To] {
				return []engine.LineError{{Line: l.Line, Rule: q.Rule, Msg: "a second intercept order over " + l.To, Valid: "one intercept line a place"}}
			}
			seen[l.To] = true
			total += l.N
			if total > q.Keep {
				return []engine.LineError{{Line: l.Line, Rule: q.Rule, Msg: fmt.Sprintf("more fighter markers than the %d kept", q.Keep), Valid: fmt.Sprintf("at most %d in all", q.Keep)}}
			}
		}
		if pass > 0 && total > 0 {
			return []engine.LineError{{Line: pass, Rule: q.Rule, Msg: "pass with intercept orders", Valid: "the intercept lines alone, or pass alone"}}
		}
		return nil
	}
	if len(o.Lines) != 1 {
		line := 0
		if len(o.Lines) > 1 {
			line = o.Lines[1].Line
		}
		return []engine.LineError{{Line: line, Rule: q.Rule, Msg: "exactly one decision line is needed", Valid: valid}}
	}
	return nil
}

// defaultDecision is the decision of a side that sends none by the
// deadline: what its standing orders give.
func defaultDecision(q *Question) *Orders {
	o := &Orders{Side: q.Side}
	for i, line := range q.Default {
		ord, err := parseDecisionLine(q, engine.OrderLine{N: i + 1, Text: line, Fields: strings.Fields(line)})
		if err == nil {
			o.Lines = append(o.Lines, ord)
		}
	}
	return o
}

// askEvasion is the evasion decision of the defender def against att
// (9.14.5): true to try to evade.
func askEvasion(s *State, att, def *Fleet, attStr, defStr int) bool {
	standing := "fight"
	if wantsEvade(s, def, defStr, attStr) {
		standing = "evade"
	}
	if !s.asked(def.Side, AskEvasion) {
		return standing == "evade"
	}
	q := &Question{Kind: AskEvasion, Side: def.Side, Fleet: def.ID, Enemy: att.ID, Box: def.Where, Own: defStr, Them: attStr,
		EvadeOn: evadeMax(s, attStr-defStr), Choices: []string{"evade", "fight"}}
	q.Text = fmt.Sprintf("The %s fleet %s (combat rating %d) attacks your fleet %s (combat %d) in %s, weather %s. On the Naval Interception Table your fleet evades on a roll of %d or less. Evade or fight?",
		sideTitle(att.Side), att.ID, attStr, def.ID, defStr, def.Where, s.whereWeather(def.Where), q.EvadeOn)
	return s.decide(q, []string{standing})[0] == "evade"
}

// askContinue is the decision of the inactive player's fleet own, which
// won round against enemy (9.14.5, 9.14.5.1): true to fight on. on is what
// the standing orders say: the defender's "continue" order; a fleet
// reacting to a fleet entering its box (9.14.4) fights its three rounds.
func askContinue(s *State, own, enemy *Fleet, round, ownStr, enemyStr int, on bool) bool {
	standing := "break off"
	if on {
		standing = "fight on"
	}
	if !s.asked(own.Side, AskContinue) {
		return on
	}
	q := &Question{Kind: AskContinue, Side: own.Side, Fleet: own.ID, Enemy: enemy.ID, Box: own.Where, Own: ownStr, Them: enemyStr, Round: round,
		Choices: []string{"fight on", "break off"}}
	q.Text = fmt.Sprintf("Your fleet %s (now a combat rating of %d) won round %d against the %s fleet %s (now a combat rating of %d) in %s. Fight on (the Continuation Table is rolled) or break off?",
		own.ID, ownStr, round, sideTitle(enemy.Side), enemy.ID, enemyStr, own.Where)
	return s.decide(q, []string{standing})[0] == "fight on"
}

// askReact is the inactive side's reaction to the detected fleet e
// entering a box (9.14.4): the fleet that attacks it, or nil.
func askReact(s *State, e *Fleet) *Fleet {
	y := other(e.Side)
	var best *Fleet
	var may []string
	markers := false
	for _, f := range s.Fleets {
		if f.Side != y || f.Detected || f.Where != e.Where {
			continue
		}
		markers = true
		if f.Combat == 0 {
			continue
		}
		may = append(may, f.ID)
		if f.Combat > e.Combat && (best == nil || f.Combat > best.Combat) {
			best = f
		}
	}
	if !s.side(y).Standing.React {
		best = nil
	}
	// The question opens whenever an undetected fleet marker of the side
	// is in the box, decoy or not, so that it tells the opponent nothing
	// the markers do not show.
	if !s.asked(y, AskReact) || !markers {
		return best
	}
	standing := "pass"
	if best != nil {
		standing = "attack with " + best.ID
	}
	q := &Question{Kind: AskReact, Side: y, Enemy: e.ID, Box: e.Where, Them: e.Combat, Fleets: may, Choices: []string{"pass"}}
	for _, id := range may {
		q.Choices = append(q.Choices, "attack with "+id)
	}
	q.Text = fmt.Sprintf("The detected %s fleet %s (%d combat, %d transport points, carrying %s) enters %s, where your undetected fleet marker(s) are. ",
		sideTitle(e.Side), e.ID, e.Combat, e.Transport, cargoText(e), e.Where)
	if len(may) == 0 {
		q.Text += "None of them has combat points: pass."
	} else {
		q.Text += fmt.Sprintf("Attack it with one of %s, or pass?", strings.Join(may, " "))
	}
	ans := s.decide(q, []string{standing})[0]
	if id, ok := strings.CutPrefix(ans, "attack with "); ok {
		return s.fleet(id)
	}
	return nil
}

// interceptPlan is the standing procedure's use of keep kept fighter
// markers over the raids, in order (8.9.3.1, reconstructed): over each
// place, while more are kept than the escorts there, they meet the
// escorts and turn back as many missions as are left; as decision lines.
func interceptPlan(keep int, raids []Raid) []string {
	var out []string
	for _, r := range raids {
		if keep <= r.Escorts {
			continue
		}
		turned := keep - r.Escorts
		if turned > r.Missions {
			turned = r.Missions
		}
		used := r.Escorts + turned
		keep -= used
		out = append(out, fmt.Sprintf("intercept %s %d", r.Place, used))
	}
	if len(out) == 0 {
		out = []string{"pass"}
	}
	return out
}

// askInterception is the allocation of the kept fighters to the raids
// (8.9.3.1): fighter markers committed by place.
func askInterception(s *State, y engine.Side, keep int, raids []Raid) map[string]int {
	def := interceptPlan(keep, raids)
	lines := def
	if s.asked(y, AskInterception) {
		q := &Question{Kind: AskInterception, Side: y, Raids: raids, Keep: keep, Choices: []string{"intercept PLACE N", "pass"}}
		var parts []string
		for _, r := range raids {
			parts = append(parts, fmt.Sprintf("%s (%d mission(s), %d escorting fighter marker(s))", r.Place, r.Missions, r.Escorts))
		}
		if len(parts) == 0 || keep == 0 {
			q.Text = fmt.Sprintf("The %s flies air missions; you have %d kept fighter marker(s) and %d raid(s) within their reach: pass.", sideTitle(other(y)), keep, len(parts))
			q.Choices = []string{"pass"}
		} else {
			q.Text = fmt.Sprintf("The %s air missions fly within reach of your %d kept fighter marker(s): %s. Each marker you commit over a place first meets an escort, then turns back one mission (transports first). Commit them with one \"intercept PLACE N\" line a place, or pass.",
				sideTitle(other(y)), keep, strings.Join(parts, "; "))
		}
		lines = s.decide(q, def)
	}
	out := map[string]int{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == "intercept" {
			n, _ := strconv.Atoi(f[2])
			out[f[1]] = n
		}
	}
	return out
}

// askOrder parses the kinds of an "ask" standing order.
func askOrder(words []string, rev engine.Rev) ([]string, bool) {
	if len(words) == 1 && words[0] == "none" {
		return nil, true
	}
	set := map[string]bool{}
	for _, w := range words {
		switch w {
		case "evasion", "evade":
			set[AskEvasion] = true
		case "continue", "continuation":
			set[AskContinue] = true
		case "react", "reaction":
			set[AskReact] = true
		case "interception", "intercept":
			set[AskInterception] = true
		case "losses", "loss":
			if !rev.Has(OwnerDistributesLosses) {
				return nil, false
			}
			set[AskLosses] = true
		case "all":
			for _, k := range askKinds(rev) {
				set[k] = true
			}
		default:
			return nil, false
		}
	}
	var out []string
	for _, k := range askKinds(rev) {
		if set[k] {
			out = append(out, k)
		}
	}
	return out, len(out) > 0
}

// askText is the "ask" order of a standing list.
func askText(kinds []string) string {
	if len(kinds) == 0 {
		return "ask none"
	}
	k := append([]string(nil), kinds...)
	sort.Strings(k)
	return "ask " + strings.Join(k, " ")
}

// checkLosses checks the decision lines of a losses question (10.5.6): as
// many "step" lines as step losses (a unit losing no more steps than it
// has) and "eliminate" lines as units eliminated, each on a unit still
// alive after the step losses; the steps are taken first, as the Combat
// Table lists them.
func checkLosses(q *Question, o *Orders) []engine.LineError {
	valid := fmt.Sprintf("%d \"step UNIT\" and %d \"eliminate UNIT\" line(s) of: %s", q.Steps, q.Elim, strings.Join(q.Choices, " | "))
	rem := map[string]int{}
	for _, u := range q.Losses {
		rem[u.ID] = u.Steps
	}
	steps, elims := 0, 0
	for _, kind := range []string{"step", "eliminate"} {
		for _, l := range o.Lines {
			if l.Kind != kind {
				continue
			}
			if rem[l.ID] == 0 {
				return []engine.LineError{{Line: l.Line, Rule: q.Rule, Msg: fmt.Sprintf("%s has no step left to lose", l.ID), Valid: valid}}
			}
			if kind == "step" {
				rem[l.ID]--
				steps++
			} else {
				rem[l.ID] = 0
				elims++
			}
		}
	}
	if steps != q.Steps || elims != q.Elim {
		line := 0
		if len(o.Lines) > 0 {
			line = o.Lines[len(o.Lines)-1].Line
		}
		return []engine.LineError{{Line: line, Rule: q.Rule, Msg: fmt.Sprintf("%d step loss(es) and %d unit(s) eliminated given; the result takes %d and %d", steps, elims, q.Steps, q.Elim), Valid: valid}}
	}
	return nil
}

// Budget implements engine.Budgeted: the budget of the live dice.
func (d *recDice) Budget() *engine.Budget { return engine.BudgetOf(d.live) }
