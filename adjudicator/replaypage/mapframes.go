package replaypage

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"slices"
)

// A map of a phase differs from the same side's map of the phase before
// in a few places (units moved, a caption, a legend line longer, which
// shifts everything below it), so the page stores most maps as rows of an
// earlier one plus the parts with pixels that changed, in one picture.
// The page's script rebuilds each map on a canvas, exactly: it copies the
// rows, then draws the parts over them (every pixel the rows gave is
// transparent in them). A part is as small as the changes: decoding it is
// most of the time a step takes.

// mapFrame is one map as the page stores it.
type mapFrame struct {
	// Base is the index of the map whose rows this one copies; -1 when it
	// copies none (PNG is then the whole map).
	Base int `json:"b"`
	// W and H are the map's size, where it has a Base.
	W int `json:"w,omitempty"`
	H int `json:"h,omitempty"`
	// Rows are runs of copied rows: {y, n, from}: n rows of Base from row
	// from are this map's rows from y.
	Rows [][3]int `json:"r,omitempty"`
	// Patches are the parts of the map with pixels not copied, {x, y, w,
	// h}, drawn one below the other in PNG, the copied pixels transparent.
	Patches [][4]int `json:"c,omitempty"`
	// PNG is base64: the whole map where it has no Base, else its patches.
	PNG string `json:"p"`
}

// maxChain is the most maps the page decodes to show one: every
// maxChain-th map of a side is stored against the side's first, not the
// one before, so that jumping to a phase stays quick.
const maxChain = 8

// frames stores maps for the page: each against the same side's map
// before it (bases[i] is that map's index, -1 for none).
func frames(maps [][]byte, bases []int) ([]mapFrame, error) {
	out := make([]mapFrame, len(maps))
	pix := make([]*pixels, len(maps))
	lastUse := make([]int, len(maps)) // the last map that copies from each
	for i, b := range bases {
		lastUse[i] = i
		if b >= 0 {
			lastUse[b] = i
		}
	}
	for i, m := range maps {
		for j := range i { // the pictures no map after this one copies from
			if lastUse[j] < i {
				pix[j] = nil
			}
		}
		out[i] = mapFrame{Base: -1, PNG: base64.StdEncoding.EncodeToString(m)}
		if lastUse[i] == i && bases[i] < 0 {
			continue
		}
		p, err := decodePixels(m)
		if err != nil {
			return nil, fmt.Errorf("replay: map %d: %w", i, err)
		}
		pix[i] = p
		b := bases[i]
		if b < 0 || p == nil || pix[b] == nil || pix[b].w != p.w {
			continue
		}
		rows := matchRows(p, pix[b])
		patches := changed(p, pix[b], rows)
		over, err := sheet(p, pix[b], rows, patches)
		if err != nil {
			return nil, fmt.Errorf("replay: map %d: %w", i, err)
		}
		if len(over) < len(m) {
			out[i] = mapFrame{Base: b, W: p.w, H: p.h, Rows: runs(rows), Patches: patches, PNG: base64.StdEncoding.EncodeToString(over)}
		}
	}
	return out, nil
}

// chainBases picks the base of each map: the map the same side was shown
// before it, or the side's first every maxChain maps.
func (p *Page) chainBases() []int {
	bases := make([]int, len(p.Maps))
	for i := range bases {
		bases[i] = -1
	}
	depth := make([]int, len(p.Maps))
	seen := make([]bool, len(p.Maps))
	last, first := map[string]int{}, map[string]int{}
	for _, ph := range p.Phases {
		views := ph.Views
		if ph.Whole >= 0 {
			views = append([]View{{Side: "\x00whole", Map: ph.Whole}}, views...)
		}
		for _, v := range views {
			m, key := v.Map, string(v.Side)
			if m < 0 {
				continue
			}
			if !seen[m] {
				seen[m] = true
				if b, ok := last[key]; ok && b < m {
					if depth[b]+1 >= maxChain {
						b = first[key]
					}
					bases[m], depth[m] = b, depth[b]+1
				} else {
					first[key] = m
				}
			}
			last[key] = m
		}
	}
	return bases
}

// pixels is a picture as packed RGBA, row after row; nil for one that is
// not opaque throughout (the page could not rebuild it exactly).
type pixels struct {
	w, h int
	pix  []uint32
}

func (p *pixels) row(y int) []uint32 { return p.pix[y*p.w : (y+1)*p.w] }

func decodePixels(b []byte) (*pixels, error) {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	r := img.Bounds()
	p := &pixels{w: r.Dx(), h: r.Dy(), pix: make([]uint32, r.Dx()*r.Dy())}
	if pal, ok := img.(*image.Paletted); ok {
		lut := make([]uint32, 256)
		for i, c := range pal.Palette {
			lut[i] = pack(c)
		}
		for y := 0; y < p.h; y++ {
			for x, ix := range pal.Pix[y*pal.Stride : y*pal.Stride+p.w] {
				p.pix[y*p.w+x] = lut[ix]
			}
		}
	} else {
		for y := 0; y < p.h; y++ {
			for x := 0; x < p.w; x++ {
				p.pix[y*p.w+x] = pack(img.At(r.Min.X+x, r.Min.Y+y))
			}
		}
	}
	for _, v := range p.pix {
		if v&0xff != 0xff {
			return nil, nil
		}
	}
	return p, nil
}

func pack(c color.Color) uint32 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return uint32(n.R)<<24 | uint32(n.G)<<16 | uint32(n.B)<<8 | uint32(n.A)
}

// segment is the width of the pieces of a row looked up in the base to
// find where a row moved to.
const segment = 64

// matchRows returns, for each row of p, the row of base it copies most
// pixels from (-1 for none): the row the one before it matched, moved by
// the same offset, unless another, found by pieces of the row identical
// in both, matches more.
func matchRows(p, base *pixels) []int {
	var index []map[uint64][]int
	out := make([]int, p.h)
	shift := 0
	var cands []int
	for y := range out {
		best, bestN := -1, 0
		if by := y + shift; by >= 0 && by < base.h {
			best, bestN = by, same(p.row(y), base.row(by))
		}
		if bestN < p.w {
			if index == nil {
				index = segmentIndex(base)
			}
			cands = cands[:0]
			for s := 0; s*segment < p.w; s++ {
				rows := index[s][hashRow(p.row(y)[s*segment:min(p.w, (s+1)*segment)])]
				if len(rows) <= 16 { // a flat piece matches everywhere: no clue
					cands = append(cands, rows...)
				}
			}
			slices.Sort(cands)
			for _, by := range slices.Compact(cands) {
				if n := same(p.row(y), base.row(by)); n > bestN {
					best, bestN = by, n
				}
			}
		}
		if bestN == 0 {
			best = -1
		}
		out[y] = best
		if best >= 0 {
			shift = best - y
		}
	}
	return out
}

func segmentIndex(base *pixels) []map[uint64][]int {
	index := make([]map[uint64][]int, (base.w+segment-1)/segment)
	for s := range index {
		index[s] = map[uint64][]int{}
		for y := 0; y < base.h; y++ {
			h := hashRow(base.row(y)[s*segment : min(base.w, (s+1)*segment)])
			index[s][h] = append(index[s][h], y)
		}
	}
	return index
}

// hashRow is FNV-1a over the pixels.
func hashRow(r []uint32) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range r {
		h = (h ^ uint64(v)) * 1099511628211
	}
	return h
}

func same(a, b []uint32) int {
	if slices.Equal(a, b) {
		return len(a)
	}
	n := 0
	for i, v := range a {
		if v == b[i] {
			n++
		}
	}
	return n
}

// changed returns the patches of p that the copied rows do not give:
// bands of rows with a changed pixel (a few unchanged rows between two
// changed ones join them), each as wide as its changes.
func changed(p, base *pixels, rows []int) [][4]int {
	const gap = 8
	var out [][4]int // {x, y, w, h}
	x0, x1, y0, last := p.w, 0, -1, -gap-1
	flush := func() {
		if y0 >= 0 {
			out = append(out, [4]int{x0, y0, x1 - x0, last + 1 - y0})
		}
	}
	for y, by := range rows {
		lo, hi := 0, p.w
		if by >= 0 {
			src, from := p.row(y), base.row(by)
			for lo < p.w && src[lo] == from[lo] {
				lo++
			}
			if lo == p.w {
				continue
			}
			for src[hi-1] == from[hi-1] {
				hi--
			}
		}
		if y-last > gap {
			flush()
			x0, x1, y0 = p.w, 0, y
		}
		x0, x1, last = min(x0, lo), max(x1, hi), y
	}
	flush()
	return out
}

// sheet draws the patches one below the other, each pixel the copied rows
// give transparent: with a palette when they have few colours.
func sheet(p, base *pixels, rows []int, patches [][4]int) ([]byte, error) {
	w, h := 0, 0
	for _, pt := range patches {
		w, h = max(w, pt[2]), h+pt[3]
	}
	idx := map[uint32]uint8{}
	pal := color.Palette{color.NRGBA{}}
	pm := image.NewPaletted(image.Rect(0, 0, w, h), nil)
	sy := 0
	for _, pt := range patches {
		for dy := range pt[3] {
			y, by := pt[1]+dy, rows[pt[1]+dy]
			for dx := range pt[2] {
				x := pt[0] + dx
				v := p.row(y)[x]
				if by >= 0 && base.row(by)[x] == v {
					continue
				}
				i, ok := idx[v]
				if !ok && len(pal) == 256 { // too many colours: start again in RGBA
					return sheetRGBA(p, base, rows, patches, image.NewNRGBA(pm.Rect))
				}
				if !ok {
					i = uint8(len(pal))
					idx[v] = i
					pal = append(pal, unpack(v))
				}
				pm.Pix[(sy+dy)*pm.Stride+dx] = i
			}
		}
		sy += pt[3]
	}
	pm.Palette = pal
	return encodePNG(pm)
}

func sheetRGBA(p, base *pixels, rows []int, patches [][4]int, out *image.NRGBA) ([]byte, error) {
	sy := 0
	for _, pt := range patches {
		for dy := range pt[3] {
			y, by := pt[1]+dy, rows[pt[1]+dy]
			for dx := range pt[2] {
				v := p.row(y)[pt[0]+dx]
				if by >= 0 && base.row(by)[pt[0]+dx] == v {
					continue
				}
				c := unpack(v)
				copy(out.Pix[(sy+dy)*out.Stride+4*dx:], []uint8{c.R, c.G, c.B, c.A})
			}
		}
		sy += pt[3]
	}
	return encodePNG(out)
}

func unpack(v uint32) color.NRGBA {
	return color.NRGBA{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}
}

func encodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&b, img)
	return b.Bytes(), err
}

// runs gathers rows copied from consecutive rows of the base.
func runs(rows []int) [][3]int {
	var out [][3]int
	for y, by := range rows {
		if by < 0 {
			continue
		}
		if n := len(out); n > 0 {
			l := &out[n-1]
			if l[0]+l[1] == y && l[2]+l[1] == by {
				l[1]++
				continue
			}
		}
		out = append(out, [3]int{y, 1, by})
	}
	return out
}
