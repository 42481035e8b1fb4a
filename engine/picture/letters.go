package picture

import (
	"image"
	"slices"

	"golang.org/x/image/font/basicfont"
)

// letter is a glyph the bitmap face lacks, drawn for this project in the
// face's 6x13 cell: the rows of base (a letter the face has; 0 for none)
// with the '#' pixels of marks set over them. Row 11 is the baseline's
// row below the letter; capitals stand in rows 2-10, small letters in 5-10.
type letter struct {
	r     rune
	base  rune
	marks [13]string
}

// letters are the Nordic, German and French letters of the games' place,
// ship and card names, so that a map spells Åndalsnes, Tromsø and Blücher
// as its report does. Anything else still folds to ASCII (see folds).
var letters = []letter{
	{r: 'Å', marks: [13]string{
		"..##..", ".#..#.", "..##..", ".#..#.", "#....#", "#....#", "######",
		"#....#", "#....#", "#....#", "#....#"}},
	{r: 'å', base: 'a', marks: [13]string{1: "..##..", 2: ".#..#.", 3: "..##.."}},
	{r: 'Æ', marks: [13]string{
		2: ".#####", 3: "#.#...", 4: "#.#...", 5: "#.#...", 6: "#####.",
		7: "#.#...", 8: "#.#...", 9: "#.#...", 10: "#.####"}},
	{r: 'æ', marks: [13]string{
		5: ".##.#.", 6: "...#.#", 7: ".#####", 8: "#..#..", 9: "#..#.#", 10: ".##.#."}},
	{r: 'Ø', base: 'O', marks: [13]string{
		1: ".....#", 2: ".....#", 3: "....#.", 4: "....#.", 5: "...#..", 6: "..#...",
		7: "..#...", 8: ".#....", 9: ".#....", 10: "#.....", 11: "#....."}},
	{r: 'ø', base: 'o', marks: [13]string{
		4: ".....#", 5: ".....#", 6: "....#.", 7: "...#..", 8: "..#...", 9: ".#....", 10: "#....."}},
	{r: 'Ä', base: 'A', marks: [13]string{0: ".#..#."}},
	{r: 'ä', base: 'a', marks: [13]string{3: ".#..#."}},
	{r: 'Ö', base: 'O', marks: [13]string{0: ".#..#."}},
	{r: 'ö', base: 'o', marks: [13]string{3: ".#..#."}},
	{r: 'Ü', base: 'U', marks: [13]string{0: ".#..#."}},
	{r: 'ü', base: 'u', marks: [13]string{3: ".#..#."}},
	{r: 'É', base: 'E', marks: [13]string{0: "...#..", 1: "..#..."}},
	{r: 'é', base: 'e', marks: [13]string{2: "...#..", 3: "..#..."}},
	{r: 'è', base: 'e', marks: [13]string{2: ".#....", 3: "..#..."}},
	{r: 'ê', base: 'e', marks: [13]string{2: "..##..", 3: ".#..#."}},
}

// withLetters returns the bitmap face f with letters added after its own
// glyphs, each its own range, in rune order before f's replacement glyph.
func withLetters(f *basicfont.Face, ls []letter) *basicfont.Face {
	ls = slices.Clone(ls)
	slices.SortFunc(ls, func(a, b letter) int { return int(a.r - b.r) })
	h := f.Ascent + f.Descent
	n := f.Mask.Bounds().Dy() / h
	mask := image.NewAlpha(image.Rect(0, 0, f.Width, (n+len(ls))*h))
	for y := 0; y < n*h; y++ {
		for x := 0; x < f.Width; x++ {
			mask.Set(x, y, f.Mask.At(x, y))
		}
	}
	var ranges, last []basicfont.Range
	for _, rg := range f.Ranges {
		if rg.Low >= 0x100 {
			last = append(last, rg)
		} else {
			ranges = append(ranges, rg)
		}
	}
	out := *f
	for i, l := range ls {
		top := (n + i) * h
		if l.base != 0 {
			base := f.Ranges[0]
			src := (int(l.base-base.Low) + base.Offset) * h
			for y := 0; y < h; y++ {
				for x := 0; x < f.Width; x++ {
					mask.Set(x, top+y, f.Mask.At(x, src+y))
				}
			}
		}
		for y, row := range l.marks {
			for x, c := range row {
				if c == '#' {
					mask.SetAlpha(x, top+y, opaque)
				}
			}
		}
		ranges = append(ranges, basicfont.Range{Low: l.r, High: l.r + 1, Offset: n + i})
	}
	out.Mask, out.Ranges = mask, append(ranges, last...)
	return &out
}
