package norway1940

import (
	"strings"
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

// decisionPhases are short phases of each kind of decision in person
// (5.2), each set up as the rules tests of that decision set it up.
func decisionPhases(t *testing.T) map[string]*State {
	t.Helper()
	asking := func(s *State, side engine.Side, kind string) *State {
		s.side(side).Standing.Ask = []string{kind}
		return s
	}
	decide := func(s *State, side engine.Side, orders string, faces []int) *State {
		mid, _ := resolveWith(t, s, side, orders, faces)
		if mid.Pending == nil {
			t.Fatalf("%s: no decision asked", orders)
		}
		return mid
	}
	return map[string]*State{
		AskEvasion:      decide(evasionSetup(t, Standing{Evade: "weaker", React: true, Ask: []string{AskEvasion}}), German, evasionOrders, rolls),
		AskContinue:     decide(continueSetup(t, Standing{Evade: "never", React: true, Ask: []string{AskContinue}}), German, "fleet G20 attack A20\n", append([]int{1, 6}, rolls...)),
		AskReact:        decide(reactSetup(t, Standing{Evade: "weaker", React: true, Ask: []string{AskReact}}), German, "fleet G20 to South-2\n", rolls),
		AskInterception: decide(interceptSetup(t, true), Allied, "air bomb Hamar 340 1\nair patrol Hamar 1\n", rolls),
		AskLosses:       decide(asking(lossesSetup(t, German), Allied, AskLosses), German, "attack Egersund\n", lossesDice),
	}
}

// TestGuideDecisionsAreAccepted parses each answer of the guide's
// "decisions in person" in a short phase of its kind (5.2) and checks the
// guide prints them all.
func TestGuideDecisionsAreAccepted(t *testing.T) {
	ph := decisionPhases(t)
	enginetest.GuideExamples(t, Ruleset{}, Decisions, enginetest.Played{}, map[string]engine.State{
		"evade": ph[AskEvasion], "fight": ph[AskEvasion], "break": ph[AskContinue], "attack": ph[AskReact], "pass": ph[AskReact],
		"intercept": ph[AskInterception], "step": ph[AskLosses]})
}

// TestDecisionsTableIsWhatEachPhaseTakes: every answer of the Decisions
// table, under each of its names, is accepted in each kind of short
// phase the table gives it, and refused in the others, naming the line,
// the question's rule and its decision lines.
func TestDecisionsTableIsWhatEachPhaseTakes(t *testing.T) {
	ph := decisionPhases(t)
	lines := map[string]string{"evade": "evade", "fight": "fight", "fight " + AskContinue: "fight on", "break": "break off",
		"attack": "attack with A20", "pass": "pass", "intercept": "intercept Hamar 2", "step": "step IR8", "eliminate": "eliminate IR8"}
	for _, v := range Decisions {
		for _, kind := range []string{AskEvasion, AskContinue, AskReact, AskInterception, AskLosses} {
			q := ph[kind].Pending.Ask
			for _, name := range append([]string{v.Name}, v.Aliases...) {
				line, ok := lines[name+" "+kind]
				if !ok {
					line = lines[name]
				}
				_, err := parseDecisionLine(q, engine.OrderLines("# answer\n" + line)[0])
				switch {
				case v.Allows(kind, "", 0) && err != nil:
					t.Errorf("%s: %q refused: %v", kind, line, err)
				case !v.Allows(kind, "", 0) && (err == nil || err.Line != 2 || err.Rule != q.Rule || err.Valid != strings.Join(q.Choices, " | ")):
					t.Errorf("%s: %q, not a decision of the phase: %v", kind, line, err)
				}
			}
		}
	}
}

// TestDecisionWithWrongWordCountNamesLineAndChoices: an answer with words
// its verb does not take is refused by the driver with its line number,
// the question's rule and its decision lines (lines that are accepted).
func TestDecisionWithWrongWordCountNamesLineAndChoices(t *testing.T) {
	q := decisionPhases(t)[AskEvasion].Pending.Ask
	_, err := parseDecisionLine(q, engine.OrderLines("\n\nevade now")[0])
	want := engine.LineError{Line: 3, Text: "evade now", Rule: q.Rule, Msg: "evade takes no words after it; this line has 1", Valid: "evade | fight"}
	if err == nil || *err != want {
		t.Errorf("error %+v, want %+v", err, want)
	}
}
