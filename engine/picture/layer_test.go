package picture

import (
	"bytes"
	"image"
	"sync"
	"testing"
)

// drawnAlone draws a picture in one go, without the kept bases.
func drawnAlone(t *testing.T, draw func() (*image.RGBA, error)) *image.RGBA {
	t.Helper()
	useLayers = false
	defer func() { useLayers = true }()
	img, err := draw()
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// samePixels checks that a picture drawn over its kept base, the first
// time and again, has the pixels of the picture drawn in one go.
func samePixels(t *testing.T, name string, draw func() (*image.RGBA, error)) {
	t.Helper()
	want := drawnAlone(t, draw)
	for _, pass := range []string{"first", "again"} {
		got, err := draw()
		if err != nil {
			t.Fatal(err)
		}
		if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("%s, %s over its base: the pixels differ from the map drawn in one go", name, pass)
		}
	}
}

func TestBaseLayersKeepThePixels(t *testing.T) {
	samePixels(t, "sample", sample().Image)
	samePixels(t, "large", large().Image)
	samePixels(t, "outlines", outlinedAreaMap().Image)
	// The same cells and hexsides under other markers and notes share a
	// base; the pixels stay those of each map drawn alone.
	m := large()
	m.Markers = m.Markers[:3]
	m.Notes = append(m.Notes, "another", "and longer", "list of notes")
	samePixels(t, "large, other markers", m.Image)
	// A cell of another colour is another base.
	m.Cells[100].Fill = red
	samePixels(t, "large, a cell red", m.Image)
}

func TestBaseLayerNotUsedWhereItWouldChangePixels(t *testing.T) {
	// A hexside so wide that it reaches the subtitle, drawn before it.
	m := sample()
	m.Subtitle = "a subtitle over the top row's wide hexside, long enough to cross it"
	m.Edges = append(m.Edges, Edge{A: Pos{6, 2}, B: Pos{6, 3}, Color: red, Width: 80})
	l := m.layout()
	mapBottom := ceilDiv(l.y0+l.mapH, sub) + 24
	if baseLayer(m.baseKey(l, mapBottom), l.width, mapBottom, func(cv *canvas) { m.drawBase(cv, l) }) != nil {
		t.Error("a base reaching the subtitle was kept")
	}
	samePixels(t, "wide hexside", m.Image)
	// An outline stroked so wide at the map's bottom that the base's own
	// bottom would cut it where the picture does not.
	a := outlinedAreaMap()
	a.Outlines = append(a.Outlines, Outline{Points: []image.Point{{0, 200}, {300, 200}}, Open: true, Line: red, Width: 40})
	a.Notes = []string{"notes", "enough", "to make", "the picture", "taller", "than", "the map", "and", "its", "base", "by", "far", "so", "that", "the", "stroke", "shows", "under", "it", "x", "y", "z"}
	w, h := areaLeft+a.Width+20+legendWidth+12, areaTop+a.Height+10
	if baseLayer(a.baseKey(w, h), w, h, a.drawBase) != nil {
		t.Error("a base cut at its bottom was kept")
	}
	samePixels(t, "wide outline", a.Image)
}

// TestBaseLayerDrawnAtOnce draws one map from several goroutines at once
// (as a deadline draws every game's reports): each gets the same pixels.
func TestBaseLayerDrawnAtOnce(t *testing.T) {
	m := large()
	m.Cells[7].Fill = yellow // a base no other test made
	want := drawnAlone(t, m.Image)
	var wg sync.WaitGroup
	got := make([]*image.RGBA, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = m.Image()
		}()
	}
	wg.Wait()
	for i, img := range got {
		if img == nil || !bytes.Equal(img.Pix, want.Pix) {
			t.Errorf("drawing %d: the pixels differ from the map drawn alone", i)
		}
	}
}

func TestBaseLayersWithinBudget(t *testing.T) {
	m := large()
	for i := 0; i < 12; i++ { // 12 bases of 5.6 MB: more than the budget
		m.Cells[i].Fill = ink
		if _, err := m.Image(); err != nil {
			t.Fatal(err)
		}
	}
	layers.Lock()
	defer layers.Unlock()
	if layers.bytes > layerBudget {
		t.Errorf("%d bytes of bases kept, over the budget of %d", layers.bytes, layerBudget)
	}
	n := 0
	for _, l := range layers.byKey {
		n += l.size
	}
	if n != layers.bytes {
		t.Errorf("bases of %d bytes kept, counted as %d", n, layers.bytes)
	}
}
