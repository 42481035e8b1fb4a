package kampen

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// Play implements engine.Player: legal orders for the open phase from
// side's View alone. Germany drives on the four objectives, attacks where
// it has the numbers and plays its combat cards there; Norway and the
// Allies hold the objectives, block and counter the German cards, and
// strike back at weak German stacks.
func (r rules) Play(v *View, side engine.Side, dice engine.Dice) string {
	if v == nil || v.Over {
		return ""
	}
	if !v.Phase.Awaits(side) {
		return ""
	}
	p := &player{v: v, side: side, s: stateFromView(v), hand: append([]string(nil), v.Hand...), moved: map[string]int{}}
	switch v.Step {
	case StepMove:
		p.move()
	case StepDefend:
		p.defend()
	case StepReinforce:
		p.reinforce()
	}
	// Keep only the lines the full parse accepts, one at a time.
	var kept []string
	for _, l := range p.lines {
		try := strings.Join(append(append([]string(nil), kept...), l), "\n") + "\n"
		if _, errs := r.ParseOrders(p.s, side, try); len(errs) == 0 {
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		return "# no orders\n"
	}
	return strings.Join(kept, "\n") + "\n"
}

type player struct {
	v     *View
	side  engine.Side
	s     *State
	hand  []string
	moved map[string]int
	lines []string
	// budget is how many more cards the side means to play this round.
	budget int
}

func (p *player) add(format string, args ...any) {
	p.lines = append(p.lines, fmt.Sprintf(format, args...))
}

func (p *player) has(id string) bool { return countOf(p.hand, id) > 0 }

func (p *player) use(id string) bool { return removeCard(&p.hand, id) }

func (p *player) free(area string) int { return p.s.count(area, p.side) - p.moved[area] }

func isObjective(a string) bool { return contains(Objectives, a) }

// step is the first area on a shortest route from a to b.
func step(a, b string) string {
	path, ok := data.Graph.ShortestPath(a, b, func(engine.Edge) (int, bool) { return 1, true })
	if !ok || len(path.Areas) < 2 {
		return ""
	}
	return path.Areas[1]
}

// garrison is how many battalions a side keeps where it stands.
func (p *player) garrison(area string) int {
	switch {
	case isObjective(area):
		if p.side == German {
			return 1
		}
		return p.s.count(area, p.side)
	case p.side == German && area == "oslo":
		return 1
	case p.side == Allied && area == "andalsnes":
		return 1
	}
	return 0
}

// threat is how many enemy battalions stand next to area.
func (p *player) threat(area string) int {
	n := 0
	for _, nb := range data.Graph.Neighbors(area) {
		n += p.s.enemyIn(nb, p.side)
	}
	return n
}

func (p *player) move() {
	// The German deck is the clock: Germany means to spend one card a
	// round (the one it must), or two for an objective.
	p.budget = 3
	if p.side == German {
		p.budget = 1
		if p.v.UsedSince {
			p.budget = 0
		}
	}
	attacked := map[string]bool{}
	for _, t := range p.targets() {
		if p.attack(t) {
			attacked[t.area] = true
		}
	}
	if p.side == German {
		var reacts []string
		for _, id := range []string{"jagerbomber", "speidertropp"} {
			if p.has(id) {
				reacts = append(reacts, id)
			}
		}
		for _, a := range engine.SortedKeys(attacked) {
			if len(reacts) > 0 && p.budget > 0 && isObjective(a) {
				p.add("react %s %s", a, strings.Join(reacts, " "))
			}
		}
		if p.budget > 0 || len(attacked) > 0 {
			p.add("engineer on")
		}
		p.para()
	}
	p.advance()
}

// target is an area the player might attack: its defenders and its worth.
type target struct {
	area  string
	def   int
	value int
}

// targets are the areas with enemies in them, objectives first, then the
// weakest held.
func (p *player) targets() []target {
	var targets []target
	for _, a := range data.Areas {
		d := p.s.enemyIn(a.ID, p.side)
		if d == 0 {
			continue
		}
		val := 0
		if isObjective(a.ID) {
			val = 10
		}
		targets = append(targets, target{a.ID, d, val})
	}
	sort.SliceStable(targets, func(i, j int) bool {
		if targets[i].value != targets[j].value {
			return targets[i].value > targets[j].value
		}
		return targets[i].def < targets[j].def
	})
	return targets
}

// cardsAttack are the cards each side plays to attack, in the order it
// reaches for them.
var cardsAttack = map[engine.Side][]string{
	German:    {"panzer", "artilleri", "bombefly", "jagerbomber", "speidertropp"},
	Norwegian: {"bakhold"},
	Allied:    {"stridsvogn", "fremmedlegionaer"},
}

// source is an area that may join an attack, with the battalions it can
// spare.
type source struct {
	from string
	n    int
}

// attack orders the attack on t where the player's spare battalions and
// cards give it enough dice over the defender's, and reports whether it
// did.
func (p *player) attack(t target) bool {
	// Who could join the attack, and with how many dice.
	var srcs []source
	land, fj := 0, 0
	for _, nb := range data.Graph.Neighbors(t.area) {
		n := p.free(nb) - p.garrison(nb)
		if n <= 0 {
			continue
		}
		srcs = append(srcs, source{nb, n})
		if EdgeKind(nb, t.area) == "fjord" {
			fj += n
		} else {
			land += n
		}
	}
	aDice := BattalionDice(land, fj)
	if aDice == 0 {
		return false
	}
	// The defender may well have a card worth a die or two.
	dDice := min(t.def, 5) + 1
	margin := 2
	if p.side != German {
		margin = 3
	}
	cards, aDice := p.attackCards(t, aDice, dDice+margin)
	if aDice < dDice+margin-1 {
		return false
	}
	for _, x := range srcs {
		p.add("move %s %s %d", x.from, t.area, x.n)
		p.moved[x.from] += x.n
	}
	if len(cards) > 0 {
		for _, id := range cards {
			p.use(id)
		}
		p.budget = max(0, p.budget-len(cards))
		p.add("attack %s %s", t.area, strings.Join(cards, " "))
	}
	return true
}

// attackCards are the cards the player would add to aDice dice against t
// until it has want dice or has spent its budget, and the dice then.
func (p *player) attackCards(t target, aDice, want int) ([]string, int) {
	budget := p.budget
	if p.side == German && t.value > 0 {
		budget++
	}
	var cards []string
	for _, id := range cardsAttack[p.side] {
		if aDice >= want || len(cards) >= budget {
			break
		}
		if p.has(id) && !contains(cards, id) {
			c, _ := data.Card(p.side, id)
			cards = append(cards, id)
			aDice += c.Attack
		}
	}
	return cards, aDice
}

// para drops a paratroop battalion on an empty objective.
func (p *player) para() {
	if !p.has("fallskjermtropp") || p.budget <= 0 {
		return
	}
	for _, o := range Objectives {
		if p.s.holder(o) != "" {
			continue
		}
		for _, st := range p.s.Stacks {
			if st.Side == German && p.free(st.Area)-p.garrison(st.Area) > 0 {
				if d := Distance(st.Area, o); d >= 1 && d <= 3 {
					p.use("fallskjermtropp")
					p.budget--
					p.moved[st.Area]++
					p.add("para %s %s", st.Area, o)
					return
				}
			}
		}
	}
}

// advance moves the battalions not in an attack towards where they are
// needed, into areas free of the enemy.
func (p *player) advance() {
	for _, st := range append([]Stack(nil), p.s.Stacks...) {
		if st.Side != p.side {
			continue
		}
		n := p.free(st.Area) - p.garrison(st.Area)
		if n <= 0 {
			continue
		}
		goal := p.goal(st.Area)
		if goal == "" || goal == st.Area {
			continue
		}
		next := step(st.Area, goal)
		if next == "" || p.s.enemyIn(next, p.side) > 0 {
			continue
		}
		if p.side != German && p.threat(next) > n+p.s.friendIn(next, p.side)+2 && !isObjective(next) {
			continue
		}
		if p.side == German && p.budget > 0 && p.has("rask-forflytning") && Distance(st.Area, goal) >= 3 {
			if nn := step(next, goal); nn != "" && p.s.enemyIn(nn, German) == 0 && nn != st.Area {
				p.use("rask-forflytning")
				p.budget--
				p.add("rapid %s %s %s %d", st.Area, next, nn, n)
				p.moved[st.Area] += n
				continue
			}
		}
		p.add("move %s %s %d", st.Area, next, n)
		p.moved[st.Area] += n
	}
}

// goal is where a side's spare battalions in area should go: for Germany
// the nearest objective it does not hold; for Norway and the Allies the
// nearest objective they hold that is threatened, or the nearest they do
// not hold.
func (p *player) goal(area string) string {
	best, bd := "", 1<<30
	for _, o := range Objectives {
		h := p.s.holder(o)
		var want bool
		if p.side == German {
			want = h != German
		} else {
			want = h != German && (p.threat(o) > 0 || h == "")
			if !want && h == German {
				want = true
			}
		}
		if !want {
			continue
		}
		d := Distance(area, o)
		if d >= 0 && d < bd {
			best, bd = o, d
		}
	}
	return best
}

func (p *player) defend() {
	if p.side == Norwegian && p.v.Turn == German {
		p.sabotage()
	}
	for _, c := range p.s.Combats {
		mine := p.s.count(c.Area, p.side)
		if mine == 0 {
			continue
		}
		attackers := 0
		for _, g := range p.s.Groups {
			if g.To == c.Area {
				attackers += g.N
			}
		}
		// Flee a hopeless fight away from the objectives.
		if p.side == Norwegian && !isObjective(c.Area) && attackers >= 3*p.s.friendIn(c.Area, p.side) && p.has("rask-forflytning") {
			p.flee(c.Area)
			continue
		}
		cards := p.defenceCards(c, attackers)
		if len(cards) > 0 {
			p.add("defend %s %s", c.Area, strings.Join(cards, " "))
		}
		if best := p.retreatTo(c.Area); best != "" {
			p.add("retreat %s %s", c.Area, best)
		}
	}
	if p.side == Allied {
		p.add("losses allied")
	} else if p.side == Norwegian {
		p.add("losses allied")
	}
}

// sabotage blocks the German groups heading for objectives, or for areas
// Norway holds, largest first.
func (p *player) sabotage() {
	gs := append([]Group(nil), p.s.Groups...)
	sort.SliceStable(gs, func(i, j int) bool { return gs[i].N > gs[j].N })
	blocked := map[string]bool{}
	for _, g := range gs {
		if g.Card == "fallskjermtropp" || blocked[g.To] {
			continue
		}
		if !isObjective(g.To) && p.s.count(g.To, Norwegian) == 0 {
			continue
		}
		switch {
		case p.has("sprengt-bro"):
			p.use("sprengt-bro")
			p.add("block sprengt-bro %s", g.To)
			blocked[g.To] = true
		case p.has("veisperring"):
			p.use("veisperring")
			p.add("block veisperring %s from %s", g.To, g.From)
			blocked[g.To] = true
		}
	}
}

// flee moves the battalions in area to the first neighbour free of
// enemies, combats and groups on the move.
func (p *player) flee(area string) {
	for _, nb := range data.Graph.Neighbors(area) {
		if p.s.enemyIn(nb, Norwegian) == 0 && p.s.combatAt(nb) < 0 && !p.groupInto(nb) {
			p.use("rask-forflytning")
			p.add("flee %s %s", area, nb)
			break
		}
	}
}

// defenceCards are the cards the player plays to defend against c: those
// that cancel the attacker's cards, and where the fight matters, up to
// three that add dice.
func (p *player) defenceCards(c Combat, attackers int) []string {
	var cards []string
	for _, a := range c.Cards {
		for _, id := range []string{"jagerfly", "panservernkanon"} {
			info, _ := data.Card(p.side, id)
			if contains(info.Cancels, a) && p.has(id) && !contains(cards, id) {
				cards = append(cards, id)
				p.use(id)
				break
			}
		}
	}
	important := isObjective(c.Area) || attackers <= p.s.friendIn(c.Area, p.side)+1
	if !important {
		return cards
	}
	for _, id := range []string{"bakhold", "stridsvogn", "fremmedlegionaer", "artilleri", "panzer", "ingeniorkompani"} {
		info, ok := data.Card(p.side, id)
		if ok && info.Can("defend") && p.has(id) && !contains(cards, id) && len(cards) < 3 {
			if p.side == German && id == "ingeniorkompani" && len(cards) > 0 {
				continue
			}
			cards = append(cards, id)
			p.use(id)
		}
	}
	return cards
}

// retreatTo is where the battalions in area retreat if they lose: towards
// friends and objectives, never into the attackers' way; "" for nowhere.
func (p *player) retreatTo(area string) string {
	best, bn := "", -1
	for _, nb := range data.Graph.Neighbors(area) {
		if p.s.enemyIn(nb, p.side) > 0 || p.s.combatAt(nb) >= 0 || p.groupFrom(nb) || p.groupInto(nb) {
			continue
		}
		if p.side != Norwegian && EdgeKind(area, nb) == "fjord" {
			continue
		}
		f := p.s.friendIn(nb, p.side)
		if isObjective(nb) {
			f += 3
		}
		if f > bn {
			best, bn = nb, f
		}
	}
	return best
}

func (p *player) groupInto(a string) bool {
	for _, g := range p.s.Groups {
		if g.To == a {
			return true
		}
	}
	return false
}

func (p *player) groupFrom(a string) bool {
	for _, g := range p.s.Groups {
		if g.From == a {
			return true
		}
	}
	return false
}

func (p *player) reinforce() {
	// Trade cards when nothing was played this round (a discard would
	// waste one), and Norway trades whatever gives battalions.
	var trade []string
	sym := 0
	keep := map[string]bool{"bakhold": true, "jagerfly": true, "panservernkanon": true, "panzer": true}
	if p.side == German {
		keep = map[string]bool{"panzer": true, "bombefly": true, "artilleri": true}
	}
	byValue := append([]string(nil), p.hand...)
	sort.SliceStable(byValue, func(i, j int) bool {
		a, _ := data.Card(p.side, byValue[i])
		b, _ := data.Card(p.side, byValue[j])
		return a.Symbols > b.Symbols
	})
	mustUse := !p.v.UsedSince && p.side != Norwegian
	if p.side == German {
		// One card must go: the one least use in combat, as a discard
		// (trading it alone would give no battalion).
		if mustUse && len(byValue) > 0 {
			worst := byValue[0]
			for _, id := range byValue {
				c, _ := data.Card(German, id)
				w, _ := data.Card(German, worst)
				if c.Attack < w.Attack {
					worst = id
				}
			}
			p.add("discard %s", worst)
		}
		mustUse = false
		keep = map[string]bool{}
		for _, id := range byValue {
			keep[id] = true
		}
	}
	for _, id := range byValue {
		if keep[id] && !mustUse {
			continue
		}
		c, _ := data.Card(p.side, id)
		if sym >= 3 && !(p.side == Norwegian && sym%3 != 0) {
			break
		}
		trade = append(trade, id)
		sym += c.Symbols
		if mustUse && sym >= 3 {
			break
		}
	}
	if sym < 3 && !mustUse {
		trade = nil
	}
	if mustUse && len(trade) == 0 && len(p.hand) > 0 {
		trade = []string{byValue[len(byValue)-1]}
	}
	if len(trade) > 0 {
		p.add("trade %s", strings.Join(trade, " "))
	}
	n := Reinforcements(p.side, trade)
	areas := p.s.placeable(p.side)
	sort.SliceStable(areas, func(i, j int) bool { return p.placeScore(areas[i]) > p.placeScore(areas[j]) })
	for i := 0; n > 0 && len(areas) > 0; i++ {
		a := areas[i%len(areas)]
		if p.side == Norwegian {
			if i >= len(areas) {
				break
			}
			p.add("place %s 1", a)
			n--
			continue
		}
		p.add("place %s %d", a, n)
		n = 0
	}
	if p.side == Allied {
		p.add("submarine on")
	}
}

// placeScore ranks areas for reinforcements: objectives under threat
// first, then areas near the front.
func (p *player) placeScore(a string) int {
	sc := 0
	if isObjective(a) {
		sc += 20
	}
	sc += 3 * p.threat(a)
	if p.side == German && a == "oslo" {
		sc += 50
	}
	if p.side == Allied && (a == "andalsnes" || a == "kristiansund") {
		sc += 10
	}
	return sc
}
