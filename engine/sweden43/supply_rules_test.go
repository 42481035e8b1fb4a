package sweden43

import (
	"testing"

	"skagerrak/engine"
)

// Rules tests of Rule 12, Supply (rulebook: seeds 004).

func TestRule12C1_GermanPortsAreSupplySources(t *testing.T) {
	st := bare(t, "objective", "181Inf@Trondheim")
	c := newCtx(st)
	full, restricted := c.supplySources(German)
	if !full[hx(t, "Trondheim")] || !full[hx(t, "Oslo")] || full[hx(t, "Hamar")] || full[hx(t, "Goteborg")] || len(restricted) != 0 {
		t.Fatal("German sources: any German-owned port of Norway or Sweden, nothing else")
	}
	st.Board.Owner[hx(t, "Goteborg").String()] = German
	c = newCtx(st)
	full, _ = c.supplySources(German)
	if !full[hx(t, "Goteborg")] || full[hx(t, "Aalborg")] {
		t.Fatal("a captured Swedish port is a German source; a Danish port is not")
	}
}

// isolate makes every Swedish hex within r of h German owned, except keep.
func isolate(st *State, h engine.Hex, r int, keep ...engine.Hex) {
	for _, x := range data.Grid.Within(h, r) {
		if data.CountryAt(x) != 'S' {
			continue
		}
		kept := false
		for _, k := range keep {
			kept = kept || k == x
		}
		if !kept {
			st.Board.Owner[x.String()] = German
		}
	}
}

func TestRule12C1_ConnectedCitiesExample(t *testing.T) {
	// "if Malmo (13A:1212) and Halsingborg (13A:1011) are connected, both
	// are supply sources for Allied units."
	malmo, hbg := hx(t, "13A:1212"), hx(t, "13A:1011")
	if malmo != hx(t, "Malmo") || hbg != hx(t, "Halsingborg") {
		t.Fatal("the Europa hex numbers of the text name the places")
	}
	st := bare(t, "objective")
	line := []engine.Hex{malmo, hx(t, "C9"), hx(t, "D8"), hbg}
	isolate(st, malmo, 12, line...)
	c := newCtx(st)
	full, _ := c.supplySources(Allied)
	if !full[malmo] || !full[hbg] {
		t.Fatal("Malmo and Halsingborg joined by rail through friendly hexes are both full sources")
	}
	st.Board.Owner["C9"] = German
	c = newCtx(st)
	full, restricted := c.supplySources(Allied)
	if full[malmo] || full[hbg] {
		t.Fatal("with the rail line cut neither is a full source")
	}
	found := false
	for _, r := range restricted {
		found = found || (r.Name == "Malmo" && r.Cap == 6)
	}
	if !found {
		t.Fatal("cut off, Malmo is a restricted source for 3 REs (12C2)")
	}
}

func TestRule12C1_ConnectionIgnoresZonesOfControl(t *testing.T) {
	malmo, hbg := hx(t, "Malmo"), hx(t, "Halsingborg")
	line := []engine.Hex{malmo, hx(t, "C9"), hx(t, "D8"), hbg}
	// a German unit next to the line (on German-owned ground) puts it in its ZOC
	var z engine.Hex
	for _, n := range hx(t, "C9").Neighbors() {
		if data.Land(n) && data.CountryAt(n) == 'S' && n != malmo && n != hbg && n != hx(t, "D8") {
			z = n
			break
		}
	}
	st := bare(t, "objective", "196Inf@"+z.String())
	isolate(st, malmo, 12, line...)
	c := newCtx(st)
	if !c.ezoc(Allied, hx(t, "C9")) {
		t.Fatal("test set-up: C9 should be in a German ZOC")
	}
	full, _ := c.supplySources(Allied)
	if !full[malmo] || !full[hbg] {
		t.Fatal("the rail connection needs only friendly-owned hexes (12C1)")
	}
}

func TestRule12C2_RestrictedSourceCapacity(t *testing.T) {
	st := bare(t, "objective", "I1@Stockholm", "I10@Stockholm", "K1@Stockholm", "A1@Stockholm", "I8@Stockholm", "I3@Stockholm")
	sth := hx(t, "Stockholm")
	isolate(st, sth, 9, sth)
	st = at(st, 1, 1, "move")
	c := newCtx(st)
	c.computeSupply(Allied)
	in := 0
	for _, u := range st.Board.Units {
		if u.Status == OnMap && !u.OOS {
			in++
			if u.Restricted != "Stockholm" {
				t.Errorf("%s supplied by %q", u.ID, u.Restricted)
			}
		}
	}
	if in != 5 {
		t.Fatalf("%d regiments supplied by isolated Stockholm, want 5 (5 REs, 12C2)", in)
	}
}

func TestRule12_OutOfSupplyHalves(t *testing.T) {
	clear, _ := findHex(t, '.')
	u := Unit{Type: "inf", Att: 7, Def: 7, Move: 6}
	c := newCtx(bare(t, "objective"))
	if allowance(u) != 6 || c.attackHalves(u, clear) != 14 {
		t.Fatal("in supply: full")
	}
	u.OOS = true
	if allowance(u) != 3 || c.attackHalves(u, clear) != 7 {
		t.Fatal("out of supply: movement and attack halved (" + recon + ")")
	}
}
