package kriegsmarine

import (
	"strings"
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

// TestFormListsEveryUnit: in every turn of a scripted game, each side's
// order form names every unit it commands that is in play (on the map, in
// the German area, at a base, or on its way).
func TestFormListsEveryUnit(t *testing.T) {
	played := enginetest.Scripted{Secret: "guide"}.Play(t, Ruleset{})
	enginetest.FormsListUnits(t, Ruleset{}, played, func(vv engine.View, side engine.Side) []string {
		v := vv.(*View)
		if v.Decision != nil {
			return nil // a decision's form asks only the decision
		}
		var names []string
		for _, u := range v.Units {
			switch u.Where {
			case AtMap, AtHeld, AtBase, AtWaiting:
				names = append(names, u.Name)
			}
		}
		return names
	})
}

// TestMistypedUnitGetsDidYouMean: "Glowworn" is one letter from Glowworm
// (and more than two from every other Allied unit), so the error offers it.
func TestMistypedUnitGetsDidYouMean(t *testing.T) {
	s := newGame(t, nil)
	_, errs := Ruleset{}.ParseOrders(s, Allied, "search surface Glowworn")
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Valid, "did you mean Glowworm?") {
		t.Fatalf("errors %v, want one offering Glowworm", errs)
	}
}

// TestEveryVerbHasAParser: the turn's verbs in the table and the
// parser's functions name the same orders, so neither can drift from
// the other; the table's other verbs are the decision phases'.
func TestEveryVerbHasAParser(t *testing.T) {
	if err := turnDriver.Check(); err != nil {
		t.Error(err)
	}
	for _, v := range Verbs {
		if _, ok := turnDriver.Verbs.Lookup(v.Name); !ok && !v.Allows(PhaseEncounter, "", 0) && !v.Allows(PhaseCombat, "", 0) {
			t.Errorf("verb %q is read in no phase", v.Name)
		}
	}
}
