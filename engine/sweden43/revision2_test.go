package sweden43

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// Tests of what revision 2 changed beyond combat, each beside what
// revision 1 did.

// Exploitation (reconstructed: standard Europa mechanics): only c/m units
// that used no more than half their movement allowance in the movement
// phase. 25Pz (10 MP) at V13; V13 to V18 is five clear hexes of Sweden (1
// MP each for motorized units): 5 MP, half of 10, may exploit. On to V14
// and back, 5 + 4 = 9 MP: may not. A rail move spends the movement phase.
func TestRule2_ExploitationEligibility(t *testing.T) {
	exploit := func(st *State, moves string) []engine.LineError {
		t.Helper()
		st = resolve(t, st, moves, nullDice{})
		st = resolve(t, st, "", nullDice{}) // the combat phase
		if st.Step != "exploit" {
			t.Fatalf("step %s", st.Step)
		}
		return parseErr(st, "move 25Pz V17")
	}
	start := func() *State { return at(bare(t, "objective", "25Pz@V13"), 2, 0, "move") }
	if errs := exploit(start(), "move 25Pz V18"); len(errs) != 0 {
		t.Errorf("5 of 10 MP used: %v", errs)
	}
	errs := exploit(start(), "move 25Pz V18 V14")
	if len(errs) != 1 || errs[0].Rule != "2" || !strings.Contains(errs[0].Msg, "used 9 of its 10 MP") {
		t.Errorf("9 of 10 MP used: %v", errs)
	}
	if errs := exploit(start(), ""); len(errs) != 0 {
		t.Errorf("a unit that did not move: %v", errs)
	}
	rail := at(bare(t, "objective", "25Pz@Oslo"), 2, 0, "move")
	st := resolve(t, resolve(t, rail, "rail 25Pz Hamar", nullDice{}), "", nullDice{})
	for _, n := range hx(t, "Hamar").Neighbors() {
		if allowed(German, n) {
			if errs := parseErr(st, "move 25Pz "+n.String()); len(errs) != 1 || errs[0].Rule != "2" {
				t.Errorf("after a rail move, 25Pz exploits: %v", errs)
			}
			break
		}
	}
	// Revision 1: the unit that used 9 MP exploits with its full allowance.
	if errs := exploit(revision1(start()), "move 25Pz V18 V14"); len(errs) != 0 {
		t.Errorf("revision 1: %v", errs)
	}
	// The count starts again at the side's next movement phase.
	st = resolve(t, start(), "move 25Pz V18 V14", nullDice{})
	for st.Turn == 2 {
		st = resolve(t, st, "", nullDice{})
	}
	if u := unit(t, st, "25Pz"); u.MPUsed != 0 {
		t.Errorf("T3: 25Pz still counts %d MP used", u.MPUsed)
	}
}

// 29B: "An infantry division cadre may be rebuilt ... at a cost of 2 REs."
// Revision 2 counts the 2nd Mountain Division's cadre as one: the pool of 4
// REs (8 half-REs) falls to 2 (4).
func TestRule29B_MountainDivisionCadreRebuilt(t *testing.T) {
	setup := func() *State {
		st := at(bare(t, "op1", "2Mtn@Trondheim"), 2, 0, "move")
		c := newCtx(st)
		c.b.Units[c.find("2Mtn")].Reduced = true
		return st
	}
	st := resolve(t, setup(), "rebuild 2Mtn", nullDice{})
	if u := unit(t, st, "2Mtn"); u.Reduced || st.Board.ReplHalfREs != 4 {
		t.Errorf("2Mtn rebuilt: reduced %v, pool %d half-REs, want whole and 4", u.Reduced, st.Board.ReplHalfREs)
	}
	if errs := parseErr(revision1(setup()), "rebuild 2Mtn"); len(errs) != 1 || errs[0].Rule != "29B" {
		t.Errorf("revision 1 rebuilt only type inf: %v", errs)
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

// motCost is the MP a motorized unit pays to enter h (data/tables.txt,
// without option 32B): clear and intermittent lake 1, rough and forest 3,
// mountain 6.
func motCost(h engine.Hex) int {
	return map[byte]int{'.': 1, 'i': 1, 'r': 3, 'f': 3, 'm': 6}[data.TerrainAt(h)]
}

// zocHexes returns, around a defended hex d, a hex z next to it and a hex
// beyond next to both (German-allowed, not mountain), and a hex start two
// from d next to z.
func zocHexes(t *testing.T, d engine.Hex) (z, beyond, start engine.Hex) {
	t.Helper()
	for _, n := range d.Neighbors() {
		if !allowed(German, n) {
			continue
		}
		for _, m := range n.Neighbors() {
			if allowed(German, m) && m.Distance(d) == 1 && data.TerrainAt(m) != 'm' {
				for _, s := range n.Neighbors() {
					if allowed(German, s) && s.Distance(d) == 2 {
						return n, m, s
					}
				}
			}
		}
	}
	t.Fatalf("no zone-of-control hexes around %s", d)
	return
}

// Zones of control of revision 2 (Europa, published): only divisions
// exert them, leaving one costs 2 MP more, moving straight from one enemy
// ZOC hex into another 3 more; a unit still stops on entering one
// (reconstructed). A move they forbid cites the zone-of-control rule (2),
// not the operational limits (3F), which a move out of the side's
// countries cites.
func TestRule2_ZonesOfControlOfRevision2(t *testing.T) {
	karlstad := hx(t, "Karlstad")
	z, beyond, start := zocHexes(t, karlstad)
	// 4Div, a division, holds Karlstad: entering its ZOC is allowed, moving
	// on through it is not.
	st := at(bare(t, "objective", "25Pz@"+start.String(), "4Div@Karlstad"), 2, 0, "move")
	if errs := parseErr(st, "move 25Pz "+z.String()); len(errs) != 0 {
		t.Errorf("entering a ZOC: %v", errs)
	}
	if errs := parseErr(st, "move 25Pz "+z.String()+" "+beyond.String()); len(errs) != 1 || errs[0].Rule != "2" || errs[0].Valid != "move 25Pz "+z.String() {
		t.Errorf("on through a ZOC: %v; want the move that stops there as the hint", errs)
	}
	// From z (in the ZOC) to beyond (in it too): its terrain + 3.
	st = at(bare(t, "objective", "25Pz@"+z.String(), "4Div@Karlstad"), 2, 0, "move")
	c := newCtx(st)
	if dist, _ := c.reach(unit(t, st, "25Pz"), z, 10); dist[beyond] != motCost(beyond)+3 {
		t.Errorf("ZOC to ZOC costs %d, want %d + 3", dist[beyond], motCost(beyond))
	}
	// I2, a regiment, exerts no ZOC: 25Pz moves past Karlstad.
	st = at(bare(t, "objective", "25Pz@"+start.String(), "I2@Karlstad"), 2, 0, "move")
	if errs := parseErr(st, "move 25Pz "+z.String()+" "+beyond.String()); len(errs) != 0 {
		t.Errorf("past a regiment: %v", errs)
	}
	// Para1 out of supply has 2 MP (5 halved): ZOC to ZOC costs at least
	// 1 + 3, and the way round leaves the ZOC (2 more) to come back: the
	// zones of control keep it from beyond, which it reaches without them.
	st = at(bare(t, "objective", "Para1@"+z.String(), "4Div@Karlstad"), 2, 0, "move")
	newCtx(st).b.Units[newCtx(st).find("Para1")].OOS = true
	errs := parseErr(st, "move Para1 "+beyond.String())
	if len(errs) != 1 || errs[0].Rule != "2" || !strings.Contains(errs[0].Msg, "zones of control") {
		t.Errorf("Para1 held by the ZOC: %v", errs)
	}
	st = at(bare(t, "objective", "I2@Karlstad"), 2, 1, "move")
	if errs := parseErr(st, "move I2 Kongsvinger"); len(errs) != 1 || errs[0].Rule != "3F" {
		t.Errorf("Allied unit into Norway: %v", errs)
	}
}

// A missing amphibious landing is an error of the orders as a whole: it
// names no line ("line 0" before).
func TestRule26A_MissingLandingNamesNoLine(t *testing.T) {
	errs := parseErr(newGame(t, "objective"), "land amph1 Q18")
	if len(errs) != 1 || errs[0].Rule != "26A" {
		t.Fatalf("%v", errs)
	}
	if got := errs[0].Error(); strings.Contains(got, "line 0") || !strings.HasPrefix(got, "the orders as a whole: Amph2 must land this phase") {
		t.Errorf("error reads %q", got)
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
