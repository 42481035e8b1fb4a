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

// TestGuideDecisionsAreAccepted parses each answer of the guide's
// "decisions in person" in a short phase of its kind (5.2), each set up as
// the rules tests of that decision set it up, and checks the guide prints
// them all.
func TestGuideDecisionsAreAccepted(t *testing.T) {
	asking := func(s *State, side engine.Side, kind string) *State {
		s.side(side).Standing.Ask = []string{kind}
		return s
	}
	decide := func(s *State, side engine.Side, orders string, faces []int) engine.State {
		mid, _ := resolveWith(t, s, side, orders, faces)
		if mid.Pending == nil {
			t.Fatalf("%s: no decision asked", orders)
		}
		return mid
	}
	evasion := decide(evasionSetup(t, Standing{Evade: "weaker", React: true, Ask: []string{AskEvasion}}), German, evasionOrders, rolls)
	cont := decide(continueSetup(t, Standing{Evade: "never", React: true, Ask: []string{AskContinue}}), German, "fleet G20 attack A20\n", append([]int{1, 6}, rolls...))
	react := decide(reactSetup(t, Standing{Evade: "weaker", React: true, Ask: []string{AskReact}}), German, "fleet G20 to South-2\n", rolls)
	intercept := decide(interceptSetup(t, true), Allied, "air bomb Hamar 340 1\nair patrol Hamar 1\n", rolls)
	losses := decide(asking(lossesSetup(t, German), Allied, AskLosses), German, "attack Egersund\n", lossesDice)
	enginetest.GuideExamples(t, Ruleset{}, Decisions, enginetest.Played{}, map[string]engine.State{
		"evade": evasion, "fight": evasion, "break": cont, "attack": react, "pass": react,
		"intercept": intercept, "step": losses})
}
