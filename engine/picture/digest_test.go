package picture

import (
	"image/color"
	"testing"
)

// TestDigestLeavesOutCaptions: the digest of a map ignores its title,
// subtitle and the notes marked as captions, and changes with anything
// else drawn: a marker moved, a note that is no caption.
func TestDigestLeavesOutCaptions(t *testing.T) {
	red := color.RGBA{200, 0, 0, 255}
	hex := func() HexMap {
		return HexMap{Rows: 3, Cols: 3, Title: "Turn 1", Subtitle: "movement",
			Markers: []Marker{{Row: 1, Col: 1, Text: "1", Color: red}},
			Notes:   []string{"Orders owed by: German.", "Your hand: none."}, Captions: 1}
	}
	area := func() AreaMap {
		return AreaMap{Width: 100, Height: 100, Title: "Turn 1", Subtitle: "movement",
			Areas:   []Area{{ID: "a", X: 50, Y: 50}},
			Markers: []AreaMarker{{Area: "a", Text: "1", Color: red}},
			Notes:   []string{"Orders owed by: German.", "Your hand: none."}, Captions: 1}
	}
	h0, a0 := hex(), area()
	same := func(what string, h HexMap, a AreaMap, want bool) {
		t.Helper()
		if got := h.Digest() == h0.Digest(); got != want {
			t.Errorf("hex map, %s: same digest %v, want %v", what, got, want)
		}
		if got := a.Digest() == a0.Digest(); got != want {
			t.Errorf("area map, %s: same digest %v, want %v", what, got, want)
		}
	}
	h, a := hex(), area()
	same("unchanged", h, a, true)
	h.Title, h.Subtitle, h.Notes[0] = "Turn 2", "combat", "Orders owed by: Allied."
	a.Title, a.Subtitle, a.Notes[0] = "Turn 2", "combat", "Orders owed by: Allied."
	same("new captions", h, a, true)
	h, a = hex(), area()
	h.Notes[1], a.Notes[1] = "Your hand: Ubåt.", "Your hand: Ubåt."
	same("a note that is no caption", h, a, false)
	h, a = hex(), area()
	h.Markers[0].Col, a.Markers[0].Text = 2, "2"
	same("a marker changed", h, a, false)
	h, a = hex(), area()
	h.Captions, a.Captions = 5, -1
	h.Notes, a.Notes = nil, nil
	h.Digest() // captions beyond the notes: no panic
	a.Digest()
	if hex().Digest() == (HexMap{}).Digest() {
		t.Error("a map with markers has the digest of an empty one")
	}
}
