package picture

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"golang.org/x/image/math/fixed"
)

// glyphRows returns the pixels of r in the face, one string per row.
func glyphRows(t *testing.T, r rune) []string {
	t.Helper()
	dr, mask, mp, _, ok := face.Glyph(fixed.P(0, ascent), r)
	if !ok {
		t.Fatalf("the face has no glyph for %q", r)
	}
	var rows []string
	for y := 0; y < dr.Dy(); y++ {
		var b strings.Builder
		for x := 0; x < dr.Dx(); x++ {
			if _, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA(); a > 0 {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		rows = append(rows, b.String())
	}
	return rows
}

func TestAddedLettersHaveTheirOwnGlyphs(t *testing.T) {
	seen := map[string]rune{}
	for _, l := range letters {
		rows := glyphRows(t, l.r)
		pic := strings.Join(rows, "\n")
		if other, ok := seen[pic]; ok {
			t.Errorf("%q is drawn as %q is", l.r, other)
		}
		seen[pic] = l.r
		if l.base != 0 && pic == strings.Join(glyphRows(t, l.base), "\n") {
			t.Errorf("%q is drawn as its base %q", l.r, l.base)
		}
		t.Logf("%c\n%s", l.r, pic)
	}
	// The face's own letters are where they were.
	if got := glyphRows(t, 'A'); got[2] != "..##.." || got[7] != "######" {
		t.Errorf("A is no longer the face's A:\n%s", strings.Join(got, "\n"))
	}
}

func TestMapDrawsÅAsItsOwnLetter(t *testing.T) {
	draw := func(s string) *image.RGBA {
		cv := &canvas{img: image.NewRGBA(image.Rect(0, 0, 40, 16))}
		cv.text(0, 0, s, color.RGBA{A: 255})
		return cv.img
	}
	a, b := draw("Ån"), draw("Aan")
	same := true
	for i := range a.Pix {
		if a.Pix[i] != b.Pix[i] {
			same = false
		}
	}
	if same {
		t.Error("Ån is drawn as Aan")
	}
}
