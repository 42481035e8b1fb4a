package enginetest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"skagerrak/engine"
)

// Conforming is a ruleset under test: in its conformance test, a type
// that embeds the ruleset and adds how to hide what a side may not see
// (Hider) and the invariants of its states (Checker).
type Conforming interface {
	engine.Ruleset
	Hider
	Checker
}

// Hider is implemented by a ruleset under test to change what one side
// may not see.
// Hide returns a copy of s that differs from s only in what side may not
// know: the other sides' hidden units, standing orders, secret objectives,
// private reports. k picks one of several variants. It must not modify s.
type Hider interface {
	Hide(s engine.State, side engine.Side, k int) engine.State
}

// Checker is implemented by a ruleset under test to check the invariants
// of its states: a unit in one place, steps never below zero, scores the
// sum of their recorded causes, nothing destroyed coming back unless a
// rule says so. prev is the state before the phase that gave next, nil
// for a new game's state.
type Checker interface {
	Invariants(prev, next engine.State) error
}

// SetupLister is implemented by a ruleset under test whose random games
// should be set up otherwise than the default: every revision's default
// scenario, every scenario of the current revision, each option alone and
// all options together.
type SetupLister interface {
	ConformanceSetups() []engine.Setup
}

var (
	gamesFlag = flag.Int("conformance.games", 0, "random games a ruleset's conformance suite plays (0: the default, or $SKAGERRAK_CONFORMANCE_GAMES)")
	gameFlag  = flag.Int("conformance.game", -1, "play only this random game (by its number in a failure message)")
)

// defaultGames is how many random games each ruleset plays under go test:
// a few hundred in all over the six rulesets, fewer under the race
// detector, which slows play tenfold.
func defaultGames() int {
	if raceEnabled {
		return 3
	}
	return 40
}

// Games is how many random games Conformance plays for each ruleset: the
// -conformance.games flag, else $SKAGERRAK_CONFORMANCE_GAMES, else the
// default; -short plays a quarter.
func Games() int {
	n := *gamesFlag
	if n <= 0 {
		n, _ = strconv.Atoi(os.Getenv("SKAGERRAK_CONFORMANCE_GAMES"))
	}
	if n <= 0 {
		n = defaultGames()
		if testing.Short() {
			n = max(1, n/4)
		}
	}
	return n
}

// Conformance is the contract every ruleset keeps, checked the same way
// for each (as events/logtest is for every store): the registry and its
// set-up errors; random whole games played from each side's own order
// form and scripted player with mutated lines mixed in, on computer dice
// and on manual dice given in pieces, every state and view surviving its
// JSON round trip, every refusal naming its line; the same log giving the
// same states by full replay and from a snapshot; fog of war: what a side
// cannot see (rs.Hide) never changes its view, report, order form or the
// replies to its orders; and rs.Invariants hold in every state played.
func Conformance(t *testing.T, rs Conforming) {
	t.Run("Registry", func(t *testing.T) { checkRegistry(t, rs) })
	t.Run("RandomPlay", func(t *testing.T) { randomPlay(t, rs, Games()) })
}

func checkRegistry(t testing.TB, rs engine.Ruleset) {
	reg, err := engine.Lookup(rs.Name())
	if err != nil {
		t.Fatal(err)
	}
	if reg.Title() != rs.Title() || reg.Title() == "" {
		t.Errorf("registered as %q, tested as %q", reg.Title(), rs.Title())
	}
	sides := rs.Sides()
	if len(sides) < 2 || !sort.SliceIsSorted(sides, func(i, j int) bool { return sides[i] < sides[j] }) {
		t.Errorf("sides %v: two or more, sorted", sides)
	}
	for _, s := range sides {
		if string(s) != strings.ToLower(string(s)) || strings.ContainsAny(string(s), " \t") {
			t.Errorf("side %q is no lower-case identifier", s)
		}
	}
	if len(rs.Scenarios()) == 0 {
		t.Error("no scenario")
	}
	for _, su := range []engine.Setup{
		{Scenario: "no-such-scenario"},
		{Options: []string{"no-such-option"}},
		{Revision: engine.CurrentRevision(rs) + 1},
	} {
		if _, err := rs.New(su, engine.NewSeededDice(nil, "g", "setup", [32]byte{})); err == nil {
			t.Errorf("New(%+v) is accepted", su)
		}
	}
	for _, rv := range engine.Revisions(rs) {
		if len(rv.Changes) == 0 {
			t.Errorf("revision %d says nothing of what it changed", rv.N)
		}
	}
}

// setups are the set-ups random games cycle through.
func setups(rs engine.Ruleset) []engine.Setup {
	if sl, ok := rs.(SetupLister); ok {
		return sl.ConformanceSetups()
	}
	return DefaultSetups(rs)
}

// DefaultSetups are the set-ups random games cycle through unless the
// ruleset is a SetupLister: every earlier revision's default scenario,
// every scenario of the current revision, each option alone and all
// options together.
func DefaultSetups(rs engine.Ruleset) []engine.Setup {
	var out []engine.Setup
	cur := engine.CurrentRevision(rs)
	for rev := 1; rev < cur; rev++ {
		out = append(out, engine.Setup{Revision: rev})
	}
	for _, sc := range rs.Scenarios() {
		out = append(out, engine.Setup{Scenario: sc.ID, Revision: cur})
	}
	var all []string
	for _, o := range rs.Options() {
		out = append(out, engine.Setup{Options: []string{o.ID}, Revision: cur})
		all = append(all, o.ID)
	}
	if len(all) > 1 {
		out = append(out, engine.Setup{Options: all, Revision: cur})
	}
	return out
}

// canon is the canonical JSON of v; a value that does not marshal fails t.
func canon(t testing.TB, what string, v any) []byte {
	t.Helper()
	b, err := engine.Canonical(v)
	if err != nil {
		t.Fatalf("%s does not marshal: %v", what, err)
	}
	return b
}

// checkState checks that a state survives its JSON round trip, that its
// phase and result agree, and that every side's view survives its own
// round trip and reports and forms the same from the view read back. It
// returns each side's order form, where the ruleset writes them.
func checkState(t testing.TB, rs engine.Ruleset, s engine.State, where string) (forms map[engine.Side]string) {
	t.Helper()
	b := canon(t, where+": the state", s)
	back, err := rs.DecodeState(b)
	if err != nil {
		t.Fatalf("%s: DecodeState: %v", where, err)
	}
	if b2 := canon(t, where+": the decoded state", back); !bytes.Equal(b, b2) {
		t.Fatalf("%s: the state does not survive its JSON round trip:\n%s\n%s", where, b, b2)
	}
	ph := rs.Phase(s)
	res := rs.Result(s)
	switch {
	case ph.ID == "":
		t.Fatalf("%s: a phase without an id", where)
	case ph.Over != (res != nil):
		t.Fatalf("%s: phase over %v but result %+v", where, ph.Over, res)
	case !ph.Over && len(ph.Owes) == 0:
		t.Fatalf("%s: an open phase %s owed by nobody", where, ph.ID)
	case ph.Over && len(ph.Owes) > 0:
		t.Fatalf("%s: a finished game owes orders of %v", where, ph.Owes)
	}
	for _, side := range ph.Owes {
		if !hasSide(rs.Sides(), side) {
			t.Fatalf("%s: phase %s owed by %q, no side of the game", where, ph.ID, side)
		}
	}
	forms = map[engine.Side]string{}
	for _, side := range rs.Sides() {
		forms[side] = checkView(t, rs, s, side, where)
	}
	if !ph.Over {
		_, errs := rs.ParseOrders(s, "nobody", "advance 1\n")
		if len(errs) == 0 {
			t.Fatalf("%s: orders of a side not in the game are accepted", where)
		}
	}
	if b2 := canon(t, where+": the state", s); !bytes.Equal(b, b2) {
		t.Fatalf("%s: View, ParseOrders or DecodeState changed the state", where)
	}
	return forms
}

// checkView checks side's view of s, and returns its order form.
func checkView(t testing.TB, rs engine.Ruleset, s engine.State, side engine.Side, where string) (form string) {
	t.Helper()
	v := rs.View(s, side)
	vb := canon(t, where+": the view", v)
	f, _ := rs.(engine.OrderFormer)
	if f != nil {
		form = f.OrderForm(v, side)
	}
	dec, ok := rs.(engine.ViewDecoder)
	if !ok {
		return form
	}
	back, err := dec.DecodeView(vb)
	if err != nil {
		t.Fatalf("%s: %s's view does not decode: %v", where, side, err)
	}
	if b2 := canon(t, where+": the decoded view", back); !bytes.Equal(vb, b2) {
		t.Fatalf("%s: %s's view does not survive its JSON round trip:\n%s\n%s", where, side, vb, b2)
	}
	if r, ok := rs.(engine.Reporter); ok {
		// (The mail wraps a report at 72 columns; its width is the
		// ruleset's own business.)
		if r.Report(v, side) != r.Report(back, side) {
			t.Fatalf("%s: %s's report differs when written from the decoded view", where, side)
		}
	}
	if f != nil && form != f.OrderForm(back, side) {
		t.Fatalf("%s: %s's order form differs when written from the decoded view", where, side)
	}
	return form
}

func hasSide(sides []engine.Side, s engine.Side) bool {
	return slices.Contains(sides, s)
}

// checkRefusal checks that every problem of a refused order text names a
// line of it (or the orders as a whole), says what is wrong, and cites
// the rule it breaks or says what would be valid.
func checkRefusal(t testing.TB, text string, errs []engine.LineError, where string) {
	t.Helper()
	n := strings.Count(strings.ReplaceAll(text, "\r\n", "\n"), "\n") + 1
	for _, e := range errs {
		if e.Line < 0 || e.Line > n || strings.TrimSpace(e.Msg) == "" {
			t.Fatalf("%s: a refusal names line %d of %d or says nothing: %+v\n%s", where, e.Line, n, e, clip(text))
		}
		if strings.TrimSpace(e.Valid) == "" && strings.TrimSpace(e.Rule) == "" {
			t.Fatalf("%s: a refusal cites no rule and says nothing of what would be valid: %+v\n%s", where, e, clip(text))
		}
	}
}

// clip shortens a long text for a failure message.
func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return s
}

// marshalErrs is the reply a side gets to refused orders, as bytes.
func marshalErrs(errs []engine.LineError) string {
	b, _ := json.Marshal(errs)
	return string(b)
}
