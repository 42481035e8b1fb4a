package sweden43

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"skagerrak/engine"
)

func TestData_MapAndSources(t *testing.T) {
	for _, p := range data.Places {
		if p.Source == "" {
			t.Errorf("place %s without a source", p.Name)
		}
		if p.Port && !data.Coastal(p.Hex) {
			t.Errorf("port %s is not coastal", p.Name)
		}
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' && p.Zone == "-" {
			t.Errorf("Swedish city %s without a weather zone", p.Name)
		}
	}
	for _, u := range data.Units {
		if u.Source == "" {
			t.Errorf("unit %s without a source", u.ID)
		}
		if h, err := engine.ParseHex(u.Start); err == nil && !allowed(u.Side, h) {
			t.Errorf("unit %s sets up in %s", u.ID, h)
		}
	}
	for _, a := range data.Air {
		if a.Source == "" {
			t.Errorf("air unit %s without a source", a.ID)
		}
	}
	for _, r := range data.Rails {
		if r.Source == "" {
			t.Errorf("rail line %s without a source", r.Name)
		}
		for _, h := range r.Hexes {
			if !data.Land(h) {
				t.Errorf("rail line %s through water at %s", r.Name, h)
			}
		}
	}
	for _, tr := range data.Terrains {
		if tr.Source == "" {
			t.Errorf("terrain %s without a source", tr.Name)
		}
	}
	for k, v := range data.Sources {
		if v == "" {
			t.Errorf("%s without a source", k)
		}
	}
	b, _ := os.ReadFile("data/map.txt")
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) == 3 && !strings.HasPrefix(l, "#") && f[0] != "grid" {
			t.Errorf("map row without a source: %q", l)
		}
	}
	// The places the text names are on the map with its hex numbers.
	for name, europa := range map[string]string{"Stockholm": "5B:5026", "Goteborg": "13A:0110", "Malmo": "13A:1212", "Halsingborg": "13A:1011", "Umea": "5B:3315"} {
		p, ok := data.PlaceByName(europa)
		if !ok || p.Name != name {
			t.Errorf("%s should be %s", europa, name)
		}
	}
	for _, name := range []string{"Karlskrona", "5B:2630", "5B:3015", "513:2630"} {
		if _, ok := data.PlaceByName(name); !ok {
			t.Errorf("no place %s", name)
		}
	}
	// every Swedish city can be reached by land from Norway (the map is one piece)
	c := newCtx(newGame(t, "objective"))
	c.b.Units = nil
	c.index()
	dist, _ := c.reach(Unit{Side: German, Move: 1000, Type: "inf"}, hx(t, "Oslo"), 1000)
	for _, p := range data.Places {
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' && p.Name != "Visby" {
			if _, ok := dist[p.Hex]; !ok {
				t.Errorf("%s cannot be reached by land from Oslo", p.Name)
			}
		}
	}
}

func TestData_UnitIDsUniqueInEachScenario(t *testing.T) {
	for _, sc := range (Ruleset{}).Scenarios() {
		st := newGame(t, sc.ID)
		seen := map[string]bool{}
		for _, u := range st.Board.Units {
			if seen[strings.ToLower(u.ID)] {
				t.Errorf("%s: unit %s twice", sc.ID, u.ID)
			}
			seen[strings.ToLower(u.ID)] = true
		}
		for _, a := range st.Board.Air {
			if seen[strings.ToLower(a.ID)] {
				t.Errorf("%s: air unit %s clashes", sc.ID, a.ID)
			}
			seen[strings.ToLower(a.ID)] = true
		}
		for _, d := range data.Units {
			for _, al := range d.Aliases {
				if seen[strings.ToLower(al)] {
					t.Errorf("alias %s of %s is another unit's id", al, d.ID)
				}
			}
		}
	}
}

func TestData_RulesListEveryRuleWithRealTests(t *testing.T) {
	names := map[string]bool{}
	files, _ := os.ReadDir(".")
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	for _, f := range files {
		if strings.HasSuffix(f.Name(), "_test.go") {
			b, _ := os.ReadFile(f.Name())
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				names[m[1]] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, r := range (Ruleset{}).Rules() {
		seen[r.Section] = true
		if r.Status == "" || r.Title == "" {
			t.Errorf("rule %s without status or title", r.Section)
		}
		if r.Status == engine.StatusImplemented && len(r.Tests) == 0 && r.Section != "3B1" {
			t.Errorf("rule %s implemented without tests", r.Section)
		}
		for _, tn := range r.Tests {
			if !names[tn] {
				t.Errorf("rule %s names test %s, which does not exist", r.Section, tn)
			}
		}
	}
	for _, s := range []string{"1", "2", "3B1", "3B2", "3E", "3F", "7A", "10B", "12C1", "12C2", "15B", "15C3", "19", "20C1", "20F", "22A1", "24C, 24E", "25C", "25D", "26A", "27", "28A", "28B1", "29A", "29B", "29C", "29E", "29F", "30", "31A", "31B", "32B1", "32B2", "33", "33A1", "33B1", "33C", "34A1", "34A2", "34A3"} {
		if !seen[s] {
			t.Errorf("rule %s missing from Rules()", s)
		}
	}
	// every test that names a rule is listed under it
	for n := range names {
		if m := regexp.MustCompile(`^TestRule(\w+?)_`).FindStringSubmatch(n); m != nil {
			listed := false
			for _, r := range (Ruleset{}).Rules() {
				for _, tn := range r.Tests {
					listed = listed || tn == n
				}
			}
			if !listed {
				t.Errorf("test %s is not listed in Rules()", n)
			}
		}
	}
}

// rails.txt listed H12 twice on the Kalmar line (H12 H11 H12); it is two
// lines now, with the same rail hexsides, and the loader refuses a line
// that names a hex twice.
func TestData_RailLinesNameEachHexOnce(t *testing.T) {
	for _, rl := range data.Rails {
		seen := map[engine.Hex]bool{}
		for _, h := range rl.Hexes {
			if seen[h] {
				t.Errorf("%s lists %s twice", rl.Name, h)
			}
			seen[h] = true
		}
	}
	for _, side := range [][2]string{{"H13", "H12"}, {"H12", "H11"}, {"H12", "I12"}, {"I12", "J11"}, {"J11", "K11"}} {
		if !data.Rail(hx(t, side[0]), hx(t, side[1])) {
			t.Errorf("no rail on %s-%s", side[0], side[1])
		}
	}
}
