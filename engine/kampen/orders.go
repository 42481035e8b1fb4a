package kampen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"skagerrak/engine"
)

// Move is one group's movement: an ordinary move of one area, a Rask
// forflytning of up to two areas along Path, or a Fallskjermtropp drop.
type Move struct {
	From string `json:"from"`
	// Path is the areas entered, in order; the last is the destination.
	Path []string `json:"path"`
	N    int      `json:"n"`
	// Card is "", "rask-forflytning" or "fallskjermtropp".
	Card string `json:"card,omitempty"`
}

// To is the move's destination.
func (m Move) To() string { return m.Path[len(m.Path)-1] }

// Block is a Norwegian Veisperring or Sprengt bro played on the German
// groups moving into Area (From names the group, for Veisperring).
type Block struct {
	Card string `json:"card"`
	Area string `json:"area"`
	From string `json:"from,omitempty"`
}

// Hop is a move of every battalion of a side from one area to another:
// a flight with Rask forflytning, or a retreat after a lost defence.
type Hop struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Place is reinforcements placed in an area.
type Place struct {
	Area string `json:"area"`
	N    int    `json:"n"`
}

// Orders is one side's parsed orders for one step.
type Orders struct {
	Step      string     `json:"step"`
	Moves     []Move     `json:"moves,omitempty"`
	Attacks   []CardPlay `json:"attacks,omitempty"`
	Reacts    []CardPlay `json:"reacts,omitempty"`
	Engineer  string     `json:"engineer,omitempty"`
	Losses    string     `json:"losses,omitempty"`
	Blocks    []Block    `json:"blocks,omitempty"`
	Flees     []Hop      `json:"flees,omitempty"`
	Defends   []CardPlay `json:"defends,omitempty"`
	Retreats  []Hop      `json:"retreats,omitempty"`
	Trade     []string   `json:"trade,omitempty"`
	Places    []Place    `json:"places,omitempty"`
	Discard   string     `json:"discard,omitempty"`
	Submarine string     `json:"submarine,omitempty"`
}

// sideVerbs are the orders side gives in the open step of s: each side's
// own, not every order of the step (only Germany drops paratroops, reacts
// and sends engineers; only Norway blocks and flees, in the German round;
// only the Allies play the submarine; Norway discards nothing, 7).
func sideVerbs(s *State, side engine.Side) string {
	var out []string
	for _, n := range Verbs.Names(s.Step, side, 0) {
		switch {
		case n == "losses" && (side == German) != (s.Step == StepMove):
			continue // the attacker's choice as it moves, the defenders' in their answer (5.3.6)
		case (n == "block" || n == "flee") && s.Turn != German:
			continue // only after German movement (4.4)
		}
		out = append(out, n)
	}
	return strings.Join(out, ", ")
}

// parser holds what one order file has used up so far.
type parser struct {
	s     *State
	side  engine.Side
	o     Orders
	errs  []engine.LineError
	hand  []string       // cards not yet committed
	moved map[string]int // battalions moved out of an area
	// lines records where area-bound orders were given, for checks made
	// once the whole file is read.
	attackLines map[string]engine.OrderLine
	reactLines  map[string]engine.OrderLine
	placeLines  []engine.OrderLine
}

// ParseOrders implements engine.Ruleset.
func (rules) ParseOrders(s *State, side engine.Side, text string) (Orders, []engine.LineError) {
	p := &parser{s: s, side: side, o: Orders{Step: s.Step}, moved: map[string]int{},
		attackLines: map[string]engine.OrderLine{}, reactLines: map[string]engine.OrderLine{}}
	p.hand = append([]string(nil), s.deck(side).Hand...)
	lines := engine.OrderLines(text)
	if !s.owesSide(side) {
		if len(lines) > 0 {
			p.errs = append(p.errs, lines[0].Errorf("3", "no orders", "%s owes no orders in phase %s", side, s.phaseID()))
		}
		return p.o, p.errs
	}
	for _, l := range lines {
		driver.Line(p, l)
	}
	p.finish()
	return p.o, p.errs
}

func (p *parser) errorf(l engine.OrderLine, rule, valid, format string, args ...any) {
	p.errs = append(p.errs, l.Errorf(rule, valid, format, args...))
}

// area reads an area name, or records an error.
func (p *parser) area(l engine.OrderLine, word string) (string, bool) {
	a, ok := lookupArea(word)
	if !ok {
		var all []string
		for _, id := range data.Graph.Areas() {
			all = append(all, AreaName(id))
		}
		p.errorf(l, "2.4", engine.Suggest(word, all), "%q is not a land area", word)
	}
	return a, ok
}

// card reads a card name of the side's deck, or records an error.
func (p *parser) card(l engine.OrderLine, word string) (CardInfo, bool) {
	id, ok := lookupCard(p.side, word)
	if !ok {
		p.errorf(l, "1.2", engine.Suggest(word, sideCards(p.side)), "%q is not a card of the %s deck", word, p.side)
		return CardInfo{}, false
	}
	c, _ := data.Card(p.side, id)
	return c, true
}

// take commits a card from the hand, or records an error.
func (p *parser) take(l engine.OrderLine, rule string, id string) bool {
	if removeCard(&p.hand, id) {
		return true
	}
	p.errorf(l, rule, "cards in hand: "+p.handText(), "%s is not in your hand (or is already used in these orders)", CardName(p.side, id))
	return false
}

func (p *parser) handText() string {
	if len(p.hand) == 0 {
		return "none"
	}
	return strings.Join(p.hand, " ")
}

// number reads a positive count.
func (p *parser) number(l engine.OrderLine, word string) (int, bool) {
	n, err := strconv.Atoi(word)
	if err != nil || n < 1 {
		p.errorf(l, "2.1", "a number of battalions, 1 or more", "%q is not a number of battalions", word)
		return 0, false
	}
	return n, true
}

// avail is how many of the side's battalions in area have not moved yet.
func (p *parser) avail(area string) int { return p.s.count(area, p.side) - p.moved[area] }

func (p *parser) move(l engine.OrderLine, args []string) {
	from, ok1 := p.area(l, args[0])
	to, ok2 := p.area(l, args[1])
	if !ok1 || !ok2 {
		return
	}
	n := 1
	if len(args) == 3 {
		var ok bool
		if n, ok = p.number(l, args[2]); !ok {
			return
		}
	}
	if !data.Graph.Adjacent(from, to) {
		p.errorf(l, "4.1", "neighbours of "+AreaName(from)+": "+names(data.Graph.Neighbors(from)), "%s does not border %s: a battalion moves one area a round", AreaName(to), AreaName(from))
		return
	}
	if !p.use(l, from, n) {
		return
	}
	p.o.Moves = append(p.o.Moves, Move{From: from, Path: []string{to}, N: n})
}

// use takes n unmoved battalions of the side in from, or records an error.
func (p *parser) use(l engine.OrderLine, from string, n int) bool {
	if a := p.avail(from); n > a {
		p.errorf(l, "4.1", fmt.Sprintf("at most %d", a), "%d battalion(s) to move from %s, but only %d there have not moved", n, AreaName(from), a)
		return false
	}
	p.moved[from] += n
	return true
}

func (p *parser) rapid(l engine.OrderLine, args []string) {
	const valid = "rapid FROM AREA [AREA] [N]"
	n := 1
	if _, err := strconv.Atoi(args[len(args)-1]); err == nil {
		var ok bool
		if n, ok = p.number(l, args[len(args)-1]); !ok {
			return
		}
		args = args[:len(args)-1]
	}
	if len(args) < 2 || len(args) > 3 {
		p.errorf(l, "4.1", valid, "Rask forflytning moves up to two areas")
		return
	}
	from, ok := p.area(l, args[0])
	if !ok {
		return
	}
	var path []string
	at := from
	for i, w := range args[1:] {
		a, ok := p.area(l, w)
		if !ok {
			return
		}
		if !data.Graph.Adjacent(at, a) {
			p.errorf(l, "4.1", "neighbours of "+AreaName(at)+": "+names(data.Graph.Neighbors(at)), "%s does not border %s", AreaName(a), AreaName(at))
			return
		}
		if i == 0 && len(args) == 3 && p.s.enemyIn(a, p.side) > 0 {
			p.errorf(l, "4.2", "a first area free of the enemy", "%s is held by the enemy: an attack ends the move", AreaName(a))
			return
		}
		path = append(path, a)
		at = a
	}
	c, ok := data.Card(p.side, "rask-forflytning")
	if !ok {
		p.errorf(l, "4.1", "move", "the %s deck has no Rask forflytning", p.side)
		return
	}
	if !p.take(l, "4.1", c.ID) {
		return
	}
	if !p.use(l, from, n) {
		return
	}
	p.o.Moves = append(p.o.Moves, Move{From: from, Path: path, N: n, Card: c.ID})
}

func (p *parser) para(l engine.OrderLine, args []string) {
	if p.side != German {
		p.errorf(l, "4.1", "move, rapid", "only Germany has Fallskjermtropp")
		return
	}
	from, ok1 := p.area(l, args[0])
	to, ok2 := p.area(l, args[1])
	if !ok1 || !ok2 {
		return
	}
	if d := Distance(from, to); d < 1 || d > 3 {
		p.errorf(l, "4.1", "an area 1 to 3 areas away", "%s is %d areas from %s", AreaName(to), d, AreaName(from))
		return
	}
	if !p.take(l, "4.1", "fallskjermtropp") || !p.use(l, from, 1) {
		return
	}
	p.o.Moves = append(p.o.Moves, Move{From: from, Path: []string{to}, N: 1, Card: "fallskjermtropp"})
}

// cardPlay reads "attack|react|defend AREA CARD...".
func (p *parser) cardPlay(l engine.OrderLine, args []string, use string) {
	rule := map[string]string{"attack": "5.3.1", "defend": "5.3.2", "react": "5.3.3"}[use]
	area, ok := p.area(l, args[0])
	if !ok {
		return
	}
	if !p.combatOpen(l, use, rule, area) {
		return
	}
	play := CardPlay{Area: area}
	words := args[1:]
	if use == "attack" && len(words) >= 2 && strings.EqualFold(words[len(words)-2], "first") {
		from, ok := p.area(l, words[len(words)-1])
		if !ok {
			return
		}
		if !data.Graph.Adjacent(from, area) {
			p.errorf(l, "5.3.6", "first AREA, an area the attack comes from", "%s does not border %s", AreaName(from), AreaName(area))
			return
		}
		play.First = from
		words = words[:len(words)-2]
	}
	if !p.playCards(l, use, rule, &play, words) {
		return
	}
	switch use {
	case "attack":
		p.attackLines[area] = l
		p.o.Attacks = append(p.o.Attacks, play)
	case "react":
		p.reactLines[area] = l
		p.o.Reacts = append(p.o.Reacts, play)
	default:
		p.o.Defends = append(p.o.Defends, play)
	}
}

// combatOpen reports whether the side may give a use line for the combat
// in area (an enemy-held area for attack and react, one it defends for
// defend, one line each), or records why not.
func (p *parser) combatOpen(l engine.OrderLine, use, rule, area string) bool {
	switch use {
	case "attack", "react":
		if use == "react" && p.side != German {
			p.errorf(l, rule, "attack", "only Germany has reaction cards (step 3)")
			return false
		}
		if p.s.enemyIn(area, p.side) == 0 {
			p.errorf(l, rule, "an area held by the enemy", "%s is not held by the enemy: there is no combat there", AreaName(area))
			return false
		}
		lines := p.attackLines
		if use == "react" {
			lines = p.reactLines
		}
		if prev, dup := lines[area]; dup {
			p.errorf(l, rule, "one line for each area", "a second %s line for %s (the first is line %d)", use, AreaName(area), prev.N)
			return false
		}
	case "defend":
		if p.s.combatAt(area) < 0 || p.s.count(area, p.side) == 0 {
			p.errorf(l, rule, "the areas you defend: "+p.defendAreas(), "you do not defend %s this round", AreaName(area))
			return false
		}
		for _, d := range p.o.Defends {
			if d.Area == area {
				p.errorf(l, rule, "one line for each area", "a second defend line for %s", AreaName(area))
				return false
			}
		}
	}
	return true
}

// playCards adds the cards named by words to play, each one the side
// holds and may play for use, at most one of a type, or records why not.
func (p *parser) playCards(l engine.OrderLine, use, rule string, play *CardPlay, words []string) bool {
	for _, w := range words {
		c, ok := p.card(l, w)
		if !ok {
			return false
		}
		if !c.Can(use) {
			p.errorf(l, rule, p.usable(use), "%s cannot be played in %s", c.Name, map[string]string{"attack": "step 1 (attacker's cards)", "defend": "step 2 (defender's cards)", "react": "step 3 (attacker's reactions)"}[use])
			return false
		}
		if countOf(play.Cards, c.ID) > 0 {
			p.errorf(l, "5.3.1", "one card of each type", "%s twice in one combat: at most one card of the same type", c.Name)
			return false
		}
		if use == "react" {
			if countOf(p.s.deck(p.side).Hand, c.ID) == 0 {
				p.errorf(l, rule, "cards in hand: "+p.handText(), "%s is not in your hand", c.Name)
				return false
			}
		} else if !p.take(l, rule, c.ID) {
			return false
		}
		play.Cards = append(play.Cards, c.ID)
	}
	return true
}

// usable lists the side's cards playable for use.
func (p *parser) usable(use string) string {
	var out []string
	for _, c := range data.Cards {
		if c.Side == p.side && c.Can(use) {
			out = append(out, c.ID)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

func (p *parser) defendAreas() string {
	var out []string
	for _, c := range p.s.Combats {
		if p.s.count(c.Area, p.side) > 0 {
			out = append(out, AreaName(c.Area))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

func (p *parser) onOff(l engine.OrderLine, verb string, args []string) {
	who := map[string]engine.Side{"engineer": German, "submarine": Allied}[verb]
	rule := map[string]string{"engineer": "4.4", "submarine": "6.3"}[verb]
	if p.side != who {
		p.errorf(l, rule, sideVerbs(p.s, p.side), "only %s gives %s orders", who, verb)
		return
	}
	if strings.ToLower(args[0]) != "on" && strings.ToLower(args[0]) != "off" {
		p.errorf(l, rule, verb+" on | "+verb+" off", "say on or off")
		return
	}
	if verb == "engineer" {
		p.o.Engineer = strings.ToLower(args[0])
	} else {
		p.o.Submarine = strings.ToLower(args[0])
	}
}

func (p *parser) losses(l engine.OrderLine, args []string) {
	v := strings.ToLower(args[0])
	if v != string(Norwegian) && v != string(Allied) {
		p.errorf(l, "5.3.6", "losses norwegian | losses allied", "%q is neither norwegian nor allied", args[0])
		return
	}
	if p.side == German && p.s.Step != StepMove {
		p.errorf(l, "5.3.6", sideVerbs(p.s, p.side), "Germany decides joint losses in its move orders")
		return
	}
	p.o.Losses = v
}

func (p *parser) block(l engine.OrderLine, args []string) {
	if p.side != Norwegian || p.s.Turn != German {
		p.errorf(l, "4.4", sideVerbs(p.s, p.side), "only Norway blocks, after German movement")
		return
	}
	if len(args) == 3 || len(args) == 4 && strings.ToLower(args[2]) != "from" {
		p.errorf(l, "4.4", "block veisperring AREA [from AREA] | block sprengt-bro AREA", "a block names its card and the area the Germans move into")
		return
	}
	c, ok := p.card(l, args[0])
	if !ok {
		return
	}
	if !c.Can("block") {
		p.errorf(l, "4.4", "veisperring, sprengt-bro", "%s does not block movement", c.Name)
		return
	}
	area, ok := p.area(l, args[1])
	if !ok {
		return
	}
	b := Block{Card: c.ID, Area: area}
	var into []string
	for _, g := range p.s.Groups {
		if g.To == area && g.Card != "fallskjermtropp" {
			into = append(into, g.From)
		}
	}
	if len(into) == 0 {
		p.errorf(l, "4.4", "the areas German groups move into: "+p.groupDests(), "no German group moves into %s", AreaName(area))
		return
	}
	if len(args) == 4 {
		if c.ID != "veisperring" {
			p.errorf(l, "4.4", "block sprengt-bro AREA", "Sprengt bro stops every group into the area; it takes no from")
			return
		}
		from, ok := p.area(l, args[3])
		if !ok {
			return
		}
		found := false
		for _, f := range into {
			found = found || f == from
		}
		if !found {
			p.errorf(l, "4.4", "from "+names(into), "no German group moves from %s into %s", AreaName(from), AreaName(area))
			return
		}
		b.From = from
	}
	if !p.take(l, "4.4", c.ID) {
		return
	}
	p.o.Blocks = append(p.o.Blocks, b)
}

// groupInto reports whether any group moves into area.
func (p *parser) groupInto(area string) bool {
	for _, g := range p.s.Groups {
		if g.To == area {
			return true
		}
	}
	return false
}

func (p *parser) groupDests() string {
	seen := map[string]bool{}
	for _, g := range p.s.Groups {
		if g.Card != "fallskjermtropp" {
			seen[g.To] = true
		}
	}
	if len(seen) == 0 {
		return "none"
	}
	return names(engine.SortedKeys(seen))
}

func (p *parser) flee(l engine.OrderLine, args []string) {
	if p.side != Norwegian || p.s.Turn != German {
		p.errorf(l, "4.4", sideVerbs(p.s, p.side), "only Norway flees, in the German round")
		return
	}
	from, ok1 := p.area(l, args[0])
	to, ok2 := p.area(l, args[1])
	if !ok1 || !ok2 {
		return
	}
	if p.s.combatAt(from) < 0 || p.s.count(from, Norwegian) == 0 {
		p.errorf(l, "4.4", "the areas you defend: "+p.defendAreas(), "%s is not a Norwegian area under attack", AreaName(from))
		return
	}
	for _, f := range p.o.Flees {
		if f.From == from {
			p.errorf(l, "4.4", "one flight from each area", "a second flight from %s", AreaName(from))
			return
		}
	}
	if !data.Graph.Adjacent(from, to) || p.s.enemyIn(to, Norwegian) > 0 || p.s.combatAt(to) >= 0 || p.groupInto(to) {
		p.errorf(l, "4.4", "a neighbour of "+AreaName(from)+" free of Germans and of combat", "cannot flee from %s to %s", AreaName(from), AreaName(to))
		return
	}
	if !p.take(l, "4.4", "rask-forflytning") {
		return
	}
	p.o.Flees = append(p.o.Flees, Hop{From: from, To: to})
}

func (p *parser) retreat(l engine.OrderLine, args []string) {
	from, ok1 := p.area(l, args[0])
	to, ok2 := p.area(l, args[1])
	if !ok1 || !ok2 {
		return
	}
	if p.s.combatAt(from) < 0 || p.s.count(from, p.side) == 0 {
		p.errorf(l, "5.3.8", "the areas you defend: "+p.defendAreas(), "you do not defend %s this round", AreaName(from))
		return
	}
	if !data.Graph.Adjacent(from, to) {
		p.errorf(l, "5.3.8", "neighbours of "+AreaName(from)+": "+names(data.Graph.Neighbors(from)), "%s does not border %s", AreaName(to), AreaName(from))
		return
	}
	if p.side != Norwegian && EdgeKind(from, to) == "fjord" {
		p.errorf(l, "5.3.8", "a neighbour across land", "German and Allied battalions never retreat across a fjord or lake")
		return
	}
	for _, r := range p.o.Retreats {
		if r.From == from {
			p.errorf(l, "5.3.8", "one retreat for each area", "a second retreat from %s", AreaName(from))
			return
		}
	}
	p.o.Retreats = append(p.o.Retreats, Hop{From: from, To: to})
}

func (p *parser) trade(l engine.OrderLine, args []string) {
	for _, w := range args {
		c, ok := p.card(l, w)
		if !ok || !p.take(l, "6", c.ID) {
			return
		}
		p.o.Trade = append(p.o.Trade, c.ID)
	}
}

// Reinforcements is how many battalions side gets for trading cards, with
// Germany's free battalion (text, phase 3: three symbols a battalion).
func Reinforcements(side engine.Side, cards []string) int {
	sym := 0
	for _, id := range cards {
		c, _ := data.Card(side, id)
		sym += c.Symbols
	}
	n := sym / 3
	if side == German {
		n++
	}
	return n
}

// CanPlace reports whether side may place reinforcements in area (phase 3),
// and if not, why.
func (s *State) CanPlace(side engine.Side, area string) (bool, string) {
	a, _ := data.Area(area)
	if s.enemyIn(area, side) > 0 {
		return false, "held by the enemy"
	}
	switch side {
	case German:
		if a.Sea != "I" && a.Sea != "II" {
			return false, "not on the coast of sea areas I and II"
		}
	case Allied:
		if a.Sea == "" || a.Sea == "I" || a.Sea == "II" {
			return false, "not on the coast of sea areas III to VII"
		}
	}
	return true, ""
}

// placeable lists the areas where side may place reinforcements.
func (s *State) placeable(side engine.Side) []string {
	var out []string
	for _, a := range data.Areas {
		if ok, _ := s.CanPlace(side, a.ID); ok {
			out = append(out, a.ID)
		}
	}
	return out
}

func (p *parser) place(l engine.OrderLine, args []string) {
	area, ok := p.area(l, args[0])
	if !ok {
		return
	}
	n := 1
	if len(args) == 2 {
		if n, ok = p.number(l, args[1]); !ok {
			return
		}
	}
	rule := map[engine.Side]string{German: "6.1", Norwegian: "6.2", Allied: "6.3"}[p.side]
	if ok, why := p.s.CanPlace(p.side, area); !ok {
		p.errorf(l, rule, names(p.s.placeable(p.side)), "%s: %s", AreaName(area), why)
		return
	}
	if p.side == Norwegian {
		if n > 1 {
			p.errorf(l, "6.2", "place "+AreaName(area)+" 1", "Norway places at most one battalion in each area a round")
			return
		}
		for _, x := range p.o.Places {
			if x.Area == area {
				p.errorf(l, "6.2", "one place line for each area", "Norway places at most one battalion in each area a round")
				return
			}
		}
	}
	p.o.Places = append(p.o.Places, Place{Area: area, N: n})
	p.placeLines = append(p.placeLines, l)
}

func (p *parser) discard(l engine.OrderLine, args []string) {
	c, ok := p.card(l, args[0])
	if !ok {
		return
	}
	if countOf(p.hand, c.ID) == 0 {
		p.errorf(l, "7", "cards in hand: "+p.handText(), "%s is not in your hand (or is traded)", c.Name)
		return
	}
	if p.o.Discard != "" {
		p.errorf(l, "7", "one discard", "a second discard")
		return
	}
	p.o.Discard = c.ID
}

// finish makes the checks that need the whole file.
func (p *parser) finish() {
	dests := map[string]bool{}
	for _, m := range p.o.Moves {
		dests[m.To()] = true
	}
	for _, area := range engine.SortedKeys(p.attackLines) {
		if !dests[area] {
			l := p.attackLines[area]
			p.errorf(l, "4.2", "move into "+AreaName(area)+" in these orders", "no battalion moves into %s: there is no attack there", AreaName(area))
		}
	}
	for _, a := range p.o.Attacks {
		if a.First == "" {
			continue
		}
		found := false
		for _, m := range p.o.Moves {
			found = found || (m.From == a.First && m.To() == a.Area)
		}
		if !found {
			p.errorf(p.attackLines[a.Area], "5.3.6", "first AREA, an area the attack comes from", "no battalion attacks %s from %s", AreaName(a.Area), AreaName(a.First))
		}
	}
	for _, area := range engine.SortedKeys(p.reactLines) {
		if !dests[area] {
			l := p.reactLines[area]
			p.errorf(l, "4.2", "move into "+AreaName(area)+" in these orders", "no battalion moves into %s: there is no attack there", AreaName(area))
		}
	}
	if p.s.Step == StepReinforce {
		avail := Reinforcements(p.side, p.o.Trade)
		total := 0
		for i, x := range p.o.Places {
			total += x.N
			if total > avail {
				fit := avail - (total - x.N)
				valid := fmt.Sprintf("place %s %d (%d battalion(s) in all)", x.Area, fit, avail)
				if fit <= 0 {
					valid = fmt.Sprintf("no more place orders: %d battalion(s) in all", avail)
				}
				p.errorf(p.placeLines[i], "6", valid, "%d battalion(s) placed, but the cards traded give %d", total, avail)
				break
			}
		}
	}
	sort.SliceStable(p.o.Attacks, func(i, j int) bool {
		return p.attackLines[p.o.Attacks[i].Area].N < p.attackLines[p.o.Attacks[j].Area].N
	})
}

// names joins area ids as display names.
func names(ids []string) string {
	var out []string
	for _, id := range ids {
		out = append(out, AreaName(id))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}
