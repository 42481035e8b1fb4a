package kriegsmarine

import (
	"strings"
	"testing"
)

// Rules tests of chapter 7, Supply of Occupied Areas, of the rulebook
// (seeds 000): each outcome worked out by hand from the rule it cites.

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
