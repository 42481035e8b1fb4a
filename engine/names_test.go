package engine

import (
	"strings"
	"testing"
)

func TestCutListCutsBetweenWholeNames(t *testing.T) {
	items := []string{"Bergen", "Trondheim", "Narvik", "Kristiansand"}
	// "Bergen, Trondheim" is 17 bytes; with " … and 2 more" (15 bytes,
	// the ellipsis is 3) it is 32; adding ", Narvik" would need 40 with
	// " … and 1 more".
	if got, want := CutList(items, 32), "Bergen, Trondheim … and 2 more"; got != want {
		t.Errorf("CutList = %q, want %q", got, want)
	}
	if got, want := CutList(items, 100), "Bergen, Trondheim, Narvik, Kristiansand"; got != want {
		t.Errorf("CutList = %q, want %q", got, want)
	}
	// The first name is always given, even if alone it is too long.
	if got, want := CutList(items, 5), "Bergen … and 3 more"; got != want {
		t.Errorf("CutList = %q, want %q", got, want)
	}
}

func TestFitListNeverCutsInsideAName(t *testing.T) {
	var names []string
	for i := 0; i < 40; i++ {
		names = append(names, "Trondheim")
	}
	s := strings.Join(names, ", ")
	got := FitList(s, 200)
	if len(got) > 200 {
		t.Fatalf("FitList gave %d bytes, want at most 200", len(got))
	}
	head, tail, ok := strings.Cut(got, " … and ")
	if !ok || !strings.HasSuffix(tail, " more") {
		t.Fatalf("FitList = %q, want a count of the names left out", got)
	}
	for _, n := range strings.Split(head, ", ") {
		if n != "Trondheim" {
			t.Fatalf("FitList cut inside a name: %q", n)
		}
	}
	if got := FitList("short, list", 200); got != "short, list" {
		t.Errorf("FitList changed a list that fits: %q", got)
	}
}

func TestEditDistanceCountsLettersWithoutCase(t *testing.T) {
	cases := []struct {
		a, b string
		d    int
	}{
		{"Narvik", "narvik", 0},
		{"Narvik", "Narvk", 1},  // one deletion
		{"Bergen", "Bregen", 2}, // a swap is two substitutions
		{"Åndalsnes", "Andalsnes", 1},
		{"", "abc", 3},
	}
	for _, c := range cases {
		if got := EditDistance(c.a, c.b); got != c.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestDidYouMeanOffersOnlyNearNames(t *testing.T) {
	cands := []string{"Glowworm", "Gurkha", "Renown", "Repulse"}
	if got := DidYouMean("glowrom", cands); len(got) != 1 || got[0] != "Glowworm" {
		t.Errorf("DidYouMean(glowrom) = %v, want [Glowworm] (distance 2)", got)
	}
	if got := DidYouMean("Warspite", cands); got != nil {
		t.Errorf("DidYouMean(Warspite) = %v, want nothing", got)
	}
	if got := Suggest("Renwn", cands); got != "did you mean Renown? (Glowworm, Gurkha, Renown, Repulse)" {
		t.Errorf("Suggest = %q", got)
	}
	if got := Suggest("Warspite", cands); got != "Glowworm, Gurkha, Renown, Repulse" {
		t.Errorf("Suggest = %q, want the whole list", got)
	}
}
