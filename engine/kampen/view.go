package kampen

import (
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

// SideInfo is what every side knows of a side's cards and forces: how many
// cards it holds, has face down in its deck and has used, never which.
type SideInfo struct {
	Side       engine.Side `json:"side"`
	Hand       int         `json:"hand"`
	Deck       int         `json:"deck"`
	Used       int         `json:"used"`
	Battalions int         `json:"battalions"`
}

// Holding is who holds one of the German objectives.
type Holding struct {
	Area   string      `json:"area"`
	Holder engine.Side `json:"holder,omitempty"`
}

// View is what one side may know: the whole board (it is open), the cards
// played face up, its own hand and standing orders, and the counts of every
// deck. Never another side's hand, nor the order of any deck.
type View struct {
	Game       string       `json:"game"`
	Side       engine.Side  `json:"side"`
	Phase      engine.Phase `json:"phase"`
	Round      int          `json:"round"`
	Turn       engine.Side  `json:"turn"`
	Step       string       `json:"step"`
	Stacks     []Stack      `json:"stacks"`
	Groups     []Group      `json:"groups,omitempty"`
	Combats    []Combat     `json:"combats,omitempty"`
	Hand       []string     `json:"hand"`
	UsedSince  bool         `json:"used_since"`
	Sides      []SideInfo   `json:"sides"`
	Objectives []Holding    `json:"objectives"`
	// Hidden is the phasing German's own standing decisions (German only).
	Hidden *Hidden `json:"hidden,omitempty"`
	// Submarine is the Allied standing order (Allied only).
	Submarine bool `json:"submarine,omitempty"`
	// Losses is the side's own choice of who loses first in a joint
	// defence (Norway and the Allies only).
	Losses  string      `json:"losses,omitempty"`
	Events  []Event     `json:"events"`
	Over    bool        `json:"over,omitempty"`
	Winner  engine.Side `json:"winner,omitempty"`
	Summary string      `json:"summary,omitempty"`
}

// viewRounds is how many rounds of history a View carries.
const viewRounds = 2

// View implements engine.Ruleset.
func (r rules) View(s *State, side engine.Side) *View {
	v := &View{Game: r.Name(), Side: side, Phase: r.Phase(s), Round: s.Round, Turn: s.Turn, Step: s.Step,
		Stacks: append([]Stack{}, s.Stacks...), Groups: append([]Group(nil), s.Groups...),
		Hand: append([]string{}, s.deck(side).Hand...), UsedSince: s.deck(side).UsedSince,
		Events: []Event{}, Over: s.Over, Winner: s.Winner, Summary: s.Summary}
	sort.Strings(v.Hand)
	for _, c := range s.Combats {
		c.Cards = append([]string(nil), c.Cards...)
		c.Defence = nil
		v.Combats = append(v.Combats, c)
	}
	for _, x := range turnOrder {
		d := s.deck(x)
		v.Sides = append(v.Sides, SideInfo{Side: x, Hand: len(d.Hand), Deck: len(d.Draw), Used: len(d.Used), Battalions: s.total(x)})
	}
	for _, a := range Objectives {
		v.Objectives = append(v.Objectives, Holding{Area: a, Holder: s.holder(a)})
	}
	if side == German && s.Turn == German && s.Step == StepDefend {
		h := s.Hidden
		v.Hidden = &h
	}
	switch side {
	case Allied:
		v.Submarine = s.Submarine
		v.Losses = s.AllLosses
	case Norwegian:
		v.Losses = s.NorLosses
	}
	for e := range s.Events.For(side) {
		if e.Round >= s.Round-viewRounds+1 {
			v.Events = append(v.Events, e)
		}
	}
	return v
}

// stateFromView rebuilds as much of a State as a side knows: enough to
// check that side's orders with ParseOrders.
func stateFromView(v *View) *State {
	s := &State{Scenario: ScenarioID, Round: v.Round, Turn: v.Turn, Step: v.Step, Over: v.Over,
		Stacks: append([]Stack{}, v.Stacks...), Groups: append([]Group(nil), v.Groups...)}
	for _, c := range v.Combats {
		c.Cards = append([]string(nil), c.Cards...)
		s.Combats = append(s.Combats, c)
	}
	s.deck(v.Side).Hand = append([]string{}, v.Hand...)
	s.deck(v.Side).UsedSince = v.UsedSince
	if v.Hidden != nil {
		s.Hidden = *v.Hidden
	}
	return s
}

// wrap folds text to width columns, indenting continuation lines.
func wrap(text string, width int, indent string) []string {
	var out []string
	lead := text[:len(text)-len(strings.TrimLeft(text, " "))]
	indent = lead + indent
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = lead + w
		case len([]rune(line))+1+len([]rune(w)) > width:
			out = append(out, line)
			line = indent + w
		default:
			line += " " + w
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// Report implements engine.Reporter: plain text at 72 columns from the
// View alone.
func (r rules) Report(v *View, side engine.Side) string {
	if v == nil {
		return ""
	}
	b := &report{}
	b.put(fmt.Sprintf("KAMPEN OM NORGE - scenario 2 - report for %s", side))
	b.WriteString(strings.Repeat("=", 72) + "\n")
	if v.Over {
		b.put("GAME OVER: " + v.Summary)
	} else {
		b.put(fmt.Sprintf("Phase %s: %s", v.Phase.ID, v.Phase.Title))
		var owes []string
		for _, o := range v.Phase.Owes {
			owes = append(owes, string(o))
		}
		b.put("Orders owed by: " + strings.Join(owes, ", "))
	}
	b.board(v)
	b.cards(v, side)
	b.WriteString("\nEVENTS\n")
	for _, e := range v.Events {
		b.put(fmt.Sprintf("  R%d %s: %s", e.Round, e.Turn, e.Text))
	}
	if f := r.OrderForm(v, side); f != "" {
		b.WriteString("\nORDER FORM\n")
		b.WriteString(f)
	}
	return b.String()
}

// report is a report being written.
type report struct {
	strings.Builder
}

// put writes text wrapped at 72 columns, its following lines indented.
func (b *report) put(text string) {
	for _, l := range wrap(text, 72, "    ") {
		b.WriteString(l + "\n")
	}
}

// board writes the board: the battalions by area, those on the move, the
// combats to fight and the objectives.
func (b *report) board(v *View) {
	b.WriteString("\nTHE BOARD (battalions)\n")
	byArea := map[string][]string{}
	for _, st := range v.Stacks {
		byArea[st.Area] = append(byArea[st.Area], fmt.Sprintf("%s %d", st.Side, st.N))
	}
	for _, a := range data.Areas {
		if len(byArea[a.ID]) == 0 {
			continue
		}
		mark := ""
		for _, o := range Objectives {
			if o == a.ID {
				mark = " *"
			}
		}
		b.put(fmt.Sprintf("  %-13s %s%s", a.Name, strings.Join(byArea[a.ID], ", "), mark))
	}
	b.WriteString("  (* German objective)\n")
	if len(v.Groups) > 0 {
		b.WriteString("\nON THE MOVE (waiting at the border)\n")
		for _, g := range v.Groups {
			b.put(fmt.Sprintf("  %s %d from %s to %s%s", g.Side, g.N, AreaName(g.From), AreaName(g.To), map[bool]string{true: " (across the fjord)", false: ""}[g.Fjord]))
		}
	}
	if len(v.Combats) > 0 {
		b.WriteString("\nCOMBATS TO FIGHT, in order\n")
		for _, c := range v.Combats {
			b.put(fmt.Sprintf("  %s, attacked by %s%s", AreaName(c.Area), c.Attacker, cardsText(c.Attacker, c.Cards, " with ")))
		}
	}
	b.WriteString("\nOBJECTIVES\n")
	for _, h := range v.Objectives {
		who := string(h.Holder)
		if who == "" {
			who = "nobody"
		}
		b.put(fmt.Sprintf("  %-13s held by %s", AreaName(h.Area), who))
	}
}

// cards writes the side's hand, every side's counts and the side's
// standing orders.
func (b *report) cards(v *View, side engine.Side) {
	b.WriteString("\nCARDS\n")
	b.put("  Your hand: " + handNames(side, v.Hand))
	for _, x := range v.Sides {
		b.put(fmt.Sprintf("  %-10s %d in hand, %d in the deck, %d used; %d battalion(s)", x.Side, x.Hand, x.Deck, x.Used, x.Battalions))
	}
	if v.Hidden != nil {
		b.put(fmt.Sprintf("  Your standing orders: engineer %s, reactions %s", onOff(v.Hidden.Engineer), playsText(German, v.Hidden.Reacts)))
	}
	if side == Allied {
		b.put("  Standing order: submarine " + onOff(v.Submarine))
	}
	if v.Losses != "" {
		b.put("  First loss in a joint defence: " + v.Losses)
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func playsText(side engine.Side, ps []CardPlay) string {
	if len(ps) == 0 {
		return "none"
	}
	var out []string
	for _, p := range ps {
		out = append(out, AreaName(p.Area)+":"+cardsText(side, p.Cards, " "))
	}
	return strings.Join(out, "; ")
}

func handNames(side engine.Side, hand []string) string {
	if len(hand) == 0 {
		return "none"
	}
	var out []string
	for _, id := range hand {
		c, _ := data.Card(side, id)
		out = append(out, fmt.Sprintf("%s (%s, %d symbol(s))", id, c.Gloss, c.Symbols))
	}
	return strings.Join(out, ", ")
}

// OrderForm implements engine.OrderFormer: a form for side's next orders
// that ParseOrders accepts unchanged. Its only active lines are the
// placement of a German free battalion; everything else is a commented
// suggestion.
func (rules) OrderForm(v *View, side engine.Side) string {
	if v == nil || v.Over {
		return ""
	}
	owes := v.Phase.Awaits(side)
	var b strings.Builder
	comment(&b, "# %s", v.Phase.Title)
	if !owes {
		comment(&b, "# You owe no orders in this phase.")
		return b.String()
	}
	s := stateFromView(v)
	comment(&b, "# One order a line; %s.", engine.GuidePointer)
	comment(&b, "# Your hand: %s", strings.Join(v.Hand, " "))
	switch v.Step {
	case StepMove:
		b.WriteString(Verbs.SummaryOf(strings.Split(sideVerbs(s, side), ", ")))
		for _, st := range v.Stacks {
			if st.Side == side {
				comment(&b, "#   %s %d: neighbours %s", AreaName(st.Area), st.N, areaNames(data.Graph.Neighbors(st.Area)))
			}
		}
	case StepDefend:
		b.WriteString(Verbs.SummaryOf(strings.Split(sideVerbs(s, side), ", ")))
		for _, g := range v.Groups {
			comment(&b, "#   %s %d moving %s -> %s", g.Side, g.N, AreaName(g.From), AreaName(g.To))
		}
		for _, c := range v.Combats {
			if s.count(c.Area, side) > 0 {
				comment(&b, "#   you defend %s against %s%s", AreaName(c.Area), c.Attacker, cardsText(c.Attacker, c.Cards, " with "))
			}
		}
	case StepReinforce:
		b.WriteString(Verbs.SummaryOf(strings.Split(sideVerbs(s, side), ", ")))
		comment(&b, "#   you may place in: %s", areaNames(s.placeable(side)))
		if side == German {
			for _, a := range []string{"oslo", "drammen", "fredrikstad", "larvik"} {
				if ok, _ := s.CanPlace(German, a); ok {
					fmt.Fprintf(&b, "place %s 1    # the free German battalion\n", AreaName(a))
					break
				}
			}
		}
	}
	return b.String()
}

// areaNames is the display names of areas, blank-separated, as the form
// writes them (the parser takes them as written, and the ASCII ids).
func areaNames(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = AreaName(id)
	}
	return strings.Join(out, " ")
}

// comment writes a "#" comment line, folded to 72 columns.
func comment(b *strings.Builder, format string, args ...any) {
	for _, l := range wrap(fmt.Sprintf(format, args...), 72, "#     ") {
		b.WriteString(l + "\n")
	}
}

// Reveal implements engine.Revealer: the whole game for the final report,
// every event, every hand and the order of every deck.
func (rules) Reveal(s *State) string {
	var b strings.Builder
	put := func(text string) {
		for _, l := range wrap(text, 72, "    ") {
			b.WriteString(l + "\n")
		}
	}
	put("KAMPEN OM NORGE - scenario 2 - the whole game")
	b.WriteString(strings.Repeat("=", 72) + "\n")
	if s.Over {
		put("Result: " + s.Summary)
	}
	for _, side := range turnOrder {
		d := s.deck(side)
		put(fmt.Sprintf("%s: hand %s; deck %s; used %s", side, strings.Join(d.Hand, " "), strings.Join(d.Draw, " "), strings.Join(d.Used, " ")))
	}
	b.WriteString("\n")
	for _, e := range s.Events {
		to := ""
		if e.To != "" {
			to = " (to " + string(e.To) + ")"
		}
		put(fmt.Sprintf("R%d %s%s: %s", e.Round, e.Turn, to, e.Text))
	}
	return b.String()
}
