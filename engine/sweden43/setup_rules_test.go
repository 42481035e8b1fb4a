package sweden43

import (
	"testing"

	"skagerrak/engine"
)

// Rules tests of Rule 30, Preparing for Play (rulebook: seeds 004).

func TestRule30_SetUp(t *testing.T) {
	for _, sc := range (Ruleset{}).Scenarios() {
		st := newGame(t, sc.ID)
		ph := (Ruleset{}).Phase(st)
		want := "T1-german-move"
		if sc.ID == "ultra" {
			want = "T1-allied-move"
		}
		if ph.ID != want {
			t.Errorf("%s: first phase %s, want %s", sc.ID, ph.ID, want)
		}
		c := newCtx(st)
		for h, n := range c.stk {
			if n > data.Params["stack-half-res"] {
				t.Errorf("%s: stack of %d half-REs in %s", sc.ID, n, h)
			}
		}
		if c.owner(hx(t, "Oslo")) != German || c.owner(hx(t, "Copenhagen")) != German || c.owner(hx(t, "Stockholm")) != Allied {
			t.Errorf("%s: initial ownership", sc.ID)
		}
		for _, u := range st.Board.Units {
			if u.Status == OnMap && !allowed(u.Side, hx(t, u.Hex)) {
				t.Errorf("%s: %s set up in %s", sc.ID, u.ID, u.Hex)
			}
		}
	}
}

func TestRule30_DeploymentAlliedFirstThenGerman(t *testing.T) {
	for _, sc := range []string{"objective", "ultra"} {
		s, _ := Ruleset{}.New(engine.Setup{Scenario: sc}, nullDice{})
		st := s.(*State)
		if id := phaseOf(st).ID; id != "T0-allied-setup" {
			t.Fatalf("%s: first phase %s", sc, id)
		}
		if errs := parseErr(st, "place I1 Oslo"); len(errs) != 1 || errs[0].Rule != "30" {
			t.Fatalf("Allied unit placed in Norway: %v", errs)
		}
		if errs := parseErr(st, "place I1 Karlstad\nplace I5 Karlstad\nplace I6 Karlstad\nplace I7 Karlstad\nplace I9 Karlstad\nplace I15 Karlstad\nplace I17 Karlstad"); len(errs) != 2 || errs[0].Line != 6 {
			t.Fatalf("with I2 already in Karlstad, a sixth and seventh regiment break the 6-RE stacking limit: %v", errs)
		}
		st = resolve(t, st, "place I1 Karlstad\nbase F8 Goteborg", nullDice{})
		if u := unit(t, st, "I1"); u.Hex != hx(t, "Karlstad").String() {
			t.Fatalf("I1 at %s", u.Hex)
		}
		if id := phaseOf(st).ID; id != "T0-german-setup" {
			t.Fatalf("%s: second phase %s", sc, id)
		}
		if errs := parseErr(st, "place 25Pz Karlstad"); len(errs) != 1 || errs[0].Rule != "30" {
			t.Fatalf("German unit placed in Sweden: %v", errs)
		}
		st = resolve(t, st, "place 25Pz Kongsvinger", nullDice{})
		want := "T1-german-move"
		if sc == "ultra" {
			want = "T1-allied-move"
		}
		if id := phaseOf(st).ID; id != want {
			t.Fatalf("%s: after deployment %s, want %s", sc, id, want)
		}
	}
}
