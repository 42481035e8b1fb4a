package sweden43

import (
	"testing"

	"skagerrak/engine"
)

// Rules tests of the air rules: 19 (patrol attacks), 20 (air missions), 22
// (antiaircraft) and 25 (airborne operations) (rulebook: seeds 004).

func TestRule19_PatrolZoneAtMostEightHexes(t *testing.T) {
	for _, tc := range []struct {
		dist      int
		intercept bool
	}{{8, true}, {9, false}} {
		target := hx(t, "Stockholm")
		var base engine.Hex
		for _, p := range data.Places {
			if p.Airbase && data.CountryAt(p.Hex) == 'S' && p.Hex.Distance(target) == tc.dist {
				base = p.Hex
			}
		}
		if base == (engine.Hex{}) {
			// any Swedish land hex at that distance will do as a base
			for _, h := range data.Grid.Within(target, tc.dist) {
				if h.Distance(target) == tc.dist && data.CountryAt(h) == 'S' {
					base = h
					break
				}
			}
		}
		st := bare(t, "objective", "I1@Stockholm", "air:StG1@"+adjSwedish(t, target, 0).String(), "air:F8@"+base.String())
		c := newCtx(st)
		c.b.Air[c.findAir("F8")].Range = 30 // a long-ranged fighter
		c.airMissions(German, target, []string{"StG1"}, nil, &seqDice{vals: []int{1, 1, 1}})
		if got := logHas(st, "F8 patrol attacks"); got != tc.intercept {
			t.Errorf("fighter %d hexes away intercepts: %v, want %v (19: patrol zone at most 8)", tc.dist, got, tc.intercept)
		}
	}
}

func TestRule20C1_CloseEscortPatrolledFirst(t *testing.T) {
	target := hx(t, "Stockholm")
	st := bare(t, "objective", "I1@Stockholm", "air:StG1@V5", "air:JG5a@V5", "air:F8@S18")
	c := newCtx(st)
	c.b.Air[c.findAir("F8")].Att = 9
	// F8 (9) against JG5a (6): roll 2 -> 5, returned: adverse, JG5a goes home.
	c.airMissions(German, target, []string{"StG1", "JG5a"}, []string{"JG5a"}, &seqDice{vals: []int{2, 1, 1}})
	if !logHas(st, "F8 patrol attacks close escort JG5a") {
		t.Fatalf("the interceptor must attack the close escort first: %v", st.Log)
	}
	if logHas(st, "F8 patrol attacks StG1") {
		t.Fatal("the interceptor attacked the bomber past the close escort")
	}
	// Without close escort the fighter escorts regularly and engages first.
	st = bare(t, "objective", "I1@Stockholm", "air:StG1@V5", "air:JG5a@V5", "air:F8@S18")
	c = newCtx(st)
	c.b.Air[c.findAir("JG5a")].Att = 2 // escort roll 1 + 2 - 3: no effect
	c.airMissions(German, target, []string{"StG1", "JG5a"}, nil, &seqDice{vals: []int{1, 1, 1, 1}})
	if !logHas(st, "escort JG5a engages F8") || !logHas(st, "F8 patrol attacks StG1") {
		t.Fatalf("regular escort: %v", st.Log)
	}
}

func TestRule22A1_IntrinsicAA(t *testing.T) {
	st := bare(t, "objective")
	c := newCtx(st)
	for name, want := range map[string]int{"Karlskrona": 1, "Goteborg": 3, "Stockholm": 4, "Satenas": 1, "Norrkoping": 2, "Oslo": 3, "Gardermoen": 3, "Hamar": 0, "Visby": 1} {
		if got := c.aaStrength(hx(t, name)); got != want {
			t.Errorf("AA of %s = %d, want %d", name, got, want)
		}
	}
	clear, _ := findHex(t, '.')
	st = bare(t, "objective", "25Pz@"+clear.String(), "196Inf@"+clear.String())
	c = newCtx(st)
	if got := c.aaStrength(clear); got != 1 {
		t.Errorf("hex with a German c/m division: AA %d, want 1", got)
	}
	c.b.Units[c.find("25Pz")].Reduced = true
	if got := c.aaStrength(clear); got != 0 {
		t.Errorf("c/m cadre: AA %d, want 0", got)
	}
}

func TestRule25C_AirborneDropsInSwedenOnce(t *testing.T) {
	st := at(bare(t, "objective"), 2, 0, "move")
	c := newCtx(st)
	c.b.Units[c.find("Para1")].Status = ParaPool
	if errs := parseErr(st, "drop para1 Hamar"); len(errs) != 1 || errs[0].Rule != "25C" {
		t.Fatalf("drop in Norway: %v", errs)
	}
	st = resolve(t, st, "drop fj1 Orebro", nullDice{})
	if u := unit(t, st, "Para1"); u.Status != OnMap || !u.Dropped || u.Hex != hx(t, "Orebro").String() {
		t.Fatalf("Para1 after the drop: %+v", u)
	}
	if newCtx(st).owner(hx(t, "Orebro")) != German {
		t.Fatal("the drop takes the city")
	}
	st = at(st, 3, 0, "move")
	if errs := parseErr(st, "drop para1 Karlstad"); len(errs) != 1 || errs[0].Rule != "25C" {
		t.Fatalf("second drop: %v", errs)
	}
}
