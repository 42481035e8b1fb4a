package sweden43

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"skagerrak/engine"
)

// Ruleset is the "sweden43" rulebook: Objective: Sweden. It is rules
// adapted by engine.Book to engine.Ruleset and the rulebook's optional
// interfaces.
type Ruleset struct {
	engine.Book[*State, View, Orders, rules]
}

// rules is the ruleset written against its own types (engine.TypedBook).
type rules struct{}

// The assertion also tells staticcheck that rules's methods are used:
// it does not follow them through engine.Book's type parameter.
var _ engine.TypedBook[*State, View, Orders] = rules{}

func init() { engine.Register(Ruleset{}) }

// Name implements engine.Ruleset.
func (rules) Name() string { return "sweden43" }

// Title implements engine.Ruleset.
func (rules) Title() string {
	return "Objective: Sweden - the hypothetical German invasion of Sweden, July 1943 (Europa)"
}

// Sides implements engine.Ruleset (3B).
func (rules) Sides() []engine.Side { return []engine.Side{Allied, German} }

// Scenarios implements engine.Ruleset (33); the first is the default.
func (rules) Scenarios() []engine.Info {
	var out []engine.Info
	for _, s := range data.Scenarios {
		out = append(out, s.Info)
	}
	return out
}

// Options implements engine.Ruleset (32B, 34A).
func (rules) Options() []engine.Info { return append([]engine.Info(nil), data.Options...) }

// newState is New: both sides deploy per the order of battle
// of the scenario (30).
func (rules) newState(setup engine.Setup, _ engine.Dice) (*State, error) {
	rev, err := engine.RevisionOf(Ruleset{}, setup)
	if err != nil {
		return nil, err
	}
	sd, ok := data.scenarioDef(setup.Scenario)
	if !ok {
		return nil, fmt.Errorf("sweden43: unknown scenario %q", setup.Scenario)
	}
	opts := append([]string(nil), setup.Options...)
	sort.Strings(opts)
	for _, o := range opts {
		if !slices.ContainsFunc(data.Options, func(x engine.Info) bool { return x.ID == o }) {
			return nil, fmt.Errorf("sweden43: unknown option %q", o)
		}
	}
	st := &State{Revision: engine.Rev(rev).Recorded(), Scenario: sd.ID, Options: opts, Turn: 0, Step: "setup", Board: Board{Owner: map[string]engine.Side{}, ReplHalfREs: data.Params["german-repl-half-res"]}}
	for _, d := range data.Units {
		if !inScenario(d.Scenarios, sd.ID) {
			continue
		}
		u := Unit{ID: d.ID, Side: d.Side, Nation: d.Nation, Type: d.Type, Size: d.Size, Att: d.Att, Def: d.Def, Move: d.Move, RE2: d.RE2, Cadre: d.Cadre, AEC: d.AEC, ATEC: d.ATEC, Turn: d.Turn}
		switch {
		case d.Start == "amph":
			u.Status = Amph
		case d.Start == "para":
			u.Status = ParaPool
		case d.Start == "mobilize", d.Start == "assemble", d.Start == "hq-assemble", d.Start == "neutralized":
			u.Status = d.Start
		case strings.HasPrefix(d.Start, "reinf "):
			u.Status = Pending
			u.Arrive = strings.TrimSpace(strings.TrimPrefix(d.Start, "reinf "))
		default:
			u.Status = OnMap
			u.Hex = d.Start
		}
		st.Board.Units = append(st.Board.Units, u)
	}
	for _, d := range data.Air {
		if inScenario(d.Scenarios, sd.ID) {
			st.Board.Air = append(st.Board.Air, AirUnit{ID: d.ID, Side: d.Side, Nation: d.Nation, Type: d.Type, Att: d.Att, Def: d.Def, Bomb: d.Bomb, Range: d.Range, Base: d.Base, Status: OnMap})
		}
	}
	st.Log = append(st.Log, Event{Turn: 0, Text: "scenario " + sd.Title + "; the Allied player deploys first, then the German; the " + string(sd.First) + " player turn is first (30)"})
	return st, nil
}

// AfterDecode implements engine.Decoded: a state read back has its map
// of owners, empty or not.
func (s *State) AfterDecode() error {
	if s.Board.Owner == nil {
		s.Board.Owner = map[string]engine.Side{}
	}
	return nil
}

// Phase implements engine.Ruleset.
func (rules) Phase(s *State) engine.Phase { return phaseOf(s) }

// playerStages is the sequence of a player turn: the phasing side moves,
// attacks and exploits (State.Step names the stage; "setup" before it).
var playerStages = engine.Sequence{
	{Name: "move", Title: "movement", Phasing: true},
	{Name: "combat", Title: "combat", Phasing: true},
	{Name: "exploit", Title: "exploitation", Phasing: true},
}

func phaseOf(st *State) engine.Phase {
	if st.Over {
		return engine.GameOver("over", "the game is over")
	}
	side := st.phasing()
	if st.Step == "setup" {
		return engine.Phase{ID: fmt.Sprintf("T0-%s-setup", side), Title: fmt.Sprintf("set-up: %s deployment (30)", side), Owes: []engine.Side{side}}
	}
	stage := playerStages.Named(st.Step)
	return engine.Phase{
		ID:    fmt.Sprintf("T%d-%s-%s", st.Turn, side, st.Step),
		Title: fmt.Sprintf("%s, %s player turn: %s phase", TurnName(st.Turn), side, stage.Title),
		Owes:  stage.Owing(side),
	}
}

// ParseOrders implements engine.Ruleset.
func (rules) ParseOrders(st *State, side engine.Side, text string) (Orders, []engine.LineError) {
	o, errs := parseOrders(st, side, text)
	return o, errs
}

func parseOrders(st *State, side engine.Side, text string) (Orders, []engine.LineError) {
	ph := phaseOf(st)
	o := Orders{Phase: ph.ID}
	if ph.Over || st.phasing() != side {
		return o, []engine.LineError{{Line: 0, Msg: fmt.Sprintf("%s owes no orders in phase %s", side, ph.ID)}}
	}
	var errs []engine.LineError
	scratch := st.Clone()
	c := newCtx(scratch)
	var parsed []Order
	lines := map[int]engine.OrderLine{}
	for _, l := range engine.OrderLines(text) {
		lines[l.N] = l
		ord, e := c.parse(side, l, st.Step)
		if e != nil {
			errs = append(errs, *e)
			continue
		}
		parsed = append(parsed, ord)
	}
	if st.Step != "combat" {
		sort.SliceStable(parsed, func(i, j int) bool { return phaseRank(parsed[i].Verb) < phaseRank(parsed[j].Verb) })
		moved := map[string]bool{}
		for _, ord := range parsed {
			rule, valid, msg := c.applyMove(side, ord, nullDice{}, moved)
			if msg != "" {
				errs = append(errs, lines[ord.N].Errorf(rule, valid, "%s", msg))
				continue
			}
			o.List = append(o.List, ord)
		}
		if st.Turn == 1 && side == German && st.Step == "move" {
			for _, u := range scratch.Board.Units {
				if u.Status == Amph {
					errs = append(errs, engine.LineError{Line: 0, Rule: "26A", Msg: u.ID + " must land this phase", Valid: c.landingHint(side, u)})
				}
			}
		}
	} else {
		atks, aerrs := c.checkAttacks(side, parsed, lines)
		errs = append(errs, aerrs...)
		_ = atks
		for _, ord := range parsed {
			bad := false
			for _, e := range aerrs {
				bad = bad || e.Line == ord.N
			}
			if !bad {
				o.List = append(o.List, ord)
			}
		}
	}
	for i := range errs {
		fillError(&errs[i], st.Step)
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	return o, errs
}

// verbHelp gives, for each order, the rule it carries out and its syntax.
var verbHelp = map[string][2]string{
	"place":    {"30", "place UNIT HEX: a land hex of your own country (Allied: Sweden, German: Norway), within stacking"},
	"move":     {"2", "move UNIT HEX [HEX ...] within the unit's movement allowance, stopping on entering an enemy ZOC"},
	"rail":     {"7A", "rail UNIT HEX along friendly-owned rail lines free of enemy ZOC"},
	"land":     {"26A", "land UNIT HEX: a coastal hex of Sweden other than Stockholm, Karlskrona and Goteborg, Jul I only"},
	"drop":     {"25C", "drop UNIT HEX: a hex of Sweden free of enemy units, once per game"},
	"base":     {"3F", "base AIRUNIT HEX (an airbase your side owns) or base AIRUNIT UK (Western Allies)"},
	"replace":  {"29B", "replace UNIT HEX: an eliminated German non-armour unit, at a German-owned city of Norway or 5B:2630"},
	"rebuild":  {"29B", "rebuild UNIT: a German infantry cadre in supply and out of enemy ZOC, 2 REs"},
	"mobilize": {"29E", "mobilize REGIMENT DIVISION"},
	"assemble": {"29F", "assemble DIVISION R1 R2 R3 (2Div: assemble 2Div 2DivHQ R1 R2 R3)"},
	"attack":   {"2", "attack HEX with UNIT UNIT ... [advance]: units adjacent to an enemy-occupied hex"},
	"air":      {"20", "air AIRUNIT HEX [close]: a ready air unit within range of a hex you attack"},
}

// fillError names the rule and the valid form of an error that does not
// say them already.
func fillError(e *engine.LineError, step string) {
	verb := ""
	if f := strings.Fields(e.Text); len(f) > 0 {
		verb = strings.ToLower(f[0])
	}
	h, ok := verbHelp[verb]
	if !ok {
		verbs := stepVerbs(step)
		h = [2]string{"2", "an order of the " + step + " phase: " + verbs}
	}
	if e.Rule == "" {
		e.Rule = h[0]
	}
	if e.Valid == "" {
		e.Valid = h[1]
	}
}

// checkAttacks validates a combat phase's orders and groups them.
func (c *ctx) checkAttacks(side engine.Side, parsed []Order, lines map[int]engine.OrderLine) ([]Attack, []engine.LineError) {
	atks, hexUsed, errs := c.groundAttacks(side, parsed, lines)
	errs = append(errs, c.airSupport(atks, hexUsed, parsed, lines)...)
	return atks, errs
}

// groundAttacks validates the attack orders: an enemy in the target, one
// attack a hex, each attacker on the map next to it with attack strength
// and in one attack only. hexUsed gives each target's attack.
func (c *ctx) groundAttacks(side engine.Side, parsed []Order, lines map[int]engine.OrderLine) (atks []Attack, hexUsed map[engine.Hex]int, errs []engine.LineError) {
	used := map[string]bool{}
	hexUsed = map[engine.Hex]int{}
	for _, o := range parsed {
		if o.Verb != "attack" {
			continue
		}
		l := lines[o.N]
		t := o.Hexes[0]
		if !c.enemyIn(side, t) {
			errs = append(errs, l.Errorf("", "", "no enemy units in %s", data.HexName(t)))
			continue
		}
		if _, dup := hexUsed[t]; dup {
			errs = append(errs, l.Errorf("", "", "%s is already attacked this phase", t))
			continue
		}
		a := Attack{Target: t, Advance: o.Flag == "advance"}
		ok := true
		for _, id := range o.Units {
			var e engine.LineError
			e, ok = c.checkAttacker(l, id, t, used)
			used[id] = true
			if !ok {
				errs = append(errs, e)
				break
			}
		}
		if !ok {
			continue
		}
		a.Units = o.Units
		hexUsed[t] = len(atks)
		atks = append(atks, a)
	}
	return atks, hexUsed, errs
}

// checkAttacker checks that unit id may attack t: on the map, next to t,
// not attacking already, with attack strength.
func (c *ctx) checkAttacker(l engine.OrderLine, id string, t engine.Hex, used map[string]bool) (engine.LineError, bool) {
	u := c.b.Units[c.find(id)]
	uh, _ := engine.ParseHex(u.Hex)
	av, _ := u.Strength()
	switch {
	case u.Status != OnMap:
		return l.Errorf("", "", "%s is not on the map", id), false
	case uh.Distance(t) != 1:
		return l.Errorf("", "", "%s in %s is not adjacent to %s", id, u.Hex, t), false
	case used[id]:
		return l.Errorf("", "", "%s already attacks this phase", id), false
	case av == 0:
		return l.Errorf("", "", "%s has no attack strength", id), false
	}
	return engine.LineError{}, true
}

// airSupport validates the air orders and adds each air unit to the attack
// it supports (20, 20C1).
func (c *ctx) airSupport(atks []Attack, hexUsed map[engine.Hex]int, parsed []Order, lines map[int]engine.OrderLine) []engine.LineError {
	var errs []engine.LineError
	airUsed := map[string]bool{}
	for _, o := range parsed {
		if o.Verb != "air" {
			continue
		}
		l := lines[o.N]
		i := c.findAir(o.Unit)
		a := c.b.Air[i]
		k, ok := hexUsed[o.Hexes[0]]
		switch {
		case !ok:
			errs = append(errs, l.Errorf("20", "a hex you attack this phase", "no attack on %s to support", o.Hexes[0]))
		case a.Status != OnMap || a.Flown == c.st.Turn:
			errs = append(errs, l.Errorf("20", "", "%s is not ready to fly", a.ID))
		case airUsed[a.ID]:
			errs = append(errs, l.Errorf("20", "", "%s already flies this phase", a.ID))
		case airDistance(a, o.Hexes[0]) > a.Range:
			errs = append(errs, l.Errorf("20", "", "%s is beyond %s's range of %d", o.Hexes[0], a.ID, a.Range))
		case o.Flag == "close" && a.Type != "F":
			errs = append(errs, l.Errorf("20C1", "", "only fighters fly close escort"))
		default:
			airUsed[a.ID] = true
			atks[k].Air = append(atks[k].Air, a.ID)
			if o.Flag == "close" {
				atks[k].Close = append(atks[k].Close, a.ID)
			}
		}
	}
	return errs
}

// DefaultOrders implements engine.Ruleset: units stand; in the Jul I German
// movement phase the amphibious force lands where the form suggests.
func (r rules) DefaultOrders(st *State, side engine.Side) Orders {
	o := Orders{Phase: phaseOf(st).ID}
	if st.Step == "move" && st.Turn == 1 && side == German {
		text := ""
		for _, u := range st.Board.Units {
			if u.Status == Amph {
				text += "land " + u.ID + " " + defaultLanding(newCtx(st.Clone()), u.ID).String() + "\n"
			}
		}
		p, errs := parseOrders(st, side, text)
		if len(errs) == 0 {
			return p
		}
	}
	return o
}

// defaultLanding picks the free coastal hex of Sweden nearest Stockholm
// where a landing is allowed (26A).
func defaultLanding(c *ctx, id string) engine.Hex {
	sth := data.placeHex("Stockholm")
	var best engine.Hex
	bd := 1 << 20
	for _, h := range data.Grid.All() {
		if data.CountryAt(h) != 'S' || !data.Coastal(h) || c.enemyIn(German, h) || !c.stackOK(h, 2) {
			continue
		}
		if h == sth || h == data.placeHex("Karlskrona") || h == data.placeHex("Goteborg") {
			continue
		}
		if d := h.Distance(sth); d < bd {
			best, bd = h, d
		}
	}
	return best
}

// FormatOrders implements engine.Ruleset.
func (rules) FormatOrders(_ *State, _ engine.Side, o Orders) string {
	var b strings.Builder
	for _, x := range o.List {
		b.WriteString(x.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// resolve is Resolve.
func (rules) resolve(old *State, orders map[engine.Side]Orders, d engine.Dice) (*State, error) {
	if old.Over {
		return nil, fmt.Errorf("sweden43: the game is over")
	}
	st := old.Clone()
	side := st.phasing()
	o, ok := orders[side]
	if !ok {
		return nil, fmt.Errorf("sweden43: no orders for %s", side)
	}
	ord := o
	if ord.Phase != "" && ord.Phase != phaseOf(old).ID {
		return nil, fmt.Errorf("sweden43: orders are for phase %s, not %s", ord.Phase, phaseOf(old).ID)
	}
	c := newCtx(st)
	switch st.Step {
	case "setup":
		c.carryOut(side, ord.List, d, "", false)
		if st.Player == 0 {
			st.Player = 1
		} else {
			st.Player, st.Turn, st.Step = 0, 1, "move"
		}
	case "exploit":
		c.carryOut(side, ord.List, d, "", true)
		advance(st)
	case "move":
		resolveMovement(c, side, ord, d)
		st.Step = "combat"
	default:
		resolveCombat(c, side, ord, d)
		st.Step = "exploit"
	}
	if conquered(c) {
		st.Over = true
	}
	if !st.Over {
		openPhase(st, d)
	}
	return st, nil
}

// carryOut applies side's move orders in list, logging those it cannot
// carry out; step, if set, labels each order's dice. stop ends the orders
// when Sweden surrenders.
func (c *ctx) carryOut(side engine.Side, list []Order, d engine.Dice, step string, stop bool) {
	moved := map[string]bool{}
	for _, x := range list {
		if step != "" {
			engine.Step(d, step)
		}
		if _, _, msg := c.applyMove(side, x, d, moved); msg != "" {
			c.log(side, "order not carried out: "+x.String()+": "+msg)
		}
		if stop && c.st.Board.Surrendered {
			break
		}
	}
}

// resolveMovement resolves a movement phase: the breakout roll of revisions
// 1 and 2 (26A), the orders by kind, then the amphibious units that did not
// land on Jul I are lost (26A).
func resolveMovement(c *ctx, side engine.Side, ord Orders, d engine.Dice) {
	st := c.st
	if !st.rev().Has(BreakoutAtTurnOpen) && st.Turn == 1 && side == German {
		// 26A, revision 1 and 2: the breakout roll made as the
		// German Jul I movement phase resolves.
		breakout(c, d)
	}
	list := append([]Order(nil), ord.List...)
	sort.SliceStable(list, func(i, j int) bool { return phaseRank(list[i].Verb) < phaseRank(list[j].Verb) })
	c.carryOut(side, list, d, "movement orders", true)
	if st.Turn == 1 && side == German {
		for i := range st.Board.Units {
			if st.Board.Units[i].Status == Amph {
				st.Board.Units[i].Status = Eliminated
				c.log("", st.Board.Units[i].ID+" did not land and is lost (26A)")
			}
		}
	}
}

// resolveCombat resolves a combat phase's attacks (14) in order, until
// Sweden surrenders.
func resolveCombat(c *ctx, side engine.Side, ord Orders, d engine.Dice) {
	lines := map[int]engine.OrderLine{}
	for _, x := range ord.List {
		lines[x.N] = engine.OrderLine{N: x.N, Text: x.String()}
	}
	atks, _ := c.checkAttacks(side, ord.List, lines)
	for _, a := range atks {
		if c.st.Board.Surrendered {
			break
		}
		engine.Step(d, "attacks (14)")
		c.resolveAttack(side, a, d)
	}
}

// advance moves to the next player turn or game turn after an exploitation
// phase.
func advance(st *State) {
	st.Step = "move"
	st.Board.RailUsed = 0
	if st.Player == 0 {
		st.Player = 1
		return
	}
	st.Player = 0
	st.Turn++
	if st.Turn > 6 {
		st.Turn = 6
		st.Over = true
		st.Log = append(st.Log, Event{Turn: 6, Text: "the game ends after the Sep II 43 game turn (31A)"})
	}
}

// openPhase does what happens as a movement phase opens: reinforcements
// arrive (29A) and supply is determined (12).
func openPhase(st *State, d engine.Dice) {
	if st.Over || st.Step != "move" {
		return
	}
	c := newCtx(st)
	side := st.phasing()
	if st.rev().Has(BreakoutAtTurnOpen) && st.Turn == 1 && side == German {
		// 26A: "the Allied player rolls two dice at the start of the
		// German Jul I 43 turn": as the turn opens, so that the German
		// reads the result in the report that asks for his orders.
		breakout(c, d)
	}
	if st.rev().Has(ExploitHalfMove) {
		// A new movement phase: what the side's units spent in the last
		// one no longer counts (exploitation eligibility).
		for i := range st.Board.Units {
			if st.Board.Units[i].Side == side {
				st.Board.Units[i].MPUsed = 0
			}
		}
	}
	for i := range st.Board.Units {
		u := &st.Board.Units[i]
		if u.Side != side || u.Status != Pending || u.Turn != st.Turn {
			continue
		}
		h, _ := engine.ParseHex(u.Arrive)
		if c.owner(h) != side || c.enemyIn(side, h) || !c.stackOK(h, u.RE2s()) {
			u.Status = Eliminated
			c.log("", fmt.Sprintf("%s cannot appear at %s and is eliminated (29A)", u.ID, data.HexName(h)))
			continue
		}
		c.placeUnit(i, h)
		c.log(side, fmt.Sprintf("%s arrives at %s (29A)", u.ID, data.HexName(h)))
	}
	c.computeSupply(side)
}

// breakout is the Swedish navy's breakout roll (26A): two dice, 9 or more
// (6 or more in the ULTRA scenario, 33A1) and elements of the Swedish navy
// break out into the Baltic. It is rolled only while the amphibious force
// has still to land.
func breakout(c *ctx, d engine.Dice) {
	hasAmph := false
	for _, u := range c.st.Board.Units {
		hasAmph = hasAmph || u.Status == Amph
	}
	if !hasAmph {
		return
	}
	need := data.Params["breakout"]
	if c.st.Scenario == "ultra" {
		need = data.Params["breakout-ultra"]
	}
	r := engine.TwoD6(d, "Swedish navy breakout (26A)")
	c.st.Board.NavyOut = r >= need
	if c.st.Board.NavyOut {
		c.log("", fmt.Sprintf("Swedish navy breakout roll %d: elements of the Swedish navy break out into the Baltic (26A)", r))
	} else {
		c.log("", fmt.Sprintf("Swedish navy breakout roll %d: the Swedish navy stays bottled up (26A)", r))
	}
}

// conquered reports whether Sweden is conquered (31A).
func conquered(c *ctx) bool {
	if c.b.Surrendered {
		return true
	}
	for _, p := range data.Places {
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' && mainland(p) && c.owner(p.Hex) != German {
			return false
		}
	}
	return true
}

// mainland reports whether a Swedish city is on mainland Sweden in weather
// zones B, C or D (3E, 31A).
func mainland(p Place) bool {
	return p.Name != "Visby" && (p.Zone == "B" || p.Zone == "C" || p.Zone == "D")
}

// Result implements engine.Ruleset (31B).
func (rules) Result(st *State) *engine.Result {
	if !st.Over {
		return nil
	}
	c := newCtx(st)
	conq := conquered(c)
	why := "Sweden is not conquered"
	if st.Board.Surrendered {
		why = "Sweden surrendered"
	} else if conq {
		why = "every city of mainland Sweden is German owned"
	}
	switch st.Scenario {
	case "op1":
		if conq {
			return &engine.Result{Winner: German, Level: "major", Summary: "German major victory: " + why + " (31B Operation I)"}
		}
		n := 0
		for _, p := range data.Places {
			if p.IsCity() && data.CountryAt(p.Hex) == 'S' && p.Zone == "B" && c.owner(p.Hex) == German {
				n++
			}
		}
		pts := map[engine.Side]int{German: n}
		switch {
		case n >= 4:
			return &engine.Result{Winner: German, Level: "major", Points: pts, Summary: fmt.Sprintf("German major victory: %d zone B cities German owned (31B)", n)}
		case n == 3:
			return &engine.Result{Winner: German, Level: "marginal", Points: pts, Summary: "German marginal victory: 3 zone B cities German owned (31B)"}
		case n == 2:
			return &engine.Result{Level: "draw", Points: pts, Summary: "draw: 2 zone B cities German owned (31B)"}
		case n == 1:
			return &engine.Result{Winner: Allied, Level: "marginal", Points: pts, Summary: "Allied marginal victory: 1 zone B city German owned (31B)"}
		}
		return &engine.Result{Winner: Allied, Level: "major", Points: pts, Summary: "Allied major victory: no zone B city German owned (31B)"}
	case "op2":
		if conq || c.owner(data.placeHex("Stockholm")) == German {
			if !conq {
				why = "Germany owns Stockholm"
			}
			return &engine.Result{Winner: German, Summary: "German victory: " + why + " (31B Operation II)"}
		}
		return &engine.Result{Winner: Allied, Summary: "Allied victory: the Allies hold Stockholm (31B Operation II)"}
	}
	if conq {
		return &engine.Result{Winner: German, Summary: "German victory: " + why + " (31B)"}
	}
	return &engine.Result{Winner: Allied, Summary: "Allied victory: " + why + " (31B)"}
}

// Resolve implements engine.Ruleset: resolve, within the budget the dice
// carry (engine.Bound), a resolution that cannot go on (a manual die not in
// hand, its budget spent, its context done) returning why.
func (r rules) Resolve(st *State, orders map[engine.Side]Orders, dice engine.Dice) (*State, error) {
	return engine.Guarded(r.resolve, st, orders, dice)
}

// New implements engine.Ruleset: newState, a set-up that asks a manual die
// not in hand returning why.
func (r rules) New(setup engine.Setup, dice engine.Dice) (*State, error) {
	return engine.GuardedNew(r.newState, setup, dice)
}
