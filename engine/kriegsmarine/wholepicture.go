package kriegsmarine

import (
	"fmt"
	"image/color"
	"strings"

	"skagerrak/engine"
	"skagerrak/engine/picture"
)

// PictureWhole implements engine.WholePicturer: the map of the data pack
// with both sides' forces where they are (Allied and German, each in its
// colour, as each side's own map draws them), and the groups each side
// tracks; no searches, contacts or fights, which are one side's news.
func (r Ruleset) PictureWhole(st engine.State) ([]byte, error) {
	allied, ok := r.View(st, Allied).(*View)
	german, ok2 := r.View(st, German).(*View)
	if !ok || !ok2 {
		return nil, fmt.Errorf("kriegsmarine: not a kriegsmarine state: %T", st)
	}
	return wholeMap(allied, german).PNG()
}

var _ engine.WholePicturer = Ruleset{}

// wholeMap builds the draw list of the whole map from each side's View.
func wholeMap(allied, german *View) *picture.HexMap {
	m := &picture.HexMap{Rows: MapRows, Cols: MapCols, EvenRowsEast: true}
	m.Title = "Norway 1940: The Kriegsmarine Strikes - the whole game, fog lifted"
	m.Subtitle = allied.Title
	if !allied.Over {
		m.Subtitle += ", weather " + allied.Weather
	}
	present := baseMap(m, allied)
	for _, v := range []*View{allied, german} {
		for _, n := range ownUnits(m, v, v.Side) {
			m.Notes = append(m.Notes, strings.Replace(n, "Your ", sideName(v.Side)+" ", 1))
		}
	}
	m.Legend = wholeLegend(present)
	return m
}

// wholeLegend is the legend of the whole map: the map's own items, then
// both sides' forces.
func wholeLegend(present []string) []picture.LegendItem {
	items := legend(present, Allied)
	for i, it := range items {
		if it.Kind == picture.LegendHeading && strings.HasPrefix(it.Text, "Your forces") {
			items = items[:i]
			break
		}
	}
	for _, f := range []struct {
		name string
		col  color.RGBA
	}{{"Allied", picAllied}, {"German", picGerman}} {
		items = append(items,
			picture.LegendItem{Kind: picture.LegendHeading, Text: f.name + " forces (number of units)"},
			picture.LegendItem{Kind: picture.LegendMarker, Text: "surface ships", Shape: picture.ShapeBox, Sample: "2", Color: f.col},
			picture.LegendItem{Kind: picture.LegendMarker, Text: "submarines", Shape: picture.ShapeCircle, Sample: "1", Color: f.col},
			picture.LegendItem{Kind: picture.LegendMarker, Text: "aircraft at base", Shape: picture.ShapeTriangle, Sample: "3", Color: f.col},
		)
	}
	return append(items, picture.LegendItem{Kind: picture.LegendRing, Text: "a group tracked by the enemy", Color: picTracked})
}
