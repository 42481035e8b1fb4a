package kampen

import (
	"fmt"
	"skagerrak/engine"
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
		v := asView(vv)
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
