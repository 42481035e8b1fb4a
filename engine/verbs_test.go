package engine

import (
	"strings"
	"testing"
)

var testVerbs = Verbs{
	{Name: "move", Usage: "move UNIT HEX [HEX ...]", Rule: "6.1", Phases: []string{"move"},
		Example: Example{Phase: "T1", Side: "german", Line: "move Hipper K8"}},
	{Name: "rapid", Aliases: []string{"rask"}, Usage: "rapid FROM AREA [AREA] [N]", Phases: []string{"move"}, Sides: []Side{"german"},
		Example: Example{Phase: "T1", Side: "german", Line: "rapid Oslo Hamar 2"}},
	{Name: "expose", Usage: "expose PORT SHIP[, SHIP ...]", Since: Change{In: 2}, Phases: []string{"move"},
		Example: Example{Phase: "T1", Side: "german", Line: "expose Bergen Köln"}},
	{Name: "trade", Usage: "trade CARD [CARD...]", Phases: []string{"reinforce"},
		Example: Example{Phase: "T2", Side: "allied", Line: "trade ubat\nplace Molde 1"}},
}

// TestVerbsListWhatAPhaseAllows: the valid orders of a phase are the
// table's, in its order, for that side and revision; aliases are found.
func TestVerbsListWhatAPhaseAllows(t *testing.T) {
	if got := testVerbs.Valid("move", "german", 2); got != "move, rapid, expose" {
		t.Errorf("german move, revision 2: %q", got)
	}
	if got := testVerbs.Valid("move", "allied", 1); got != "move" {
		t.Errorf("allied move, revision 1 (no rapid for the Allies, no expose before 2): %q", got)
	}
	if v, ok := testVerbs.Lookup("RASK"); !ok || v.Name != "rapid" {
		t.Errorf("the alias rask is not found: %+v", v)
	}
}

// TestSummaryNeverSplitsAUsage: a form's summary packs whole usages into
// comment lines.
func TestSummaryNeverSplitsAUsage(t *testing.T) {
	got := testVerbs.Summary("move", "german", 2)
	for _, v := range testVerbs[:3] {
		if !strings.Contains(got, v.Usage) {
			t.Errorf("summary %q splits or leaves out %q", got, v.Usage)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
		if !strings.HasPrefix(l, "# ") {
			t.Errorf("not a comment line: %q", l)
		}
	}
}

// TestGuidePrintsEveryVerbAndExample: the guide's syntax section replaces
// the marker and prints each usage, rule and example line.
func TestGuidePrintsEveryVerbAndExample(t *testing.T) {
	g := WriteGuide("BEFORE\n"+OrdersMarker+"\nAFTER\n", testVerbs)
	if !strings.HasPrefix(g, "BEFORE\nmove UNIT HEX") || !strings.HasSuffix(g, "AFTER\n") || strings.Contains(g, OrdersMarker) {
		t.Fatalf("guide:\n%s", g)
	}
	for _, want := range []string{"(rule 6.1; phases: move)", "also written: rask", "from rules revision 2", "        trade ubat\n        place Molde 1\n"} {
		if !strings.Contains(g, want) {
			t.Errorf("guide has no %q:\n%s", want, g)
		}
	}
}

// TestClosedSaysWhyAVerbIsRefused: a verb of a later rules revision says
// the revision it came in and the game's; a verb of other phases names
// them.
func TestClosedSaysWhyAVerbIsRefused(t *testing.T) {
	expose, _ := testVerbs.Lookup("expose")
	if got := expose.Closed("Expose", 1); got != `"Expose" is an order from rules revision 2; this game plays revision 1` {
		t.Errorf("expose in revision 1: %q", got)
	}
	trade, _ := testVerbs.Lookup("trade")
	if got := trade.Closed("trade", 2); got != `"trade" is not an order of this phase, only of: reinforce` {
		t.Errorf("trade in a move phase: %q", got)
	}
}
