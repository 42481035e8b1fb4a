package sweden43

import (
	"testing"

	"skagerrak/engine"
)

// Rules tests of Rule 7, Transportation Lines: railroads (rulebook: seeds
// 004).

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
