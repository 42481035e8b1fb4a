package sweden43

import "testing"

// Rules tests of Rule 15, Unit Breakdowns (rulebook: seeds 004).

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
