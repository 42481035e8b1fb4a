package picture

import (
	"image"
	"image/color"
	"math"
	"sync"
)

// sub is the number of fixed-point units in one pixel; subRows is the number
// of sample rows per pixel row.
const (
	sub     = 256
	subRows = 4
)

// pt is a point in fixed-point units (1/256 pixel), y growing downwards.
type pt struct{ x, y int }

// contour is a closed polygon; a shape is one or more contours filled with
// the non-zero winding rule.
type contour []pt

// canvas is an RGBA image being drawn on.
type canvas struct {
	img  *image.RGBA
	xs   []crossing
	cov  []int
	rect image.Rectangle
	// all, edges, active and starts are scratch space of fill.
	all, edges, active []edge
	starts             []int
	// track has fill note in top and bottom the first and last pixel rows
	// (bottom is one past) that any fill could have touched, were the
	// canvas without bounds.
	track       bool
	top, bottom int
}

// edge is an edge of a contour pointing down (a.y < b.y); dir is 1 if the
// contour ran down it, -1 if up.
type edge struct {
	a, b pt
	dir  int
}

type crossing struct{ x, dir int }

func newCanvas(w, h int, bg color.RGBA) *canvas {
	img := newRGBA(w, h)
	fillPaper(img.Pix, bg)
	return &canvas{img: img, rect: img.Rect}
}

// pixPool keeps the pixels of pictures already encoded for the next ones.
var pixPool sync.Pool

// newRGBA returns an image w by h pixels whose pixels the caller sets.
func newRGBA(w, h int) *image.RGBA {
	r := image.Rect(0, 0, w, h)
	if b, ok := pixPool.Get().(*[]uint8); ok && cap(*b) >= 4*w*h {
		return &image.RGBA{Pix: (*b)[:4*w*h], Stride: 4 * w, Rect: r}
	}
	return image.NewRGBA(r)
}

// release gives the pixels of an image nothing uses any longer to the
// next picture.
func release(img *image.RGBA) { pixPool.Put(&img.Pix) }

// fillPaper sets every pixel of pix to bg, opaque.
func fillPaper(pix []uint8, bg color.RGBA) {
	if len(pix) < 4 {
		return
	}
	pix[0], pix[1], pix[2], pix[3] = bg.R, bg.G, bg.B, 255
	for n := 4; n < len(pix); n *= 2 {
		copy(pix[n:], pix[:n])
	}
}

// area2 returns twice the signed area of c (positive when clockwise on the
// screen, y growing downwards).
func area2(c contour) int64 {
	var a int64
	for i := range c {
		p, q := c[i], c[(i+1)%len(c)]
		a += int64(p.x)*int64(q.y) - int64(q.x)*int64(p.y)
	}
	return a
}

// solid returns c wound positively; hole returns it wound negatively. A hole
// inside a solid contour of the same fill call is left unfilled.
func solid(c contour) contour {
	if area2(c) < 0 {
		return reversed(c)
	}
	return c
}

func hole(c contour) contour {
	if area2(c) > 0 {
		return reversed(c)
	}
	return c
}

func reversed(c contour) contour {
	out := make(contour, len(c))
	for i := range c {
		out[len(c)-1-i] = c[i]
	}
	return out
}

// fill paints the union of the contours (non-zero winding) in col, blended
// over what is there with anti-aliased edges.
func (cv *canvas) fill(col color.RGBA, cs ...contour) {
	if col.A == 0 {
		return
	}
	minX, minY, maxX, maxY, n := bounds(cs)
	if n < 3 {
		return
	}
	if cv.track {
		cv.top, cv.bottom = min(cv.top, floorDiv(minY, sub)), max(cv.bottom, ceilDiv(maxY, sub))
	}
	px0, py0 := max(floorDiv(minX, sub), cv.rect.Min.X), max(floorDiv(minY, sub), cv.rect.Min.Y)
	px1, py1 := min(ceilDiv(maxX, sub), cv.rect.Max.X), min(ceilDiv(maxY, sub), cv.rect.Max.Y)
	if px0 >= px1 || py0 >= py1 {
		return
	}
	w := px1 - px0
	if cap(cv.cov) < w {
		cv.cov = make([]int, w)
	}
	cov := cv.cov[:w]
	edges, starts := cv.rowEdges(cs, py0, py1)
	active := cv.active[:0]
	for py := py0; py < py1; py++ {
		top := py * sub
		active = append(active, edges[starts[py-py0]:starts[py-py0+1]]...)
		kept := active[:0]
		for _, e := range active {
			if e.b.y > top {
				kept = append(kept, e)
			}
		}
		active = kept
		if len(active) == 0 {
			continue
		}
		clear(cov)
		painted := false
		for k := 0; k < subRows; k++ {
			ys := py*sub + sub/(2*subRows) + k*sub/subRows
			if cv.coverSample(active, ys, cov, px0) {
				painted = true
			}
		}
		if painted {
			cv.paintRow(px0, py, cov, col)
		}
	}
	cv.active = active[:0]
}

// bounds is the box, in subpixels, around the points of the contours, and
// how many points they have.
func bounds(cs []contour) (minX, minY, maxX, maxY, n int) {
	minX, minY = math.MaxInt, math.MaxInt
	maxX, maxY = math.MinInt, math.MinInt
	for _, c := range cs {
		for _, p := range c {
			minX, minY = min(minX, p.x), min(minY, p.y)
			maxX, maxY = max(maxX, p.x), max(maxY, p.y)
			n++
		}
	}
	return minX, minY, maxX, maxY, n
}

// coverSample adds to cov (whose first pixel is px0) the spans of the
// sample row ys that the active edges wind around, and reports whether
// any pixel gained coverage.
func (cv *canvas) coverSample(active []edge, ys int, cov []int, px0 int) bool {
	xs := cv.xs[:0]
	for _, e := range active {
		if ys < e.a.y || ys >= e.b.y {
			continue
		}
		x := e.a.x + muldiv(ys-e.a.y, e.b.x-e.a.x, e.b.y-e.a.y)
		xs = append(xs, crossing{x, e.dir})
	}
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j].x < xs[j-1].x; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	painted := false
	wind, start := 0, 0
	for _, c := range xs {
		before := wind
		wind += c.dir
		switch {
		case before == 0 && wind != 0:
			start = c.x
		case before != 0 && wind == 0:
			if addSpan(cov, px0, start, c.x) {
				painted = true
			}
		}
	}
	cv.xs = xs
	return painted
}

// rowEdges returns the non-horizontal edges of the contours, each pointing
// down (dir says which way it ran), grouped by the first pixel row of
// [py0, py1) they reach: row py's edges are edges[starts[py-py0]:
// starts[py-py0+1]]. Edges that end above py0 or start at or below py1
// are left out. (Within a row the order of edges does not matter: the
// crossings of a sample row are sorted by x, and crossings at one x give
// the same coverage in any order.)
func (cv *canvas) rowEdges(cs []contour, py0, py1 int) ([]edge, []int) {
	n := py1 - py0
	if cap(cv.starts) < n+1 {
		cv.starts = make([]int, n+1)
	}
	starts := cv.starts[:n+1]
	clear(starts)
	all := cv.all[:0]
	for _, c := range cs {
		for i := range c {
			a, b := c[i], c[(i+1)%len(c)]
			if a.y == b.y {
				continue
			}
			dir := 1
			if a.y > b.y {
				a, b, dir = b, a, -1
			}
			if b.y <= py0*sub || a.y >= py1*sub {
				continue
			}
			all = append(all, edge{a, b, dir})
			starts[max(floorDiv(a.y, sub), py0)-py0]++
		}
	}
	cv.all = all
	// Counting sort by first row: starts becomes each row's offset.
	off := 0
	for i := 0; i < n; i++ {
		off, starts[i] = off+starts[i], off
	}
	starts[n] = off
	if cap(cv.edges) < len(all) {
		cv.edges = make([]edge, len(all))
	}
	edges := cv.edges[:len(all)]
	for _, e := range all {
		r := max(floorDiv(e.a.y, sub), py0) - py0
		edges[starts[r]] = e
		starts[r]++
	}
	// starts[r] now holds the end of row r, the start of row r+1.
	copy(starts[1:], starts[:n])
	starts[0] = 0
	return edges, starts
}

// paintRow blends col over pixel row py from px0 on, each pixel at the
// coverage cov gives it.
func (cv *canvas) paintRow(px0, py int, cov []int, col color.RGBA) {
	row := cv.img.PixOffset(px0, py)
	pix := cv.img.Pix[row : row+4*len(cov)]
	ca := int(col.A)
	for i, v := range cov {
		if v == 0 {
			continue
		}
		a := min(v*ca/(sub*subRows), 255)
		p := pix[4*i : 4*i+4 : 4*i+4]
		if a == 255 {
			p[0], p[1], p[2], p[3] = col.R, col.G, col.B, 255
			continue
		}
		inv := 255 - a
		p[0] = uint8((int(col.R)*a + int(p[0])*inv + 127) / 255)
		p[1] = uint8((int(col.G)*a + int(p[1])*inv + 127) / 255)
		p[2] = uint8((int(col.B)*a + int(p[2])*inv + 127) / 255)
		p[3] = 255
	}
}

// addSpan adds the coverage of [xa, xb) (fixed point) on one sample row to
// cov, whose first entry is pixel px0.
func addSpan(cov []int, px0, xa, xb int) bool {
	lo, hi := px0*sub, (px0+len(cov))*sub
	xa, xb = max(xa, lo), min(xb, hi)
	if xa >= xb {
		return false
	}
	p0, p1 := floorDiv(xa, sub), floorDiv(xb-1, sub) // first and last pixel touched
	if p0 == p1 {
		cov[p0-px0] += xb - xa
		return true
	}
	cov[p0-px0] += (p0+1)*sub - xa
	for p := p0 + 1; p < p1; p++ {
		cov[p-px0] += sub
	}
	cov[p1-px0] += xb - p1*sub
	return true
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func ceilDiv(a, b int) int { return -floorDiv(-a, b) }

// isqrt returns the integer square root of n >= 0 (0 for n < 0).
func isqrt(n int64) int {
	if n <= 0 {
		return 0
	}
	r := int64(math.Sqrt(float64(n)))
	for r*r > n {
		r--
	}
	for (r+1)*(r+1) <= n {
		r++
	}
	return int(r)
}

// hyp returns the length of (dx, dy), rounded down.
func hyp(dx, dy int) int { return isqrt(int64(dx)*int64(dx) + int64(dy)*int64(dy)) }

// muldiv returns a*b/c without overflow where int has 32 bits (c != 0).
func muldiv(a, b, c int) int { return int(int64(a) * int64(b) / int64(c)) }

// cos15 holds cos(15°·k) for k = 0..6, scaled by 1<<14.
var cos15 = [7]int{16384, 15826, 14189, 11585, 8192, 4240, 0}

// cosK returns cos(15°·k) scaled by 1<<14, for any integer k.
func cosK(k int) int {
	k = ((k % 24) + 24) % 24
	switch {
	case k <= 6:
		return cos15[k]
	case k <= 12:
		return -cos15[12-k]
	case k <= 18:
		return -cos15[k-12]
	default:
		return cos15[24-k]
	}
}

// sinK returns sin(15°·k) scaled by 1<<14 (screen y grows downwards, so
// positive angles turn clockwise on the screen).
func sinK(k int) int { return cosK(k - 6) }

// ellipse returns a 24-gon of radii rx, ry around c.
func ellipse(c pt, rx, ry int) contour {
	out := make(contour, 24)
	for k := range out {
		out[k] = pt{c.x + muldiv(rx, cosK(k), 16384), c.y + muldiv(ry, sinK(k), 16384)}
	}
	return out
}

// rect returns the rectangle with corners a and b.
func rect(a, b pt) contour {
	return contour{{a.x, a.y}, {b.x, a.y}, {b.x, b.y}, {a.x, b.y}}
}

// segment returns the quadrilateral of a straight stroke of width w from a
// to b (nil if a == b).
func segment(a, b pt, w int) contour {
	dx, dy := b.x-a.x, b.y-a.y
	l := hyp(dx, dy)
	if l == 0 {
		return nil
	}
	nx, ny := muldiv(-dy, w, 2*l), muldiv(dx, w, 2*l)
	return solid(contour{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}})
}

// polyline returns the contours of a stroke of width w through ps, with
// round joins; closed joins the last point back to the first.
func polyline(ps []pt, w int, closed bool) []contour {
	var out []contour
	n := len(ps)
	last := n - 1
	if closed {
		last = n
	}
	for i := 0; i < last; i++ {
		if s := segment(ps[i], ps[(i+1)%n], w); s != nil {
			out = append(out, s)
		}
	}
	for i, p := range ps {
		if closed || (i > 0 && i < n-1) {
			out = append(out, solid(ellipse(p, w/2, w/2)))
		}
	}
	return out
}

// dashed returns the contours of a dashed stroke of width w through ps:
// dashes of length on, gaps of length off (fixed point).
func dashed(ps []pt, w, on, off int, closed bool) []contour {
	var out []contour
	n := len(ps)
	last := n - 1
	if closed {
		last = n
	}
	pos := 0 // position within the on+off pattern
	for i := 0; i < last; i++ {
		a, b := ps[i], ps[(i+1)%n]
		dx, dy := b.x-a.x, b.y-a.y
		l := hyp(dx, dy)
		t := 0
		for t < l {
			if pos < on {
				step := min(on-pos, l-t)
				p := pt{a.x + muldiv(dx, t, l), a.y + muldiv(dy, t, l)}
				q := pt{a.x + muldiv(dx, t+step, l), a.y + muldiv(dy, t+step, l)}
				if s := segment(p, q, w); s != nil {
					out = append(out, s)
				}
				t += step
				pos += step
			} else {
				step := min(on+off-pos, l-t)
				t += step
				pos += step
			}
			if pos >= on+off {
				pos = 0
			}
		}
	}
	return out
}

// ring returns an outline of width w around the ellipse of radii rx, ry.
func ring(c pt, rx, ry, w int) []contour {
	return []contour{solid(ellipse(c, rx+w/2, ry+w/2)), hole(ellipse(c, rx-w/2, ry-w/2))}
}

// px converts whole pixels to fixed point.
func px(n int) int { return n * sub }
