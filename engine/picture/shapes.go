package picture

import "image/color"

// The shapes a Marker, a Badge or a legend sample may have. An empty or
// unknown shape is drawn as ShapeBox.
const (
	ShapeBox      = "box"      // a counter: a rectangle
	ShapeCircle   = "circle"   // a disc (an ellipse when its text is wide)
	ShapeDiamond  = "diamond"  // a rhombus, e.g. an enemy contact
	ShapeTriangle = "triangle" // pointing up, e.g. aircraft
	ShapeBurst    = "burst"    // a twelve-pointed star, e.g. a fight
	ShapeRing     = "ring"     // an unfilled circle, e.g. a port
	ShapePlus     = "plus"     // a cross, e.g. an airfield
	ShapeFlag     = "flag"     // a pennant, e.g. a held place
)

// shape returns the contours of shape centred on c with half-width hw and
// half-height hh (fixed point).
func shape(name string, c pt, hw, hh int) []contour {
	switch name {
	case ShapeCircle:
		return []contour{solid(ellipse(c, hw, hh))}
	case ShapeDiamond:
		return []contour{solid(contour{{c.x, c.y - hh}, {c.x + hw, c.y}, {c.x, c.y + hh}, {c.x - hw, c.y}})}
	case ShapeTriangle:
		return []contour{solid(contour{{c.x, c.y - hh}, {c.x + hw, c.y + hh}, {c.x - hw, c.y + hh}})}
	case ShapeBurst:
		out := make(contour, 24)
		for k := range out {
			r := 16384
			if k%2 == 1 {
				r = 9500
			}
			out[k] = pt{c.x + muldiv(muldiv(hw, r, 16384), cosK(k), 16384), c.y + muldiv(muldiv(hh, r, 16384), sinK(k), 16384)}
		}
		return []contour{solid(out)}
	case ShapeRing:
		w := max(min(hw, hh)*2/5, sub)
		return ring(c, hw-w/2, hh-w/2, w)
	case ShapePlus:
		tw, th := max(hw/3, sub/2), max(hh/3, sub/2)
		return []contour{
			solid(rect(pt{c.x - hw, c.y - th}, pt{c.x + hw, c.y + th})),
			solid(rect(pt{c.x - tw, c.y - hh}, pt{c.x + tw, c.y + hh})),
		}
	case ShapeFlag:
		pole := max(hw/4, sub/2)
		return []contour{
			solid(rect(pt{c.x - hw, c.y - hh}, pt{c.x - hw + pole, c.y + hh})),
			solid(contour{{c.x - hw, c.y - hh}, {c.x + hw, c.y - hh/3}, {c.x - hw, c.y + hh/3}}),
		}
	}
	return []contour{solid(rect(pt{c.x - hw, c.y - hh}, pt{c.x + hw, c.y + hh}))}
}

// outlined reports whether shape gets a dark outline when drawn as a marker.
func outlined(name string) bool { return name != ShapeRing && name != ShapePlus && name != ShapeFlag }

// markerSize returns the half-width and half-height in whole pixels of a
// marker of shape carrying text.
func markerSize(name, text string) (hw, hh int) {
	tw := textWidth(text)
	switch name {
	case ShapeDiamond:
		return max(tw+12, 17) / 2, 10
	case ShapeTriangle:
		return max(tw+16, 19) / 2, 9
	case ShapeBurst:
		r := max(tw+12, 21) / 2
		return r, r
	case ShapeCircle:
		return max(tw+8, 16) / 2, 8
	}
	return max(tw+6, 13) / 2, 8
}

// drawMarker draws a marker of shape and colour col with text centred on
// (cx, cy) (whole pixels).
func (cv *canvas) drawMarker(cx, cy int, name, text string, col color.RGBA) {
	hw, hh := markerSize(name, text)
	c := pt{px(cx), px(cy)}
	if outlined(name) {
		cv.fill(darker(col), shape(name, c, px(hw)+sub, px(hh)+sub)...)
	}
	cv.fill(col, shape(name, c, px(hw), px(hh))...)
	if text != "" {
		ty := cy
		if name == ShapeTriangle {
			ty += 3
		}
		cv.centredText(cx, ty, text, contrast(col))
	}
}

// darker returns col at 45% brightness, opaque.
func darker(col color.RGBA) color.RGBA {
	return color.RGBA{uint8(int(col.R) * 45 / 100), uint8(int(col.G) * 45 / 100), uint8(int(col.B) * 45 / 100), 255}
}
