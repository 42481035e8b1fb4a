package picture

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func TestSheetPlacesPicturesInRows(t *testing.T) {
	red := color.RGBA{200, 0, 0, 255}
	blue := color.RGBA{0, 0, 200, 255}
	block := func(w, h int, c color.RGBA) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				img.SetRGBA(x, y, c)
			}
		}
		return img
	}
	rows := [][]*image.RGBA{{block(30, 20, red), nil, block(10, 40, blue)}, {block(25, 5, blue)}}
	b, err := Sheet(rows)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Sheet(rows)
	if !bytes.Equal(b, again) {
		t.Fatal("the same sheet gave different bytes")
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds(); got != image.Rect(0, 0, 40, 45) {
		t.Fatalf("sheet bounds %v, want 40x45", got)
	}
	at := func(x, y int) color.RGBA {
		r, g, bb, a := img.At(x, y).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bb >> 8), uint8(a >> 8)}
	}
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{{0, 0, red}, {29, 19, red}, {30, 0, blue}, {39, 39, blue}, {0, 25, paper}, {0, 40, blue}, {24, 44, blue}, {30, 44, paper}} {
		if got := at(c.x, c.y); got != c.want {
			t.Errorf("pixel %d,%d is %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if _, err := Sheet(nil); err == nil {
		t.Error("an empty sheet was drawn")
	}
}

func TestColNamesReplaceColumnNumbers(t *testing.T) {
	m := HexMap{Rows: 2, Cols: 3}
	plain, err := m.Image()
	if err != nil {
		t.Fatal(err)
	}
	m.ColNames = []string{"AC", "", "BD"}
	named, err := m.Image()
	if err != nil {
		t.Fatal(err)
	}
	if plain.Bounds() != named.Bounds() {
		t.Fatalf("column names changed the picture's size: %v and %v", plain.Bounds(), named.Bounds())
	}
	// The margin above column 1 differs (a name for a number); the hexes
	// themselves do not.
	c := m.Center(2, 1)
	diff := func(y0, y1 int) int {
		n := 0
		for y := y0; y < y1; y++ {
			for x := c.X - 12; x < c.X+12; x++ {
				if plain.RGBAAt(x, y) != named.RGBAAt(x, y) {
					n++
				}
			}
		}
		return n
	}
	if diff(c.Y-22-18, c.Y-22) == 0 {
		t.Error("the name of column 1 is not printed over it")
	}
	if diff(c.Y-10, c.Y+10) != 0 {
		t.Error("column names changed the hex itself")
	}
}
