package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Hex is a hex of an offset-coordinate map whose rows are lettered and whose
// columns are numbered, as printed wargame maps name them: "A12", "FF20".
// Rows are lettered A..Z for 1..26 and then AA, BB, ... for 27, 28, ...;
// Row and Col are 1-based. Even rows sit half a hex east of odd rows
// (pointy-top hexes, "even-r" offset layout), which is how the Kriegsmarine
// Strikes map is drawn.
type Hex struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// RowName returns the letters of row r: 1 -> "A", 26 -> "Z", 27 -> "AA".
func RowName(r int) string {
	if r < 1 {
		return "?"
	}
	letter := byte('A' + (r-1)%26)
	return strings.Repeat(string(letter), 1+(r-1)/26)
}

// String returns the hex's printed name, e.g. "Q16".
func (h Hex) String() string { return RowName(h.Row) + strconv.Itoa(h.Col) }

// ParseHex reads a hex name such as "q16" or "AA17" (any case).
func ParseHex(s string) (Hex, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	letters, digits := s[:i], s[i:]
	if letters == "" || digits == "" {
		return Hex{}, fmt.Errorf("%q is not a hex name (letters then a number, e.g. Q16)", s)
	}
	for j := 1; j < len(letters); j++ {
		if letters[j] != letters[0] {
			return Hex{}, fmt.Errorf("%q is not a hex name: a double-letter row repeats one letter (AA, BB, ...)", s)
		}
	}
	col, err := strconv.Atoi(digits)
	if err != nil || col < 1 {
		return Hex{}, fmt.Errorf("%q is not a hex name: %q is not a column number", s, digits)
	}
	row := int(letters[0]-'A') + 1 + 26*(len(letters)-1)
	return Hex{Row: row, Col: col}, nil
}

// axial converts offset coordinates to axial (q, r).
func (h Hex) axial() (q, r int) {
	r = h.Row
	q = h.Col - (r+(r&1))/2
	return q, r
}

func fromAxial(q, r int) Hex {
	return Hex{Row: r, Col: q + (r+(r&1))/2}
}

// Distance is the number of hex steps from h to o.
func (h Hex) Distance(o Hex) int {
	q1, r1 := h.axial()
	q2, r2 := o.axial()
	dq, dr := q1-q2, r1-r2
	return (abs(dq) + abs(dr) + abs(dq+dr)) / 2
}

// Direction is one of the six hexside directions of a pointy-top hex.
type Direction int

// The six directions, clockwise from north-east. "North" is the direction of
// increasing row letters.
const (
	NorthEast Direction = iota
	East
	SouthEast
	SouthWest
	West
	NorthWest
)

var dirNames = [...]string{"NE", "E", "SE", "SW", "W", "NW"}

// String names the direction.
func (d Direction) String() string {
	if d < 0 || int(d) >= len(dirNames) {
		return "?"
	}
	return dirNames[d]
}

// axial deltas for NE, E, SE, SW, W, NW (r grows northwards).
var axialDelta = [6][2]int{{0, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}}

// Neighbor returns the adjacent hex in direction d (it may lie off the map).
func (h Hex) Neighbor(d Direction) Hex {
	q, r := h.axial()
	dd := axialDelta[((int(d)%6)+6)%6]
	return fromAxial(q+dd[0], r+dd[1])
}

// Neighbors returns the six adjacent hexes, NE first, clockwise.
func (h Hex) Neighbors() [6]Hex {
	var out [6]Hex
	for d := Direction(0); d < 6; d++ {
		out[d] = h.Neighbor(d)
	}
	return out
}

// DirectionTo returns the direction from h to an adjacent hex o.
func (h Hex) DirectionTo(o Hex) (Direction, bool) {
	for d := Direction(0); d < 6; d++ {
		if h.Neighbor(d) == o {
			return d, true
		}
	}
	return 0, false
}

// Hexside names the edge between two adjacent hexes, independent of the
// order they are given in.
type Hexside struct{ A, B Hex }

// MakeHexside returns the canonical hexside between a and b.
func MakeHexside(a, b Hex) Hexside {
	if b.Row < a.Row || (b.Row == a.Row && b.Col < a.Col) {
		a, b = b, a
	}
	return Hexside{A: a, B: b}
}

// String returns "A12/A13".
func (s Hexside) String() string { return s.A.String() + "/" + s.B.String() }

// HexGrid is a rectangular offset map of Rows x Cols hexes.
type HexGrid struct {
	Rows, Cols int
}

// Contains reports whether h is on the map.
func (g HexGrid) Contains(h Hex) bool {
	return h.Row >= 1 && h.Row <= g.Rows && h.Col >= 1 && h.Col <= g.Cols
}

// All returns every hex of the grid, row by row from A1.
func (g HexGrid) All() []Hex {
	out := make([]Hex, 0, g.Rows*g.Cols)
	for r := 1; r <= g.Rows; r++ {
		for c := 1; c <= g.Cols; c++ {
			out = append(out, Hex{Row: r, Col: c})
		}
	}
	return out
}

// Within returns the on-map hexes at most n steps from h, in grid order.
func (g HexGrid) Within(h Hex, n int) []Hex {
	var out []Hex
	for r := h.Row - n; r <= h.Row+n; r++ {
		for c := h.Col - n - 1; c <= h.Col+n+1; c++ {
			x := Hex{Row: r, Col: c}
			if g.Contains(x) && h.Distance(x) <= n {
				out = append(out, x)
			}
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
