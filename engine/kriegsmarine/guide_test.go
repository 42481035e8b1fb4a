package kriegsmarine

import (
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// TestGuideExamplesAreAccepted parses each example of the guide in the
// phase it names: the scripted game played forward, or, for an optional
// rule or a decision, a game set up for it.
func TestGuideExamplesAreAccepted(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide", Phases: 3}.Play(t, Ruleset{})
	extra := map[string]engine.State{}

	s := newGame(t, []string{OptIndependent})
	extra["detach"] = s

	s = newGame(t, []string{OptSplitting, OptBismarck})
	clearMap(s)
	put(t, s, "arethusa", "K8")
	put(t, s, "bismarck", "K8")
	put(t, s, "hipper", "K8")
	s.Tracks = []Track{{Tracker: Allied, TrackerUnits: []string{"arethusa"}, Tracked: German, TrackedUnits: []string{"bismarck", "hipper"}, Hex: hex(t, "K8"), Since: 1}}
	extra["split"] = s

	s = newGame(t, nil)
	s.Turn, s.InvasionTurn = 2, 2 // a day turn once the invasion began (6.28)
	extra["airborne"] = s

	s = newGame(t, []string{OptGrafZeppelin})
	s.Turn = 2
	extra["cover"] = s

	s = newGame(t, []string{OptDanish})
	extra["schlesien"] = s

	s = newGame(t, nil, 1, 2, 1, 1) // 3: Commerce Raiding (4.43)
	extra["end"] = s

	s = arethusaMeetsBismarck(t)
	d := engine.NewManualDice(3, 2)
	st := mustResolve(t, s, orderMap(t, s, "search surface Arethusa\nencounter Arethusa track", "encounter Bismarck ask"), d)
	extra["track"], extra["standing"] = st, st

	enginetest.GuideExamples(t, Ruleset{}, Verbs, played, extra)
}
