package main

import (
	"image"
	"image/color"
	"image/png"
	"os"
)

// drawPNG renders the map for checking by eye, north up, 0.8 pixel a
// kilometre: each hex tinted by its terrain (blue sea, yellow coastal, green
// land) and the Natural Earth land darkened over it.
func drawPNG(path string, m *mapData, l *land) error {
	const pxPerKm = 0.8
	minX, maxX := centre(hexRC{1, 1})[0]-40, centre(hexRC{2, cols})[0]+40
	minY, maxY := centre(hexRC{1, 1})[1]-45, centre(hexRC{rows, 1})[1]+45
	w, h := int((maxX-minX)*pxPerKm), int((maxY-minY)*pxPerKm)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	terr := map[hexRC]string{}
	for _, d := range m.hexes {
		terr[d.hex] = d.terrain
	}
	for py := 0; py < h; py++ {
		for px := 0; px < w; px++ {
			pt := xy{minX + float64(px)/pxPerKm, maxY - float64(py)/pxPerKm}
			hx := hexOf(pt)
			var c color.RGBA
			switch terr[hx] {
			case "sea":
				c = color.RGBA{150, 190, 235, 255}
			case "coastal":
				c = color.RGBA{240, 220, 120, 255}
			case "land":
				c = color.RGBA{150, 200, 130, 255}
			default:
				c = color.RGBA{255, 255, 255, 255}
			}
			if l.at(pt) != "" {
				c.R, c.G, c.B = c.R/2, c.G/2, c.B/2
			}
			img.SetRGBA(px, py, c)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return png.Encode(f, img)
}
