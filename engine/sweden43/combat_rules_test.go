package sweden43

import (
	"strings"
	"testing"
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
