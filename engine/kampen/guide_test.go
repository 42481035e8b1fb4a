package kampen

import (
	"fmt"
	"skagerrak/engine"
	"strings"
	"testing"

	"skagerrak/engine/enginetest"
)

// TestGuideExamplesAreAccepted plays the scripted game forward and parses
// each example of the guide in the phase it names.
func TestGuideExamplesAreAccepted(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide", Phases: 40}.Play(t, Ruleset{})
	enginetest.GuideExamples(t, Ruleset{}, Verbs, played, nil)
}

// TestFormListsEveryUnit: in every movement step of a scripted game, the
// form of the moving side names every area where it has battalions, with
// their number.
func TestFormListsEveryUnit(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide"}.Play(t, Ruleset{})
	enginetest.FormsListUnits(t, Ruleset{}, played, func(vv engine.View, side engine.Side) []string {
		v := vv.(*View)
		var names []string
		if v.Step != StepMove {
			return nil
		}
		for _, st := range v.Stacks {
			if st.Side == side {
				names = append(names, fmt.Sprintf("%s %d:", AreaName(st.Area), st.N))
			}
		}
		return names
	})
}

// TestMistypedAreaGetsDidYouMean: "Lillehamer" is one letter from
// Lillehammer, and the error offers it by its name.
func TestMistypedAreaGetsDidYouMean(t *testing.T) {
	st, err := Ruleset{}.New(engine.Setup{}, engine.NewSeededDice([]byte("guide"), "g", "setup", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	_, errs := Ruleset{}.ParseOrders(st, German, "move Gjovik Lillehamer 3")
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Valid, "did you mean Lillehammer?") {
		t.Fatalf("errors %v, want one offering Lillehammer", errs)
	}
}
