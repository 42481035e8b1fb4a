package engine

import (
	"reflect"
	"testing"
)

// The revision list is built from the changes: revision 1 is the rules as
// first released, each later revision lists its changes in the order they
// are declared; a game has a change from the revision that brought it on.
func TestRevisionsOfChanges(t *testing.T) {
	a := Change{In: 2, Text: "8.25: no round limit"}
	b := Change{In: 2, Text: "3.1: the red border"}
	c := Change{In: 3, Text: "26A: the breakout roll"}
	got := RevisionsOf(a, b, c)
	want := []Revision{
		{N: 1, Changes: []string{"the rules as first released"}},
		{N: 2, Changes: []string{a.Text, b.Text}},
		{N: 3, Changes: []string{c.Text}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RevisionsOf = %+v, want %+v", got, want)
	}
	for _, tc := range []struct {
		recorded int
		has      []bool
	}{{0, []bool{false, false}}, {1, []bool{false, false}}, {2, []bool{true, false}}, {3, []bool{true, true}}} {
		r := RevOf(tc.recorded)
		if r.Has(a) != tc.has[0] || r.Has(c) != tc.has[1] {
			t.Errorf("revision %d (recorded %d): Has(rev 2 change) %v, Has(rev 3 change) %v; want %v", r, tc.recorded, r.Has(a), r.Has(c), tc.has)
		}
	}
	// A state records no revision for revision 1 (its digest is the one it
	// had before revisions existed), and its revision from 2 on.
	for rev, want := range map[Rev]int{1: 0, 2: 2, 3: 3} {
		if got := rev.Recorded(); got != want {
			t.Errorf("Rev(%d).Recorded() = %d, want %d", rev, got, want)
		}
	}
}
