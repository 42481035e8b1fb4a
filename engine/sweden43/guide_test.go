package sweden43

import (
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// TestGuideExamplesAreAccepted parses each example of the guide in the
// phase it names: the scripted game played forward, or a position set up
// as the example says.
func TestGuideExamplesAreAccepted(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide", Phases: 24}.Play(t, Ruleset{})
	extra := map[string]engine.State{}
	extra["rail"] = at(bare(t, "objective", "I1@Stockholm"), 1, 1, "move")
	extra["assemble"] = at(bare(t, "objective", "2DivHQ@Orebro", "I3@Orebro", "I2@Orebro", "I4@Orebro"), 1, 1, "move")
	rebuild := at(bare(t, "objective", "181Inf@Trondheim"), 2, 0, "move")
	c := newCtx(rebuild)
	c.b.Units[c.find("181Inf")].Reduced = true
	extra["rebuild"] = rebuild
	enginetest.GuideExamples(t, Ruleset{}, Verbs, played, extra)
}

// TestFormListsEveryUnit: in every phase of a scripted game, the form of
// the side that owes orders names every unit it commands: on the map, in
// the air, and still to come.
func TestFormListsEveryUnit(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide"}.Play(t, Ruleset{})
	enginetest.FormsListUnits(t, Ruleset{}, played, func(vv engine.View, side engine.Side) []string {
		v := vv.(View)
		var names []string
		for _, u := range v.Board.Units {
			if u.Side == side && (u.Status == OnMap || (stillToCome(u) && !(side == Allied && v.Board.Surrendered))) {
				names = append(names, " "+u.ID)
			}
		}
		for _, a := range v.Board.Air {
			if a.Side == side && a.Status == OnMap {
				names = append(names, " "+a.ID)
			}
		}
		return names
	})
}
