package replaypage

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"slices"
	"testing"
)

// testMap draws a 300x400 opaque picture, each row its own pattern,
// a band of `insert` rows at row 100 (which shifts every row below it),
// and a block of `marks` colours at (x, 250).
func testMap(t *testing.T, insert, x, marks int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 300, 400+insert))
	for y := 0; y < img.Rect.Dy(); y++ {
		src := y
		if y >= 100 && y < 100+insert {
			src = 1000 + y
		} else if y >= 100+insert {
			src = y - insert
		}
		for px := 0; px < 300; px++ {
			h := uint32(src*7919+px*104729) * 2654435761 // rows that do not compress away
			img.SetNRGBA(px, y, color.NRGBA{uint8(h >> 24), uint8(h>>16) & 0xf0, uint8(src / 3), 255})
		}
	}
	for i := range marks {
		img.SetNRGBA(x+i%40, 250+insert+i/40, color.NRGBA{uint8(i), uint8(i >> 8), 200, 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rebuild does what the page's script does: copies the runs of rows from
// the base rebuilt, then draws the stored picture's opaque pixels.
func rebuild(t *testing.T, fr []mapFrame, i int) *pixels {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(fr[i].PNG)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if fr[i].Base < 0 {
		r := img.Bounds()
		out := &pixels{w: r.Dx(), h: r.Dy(), pix: make([]uint32, r.Dx()*r.Dy())}
		draw(t, out, img, [4]int{0, 0, r.Dx(), r.Dy()}, 0)
		return out
	}
	out := &pixels{w: fr[i].W, h: fr[i].H, pix: make([]uint32, fr[i].W*fr[i].H)}
	base := rebuild(t, fr, fr[i].Base)
	for _, run := range fr[i].Rows {
		for k := range run[1] {
			copy(out.row(run[0]+k), base.row(run[2] + k)[:min(out.w, base.w)])
		}
	}
	sy := 0
	for _, pt := range fr[i].Patches {
		draw(t, out, img, pt, sy)
		sy += pt[3]
	}
	return out
}

// draw draws the patch pt of a map from rows sy on of img.
func draw(t *testing.T, out *pixels, img image.Image, pt [4]int, sy int) {
	t.Helper()
	for y := range pt[3] {
		for x := range pt[2] {
			switch v := pack(img.At(x, sy+y)); v & 0xff {
			case 0xff:
				out.row(pt[1] + y)[pt[0]+x] = v
			case 0:
			default:
				t.Fatalf("pixel (%d,%d) of a patch is neither opaque nor transparent: %08x", x, sy+y, v)
			}
		}
	}
}

// TestMapFramesRebuildEveryMapExactly stores a side's maps, each against
// the one before (rows moved down by a longer legend, a block of units
// changed, one with more than 256 new colours), and rebuilds each, pixel
// for pixel, as the page does; the stored maps after the first are each
// smaller than the map itself.
func TestMapFramesRebuildEveryMapExactly(t *testing.T) {
	maps := [][]byte{testMap(t, 0, 10, 0), testMap(t, 0, 50, 30), testMap(t, 14, 90, 80), testMap(t, 3, 200, 600)}
	fr, err := frames(maps, []int{-1, 0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range maps {
		want, err := decodePixels(m)
		if err != nil || want == nil {
			t.Fatalf("map %d: %v", i, err)
		}
		got := rebuild(t, fr, i)
		if got.w != want.w || got.h != want.h {
			t.Fatalf("map %d rebuilt is %dx%d, want %dx%d", i, got.w, got.h, want.w, want.h)
		}
		for k := range want.pix {
			if got.pix[k] != want.pix[k] {
				t.Fatalf("map %d: pixel (%d,%d) rebuilt %08x, want %08x", i, k%want.w, k/want.w, got.pix[k], want.pix[k])
			}
		}
		if i == 0 {
			if fr[i].Base != -1 {
				t.Errorf("the first map is stored against map %d", fr[i].Base)
			}
			continue
		}
		if fr[i].Base != i-1 {
			t.Errorf("map %d is stored against map %d, want %d", i, fr[i].Base, i-1)
		}
		if n := base64.StdEncoding.DecodedLen(len(fr[i].PNG)); n >= len(m) {
			t.Errorf("map %d stored takes %d bytes, the map itself %d", i, n, len(m))
		}
	}
	if want := [][4]int{{50, 250, 30, 1}}; !slices.Equal(fr[1].Patches, want) {
		t.Errorf("map 1 (30 pixels changed in row 250 from x=50) stores the parts %v, want %v", fr[1].Patches, want)
	}
	if len(fr[2].Rows) < 2 {
		t.Errorf("map 2 (14 rows inserted at row 100) copies %v, want the rows above and below the band", fr[2].Rows)
	}
}

// TestChainBasesStaysShort stores each side's map against the side's map
// before, and against the side's first every maxChain maps, so no map
// needs more than maxChain others rebuilt.
func TestChainBasesStaysShort(t *testing.T) {
	p := &Page{}
	for i := range 20 {
		p.Phases = append(p.Phases, Phase{Views: []View{{Side: "a", Map: 2 * i}, {Side: "b", Map: 2*i + 1}}, Whole: -1})
		p.Maps = append(p.Maps, nil, nil)
	}
	p.Phases = append(p.Phases, Phase{Views: []View{{Side: "a", Map: 38}, {Side: "b", Map: 39}}, Whole: -1}) // unchanged maps
	bases := p.chainBases()
	for m, b := range bases {
		depth := 0
		for k := b; k >= 0; k = bases[k] {
			if bases[k] >= 0 && k%2 != m%2 {
				t.Fatalf("map %d (side %d) is stored against map %d of the other side", m, m%2, k)
			}
			depth++
		}
		if depth > maxChain {
			t.Errorf("map %d needs %d maps rebuilt before it", m, depth)
		}
		if m < 2 && b != -1 || m >= 2 && b < 0 {
			t.Errorf("map %d is stored against %d", m, b)
		}
	}
	if bases[4] != 2 {
		t.Errorf("side a's third map is stored against %d, want its second (2)", bases[4])
	}
}
