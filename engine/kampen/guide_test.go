package kampen

import (
	"testing"

	"skagerrak/engine/enginetest"
)

// TestGuideExamplesAreAccepted plays the scripted game forward and parses
// each example of the guide in the phase it names.
func TestGuideExamplesAreAccepted(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide", Phases: 40}.Play(t, Ruleset{})
	enginetest.GuideExamples(t, Ruleset{}, Verbs, played, nil)
}
