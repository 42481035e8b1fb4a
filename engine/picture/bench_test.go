package picture

import (
	"image/color"
	"testing"
)

// large is a map of the size of a ruleset's (32 rows of 20 hexes) with
// land, sea, fjords, coasts, labels and markers spread over it.
func large() *HexMap {
	m := &HexMap{Rows: 32, Cols: 20, EvenRowsEast: true, Title: "Large", Subtitle: "a ruleset's size"}
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			cell := Cell{Row: r, Col: c, Fill: sea}
			if c > 8+r%5 {
				cell.Fill = land
				if (r+c)%7 == 0 {
					cell.Hatch = color.RGBA{40, 90, 170, 230}
				}
				if c == 9+r%5 {
					m.Edges = append(m.Edges, Edge{A: Pos{r, c - 1}, B: Pos{r, c}, Color: ink, Width: 2})
				}
			}
			if (r*c)%23 == 0 {
				cell.Label = "Place " + RowName(r)
				cell.Badges = []Badge{{ShapeRing, ink}}
			}
			m.Cells = append(m.Cells, cell)
		}
	}
	for i := 0; i < 40; i++ {
		m.Markers = append(m.Markers, Marker{Row: 1 + i*7%32, Col: 1 + i*3%20, Text: "3", Color: red, Shape: ShapeDiamond})
	}
	m.Legend = sample().Legend
	m.Notes = sample().Notes
	return m
}

// BenchmarkHexMap draws a large map and encodes it, and each part alone.
func BenchmarkHexMap(b *testing.B) {
	m := large()
	img, err := m.Image()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("draw", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := m.Image(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("palette", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			paletted(img)
		}
	})
	b.Run("encode", func(b *testing.B) {
		n := 0
		for i := 0; i < b.N; i++ {
			png, err := encode(img)
			if err != nil {
				b.Fatal(err)
			}
			n = len(png)
		}
		b.ReportMetric(float64(n)/1000, "KB")
	})
}
