package sweden43

import (
	"strings"
	"testing"

	"skagerrak/engine"
)

// Rules tests of Rule 2, Game Components: the Balkan Front rules it adopts
// (turn sequence, exploitation, zones of control) and its dice (rulebook:
// seeds 004).

func TestRule2_TenSidedDice(t *testing.T) {
	d := &seqDice{vals: []int{4, 5}}
	if got := percentile(d, "x"); got != 34 {
		t.Fatalf("percentile of faces 4 and 5 = %d, want 34 (the 00-90 die reads 30, the 0-9 die 4)", got)
	}
	if d.asked[0] != 10 || d.asked[1] != 10 {
		t.Fatalf("dice asked %v, want two ten-sided dice", d.asked)
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
