package kampen

import (
	"fmt"
	"sort"

	"skagerrak/engine"
)

// The three sides of the game.
const (
	German    engine.Side = "german"
	Norwegian engine.Side = "norwegian"
	Allied    engine.Side = "allied"
)

// turnOrder is the order of the players' rounds (text: "Tyskland har
// spillets første runde ... deretter Norges tur, deretter De allierte").
var turnOrder = []engine.Side{German, Norwegian, Allied}

// The steps of a player's round that need orders. Combat (phase 2) is
// resolved with the defend step; new cards (phase 4) with the reinforce
// step.
const (
	StepMove      = "move"
	StepDefend    = "defend"
	StepReinforce = "reinforce"
	StepOver      = "over"
)

// HandSize is how many cards side holds after drawing (text page 2).
func HandSize(side engine.Side) int {
	if side == German {
		return 5
	}
	return 3
}

// Stack is a side's battalions in one area.
type Stack struct {
	Area string      `json:"area"`
	Side engine.Side `json:"side"`
	N    int         `json:"n"`
}

// Group is battalions of the phasing side that moved together this round
// and wait at the border until the combat phase is over.
type Group struct {
	Side  engine.Side `json:"side"`
	From  string      `json:"from"`
	To    string      `json:"to"`
	N     int         `json:"n"`
	Card  string      `json:"card,omitempty"`
	Fjord bool        `json:"fjord,omitempty"`
}

// SideCards is cards one side played in one combat.
type SideCards struct {
	Side  engine.Side `json:"side"`
	Cards []string    `json:"cards"`
}

// Combat is a land battle waiting for the combat phase.
type Combat struct {
	Area     string      `json:"area"`
	Attacker engine.Side `json:"attacker"`
	// Cards are the attacker's step-1 cards, played face up.
	Cards []string `json:"cards,omitempty"`
	// First is the area whose attacking battalions die first, the
	// attacker's choice (5.3.6).
	First string `json:"first,omitempty"`
	// Defence are the defenders' step-2 cards, known once the defenders
	// have given their orders.
	Defence []SideCards `json:"defence,omitempty"`
}

// CardPlay is cards named for the combat in one area.
type CardPlay struct {
	Area  string   `json:"area"`
	Cards []string `json:"cards"`
	// First is, on an attack line, the area whose attacking battalions are
	// removed first (5.3.6).
	First string `json:"first,omitempty"`
}

// Deck is one side's cards: the face-down draw pile (top first), the used
// cards put face up at the bottom (oldest first) and the hand.
type Deck struct {
	Draw []string `json:"draw"`
	Used []string `json:"used"`
	Hand []string `json:"hand"`
	// UsedSince is whether the side has played a card since its last round
	// (text, phase 4).
	UsedSince bool `json:"used_since"`
}

// Hidden is the phasing German's standing decisions for the rest of its
// round, which no other side sees until they act.
type Hidden struct {
	Reacts   []CardPlay `json:"reacts,omitempty"`
	Engineer bool       `json:"engineer,omitempty"`
	Losses   string     `json:"losses,omitempty"`
}

// Event is one line of the game's history. To is "" for an event every
// side sees, or the one side that sees it.
type Event struct {
	Round int         `json:"round"`
	Turn  engine.Side `json:"turn"`
	To    engine.Side `json:"to,omitempty"`
	Text  string      `json:"text"`
}

// SeenBy implements engine.Seer.
func (e Event) SeenBy(side engine.Side) bool { return engine.SeenByOne(e.To, side) }

// journal is the game's fog-of-war record of Events.
type journal = engine.Journal[Event]

// State is the whole game state.
type State struct {
	Scenario string      `json:"scenario"`
	Round    int         `json:"round"`
	Turn     engine.Side `json:"turn"`
	Step     string      `json:"step"`
	Stacks   []Stack     `json:"stacks"`
	Groups   []Group     `json:"groups,omitempty"`
	Combats  []Combat    `json:"combats,omitempty"`
	Hidden   Hidden      `json:"hidden"`
	// Submarine is the Allied standing order to play Ubåt in the German
	// reinforcement phase.
	Submarine bool `json:"submarine,omitempty"`
	// Losses are the standing choices of Norway and the Allies of who takes
	// the first loss in a joint defence ("norwegian" or "allied").
	NorLosses string      `json:"nor_losses,omitempty"`
	AllLosses string      `json:"all_losses,omitempty"`
	German    Deck        `json:"german"`
	Norwegian Deck        `json:"norwegian"`
	Allied    Deck        `json:"allied"`
	Events    journal     `json:"events"`
	Over      bool        `json:"over,omitempty"`
	Winner    engine.Side `json:"winner,omitempty"`
	Summary   string      `json:"summary,omitempty"`
}

// deck returns side's cards.
func (s *State) deck(side engine.Side) *Deck {
	switch side {
	case German:
		return &s.German
	case Norwegian:
		return &s.Norwegian
	case Allied:
		return &s.Allied
	}
	return &Deck{}
}

// clone is a deep copy of s, through its JSON, which holds all of it.
func (s *State) clone() *State {
	return engine.DeepCopy(s)
}

// count is side's battalions in area (not counting groups on the move).
func (s *State) count(area string, side engine.Side) int {
	for _, st := range s.Stacks {
		if st.Area == area && st.Side == side {
			return st.N
		}
	}
	return 0
}

// add puts n battalions of side in area (n may be negative).
func (s *State) add(area string, side engine.Side, n int) {
	for i := range s.Stacks {
		if s.Stacks[i].Area == area && s.Stacks[i].Side == side {
			s.Stacks[i].N += n
			if s.Stacks[i].N <= 0 {
				s.Stacks = append(s.Stacks[:i], s.Stacks[i+1:]...)
			}
			return
		}
	}
	if n > 0 {
		s.Stacks = append(s.Stacks, Stack{Area: area, Side: side, N: n})
		sortStacks(s.Stacks)
	}
}

func sortStacks(st []Stack) {
	sort.Slice(st, func(i, j int) bool {
		if st[i].Area != st[j].Area {
			return st[i].Area < st[j].Area
		}
		return sideIndex(st[i].Side) < sideIndex(st[j].Side)
	})
}

func sideIndex(s engine.Side) int {
	for i, x := range turnOrder {
		if x == s {
			return i
		}
	}
	return len(turnOrder)
}

// enemies reports whether a and b fight each other: Germany against Norway
// and the Allies, who fight together.
func enemies(a, b engine.Side) bool { return (a == German) != (b == German) }

// enemyIn is how many battalions enemies of side have in area.
func (s *State) enemyIn(area string, side engine.Side) int {
	n := 0
	for _, st := range s.Stacks {
		if st.Area == area && enemies(st.Side, side) {
			n += st.N
		}
	}
	return n
}

// friendIn is how many battalions side and its partners have in area.
func (s *State) friendIn(area string, side engine.Side) int {
	n := 0
	for _, st := range s.Stacks {
		if st.Area == area && !enemies(st.Side, side) {
			n += st.N
		}
	}
	return n
}

// total is side's battalions on the board, groups on the move included.
func (s *State) total(side engine.Side) int {
	n := 0
	for _, st := range s.Stacks {
		if st.Side == side {
			n += st.N
		}
	}
	for _, g := range s.Groups {
		if g.Side == side {
			n += g.N
		}
	}
	return n
}

// Holder is the side that controls area: the one whose battalion holds it
// (text: "For å kontrollere et landområde må den holdes av en bataljon").
// A Norwegian-Allied area is "norwegian" when Norway has battalions there.
// "" for an empty area.
func (s *State) holder(area string) engine.Side {
	for _, side := range turnOrder {
		if s.count(area, side) > 0 {
			return side
		}
	}
	return ""
}

// Objectives are the four areas Germany must hold (text, "Hvordan vinne").
var Objectives = []string{"lillehammer", "hamar", "oppdal", "tynset"}

// germanObjectives is how many objectives Germany holds.
func (s *State) germanObjectives() int {
	n := 0
	for _, a := range Objectives {
		if s.count(a, German) > 0 {
			n++
		}
	}
	return n
}

func (s *State) logf(to engine.Side, format string, args ...any) {
	s.Events.Add(Event{Round: s.Round, Turn: s.Turn, To: to, Text: fmt.Sprintf(format, args...)})
}

// phaseID is the ID of the open phase.
func (s *State) phaseID() string {
	if s.Over {
		return "over"
	}
	return fmt.Sprintf("R%02d-%s-%s", s.Round, s.Turn, s.Step)
}

// owes lists the sides that owe orders for the open step.
func (s *State) owes() []engine.Side {
	if s.Over {
		return nil
	}
	if s.Step == StepDefend {
		return s.defenders()
	}
	return roundStages.Named(s.Step).Owing(s.Turn)
}

// owesSide reports whether side owes orders for the open step.
func (s *State) owesSide(side engine.Side) bool {
	for _, x := range s.owes() {
		if x == side {
			return true
		}
	}
	return false
}

// defenders are the sides that owe orders in the defend step: in the German
// round Norway when any German group moved and it holds cards (Veisperring,
// Sprengt bro and flight answer movement) or when it defends an area, and
// the Allies when they defend an area; in the Norwegian and Allied rounds
// Germany when it is attacked. The size of a hand is known to all, so this
// tells no one anything new. Sorted.
func (s *State) defenders() []engine.Side {
	var out []engine.Side
	if s.Turn == German {
		nor := len(s.Groups) > 0 && len(s.Norwegian.Hand) > 0
		all := false
		for _, c := range s.Combats {
			if s.count(c.Area, Norwegian) > 0 {
				nor = true
			}
			if s.count(c.Area, Allied) > 0 {
				all = true
			}
		}
		if all {
			out = append(out, Allied)
		}
		if nor {
			out = append(out, Norwegian)
		}
		return out
	}
	if len(s.Combats) > 0 {
		out = append(out, German)
	}
	return out
}

// combatAt returns the index of the combat in area, or -1.
func (s *State) combatAt(area string) int {
	for i, c := range s.Combats {
		if c.Area == area {
			return i
		}
	}
	return -1
}

// removeCard takes one card id out of list, reporting whether it was there.
func removeCard(list *[]string, id string) bool {
	for i, c := range *list {
		if c == id {
			*list = append((*list)[:i:i], (*list)[i+1:]...)
			return true
		}
	}
	return false
}

// countOf is how many times id occurs in list.
func countOf(list []string, id string) int {
	n := 0
	for _, c := range list {
		if c == id {
			n++
		}
	}
	return n
}

// play moves a card from side's hand to the bottom of its deck, face up
// (text: "Brukte spillekort nederst i bunken med spillesiden opp").
func (s *State) play(side engine.Side, id string) bool {
	d := s.deck(side)
	if !removeCard(&d.Hand, id) {
		return false
	}
	d.Used = append(d.Used, id)
	d.UsedSince = true
	return true
}

// shuffle shuffles cards with the dice (Fisher-Yates, one roll a card):
// from the last card of the new deck to the second, a die of as many
// faces as cards are left picks the one that goes there, which each roll
// says, for a referee rolling manual dice.
func shuffle(cards []string, dice engine.Dice, why string) {
	for i := len(cards) - 1; i > 0; i-- {
		j := dice.Roll(i+1, fmt.Sprintf("%s: which of the first %d cards becomes card %d of the new deck", why, i+1, i+1)) - 1
		cards[i], cards[j] = cards[j], cards[i]
	}
}
