package ruleslist

import (
	"strings"
	"testing"

	"skagerrak/engine/enginetest"
)

// The list names each ruleset with its title after the indent; a
// ruleset's listing opens with its title, name and sides; an unknown one
// is an error.
func TestListAndSectionsOfTheTestRuleset(t *testing.T) {
	enginetest.Register()
	var out strings.Builder
	List(&out, "  ")
	if want := "  racetest       Race (test ruleset)\n"; !strings.Contains(out.String(), want) {
		t.Errorf("the list\n%s\ndoes not hold %q", out.String(), want)
	}
	out.Reset()
	if err := Sections(&out, "racetest"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Race (test ruleset) (racetest)\n", "sides: allied, german\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("rules racetest\n%s\ndoes not hold %q", out.String(), want)
		}
	}
	if err := Sections(&out, "nosuch"); err == nil {
		t.Error("an unknown ruleset is listed")
	}
}
