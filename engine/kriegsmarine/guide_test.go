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

// TestEveryVerbHasAParser: the turn's and the decision phases' verbs in
// the table and the parser's functions name the same orders, so neither
// can drift from the other.
func TestEveryVerbHasAParser(t *testing.T) {
	if err := turnDriver.Check(); err != nil {
		t.Error(err)
	}
	if err := decisionDriver.Check(); err != nil {
		t.Error(err)
	}
	for _, v := range Verbs {
		if _, ok := turnDriver.Verbs.Lookup(v.Name); !ok && !v.Allows(PhaseEncounter, "", 0) && !v.Allows(PhaseCombat, "", 0) {
			t.Errorf("verb %q is read in no phase", v.Name)
		}
	}
}

// decisionPhases are short phases of each decision kind, German to
// answer: an encounter (Bismarck met by Arethusa, 6.41), the first round
// of a battle (the escort test's, 8.26-8.28) and a later round (8.24).
func decisionPhases(t *testing.T) map[string]*State {
	t.Helper()
	s := arethusaMeetsBismarck(t)
	enc := mustResolve(t, s, orderMap(t, s, "search surface Arethusa\nencounter Arethusa track", "encounter Bismarck ask"), engine.NewManualDice(3, 2))
	s = newGame(t, nil)
	clearMap(s)
	s.Turn = 2
	for _, id := range []string{"scharnhorst", "emden", "tbfloti", "tbflotii", "rodney", "warspite", "galatea"} {
		put(t, s, id, "K8")
	}
	first := mustResolve(t, s, orderMap(t, s, "search surface Rodney\nencounter all fight", "encounter all fight\ncombat ask"), engine.NewSeededDice([]byte("escort"), "g", "T02", [32]byte{}))
	s = bigBattle(t)
	d := engine.NewSeededDice([]byte("battle"), "g", "T01", [32]byte{})
	later := mustResolve(t, s, orderMap(t, s, "search surface Rodney\nencounter all fight", "encounter all fight\ncombat ask"), d)
	later = mustResolve(t, later, map[engine.Side]engine.Orders{German: Ruleset{}.DefaultOrders(later, German)}, d)
	for name, st := range map[string]*State{"encounter": enc, "round 1": first, "round 2": later} {
		if q := (Ruleset{}).View(st, German).(*View).Decision; q == nil || name == "round 2" && q.Round < 2 {
			t.Fatalf("%s: no German question %+v", name, q)
		}
	}
	return map[string]*State{PhaseEncounter: enc, PhaseCombat + " round 1": first, PhaseCombat + " round 2": later}
}

// TestGuideDecisionVerbsAreAcceptedInTheirPhase: each verb the guide
// (the table) lists for a decision phase is accepted in a short phase of
// that kind, with every one of its names (track, evade, fight where the
// question offers them), and refused in a decision phase it does not
// list; each of the table's decision phases of a verb has a line here.
func TestGuideDecisionVerbsAreAcceptedInTheirPhase(t *testing.T) {
	phases := decisionPhases(t)
	accepted := map[string]map[string][]string{
		PhaseEncounter: {"standing": {"standing"}, "pass": {"pass"}, "track": {"track", "evade", "fight"}, "encounter": {"encounter fight", "encounter all evade"}},
		PhaseCombat + " round 1": {"standing": {"standing"}, "pass": {"pass"}, "restrict": {"restrict"}, "escort": {"escort Scharnhorst, Emden"},
			"target": {"target Scharnhorst BB"}, "torpedoes": {"torpedoes TB Flot I 1"}},
		PhaseCombat + " round 2": {"track": {"fight", "evade"}, "encounter": {"encounter fight"}},
	}
	for _, v := range Verbs.In(PhaseEncounter, PhaseCombat) {
		for _, kind := range []string{PhaseEncounter, PhaseCombat} {
			lines := append(accepted[kind][v.Name], accepted[kind+" round 1"][v.Name]...)
			lines = append(lines, accepted[kind+" round 2"][v.Name]...)
			if v.Allows(kind, "", 0) != (len(lines) > 0) {
				t.Errorf("the table lists %s in %s phases: %v, but this test accepts %q there", v.Name, kind, v.Allows(kind, "", 0), lines)
			}
		}
	}
	for phase, verbs := range accepted {
		for _, lines := range verbs {
			for _, line := range lines {
				if _, errs := (Ruleset{}).ParseOrders(phases[phase], German, line); len(errs) > 0 {
					t.Errorf("%s: %q refused: %v", phase, line, errs)
				}
			}
		}
	}
	for _, line := range []string{"restrict", "escort Bismarck", "target Bismarck CL", "torpedoes Bismarck 1"} {
		e := rejects(t, phases[PhaseEncounter], German, line, 1, "6.41")
		if e.Msg != "only the encounter choice is owed now: track, evade, fight, standing" || e.Valid != "track, evade, fight, standing" {
			t.Errorf("%q in an encounter decision: %+v", line, e)
		}
	}
}

// TestDecisionVerbWithWordsAfterItGivesUsageAndLine: a decision line with
// words its verb does not take is refused by the driver, naming the line,
// the question's rule where the verb has none, and the usage.
func TestDecisionVerbWithWordsAfterItGivesUsageAndLine(t *testing.T) {
	phases := decisionPhases(t)
	e := rejects(t, phases[PhaseEncounter], German, "# my answer\nstanding orders", 2, "6.41")
	if e.Msg != "standing takes no words after it; this line has 1" || e.Valid != "standing" {
		t.Errorf("standing with a word after it: %+v", e)
	}
	e = rejects(t, phases[PhaseCombat+" round 1"], German, "pass\ntarget Scharnhorst", 2, "8.271")
	if e.Msg != "target takes at least 2 words after it (target UNIT TYPE); this line has 1" || e.Valid != "target Rodney BC" {
		t.Errorf("target with one word: %+v", e)
	}
}

// TestClosedVerbSaysWhyAndListsTheTurnsVerbs: a decision phase's verb in a
// turn's orders, or an order of a later rules revision, is refused
// saying why, with the side's orders of a turn as valid.
func TestClosedVerbSaysWhyAndListsTheTurnsVerbs(t *testing.T) {
	s := newGame(t, nil)
	e := rejects(t, s, German, "pass\nstanding", 2, "")
	if e.Msg != `"standing" is not an order of this phase, only of: encounter decision, combat decision` || e.Valid != Verbs.Valid(PhaseTurn, German, 2) {
		t.Errorf("standing in a turn: %+v", e)
	}
	e = rejects(t, newGameRev(t, 1, nil), German, "expose Kristiansand Karlsruhe", 1, "")
	if e.Msg != `"expose" is an order from rules revision 2; this game plays revision 1` || strings.Contains(e.Valid, "expose") {
		t.Errorf("expose in revision 1: %+v", e)
	}
}
