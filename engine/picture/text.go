package picture

import (
	"image"
	"image/color"
	"strings"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// The one face used for all text: a 7x13 bitmap font, with the letters
// of the games' names added to its ASCII.
var face = withLetters(basicfont.Face7x13, letters)

// opaque is a set pixel of a glyph mask.
var opaque = color.Alpha{A: 255}

const (
	charW   = 7  // advance of every glyph
	ascent  = 11 // pixels above the baseline
	descent = 2
	lineH   = 14 // distance between baselines of wrapped text
)

// textWidth is the width of s in pixels.
func textWidth(s string) int { return charW * utf8.RuneCountInString(spell(s)) }

// text draws s with its top-left corner at (x, y) (whole pixels).
func (cv *canvas) text(x, y int, s string, col color.RGBA) {
	d := font.Drawer{Dst: cv.img, Src: image.NewUniform(col), Face: face, Dot: fixed.P(x, y+ascent)}
	d.DrawString(spell(s))
}

// folds spells in ASCII the letters and signs the face has no glyph for.
var folds = strings.NewReplacer(
	"ß", "ss", "á", "a", "à", "a", "í", "i", "ó", "o", "ú", "u", "ç", "c",
	"—", "-", "–", "-", "’", "'", "‘", "'", "“", "\"", "”", "\"", "…", "...", "°", " deg",
)

// spell returns s in the face's letters: printable ASCII and the added
// letters as they are, known others folded, anything else as '?'.
func spell(s string) string {
	s = folds.Replace(s)
	for _, r := range s {
		if !hasGlyph(r) {
			return strings.Map(func(r rune) rune {
				if !hasGlyph(r) {
					return '?'
				}
				return r
			}, s)
		}
	}
	return s
}

// hasGlyph reports whether the face draws r as itself.
func hasGlyph(r rune) bool {
	if r >= 0x20 && r <= 0x7e {
		return true
	}
	for _, l := range letters {
		if l.r == r {
			return true
		}
	}
	return false
}

// boldText draws s twice, one pixel apart.
func (cv *canvas) boldText(x, y int, s string, col color.RGBA) {
	cv.text(x, y, s, col)
	cv.text(x+1, y, s, col)
}

// haloText draws s over a one-pixel halo of colour halo, so that it reads
// over any background.
func (cv *canvas) haloText(x, y int, s string, col, halo color.RGBA) {
	for _, d := range [8][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
		cv.text(x+d[0], y+d[1], s, halo)
	}
	cv.text(x, y, s, col)
}

// centredText draws s centred on (cx, cy) (whole pixels).
func (cv *canvas) centredText(cx, cy int, s string, col color.RGBA) {
	cv.text(cx-textWidth(s)/2, cy-(ascent+descent)/2, s, col)
}

// wrap breaks s into lines of at most width pixels, at spaces where it can.
func wrap(s string, width int) []string {
	max := width / charW
	if max < 1 {
		max = 1
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		para = spell(para)
		line := ""
		for _, w := range strings.Fields(para) {
			for utf8.RuneCountInString(w) > max {
				if line != "" {
					out = append(out, line)
					line = ""
				}
				r := []rune(w)
				out = append(out, string(r[:max]))
				w = string(r[max:])
			}
			switch {
			case line == "":
				line = w
			case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= max:
				line += " " + w
			default:
				out = append(out, line)
				line = w
			}
		}
		out = append(out, line)
	}
	return out
}

// contrast returns black or white, whichever reads better on bg.
func contrast(bg color.RGBA) color.RGBA {
	if 299*int(bg.R)+587*int(bg.G)+114*int(bg.B) > 140000 {
		return color.RGBA{0, 0, 0, 255}
	}
	return color.RGBA{255, 255, 255, 255}
}
