package kriegsmarine

import (
	"strings"
	"testing"
)

// Rules tests of chapter 15, Weather, of the rulebook (seeds 000): each
// outcome worked out by hand from the rule it cites.

func TestRule15_0_WeatherCutsSpeed(t *testing.T) {
	// 15.0 example: 5-5 reduced by 1 is 4-4, by 3 is 2-2.
	if a := weatherAllowance(5, true, Gale, true, hex(t, "K8"), nil); a != 4 {
		t.Errorf("destroyer in a gale: %d, want 4", a)
	}
	if a := weatherAllowance(5, true, Strong, true, hex(t, "K8"), nil); a != 2 {
		t.Errorf("destroyer in strong wind: %d, want 2", a)
	}
	if a := weatherAllowance(5, false, Gale, true, hex(t, "K8"), nil); a != 5 {
		t.Errorf("cruiser in a gale: %d, want 5", a)
	}
	if a := weatherAllowance(5, true, Gale, false, hex(t, "K8"), nil); a != 5 {
		t.Errorf("weather off: %d, want 5", a)
	}
}

func TestRule15_2_DestroyerMovingSouthInStrongWind(t *testing.T) {
	start := hex(t, "X14")
	path := shortestPath(start, hex(t, "U13"), moveOK(German, "DE", false, 2, 0))
	if len(path) != 3 || !movesSouth(start, path) {
		t.Fatalf("path %v from X14 to U13", path)
	}
	if a := weatherAllowance(5, true, Strong, true, start, path); a != 3 {
		t.Errorf("destroyer moving south in strong wind: %d, want 3-3", a)
	}
	s := newGame(t, []string{OptWeather})
	clearMap(s)
	s.Weather = Strong
	put(t, s, "ddfloti", "X14")
	parse(t, s, German, "move DD Flot I W14 V13 U13")
	rejects(t, s, German, "move DD Flot I W14 V13 U13 T13", 1, "15.0")
}

func TestRule15_3_ShelteredStartIsAGale(t *testing.T) {
	if !sheltered(hex(t, "Z16")) || !sheltered(hex(t, "AA17")) {
		t.Fatal("Z16 and AA17 are the light-grey hexes of 15.3")
	}
	if a := weatherAllowance(5, true, Strong, true, hex(t, "Z16"), nil); a != 4 {
		t.Errorf("destroyer starting at Z16 in strong wind: %d, want the gale's 4", a)
	}
}

// TestRule15_0_ViewShowsTheAllowanceNow: 15.0 "in a gale, the speed of all
// DD, TB and PT is reduced by 1"; the View and the order form say what a
// unit may move this turn. DD Flot 4 (5-5) at L7: 4 in a gale; in strong
// wind 5-3 = 2, and 3 moving south (15.2, the X14 example). From a
// Norwegian coastal hex strong wind counts as a gale (15.3): 4. A
// cruiser is not cut in a gale: Penelope keeps 5.
func TestRule15_0_ViewShowsTheAllowanceNow(t *testing.T) {
	s := newGame(t, []string{OptWeather})
	clearMap(s)
	put(t, s, "ddflot4", "L7")
	put(t, s, "penelope", "L8")
	put(t, s, "ddflot7", "H10")
	v := s.view(Allied)
	if u := v.unit("ddflot4"); u.Allowance != 4 || u.AllowanceSouth != 0 {
		t.Errorf("gale: DD Flot 4 allowance %d (south %d), want 4", u.Allowance, u.AllowanceSouth)
	}
	if u := v.unit("penelope"); u.Allowance != 5 {
		t.Errorf("gale: Penelope allowance %d, want 5", u.Allowance)
	}
	form := Ruleset{}.OrderForm(v, Allied)
	if !strings.Contains(form, "DD Flot 4") || !strings.Contains(form, "allowance 4, gunnery 4") {
		t.Errorf("the order form does not show allowance 4 for DD Flot 4:\n%s", form)
	}
	s.Weather = Strong
	v = s.view(Allied)
	if u := v.unit("ddflot4"); u.Allowance != 2 || u.AllowanceSouth != 3 {
		t.Errorf("strong wind: DD Flot 4 allowance %d, south %d; want 2 and 3", u.Allowance, u.AllowanceSouth)
	}
	if u := v.unit("ddflot7"); u.Allowance != 4 || u.AllowanceSouth != 0 {
		t.Errorf("strong wind from a Norwegian coastal hex: allowance %d (south %d), want 4 (15.3)", u.Allowance, u.AllowanceSouth)
	}
	if form := (Ruleset{}).OrderForm(v, Allied); !strings.Contains(form, "allowance 2 (3 moving south, 15.2)") {
		t.Errorf("the order form does not give the south allowance:\n%s", form)
	}
	// What the View says is what the orders may do.
	parse(t, s, Allied, "move DD Flot 4 K7 J7 I7")
	rejects(t, s, Allied, "move DD Flot 4 M7 N7 O7", 1, "15.0")
}

// TestRule15_0_NoWeatherWithoutTheOption: 15.0 "if both players agree
// before the game, they may choose not to use the weather rules". Without
// the option a report said "Weather: gale" (4.61's marker), a gale that
// cuts nothing (TB Flot I keeps its allowance 5 on turn 1): from revision
// 2 the report, the form and the set-up say the weather rules are not
// used. With the option the gale is shown, and the torpedo boats lose a
// point (15.0: DD, TB and PT -1 in a gale).
func TestRule15_0_NoWeatherWithoutTheOption(t *testing.T) {
	for _, c := range []struct {
		rev   int
		opts  []string
		note  string
		allow int
	}{{2, nil, "No weather rules in this game", 5}, {1, nil, "Weather: gale", 5}, {2, []string{OptWeather}, "Weather: gale", 4}} {
		s := newGameRev(t, c.rev, c.opts)
		v := s.view(German)
		if got := weatherNote(v); !strings.HasPrefix(got, c.note) {
			t.Errorf("revision %d, options %v: %q, want %q", c.rev, c.opts, got, c.note)
		}
		for _, u := range v.Units {
			if u.ID == "tbfloti" && u.Allowance != c.allow {
				t.Errorf("revision %d, options %v: TB Flot I allowance %d, want %d", c.rev, c.opts, u.Allowance, c.allow)
			}
		}
	}
	if logWith(newGameRev(t, 2, nil), 1, "weather rules are not used") == nil {
		t.Error("revision 2 without the option: the set-up does not say the weather rules are not used")
	}
}
