package picture

import (
	"bytes"
	"image"
	"image/color"
	"testing"
)

// outlinedAreaMap is a small area map with one of each thing the area map draws
// besides areas, links and markers.
func outlinedAreaMap() *AreaMap {
	return &AreaMap{Width: 300, Height: 200, Title: "Outlines",
		Outlines: []Outline{
			{Points: []image.Point{{0, 100}, {150, 100}, {150, 200}, {0, 200}}, Fill: land, Line: ink},
			{Points: []image.Point{{0, 50}, {300, 50}}, Open: true, Dashed: true, Line: red, Width: 2},
		},
		Texts: []Text{{X: 230, Y: 150, Text: "SEA", Color: red, Bold: true, Halo: white}},
		Areas: []Area{
			{ID: "a", Label: "Alpha", X: 50, Y: 150, Fill: white, Badges: []Badge{{Shape: ShapePlus, Color: red}, {Shape: ShapeRing, Color: ink}}},
			{ID: "b", Label: "Bravo", X: 250, Y: 20, Fill: white},
		},
		Links: []Link{{A: "a", B: "b", Color: ink, Width: 4, Ticks: yellow}},
		Legend: []LegendItem{
			{Kind: LegendLink, Text: "railway", Color: ink, Width: 4, Ticks: yellow},
			{Kind: LegendLink, Text: "path", Color: red, Dashed: true},
			{Kind: LegendArea, Text: "held", Color: land, Border: red},
		},
	}
}

// count returns the number of pixels in r within 40 of c in each channel
// (thin strokes are anti-aliased).
func count(img *image.RGBA, r image.Rectangle, c color.RGBA) int {
	near := func(a, b uint8) bool { return int(a)-int(b) <= 40 && int(b)-int(a) <= 40 }
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := img.RGBAAt(x, y)
			if near(p.R, c.R) && near(p.G, c.G) && near(p.B, c.B) {
				n++
			}
		}
	}
	return n
}

func TestAreaMapOutlinesTextsBadgesTicks(t *testing.T) {
	m := outlinedAreaMap()
	a, err := m.PNG()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.PNG()
	if !bytes.Equal(a, b) {
		t.Fatal("the same area map gave different bytes")
	}
	keep(t, "outlines.png", a)
	img, _ := m.Image()
	const left, top = 10, titleH // where the map's 0,0 is drawn
	// The filled outline covers its polygon and not beyond.
	if got := img.RGBAAt(left+120, top+110); got != land {
		t.Errorf("inside the filled outline: %v, want %v", got, land)
	}
	if got := img.RGBAAt(left+200, top+110); got == land {
		t.Errorf("outside the filled outline: %v, the outline's colour", got)
	}
	// The open outline is stroked in dashes along y = 50, and not closed.
	if n := count(img, image.Rect(left, top+49, left+300, top+52), red); n < 100 || n > 600 {
		t.Errorf("dashed line: %d red pixels along it, want dashes over about half of 300 pixels", n)
	}
	// The text is drawn in its colour round its centre.
	if n := count(img, image.Rect(left+215, top+140, left+245, top+160), red); n == 0 {
		t.Error("no text where the text is centred")
	}
	// The badges lie in a row above Alpha's box: a red plus left of the
	// centre line.
	if n := count(img, image.Rect(left+40, top+128, left+50, top+140), red); n == 0 {
		t.Error("no badge above Alpha's box")
	}
	// The railway ticks: yellow dashes along the link between the boxes.
	if n := count(img, image.Rect(left+100, top+20, left+230, top+140), yellow); n == 0 {
		t.Error("no ticks along the link")
	}
	// Legend samples are drawn: the tick colour and the area border appear
	// in the legend panel.
	panel := image.Rect(left+300+20, top, img.Bounds().Max.X, img.Bounds().Max.Y)
	if count(img, panel, yellow) == 0 || count(img, panel, red) == 0 {
		t.Error("legend link or area samples missing")
	}
}

func TestAreaMapRejectsOutlineOffTheMap(t *testing.T) {
	m := outlinedAreaMap()
	m.Outlines = append(m.Outlines, Outline{Points: []image.Point{{0, 0}, {301, 0}, {0, 10}}, Fill: red})
	if _, err := m.Image(); err == nil {
		t.Error("an outline off the map gave no error")
	}
}
