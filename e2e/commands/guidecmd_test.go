package commands

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// TestGuidePrintsEveryRulesetsGuide: "skagerrak guide RULESET" prints the
// ruleset's player's guide, the same text a player gets by mail, with a
// section on the orders, one on the report and one on missing orders;
// every ruleset has one; an unknown ruleset is an error naming the known.
func TestGuidePrintsEveryRulesetsGuide(t *testing.T) {
	for _, rs := range engine.Rulesets() {
		if rs.Name() == "racetest" {
			continue // the test ruleset's guide is a few lines for the mail tests
		}
		g, ok := rs.(engine.Guider)
		if !ok {
			t.Errorf("ruleset %s has no guide", rs.Name())
			continue
		}
		code, out, _ := run(t, "guide", rs.Name())
		if code != 0 || out != g.Guide() {
			t.Errorf("guide %s: exit %d, or not the ruleset's guide", rs.Name(), code)
		}
		for _, part := range []string{"READING THE REPORT", "THE ORDERS", "WHEN ORDERS ARE MISSING", "Example ("} {
			if !strings.Contains(out, part) {
				t.Errorf("guide %s has no %q", rs.Name(), part)
			}
		}
	}
	if code, _, errs := run(t, "guide", "chess"); code == 0 || !strings.Contains(errs, "unknown ruleset") {
		t.Errorf("guide chess: %d %s", code, errs)
	}
}
