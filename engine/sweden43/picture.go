package sweden43

import (
	"fmt"
	"image/color"
	"sort"
	"strconv"
	"strings"

	"skagerrak/engine"
	"skagerrak/engine/picture"
)

// Colours of the Objective: Sweden map picture.
var (
	picSea      = color.RGBA{164, 200, 228, 255}
	picLake     = color.RGBA{120, 172, 220, 255}
	picClear    = color.RGBA{218, 226, 176, 255}
	picForest   = color.RGBA{150, 188, 118, 255}
	picMountain = color.RGBA{184, 160, 128, 255}
	picRough    = color.RGBA{204, 190, 150, 255}
	picILake    = color.RGBA{70, 130, 200, 200}
	picCoast    = color.RGBA{45, 70, 100, 255}
	picBorder   = color.RGBA{170, 20, 30, 255}
	picRiver    = color.RGBA{30, 95, 200, 255}
	picRail     = color.RGBA{40, 40, 40, 255}
	picCaptured = color.RGBA{200, 30, 30, 150}
	picGerman   = color.RGBA{80, 88, 94, 255}
	picAllied   = color.RGBA{40, 100, 170, 255}
	picOOS      = color.RGBA{245, 130, 0, 255}
	picPort     = color.RGBA{20, 40, 110, 255}
	picAirbase  = color.RGBA{50, 50, 50, 255}
	picEntry    = color.RGBA{215, 30, 30, 255}
	picInk      = color.RGBA{30, 30, 30, 255}
)

// sideColour is the colour of a side's units and of the cities it owns.
func sideColour(side engine.Side) color.RGBA {
	if side == German {
		return picGerman
	}
	return picAllied
}

// terrainColour is the colour of a terrain letter of data/map.txt.
func terrainColour(t byte) color.RGBA {
	switch t {
	case 'f':
		return picForest
	case 'm':
		return picMountain
	case 'r':
		return picRough
	case '=':
		return picLake
	case '~':
		return picSea
	}
	return picClear
}

// greyed is a land colour as Norway and Denmark show it: a third grey, so
// that Sweden stands out.
func greyed(c color.RGBA) color.RGBA {
	return color.RGBA{uint8((2*int(c.R) + 170) / 3), uint8((2*int(c.G) + 170) / 3), uint8((2*int(c.B) + 170) / 3), 255}
}

// DrawMap implements engine.TypedBook: the side's map (Picture draws it as
// a PNG), from its View alone. It shows the reconstructed 42x26 hex map of
// data/map.txt (terrain, Sweden in full colour and Norway and Denmark
// greyed, coasts, the border, rivers, rail lines, cities in the owner's
// colour, ports, airbases and entry hexes), Swedish hexes the Germans have
// taken hatched red, every ground unit on the map as one counter a side a
// hex with the number of units (the map is open, 15B), the side's own units
// out of supply, air units at their bases, and a legend whose notes give
// the turn, the weather, the cities and what the side still has to come.
// The enemy's order of battle off the map is not in the View and is not
// drawn.
func (rules) DrawMap(v View, side engine.Side) (engine.Drawing, error) {
	if err := engine.CheckMapSide("sweden43", v.Side, side, Allied, German); err != nil {
		return nil, err
	}
	return mapPicture(v, side), nil
}

func sideWord(side engine.Side) string {
	if side == German {
		return "German"
	}
	return "Allied"
}

// mapPicture builds the draw list of side's map from v.
func mapPicture(v View, side engine.Side) *picture.HexMap {
	st := stateOf(v)
	c := newCtx(st)
	m := &picture.HexMap{Rows: data.Grid.Rows, Cols: data.Grid.Cols, EvenRowsEast: true, HexSize: 17}
	sd, _ := data.scenarioDef(v.Scenario)
	m.Title = sd.Title + " - " + sideWord(side) + " map"
	m.Subtitle = v.Phase.Title
	if v.Result != nil {
		m.Subtitle = "Result: " + v.Result.Summary
	}
	pos := func(h engine.Hex) picture.Pos { return picture.Pos{Row: h.Row, Col: h.Col} }
	for r := 1; r <= data.Grid.Rows; r++ {
		for col := 1; col <= data.Grid.Cols; col++ {
			h := engine.Hex{Row: r, Col: col}
			t := data.TerrainAt(h)
			country := data.CountryAt(h)
			cell := picture.Cell{Row: r, Col: col, Fill: terrainColour(t)}
			if t == 'i' {
				cell.Hatch = picILake
			}
			if data.Land(h) && country != 'S' {
				cell.Fill = greyed(cell.Fill)
			}
			if country == 'S' && data.Land(h) && c.owner(h) == German {
				cell.Hatch = picCaptured
			}
			if p, ok := data.PlaceAt(h); ok {
				cell.Label = p.Name
				cell.LabelColor = picInk
				switch {
				case p.IsCity():
					cell.Badges = append(cell.Badges, picture.Badge{Shape: picture.ShapeCircle, Color: sideColour(c.owner(h))})
				case p.Kind == "entry":
					cell.Badges = append(cell.Badges, picture.Badge{Shape: picture.ShapeTriangle, Color: picEntry})
					cell.LabelColor = picEntry
				}
				if p.Port {
					cell.Badges = append(cell.Badges, picture.Badge{Shape: picture.ShapeRing, Color: picPort})
				}
				if p.Airbase {
					cell.Badges = append(cell.Badges, picture.Badge{Shape: picture.ShapePlus, Color: picAirbase})
				}
			}
			m.Cells = append(m.Cells, cell)
			// Hexsides to the neighbours with a greater name, once each.
			for _, n := range h.Neighbors() {
				if !data.Grid.Contains(n) || !(n.Row > h.Row || (n.Row == h.Row && n.Col > h.Col)) {
					continue
				}
				switch {
				case data.Land(h) != data.Land(n) && (t == '~' || data.TerrainAt(n) == '~'):
					m.Edges = append(m.Edges, picture.Edge{A: pos(h), B: pos(n), Color: picCoast, Width: 2})
				case data.Land(h) && data.Land(n) && country != data.CountryAt(n):
					m.Edges = append(m.Edges, picture.Edge{A: pos(h), B: pos(n), Color: picBorder, Width: 3})
				}
				if data.River(h, n) != "" {
					m.Edges = append(m.Edges, picture.Edge{A: pos(h), B: pos(n), Color: picRiver, Width: 3})
				}
			}
		}
	}
	for _, rl := range data.Rails {
		var hs []picture.Pos
		for _, h := range rl.Hexes {
			hs = append(hs, pos(h))
		}
		m.Lines = append(m.Lines, picture.Line{Hexes: hs, Color: picRail, Width: 1})
	}
	m.Markers, m.Notes = forces(v, side)
	m.Legend = legend(side)
	m.Notes = append(boardNotes(v, c), m.Notes...)
	return m
}

// forces are the ground and air units on the map as markers, own side
// first, and the notes on them.
func forces(v View, side engine.Side) ([]picture.Marker, []string) {
	var marks []picture.Marker
	var notes []string
	for _, sd := range []engine.Side{side, other(side)} {
		m, n := sideForces(v, side, sd)
		marks, notes = append(marks, m...), append(notes, n...)
	}
	return marks, notes
}

// sideForces are side sd's ground and air units on the map as seen by side,
// as markers, and the notes on them.
func sideForces(v View, side, sd engine.Side) ([]picture.Marker, []string) {
	var marks []picture.Marker
	var notes []string
	g := groundOnMap(v, side, sd)
	air, bases, offMap := airOnMap(v, sd)
	var oosHexes []string
	for _, h := range g.hexes {
		marks = append(marks, picture.Marker{Row: h.Row, Col: h.Col, Text: strconv.Itoa(g.count[h]), Color: sideColour(sd)})
		if g.oos[h] {
			marks = append(marks, picture.Marker{Row: h.Row, Col: h.Col, Text: "!", Color: picOOS, Shape: picture.ShapeCircle})
			oosHexes = append(oosHexes, data.HexName(h))
		}
	}
	for _, h := range bases {
		marks = append(marks, picture.Marker{Row: h.Row, Col: h.Col, Text: strconv.Itoa(air[h]), Color: sideColour(sd), Shape: picture.ShapeTriangle})
	}
	who := "Your"
	if sd != side {
		who = "Enemy"
	}
	n := 0
	for _, k := range air {
		n += k
	}
	line := fmt.Sprintf("%s ground units on the map: %d in %d hexes; air units: %d at %d bases", who, g.total, len(g.hexes), n, len(bases))
	if offMap > 0 {
		line += fmt.Sprintf(", %d in the UK box", offMap)
	}
	notes = append(notes, line+".")
	if len(oosHexes) > 0 {
		notes = append(notes, "Out of supply: "+strings.Join(oosHexes, ", ")+".")
	}
	if sd == side {
		notes = append(notes, waitingNotes(v, side)...)
	}
	return marks, notes
}

// groundCount is where a side's ground units on the map stand.
type groundCount struct {
	count map[engine.Hex]int
	oos   map[engine.Hex]bool // out of supply, own side only
	hexes []engine.Hex        // by row, then column
	total int
}

// groundOnMap counts side sd's ground units on the map as seen by side.
func groundOnMap(v View, side, sd engine.Side) groundCount {
	g := groundCount{count: map[engine.Hex]int{}, oos: map[engine.Hex]bool{}}
	for _, u := range v.Board.Units {
		if u.Side != sd || u.Status != OnMap {
			continue
		}
		h, err := engine.ParseHex(u.Hex)
		if err != nil || !data.Grid.Contains(h) {
			continue
		}
		if g.count[h] == 0 {
			g.hexes = append(g.hexes, h)
		}
		g.count[h]++
		g.total++
		if sd == side && u.OOS {
			g.oos[h] = true
		}
	}
	byRowCol(g.hexes)
	return g
}

// airOnMap counts side sd's air units at each base on the map (bases by
// row, then column), and those off it.
func airOnMap(v View, sd engine.Side) (air map[engine.Hex]int, bases []engine.Hex, offMap int) {
	air = map[engine.Hex]int{}
	for _, a := range v.Board.Air {
		if a.Side != sd || a.Status != OnMap {
			continue
		}
		h, err := engine.ParseHex(a.Base)
		if err != nil || !data.Grid.Contains(h) {
			offMap++
			continue
		}
		if air[h] == 0 {
			bases = append(bases, h)
		}
		air[h]++
	}
	byRowCol(bases)
	return air, bases, offMap
}

// byRowCol sorts hexes by row, then column.
func byRowCol(hs []engine.Hex) {
	sort.Slice(hs, func(i, j int) bool {
		if hs[i].Row != hs[j].Row {
			return hs[i].Row < hs[j].Row
		}
		return hs[i].Col < hs[j].Col
	})
}

// waitingNotes are the side's units still to come and, for the Germans,
// their infantry replacements.
func waitingNotes(v View, side engine.Side) []string {
	var notes []string
	var wait []string
	for _, u := range v.Board.Units {
		if u.Side == side && u.Status != OnMap && u.Status != Eliminated && u.Status != Absorbed && u.Status != Neutralized {
			w := u.ID
			if u.Turn > 0 {
				w += " " + TurnName(u.Turn)
			}
			wait = append(wait, w)
		}
	}
	if len(wait) > 0 {
		notes = append(notes, "Still to come: "+strings.Join(wait, ", ")+".")
	}
	if side == German {
		notes = append(notes, "Infantry replacements: "+halfStr(v.Board.ReplHalfREs)+" REs.")
	}
	return notes
}

// boardNotes are the turn, the weather and the Swedish cities.
func boardNotes(v View, c *ctx) []string {
	notes := []string{"Weather: clear throughout (27)."}
	var ger, all []string
	for _, p := range data.Places {
		if p.IsCity() && data.CountryAt(p.Hex) == 'S' {
			if c.owner(p.Hex) == German {
				ger = append(ger, p.Name)
			} else {
				all = append(all, p.Name)
			}
		}
	}
	if len(ger) == 0 {
		ger = []string{"none"}
	}
	notes = append(notes, "Swedish cities held by the Germans: "+strings.Join(ger, ", ")+"; by the Allies: "+strconv.Itoa(len(all))+".")
	if v.Board.NavyOut {
		notes = append(notes, "The Swedish navy is out in the Baltic (26A).")
	}
	if v.Board.Surrendered {
		notes = append(notes, "Sweden has surrendered (28B1).")
	}
	return notes
}

func legend(side engine.Side) []picture.LegendItem {
	return []picture.LegendItem{
		{Kind: picture.LegendCell, Color: picClear, Text: "clear"},
		{Kind: picture.LegendCell, Color: picForest, Text: "forest"},
		{Kind: picture.LegendCell, Color: picRough, Text: "rough"},
		{Kind: picture.LegendCell, Color: picMountain, Text: "mountain"},
		{Kind: picture.LegendCell, Color: picClear, Hatch: picILake, Text: "intermittent lake"},
		{Kind: picture.LegendCell, Color: picLake, Text: "lake (impassable)"},
		{Kind: picture.LegendCell, Color: greyed(picForest), Text: "Norway, Denmark (greyed)"},
		{Kind: picture.LegendCell, Color: picClear, Hatch: picCaptured, Text: "Swedish hex German-owned"},
		{Kind: picture.LegendEdge, Color: picBorder, Text: "national border"},
		{Kind: picture.LegendEdge, Color: picRiver, Text: "river"},
		{Kind: picture.LegendLink, Color: picRail, Width: 1, Text: "rail line"},
		{Kind: picture.LegendBadge, Shape: picture.ShapeCircle, Color: picAllied, Text: "city, Allied-owned"},
		{Kind: picture.LegendBadge, Shape: picture.ShapeCircle, Color: picGerman, Text: "city, German-owned"},
		{Kind: picture.LegendBadge, Shape: picture.ShapeRing, Color: picPort, Text: "port"},
		{Kind: picture.LegendBadge, Shape: picture.ShapePlus, Color: picAirbase, Text: "airbase"},
		{Kind: picture.LegendBadge, Shape: picture.ShapeTriangle, Color: picEntry, Text: "entry hex"},
		{Kind: picture.LegendMarker, Color: sideColour(side), Sample: "3", Text: "your ground units (count)"},
		{Kind: picture.LegendMarker, Color: sideColour(other(side)), Sample: "2", Text: "enemy ground units (count)"},
		{Kind: picture.LegendMarker, Color: picOOS, Shape: picture.ShapeCircle, Sample: "!", Text: "yours out of supply"},
		{Kind: picture.LegendMarker, Color: sideColour(side), Shape: picture.ShapeTriangle, Sample: "2", Text: "air units at a base"},
	}
}
