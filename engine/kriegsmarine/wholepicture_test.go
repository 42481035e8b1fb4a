package kriegsmarine

import (
	"bytes"
	"image/color"
	"image/png"
	"slices"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/picture"
)

// TestWholePictureShowsBothSidesForces: the fog-lifted map holds the
// forces each side's own map draws, the Allied then the German, each in
// its side's colour, and nothing of what only one side was told (enemy
// contacts, searches, fights).
func TestWholePictureShowsBothSidesForces(t *testing.T) {
	s := playTurnsForPicture(t, "whole-1", 4)
	own := func(side engine.Side, col color.RGBA) []picture.Marker {
		var out []picture.Marker
		for _, mk := range mapPicture(s.view(side), side).Markers {
			if mk.Color == col {
				out = append(out, mk)
			}
		}
		return out
	}
	want := append(own(Allied, picAllied), own(German, picGerman)...)
	m := wholeMap(s.view(Allied), s.view(German))
	if len(want) == 0 || !slices.Equal(m.Markers, want) {
		t.Errorf("the whole map's markers are %v, want both sides' own forces %v", m.Markers, want)
	}
	if slices.ContainsFunc(m.Lines, func(l picture.Line) bool { return l.Color != picTracked }) {
		t.Errorf("the whole map draws one side's searches or fights: %v", m.Lines)
	}
	b, err := Ruleset{}.PictureWhole(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("the whole map is not a PNG: %v", err)
	}
}
