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

// TestFormListsEveryUnit: in every player-turn of a scripted game, the
// form names each of the side's land units still alive and its fleets.
func TestFormListsEveryUnit(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide"}.Play(t, Ruleset{})
	enginetest.FormsListUnits(t, Ruleset{}, played, func(vv engine.View, side engine.Side) []string {
		v := vv.(*View)
		if v.Ask != nil {
			return nil // a decision's form asks only the decision
		}
		var names []string
		for _, u := range v.Units {
			if u.Side == side && !u.Dead {
				names = append(names, " "+u.ID)
			}
		}
		for _, f := range v.Fleets {
			if f.Side == side {
				names = append(names, "fleet "+f.ID+" ")
			}
		}
		return names
	})
}
