package norge

import (
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// TestGuideExamplesAreAccepted parses each example of the guide in the
// phase it names: the scripted game played forward, or a position set up
// as the example says (the rules tests' set-ups).
func TestGuideExamplesAreAccepted(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide", Phases: 16}.Play(t, Ruleset{})
	extra := map[string]engine.State{}

	// Oslo fails (12.2): Bluecher's troops on the quays try again...
	retry := run(t, toTurnOneLandings(t, 0), German, "", 5, 1, 1, 1, 1)
	retry.Turn, retry.Step = 2, StepLandGerman
	extra["disembark"] = retry
	// ...or, with the enemy in the port, go back aboard.
	back := run(t, toTurnOneLandings(t, 0), German, "", 5, 1, 1, 1, 1)
	back.Turn, back.Step = 2, StepLandGerman
	put(back, "NIR2", "B:E3")
	extra["embark"] = back

	air := land2(t, StepLandGerman)
	air.German = []string{"Aalborg", "Sola"}
	air.Air = []AirMission{{Side: German, Base: "Aalborg", Map: "A", Strength: 5}}
	air.unit("IR324").Loc = LocAirlift
	extra["airlift"] = air

	drop := land2(t, StepLandGerman)
	drop.unit("FJ3").Loc = LocDrop
	drop.Turn = 6
	setWeather(drop, 6, "fair", "fair")
	extra["drop"] = drop

	merge := bare(t, StepNavalGerman)
	merge.Turn = 2
	for _, id := range []string{"GC1", "GC2"} {
		merge.ship(id).Reduced = true
	}
	extra["merge"] = merge

	ferry := land2(t, StepLandAllied)
	put(ferry, "B4", "F:E2")
	extra["ferry"] = ferry

	blow := land2(t, StepLandAllied)
	put(blow, "NIR2", "B:D4")
	extra["blow"] = blow

	enginetest.GuideExamples(t, Ruleset{}, Verbs, played, extra)
}

// TestFormListsEveryUnit: in every phase of a scripted game, the form of
// a side that owes orders names every unit that may take them: its ships
// in the naval phases (submarines too, which move in the submarine
// phase), its land units in the land phases, its submarines in the
// submarine phase.
func TestFormListsEveryUnit(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide"}.Play(t, Ruleset{})
	enginetest.FormsListUnits(t, Ruleset{}, played, func(vv engine.View, side engine.Side) []string {
		s := vv.(*View).Game
		var names []string
		switch {
		case s.Setup:
		case s.Step == StepLandGerman || s.Step == StepLandAllied:
			for _, u := range s.Units {
				if u.Side == side && u.Loc != LocElim {
					names = append(names, " "+u.ID)
				}
			}
		case s.Step == StepNavalGerman || s.Step == StepNavalAllied || s.Step == StepSubs:
			for _, sh := range s.Ships {
				if sh.Side == side && !sh.Sunk && !sh.Scrapped && (s.Step != StepSubs || sh.Kind == "sub") {
					names = append(names, " "+sh.ID)
				}
			}
		}
		return names
	})
}
