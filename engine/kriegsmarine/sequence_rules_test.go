package kriegsmarine

import (
	"testing"

	"skagerrak/engine/enginetest"
)

// Rules tests of chapter 5, Game Sequence, of the rulebook (seeds 000):
// each outcome worked out by hand from the rule it cites.

func TestRule5_1_WeatherOnMorningAndAfternoonTurns(t *testing.T) {
	s := newGame(t, []string{OptWeather})
	// Turn 1 (night) ends; turn 2 is a morning: 1+1 = 2 improves by 2.
	s = resolve(t, s, "", "", 1, 1)
	if s.Weather != Calm {
		t.Fatalf("weather %s after a 2, want calm", s.Weather)
	}
	// Turn 3 (noon): no determination, no dice.
	s = resolve(t, s, "", "")
	if s.Weather != Calm || s.Turn != 3 {
		t.Fatalf("weather %s on turn %d", s.Weather, s.Turn)
	}
	// Turn 4 (afternoon): 6+6 worsens by 2, from calm to gale.
	s = resolve(t, s, "", "", 6, 6)
	if s.Weather != Gale {
		t.Fatalf("weather %s after a 12 from calm, want gale", s.Weather)
	}
	if nextWeather(Strong, 12) != Strong || nextWeather(Calm, 2) != Calm {
		t.Errorf("the weather must stay between calm and strong wind (15.0)")
	}
	// Without the option there is no weather determination.
	s = resolve(t, newGame(t, nil), "", "")
	if s.Weather != Gale {
		t.Errorf("weather changed without the weather rule")
	}
}

func TestRule5_13_BardufossFallsOnASix(t *testing.T) {
	s := newGame(t, nil)
	s.Turn = 6
	s.occupyPort("Narvik", enginetest.ThenOnes())
	if s.occupation("airfield", "Bardufoss") >= 0 {
		t.Fatal("Bardufoss fell with Narvik (9.51 says not)")
	}
	s.Turn = 7
	s.pendingOccupations(enginetest.ThenOnes(5))
	if s.occupation("airfield", "Bardufoss") >= 0 {
		t.Fatal("Bardufoss fell on a 5")
	}
	s.Turn = 8
	s.pendingOccupations(enginetest.ThenOnes(6))
	if s.occupation("airfield", "Bardufoss") < 0 {
		t.Fatal("Bardufoss did not fall on a 6")
	}
}
