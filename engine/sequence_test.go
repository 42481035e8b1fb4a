package engine

import (
	"slices"
	"testing"
)

// A turn of three stages: the German's, the Allied's, and one both owe;
// the sequence says who owes orders in each and where the turn ends.
func TestSequence(t *testing.T) {
	q := Sequence{
		{Name: "air-german", Kind: "air", Owes: []Side{"german"}},
		{Name: "move", Phasing: true},
		{Name: "subs", Owes: []Side{"allied", "german"}},
		{Name: "defend"},
	}
	if i := q.Index("subs"); i != 2 {
		t.Errorf("Index(subs) = %d, want 2", i)
	}
	if i := q.Index("setup"); i != -1 {
		t.Errorf("Index(setup) = %d, want -1", i)
	}
	if k := q.Named("air-german").PhaseKind(); k != "air" {
		t.Errorf("kind of air-german = %q, want air", k)
	}
	if k := q.Named("move").PhaseKind(); k != "move" {
		t.Errorf("kind of move = %q, want its name", k)
	}
	for _, tc := range []struct {
		stage   string
		phasing Side
		want    []Side
	}{
		{"air-german", "allied", []Side{"german"}},
		{"move", "allied", []Side{"allied"}},
		{"subs", "german", []Side{"allied", "german"}},
		{"defend", "german", nil},
	} {
		if got := q.Named(tc.stage).Owing(tc.phasing); !slices.Equal(got, tc.want) {
			t.Errorf("%s with %s phasing owes %v, want %v", tc.stage, tc.phasing, got, tc.want)
		}
	}
	owes := q[2].Owing("german")
	owes[0] = "norwegian"
	if q[2].Owes[0] != "allied" {
		t.Error("changing what Owing returned changed the sequence")
	}
	if next, ends := q.After(1); next != 2 || ends {
		t.Errorf("After(1) = %d, %v; want 2, false", next, ends)
	}
	if next, ends := q.After(3); next != 0 || !ends {
		t.Errorf("After(3) = %d, %v; want 0, true", next, ends)
	}
}
