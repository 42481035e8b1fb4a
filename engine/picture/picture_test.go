package picture

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

var (
	sea    = color.RGBA{150, 190, 225, 255}
	land   = color.RGBA{150, 185, 120, 255}
	red    = color.RGBA{200, 30, 40, 255}
	yellow = color.RGBA{240, 200, 0, 255}
)

// sample is a small map with one of everything.
func sample() *HexMap {
	m := &HexMap{Rows: 6, Cols: 5, EvenRowsEast: true, Title: "Sample", Subtitle: "every kind of thing"}
	for r := 1; r <= 6; r++ {
		for c := 1; c <= 5; c++ {
			cell := Cell{Row: r, Col: c, Fill: sea}
			if c >= 4 {
				cell.Fill = land
			}
			m.Cells = append(m.Cells, cell)
		}
	}
	m.Cells[3].Hatch = color.RGBA{40, 90, 170, 255}
	m.Cells[8].Badges = []Badge{{ShapeRing, ink}, {ShapePlus, ink}}
	m.Cells[8].Label = "Port"
	for r := 1; r <= 6; r++ {
		m.Edges = append(m.Edges, Edge{A: Pos{r, 3}, B: Pos{r, 4}, Color: ink})
	}
	m.Lines = []Line{
		{Hexes: []Pos{{1, 1}, {2, 1}, {3, 2}}, Color: red, Arrow: true},
		{Hexes: []Pos{{5, 2}}, Color: yellow},
		{Hexes: []Pos{{6, 3}}, Color: yellow, Dashed: true},
	}
	m.Markers = []Marker{
		{Row: 4, Col: 2, Text: "3", Color: grey},
		{Row: 4, Col: 2, Text: "1", Color: red, Shape: ShapeDiamond},
		{Row: 4, Col: 2, Text: "", Color: yellow, Shape: ShapeCircle},
		{Row: 2, Col: 3, Color: red, Shape: ShapeBurst},
		{Row: 6, Col: 1, Text: "2", Color: yellow, Shape: ShapeTriangle},
	}
	m.Legend = []LegendItem{
		{Kind: LegendHeading, Text: "Legend"},
		{Kind: LegendCell, Text: "sea", Color: sea},
		{Kind: LegendCell, Text: "fjord", Color: land, Hatch: color.RGBA{40, 90, 170, 255}},
		{Kind: LegendEdge, Text: "coast", Color: ink},
		{Kind: LegendLine, Text: "move", Color: red},
		{Kind: LegendRing, Text: "search", Color: yellow},
		{Kind: LegendDashedRing, Text: "searched", Color: yellow},
		{Kind: LegendBadge, Text: "port", Shape: ShapeRing, Color: ink},
		{Kind: LegendMarker, Text: "ships", Sample: "3", Color: grey},
		{Kind: LegendMarker, Text: "contact", Shape: ShapeDiamond, Sample: "?", Color: red},
	}
	m.Notes = []string{"A note long enough to need wrapping onto a second line of the legend panel, at a space.", "", "Short."}
	return m
}

// keep writes a picture where SKAGERRAK_PICTURES says, or to a temporary
// directory, and returns the path.
func keep(t *testing.T, name string, b []byte) string {
	t.Helper()
	dir := os.Getenv("SKAGERRAK_PICTURES")
	if dir == "" {
		dir = t.TempDir()
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHexMapDeterministic(t *testing.T) {
	a, err := sample().PNG()
	if err != nil {
		t.Fatal(err)
	}
	b, err := sample().PNG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("the same map gave different bytes")
	}
	keep(t, "sample.png", a)
	img, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	want, _ := sample().Image()
	if img.Bounds() != want.Bounds() {
		t.Fatalf("decoded size %v, drawn %v", img.Bounds(), want.Bounds())
	}
	m := sample()
	m.Markers[0].Text = "4"
	c, _ := m.PNG()
	if bytes.Equal(a, c) {
		t.Fatal("changing a marker's text did not change the picture")
	}
}

func at(t *testing.T, m *HexMap, row, col int) color.RGBA {
	t.Helper()
	img, err := m.Image()
	if err != nil {
		t.Fatal(err)
	}
	p := m.Center(row, col)
	return img.RGBAAt(p.X, p.Y)
}

func TestHexMapCellFillsItsHex(t *testing.T) {
	m := sample()
	if got := at(t, m, 3, 1); got != sea {
		t.Errorf("centre of sea hex C1 is %v, want %v", got, sea)
	}
	if got := at(t, m, 3, 5); got != land {
		t.Errorf("centre of land hex C5 is %v, want %v", got, land)
	}
}

func TestHexMapMarkerInItsHex(t *testing.T) {
	m := &HexMap{Rows: 4, Cols: 4, EvenRowsEast: true, Cells: []Cell{{Row: 2, Col: 3, Fill: sea}},
		Markers: []Marker{{Row: 2, Col: 3, Color: red}}}
	if got := at(t, m, 2, 3); got != red {
		t.Errorf("centre of B3 under a lone marker is %v, want the marker's %v", got, red)
	}
	// Two markers side by side: neither covers the centre exactly, both
	// lie within the hex, west and east of the centre.
	m.Markers = append(m.Markers, Marker{Row: 2, Col: 3, Color: yellow})
	img, _ := m.Image()
	c := m.Center(2, 3)
	if got := img.RGBAAt(c.X-7, c.Y); got != red {
		t.Errorf("west of B3's centre is %v, want the first marker's %v", got, red)
	}
	if got := img.RGBAAt(c.X+7, c.Y); got != yellow {
		t.Errorf("east of B3's centre is %v, want the second marker's %v", got, yellow)
	}
}

func TestHexMapRowsAndShift(t *testing.T) {
	m := &HexMap{Rows: 4, Cols: 4, EvenRowsEast: true}
	a1, b1, a2 := m.Center(1, 1), m.Center(2, 1), m.Center(1, 2)
	if b1.Y >= a1.Y {
		t.Errorf("row B (y %d) is not above row A (y %d)", b1.Y, a1.Y)
	}
	if a2.X <= a1.X {
		t.Errorf("column 2 (x %d) is not east of column 1 (x %d)", a2.X, a1.X)
	}
	half := (a2.X - a1.X) / 2
	if d := b1.X - a1.X; d < half-1 || d > half+1 {
		t.Errorf("even rows east: B1 is %d px east of A1, want half a hex (%d)", d, half)
	}
	m.EvenRowsEast = false
	a1, b1 = m.Center(1, 1), m.Center(2, 1)
	if d := a1.X - b1.X; d < half-1 || d > half+1 {
		t.Errorf("odd rows east: A1 is %d px east of B1, want half a hex (%d)", d, half)
	}
}

func TestHexMapRejectsOffMap(t *testing.T) {
	for name, m := range map[string]*HexMap{
		"no rows":    {Rows: 0, Cols: 3},
		"cell off":   {Rows: 3, Cols: 3, Cells: []Cell{{Row: 4, Col: 1}}},
		"marker off": {Rows: 3, Cols: 3, Markers: []Marker{{Row: 1, Col: 0}}},
		"bad size":   {Rows: 3, Cols: 3, HexSize: -1},
	} {
		if _, err := m.PNG(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestRowName(t *testing.T) {
	for r, want := range map[int]string{1: "A", 26: "Z", 27: "AA", 32: "FF", 53: "AAA", 0: "?"} {
		if got := RowName(r); got != want {
			t.Errorf("RowName(%d) = %q, want %q", r, got, want)
		}
	}
}

func TestEdgeBetweenAdjacentHexesOnly(t *testing.T) {
	m := &HexMap{Rows: 4, Cols: 4, EvenRowsEast: true}
	l := m.layout()
	for _, d := range [][2]Pos{{{1, 1}, {1, 2}}, {{1, 1}, {2, 1}}, {{2, 1}, {3, 2}}, {{2, 2}, {1, 2}}, {{4, 4}, {5, 4}}} {
		if _, _, ok := l.sharedSide(d[0], d[1]); !ok {
			t.Errorf("%v and %v share no side", d[0], d[1])
		}
	}
	for _, d := range [][2]Pos{{{1, 1}, {1, 3}}, {{1, 2}, {2, 3}}, {{1, 1}, {3, 1}}} {
		if _, _, ok := l.sharedSide(d[0], d[1]); ok {
			t.Errorf("%v and %v are not adjacent but share a side", d[0], d[1])
		}
	}
}

func TestFillCoverage(t *testing.T) {
	cv := newCanvas(10, 10, white)
	// A square from (2.5, 2) to (6.5, 6): full pixels inside, half pixels
	// at the left and right columns.
	cv.fill(color.RGBA{0, 0, 0, 255}, rect(pt{px(2) + sub/2, px(2)}, pt{px(6) + sub/2, px(6)}))
	if got := cv.img.RGBAAt(4, 4); got != (color.RGBA{0, 0, 0, 255}) {
		t.Errorf("inside: %v", got)
	}
	if got := cv.img.RGBAAt(2, 4); got.R < 120 || got.R > 135 {
		t.Errorf("half-covered pixel: %v, want grey about 128", got)
	}
	if got := cv.img.RGBAAt(8, 4); got != white {
		t.Errorf("outside: %v", got)
	}
	// A hole inside a solid contour stays unpainted.
	cv = newCanvas(10, 10, white)
	cv.fill(color.RGBA{0, 0, 0, 255}, ring(pt{px(5), px(5)}, px(3), px(3), px(2))...)
	if got := cv.img.RGBAAt(5, 5); got != white {
		t.Errorf("centre of a ring: %v, want white", got)
	}
}

func TestAreaMap(t *testing.T) {
	m := &AreaMap{Width: 300, Height: 200, Title: "Areas",
		Areas: []Area{
			{ID: "osl", Label: "Oslo", X: 200, Y: 150, Fill: land},
			{ID: "brg", Label: "Bergen", X: 60, Y: 120, Fill: land, Border: red},
			{ID: "nsea", Label: "North Sea", X: 80, Y: 40, Fill: sea},
		},
		Links: []Link{{A: "osl", B: "brg", Color: ink}, {A: "brg", B: "nsea", Color: ink, Dashed: true}},
		Markers: []AreaMarker{
			{Area: "brg", Text: "2", Color: grey},
			{Area: "brg", Text: "?", Color: red, Shape: ShapeDiamond},
		},
		Legend: []LegendItem{{Kind: LegendMarker, Text: "own", Sample: "2", Color: grey}},
	}
	a, err := m.PNG()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.PNG()
	if !bytes.Equal(a, b) {
		t.Fatal("the same area map gave different bytes")
	}
	keep(t, "areas.png", a)
	img, _ := m.Image()
	// Oslo's box is filled in its colour beside its label.
	if got := img.RGBAAt(10+200-17, 44+150); got != land {
		t.Errorf("inside Oslo's box: %v, want %v", got, land)
	}
	m.Links = append(m.Links, Link{A: "osl", B: "nowhere"})
	if _, err := m.PNG(); err == nil {
		t.Error("a link to an unknown area gave no error")
	}
}

func TestTextSpellsNamesAsTheReportDoes(t *testing.T) {
	for in, want := range map[string]string{
		"Köln":           "Köln",
		"Blücher":        "Blücher",
		"Værnes":         "Værnes",
		"Åndalsnes":      "Åndalsnes",
		"Tromsø":         "Tromsø",
		"Straße":         "Strasse",
		"8 April — noon": "8 April - noon",
		"日本":             "??",
	} {
		if got := spell(in); got != want {
			t.Errorf("spell(%q) = %q, want %q", in, got, want)
		}
		if n := utf8.RuneCountInString(want); textWidth(in) != charW*n {
			t.Errorf("textWidth(%q) = %d, want %d", in, textWidth(in), charW*n)
		}
	}
}

func TestLabelsAvoidEachOther(t *testing.T) {
	// Two long labels in neighbouring hexes of one row: the second goes
	// above its hex, so both stay readable.
	m := &HexMap{Rows: 3, Cols: 3, EvenRowsEast: true,
		Cells: []Cell{{Row: 2, Col: 1, Label: "Trondheim", LabelColor: red}, {Row: 2, Col: 2, Label: "Vaernes", LabelColor: yellow}}}
	img, err := m.Image()
	if err != nil {
		t.Fatal(err)
	}
	c := m.Center(2, 2)
	above, below := false, false
	for y := c.Y - 30; y < c.Y+30; y++ {
		for x := c.X - 20; x < c.X+20; x++ {
			if img.RGBAAt(x, y) == yellow {
				if y < c.Y {
					above = true
				} else {
					below = true
				}
			}
		}
	}
	if !above || below {
		t.Errorf("second label: above the centre %v, below %v; want above only", above, below)
	}
}

func TestPaletteKeepsFewColoursExactly(t *testing.T) {
	cv := newCanvas(20, 10, white)
	cv.fill(red, rect(pt{0, 0}, pt{px(10), px(10)}))
	pal := paletted(cv.img)
	if len(pal.Palette) != 2 {
		t.Fatalf("%d palette colours, want 2", len(pal.Palette))
	}
	for _, p := range []image.Point{{2, 2}, {15, 5}} {
		got := color.RGBAModel.Convert(pal.At(p.X, p.Y)).(color.RGBA)
		if want := cv.img.RGBAAt(p.X, p.Y); got != want {
			t.Errorf("pixel %v: %v, want %v", p, got, want)
		}
	}
}

func TestPaletteTakesNearestForRareColours(t *testing.T) {
	// 300 colours: 256 reds twice each, white 44 times, and 44 rare
	// red-greens once each, which must take the nearest red.
	cv := newCanvas(300, 2, white)
	for x := 0; x < 300; x++ {
		if x < 256 {
			cv.img.SetRGBA(x, 0, color.RGBA{uint8(x), 0, 0, 255})
			cv.img.SetRGBA(x, 1, color.RGBA{uint8(x), 0, 0, 255})
		} else {
			cv.img.SetRGBA(x, 0, color.RGBA{uint8(x - 256), 40, 0, 255})
		}
	}
	pal := paletted(cv.img)
	if len(pal.Palette) != 256 {
		t.Fatalf("%d palette colours, want 256", len(pal.Palette))
	}
	at := func(x, y int) color.RGBA { return color.RGBAModel.Convert(pal.At(x, y)).(color.RGBA) }
	if got := at(290, 1); got != white {
		t.Errorf("the most frequent colour, white, became %v", got)
	}
	for x := 0; x < 255; x++ {
		if got, want := at(x, 1), (color.RGBA{uint8(x), 0, 0, 255}); got != want {
			t.Errorf("frequent colour at x %d: %v, want %v exactly", x, got, want)
		}
	}
	for x := 256; x < 300; x++ {
		if got, want := at(x, 0), (color.RGBA{uint8(x - 256), 0, 0, 255}); got != want {
			t.Errorf("rare colour at x %d: %v, want the nearest, %v", x, got, want)
		}
	}
	again := paletted(cv.img)
	if !bytes.Equal(pal.Pix, again.Pix) {
		t.Error("the palette image is not deterministic")
	}
}

// TestHexMapPixelsPinned pins the pixels of the sample map. The renderer
// uses integer arithmetic and a bitmap font only, so the pixels must be
// the same on every CPU architecture; a deliberate change of the drawing
// updates the digest here.
func TestHexMapPixelsPinned(t *testing.T) {
	img, err := sample().Image()
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%x", sha256.Sum256(img.Pix))
	const want = "3fc7cc21064b5ce55b8f5f9aedb2eebf6107b7831fcabe7289e5c6406d25a4fc"
	if got != want {
		t.Errorf("sample pixels digest %s, want %s", got, want)
	}
}

// TestPaletteIndexFindsTheNearest compares the palette index with a plain
// search over every colour of a palette of close and equal distances.
func TestPaletteIndexFindsTheNearest(t *testing.T) {
	var pal []uint32
	for i := uint32(0); i < 256; i++ {
		// Reds of few values, so that many colours share one, and
		// repeats, so that equal distances are common.
		pal = append(pal, (i*37%9*30)<<16|(i*11%7*40)<<8|(i*5%6*50))
	}
	x := newPaletteIndex(pal)
	for k := uint32(0); k < 1<<24; k += 4099 {
		if got, want := x.nearest(k), nearest(pal, k); got != want {
			t.Fatalf("colour %06x: index %d, want %d", k, got, want)
		}
	}
}
