package sweden43

import "testing"

// Rules tests of Rule 32, Optional Rules: additional terrain types
// (rulebook: seeds 004).

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
