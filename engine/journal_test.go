package engine

import (
	"slices"
	"testing"
)

type note struct {
	To   Side
	Text string
}

func (n note) SeenBy(side Side) bool { return SeenByOne(n.To, side) }

// A side sees, oldest first, the entries to every side and to itself, and
// none addressed to another side.
func TestJournalFor(t *testing.T) {
	var j Journal[note]
	j.Add(note{Text: "weather fair"})
	j.Add(note{To: "german", Text: "U-boat sighted"}).Text += " off Bergen"
	j.Add(note{To: "allied", Text: "convoy sailed"})
	j.Add(note{Text: "turn ends"})
	var german, allied []string
	for e := range j.For("german") {
		german = append(german, e.Text)
	}
	for e := range j.For("allied") {
		allied = append(allied, e.Text)
	}
	if want := []string{"weather fair", "U-boat sighted off Bergen", "turn ends"}; !slices.Equal(german, want) {
		t.Errorf("german sees %q, want %q", german, want)
	}
	if want := []string{"weather fair", "convoy sailed", "turn ends"}; !slices.Equal(allied, want) {
		t.Errorf("allied sees %q, want %q", allied, want)
	}
	for e := range j.For("german") {
		if e.Text != "weather fair" {
			t.Fatalf("stopping after the first entry gave %q", e.Text)
		}
		break
	}
}
