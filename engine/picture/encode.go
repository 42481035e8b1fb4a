package picture

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"
	"sync"
)

// encoder writes every picture: the fastest compression level (at a
// deadline the reports of every game are drawn at once, and the fastest
// level takes a quarter of the default's time for a file about a quarter
// larger: a 1184x1696 map, 20 against 75 ms, 151 against 122 KB), its
// compressor's buffers kept for the next picture.
var encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	e, _ := b.p.Get().(*png.EncoderBuffer)
	return e
}

func (b *bufferPool) Put(e *png.EncoderBuffer) { b.p.Put(e) }

// indexPool keeps the pixel buffers of paletted pictures between encodes.
var indexPool sync.Pool

// encode writes img as PNG; the encoder is deterministic. The picture is
// written with a palette of its 256 most frequent colours, which keeps the
// file small (a map has large flat areas); any other colour, found only
// along anti-aliased edges, takes the nearest colour of the palette.
func encode(img *image.RGBA) ([]byte, error) {
	var b bytes.Buffer
	p := paletted(img)
	err := encoder.Encode(&b, p)
	indexPool.Put(&p.Pix)
	if err != nil {
		return nil, errors.Join(errors.New("picture: encoding PNG"), err)
	}
	return b.Bytes(), nil
}

// paletted returns img with at most 256 colours, chosen deterministically:
// the most frequent first, ties broken by the colour's value.
func paletted(img *image.RGBA) *image.Paletted {
	pix := img.Pix
	t := countColours(pix)
	keys := mostFrequent(&t, 256)
	// The table now maps each colour to its palette index, -1 until the
	// nearest is looked up.
	for i := range t.vals {
		t.vals[i] = -1
	}
	pal := make(color.Palette, len(keys))
	for i, k := range keys {
		pal[i] = color.RGBA{uint8(k >> 16), uint8(k >> 8), uint8(k), 255}
		*t.slot(k) = i
	}
	near := newPaletteIndex(keys)
	out := &image.Paletted{Pix: indexBuffer(len(pix) / 4), Stride: img.Rect.Dx(), Rect: img.Rect, Palette: pal}
	idx := out.Pix
	last := uint32(emptyKey) // no pixel
	var n uint8
	for i, j := 0, 0; j < len(idx); i, j = i+4, j+1 {
		if w := binary.LittleEndian.Uint32(pix[i:]) & 0xffffff; w != last {
			k := rgb(w)
			v := t.slot(k)
			if *v < 0 {
				*v = int(near.nearest(k))
			}
			n, last = uint8(*v), w
		}
		idx[j] = n
	}
	return out
}

// countColours counts the pixels of each colour of pix (RGBA). Runs of one
// colour are counted at once (a map is mostly flat); each pixel is compared
// as it lies in memory (R, G, B, A from the lowest byte), alpha left out.
func countColours(pix []uint8) colourTable {
	var t colourTable
	last := uint32(emptyKey)
	run := 0
	for i := 0; i+4 <= len(pix); i += 4 {
		if w := binary.LittleEndian.Uint32(pix[i:]) & 0xffffff; w != last {
			if run > 0 {
				*t.slot(rgb(last)) += run
			}
			last, run = w, 0
		}
		run++
	}
	if run > 0 {
		*t.slot(rgb(last)) += run
	}
	return t
}

// mostFrequent returns the n most frequent colours of t, the most frequent
// first and equals by value. Only the colours at least as frequent as the
// n-th are sorted: most colours of a picture are a few pixels along edges.
func mostFrequent(t *colourTable, n int) []uint32 {
	type kc struct {
		key uint32
		n   int
	}
	// The n-th largest count, from a histogram of counts up to a cap.
	const capped = 1024
	var hist [capped + 1]int
	for i, k := range t.keys {
		if k != emptyKey {
			hist[min(t.vals[i], capped)]++
		}
	}
	least, seen := 0, 0
	for c := capped; c >= 0 && seen < n; c-- {
		seen += hist[c]
		least = c
	}
	var top []kc
	for i, k := range t.keys {
		if k != emptyKey && t.vals[i] >= least {
			top = append(top, kc{k, t.vals[i]})
		}
	}
	slices.SortFunc(top, func(a, b kc) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	keys := make([]uint32, 0, min(len(top), n))
	for _, e := range top[:min(len(top), n)] {
		keys = append(keys, e.key)
	}
	return keys
}

// rgb turns a pixel read as a little-endian word (alpha left out) into its
// colour key, 0xRRGGBB.
func rgb(w uint32) uint32 { return w&0xff<<16 | w&0xff00 | w>>16&0xff }

// indexBuffer returns n bytes for a paletted picture's pixels, every one
// of which the caller sets.
func indexBuffer(n int) []uint8 {
	if b, ok := indexPool.Get().(*[]uint8); ok && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]uint8, n)
}

// emptyKey marks a free slot of a colourTable (a colour key has 24 bits).
const emptyKey = math.MaxUint32

// colourTable is a hash table from a colour (0xRRGGBB) to an int, cheaper
// than a Go map for the millions of look-ups of a picture.
type colourTable struct {
	keys []uint32
	vals []int
	n    int
}

// slot returns the value of key k, adding it (at 0) if new.
func (t *colourTable) slot(k uint32) *int {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := uint32(len(t.keys) - 1)
	for i := (k * 0x9E3779B1) >> 8 & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return &t.vals[i]
		case emptyKey:
			t.keys[i] = k
			t.n++
			return &t.vals[i]
		}
	}
}

func (t *colourTable) grow() {
	old, oldVals := t.keys, t.vals
	size := max(2*len(old), 1024)
	t.keys, t.vals, t.n = make([]uint32, size), make([]int, size), 0
	for i := range t.keys {
		t.keys[i] = emptyKey
	}
	for i, k := range old {
		if k != emptyKey {
			*t.slot(k) = oldVals[i]
		}
	}
}

// nearest returns the index of the palette colour closest to k (squared
// distance in RGB; the first of equals).
func nearest(pal []uint32, k uint32) uint8 {
	best, bestD := 0, math.MaxInt
	r, g, b := int(k>>16), int(k>>8&0xff), int(k&0xff)
	for i, p := range pal {
		dr, dg, db := r-int(p>>16), g-int(p>>8&0xff), b-int(p&0xff)
		if d := dr*dr + dg*dg + db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}

// paletteIndex finds the nearest colour of a palette as nearest does, but
// looks only at the colours whose red alone is near enough.
type paletteIndex []paletteEntry

type paletteEntry struct {
	r, g, b int
	i       int // index in the palette
}

func newPaletteIndex(pal []uint32) paletteIndex {
	x := make(paletteIndex, len(pal))
	for i, p := range pal {
		x[i] = paletteEntry{int(p >> 16), int(p >> 8 & 0xff), int(p & 0xff), i}
	}
	slices.SortFunc(x, func(a, b paletteEntry) int { return cmp.Or(cmp.Compare(a.r, b.r), cmp.Compare(a.i, b.i)) })
	return x
}

// nearest returns what nearest(pal, k) does: the least distance, and of
// equals the least index.
func (x paletteIndex) nearest(k uint32) uint8 {
	r, g, b := int(k>>16), int(k>>8&0xff), int(k&0xff)
	best, bestD := len(x), math.MaxInt
	try := func(e paletteEntry) {
		dr, dg, db := r-e.r, g-e.g, b-e.b
		if d := dr*dr + dg*dg + db*db; d < bestD || (d == bestD && e.i < best) {
			best, bestD = e.i, d
		}
	}
	at, _ := slices.BinarySearchFunc(x, r, func(e paletteEntry, r int) int { return cmp.Compare(e.r, r) })
	// Outwards from the colours of k's red, as long as the difference in
	// red alone is no more than the best distance yet.
	for j := at; j < len(x) && (x[j].r-r)*(x[j].r-r) <= bestD; j++ {
		try(x[j])
	}
	for j := at - 1; j >= 0 && (r-x[j].r)*(r-x[j].r) <= bestD; j-- {
		try(x[j])
	}
	return uint8(best)
}
