package sweden43

import "testing"

// Rules tests of Rule 29, Reinforcements and Replacements (rulebook: seeds
// 004).

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
