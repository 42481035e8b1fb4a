package sweden43

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// Rules tests of combat: the charts of Rule 2 (the CRT, the dot city), Rule
// 10 (armor and antitank effects) and Rule 34A (incremental odds) (rulebook:
// seeds 004).

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

// Tests of revision 2's combat (Rule 2: the Europa core). Every expected
// value is worked out by hand from data/tables.txt and europa-core.md; the
// comments show the arithmetic. Unit values (units.txt): 196Inf and 181Inf
// 7-7 infantry divisions with cadres of 3, 25Pz an 8-8 armoured division
// (AEC, cadre 3), Para1 1-1, I2 I3 I4 2-2 regiments, K1 a 1-1 cavalry
// regiment, A1 1-2 artillery, 4Div a 6-6 division.

// resultRank orders the results from the attacker's worst to its best.
var resultRank = map[string]int{"AE": 0, "AH": 1, "AR": 2, "AS": 3, "EX": 4, "HX": 5, "DR": 6, "DH": 7, "DE": 8}

func TestRule2_CRTPublishedColumnAndMarks(t *testing.T) {
	if got := strings.Join(data.CRTCols, " "); got != "1:4 1:3 1:2 1:1 1.5:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 9:1" {
		t.Fatalf("columns %s", got)
	}
	// The Europa Magazine #40: the unmodified 2:1 column reads 1 AR, 2 AS,
	// 3 AS, 4 EX, 5 HX, 6 DR. Those six cells, and only they, are known.
	published := map[int]string{1: "AR", 2: "AS", 3: "AS", 4: "EX", 5: "HX", 6: "DR"}
	two := colIndex("2:1")
	for r := -1; r <= 8; r++ {
		for c := range data.CRTCols {
			want, isPub := published[r]
			isPub = isPub && c == two
			if data.CRT2Known[r+1][c] != isPub {
				t.Errorf("roll %d %s: marked known %v", r, data.CRTCols[c], data.CRT2Known[r+1][c])
			}
			if isPub && data.CRT2[r+1][c] != want {
				t.Errorf("roll %d at 2:1 reads %s, published %s", r, data.CRT2[r+1][c], want)
			}
		}
	}
}

func TestRule2_CRTMonotoneInRollAndOdds(t *testing.T) {
	seen := map[string]bool{}
	for r := -1; r <= 8; r++ {
		for c := range data.CRTCols {
			res := data.CRT2[r+1][c]
			k, ok := resultRank[res]
			if !ok {
				t.Fatalf("roll %d %s: %q is no Europa result", r, data.CRTCols[c], res)
			}
			seen[res] = true
			if r > -1 && resultRank[data.CRT2[r][c]] > k {
				t.Errorf("%s: roll %d gives %s, worse for the attacker than roll %d's %s", data.CRTCols[c], r, res, r-1, data.CRT2[r][c])
			}
			if c > 0 && resultRank[data.CRT2[r+1][c-1]] > k {
				t.Errorf("roll %d: %s gives %s, worse than %s's %s", r, data.CRTCols[c], res, data.CRTCols[c-1], data.CRT2[r+1][c-1])
			}
		}
	}
	if len(seen) != 9 {
		t.Errorf("results in the table: %v, want all nine", seen)
	}
	// Modified rolls outside the table read its first and last rows.
	two := colIndex("2:1")
	if crt2(-5, two) != data.CRT2[0][two] || crt2(12, two) != data.CRT2[9][two] {
		t.Error("rolls below -1 read -1, above 8 read 8")
	}
}

// attackCase places units and resolves one German attack on a clear hex
// with the given dice, under revision 2.
func attackCase(t *testing.T, attackers, defenders []string, dice ...int) (*State, engine.Hex, engine.Hex) {
	t.Helper()
	clear, from := findHex(t, '.')
	var place []string
	for _, id := range attackers {
		place = append(place, id+"@"+from.String())
	}
	for _, id := range defenders {
		place = append(place, id+"@"+clear.String())
	}
	st := bare(t, "objective", place...)
	newCtx(st).resolveAttack(German, Attack{Target: clear, Units: attackers, Advance: true}, &seqDice{vals: dice})
	return st, clear, from
}

func TestRule2_EachResultApplied(t *testing.T) {
	on := func(st *State, id string, hex engine.Hex) bool {
		u := unit(t, st, id)
		return u.Status == OnMap && u.Hex == hex.String()
	}
	gone := func(st *State, id string) bool { return unit(t, st, id).Status == Eliminated }

	// AE: 1 against 4 is 1:4; roll 1 reads AE: Para1 is eliminated.
	st, clear, _ := attackCase(t, []string{"Para1"}, []string{"I2", "I3"}, 1)
	if !logHas(st, "odds 1:4, roll 1") || !logHas(st, "-> AE") || !gone(st, "Para1") || !on(st, "I2", clear) {
		t.Errorf("AE: %v", st.Log)
	}
	// AH: 7 against 6 is 1:1 (1.16 rounded down); roll 1 reads AH: the
	// attacker loses at least half of 7, 4: 196Inf falls to its cadre
	// (7 - 3 = 4).
	st, _, from := attackCase(t, []string{"196Inf"}, []string{"4Div"}, 1)
	if u := unit(t, st, "196Inf"); !logHas(st, "-> AH") || !u.Reduced || u.Hex != from.String() || unit(t, st, "4Div").Reduced {
		t.Errorf("AH: %+v %v", u, st.Log)
	}
	// 14 against 6 is 2:1 (2.33): roll 1 AR, 2 AS, 6 DR, the published column.
	two := []string{"196Inf", "181Inf"}
	regs := []string{"I2", "I3", "I4"}
	st, clear, from = attackCase(t, two, regs, 1)
	if !logHas(st, "odds 2:1, roll 1  -> AR") || on(st, "196Inf", from) || on(st, "181Inf", from) || !on(st, "I2", clear) {
		t.Errorf("AR: the attackers retreat: %v", st.Log)
	}
	st, clear, from = attackCase(t, two, regs, 2)
	if !logHas(st, "-> AS") || !on(st, "196Inf", from) || !on(st, "181Inf", from) || !on(st, "I4", clear) || unit(t, st, "196Inf").Reduced {
		t.Errorf("AS: the attack stalls and nothing else happens: %v", st.Log)
	}
	st, clear, _ = attackCase(t, two, regs, 6)
	for _, id := range regs {
		if u := unit(t, st, id); u.Status != OnMap || u.Hex == clear.String() {
			t.Errorf("DR: %s %+v", id, u)
		}
	}
	// EX: 7 against 3 (I2 and K1) is 2:1; roll 4 reads EX: the defenders
	// are eliminated and 196Inf loses at least 3, falling to its cadre
	// (4); it advances into the empty hex.
	st, clear, _ = attackCase(t, []string{"196Inf"}, []string{"I2", "K1"}, 4)
	if !logHas(st, "-> EX") || !gone(st, "I2") || !gone(st, "K1") || !unit(t, st, "196Inf").Reduced || !on(st, "196Inf", clear) {
		t.Errorf("EX: %v", st.Log)
	}
	// HX: 14 against 7 (K1 I2 I3 I4) is 2:1; roll 5 reads HX: the
	// defenders lose at least 4, weakest first: K1 (1), I2 (2), I3 (2) = 5;
	// I4 holds. The attackers lose at least half the defence, 4: 181Inf
	// falls to its cadre (4); 196Inf is whole.
	st, clear, _ = attackCase(t, two, []string{"K1", "I2", "I3", "I4"}, 5)
	if !logHas(st, "-> HX") || !gone(st, "K1") || !gone(st, "I2") || !gone(st, "I3") || !on(st, "I4", clear) ||
		!unit(t, st, "181Inf").Reduced || unit(t, st, "196Inf").Reduced {
		t.Errorf("HX: %v", st.Log)
	}
	// DH: 25Pz and 196Inf, 15 against 6, is 2:1 (2.5); half their REs have
	// AEC (6 of 12 half-REs): AECA +2. Roll 6 + 2 = 8 reads DH: the
	// defenders lose at least 3, I2 and I3 (4); I4 retreats.
	st, clear, _ = attackCase(t, []string{"25Pz", "196Inf"}, regs, 6)
	if u := unit(t, st, "I4"); !logHas(st, "roll 6 AECA +2 (half) -> DH") || !gone(st, "I2") || !gone(st, "I3") || u.Status != OnMap || u.Hex == clear.String() {
		t.Errorf("DH: %+v %v", u, st.Log)
	}
	// DE: 14 against 2 is 7:1; roll 5 reads DE; the attackers advance and
	// take the hex.
	st, clear, _ = attackCase(t, two, []string{"I2"}, 5)
	if !logHas(st, "odds 7:1, roll 5  -> DE") || !gone(st, "I2") || !on(st, "196Inf", clear) || newCtx(st).owner(clear) != German {
		t.Errorf("DE: %v", st.Log)
	}
	// Revision 1 had no AS: the same attack rolled 2 at 2:1 was AR there.
	clear, from = findHex(t, '.')
	st = revision1(bare(t, "objective", "196Inf@"+from.String(), "181Inf@"+from.String(), "I2@"+clear.String(), "I3@"+clear.String(), "I4@"+clear.String()))
	newCtx(st).resolveAttack(German, Attack{Target: clear, Units: two}, &seqDice{vals: []int{2}})
	if !logHas(st, "-> AR") {
		t.Errorf("revision 1, 2:1 rolled 2: %v", st.Log)
	}
}

func TestRule2_OddsRoundedDownAtTheColumnEdges(t *testing.T) {
	for _, tc := range []struct {
		a, d int // in sixteenths of a point
		want string
	}{
		{3 * 16, 2 * 16, "1.5:1"},  // 1.50 exactly
		{29 * 8, 20 * 8, "1:1"},    // 1.45
		{39 * 8, 20 * 8, "1.5:1"},  // 1.95
		{2 * 16, 16, "2:1"},        // 2.00
		{89 * 16, 10 * 16, "8:1"},  // 8.9
		{9 * 16, 16, "9:1"},        // 9.00
		{20 * 16, 16, "9:1"},       // 20: the table ends at 9:1
		{16, 2 * 16, "1:2"},        // 0.5
		{2 * 16, 5 * 16, "1:3"},    // 0.4: 1:2.5 rounded in the defender's favour
		{16, 3 * 16, "1:3"},        // 1:3
		{16, 4 * 16, "1:4"},        // 1:4
		{56, 7 * 16, "1:2"},        // 3.5 against 7: a halved 7 at 1:2
		{15 * 16, 7 * 16, "2:1"},   // 2.14
		{139, 7 * 16, "1:1"},       // 8.6875 against 7 = 1.24
		{4 * 16, 2 * 16, "2:1"},    // 25Pz halved in a city against 2
		{7 * 16, 14*16 + 1, "1:3"}, // just under 1:2
	} {
		col, _, ok := oddsOf(tc.a, tc.d)
		if !ok || data.CRTCols[col] != tc.want {
			t.Errorf("%s against %s: %v %s, want %s", str16(tc.a), str16(tc.d), ok, data.CRTCols[col], tc.want)
		}
	}
	if _, _, ok := oddsOf(10*16, 41*16); ok {
		t.Error("10 against 41 (1:4.1) is below the table")
	}
}

// riverSide finds a hexside of a river, major or not, into a Swedish
// clear or rough hex that is no place.
func riverSide(t *testing.T, major bool) (from, to engine.Hex) {
	t.Helper()
	for _, h := range data.Grid.All() {
		if _, isPlace := data.PlaceAt(h); isPlace || data.CountryAt(h) != 'S' || (data.TerrainAt(h) != '.' && data.TerrainAt(h) != 'r') {
			continue
		}
		for _, n := range h.Neighbors() {
			if data.River(n, h) != "" && data.MajorRiver(n, h) == major && data.Land(n) {
				return n, h
			}
		}
	}
	t.Fatalf("no river hexside (major %v)", major)
	return
}

func TestRule2_AttackHalvings(t *testing.T) {
	st := bare(t, "objective")
	c := newCtx(st)
	inf, pz, art := unit(t, st, "196Inf"), unit(t, st, "25Pz"), unit(t, st, "A1")
	clear, from := findHex(t, '.')
	mtn, _ := findHex(t, 'm')
	forest, _ := findHex(t, 'f')
	lake, _ := findHex(t, 'i')
	str := func(c *ctx, u Unit, from, h engine.Hex) string { v, _ := c.attack16(u, from, h); return str16(v) }
	for _, tc := range []struct {
		name string
		c    *ctx
		u    Unit
		h    engine.Hex
		want string
	}{
		{"infantry into clear", c, inf, clear, "7"},
		{"infantry into mountain: halved", c, inf, mtn, "3.5"},
		{"artillery into mountain: halved", c, art, mtn, "0.5"},
		{"armour into forest without 32B (rough): whole", c, pz, forest, "8"},
		{"infantry into a full city (Stockholm): halved", c, inf, hx(t, "Stockholm"), "3.5"},
		{"artillery into a full city: whole", c, art, hx(t, "Stockholm"), "1"},
		{"infantry into a partial city (Goteborg): halved", c, inf, hx(t, "Goteborg"), "3.5"},
		{"infantry into a dot city (Karlstad): whole", c, inf, hx(t, "Karlstad"), "7"},
	} {
		if got := str(tc.c, tc.u, from, tc.h); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	// 32B1 forest: motorized attackers (except artillery) halved; 32B2
	// intermittent lake: attackers except artillery halved.
	c32 := newCtx(bare(t, "objective"))
	c32.st.Options = []string{"terrain32"}
	for _, tc := range []struct {
		u    Unit
		h    engine.Hex
		want string
	}{{pz, forest, "4"}, {inf, forest, "7"}, {art, forest, "1"}, {inf, lake, "3.5"}, {pz, lake, "4"}, {art, lake, "1"}} {
		if got := str(c32, tc.u, from, tc.h); got != tc.want {
			t.Errorf("option 32B: %s into %c: %s, want %s", tc.u.ID, data.TerrainAt(tc.h), got, tc.want)
		}
	}
	// Mountain troops are not halved attacking into mountains.
	if got := str(newCtx(bare(t, "op1")), unit(t, bare(t, "op1"), "2Mtn"), from, mtn); got != "7" {
		t.Errorf("2Mtn into mountain: %s, want 7", got)
	}
	// Across a river x1/2, a major river x1/4; artillery is not halved.
	a, b := riverSide(t, false)
	if got := str(c, inf, a, b); got != "3.5" {
		t.Errorf("infantry across a river: %s, want 3.5", got)
	}
	if got := str(c, art, a, b); got != "1" {
		t.Errorf("artillery across a river: %s, want 1", got)
	}
	a, b = riverSide(t, true)
	if got := str(c, inf, a, b); got != "1.75" {
		t.Errorf("infantry across a major river: %s, want 1.75 (7/4)", got)
	}
	// Out of supply (no attack supply) halved; halvings compound: 25Pz out
	// of supply across a major river is 8 / 4 / 2 = 1.
	oos := pz
	oos.OOS = true
	if got := str(c, oos, from, clear); got != "4" {
		t.Errorf("out of supply: %s, want 4", got)
	}
	if got := str(c, oos, a, b); got != "1" {
		t.Errorf("out of supply across a major river: %s, want 1", got)
	}
}

func TestRule2_ArmourEffectsByProportion(t *testing.T) {
	clear, from := findHex(t, '.')
	forest, fFrom := findHex(t, 'f')
	drm := func(target engine.Hex, attackers []string, atFrom engine.Hex, defenders []string, mutate func(*ctx)) int {
		var place []string
		for _, id := range attackers {
			place = append(place, id+"@"+atFrom.String())
		}
		for _, id := range defenders {
			place = append(place, id+"@"+target.String())
		}
		c := newCtx(bare(t, "objective", place...))
		if mutate != nil {
			mutate(c)
		}
		var att, def []int
		for _, id := range attackers {
			att = append(att, c.find(id))
		}
		for _, id := range defenders {
			def = append(def, c.find(id))
		}
		d, _ := c.armourDRM(target, att, def)
		return d
	}
	swedishATEC := func(c *ctx) { c.b.Units[c.find("I2")].ATEC = true } // a hypothetical anti-tank regiment
	for _, tc := range []struct {
		name     string
		att, def []string
		mutate   func(*ctx)
		want     int
	}{
		{"25Pz alone: all its REs AEC, AECA full +3", []string{"25Pz"}, []string{"I2"}, nil, 3},
		{"25Pz and 196Inf: 6 of 12 half-REs, half +2", []string{"25Pz", "196Inf"}, []string{"I2"}, nil, 2},
		{"25Pz, 196Inf, 181Inf: 6 of 18, at least a seventh, partial +1", []string{"25Pz", "196Inf", "181Inf"}, []string{"I2"}, nil, 1},
		{"25Pz as a cadre has no AEC", []string{"25Pz"}, []string{"I2"}, func(c *ctx) { c.b.Units[c.find("25Pz")].Reduced = true }, 0},
		{"Swedes against 25Pz: AECD full -2", []string{"I2"}, []string{"25Pz"}, nil, -2},
		{"Swedes against 25Pz and 196Inf: AECD half -2", []string{"I2"}, []string{"25Pz", "196Inf"}, nil, -2},
		{"Swedes against the assault guns: ATEC needs an armoured attack, no AECD", []string{"I2"}, []string{"190StuG"}, nil, 0},
		{"25Pz against anti-tank: +3 AECA, -4 ATEC", []string{"25Pz"}, []string{"I2"}, swedishATEC, -1},
		{"a partial AECA meets no ATEC: +1", []string{"25Pz", "196Inf", "181Inf"}, []string{"I2"}, swedishATEC, 1},
	} {
		if got := drm(clear, tc.att, from, tc.def, tc.mutate); got != tc.want {
			t.Errorf("%s: %+d, want %+d", tc.name, got, tc.want)
		}
	}
	// No armour effects in No AEC terrain: forest (rough without 32B) and
	// a dot city (Rule 2).
	if got := drm(forest, []string{"25Pz"}, fFrom, []string{"I2"}, nil); got != 0 {
		t.Errorf("forest: %+d, want 0", got)
	}
	karlstad := hx(t, "Karlstad")
	if got := drm(karlstad, []string{"25Pz"}, adjSwedish(t, karlstad, 0), []string{"I2"}, nil); got != 0 {
		t.Errorf("dot city: %+d, want 0", got)
	}
	// Through the CRT: two regiments (4) against 25Pz (8) are 1:2; roll 2
	// with AECD -2 is 0, AE.
	st := bare(t, "objective", "I2@"+from.String(), "I3@"+from.String(), "25Pz@"+clear.String())
	newCtx(st).resolveAttack(Allied, Attack{Target: clear, Units: []string{"I2", "I3"}}, &seqDice{vals: []int{2}})
	if !logHas(st, "odds 1:2, roll 2 AECD -2 (full) -> AE") || unit(t, st, "I2").Status != Eliminated {
		t.Errorf("Swedes against 25Pz: %v", st.Log)
	}
}

func TestRule34A_IncrementalOddsOfRevision2(t *testing.T) {
	two := colIndex("2:1")
	for _, tc := range []struct {
		hund  int
		faces []int
		want  string
		dice  int
	}{
		// 34A1, 2.45:1: the 00-90 die shows 30, the 0-9 die 4: 34 <= 45,
		// raised; 74 is not; 00 (both dice on their 0 face, 10) never.
		{245, []int{3, 4}, "3:1", 2},
		{245, []int{7, 4}, "2:1", 2},
		{245, []int{10, 10}, "2:1", 2},
		{245, []int{10, 5}, "3:1", 2}, // 05
		// 3.00:1 has no fraction: no dice are rolled.
		{300, nil, "3:1", 0},
		// 34A2, 1.78:1: increment (1.78 - 1.5) x 2 = 56: 56 raises, 57 and 00
		// do not.
		{178, []int{5, 6}, "2:1", 2},
		{178, []int{5, 7}, "1.5:1", 2},
		{178, []int{10, 10}, "1.5:1", 2},
		// 34A3: below 1.5:1 no incremental odds.
		{149, nil, "1:1", 0},
	} {
		col, _, _ := oddsOf(tc.hund, 100)
		d := &seqDice{vals: tc.faces}
		got, _ := incrementalFaces(col, tc.hund, d)
		if data.CRTCols[got] != tc.want || len(d.asked) != tc.dice {
			t.Errorf("%d.%02d:1 rolled %v: %s with %d dice, want %s with %d", tc.hund/100, tc.hund%100, tc.faces, data.CRTCols[got], len(d.asked), tc.want, tc.dice)
		}
		_ = two
	}
	// Revision 1 raised 1.78:1 on 00 (34A2 compared 0 <= 56) and rolled for
	// 3.00:1.
	col, _, _ := oddsOf(178, 100)
	if got, _ := incremental(col, 178, &seqDice{vals: []int{1, 1}}); data.CRTCols[got] != "2:1" {
		t.Errorf("revision 1, 1.78:1 rolled 00: %s", data.CRTCols[got])
	}
	d := &seqDice{}
	if incremental(colIndex("3:1"), 300, d); len(d.asked) != 2 {
		t.Errorf("revision 1 rolls for 3.00:1: %v", d.asked)
	}
}

// Manual ten-sided dice: each value is the face of its die, the 0 face
// given as 10 (engine.NewFaceDice). 25Pz and 190StuG (10) against I2 and I3
// (4) are 2.50:1. The 00-90 die shows 0 (face 10), the 0-9 die 7: 07 <= 50
// raises the odds to 3:1. AECA: 6 of 7 half-REs have AEC, half, +2; the
// combat die 2 + 2 = 4 reads HX at 3:1: the defenders lose at least 2, I2
// (the first of two equals); the attackers at least 2, 190StuG (2).
func TestRule34A_ManualTenSidedDice(t *testing.T) {
	clear, from := findHex(t, '.')
	st := bare(t, "objective", "25Pz@"+from.String(), "190StuG@"+from.String(), "I2@"+clear.String(), "I3@"+clear.String())
	st.Options = []string{"incremental"}
	d := engine.NewFaceDice(10, 7, 2)
	newCtx(st).resolveAttack(German, Attack{Target: clear, Units: []string{"25Pz", "190StuG"}}, d)
	if d.Err() != nil || d.Short() != 0 {
		t.Fatalf("dice: %v, short %d", d.Err(), d.Short())
	}
	rolls := d.Rolls()
	if len(rolls) != 3 || rolls[0].Sides != 10 || !strings.Contains(rolls[0].Why, "00-90") || rolls[1].Sides != 10 || rolls[2].Sides != 6 {
		t.Fatalf("rolls %+v", rolls)
	}
	if !logHas(st, "incremental odds 2.50:1, rolled 07: raised to 3:1 (34A1)") || !logHas(st, "-> HX") {
		t.Fatalf("%v", st.Log)
	}
	if unit(t, st, "I2").Status != Eliminated || unit(t, st, "I3").Status != OnMap || unit(t, st, "190StuG").Status != Eliminated || unit(t, st, "25Pz").Reduced {
		t.Errorf("HX at 3:1: I2 and 190StuG lost, I3 and 25Pz whole: %v", st.Log)
	}
}
