package main

import (
	"math"
	"strconv"
	"strings"
)

// The map's hex layout, measured by least squares from the hexes the
// rulebook names (see /work/shared/notes/kriegsmarine-map.md): pointy-top
// hexes, rows lettered south to north, columns numbered west to east, even
// rows half a hex east, centres in kilometres of the Lambert conformal conic
// projection with standard parallel 62N and central meridian 3E:
//
//	x = (col + 0.5*[row even]) * 58.99 - 528.8
//	y = row * 51.09 - 673.9
const (
	rows    = 32
	cols    = 20
	colStep = 58.99
	colOff  = 528.8
	rowStep = 51.09
	rowOff  = 673.9
	projLat = 62.0
	projLon = 3.0
)

// hexRC is a hex by 1-based row and column.
type hexRC struct{ row, col int }

// name returns the printed hex name: A1, Z16, AA17, FF20.
func (h hexRC) name() string {
	letter := string(rune('A' + (h.row-1)%26))
	return strings.Repeat(letter, 1+(h.row-1)/26) + strconv.Itoa(h.col)
}

// centre returns the hex centre in projected kilometres.
func centre(h hexRC) xy {
	x := float64(h.col) * colStep
	if h.row%2 == 0 {
		x += colStep / 2
	}
	return xy{x - colOff, float64(h.row)*rowStep - rowOff}
}

// hexOf returns the hex whose centre is nearest to pt, which for a regular
// hex grid is the hex containing pt. The result may lie off the map.
func hexOf(pt xy) hexRC {
	r0 := int(math.Round((pt[1] + rowOff) / rowStep))
	best, bestD := hexRC{}, math.Inf(1)
	for r := r0 - 1; r <= r0+1; r++ {
		shift := 0.0
		if r%2 == 0 {
			shift = 0.5
		}
		c0 := int(math.Round((pt[0]+colOff)/colStep - shift))
		for c := c0 - 1; c <= c0+1; c++ {
			h := hexRC{r, c}
			ctr := centre(h)
			if d := math.Hypot(pt[0]-ctr[0], pt[1]-ctr[1]); d < bestD {
				best, bestD = h, d
			}
		}
	}
	return best
}

// neighbours3 returns the hexes adjacent to h across its east, north-east and
// north-west sides (the other three are found from the other side), in the
// even-rows-shifted-east layout.
func neighbours3(h hexRC) []hexRC {
	if h.row%2 == 0 {
		return []hexRC{{h.row, h.col + 1}, {h.row + 1, h.col + 1}, {h.row + 1, h.col}}
	}
	return []hexRC{{h.row, h.col + 1}, {h.row + 1, h.col}, {h.row + 1, h.col - 1}}
}

// hexsideEnds returns the two vertices of the side shared by adjacent hexes a
// and b: the side is the perpendicular bisector of the centres' segment, one
// circumradius long (colStep/sqrt(3) for a regular pointy-top grid).
func hexsideEnds(a, b hexRC) (xy, xy) {
	ca, cb := centre(a), centre(b)
	mx, my := (ca[0]+cb[0])/2, (ca[1]+cb[1])/2
	dx, dy := cb[0]-ca[0], cb[1]-ca[1]
	half := colStep / math.Sqrt(3) / 2 / math.Hypot(dx, dy)
	return xy{mx - dy*half, my + dx*half}, xy{mx + dy*half, my - dx*half}
}

// onMap reports whether h is one of the map's hexes.
func onMap(h hexRC) bool { return h.row >= 1 && h.row <= rows && h.col >= 1 && h.col <= cols }

// mapExtent returns the projected box (minX, minY, maxX, maxY) covering every
// hex of the map with a margin of one circumradius.
func mapExtent() [4]float64 {
	r := colStep / math.Sqrt(3)
	return [4]float64{
		centre(hexRC{1, 1})[0] - r, centre(hexRC{1, 1})[1] - r,
		centre(hexRC{2, cols})[0] + r, centre(hexRC{rows, 1})[1] + r,
	}
}
