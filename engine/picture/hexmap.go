package picture

import (
	"fmt"
	"image"
	"image/color"
	"strconv"
)

// Pos is a hex of a HexMap: Row 1 is the bottom (south) row "A", Col 1 the
// left (west) column.
type Pos struct{ Row, Col int }

// HexMap is a picture of a map of pointy-top hexes in offset rows, named as
// printed wargame maps name them: rows lettered from the bottom (A, B, ...,
// Z, AA, BB, ...) and columns numbered from the left. Either the even rows
// (B, D, ...) or the odd rows sit half a hex to the east. Row letters and
// column numbers are printed on the margins, and a legend and notes are
// printed to the right of the map.
//
// Things are drawn in this order: cells, grid, edges, lines, badges,
// labels, markers; later things cover earlier ones.
type HexMap struct {
	Rows, Cols int
	// EvenRowsEast says that rows B, D, ... sit half a hex east of A, C, ...
	// (false: the odd rows do).
	EvenRowsEast bool
	// HexSize is the distance from a hex's centre to a corner in pixels;
	// 0 means 22.
	HexSize int
	// Title and Subtitle are printed above the map.
	Title, Subtitle string
	// Cells colour and mark hexes; a hex without a cell is left blank.
	Cells []Cell
	// Edges stroke hexsides, e.g. coastlines and borders.
	Edges []Edge
	// Lines are paths through hex centres, or rings around single hexes.
	Lines []Line
	// Markers are counters and contacts; several in one hex are laid out
	// side by side, in the order given, wrapping to further rows.
	Markers []Marker
	// Legend explains the colours and shapes; Notes are lines of text
	// printed under it, wrapped to the legend's width.
	Legend []LegendItem
	Notes  []string
	// Captions says that the first Captions Notes, like the Title and
	// Subtitle, name the phase rather than show what is on the map: they
	// are drawn, and left out of Digest.
	Captions int
	// ColNames, when given, are printed on the margins instead of the
	// column numbers: ColNames[0] over column 1, and so on (e.g. a sheet of
	// several one-column maps side by side).
	ColNames []string
}

// Cell is what one hex looks like.
type Cell struct {
	Row, Col int
	// Fill is the hex's colour.
	Fill color.RGBA
	// Hatch, when not transparent, hatches the hex diagonally (e.g. fjords).
	Hatch color.RGBA
	// Badges are small symbols printed in the upper part of the hex
	// (e.g. a port, an airfield).
	Badges []Badge
	// Label is printed under the hex's centre over a white halo, e.g. a
	// place name; it may run over neighbouring hexes.
	Label string
	// LabelColor is the label's colour; transparent means dark grey.
	LabelColor color.RGBA
}

// Badge is a small symbol in a hex.
type Badge struct {
	Shape string // one of the Shape constants
	Color color.RGBA
}

// Edge strokes the hexside between two adjacent hexes; B may lie off the
// map, to stroke a hex's outer edge. Non-adjacent pairs draw nothing.
type Edge struct {
	A, B  Pos
	Color color.RGBA
	// Width in pixels; 0 means 3.
	Width int
}

// Line is a path through the centres of Hexes, such as a move, or with one
// hex a ring around it, such as a search.
type Line struct {
	Hexes []Pos
	Color color.RGBA
	// Width in pixels; 0 means 3.
	Width int
	// Dashed draws the line or ring in dashes.
	Dashed bool
	// Arrow puts an arrowhead on the last hex of a path.
	Arrow bool
}

// Marker is a counter or a contact in a hex: a shape in Color with Text in
// black or white, whichever reads better.
type Marker struct {
	Row, Col int
	Text     string
	Color    color.RGBA
	// Shape is one of the Shape constants; "" means ShapeBox.
	Shape string
}

// The kinds of legend sample.
const (
	LegendCell       = "cell"        // a hex in Color (hatched in Hatch if set)
	LegendEdge       = "edge"        // a thick hexside stroke
	LegendLine       = "line"        // a path with an arrowhead
	LegendRing       = "ring"        // a ring, as a one-hex Line
	LegendDashedRing = "dashed-ring" // a dashed ring
	LegendMarker     = "marker"      // a Marker of Shape with Sample text
	LegendBadge      = "badge"       // a Badge of Shape
	LegendHeading    = "heading"     // no sample: Text as a bold heading
	LegendLink       = "link"        // a Link of an AreaMap: Color, Width, Dashed, Ticks
	LegendArea       = "area"        // an Area's box: filled in Color, outlined in Border
)

// LegendItem is one line of the legend: a sample and what it means.
type LegendItem struct {
	Text  string
	Kind  string // one of the Legend* constants
	Color color.RGBA
	Hatch color.RGBA
	// Shape of a marker or badge sample.
	Shape string
	// Sample is the text inside a marker sample.
	Sample string
	// Width (pixels; 0 means 2), Dashed and Ticks draw a link sample as
	// the Link fields of the same names draw a link.
	Width  int
	Dashed bool
	Ticks  color.RGBA
	// Border, when not transparent, outlines an area sample thickly.
	Border color.RGBA
}

// Colours used for the frame of every picture.
var (
	paper    = color.RGBA{250, 248, 240, 255}
	ink      = color.RGBA{30, 30, 30, 255}
	gridInk  = color.RGBA{90, 90, 90, 110}
	grey     = color.RGBA{70, 70, 70, 255}
	white    = color.RGBA{255, 255, 255, 255}
	legendBg = color.RGBA{255, 255, 255, 255}
)

const (
	legendWidth = 320 // pixels, legend panel
	titleH      = 44  // pixels above the column numbers
)

// hexLayout is where a HexMap's parts go, in fixed point unless named px.
type hexLayout struct {
	s, hw        int // circumradius, half-width
	x0, y0       int // left edge and top edge of the hex area
	mapW, mapH   int // size of the hex area
	panelX       int // legend panel's left edge, px
	width        int // image width, px
	evenRowsEast bool
	rows, cols   int
}

func (m *HexMap) layout() hexLayout {
	size := m.HexSize
	if size <= 0 {
		size = 22
	}
	s := px(size)
	l := hexLayout{s: s, hw: s * cos15[2] / 16384, evenRowsEast: m.EvenRowsEast, rows: m.Rows, cols: m.Cols}
	margin := 10 + textWidth(RowName(m.Rows)) + 6
	l.x0, l.y0 = px(margin), px(titleH+18)
	l.mapW = m.Cols*2*l.hw + l.hw
	l.mapH = (m.Rows-1)*3*s/2 + 2*s
	l.panelX = ceilDiv(l.x0+l.mapW, sub) + margin + 10
	l.width = l.panelX + legendWidth + 12
	return l
}

// shifted reports whether row r sits half a hex east.
func (l hexLayout) shifted(r int) bool { return (r%2 == 0) == l.evenRowsEast }

// centre returns the centre of hex p in fixed point.
func (l hexLayout) centre(p Pos) pt {
	x := l.x0 + (p.Col-1)*2*l.hw + l.hw
	if l.shifted(p.Row) {
		x += l.hw
	}
	return pt{x, l.y0 + (l.rows-p.Row)*3*l.s/2 + l.s}
}

// corners returns the six corners of hex p, clockwise from the top.
func (l hexLayout) corners(p Pos) contour {
	c := l.centre(p)
	return contour{
		{c.x, c.y - l.s}, {c.x + l.hw, c.y - l.s/2}, {c.x + l.hw, c.y + l.s/2},
		{c.x, c.y + l.s}, {c.x - l.hw, c.y + l.s/2}, {c.x - l.hw, c.y - l.s/2},
	}
}

// Center returns the pixel at the centre of hex (row, col) in the picture
// PNG draws.
func (m *HexMap) Center(row, col int) image.Point {
	c := m.layout().centre(Pos{row, col})
	return image.Pt(floorDiv(c.x, sub), floorDiv(c.y, sub))
}

// RowName returns the letters of row r: 1 -> "A", 26 -> "Z", 27 -> "AA".
func RowName(r int) string {
	if r < 1 {
		return "?"
	}
	b := make([]byte, 1+(r-1)/26)
	for i := range b {
		b[i] = byte('A' + (r-1)%26)
	}
	return string(b)
}

// PNG draws the map and returns the PNG file's bytes. The same HexMap always
// gives the same bytes.
func (m *HexMap) PNG() ([]byte, error) {
	img, err := m.Image()
	if err != nil {
		return nil, err
	}
	b, err := encode(img)
	release(img)
	return b, err
}

// Image draws the map.
func (m *HexMap) Image() (*image.RGBA, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	l := m.layout()
	mapBottom := ceilDiv(l.y0+l.mapH, sub) + 24
	lh := legendHeight(m.Legend, m.Notes)
	height := max(mapBottom, titleH+18+lh) + 10
	cv := titledCanvas(m.baseKey(l, mapBottom), l.width, mapBottom, height, func(cv *canvas) { m.drawBase(cv, l) }, m.Title, m.Subtitle)
	for _, ln := range m.Lines {
		var ps []pt
		for _, h := range ln.Hexes {
			ps = append(ps, l.centre(h))
		}
		cv.fill(ln.Color, lineContours(ps, ln.Width, ln.Dashed, ln.Arrow, l.s*3/4)...)
	}
	m.drawBadges(cv, l)
	markers := m.layoutMarkers(l)
	m.drawLabels(cv, l, markers)
	for _, pm := range markers {
		cv.drawMarker(pm.x, pm.y, pm.mk.Shape, pm.mk.Text, pm.mk.Color)
	}
	m.drawMargins(cv, l)
	drawLegend(cv, l.panelX, titleH+18, m.Legend, m.Notes)
	return cv.img, nil
}

// check checks the map's size and that every cell and marker is on it.
func (m *HexMap) check() error {
	if m.Rows < 1 || m.Cols < 1 || m.Rows > 200 || m.Cols > 200 {
		return fmt.Errorf("picture: a hex map of %d rows and %d columns (want 1..200 each)", m.Rows, m.Cols)
	}
	if m.HexSize < 0 || m.HexSize > 100 {
		return fmt.Errorf("picture: hex size %d (want 0..100)", m.HexSize)
	}
	on := func(p Pos) bool { return p.Row >= 1 && p.Row <= m.Rows && p.Col >= 1 && p.Col <= m.Cols }
	for _, c := range m.Cells {
		if !on(Pos{c.Row, c.Col}) {
			return fmt.Errorf("picture: cell %s%d is off the map", RowName(c.Row), c.Col)
		}
	}
	for _, mk := range m.Markers {
		if !on(Pos{mk.Row, mk.Col}) {
			return fmt.Errorf("picture: marker %q at %s%d is off the map", mk.Text, RowName(mk.Row), mk.Col)
		}
	}
	return nil
}

// drawBadges draws each cell's badges in a row above its centre.
func (m *HexMap) drawBadges(cv *canvas, l hexLayout) {
	for _, c := range m.Cells {
		if len(c.Badges) == 0 {
			continue
		}
		ctr := l.centre(Pos{c.Row, c.Col})
		bx := ctr.x - px(10*len(c.Badges)-10)/2
		by := ctr.y - l.s*11/20
		for i, b := range c.Badges {
			cv.fill(b.Color, shape(b.Shape, pt{bx + px(10*i), by}, px(4), px(4))...)
		}
	}
}

// drawLabels writes each cell's label where it covers neither the
// markers nor a label already written.
func (m *HexMap) drawLabels(cv *canvas, l hexLayout, markers []placedMarker) {
	var busy []image.Rectangle // where labels must not go: markers and earlier labels
	bottom := map[Pos]int{}    // lowest marker pixel of each hex
	for _, pm := range markers {
		busy = append(busy, pm.r)
		if b, ok := bottom[pm.hex]; !ok || pm.r.Max.Y > b {
			bottom[pm.hex] = pm.r.Max.Y
		}
	}
	for _, c := range m.Cells {
		if c.Label == "" {
			continue
		}
		p := Pos{c.Row, c.Col}
		col := c.LabelColor
		if col.A == 0 {
			col = grey
		}
		r := labelPlace(l, p, c.Label, bottom, busy, markers)
		busy = append(busy, r)
		cv.haloText(r.Min.X+1, r.Min.Y+1, c.Label, col, white)
	}
}

// labelPlace is where the label of the hex p goes: under the centre (and
// under the hex's own markers, the lowest of which bottom gives), or above
// it if that would cover busy (a marker or a label already placed).
func labelPlace(l hexLayout, p Pos, label string, bottom map[Pos]int, busy []image.Rectangle, markers []placedMarker) image.Rectangle {
	ctr := l.centre(p)
	x := floorDiv(ctr.x, sub) - textWidth(label)/2
	y := floorDiv(ctr.y+l.s*2/5, sub)
	if b, ok := bottom[p]; ok && b+1 > y {
		y = b + 1
	}
	below := image.Rect(x-1, y-1, x+textWidth(label)+1, y+ascent+descent+1)
	if !overlaps(below, busy) {
		return below
	}
	top := floorDiv(ctr.y-l.s*2/5, sub)
	for _, pm := range markers {
		if pm.hex == p && pm.r.Min.Y < top {
			top = pm.r.Min.Y
		}
	}
	above := image.Rect(x-1, top-ascent-descent-2, x+textWidth(label)+1, top)
	if !overlaps(above, busy) {
		return above
	}
	return below
}

// drawMargins writes the row letters left and right of the map and the
// column numbers above and below it.
func (m *HexMap) drawMargins(cv *canvas, l hexLayout) {
	for r := 1; r <= m.Rows; r++ {
		name := RowName(r)
		y := floorDiv(l.centre(Pos{r, 1}).y, sub) - (ascent+descent)/2
		cv.text(floorDiv(l.x0, sub)-6-textWidth(name), y, name, grey)
		cv.text(ceilDiv(l.x0+l.mapW, sub)+6, y, name, grey)
	}
	for c := 1; c <= m.Cols; c++ {
		n := strconv.Itoa(c)
		if c <= len(m.ColNames) {
			n = m.ColNames[c-1]
		}
		top := l.centre(Pos{m.Rows, c})
		cv.text(floorDiv(top.x, sub)-textWidth(n)/2, floorDiv(top.y-l.s, sub)-16, n, grey)
		bot := l.centre(Pos{1, c})
		cv.text(floorDiv(bot.x, sub)-textWidth(n)/2, floorDiv(bot.y+l.s, sub)+4, n, grey)
	}
}

// drawBase draws the cells, the grid and the hexsides: the base of the
// map (see baseLayer).
func (m *HexMap) drawBase(cv *canvas, l hexLayout) {
	for _, c := range m.Cells {
		p := Pos{c.Row, c.Col}
		cv.fill(c.Fill, l.corners(p))
		if c.Hatch.A > 0 {
			cv.fill(c.Hatch, hatch(l.centre(p), l.hw*9/10, px(5), px(1)+sub/2)...)
		}
	}
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			cv.fill(gridInk, polyline(l.corners(Pos{r, c}), sub, true)...)
		}
	}
	for _, e := range m.Edges {
		w := px(e.Width)
		if e.Width <= 0 {
			w = px(3)
		}
		a, b, ok := l.sharedSide(e.A, e.B)
		if !ok {
			continue
		}
		cv.fill(e.Color, segment(a, b, w), solid(ellipse(a, w/2, w/2)), solid(ellipse(b, w/2, w/2)))
	}
}

// baseKey is the cache key of the base of the map drawn h rows high: all
// that drawBase reads.
func (m *HexMap) baseKey(l hexLayout, h int) []byte {
	k := make(keyWriter, 0, 64+12*len(m.Cells)+14*len(m.Edges))
	k = append(k, "hex"...)
	for _, v := range []int{m.Rows, m.Cols, l.s, l.x0, l.y0, l.width, h} {
		k.int(v)
	}
	k.bool(m.EvenRowsEast)
	k.int(len(m.Cells))
	for _, c := range m.Cells {
		k.int(c.Row)
		k.int(c.Col)
		k.colour(c.Fill)
		k.colour(c.Hatch)
	}
	k.int(len(m.Edges))
	for _, e := range m.Edges {
		for _, v := range []int{e.A.Row, e.A.Col, e.B.Row, e.B.Col, e.Width} {
			k.int(v)
		}
		k.colour(e.Color)
	}
	return k
}

// sharedSide returns the two end points of the hexside between adjacent
// hexes a and b.
func (l hexLayout) sharedSide(a, b Pos) (pt, pt, bool) {
	ca, cb := l.corners(a), l.corners(b)
	var got []pt
	for _, p := range ca {
		for _, q := range cb {
			if abs(p.x-q.x) <= 2 && abs(p.y-q.y) <= 2 {
				got = append(got, p)
			}
		}
	}
	if len(got) != 2 {
		return pt{}, pt{}, false
	}
	return got[0], got[1], true
}

func overlaps(r image.Rectangle, rs []image.Rectangle) bool {
	for _, o := range rs {
		if r.Overlaps(o) {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// hatch returns diagonal stripes of width w, spacing gap apart, clipped to
// the disc of radius r around c.
func hatch(c pt, r, gap, w int) []contour {
	var out []contour
	for d := -(r / gap) * gap; d < r; d += gap {
		// The stripe runs up and to the right at distance d from c; its
		// half-length inside the disc is h.
		h := isqrt(int64(r)*int64(r) - int64(d)*int64(d))
		if h == 0 {
			continue
		}
		o := d * cos15[3] / 16384 // the offset (o, o) is perpendicular to the stripe
		e := h * cos15[3] / 16384 // (e, -e) runs along it
		a := pt{c.x + o - e, c.y + o + e}
		b := pt{c.x + o + e, c.y + o - e}
		if s := segment(a, b, w); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// lineContours returns a path through ps (or a ring of radius r around a
// single point) of width w pixels (0 means 3).
func lineContours(ps []pt, w int, dash, arrow bool, r int) []contour {
	if w <= 0 {
		w = 3
	}
	fw := px(w)
	switch len(ps) {
	case 0:
		return nil
	case 1:
		if dash {
			return dashed(ellipse(ps[0], r, r), fw, px(6), px(4), true)
		}
		return ring(ps[0], r, r, fw)
	}
	var out []contour
	end := ps[len(ps)-1]
	if arrow {
		// Shorten the last leg so the arrowhead's point sits on the centre.
		prev := ps[len(ps)-2]
		dx, dy := end.x-prev.x, end.y-prev.y
		d := hyp(dx, dy)
		if d > 0 {
			head := px(4*w + 4)
			ux, uy := muldiv(dx, head, d), muldiv(dy, head, d)
			base := pt{end.x - ux, end.y - uy}
			px0, py0 := -uy/2, ux/2
			out = append(out, solid(contour{end, {base.x + px0, base.y + py0}, {base.x - px0, base.y - py0}}))
			ps = append(append([]pt(nil), ps[:len(ps)-1]...), pt{end.x - ux/2, end.y - uy/2})
		}
	}
	if dash {
		return append(out, dashed(ps, fw, px(6), px(4), false)...)
	}
	return append(out, polyline(ps, fw, false)...)
}

// placedMarker is a marker with its centre and extent in pixels.
type placedMarker struct {
	mk   Marker
	hex  Pos
	x, y int
	r    image.Rectangle
}

// layoutMarkers lays the markers of each hex out in rows centred on the hex.
func (m *HexMap) layoutMarkers(l hexLayout) []placedMarker {
	var order []Pos
	byHex := map[Pos][]Marker{}
	for _, mk := range m.Markers {
		p := Pos{mk.Row, mk.Col}
		if _, seen := byHex[p]; !seen {
			order = append(order, p)
		}
		byHex[p] = append(byHex[p], mk)
	}
	maxW := floorDiv(2*l.hw, sub) + 4
	var out []placedMarker
	for _, p := range order {
		type row struct {
			items []Marker
			w, h  int
		}
		var rows []row
		cur := row{}
		for _, mk := range byHex[p] {
			hw, hh := markerSize(mk.Shape, mk.Text)
			w := 2*hw + 2
			if len(cur.items) > 0 && cur.w+w > maxW {
				rows = append(rows, cur)
				cur = row{}
			}
			cur.items = append(cur.items, mk)
			cur.w += w
			cur.h = max(cur.h, 2*hh+2)
		}
		rows = append(rows, cur)
		total := 0
		for _, r := range rows {
			total += r.h
		}
		c := l.centre(p)
		cx, cy := floorDiv(c.x, sub), floorDiv(c.y, sub)
		y := cy - total/2
		for _, r := range rows {
			x := cx - r.w/2
			for _, mk := range r.items {
				hw, hh := markerSize(mk.Shape, mk.Text)
				mx, my := x+hw+1, y+r.h/2
				out = append(out, placedMarker{mk: mk, hex: p, x: mx, y: my, r: image.Rect(mx-hw-1, my-hh-1, mx+hw+2, my+hh+2)})
				x += 2*hw + 2
			}
			y += r.h
		}
	}
	return out
}

const legendRowH = 22

func legendHeight(items []LegendItem, notes []string) int {
	h := 10 + len(items)*legendRowH + 10
	if len(notes) > 0 {
		n := 0
		for _, note := range notes {
			n += len(wrap(note, legendWidth-36))
		}
		h += 8 + n*lineH
	}
	return h + 10
}

// drawLegend draws the legend panel with its top-left corner at (x, y).
func drawLegend(cv *canvas, x, y int, items []LegendItem, notes []string) {
	h := legendHeight(items, notes)
	cv.fill(legendBg, rect(pt{px(x), px(y)}, pt{px(x + legendWidth), px(y + h)}))
	cv.fill(grey, polyline(rect(pt{px(x), px(y)}, pt{px(x + legendWidth), px(y + h)}), sub, true)...)
	ty := y + 10
	for _, it := range items {
		cx, cy := x+24, ty+legendRowH/2
		c := pt{px(cx), px(cy)}
		switch it.Kind {
		case LegendHeading:
			cv.boldText(x+10, cy-(ascent+descent)/2, it.Text, ink)
			ty += legendRowH
			continue
		case LegendCell:
			hex := contour{}
			for k := 0; k < 6; k++ {
				a := 4*k - 6 // corners at -90°+60°k: pointy top
				hex = append(hex, pt{c.x + muldiv(px(10), cosK(a), 16384), c.y + muldiv(px(10), sinK(a), 16384)})
			}
			cv.fill(it.Color, hex)
			if it.Hatch.A > 0 {
				cv.fill(it.Hatch, hatch(c, px(8), px(4), px(1)+sub/2)...)
			}
			cv.fill(gridInk, polyline(hex, sub, true)...)
		case LegendEdge:
			cv.fill(it.Color, segment(pt{c.x - px(11), c.y}, pt{c.x + px(11), c.y}, px(3)))
		case LegendLine:
			cv.fill(it.Color, lineContours([]pt{{c.x - px(14), c.y}, {c.x + px(14), c.y}}, 2, false, true, 0)...)
		case LegendRing:
			cv.fill(it.Color, ring(c, px(8), px(8), px(3))...)
		case LegendDashedRing:
			cv.fill(it.Color, dashed(ellipse(c, px(8), px(8)), px(2), px(4), px(3), true)...)
		case LegendBadge:
			cv.fill(it.Color, shape(it.Shape, c, px(5), px(5))...)
		case LegendLink:
			ps := []pt{{c.x - px(14), c.y}, {c.x + px(14), c.y}}
			w := px(2)
			if it.Width > 0 {
				w = px(it.Width)
			}
			if it.Dashed {
				cv.fill(it.Color, dashed(ps, w, px(7), px(5), false)...)
			} else {
				cv.fill(it.Color, polyline(ps, w, false)...)
			}
			if it.Ticks.A > 0 {
				cv.fill(it.Ticks, dashed(ps, max(w/2, sub), px(5), px(5), false)...)
			}
		case LegendArea:
			box := rect(pt{c.x - px(14), c.y - px(8)}, pt{c.x + px(14), c.y + px(8)})
			cv.fill(it.Color, box)
			border, bw := grey, sub
			if it.Border.A > 0 {
				border, bw = it.Border, px(3)
			}
			cv.fill(border, polyline(box, bw, true)...)
		default:
			cv.drawMarker(cx, cy, it.Shape, it.Sample, it.Color)
		}
		cv.text(x+46, cy-(ascent+descent)/2, it.Text, ink)
		ty += legendRowH
	}
	if len(notes) > 0 {
		ty += 8
		for _, note := range notes {
			for i, line := range wrap(note, legendWidth-36) {
				ix := x + 10
				if i > 0 {
					ix += 2 * charW
				}
				cv.text(ix, ty, line, ink)
				ty += lineH
			}
		}
	}
}
