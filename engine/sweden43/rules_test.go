package sweden43

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// adjSwedish returns a Swedish land hex next to h that is not a place,
// not across a river, and of the given terrain key (0: any).
func adjSwedish(t *testing.T, h engine.Hex, key byte) engine.Hex {
	t.Helper()
	for _, n := range h.Neighbors() {
		if _, isPlace := data.PlaceAt(n); isPlace || data.CountryAt(n) != 'S' || !data.Land(n) || data.River(h, n) != "" {
			continue
		}
		if key == 0 || data.TerrainAt(n) == key {
			return n
		}
	}
	t.Fatalf("no Swedish hex next to %s", h)
	return engine.Hex{}
}

// findHex returns a Swedish non-place hex of terrain key with a Swedish
// non-place neighbour not across a river.
func findHex(t *testing.T, key byte) (engine.Hex, engine.Hex) {
	t.Helper()
	for _, h := range data.Grid.All() {
		if data.TerrainAt(h) != key || data.CountryAt(h) != 'S' {
			continue
		}
		if _, ok := data.PlaceAt(h); ok {
			continue
		}
		for _, n := range h.Neighbors() {
			if _, ok := data.PlaceAt(n); !ok && data.CountryAt(n) == 'S' && data.Land(n) && data.River(h, n) == "" {
				return h, n
			}
		}
	}
	t.Fatalf("no hex of terrain %c", key)
	return engine.Hex{}, engine.Hex{}
}

func TestRule2_DotCityIsNoAEC(t *testing.T) {
	clear, from := findHex(t, '.')
	st := bare(t, "objective", "25Pz@"+from.String(), "I2@"+clear.String())
	c := newCtx(st)
	drm, notes := c.combatMods(clear, []int{c.find("25Pz")}, []int{c.find("I2")})
	if drm != 1 || !strings.Contains(strings.Join(notes, " "), "AEC +1") {
		t.Fatalf("clear hex: drm %d %v, want AEC +1", drm, notes)
	}
	karlstad := hx(t, "Karlstad")
	st = bare(t, "objective", "25Pz@"+adjSwedish(t, karlstad, 0).String(), "I2@Karlstad")
	c = newCtx(st)
	drm, notes = c.combatMods(karlstad, []int{c.find("25Pz")}, []int{c.find("I2")})
	if strings.Contains(strings.Join(notes, " "), "AEC") {
		t.Fatalf("dot city %s: %v, want no AEC (Rule 2: a dot city is No AEC)", data.HexName(karlstad), notes)
	}
	_ = drm
}

func TestRule2_TenSidedDice(t *testing.T) {
	d := &seqDice{vals: []int{4, 5}}
	if got := percentile(d, "x"); got != 34 {
		t.Fatalf("percentile of faces 4 and 5 = %d, want 34 (the 00-90 die reads 30, the 0-9 die 4)", got)
	}
	if d.asked[0] != 10 || d.asked[1] != 10 {
		t.Fatalf("dice asked %v, want two ten-sided dice", d.asked)
	}
}

func TestRule3B_Sides(t *testing.T) {
	got := Ruleset{}.Sides()
	if len(got) != 2 || got[0] != "allied" || got[1] != "german" {
		t.Fatalf("sides %v", got)
	}
	st := newGame(t, "objective")
	for _, u := range st.Board.Units {
		if u.Side == Allied && u.Nation != "swedish" && u.Nation != "british" && u.Nation != "american" {
			t.Errorf("allied unit %s of nation %s", u.ID, u.Nation)
		}
		if u.Side == German && u.Nation != "german" {
			t.Errorf("german unit %s of nation %s", u.ID, u.Nation)
		}
	}
}

func TestRule3E_MainlandExcludesIslands(t *testing.T) {
	st := newGame(t, "objective")
	for _, p := range data.Places {
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' && p.Name != "Visby" {
			st.Board.Owner[p.Hex.String()] = German
		}
	}
	if !conquered(newCtx(st)) {
		t.Fatal("all mainland cities German owned, Visby Allied: Sweden should be conquered (3E, 31A)")
	}
	delete(st.Board.Owner, hx(t, "Umea").String())
	if conquered(newCtx(st)) {
		t.Fatal("Umea Allied: not conquered")
	}
}

func TestRule3F_OperationalLimits(t *testing.T) {
	if allowed(German, hx(t, "Copenhagen")) || allowed(Allied, hx(t, "Oslo")) {
		t.Fatal("German ground units may not enter Denmark, Allied ground units not Norway")
	}
	if !allowed(German, hx(t, "Oslo")) || !allowed(German, hx(t, "Stockholm")) || !allowed(Allied, hx(t, "Stockholm")) {
		t.Fatal("Norway and Sweden are open to German ground units, Sweden to Allied")
	}
	st := at(newGame(t, "objective"), 1, 1, "move")
	if errs := parseErr(st, "base RAF1 Stockholm"); len(errs) != 1 || errs[0].Rule != "3F" {
		t.Fatalf("Western Allied air based in Sweden: %v", errs)
	}
	if errs := parseErr(st, "base F8 Goteborg"); len(errs) != 0 {
		t.Fatalf("Swedish air to a Swedish airbase: %v", errs)
	}
	st = at(newGame(t, "objective"), 1, 0, "move")
	if errs := parseErr(st, "land amph1 q18\nland amph2 q18\nbase JG5a Aalborg"); len(errs) != 0 {
		t.Fatalf("German air may base in Denmark: %v", errs)
	}
	for _, sc := range []string{"objective", "ultra", "op1", "op2"} {
		st := newGame(t, sc)
		for _, id := range []string{"I19", "A8"} {
			if u := unit(t, st, id); u.Status != Neutralized {
				t.Errorf("%s: %s is %s, want neutralized (3F)", sc, id, u.Status)
			}
		}
	}
	for r := 1; r <= data.Grid.Rows; r++ {
		for c := 1; c <= data.Grid.Cols; c++ {
			_ = r
		}
	}
}

func TestRule7A_LowVolumeRail(t *testing.T) {
	st := at(bare(t, "objective", "I1@Stockholm", "I10@Stockholm", "K1@Stockholm", "A1@Stockholm", "P1@Stockholm"), 1, 1, "move")
	if errs := parseErr(st, "rail I1 Goteborg"); len(errs) != 0 {
		t.Fatalf("rail Stockholm-Goteborg: %v", errs)
	}
	errs := parseErr(st, "rail I1 Goteborg\nrail I10 Goteborg\nrail K1 Goteborg\nrail A1 Goteborg\nrail P1 Goteborg")
	if len(errs) != 1 || errs[0].Line != 5 || errs[0].Rule != "7A" {
		t.Fatalf("fifth regiment by rail should exceed the low-volume capacity: %v", errs)
	}
	off := engine.Hex{}
	for _, h := range data.Grid.All() {
		if data.CountryAt(h) == 'S' && data.Land(h) && !data.railHex[h] {
			off = h
			break
		}
	}
	st = at(bare(t, "objective", "I2@"+off.String()), 1, 1, "move")
	if errs := parseErr(st, "rail I2 Stockholm"); len(errs) != 1 || errs[0].Rule != "7A" {
		t.Fatalf("rail move from off the rail lines: %v", errs)
	}
}

func TestRule10B_AssaultGunHasFullATEC(t *testing.T) {
	clear, from := findHex(t, '.')
	st := bare(t, "objective", "P1@"+from.String(), "190StuG@"+clear.String())
	c := newCtx(st)
	c.b.Units[c.find("P1")].AEC = true // a hypothetical armoured attacker
	_, notes := c.combatMods(clear, []int{c.find("P1")}, []int{c.find("190StuG")})
	if strings.Contains(strings.Join(notes, " "), "AEC") {
		t.Fatalf("assault gun defending: %v, want its ATEC to cancel the attacker's AEC", notes)
	}
	st = bare(t, "objective", "P1@"+from.String(), "181Inf@"+clear.String())
	c = newCtx(st)
	c.b.Units[c.find("P1")].AEC = true
	if _, notes := c.combatMods(clear, []int{c.find("P1")}, []int{c.find("181Inf")}); !strings.Contains(strings.Join(notes, " "), "AEC +1") {
		t.Fatalf("infantry defending: %v, want AEC +1", notes)
	}
}

func TestRule12C1_GermanPortsAreSupplySources(t *testing.T) {
	st := bare(t, "objective", "181Inf@Trondheim")
	c := newCtx(st)
	full, restricted := c.supplySources(German)
	if !full[hx(t, "Trondheim")] || !full[hx(t, "Oslo")] || full[hx(t, "Hamar")] || full[hx(t, "Goteborg")] || len(restricted) != 0 {
		t.Fatal("German sources: any German-owned port of Norway or Sweden, nothing else")
	}
	st.Board.Owner[hx(t, "Goteborg").String()] = German
	c = newCtx(st)
	full, _ = c.supplySources(German)
	if !full[hx(t, "Goteborg")] || full[hx(t, "Aalborg")] {
		t.Fatal("a captured Swedish port is a German source; a Danish port is not")
	}
}

// isolate makes every Swedish hex within r of h German owned, except keep.
func isolate(st *State, h engine.Hex, r int, keep ...engine.Hex) {
	for _, x := range data.Grid.Within(h, r) {
		if data.CountryAt(x) != 'S' {
			continue
		}
		kept := false
		for _, k := range keep {
			kept = kept || k == x
		}
		if !kept {
			st.Board.Owner[x.String()] = German
		}
	}
}

func TestRule12C1_ConnectedCitiesExample(t *testing.T) {
	// "if Malmo (13A:1212) and Halsingborg (13A:1011) are connected, both
	// are supply sources for Allied units."
	malmo, hbg := hx(t, "13A:1212"), hx(t, "13A:1011")
	if malmo != hx(t, "Malmo") || hbg != hx(t, "Halsingborg") {
		t.Fatal("the Europa hex numbers of the text name the places")
	}
	st := bare(t, "objective")
	line := []engine.Hex{malmo, hx(t, "C9"), hx(t, "D8"), hbg}
	isolate(st, malmo, 12, line...)
	c := newCtx(st)
	full, _ := c.supplySources(Allied)
	if !full[malmo] || !full[hbg] {
		t.Fatal("Malmo and Halsingborg joined by rail through friendly hexes are both full sources")
	}
	st.Board.Owner["C9"] = German
	c = newCtx(st)
	full, restricted := c.supplySources(Allied)
	if full[malmo] || full[hbg] {
		t.Fatal("with the rail line cut neither is a full source")
	}
	found := false
	for _, r := range restricted {
		found = found || (r.Name == "Malmo" && r.Cap == 6)
	}
	if !found {
		t.Fatal("cut off, Malmo is a restricted source for 3 REs (12C2)")
	}
}

func TestRule12C2_RestrictedSourceCapacity(t *testing.T) {
	st := bare(t, "objective", "I1@Stockholm", "I10@Stockholm", "K1@Stockholm", "A1@Stockholm", "I8@Stockholm", "I3@Stockholm")
	sth := hx(t, "Stockholm")
	isolate(st, sth, 9, sth)
	st = at(st, 1, 1, "move")
	c := newCtx(st)
	c.computeSupply(Allied)
	in := 0
	for _, u := range st.Board.Units {
		if u.Status == OnMap && !u.OOS {
			in++
			if u.Restricted != "Stockholm" {
				t.Errorf("%s supplied by %q", u.ID, u.Restricted)
			}
		}
	}
	if in != 5 {
		t.Fatalf("%d regiments supplied by isolated Stockholm, want 5 (5 REs, 12C2)", in)
	}
}

func TestRule15C3_SecondDivisionHQAssembly(t *testing.T) {
	st := at(bare(t, "objective", "2DivHQ@Orebro", "I3@Orebro", "I2@Orebro", "I4@Orebro"), 1, 1, "move")
	if errs := parseErr(st, "assemble 2Div I3 I2 I4"); len(errs) != 1 || errs[0].Rule != "15C3" {
		t.Fatalf("2Div without its HQ: %v", errs)
	}
	st = resolve(t, st, "assemble 2div 2divhq i3 i2 i4", nullDice{})
	if u := unit(t, st, "2Div"); u.Status != OnMap || u.Hex != hx(t, "Orebro").String() || u.Att != 6 || u.Move != 6 {
		t.Fatalf("2Div: %+v, want a 6-6 division at Orebro", u)
	}
	for _, id := range []string{"2DivHQ", "I3", "I2", "I4"} {
		if unit(t, st, id).Status != Absorbed {
			t.Errorf("%s not absorbed", id)
		}
	}
}

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

func TestRule26A_LandingHexes(t *testing.T) {
	st := newGame(t, "objective")
	for _, bad := range []string{"Stockholm", "Karlskrona", "Goteborg", "Oslo", "Orebro"} {
		errs := parseErr(st, "land amph1 "+bad+"\nland amph2 Q18")
		if len(errs) == 0 || errs[0].Rule != "26A" {
			t.Errorf("landing at %s: %v", bad, errs)
		}
	}
	if errs := parseErr(st, "land amph1 Q18"); len(errs) != 1 || errs[0].Line != 0 || errs[0].Rule != "26A" {
		t.Fatalf("Amph2 left unlanded: %v", errs)
	}
	if errs := parseErr(st, "land amph1 Q18\nland amph2 Visby"); len(errs) != 2 || errs[1].Line != 2 {
		t.Fatalf("Visby is held: %v", errs)
	}
	if errs := parseErr(st, "land amph1 Q18\nland amph2 Norrkoping"); len(errs) != 0 {
		t.Fatalf("Norrkoping is a coastal city of Sweden: %v", errs)
	}
}

// Revisions 1 and 2 roll the breakout as the German Jul I movement phase
// resolves, before the landing rolls (revision 3: TestRule26A_Breakout...).
func TestRule26A_NavalBreakout(t *testing.T) {
	for _, tc := range []struct {
		scenario     string
		dice         []int
		out, lostOne bool
	}{
		{"objective", []int{4, 4, 6, 6}, false, false},
		{"objective", []int{4, 5, 5, 6}, true, true},
		{"objective", []int{6, 6, 5, 5}, true, false},
		{"ultra", []int{3, 3, 4, 5}, true, true},
		{"ultra", []int{2, 3, 6, 6}, false, false},
	} {
		st := newGameOf(t, engine.Setup{Scenario: tc.scenario, Revision: 2})
		if tc.scenario == "ultra" {
			for k := 0; k < 3; k++ {
				st = resolve(t, st, "", nullDice{})
			}
		}
		st = resolve(t, st, "land amph1 Q18\nland amph2 Norrkoping", &seqDice{vals: tc.dice})
		if st.Board.NavyOut != tc.out {
			t.Errorf("%s %v: navy out %v, want %v", tc.scenario, tc.dice, st.Board.NavyOut, tc.out)
		}
		lost := unit(t, st, "Amph2").Status == Eliminated
		if lost != tc.lostOne || unit(t, st, "Amph1").Status != OnMap {
			t.Errorf("%s %v: Amph2 lost %v, want %v", tc.scenario, tc.dice, lost, tc.lostOne)
		}
	}
}

func TestRule28B1_SurrenderRollOnAttackingStockholm(t *testing.T) {
	sth := hx(t, "Stockholm")
	from := adjSwedish(t, sth, 0)
	st := bare(t, "objective", "25Pz@"+from.String(), "I1@Stockholm")
	c := newCtx(st)
	c.resolveAttack(German, Attack{Target: sth, Units: []string{"25Pz"}}, &seqDice{vals: []int{1}})
	if !st.Board.Surrendered || unit(t, st, "I1").Status != Eliminated {
		t.Fatal("a 1 on the surrender roll: Sweden surrenders and all Allied forces are removed")
	}
	st = bare(t, "objective", "25Pz@"+from.String(), "I1@Stockholm")
	c = newCtx(st)
	d := &seqDice{vals: []int{2, 3}}
	c.resolveAttack(German, Attack{Target: sth, Units: []string{"25Pz"}}, d)
	if st.Board.Surrendered || len(d.whys) != 2 || !strings.Contains(d.whys[0], "surrender") || !strings.HasPrefix(d.whys[1], "combat") {
		t.Fatalf("roll 2: Sweden fights on and the attack goes ahead: %v", d.whys)
	}
	st = bare(t, "objective", "Para1@"+from.String(), "I1@Stockholm")
	c = newCtx(st)
	d = &seqDice{vals: []int{3}}
	c.resolveAttack(German, Attack{Target: sth, Units: []string{"Para1"}}, d)
	if strings.Contains(d.whys[0], "surrender") {
		t.Fatal("odds below 1.5:1: no surrender roll")
	}
}

func TestRule28B1_SurrenderRollOnCapturingStockholm(t *testing.T) {
	sth := hx(t, "Stockholm")
	from := adjSwedish(t, sth, 0)
	for _, tc := range []struct {
		roll      int
		surrender bool
	}{{3, true}, {6, true}, {2, false}, {1, false}} {
		st := revision1(bare(t, "objective", "25Pz@"+from.String(), "196Inf@"+from.String(), "I1@Stockholm"))
		c := newCtx(st)
		// Revision 1: 15:2 is 7:1; surrender roll 2 (fights on); combat
		// roll 6 - 2 (full city) = 4 -> DE at 7:1; capture roll.
		c.resolveAttack(German, Attack{Target: sth, Units: []string{"25Pz", "196Inf"}, Advance: true}, &seqDice{vals: []int{2, 6, tc.roll}})
		if c.owner(sth) != German {
			t.Fatalf("Stockholm not captured: %v", st.Log)
		}
		if st.Board.Surrendered != tc.surrender {
			t.Errorf("capture roll %d: surrendered %v, want %v", tc.roll, st.Board.Surrendered, tc.surrender)
		}
		if !tc.surrender && !st.Board.NoMoreSurrender {
			t.Errorf("capture roll %d: further surrender rolls must stop", tc.roll)
		}
	}
	// after Sweden held once, an attack on Stockholm rolls no more
	st := bare(t, "objective", "25Pz@"+from.String(), "I1@Stockholm")
	st.Board.NoMoreSurrender = true
	d := &seqDice{vals: []int{1}}
	newCtx(st).resolveAttack(German, Attack{Target: sth, Units: []string{"25Pz"}}, d)
	if st.Board.Surrendered || strings.Contains(d.whys[0], "surrender") {
		t.Fatal("no further surrender rolls after Sweden held (28B1)")
	}
}

func TestRule28A_CapturedCitiesAreNoSwedishSourceOrEntry(t *testing.T) {
	st := bare(t, "objective")
	st.Board.Owner[hx(t, "Uppsala").String()] = German
	c := newCtx(st)
	if full, _ := c.supplySources(Allied); full[hx(t, "Uppsala")] {
		t.Fatal("a German-owned city is no Allied supply source")
	}
	st = at(st, 2, 0, "exploit")
	c.b.Units[c.find("I8")].Status = Pending
	st = resolve(t, st, "", nullDice{})
	if u := unit(t, st, "I8"); u.Status != Eliminated {
		t.Fatalf("I8 due at German-owned Uppsala: %s, want eliminated (29A)", u.Status)
	}
}

func TestRule29A_ReinforcementsArrive(t *testing.T) {
	st := at(newGame(t, "objective"), 2, 0, "exploit")
	st = resolve(t, st, "", nullDice{})
	if u := unit(t, st, "I8"); u.Status != OnMap || u.Hex != hx(t, "Uppsala").String() {
		t.Fatalf("I8 on Jul II 43: %+v", u)
	}
	if u := unit(t, st, "I14"); u.Status != Pending {
		t.Fatalf("I14 (Aug I) arrived early: %s", u.Status)
	}
}

func TestRule29B_GermanReplacements(t *testing.T) {
	st := at(bare(t, "objective"), 2, 0, "move")
	c := newCtx(st)
	for _, id := range []string{"196Inf", "25Pz", "Amph1", "Para1"} {
		c.b.Units[c.find(id)].Status = Eliminated
	}
	if errs := parseErr(st, "replace 25Pz Oslo"); len(errs) != 1 || errs[0].Rule != "29B" {
		t.Fatalf("armour replaced with infantry REs: %v", errs)
	}
	if errs := parseErr(st, "replace Para1 Oslo"); len(errs) != 1 {
		t.Fatalf("parachute unit replaced: %v", errs)
	}
	if errs := parseErr(st, "replace 196Inf Stockholm"); len(errs) != 1 || errs[0].Rule != "29B" {
		t.Fatalf("replacement in Sweden: %v", errs)
	}
	if errs := parseErr(st, "replace 196Inf 5B:2630"); len(errs) != 0 {
		t.Fatalf("replacement at 5B:2630: %v", errs)
	}
	if errs := parseErr(st, "replace 196Inf 513:2630"); len(errs) != 0 {
		t.Fatalf("the text's misprint 513:2630: %v", errs)
	}
	st = resolve(t, st, "replace 196Inf Hamar\nreplace Amph1 Oslo", nullDice{})
	if st.Board.ReplHalfREs != 0 || unit(t, st, "196Inf").Status != OnMap || unit(t, st, "Amph1").Status != OnMap {
		t.Fatalf("4 REs = a division (3) and a regiment (1): pool %d", st.Board.ReplHalfREs)
	}
	// cadre rebuilt for 2 REs, in supply and out of enemy ZOC
	st = at(bare(t, "objective", "181Inf@Trondheim"), 2, 0, "move")
	c = newCtx(st)
	c.b.Units[c.find("181Inf")].Reduced = true
	st = resolve(t, st, "rebuild 181Inf", nullDice{})
	if u := unit(t, st, "181Inf"); u.Reduced || st.Board.ReplHalfREs != 4 {
		t.Fatalf("rebuild: reduced %v, pool %d", u.Reduced, st.Board.ReplHalfREs)
	}
	st = at(bare(t, "objective", "181Inf@II10", "4Div@II11"), 2, 0, "move")
	c = newCtx(st)
	c.b.Units[c.find("181Inf")].Reduced = true
	if !c.ezoc(German, hx(t, "II10")) {
		t.Skip("test hexes not adjacent")
	}
	if errs := parseErr(st, "rebuild 181Inf"); len(errs) != 1 || errs[0].Rule != "29B" {
		t.Fatalf("rebuild in enemy ZOC: %v", errs)
	}
}

func TestRule29E_Mobilization(t *testing.T) {
	st := at(bare(t, "objective", "I1@Stockholm"), 1, 1, "move")
	c := newCtx(st)
	c.b.Units[c.find("4Div")].Status = Mobilize
	if errs := parseErr(st, "mobilize I1 4Div"); len(errs) != 1 || errs[0].Rule != "29E" {
		t.Fatalf("4Div before Jul II: %v", errs)
	}
	st = at(st, 2, 1, "move")
	c.b.Units[c.find("I1")].OOS = true
	st = resolve(t, st, "mobilize I1 4Div", nullDice{})
	if u := unit(t, st, "4Div"); u.Status != OnMap || u.Hex != hx(t, "Stockholm").String() || unit(t, st, "I1").Status != Absorbed {
		t.Fatalf("mobilization of an out-of-supply regiment: %+v", u)
	}
}

func TestRule29F_Assembly(t *testing.T) {
	st := at(bare(t, "objective", "I1@Stockholm", "I10@Stockholm", "I8@Stockholm"), 2, 1, "move")
	if errs := parseErr(st, "assemble 1Div I1 I10 I8"); len(errs) != 1 || errs[0].Rule != "29F" {
		t.Fatalf("1Div before Aug I: %v", errs)
	}
	st = at(st, 3, 1, "move")
	if errs := parseErr(st, "assemble 1Div I1 I10"); len(errs) != 1 {
		t.Fatalf("two regiments: %v", errs)
	}
	st = resolve(t, st, "assemble 1Div I1 I10 I8", nullDice{})
	if unit(t, st, "1Div").Status != OnMap {
		t.Fatal("1Div not assembled")
	}
}

func TestRule30_SetUp(t *testing.T) {
	for _, sc := range (Ruleset{}).Scenarios() {
		st := newGame(t, sc.ID)
		ph := (Ruleset{}).Phase(st)
		want := "T1-german-move"
		if sc.ID == "ultra" {
			want = "T1-allied-move"
		}
		if ph.ID != want {
			t.Errorf("%s: first phase %s, want %s", sc.ID, ph.ID, want)
		}
		c := newCtx(st)
		for h, n := range c.stk {
			if n > data.Params["stack-half-res"] {
				t.Errorf("%s: stack of %d half-REs in %s", sc.ID, n, h)
			}
		}
		if c.owner(hx(t, "Oslo")) != German || c.owner(hx(t, "Copenhagen")) != German || c.owner(hx(t, "Stockholm")) != Allied {
			t.Errorf("%s: initial ownership", sc.ID)
		}
		for _, u := range st.Board.Units {
			if u.Status == OnMap && !allowed(u.Side, hx(t, u.Hex)) {
				t.Errorf("%s: %s set up in %s", sc.ID, u.ID, u.Hex)
			}
		}
	}
}

func TestRule30_DeploymentAlliedFirstThenGerman(t *testing.T) {
	for _, sc := range []string{"objective", "ultra"} {
		s, _ := Ruleset{}.New(engine.Setup{Scenario: sc}, nullDice{})
		st := s.(*State)
		if id := phaseOf(st).ID; id != "T0-allied-setup" {
			t.Fatalf("%s: first phase %s", sc, id)
		}
		if errs := parseErr(st, "place I1 Oslo"); len(errs) != 1 || errs[0].Rule != "30" {
			t.Fatalf("Allied unit placed in Norway: %v", errs)
		}
		if errs := parseErr(st, "place I1 Karlstad\nplace I5 Karlstad\nplace I6 Karlstad\nplace I7 Karlstad\nplace I9 Karlstad\nplace I15 Karlstad\nplace I17 Karlstad"); len(errs) != 2 || errs[0].Line != 6 {
			t.Fatalf("with I2 already in Karlstad, a sixth and seventh regiment break the 6-RE stacking limit: %v", errs)
		}
		st = resolve(t, st, "place I1 Karlstad\nbase F8 Goteborg", nullDice{})
		if u := unit(t, st, "I1"); u.Hex != hx(t, "Karlstad").String() {
			t.Fatalf("I1 at %s", u.Hex)
		}
		if id := phaseOf(st).ID; id != "T0-german-setup" {
			t.Fatalf("%s: second phase %s", sc, id)
		}
		if errs := parseErr(st, "place 25Pz Karlstad"); len(errs) != 1 || errs[0].Rule != "30" {
			t.Fatalf("German unit placed in Sweden: %v", errs)
		}
		st = resolve(t, st, "place 25Pz Kongsvinger", nullDice{})
		want := "T1-german-move"
		if sc == "ultra" {
			want = "T1-allied-move"
		}
		if id := phaseOf(st).ID; id != want {
			t.Fatalf("%s: after deployment %s, want %s", sc, id, want)
		}
	}
}

func TestRule31A_GameLengthAndConquest(t *testing.T) {
	st := at(newGame(t, "objective"), 6, 1, "exploit")
	st = resolve(t, st, "", nullDice{})
	if !st.Over || st.Turn != 6 {
		t.Fatal("the game ends after Sep II 43")
	}
	st = at(newGame(t, "objective"), 3, 0, "combat")
	for _, p := range data.Places {
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' && mainland(p) {
			st.Board.Owner[p.Hex.String()] = German
		}
	}
	st = resolve(t, st, "", nullDice{})
	if !st.Over || st.Turn != 3 {
		t.Fatal("the game ends when Sweden is conquered")
	}
	if r := (Ruleset{}).Result(st); r.Winner != German {
		t.Fatalf("result %+v", r)
	}
}

func TestRule31B_VictoryByScenario(t *testing.T) {
	zoneB := []string{"Sundsvall", "Ostersund", "Umea", "Skelleftea"}
	want := []struct {
		winner engine.Side
		level  string
	}{{Allied, "major"}, {Allied, "marginal"}, {"", "draw"}, {German, "marginal"}, {German, "major"}}
	for n := 0; n <= 4; n++ {
		st := newGame(t, "op1")
		st.Over = true
		for _, name := range zoneB[:n] {
			st.Board.Owner[hx(t, name).String()] = German
		}
		r := (Ruleset{}).Result(st)
		if r.Winner != want[n].winner || r.Level != want[n].level {
			t.Errorf("Operation I, %d zone B cities: %+v", n, r)
		}
	}
	st := newGame(t, "op2")
	st.Over = true
	if r := (Ruleset{}).Result(st); r.Winner != Allied {
		t.Errorf("Operation II, Allies hold Stockholm: %+v", r)
	}
	st.Board.Owner[hx(t, "Stockholm").String()] = German
	if r := (Ruleset{}).Result(st); r.Winner != German {
		t.Errorf("Operation II, Germans own Stockholm: %+v", r)
	}
	for _, sc := range []string{"objective", "ultra"} {
		st := newGame(t, sc)
		st.Over = true
		st.Board.Owner[hx(t, "Stockholm").String()] = German
		if r := (Ruleset{}).Result(st); r.Winner != Allied {
			t.Errorf("%s: Stockholm alone does not conquer Sweden: %+v", sc, r)
		}
		st.Board.Surrendered = true
		if r := (Ruleset{}).Result(st); r.Winner != German {
			t.Errorf("%s: surrender is conquest: %+v", sc, r)
		}
	}
}

func TestRule32B1_Forest(t *testing.T) {
	f, _ := findHex(t, 'f')
	for _, opt := range []bool{false, true} {
		st := newGame(t, "objective")
		if opt {
			st = newGame(t, "objective", "terrain32")
		}
		c := newCtx(st)
		pz, inf, cav, art := unit(t, st, "25Pz"), unit(t, st, "196Inf"), unit(t, st, "K1"), unit(t, st, "A1")
		got := []int{c.mpCost(pz, f), c.mpCost(art, f), c.mpCost(inf, f), c.mpCost(cav, f)}
		want := []int{3, 3, 2, 2}
		if opt {
			want = []int{6, 6, 3, 2} // Mot/Art-6, Other-3, Cav-2
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("option %v: forest MP %v, want %v", opt, got, want)
				break
			}
		}
		if opt {
			if c.attackHalves(pz, f) != 8 || c.attackHalves(art, f) != 2 || c.attackHalves(inf, f) != 14 {
				t.Error("forest: mot attacker (except artillery) halved")
			}
			if tr := c.terrainOf(f); tr.DRM != -2 || !tr.NoAEC {
				t.Error("forest: -2, No AEC")
			}
		}
	}
}

func TestRule32B2_IntermittentLake(t *testing.T) {
	l, _ := findHex(t, 'i')
	st := newGame(t, "objective", "terrain32")
	c := newCtx(st)
	pz, inf, art := unit(t, st, "25Pz"), unit(t, st, "196Inf"), unit(t, st, "A1")
	if c.mpCost(pz, l) != 2 || c.mpCost(art, l) != 2 || c.mpCost(inf, l) != 1 {
		t.Error("intermittent lake: Mot/Art-2, Other-1")
	}
	if c.attackHalves(pz, l) != 8 || c.attackHalves(inf, l) != 7 || c.attackHalves(art, l) != 2 {
		t.Error("intermittent lake: attacker (except artillery) halved")
	}
}

func TestRule33B1_OperationIEntryHex(t *testing.T) {
	for _, sc := range []string{"op1", "objective"} {
		st := at(bare(t, sc), 2, 0, "move")
		st.Board.Owner[hx(t, "Skelleftea").String()] = German
		c := newCtx(st)
		c.b.Units[c.find("181Inf")].Status = Eliminated
		errs := parseErr(st, "replace 181Inf 5B:3015")
		if (len(errs) == 0) != (sc == "op1") {
			t.Errorf("%s: replacement at 5B:3015: %v", sc, errs)
		}
	}
	st := at(bare(t, "op1"), 2, 0, "move")
	newCtx(st).b.Units[newCtx(st).find("181Inf")].Status = Eliminated
	if errs := parseErr(st, "replace 181Inf 5B:3015"); len(errs) != 1 {
		t.Error("5B:3015 only if German owned")
	}
}

func TestRule34A1_IncrementalOddsExample(t *testing.T) {
	col, hund, _ := oddsOf(27*2, 11*2)
	if hund != 245 || data.CRTCols[col] != "2:1" {
		t.Fatalf("27:11 = %d hundredths, column %s; want 2.45:1 on 2:1", hund, data.CRTCols[col])
	}
	for _, tc := range []struct {
		faces []int
		want  string
	}{{[]int{4, 5}, "3:1"}, {[]int{8, 5}, "2:1"}, {[]int{1, 1}, "2:1"}, {[]int{5, 6}, "3:1"}, {[]int{5, 7}, "2:1"}} {
		got, _ := incremental(col, hund, &seqDice{vals: tc.faces})
		if data.CRTCols[got] != tc.want {
			t.Errorf("2.45:1, rolled %d%d: %s, want %s", tc.faces[0]-1, tc.faces[1]-1, data.CRTCols[got], tc.want)
		}
	}
}

func TestRule34A2_IncrementalOddsBelowTwo(t *testing.T) {
	col, hund, _ := oddsOf(178, 100)
	if hund != 178 || data.CRTCols[col] != "1.5:1" {
		t.Fatalf("1.78:1 column %s", data.CRTCols[col])
	}
	if got, note := incremental(col, hund, &seqDice{vals: []int{6, 7}}); data.CRTCols[got] != "2:1" || !strings.Contains(note, "increment 56") {
		t.Errorf("1.78:1 rolled 56: %s (%s), want 2:1", data.CRTCols[got], note)
	}
	if got, _ := incremental(col, hund, &seqDice{vals: []int{6, 8}}); data.CRTCols[got] != "1.5:1" {
		t.Errorf("1.78:1 rolled 57: %s, want 1.5:1", data.CRTCols[got])
	}
}

func TestRule34A3_NoIncrementBelowOneAndAHalf(t *testing.T) {
	col, hund, _ := oddsOf(14, 10)
	d := &seqDice{}
	if got, _ := incremental(col, hund, d); got != col || len(d.asked) != 0 {
		t.Fatal("odds below 1.5:1 roll no incremental dice")
	}
	col, hund, _ = oddsOf(40, 20)
	if got, _ := incremental(col, hund, d); got != col || len(d.asked) != 0 {
		t.Fatal("exactly 2:1 has no fraction to roll for")
	}
}

func TestRule34A_OptionUsedInCombat(t *testing.T) {
	clear, from := findHex(t, '.')
	st := bare(t, "objective", "25Pz@"+from.String(), "190StuG@"+from.String(), "I2@"+clear.String(), "I3@"+clear.String())
	st.Options = []string{"incremental"}
	d := &seqDice{vals: []int{1, 1, 1}}
	newCtx(st).resolveAttack(German, Attack{Target: clear, Units: []string{"25Pz", "190StuG"}}, d)
	if len(d.asked) != 3 || d.asked[0] != 10 || d.asked[1] != 10 || d.asked[2] != 6 {
		t.Fatalf("10:4 with the option rolls two ten-sided dice, then the combat die: %v", d.asked)
	}
}

func TestRule28A_NoGarrisonNeeded(t *testing.T) {
	karlstad := hx(t, "Karlstad")
	from := adjSwedish(t, karlstad, 0)
	st := at(bare(t, "objective", "25Pz@"+from.String()), 2, 0, "move")
	st = resolve(t, st, "move 25Pz Karlstad", nullDice{})
	if newCtx(st).owner(karlstad) != German {
		t.Fatal("entering Karlstad takes it")
	}
	st = at(st, 3, 0, "move")
	st = resolve(t, st, "move 25Pz "+from.String(), nullDice{})
	if newCtx(st).owner(karlstad) != German {
		t.Fatal("Karlstad stays German owned without a garrison (28A)")
	}
	st = at(bare(t, "objective", "I2@"+from.String()), 3, 1, "move")
	st.Board.Owner[karlstad.String()] = German
	st = resolve(t, st, "move I2 Karlstad", nullDice{})
	if newCtx(st).owner(karlstad) != Allied {
		t.Fatal("the Swedes take their city back by entering it")
	}
}

func TestRule2_TurnSequenceWithExploitation(t *testing.T) {
	st := at(bare(t, "objective", "25Pz@Oslo", "196Inf@Oslo"), 2, 0, "move")
	var ids []string
	for k := 0; k < 7; k++ {
		ids = append(ids, phaseOf(st).ID)
		st = resolve(t, st, "", nullDice{})
	}
	want := "T2-german-move T2-german-combat T2-german-exploit T2-allied-move T2-allied-combat T2-allied-exploit T3-german-move"
	if strings.Join(ids, " ") != want {
		t.Fatalf("phases %v", ids)
	}
	st = at(bare(t, "objective", "25Pz@Oslo", "196Inf@Oslo"), 2, 0, "exploit")
	if errs := parseErr(st, "move 196Inf Hamar"); len(errs) != 1 || errs[0].Rule != "2" {
		t.Fatalf("infantry in the exploitation phase: %v", errs)
	}
	if errs := parseErr(st, "move 25Pz Hamar"); len(errs) != 0 {
		t.Fatalf("armour exploits: %v", errs)
	}
	if errs := parseErr(st, "rail 25Pz Hamar"); len(errs) != 1 {
		t.Fatalf("only move orders in the exploitation phase: %v", errs)
	}
}

func TestRule12C1_ConnectionIgnoresZonesOfControl(t *testing.T) {
	malmo, hbg := hx(t, "Malmo"), hx(t, "Halsingborg")
	line := []engine.Hex{malmo, hx(t, "C9"), hx(t, "D8"), hbg}
	// a German unit next to the line (on German-owned ground) puts it in its ZOC
	var z engine.Hex
	for _, n := range hx(t, "C9").Neighbors() {
		if data.Land(n) && data.CountryAt(n) == 'S' && n != malmo && n != hbg && n != hx(t, "D8") {
			z = n
			break
		}
	}
	st := bare(t, "objective", "196Inf@"+z.String())
	isolate(st, malmo, 12, line...)
	c := newCtx(st)
	if !c.ezoc(Allied, hx(t, "C9")) {
		t.Fatal("test set-up: C9 should be in a German ZOC")
	}
	full, _ := c.supplySources(Allied)
	if !full[malmo] || !full[hbg] {
		t.Fatal("the rail connection needs only friendly-owned hexes (12C1)")
	}
}

func TestRule2_CombatResultsTableOfRevision1(t *testing.T) {
	clear, from := findHex(t, '.')
	st := revision1(bare(t, "objective", "25Pz@"+from.String(), "196Inf@"+from.String(), "I2@"+clear.String()))
	c := newCtx(st)
	// 15 against 2 is 7:1; roll 1, AEC +1 -> 2: DH; I2 loses half its 2
	// points, that is the whole regiment.
	c.resolveAttack(German, Attack{Target: clear, Units: []string{"25Pz", "196Inf"}, Advance: true}, &seqDice{vals: []int{1}})
	if !logHas(st, "odds 7:1, roll 1 AEC +1 -> DH") {
		t.Fatalf("%v", st.Log)
	}
	if unit(t, st, "I2").Status != Eliminated || unit(t, st, "25Pz").Hex != clear.String() || c.owner(clear) != German {
		t.Fatal("I2 eliminated, the attackers advance and take the hex")
	}
	// below 1:4 the attack fails outright
	st = revision1(bare(t, "objective", "Para1@"+from.String(), "4Div@"+clear.String()))
	c = newCtx(st)
	c.resolveAttack(German, Attack{Target: clear, Units: []string{"Para1"}}, &seqDice{})
	if unit(t, st, "Para1").Status != Eliminated {
		t.Fatal("1:6 is below the table: attacker eliminated")
	}
	// a division takes a half loss by falling to its cadre
	st = revision1(bare(t, "objective", "25Pz@"+from.String(), "4Div@"+clear.String()))
	c = newCtx(st)
	c.resolveAttack(German, Attack{Target: clear, Units: []string{"25Pz"}}, &seqDice{vals: []int{6}})
	// 8:6 is 1:1; roll 6 +1 AEC = 7: DR
	if u := unit(t, st, "4Div"); u.Hex == clear.String() || u.Status != OnMap {
		t.Fatalf("DR: 4Div retreats: %+v %v", u, st.Log)
	}
}

func TestRule2_ZonesOfControlOfRevision1(t *testing.T) {
	// I2 at Karlstad; a German unit two hexes away may enter its ZOC but
	// must stop there.
	karlstad := hx(t, "Karlstad")
	var z, beyond engine.Hex
	for _, n := range karlstad.Neighbors() {
		if allowed(German, n) {
			z = n
			break
		}
	}
	for _, n := range z.Neighbors() {
		if allowed(German, n) && n.Distance(karlstad) == 1 && n != z {
			beyond = n
			break
		}
	}
	var start engine.Hex
	for _, n := range z.Neighbors() {
		if allowed(German, n) && n.Distance(karlstad) == 2 {
			start = n
			break
		}
	}
	st := at(revision1(bare(t, "objective", "25Pz@"+start.String(), "I2@Karlstad")), 2, 0, "move")
	if errs := parseErr(st, "move 25Pz "+z.String()); len(errs) != 0 {
		t.Fatalf("entering a ZOC: %v", errs)
	}
	if errs := parseErr(st, "move 25Pz "+z.String()+" "+beyond.String()); len(errs) != 1 {
		t.Fatalf("moving on through a ZOC: %v", errs)
	}
	st = at(revision1(bare(t, "objective", "25Pz@"+z.String(), "I2@Karlstad")), 2, 0, "move")
	c := newCtx(st)
	if _, prev := c.reach(unit(t, st, "25Pz"), z, 10); prev[beyond] == z {
		t.Fatal("moved straight from one enemy ZOC hex into another")
	}
	if dist, _ := c.reach(unit(t, st, "25Pz"), z, 2); dist[beyond] != 0 {
		if _, ok := dist[beyond]; ok {
			t.Fatal("with 2 MP the way round out of the ZOC is too long")
		}
	}
	if errs := parseErr(st, "move 25Pz "+start.String()); len(errs) != 0 {
		t.Fatalf("leaving a ZOC: %v", errs)
	}
}

func TestRule12_OutOfSupplyHalves(t *testing.T) {
	clear, _ := findHex(t, '.')
	u := Unit{Type: "inf", Att: 7, Def: 7, Move: 6}
	c := newCtx(bare(t, "objective"))
	if allowance(u) != 6 || c.attackHalves(u, clear) != 14 {
		t.Fatal("in supply: full")
	}
	u.OOS = true
	if allowance(u) != 3 || c.attackHalves(u, clear) != 7 {
		t.Fatal("out of supply: movement and attack halved (" + recon + ")")
	}
}

// hintOrders returns the orders an error's Valid field names ("; "
// between them), failing unless each starts with verb.
func hintOrders(t *testing.T, e engine.LineError, verb string) []string {
	t.Helper()
	items := strings.Split(e.Valid, "; ")
	for _, it := range items {
		if !strings.HasPrefix(it, verb+" ") {
			t.Fatalf("%s: hint %q is not %s orders", e.Msg, e.Valid, verb)
		}
	}
	return items
}

// 26A: "The German player lands the two regiments of his amphibious force
// during his Jul 1 43 movement phase ... in any coastal hexes in Sweden
// except for the Stockholm, Karlskrona, and Goteborg hexes". Orders that
// leave them out, or land one where it may not, are refused with landings
// the phase accepts, nearest Stockholm first (it used to say "land Amph1
// HEX"); 25C: a drop outside Sweden likewise names drops that stand.
func TestRule26A_LandingAndDropErrorsHintOrdersThatStand(t *testing.T) {
	st := newGame(t, "objective")
	errs := parseErr(st, "")
	if len(errs) != 2 || errs[0].Rule != "26A" {
		t.Fatalf("no landing orders: %v", errs)
	}
	a1 := hintOrders(t, errs[0], "land")
	a2 := hintOrders(t, errs[1], "land")
	if strings.Contains(errs[0].Valid, "R18") {
		t.Errorf("the hint lands in Stockholm: %q", errs[0].Valid)
	}
	if e := parseErr(st, a1[0]+"\n"+a2[0]); len(e) != 0 {
		t.Fatalf("the hinted landings %q, %q: %v", a1[0], a2[0], e)
	}
	for _, bad := range []string{"land Amph1 R18\nland Amph2 Q18", "land Amph1 U5\nland Amph2 Q18", "move Amph1 Q18\nland Amph2 Q18"} {
		var on1 *engine.LineError
		for _, x := range parseErr(st, bad) {
			if x.Line == 1 && x.Rule == "26A" {
				on1 = &x
			}
		}
		if on1 == nil {
			t.Fatalf("%q: no 26A error on line 1: %v", bad, parseErr(st, bad))
		}
		fixed := hintOrders(t, *on1, "land")[0]
		if e := parseErr(st, fixed+"\nland Amph2 Q18"); len(e) != 0 {
			t.Errorf("%q hints %q, refused: %v", bad, fixed, e)
		}
	}
	e := parseErr(st, "land Amph1 Q18\nland Amph2 Q18\ndrop Para1 U5")
	if len(e) != 1 || e[0].Rule != "25C" || e[0].Line != 3 {
		t.Fatalf("a drop in Norway: %v", e)
	}
	for _, d := range hintOrders(t, e[0], "drop") {
		if e := parseErr(st, "land Amph1 Q18\nland Amph2 Q18\n"+d); len(e) != 0 {
			t.Errorf("hinted %q, refused: %v", d, e)
		}
	}
}

// 7A: a rail move to a hex the unit cannot reach by rail is refused with
// rail moves that stand: 196Inf in Oslo (U5), a German-owned rail hex of
// Norway, cannot reach Stockholm by rail on Jul I.
func TestRule7A_RailErrorHintsRailMovesThatStand(t *testing.T) {
	st := newGame(t, "objective")
	land := "land Amph1 Q18\nland Amph2 Q18\n"
	e := parseErr(st, land+"rail 196Inf Stockholm")
	if len(e) != 1 || e[0].Rule != "7A" || e[0].Line != 3 {
		t.Fatalf("rail to Stockholm: %v", e)
	}
	for _, r := range hintOrders(t, e[0], "rail") {
		if e := parseErr(st, land+r); len(e) != 0 {
			t.Errorf("hinted %q, refused: %v", r, e)
		}
	}
}
