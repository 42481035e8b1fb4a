package kriegsmarine

import (
	"strings"
	"testing"
)

// TestRule6_301_SearchingIsNeverMandatory: 6.301 "Searching is never
// mandatory. (An air search need not use all 3 hexes, and a surface ship
// search opportunity may be given up at will.)" By day Hipper and Penelope
// share K8; neither searches it, the Allies air-search one hex only, Q12.
// The orders are valid, no encounter is made (6.4: only a surface or
// submarine search gives one) and no die is rolled. Hipper stopping within
// 3 hexes of Scotland is still reported by number (6.37), which is no
// encounter either.
func TestRule6_301_SearchingIsNeverMandatory(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	s.Turn = 2
	put(t, s, "hipper", "K8")
	put(t, s, "penelope", "K8")
	s, _ = resolveExactly(t, s, "search air Q12", "")
	if len(s.Engagements) != 0 || len(s.Tracks) != 0 {
		t.Fatalf("engagements %+v, tracks %+v without a surface search", s.Engagements, s.Tracks)
	}
	for _, e := range s.Log {
		if e.Turn == 2 && e.Kind == "encounter" {
			t.Errorf("an encounter without a surface search: %q", e.Text)
		}
	}
	if logWith(s, 2, "Air search of Q12") == nil || logWith(s, 2, "Passive report", "K8") == nil {
		t.Errorf("the air search of Q12 and the passive report of K8 are missing: %+v", reportsTo(s, Allied, 2))
	}
}

// TestRule7_0_NoSupplyWithoutTheOilerOption: 7.0 "in principle units do not
// need to consider supply"; the oilers' supply of 13.1-13.3 is part of the
// optional 13.0. Without option oiler-supply DD Flot I, already 14 hexes
// north of row S, moves 3 more in rows V-Y and stays afloat, and nothing
// counts them; S-boats may go north of row S too.
func TestRule7_0_NoSupplyWithoutTheOilerOption(t *testing.T) {
	s := newGame(t, nil)
	clearMap(s)
	put(t, s, "ddfloti", "U12")
	put(t, s, "sboatfloti", "S10")
	s.unit("ddfloti").North = 14
	path := shortestPath(hex(t, "U12"), hex(t, "Z12"), moveOK(German, "DE", false, 1, 0))
	var three []string
	for _, h := range path[:3] {
		if h.Row < RowS {
			t.Fatalf("path %v leaves rows S and north", path)
		}
		three = append(three, h.String())
	}
	s, _ = resolveExactly(t, s, "", "move DD Flot I "+strings.Join(three, " ")+"\nmove S-Boat Flot I T10")
	if u := s.unit("ddfloti"); u.Where != AtMap || u.North != 14 {
		t.Errorf("DD Flot I %+v: without the option it needs no supply", u)
	}
	if u := s.unit("sboatfloti"); u.Hex != hex(t, "T10") {
		t.Errorf("S-Boat Flot I at %s, want T10", u.Hex)
	}
}
