package norway1940

import (
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// TestGuideExamplesAreAccepted parses each example of the guide in the
// phase it names: the scripted game played forward, or, for an option, a
// game set up with it.
func TestGuideExamplesAreAccepted(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide", Phases: 8}.Play(t, Ruleset{})
	climb := bare(t, 8, German)
	climb.Options = append(climb.Options, OptElevation)
	put(climb, "340", "Tretten")
	repair := bare(t, 8, German)
	repair.setControl("Kristiansand", German)
	for _, b := range repair.Bats {
		if b.Area == "Kristiansand" {
			b.Owner, b.Status = German, "inoperative"
		}
	}
	put(repair, "169E", "Kristiansand")
	rail := bare(t, 8, German)
	put(rail, "340", "Oslo")
	for _, a := range []string{"Oslo", "Hamar", "Tretten"} {
		rail.setControl(a, German)
	}
	rail.RailNet = germanRailNet(rail)
	enginetest.GuideExamples(t, Ruleset{}, Verbs, played, map[string]engine.State{"climb": climb, "repair": repair, "rail": rail})
}
