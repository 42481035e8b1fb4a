package picture

import (
	"fmt"
	"image"
	"image/color"
)

// AreaMap is a picture of an area map: areas drawn as labelled boxes at
// given positions, links between them, markers under each area, and a
// legend and notes to the right.
//
// Things are drawn in this order: the background, outlines, links, texts,
// areas with their badges, markers; later things cover earlier ones.
type AreaMap struct {
	// Width and Height are the size of the map part in pixels; areas are
	// placed within it.
	Width, Height int
	// Title and Subtitle are printed above the map.
	Title, Subtitle string
	// Background is the map's colour; transparent means a pale sea blue.
	Background color.RGBA
	Areas      []Area
	Links      []Link
	// Markers are laid out in a row under their area's box, in order.
	Markers []AreaMarker
	Legend  []LegendItem
	Notes   []string
	// Captions says that the first Captions Notes, like the Title and
	// Subtitle, name the phase rather than show what is on the map: they
	// are drawn, and left out of Digest.
	Captions int
	// Outlines are polygons and lines drawn on the background, under
	// everything else: land masses, zones, borders.
	Outlines []Outline
	// Texts are free labels, e.g. the name of a sea or of a zone.
	Texts []Text
}

// Outline is a polygon or an open line in map pixels (the map's top-left
// corner is 0,0), such as a coastline or the border of a zone.
type Outline struct {
	Points []image.Point
	// Fill, when not transparent, fills the polygon (non-zero winding).
	Fill color.RGBA
	// Line, when not transparent, strokes the outline Width pixels wide
	// (0 means 1), in dashes when Dashed.
	Line   color.RGBA
	Width  int
	Dashed bool
	// Open strokes the points as an open line (not back to the first);
	// an open outline is never filled.
	Open bool
}

// Text is a free label centred on (X, Y) in map pixels.
type Text struct {
	X, Y  int
	Text  string
	Color color.RGBA
	// Bold draws the text twice, a pixel apart.
	Bold bool
	// Halo, when not transparent, draws a one-pixel halo of that colour
	// round the letters, so that they read over lines.
	Halo color.RGBA
}

// Area is one area of an AreaMap, drawn as a box centred on (X, Y).
type Area struct {
	ID    string
	Label string
	X, Y  int
	Fill  color.RGBA
	// Border, when not transparent, outlines the box thickly (e.g. an
	// area the side controls).
	Border color.RGBA
	// Badges are small symbols in a row above the box (e.g. a port, an
	// airfield).
	Badges []Badge
}

// Link joins two areas by their IDs, e.g. a land or sea connection.
type Link struct {
	A, B   string
	Color  color.RGBA
	Dashed bool
	// Width in pixels; 0 means 2.
	Width int
	// Ticks, when not transparent, draws dashes of that colour along the
	// middle of the line, half its width, as maps print railways.
	Ticks color.RGBA
}

// AreaMarker is a counter or contact in an area.
type AreaMarker struct {
	Area  string
	Text  string
	Color color.RGBA
	Shape string
}

// Where the map part's top-left corner is drawn.
const areaLeft, areaTop = 10, titleH

// PNG draws the map and returns the PNG file's bytes. The same AreaMap
// always gives the same bytes.
func (m *AreaMap) PNG() ([]byte, error) {
	img, err := m.Image()
	if err != nil {
		return nil, err
	}
	b, err := encode(img)
	release(img)
	return b, err
}

// Image draws the map.
func (m *AreaMap) Image() (*image.RGBA, error) {
	at, err := m.check()
	if err != nil {
		return nil, err
	}
	panelX := areaLeft + m.Width + 20
	width := panelX + legendWidth + 12
	height := max(areaTop+m.Height+10, areaTop+legendHeight(m.Legend, m.Notes)) + 10
	baseH := areaTop + m.Height + 10 // no taller than the picture
	cv := titledCanvas(m.baseKey(width, baseH), width, baseH, height, m.drawBase, m.Title, m.Subtitle)
	m.drawLinks(cv, at)
	m.drawTexts(cv)
	m.drawAreas(cv)
	m.drawMarkers(cv)
	drawLegend(cv, panelX, areaTop, m.Legend, m.Notes)
	return cv.img, nil
}

// check checks the map's size and that every area, link, marker and
// outline is on it, and returns its areas by ID.
func (m *AreaMap) check() (map[string]Area, error) {
	if m.Width < 1 || m.Height < 1 || m.Width > 4000 || m.Height > 4000 {
		return nil, fmt.Errorf("picture: an area map of %dx%d pixels (want 1..4000 each)", m.Width, m.Height)
	}
	at := map[string]Area{}
	for _, a := range m.Areas {
		if _, dup := at[a.ID]; dup {
			return nil, fmt.Errorf("picture: area %q given twice", a.ID)
		}
		if a.X < 0 || a.Y < 0 || a.X > m.Width || a.Y > m.Height {
			return nil, fmt.Errorf("picture: area %q at %d,%d is outside the %dx%d map", a.ID, a.X, a.Y, m.Width, m.Height)
		}
		at[a.ID] = a
	}
	for _, l := range m.Links {
		if _, ok := at[l.A]; !ok {
			return nil, fmt.Errorf("picture: link from unknown area %q", l.A)
		}
		if _, ok := at[l.B]; !ok {
			return nil, fmt.Errorf("picture: link to unknown area %q", l.B)
		}
	}
	for _, mk := range m.Markers {
		if _, ok := at[mk.Area]; !ok {
			return nil, fmt.Errorf("picture: marker %q in unknown area %q", mk.Text, mk.Area)
		}
	}
	for i, o := range m.Outlines {
		for _, p := range o.Points {
			if p.X < 0 || p.Y < 0 || p.X > m.Width || p.Y > m.Height {
				return nil, fmt.Errorf("picture: outline %d has the point %d,%d outside the %dx%d map", i, p.X, p.Y, m.Width, m.Height)
			}
		}
	}
	return at, nil
}

// areaCentre is where area a's centre is drawn, in subpixels.
func areaCentre(a Area) pt { return pt{px(areaLeft + a.X), px(areaTop + a.Y)} }

// drawLinks draws the links between the areas at.
func (m *AreaMap) drawLinks(cv *canvas, at map[string]Area) {
	for _, l := range m.Links {
		w := l.Width
		if w <= 0 {
			w = 2
		}
		ps := []pt{areaCentre(at[l.A]), areaCentre(at[l.B])}
		if l.Dashed {
			cv.fill(l.Color, dashed(ps, px(w), px(7), px(5), false)...)
		} else {
			cv.fill(l.Color, polyline(ps, px(w), false)...)
		}
		if l.Ticks.A > 0 {
			cv.fill(l.Ticks, dashed(ps, max(px(w)/2, sub), px(5), px(5), false)...)
		}
	}
}

// drawTexts draws the free texts, centred on their points, haloed where
// they have a halo.
func (m *AreaMap) drawTexts(cv *canvas) {
	for _, t := range m.Texts {
		x, y := areaLeft+t.X-textWidth(t.Text)/2, areaTop+t.Y-(ascent+descent)/2
		if t.Halo.A > 0 {
			for _, d := range [8][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
				cv.text(x+d[0], y+d[1], t.Text, t.Halo)
				if t.Bold {
					cv.text(x+1+d[0], y+d[1], t.Text, t.Halo)
				}
			}
		}
		if t.Bold {
			cv.boldText(x, y, t.Text, t.Color)
		} else {
			cv.text(x, y, t.Text, t.Color)
		}
	}
}

// drawAreas draws each area's labelled box and its badges.
func (m *AreaMap) drawAreas(cv *canvas) {
	bg := m.background()
	for _, a := range m.Areas {
		c := areaCentre(a)
		hw := max(textWidth(a.Label)+12, 30) / 2
		box := rect(pt{c.x - px(hw), c.y - px(10)}, pt{c.x + px(hw), c.y + px(10)})
		cv.fill(a.Fill, box)
		border, bw := grey, sub
		if a.Border.A > 0 {
			border, bw = a.Border, px(3)
		}
		cv.fill(border, polyline(box, bw, true)...)
		fill := a.Fill
		if fill.A == 0 {
			fill = bg
		}
		cv.centredText(areaLeft+a.X, areaTop+a.Y, a.Label, contrast(fill))
		bx := c.x - px(10*len(a.Badges)-10)/2
		for i, b := range a.Badges {
			cv.fill(b.Color, shape(b.Shape, pt{bx + px(10*i), c.y - px(16)}, px(4), px(4))...)
		}
	}
}

// drawMarkers draws each area's markers in a row under its box.
func (m *AreaMap) drawMarkers(cv *canvas) {
	byArea := map[string][]AreaMarker{}
	for _, mk := range m.Markers {
		byArea[mk.Area] = append(byArea[mk.Area], mk)
	}
	for _, a := range m.Areas {
		ms := byArea[a.ID]
		w := 0
		for _, mk := range ms {
			hw, _ := markerSize(mk.Shape, mk.Text)
			w += 2*hw + 2
		}
		x := areaLeft + a.X - w/2
		for _, mk := range ms {
			hw, _ := markerSize(mk.Shape, mk.Text)
			cv.drawMarker(x+hw+1, areaTop+a.Y+24, mk.Shape, mk.Text, mk.Color)
			x += 2*hw + 2
		}
	}
}

func (m *AreaMap) background() color.RGBA {
	if m.Background.A == 0 {
		return color.RGBA{200, 222, 240, 255}
	}
	return m.Background
}

// drawBase draws the background, its frame and the outlines: the base of
// the map (see baseLayer).
func (m *AreaMap) drawBase(cv *canvas) {
	frame := rect(pt{px(areaLeft), px(areaTop)}, pt{px(areaLeft + m.Width), px(areaTop + m.Height)})
	cv.fill(m.background(), frame)
	cv.fill(grey, polyline(frame, sub, true)...)
	for _, o := range m.Outlines {
		ps := make([]pt, len(o.Points))
		for i, p := range o.Points {
			ps[i] = pt{px(areaLeft + p.X), px(areaTop + p.Y)}
		}
		if !o.Open && len(ps) >= 3 {
			cv.fill(o.Fill, solid(ps))
		}
		w := px(max(o.Width, 1))
		if o.Dashed {
			cv.fill(o.Line, dashed(ps, w, px(6), px(4), !o.Open)...)
		} else {
			cv.fill(o.Line, polyline(ps, w, !o.Open)...)
		}
	}
}

// baseKey is the cache key of the base of the map on a picture w pixels
// wide, drawn h rows high: all that drawBase reads.
func (m *AreaMap) baseKey(w, h int) []byte {
	k := make(keyWriter, 0, 64)
	k = append(k, "area"...)
	for _, v := range []int{m.Width, m.Height, w, h} {
		k.int(v)
	}
	k.colour(m.background())
	k.int(len(m.Outlines))
	for _, o := range m.Outlines {
		k.colour(o.Fill)
		k.colour(o.Line)
		k.int(o.Width)
		k.bool(o.Dashed)
		k.bool(o.Open)
		k.int(len(o.Points))
		for _, p := range o.Points {
			k.int(p.X)
			k.int(p.Y)
		}
	}
	return k
}
