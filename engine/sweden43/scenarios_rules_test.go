package sweden43

import "testing"

// Rules tests of Rule 33, Scenarios (rulebook: seeds 004).

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
