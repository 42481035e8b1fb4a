package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Side names one player's side of a game, such as "german" or "allied".
// Sides are lower-case identifiers; order files may write them in any case.
type Side string

// State is a ruleset's whole game state. It is opaque to everything outside
// the ruleset, except that it must marshal to JSON deterministically (structs
// and slices; maps only with string keys, which encoding/json sorts): the
// adjudicator hashes that JSON to get the state digest recorded in the log.
// A ruleset never modifies a State it was given; it returns a new one.
type State any

// View is everything one side may know of a State, and nothing more. Reports,
// replies and order forms are rendered from a View only. Like State it must
// marshal to JSON deterministically.
type View any

// Orders is a side's parsed, validated orders for one phase. Rulesets define
// the concrete type; the adjudicator only passes it back to the same ruleset.
type Orders any

// Setup chooses what kind of game New builds.
type Setup struct {
	// Scenario is one of the ruleset's Scenarios by ID; "" means the default.
	Scenario string `json:"scenario"`
	// Options are the enabled optional rules by ID, in any order.
	Options []string `json:"options"`
	// Revision is the rules revision to play (see Revision); 0 asks for
	// the current one.
	Revision int `json:"revision,omitempty"`
}

// Has reports whether option id is enabled.
func (s Setup) Has(id string) bool {
	return slices.Contains(s.Options, id)
}

// Phase describes the phase a game is in: what it is called and which sides
// owe orders for it.
type Phase struct {
	// ID identifies the phase uniquely within the game, e.g. "T03-movement".
	// Order files quote it in their Phase: header.
	ID string `json:"id"`
	// Title is a human description, e.g. "Turn 3, 8 April noon: movement".
	Title string `json:"title"`
	// Owes lists the sides that must submit orders, sorted.
	Owes []Side `json:"owes"`
	// Over is true once the game has ended; no orders are owed then.
	Over bool `json:"over,omitempty"`
}

// Awaits reports whether side owes orders for the phase.
func (p Phase) Awaits(side Side) bool {
	return slices.Contains(p.Owes, side)
}

// LineError is one problem with one line of an order file.
type LineError struct {
	// Line is the 1-based line number in the order text; 0 for the file as a
	// whole.
	Line int `json:"line"`
	// Text is the offending line as written.
	Text string `json:"text,omitempty"`
	// Rule is the rulebook section the line breaks, e.g. "6.15"; may be "".
	Rule string `json:"rule,omitempty"`
	// Msg says what is wrong.
	Msg string `json:"msg"`
	// Valid says what would be valid instead, where that can be said.
	Valid string `json:"valid,omitempty"`
}

// Error formats the problem on one line; a problem of the orders as a
// whole (a missing order) names no line.
func (e LineError) Error() string {
	s := fmt.Sprintf("line %d", e.Line)
	if e.Line <= 0 {
		s = "the orders as a whole"
	}
	if e.Text != "" {
		s += fmt.Sprintf(" %q", e.Text)
	}
	s += ": " + e.Msg
	if e.Rule != "" {
		s += " (rule " + e.Rule + ")"
	}
	if e.Valid != "" {
		s += "; valid: " + e.Valid
	}
	return s
}

// Result is the outcome of a finished game.
type Result struct {
	// Winner is the winning side, or "" for a draw.
	Winner Side `json:"winner,omitempty"`
	// Level names the victory level, e.g. "decisive", "marginal".
	Level string `json:"level,omitempty"`
	// Points holds each side's victory points, if the game counts them.
	Points map[Side]int `json:"points,omitempty"`
	// Summary is one line for people.
	Summary string `json:"summary"`
}

// Info describes a scenario or an optional rule.
type Info struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Rule is the rulebook section that defines it.
	Rule string `json:"rule,omitempty"`
}

// Ruleset is the contract every rulebook implements.
//
// The adjudicator drives it as a fold: New gives the first state; Phase says
// what is open; ParseOrders checks each submission against the state; when
// the phase resolves, Resolve turns the state, every owing side's orders (or
// DefaultOrders) and the phase's dice into the next state.
type Ruleset interface {
	// Name is the registry key and the package name, e.g. "kriegsmarine".
	Name() string
	// Title is the game's title.
	Title() string
	// Sides lists every side of the game, sorted.
	Sides() []Side
	// Scenarios lists the playable scenarios; the first is the default.
	Scenarios() []Info
	// Options lists the optional rules that Setup.Options may enable.
	Options() []Info

	// New builds the initial state. Set-up draws (secret objectives, random
	// set-up tables) come from dice.
	New(setup Setup, dice Dice) (State, error)
	// DecodeState reverses json.Marshal of a State of this ruleset.
	DecodeState(data []byte) (State, error)

	// Phase reports the open phase of state s.
	Phase(s State) Phase
	// ParseOrders parses and validates side's order text (the body of an
	// order file, without its header) for the open phase. It returns every
	// problem, one per offending line; orders are valid when errs is empty.
	ParseOrders(s State, side Side, text string) (o Orders, errs []LineError)
	// DefaultOrders are the orders of a side that submitted none (NMR).
	DefaultOrders(s State, side Side) Orders
	// FormatOrders writes orders back as order-file lines, as understood.
	FormatOrders(s State, side Side, o Orders) string
	// Resolve resolves the open phase. orders holds an entry for every side
	// that owes orders. It must not modify s.
	Resolve(s State, orders map[Side]Orders, dice Dice) (State, error)
	// View is what side may know of s.
	View(s State, side Side) View
	// Result is the game's outcome once Phase(s).Over, else nil.
	Result(s State) *Result
}

// OrderFormer is implemented by rulesets that can print a pre-filled order
// form for a side's next orders.
type OrderFormer interface {
	OrderForm(v View, side Side) string
}

// ViewDecoder is implemented by rulesets whose View can be read back from
// its JSON, as a player's own tools (and the scripted players) read the
// machine-readable copy attached to each report.
type ViewDecoder interface {
	DecodeView(data []byte) (View, error)
}

// Picturer is implemented by rulesets that draw a side's map as a PNG
// picture, from its View alone.
type Picturer interface {
	Picture(v View, side Side) ([]byte, error)
}

// MapDigester is implemented by Picturers that can tell, without drawing,
// whether a side's map shows anything new: MapDigest is a digest of the
// map Picture would draw from v, leaving out its captions (which name the
// phase). Two maps with the same digest show the side the same things.
type MapDigester interface {
	MapDigest(v View, side Side) ([32]byte, error)
}

// Reporter is implemented by rulesets that write a side's report: what
// happened that the side saw, its forces and what it knows of the enemy,
// from its View alone.
type Reporter interface {
	Report(v View, side Side) string
}

// Revealer is implemented by rulesets that describe a finished game in
// full, for the final report every side gets.
type Revealer interface {
	Reveal(s State) string
}

// Player is implemented by rulesets that ship a scripted player: given only
// a side's View, it returns legal order text for the open phase. The demo and
// the full-game tests use it; that it sees only a View is the point.
type Player interface {
	Play(v View, side Side, dice Dice) string
}

// RuleStatus is one numbered section of a rulebook and how skagerrak treats
// it, for `skagerrak rules GAME`.
type RuleStatus struct {
	// Section is the rule number, e.g. "6.15".
	Section string `json:"section"`
	// Title is the section's heading.
	Title string `json:"title"`
	// Status is one of the Status* constants.
	Status string `json:"status"`
	// Note says more: what was reconstructed, why something does not apply.
	Note string `json:"note,omitempty"`
	// Tests names the tests that cover the section.
	Tests []string `json:"tests,omitempty"`
}

// Statuses a rule section may have.
const (
	StatusImplemented   = "implemented"
	StatusReconstructed = "reconstructed data"
	StatusNotApplicable = "not applicable by email"
	StatusPartial       = "partly implemented"
	StatusNotYet        = "not yet implemented"
)

// RuleLister is implemented by rulesets that list their rulebook sections.
type RuleLister interface {
	Rules() []RuleStatus
}

// SideSharer is implemented by rulesets whose rules let one player hold
// more than one side (Kampen om Norge 1.4: with two players, one holds
// Norway and the Allies). The sides still owe their own orders, each in
// its own order file.
type SideSharer interface {
	// SharedSides lists the groups of sides one player may hold together.
	SharedSides() [][]Side
}

// MayShare reports whether rs lets one player hold both side a and side b.
func MayShare(rs Ruleset, a, b Side) bool {
	sh, ok := rs.(SideSharer)
	if !ok || a == b {
		return false
	}
	for _, group := range sh.SharedSides() {
		hasA, hasB := false, false
		for _, s := range group {
			hasA, hasB = hasA || s == a, hasB || s == b
		}
		if hasA && hasB {
			return true
		}
	}
	return false
}

var (
	regMu    sync.RWMutex
	registry = map[string]Ruleset{}
)

// Register makes a ruleset available by its Name. It panics on a duplicate,
// which is a programming error.
func Register(r Ruleset) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[r.Name()]; dup {
		panic("engine: ruleset registered twice: " + r.Name())
	}
	registry[r.Name()] = r
}

// Lookup returns the ruleset registered under name.
func Lookup(name string) (Ruleset, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	if r, ok := registry[name]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("engine: unknown ruleset %q; the rulesets: %s", name, strings.Join(namesLocked(), ", "))
}

// Rulesets returns every registered ruleset, sorted by name.
func Rulesets() []Ruleset {
	regMu.RLock()
	defer regMu.RUnlock()
	var out []Ruleset
	for _, n := range namesLocked() {
		out = append(out, registry[n])
	}
	return out
}

func namesLocked() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Canonical returns the JSON encoding used for digests of states and views.
// encoding/json sorts map keys, so equal values give equal bytes.
func Canonical(v any) ([]byte, error) {
	return json.Marshal(v)
}

// Guider is a ruleset with a player's guide.
type Guider interface {
	// Guide is the player's guide to this ruleset, as plain text.
	Guide() string
}
