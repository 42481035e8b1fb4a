package kampen

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"skagerrak/engine"
)

// resolve is Resolve. It works on a deep copy of s.
func (r rules) resolve(st *State, orders map[engine.Side]Orders, dice engine.Dice) (*State, error) {
	s := st.clone()
	if s.Over {
		return nil, fmt.Errorf("kampen: the game is over")
	}
	get := func(side engine.Side) (Orders, error) {
		x, ok := orders[side]
		if !ok || x.Step == "" { // none, or nil where Orders were
			x = r.DefaultOrders(s, side)
		}
		if x.Step != s.Step {
			return x, fmt.Errorf("kampen: orders of %s are for the %s step, the open step is %s", side, x.Step, s.Step)
		}
		return x, nil
	}
	all := map[engine.Side]Orders{}
	for _, side := range s.owes() {
		o, err := get(side)
		if err != nil {
			return nil, err
		}
		all[side] = o
	}
	switch s.Step {
	case StepMove:
		s.resolveMove(all[s.Turn], dice)
	case StepDefend:
		s.resolveDefend(all, dice)
	case StepReinforce:
		s.resolveReinforce(all[s.Turn], dice)
	}
	return s, nil
}

// resolveMove carries out phase 1 of the phasing side's round (4.1-4.3)
// and opens the defenders' step, or goes straight on to combat when no
// defender has a choice to make.
func (s *State) resolveMove(o Orders, dice engine.Dice) {
	side := s.Turn
	for _, m := range o.Moves {
		if m.N < 1 || s.count(m.From, side) < m.N || len(m.Path) == 0 {
			continue
		}
		if m.Card != "" && !s.play(side, m.Card) {
			continue
		}
		prev := m.From
		if len(m.Path) > 1 {
			prev = m.Path[len(m.Path)-2]
		}
		fj := m.Card != "fallskjermtropp" && EdgeKind(prev, m.To()) == "fjord"
		s.add(m.From, side, -m.N)
		s.Groups = append(s.Groups, Group{Side: side, From: m.From, To: m.To(), N: m.N, Card: m.Card, Fjord: fj})
		how, via := "move", ""
		switch m.Card {
		case "rask-forflytning":
			how = "move with Rask forflytning"
			if len(m.Path) > 1 {
				via = " via " + names(m.Path[:len(m.Path)-1])
			}
		case "fallskjermtropp":
			how = "drop with Fallskjermtropp"
		}
		s.logf("", "%s: %d battalion(s) %s from %s%s to %s%s", side, m.N, how, AreaName(m.From), via, AreaName(m.To()), map[bool]string{true: " across the fjord", false: ""}[fj])
	}
	attacked := map[string]bool{}
	for _, g := range s.Groups {
		if s.enemyIn(g.To, side) > 0 {
			attacked[g.To] = true
		}
	}
	for _, a := range o.Attacks {
		if !attacked[a.Area] || s.combatAt(a.Area) >= 0 {
			continue
		}
		c := Combat{Area: a.Area, Attacker: side, First: a.First}
		for _, id := range a.Cards {
			if removeCard(&s.deck(side).Hand, id) {
				c.Cards = append(c.Cards, id)
			}
		}
		s.Combats = append(s.Combats, c)
	}
	for _, area := range engine.SortedKeys(attacked) {
		if s.combatAt(area) < 0 {
			s.Combats = append(s.Combats, Combat{Area: area, Attacker: side})
		}
	}
	for _, c := range s.Combats {
		s.logf("", "%s attacks %s%s", side, AreaName(c.Area), cardsText(side, c.Cards, " with "))
	}
	s.Hidden = Hidden{}
	if side == German {
		s.Hidden = Hidden{Reacts: o.Reacts, Engineer: o.Engineer == "on", Losses: o.Losses}
	}
	s.standingLosses(side, o.Losses)
	s.Step = StepDefend
	if len(s.owes()) == 0 {
		s.combatStep(nil, dice)
	}
}

// standingLosses records Norway's or the Allies' choice of who takes the
// first loss in a joint defence.
func (s *State) standingLosses(side engine.Side, v string) {
	if v == "" {
		return
	}
	switch side {
	case Norwegian:
		s.NorLosses = v
	case Allied:
		s.AllLosses = v
	}
}

func cardsText(side engine.Side, ids []string, prefix string) string {
	if len(ids) == 0 {
		return ""
	}
	var out []string
	for _, id := range ids {
		out = append(out, CardName(side, id))
	}
	return prefix + strings.Join(out, ", ")
}

// resolveDefend carries out the defenders' answers: Norwegian sabotage and
// flight (4.4), then the combat phase (5).
func (s *State) resolveDefend(all map[engine.Side]Orders, dice engine.Dice) {
	if s.Turn == German {
		nor := all[Norwegian]
		for _, b := range nor.Blocks {
			s.applyBlock(b)
		}
		s.landFree()
		for _, f := range nor.Flees {
			n := s.count(f.From, Norwegian)
			into := false
			for _, g := range s.Groups {
				into = into || g.To == f.To
			}
			if n == 0 || into || s.combatAt(f.From) < 0 || s.enemyIn(f.To, Norwegian) > 0 || s.combatAt(f.To) >= 0 || !data.Graph.Adjacent(f.From, f.To) {
				continue
			}
			if !s.play(Norwegian, "rask-forflytning") {
				continue
			}
			s.add(f.From, Norwegian, -n)
			s.add(f.To, Norwegian, n)
			s.logf("", "norwegian: Rask forflytning: %d battalion(s) flee from %s to %s", n, AreaName(f.From), AreaName(f.To))
		}
	}
	retreats := map[engine.Side][]Hop{}
	for _, side := range turnOrder {
		o, ok := all[side]
		if !ok {
			continue
		}
		retreats[side] = o.Retreats
		s.standingLosses(side, o.Losses)
		for _, d := range o.Defends {
			i := s.combatAt(d.Area)
			if i < 0 || s.count(d.Area, side) == 0 {
				continue
			}
			sc := SideCards{Side: side}
			for _, id := range d.Cards {
				if removeCard(&s.deck(side).Hand, id) {
					sc.Cards = append(sc.Cards, id)
				}
			}
			if len(sc.Cards) > 0 {
				s.Combats[i].Defence = append(s.Combats[i].Defence, sc)
			}
		}
	}
	s.combatStep(retreats, dice)
}

// applyBlock carries out a Veisperring or Sprengt bro, unless Germany
// answers it with Ingeniørkompani (4.4).
func (s *State) applyBlock(b Block) {
	if !s.play(Norwegian, b.Card) {
		return
	}
	name := CardName(Norwegian, b.Card)
	if s.Hidden.Engineer && s.play(German, "ingeniorkompani") {
		s.logf("", "norwegian: %s at %s; german: Ingeniørkompani cancels it", name, AreaName(b.Area))
		return
	}
	var idx []int
	for i, g := range s.Groups {
		if g.To == b.Area && g.Card != "fallskjermtropp" && (b.From == "" || g.From == b.From) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		s.logf("", "norwegian: %s at %s stops nothing", name, AreaName(b.Area))
		return
	}
	limit := 1 << 30
	if b.Card == "veisperring" {
		// One group: the named one, or the largest.
		sort.SliceStable(idx, func(a, c int) bool { return s.Groups[idx[a]].N > s.Groups[idx[c]].N })
		idx = idx[:1]
		limit = 2
	}
	stopped := 0
	for _, i := range idx {
		g := &s.Groups[i]
		k := g.N
		if k > limit-stopped {
			k = limit - stopped
		}
		g.N -= k
		stopped += k
		s.add(g.From, German, k)
		s.logf("", "norwegian: %s at %s: %d German battalion(s) go back to %s", name, AreaName(b.Area), k, AreaName(g.From))
	}
	s.dropEmptyGroups()
}

func (s *State) dropEmptyGroups() {
	out := s.Groups[:0:0]
	for _, g := range s.Groups {
		if g.N > 0 {
			out = append(out, g)
		}
	}
	s.Groups = out
}

// landFree puts down every group whose destination holds no enemy.
func (s *State) landFree() {
	var keep []Group
	for _, g := range s.Groups {
		if s.enemyIn(g.To, g.Side) == 0 && s.combatAt(g.To) < 0 {
			s.add(g.To, g.Side, g.N)
			continue
		}
		keep = append(keep, g)
	}
	s.Groups = keep
}

// combatStep fights every combat in the attacker's order (5.3) and ends the
// round's phase 2.
func (s *State) combatStep(retreats map[engine.Side][]Hop, dice engine.Dice) {
	s.landFree()
	from := map[string]bool{}
	for _, g := range s.Groups {
		from[g.From] = true
	}
	for i := range s.Combats {
		s.fight(i, from, retreats, dice)
	}
	// Any group left (its combat gone) goes home.
	for _, g := range s.Groups {
		s.add(g.From, g.Side, g.N)
	}
	s.Groups = nil
	s.Combats = nil
	s.Hidden = Hidden{}
	s.Step = StepReinforce
	s.checkWipeout()
}

// Die is one roll of the custom combat die.
type Die struct {
	Roll int
	Face Face
}

// rollDice rolls n combat dice and returns the total and the Zs. Each
// roll says which face of the custom die each d6 value stands for, so
// that a referee with manual dice knows what to give (data/dice.txt).
func rollDice(n int, dice engine.Dice, why string) (sum, z int, faces []string) {
	why += " (" + faceLegend() + ")"
	for i := 0; i < n; i++ {
		f := data.Faces[dice.Roll(6, why)-1]
		sum += f.Points
		if f.Z {
			z++
		}
		faces = append(faces, f.Label)
	}
	return
}

// BattalionDice is the attacker's dice from its battalions: at most five
// battalions count, and those that attack across a fjord or lake count
// half, rounded down (5.2).
func BattalionDice(land, fjord int) int {
	l := min(land, 5)
	f := min(fjord, 5-l)
	return l + f/2
}

// fight resolves the combat s.Combats[i] (5.3.1-5.3.8).
func (s *State) fight(i int, attackFrom map[string]bool, retreats map[engine.Side][]Hop, dice engine.Dice) {
	b := s.battle(i)
	if b.A == 0 {
		b.giveBack()
		s.logf("", "combat in %s: no attacker is left; the attack is off", AreaName(b.area))
		s.Combats[i].Cards, s.Combats[i].Defence = nil, nil
		return
	}
	if b.D == 0 {
		b.giveBack()
		for _, j := range b.gi {
			s.add(b.area, b.att, s.Groups[j].N)
			s.Groups[j].N = 0
		}
		s.dropEmptyGroups()
		s.logf("", "%s enters %s unopposed", b.att, AreaName(b.area))
		return
	}
	ac, dc, notes := b.cards()
	// Steps 4-5: the attacker rolls, then the defender, with its battalions
	// just killed.
	aDice, dDice := b.dice(ac, dc)
	aSum, aZ, aFaces := rollDice(aDice, dice, "attacker's combat dice in "+b.area)
	dSum, dZ, dFaces := rollDice(dDice, dice, "defender's combat dice in "+b.area)
	// Cards used go to the bottom of their decks.
	for _, x := range append(ac, dc...) {
		d := s.deck(x.side)
		d.Used = append(d.Used, x.info.ID)
		d.UsedSince = true
	}
	// Step 6: the dead are removed.
	before := map[engine.Side]int{}
	for _, side := range b.defSides {
		before[side] = s.count(b.area, side)
	}
	defLoss := min(aZ, b.D)
	attLoss := min(dZ, b.A)
	lossText := s.defenderLosses(b.area, b.defSides, defLoss)
	b.attackerLosses(attLoss)
	s.logf("", "combat in %s: %s %d battalion(s)%s against %s", AreaName(b.area), b.att, b.A, cardsText(b.att, b.c.Cards, " with "), b.defenders(before))
	for _, n := range notes {
		s.logf("", "  %s", n)
	}
	s.logf("", "  %s rolls %d dice: %s = %d, %d Z", b.att, aDice, strings.Join(aFaces, " "), aSum, aZ)
	s.logf("", "  defender rolls %d dice: %s = %d, %d Z", dDice, strings.Join(dFaces, " "), dSum, dZ)
	s.logf("", "  losses: %s %d, defender %d%s", b.att, attLoss, defLoss, lossText)
	// Steps 7-8: the higher total wins; the defender wins ties.
	if aSum > dSum {
		s.retreatDefenders(i, b.area, b.defSides, attackFrom, retreats)
		b.win()
	} else {
		b.hold(attLoss)
	}
	s.dropEmptyGroups()
}

// battle is one combat being fought: its attacking groups and defending
// sides.
type battle struct {
	s    *State
	c    Combat
	att  engine.Side
	area string
	// gi are the attacker's groups (indexes in s.Groups); A its
	// battalions, land and fj those attacking over land and across a
	// fjord or lake.
	gi          []int
	A, land, fj int
	// defSides are the sides defending, D their battalions.
	defSides []engine.Side
	D        int
}

// battle gathers the combat s.Combats[i].
func (s *State) battle(i int) *battle {
	c := s.Combats[i]
	b := &battle{s: s, c: c, att: c.Attacker, area: c.Area}
	for j, g := range s.Groups {
		if g.To == b.area && g.Side == b.att {
			b.gi = append(b.gi, j)
			b.A += g.N
			if g.Fjord {
				b.fj += g.N
			} else {
				b.land += g.N
			}
		}
	}
	for _, side := range turnOrder {
		if enemies(side, b.att) && s.count(b.area, side) > 0 {
			b.defSides = append(b.defSides, side)
			b.D += s.count(b.area, side)
		}
	}
	return b
}

// giveBack returns the cards of a combat not fought to their hands.
func (b *battle) giveBack() {
	s := b.s
	for _, id := range b.c.Cards {
		s.deck(b.att).Hand = append(s.deck(b.att).Hand, id)
	}
	for _, sc := range b.c.Defence {
		s.deck(sc.Side).Hand = append(s.deck(sc.Side).Hand, sc.Cards...)
	}
}

// played is a card played in a combat; off once cancelled.
type played struct {
	side engine.Side
	info CardInfo
	off  bool
}

// cards plays steps 1-3: the attacker's and the defenders' cards, and the
// notes of those cancelled. A reaction (step 3) cancels a defender's card,
// and a cancelled card counters nothing.
func (b *battle) cards() (ac, dc []*played, notes []string) {
	for _, id := range b.c.Cards {
		info, _ := data.Card(b.att, id)
		ac = append(ac, &played{side: b.att, info: info})
	}
	for _, sc := range b.c.Defence {
		for _, id := range sc.Cards {
			info, _ := data.Card(sc.Side, id)
			dc = append(dc, &played{side: sc.Side, info: info})
		}
	}
	if b.att == German {
		notes = b.reactions(dc)
	}
	for _, d := range dc {
		if d.off || len(d.info.Cancels) == 0 {
			continue
		}
		for _, a := range ac {
			if !a.off && contains(d.info.Cancels, a.info.ID) {
				a.off = true
				notes = append(notes, fmt.Sprintf("%s %s counters %s", d.side, d.info.Name, a.info.Name))
				break
			}
		}
	}
	return ac, dc, notes
}

// reactions plays the German reactions held for the combat's area against
// the defenders' cards dc, and says which it cancelled.
func (b *battle) reactions(dc []*played) []string {
	var notes []string
	for _, r := range b.s.Hidden.Reacts {
		if r.Area != b.area {
			continue
		}
		for _, id := range r.Cards {
			info, _ := data.Card(German, id)
			for _, d := range dc {
				if !d.off && contains(info.Cancels, d.info.ID) && b.s.play(German, id) {
					d.off = true
					notes = append(notes, fmt.Sprintf("german reacts with %s against %s", info.Name, d.info.Name))
					break
				}
			}
		}
	}
	return notes
}

// dice is how many dice the attacker and the defender roll: battalions and
// the cards not cancelled.
func (b *battle) dice(ac, dc []*played) (aDice, dDice int) {
	aDice = BattalionDice(b.land, b.fj)
	for _, a := range ac {
		if !a.off {
			aDice += a.info.Attack
		}
	}
	dDice = min(b.D, 5)
	for _, d := range dc {
		if !d.off {
			dDice += d.info.Defend
		}
	}
	return aDice, dDice
}

// attackerLosses removes n attacking battalions: the attacker chooses its
// dead from the area it named first, then from the largest group.
func (b *battle) attackerLosses(n int) {
	for k := 0; k < n; k++ {
		best := -1
		for _, j := range b.gi {
			g := b.s.Groups[j]
			if g.N == 0 {
				continue
			}
			if best < 0 {
				best = j
				continue
			}
			o := b.s.Groups[best]
			gf, of := g.From == b.c.First, o.From == b.c.First
			if (gf && !of) || (gf == of && g.N > o.N) {
				best = j
			}
		}
		b.s.Groups[best].N--
	}
}

// defenders is the defending sides as the combat line names them: their
// battalions before the losses, and their cards.
func (b *battle) defenders(before map[engine.Side]int) string {
	var defTxt []string
	for _, side := range b.defSides {
		t := fmt.Sprintf("%d %s", before[side], side)
		for _, sc := range b.c.Defence {
			if sc.Side == side {
				t += cardsText(side, sc.Cards, " with ")
			}
		}
		defTxt = append(defTxt, t)
	}
	return strings.Join(defTxt, " and ")
}

// win moves the attacker's surviving battalions into the area it won.
func (b *battle) win() {
	landed := 0
	for _, j := range b.gi {
		b.s.add(b.area, b.att, b.s.Groups[j].N)
		landed += b.s.Groups[j].N
		b.s.Groups[j].N = 0
	}
	b.s.logf("", "  %s wins %s with %d battalion(s)", b.att, AreaName(b.area), landed)
}

// hold sends the attacker's survivors back where they came from, attLoss
// of them lost.
func (b *battle) hold(attLoss int) {
	s := b.s
	for _, j := range b.gi {
		if s.Groups[j].N > 0 {
			s.add(s.Groups[j].From, b.att, s.Groups[j].N)
			s.logf("", "  the defence holds; %d %s battalion(s) go back to %s", s.Groups[j].N, b.att, AreaName(s.Groups[j].From))
			s.Groups[j].N = 0
		}
	}
	if len(b.gi) == 0 || b.A == attLoss {
		s.logf("", "  the defence holds")
	}
}

func contains(xs []string, x string) bool {
	return slices.Contains(xs, x)
}

// defenderLosses removes n defending battalions in area. In a joint
// defence Norway and the Allies choose who loses first; when they disagree
// Germany decides (5.3.6).
func (s *State) defenderLosses(area string, sides []engine.Side, n int) string {
	if n == 0 {
		return ""
	}
	order := sides
	if len(sides) == 2 {
		first := ""
		switch {
		case s.NorLosses == s.AllLosses && s.NorLosses != "":
			first = s.NorLosses
		case s.NorLosses == "" && s.AllLosses != "":
			first = s.AllLosses
		case s.AllLosses == "" && s.NorLosses != "":
			first = s.NorLosses
		default:
			first = s.Hidden.Losses
			if first == "" {
				first = string(Norwegian)
			}
		}
		if first == string(Allied) {
			order = []engine.Side{Allied, Norwegian}
		} else {
			order = []engine.Side{Norwegian, Allied}
		}
	}
	var parts []string
	for _, side := range order {
		k := min(n, s.count(area, side))
		if k > 0 {
			s.add(area, side, -k)
			parts = append(parts, fmt.Sprintf("%d %s", k, side))
		}
		n -= k
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// RetreatOK reports whether defenders of sides beaten in area may retreat
// to to (5.3.8): a neighbour not held by the enemy, without a combat still
// to fight, not an area the attacker attacks from this round, and for
// German and Allied battalions not across a fjord or lake.
func (s *State) retreatOK(area, to string, sides []engine.Side, fromIdx int, attackFrom map[string]bool) bool {
	if !data.Graph.Adjacent(area, to) || attackFrom[to] {
		return false
	}
	for _, side := range sides {
		if s.enemyIn(to, side) > 0 {
			return false
		}
		if side != Norwegian && EdgeKind(area, to) == "fjord" {
			return false
		}
	}
	for j := fromIdx + 1; j < len(s.Combats); j++ {
		if s.Combats[j].Area == to {
			return false
		}
	}
	for _, g := range s.Groups {
		if g.To == to && g.N > 0 {
			return false
		}
	}
	return true
}

// retreatDefenders moves the beaten defenders of area, all to one area, or
// removes them when they are surrounded (5.3.8).
func (s *State) retreatDefenders(i int, area string, sides []engine.Side, attackFrom map[string]bool, retreats map[engine.Side][]Hop) {
	left := 0
	for _, side := range sides {
		left += s.count(area, side)
	}
	if left == 0 {
		return
	}
	to := ""
	for _, side := range []engine.Side{Norwegian, Allied, German} {
		for _, h := range retreats[side] {
			if to == "" && h.From == area && s.retreatOK(area, h.To, sides, i, attackFrom) {
				to = h.To
			}
		}
	}
	if to == "" {
		best := -1
		for _, n := range data.Graph.Neighbors(area) {
			if !s.retreatOK(area, n, sides, i, attackFrom) {
				continue
			}
			f := s.friendIn(n, sides[0])
			if f > best {
				best, to = f, n
			}
		}
	}
	if to == "" {
		for _, side := range sides {
			s.add(area, side, -s.count(area, side))
		}
		s.logf("", "  the defenders are surrounded: %d battalion(s) lost", left)
		return
	}
	for _, side := range sides {
		n := s.count(area, side)
		s.add(area, side, -n)
		s.add(to, side, n)
	}
	s.logf("", "  %d defending battalion(s) retreat to %s", left, AreaName(to))
}

// checkWipeout ends the game when one camp has no battalion left (text,
// phase 4: "når en spiller har nedkjempet alle motstanderens bataljoner").
func (s *State) checkWipeout() {
	if s.Over {
		return
	}
	switch {
	case s.total(German) == 0:
		s.end(Norwegian, "every German battalion is destroyed: Norway and the Allies win together")
	case s.total(Norwegian)+s.total(Allied) == 0:
		s.end(German, "every Norwegian and Allied battalion is destroyed: Germany wins")
	}
}

func (s *State) end(winner engine.Side, summary string) {
	s.Over = true
	s.Step = StepOver
	s.Winner = winner
	s.Summary = summary
	s.logf("", "game over: %s", summary)
}

// resolveReinforce carries out phase 3 (reinforcements) and phase 4 (new
// cards) of the phasing side's round and hands the turn on.
func (s *State) resolveReinforce(o Orders, dice engine.Dice) {
	side := s.Turn
	var traded []string
	for _, id := range o.Trade {
		if s.play(side, id) {
			traded = append(traded, id)
		}
	}
	avail := Reinforcements(side, traded)
	if len(traded) > 0 {
		s.logf("", "%s trades%s for %d battalion(s)", side, cardsText(side, traded, " "), Reinforcements(side, traded)-boolInt(side == German))
	}
	if side == German && s.Submarine && avail > 0 && s.play(Allied, "ubat") {
		avail--
		s.logf("", "allied: Ubåt sinks one German reinforcement battalion")
	}
	placed := 0
	used := map[string]bool{}
	for _, p := range o.Places {
		n := min(p.N, avail-placed)
		if ok, _ := s.CanPlace(side, p.Area); !ok || n <= 0 {
			continue
		}
		if side == Norwegian && (used[p.Area] || n > 1) {
			continue
		}
		used[p.Area] = true
		s.add(p.Area, side, n)
		placed += n
		s.logf("", "%s places %d battalion(s) in %s", side, n, AreaName(p.Area))
	}
	if placed < avail {
		s.logf("", "%s leaves %d reinforcement(s) unplaced", side, avail-placed)
	}
	if side == Allied && o.Submarine != "" {
		s.Submarine = o.Submarine == "on"
	}
	s.standingLosses(side, o.Losses)
	s.newCards(side, o.Discard, dice)
	if s.Over {
		return
	}
	s.checkWipeout()
	if s.Over {
		return
	}
	i := sideIndex(side) + 1
	if i == len(turnOrder) {
		i = 0
		s.Round++
	}
	s.Turn = turnOrder[i]
	s.Step = StepMove
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// newCards is phase 4 (7): a German or Allied player that has played no
// card since its last round discards one and draws one; every side draws
// to its hand size; Norway reshuffles its used cards when its deck is
// empty; the game ends the moment Germany draws its last face-down card.
func (s *State) newCards(side engine.Side, discard string, dice engine.Dice) {
	d := s.deck(side)
	if side != Norwegian && !d.UsedSince && len(d.Hand) > 0 && len(d.Draw) > 0 {
		id := discard
		if countOf(d.Hand, id) == 0 {
			id = d.Hand[0]
		}
		removeCard(&d.Hand, id)
		d.Used = append(d.Used, id)
		s.logf("", "%s has played no card since its last round and discards %s", side, CardName(side, id))
	}
	for len(d.Hand) < HandSize(side) {
		engine.Step(dice, string(side)+" card draws")
		if len(d.Draw) == 0 {
			if side != Norwegian || len(d.Used) == 0 {
				break
			}
			d.Draw, d.Used = d.Used, nil
			shuffle(d.Draw, dice, "Norway reshuffles its used cards")
			s.logf("", "norwegian: the deck is empty; the %d used cards are shuffled into a new deck", len(d.Draw))
		}
		c := d.Draw[0]
		d.Draw = d.Draw[1:]
		d.Hand = append(d.Hand, c)
		s.logf(side, "%s draws %s", side, CardName(side, c))
		if side == German && len(d.Draw) == 0 {
			s.endByDeck()
			break
		}
	}
	d.UsedSince = false
}

// endByDeck ends the game as Germany draws its last card (1.5).
func (s *State) endByDeck() {
	held := s.germanObjectives()
	if held == len(Objectives) {
		s.end(German, "Germany draws its last card holding Lillehammer, Hamar, Oppdal and Tynset: Germany wins")
		return
	}
	var still []string
	for _, a := range Objectives {
		if s.count(a, German) == 0 {
			still = append(still, AreaName(a))
		}
	}
	s.end(Norwegian, fmt.Sprintf("Germany draws its last card holding %d of the four objectives (not %s): Norway and the Allies win together", held, strings.Join(still, ", ")))
}

// faceLegend says which roll of a d6 is which face of the custom combat
// die: "1 Z, 2-3 1 pip, 4-5 2 pips, 6 3 pips" with the faces of
// data/dice.txt.
func faceLegend() string {
	var out []string
	for i := 0; i < len(data.Faces); {
		j := i
		for j+1 < len(data.Faces) && data.Faces[j+1].Label == data.Faces[i].Label {
			j++
		}
		rolls := fmt.Sprint(i + 1)
		if j > i {
			rolls = fmt.Sprintf("%d-%d", i+1, j+1)
		}
		name := "Z"
		switch {
		case data.Faces[i].Z:
		case data.Faces[i].Points == 1:
			name = "1 pip"
		default:
			name = fmt.Sprintf("%d pips", data.Faces[i].Points)
		}
		out = append(out, rolls+" "+name)
		i = j + 1
	}
	return "d6 for the combat die: " + strings.Join(out, ", ")
}

// Resolve implements engine.Ruleset: resolve, within the budget the dice
// carry (engine.Bound), a resolution that cannot go on (a manual die not in
// hand, its budget spent, its context done) returning why.
func (r rules) Resolve(st *State, orders map[engine.Side]Orders, dice engine.Dice) (*State, error) {
	return engine.Guarded(r.resolve, st, orders, dice)
}
