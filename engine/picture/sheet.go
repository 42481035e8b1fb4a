package picture

import (
	"errors"
	"image"
	"image/draw"
)

// Sheet puts several pictures on one page and returns the PNG file's bytes:
// each inner slice of rows is one row of pictures, laid left to right and
// aligned at their tops, and the rows are stacked top to bottom. A row is as
// tall as its tallest picture; the page is as wide as its widest row, and
// the space no picture covers is paper. Nil pictures are skipped. The same
// pictures always give the same bytes.
func Sheet(rows [][]*image.RGBA) ([]byte, error) {
	w, h := 0, 0
	for _, row := range rows {
		rw, rh := 0, 0
		for _, img := range row {
			if img == nil {
				continue
			}
			rw += img.Bounds().Dx()
			rh = max(rh, img.Bounds().Dy())
		}
		w, h = max(w, rw), h+rh
	}
	if w < 1 || h < 1 {
		return nil, errors.New("picture: a sheet without pictures")
	}
	if w > 8000 || h > 8000 {
		return nil, errors.New("picture: a sheet larger than 8000 pixels a side")
	}
	cv := newCanvas(w, h, paper)
	y := 0
	for _, row := range rows {
		x, rh := 0, 0
		for _, img := range row {
			if img == nil {
				continue
			}
			b := img.Bounds()
			draw.Draw(cv.img, image.Rect(x, y, x+b.Dx(), y+b.Dy()), img, b.Min, draw.Src)
			x += b.Dx()
			rh = max(rh, b.Dy())
		}
		y += rh
	}
	b, err := encode(cv.img)
	release(cv.img)
	return b, err
}
