package picture

import (
	"encoding/binary"
	"image"
	"image/color"
	"sync"
)

// A picture's base, what is drawn first and is the same in every report of
// a game and in most games of a ruleset (a hex map's cells, grid and
// hexsides; an area map's sea, frame and outlines), is drawn once and
// copied into each picture after. The base is drawn alone on paper, so it
// is kept only where that gives the same pixels as drawing the picture in
// one go: where nothing drawn before it in the picture (the title) shares a
// pixel with it, and where the picture's bottom cuts none of it that the
// base's own bottom would not.

// titleBottom is the first pixel row under the title and subtitle (7x13
// glyphs from rows 8 and 25).
const titleBottom = 25 + ascent + descent

// layerBudget bounds the bytes of the bases kept, the least recently used
// going first.
const layerBudget = 64 << 20

// useLayers can be cleared by tests to draw every picture in one go.
var useLayers = true

// layer is a drawn base: the first Dy rows of the picture (nil when the
// base cannot be drawn alone).
type layer struct {
	once sync.Once
	img  *image.RGBA
	size int    // bytes counted against the budget
	used uint64 // when last used, in look-ups of the cache
}

var layers = struct {
	sync.Mutex
	byKey map[string]*layer
	bytes int
	clock uint64
}{byKey: map[string]*layer{}}

// baseLayer returns the base described by key (every input of draw and
// the size), drawing it with draw on a paper canvas w by h pixels the
// first time. Pictures drawn at once wait for one another's base rather
// than draw it twice. It returns nil if the base cannot be drawn alone.
func baseLayer(key []byte, w, h int, draw func(*canvas)) *image.RGBA {
	if !useLayers {
		return nil
	}
	layers.Lock()
	layers.clock++
	l, ok := layers.byKey[string(key)]
	if !ok {
		l = &layer{}
		layers.byKey[string(key)] = l
	}
	l.used = layers.clock
	layers.Unlock()
	l.once.Do(func() {
		cv := newCanvas(w, h, paper)
		cv.track = true
		cv.top, cv.bottom = h, 0
		draw(cv)
		if cv.top >= titleBottom && cv.bottom <= h {
			l.img = cv.img
		}
		layers.Lock()
		if layers.byKey[string(key)] == l {
			l.size = len(key)
			if l.img != nil {
				l.size += len(l.img.Pix)
			}
			layers.bytes += l.size
			evict()
		}
		layers.Unlock()
	})
	return l.img
}

// evict drops the least recently used bases while over the budget (the
// one just made stays).
func evict() {
	for layers.bytes > layerBudget && len(layers.byKey) > 1 {
		var oldest string
		var at uint64
		for k, l := range layers.byKey {
			if at == 0 || l.used < at {
				oldest, at = k, l.used
			}
		}
		layers.bytes -= layers.byKey[oldest].size
		delete(layers.byKey, oldest)
	}
}

// canvasOn returns a paper canvas w by h pixels with base copied over its
// first rows.
func canvasOn(base *image.RGBA, w, h int) *canvas {
	img := newRGBA(w, h)
	n := copy(img.Pix, base.Pix)
	fillPaper(img.Pix[n:], paper)
	return &canvas{img: img, rect: img.Rect}
}

// titledCanvas is a w by h canvas with its title and subtitle written
// over its base: draw's picture, baseH tall, taken from the cache of
// bases under key where it is kept.
func titledCanvas(key []byte, w, baseH, h int, draw func(*canvas), title, subtitle string) *canvas {
	if base := baseLayer(key, w, baseH, draw); base != nil {
		cv := canvasOn(base, w, h)
		cv.boldText(10, 8, title, ink)
		cv.text(10, 25, subtitle, grey)
		return cv
	}
	cv := newCanvas(w, h, paper)
	cv.boldText(10, 8, title, ink)
	cv.text(10, 25, subtitle, grey)
	draw(cv)
	return cv
}

// keyWriter appends the inputs of a base to its cache key.
type keyWriter []byte

func (k *keyWriter) int(v int) { *k = binary.AppendVarint(*k, int64(v)) }

func (k *keyWriter) colour(c color.RGBA) { *k = append(*k, c.R, c.G, c.B, c.A) }

func (k *keyWriter) bool(b bool) {
	if b {
		*k = append(*k, 1)
	} else {
		*k = append(*k, 0)
	}
}
