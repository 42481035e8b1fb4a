package norway1940

import (
	"bytes"
	"image/png"
	"slices"
	"testing"

	"skagerrak/engine/picture"
)

// TestWholePictureShowsEveryForce: after a few turns, the fog-lifted map
// holds every German land marker of the German map (squares), every
// Allied land marker of the Allied map (as diamonds, in the same areas
// with the same counts), and every fleet of both sides under its own name,
// none of them an undetected marker.
func TestWholePictureShowsEveryForce(t *testing.T) {
	s := playPhasesForPicture(t, "whole-1", 12)[12]
	german, allied := viewOf(s, German), viewOf(s, Allied)
	whole := wholeMap(german, allied)
	has := func(want picture.AreaMarker) bool { return slices.Contains(whole.Markers, want) }
	checked := 0
	for _, x := range []struct {
		v    *View
		diam bool
	}{{german, false}, {allied, true}} {
		for _, mk := range mapPicture(x.v, x.v.Side).Markers {
			if mk.Shape != picture.ShapeBox || isFleetMarker(mk.Text) {
				continue // the enemy as the side knows him; fleets below
			}
			if x.diam {
				mk.Shape = picture.ShapeDiamond
			}
			if !has(mk) {
				t.Errorf("the whole map lacks the %s marker %+v", x.v.Side, mk)
			}
			checked++
		}
		for _, f := range x.v.Fleets {
			if _, ok := spots[f.Where]; ok && f.Side == x.v.Side && !slices.ContainsFunc(whole.Markers, func(m picture.AreaMarker) bool { return m.Text == f.ID && m.Area == f.Where }) {
				t.Errorf("the whole map lacks the %s fleet %s at %s", f.Side, f.ID, f.Where)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no land marker to check")
	}
	for _, mk := range whole.Markers {
		if mk.Color == picFleetUnd {
			t.Errorf("the whole map shows an undetected fleet marker %+v", mk)
		}
	}
	b, err := Ruleset{}.PictureWhole(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("the whole map is not a PNG: %v", err)
	}
}
