package sweden43

import (
	"strings"
	"testing"
)

// Rules tests of Rule 28, Nations: Germany and Sweden (rulebook: seeds 004).

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

// 28B1: "Upon Swedish surrender, all Allied forces are removed from play":
// under revision 2 those still to come too. The Allied report lists none
// still to come after a surrender, whatever the revision.
func TestRule28B1_SurrenderRemovesTheForcesStillToCome(t *testing.T) {
	sth := hx(t, "Stockholm")
	from := adjSwedish(t, sth, 0)
	for _, rev := range []int{1, 2} {
		st := bare(t, "objective", "25Pz@"+from.String(), "I1@Stockholm")
		if rev == 1 {
			revision1(st)
		}
		// 25Pz halved in a full city (revision 2: 4 against 2, 2:1) or
		// whole (revision 1: 8 against 2): 1.5:1 or more, the surrender
		// roll comes first and a 1 surrenders.
		newCtx(st).resolveAttack(German, Attack{Target: sth, Units: []string{"25Pz"}}, &seqDice{vals: []int{1}})
		if !st.Board.Surrendered {
			t.Fatalf("revision %d: no surrender: %v", rev, st.Log)
		}
		pending := 0
		for _, u := range st.Board.Units {
			if u.Side == Allied && stillToCome(u) {
				pending++
			}
		}
		if (pending == 0) != (rev == 2) {
			t.Errorf("revision %d: %d Allied units still to come after the surrender", rev, pending)
		}
		st.Over = true
		if rep := (Ruleset{}).Report((Ruleset{}).View(st, Allied), Allied); strings.Contains(rep, "Still to come") {
			t.Errorf("revision %d: the Allied report after the surrender lists forces still to come", rev)
		}
	}
}
