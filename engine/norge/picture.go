package norge

import (
	"fmt"
	"image"
	"image/color"
	"sort"
	"strconv"
	"strings"

	"skagerrak/engine"
	"skagerrak/engine/picture"
)

// Colours of the Norge map picture.
var (
	picSea       = color.RGBA{164, 200, 228, 255}
	picFjord     = color.RGBA{118, 160, 205, 255}
	picHatch     = color.RGBA{35, 85, 165, 230}
	picNorway    = color.RGBA{156, 190, 124, 255}
	picSweden    = color.RGBA{196, 196, 184, 255}
	picDenmark   = color.RGBA{200, 204, 140, 255}
	picLand      = color.RGBA{150, 190, 120, 255}
	picMinorRoad = color.RGBA{200, 208, 140, 255}
	picMajorRoad = color.RGBA{226, 194, 128, 255}
	picLake      = color.RGBA{120, 172, 220, 255}
	picRiver     = color.RGBA{30, 95, 200, 255}
	picBridge    = color.RGBA{90, 55, 20, 255}
	picBlown     = color.RGBA{220, 25, 25, 255}
	picSeaSide   = color.RGBA{20, 50, 120, 255}
	picFerry     = color.RGBA{20, 50, 120, 255}
	picLink      = color.RGBA{70, 90, 120, 255}
	picEntry     = color.RGBA{240, 215, 215, 255}
	picSubArea   = color.RGBA{226, 236, 246, 255}
	picGerman    = color.RGBA{80, 88, 94, 255}
	picAllied    = color.RGBA{40, 100, 170, 255}
	picWeather   = color.RGBA{150, 40, 40, 255}
	white        = color.RGBA{255, 255, 255, 255}
	grey         = color.RGBA{90, 90, 90, 255}
	ink          = color.RGBA{30, 30, 30, 255}
)

// sidePaint is the colour of a side's counters and of the places it holds.
func sidePaint(side engine.Side) color.RGBA {
	if side == German {
		return picGerman
	}
	return picAllied
}

// seaAt places the hexes of the Strategic Map on the picture, in pixels of
// a 680x960 map with north up. The rulebook prints no Strategic Map (see
// data/sea.txt), so every position is reconstructed: the position of the
// sea, fjord or port along the coast of 1940 that the data pack names.
var seaAt = map[string]image.Point{
	"Harstad":        {390, 40},  // reconstructed: the town's position on Hinnoeya
	"Norw6":          {250, 64},  // reconstructed: the sea off Lofoten
	"OfotFjord":      {450, 112}, // reconstructed: the Ofotfjord east of the Vestfjord
	"Narvik":         {590, 112}, // reconstructed: the town's position at the head of the Ofotfjord
	"Norw5":          {310, 150}, // reconstructed: the Vestfjord
	"Norw4":          {260, 228}, // reconstructed: the sea off Mosjoen
	"Mosjoen":        {400, 228}, // reconstructed: the town's position
	"Norw3":          {210, 306}, // reconstructed: the sea off Namsos
	"NamsFjord":      {340, 306}, // reconstructed: the Namsenfjord; Namsos at its head
	"Norw2":          {160, 384}, // reconstructed: the sea off Trondheim
	"TrondheimFjord": {300, 384}, // reconstructed: the Trondheimsfjord
	"Trondheim":      {450, 384}, // reconstructed: the town's position
	"B2":             {40, 430},  // reconstructed: the British entrance on the western edge
	"Norw1":          {120, 462}, // reconstructed: the sea off Stad
	"RomsdalFjord":   {250, 462}, // reconstructed: the Romsdalsfjord
	"Aandalsnes":     {390, 462}, // reconstructed: the town's position
	"North4":         {110, 546}, // reconstructed: the sea off the Sognefjord
	"Bergen":         {240, 586}, // reconstructed: the town's position
	"North3":         {110, 626}, // reconstructed: the sea off Bergen
	"B1":             {40, 690},  // reconstructed: the British entrance on the western edge
	"North2":         {130, 714}, // reconstructed: the sea off Stavanger
	"Stavanger":      {240, 714}, // reconstructed: the town's position
	"Kristiansand":   {350, 716}, // reconstructed: the town's position
	"ArendalFjord":   {460, 716}, // reconstructed: the skerries off Arendal
	"Oslo":           {560, 640}, // reconstructed: the town's position
	"OsloFjord":      {560, 716}, // reconstructed: the Oslofjord
	"Halden":         {645, 760}, // reconstructed: the town's position by the Swedish border
	"North1":         {220, 800}, // reconstructed: the sea off Lindesnes
	"Skagerrak3":     {370, 790}, // reconstructed: the Skagerrak off Kristiansand
	"Skagerrak2":     {520, 800}, // reconstructed: the mouth of the Oslofjord
	"Skagerrak1":     {560, 870}, // reconstructed: the Kattegat
	"G1":             {500, 936}, // reconstructed: the German entrance on the southern edge
	"G2":             {620, 936}, // reconstructed: the German entrance on the southern edge
}

// subAreaAt places a box for each numbered sea area (4.3) in open sea
// beside its hexes; submarines are placed by area, not by hex.
var subAreaAt = map[int]image.Point{
	1: {420, 905}, // reconstructed: the Kattegat, beside Skagerrak1
	2: {450, 850}, // reconstructed: the Skagerrak, under Skagerrak2 and 3
	3: {60, 800},  // reconstructed: the North Sea off Lindesnes and Jaeren
	4: {50, 586},  // reconstructed: the North Sea off Bergen
	5: {60, 350},  // reconstructed: the Norwegian Sea off Stad and Trondheim
	6: {110, 250}, // reconstructed: the Norwegian Sea off Namsos
	7: {140, 120}, // reconstructed: the Norwegian Sea off Lofoten
}

// Land masses of the Strategic Map, in its pixels (reconstructed: the
// coastlines of Norway, Sweden and Jutland drawn round the hexes above).
var (
	norwayCoast = []image.Point{
		{300, 770}, {270, 740}, {185, 740}, {180, 690}, {185, 610}, {180, 560}, {175, 500}, {200, 440},
		{220, 410}, {245, 350}, {270, 290}, {300, 250}, {330, 200}, {360, 160}, {390, 130}, {330, 90},
		{330, 0}, {680, 0}, {680, 60}, {640, 140}, {560, 230}, {520, 320}, {500, 420}, {520, 520},
		{580, 600}, {620, 690}, {630, 740}, {600, 760}, {590, 700}, {540, 690}, {520, 750}, {470, 760},
		{400, 760},
	}
	swedenCoast = []image.Point{
		{680, 60}, {640, 140}, {560, 230}, {520, 320}, {500, 420}, {520, 520}, {580, 600}, {620, 690},
		{630, 740}, {660, 800}, {630, 860}, {680, 900},
	}
	jutlandCoast = []image.Point{{300, 960}, {300, 900}, {340, 860}, {370, 900}, {390, 960}}
)

// DrawMap implements engine.TypedBook: the side's maps, drawn from its
// View alone. On top is the Strategic Map: sea, fjord and port hexes
// with their connections, the entrances, the numbered sea areas, ports in
// the colour of the side that holds them, the side's own ships (convoys
// with the number of units aboard) and submarines (by sea area), and the
// enemy's ships where the View shows them; its panel holds the legend, the
// weather, the victory points and what is off the map. Under it are the six
// Tactical Maps, the four mini maps and the road corridors, hex by hex:
// terrain, roads, rivers, bridges (blown ones in red), ports, quays and
// airfields in the holder's colour, and every land unit on a hex as one
// counter a side with the number of units, listed by name in the map's
// panel with the air units over the map.
func (rules) DrawMap(v *View, side engine.Side) (engine.Drawing, error) {
	if v.Game == nil {
		return nil, fmt.Errorf("norge: not a norge view: %T", v)
	}
	if err := engine.CheckMapSide("norge", v.Side, side, German, Allied); err != nil {
		return nil, err
	}
	return sheet{strategicMap(v, side), landMaps(v, side)}, nil
}

// sheet is a side's maps: the Strategic Map, and the land maps under it
// two a row.
type sheet struct {
	strategic *picture.AreaMap
	land      []*picture.HexMap
}

// PNG draws the sheet.
func (s sheet) PNG() ([]byte, error) {
	strat, err := s.strategic.Image()
	if err != nil {
		return nil, err
	}
	rows := [][]*image.RGBA{{strat}}
	var cur []*image.RGBA
	for _, m := range s.land {
		img, err := m.Image()
		if err != nil {
			return nil, err
		}
		cur = append(cur, img)
		if len(cur) == 2 {
			rows = append(rows, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		rows = append(rows, cur)
	}
	return picture.Sheet(rows)
}

// Digest is the digest of the sheet's maps, in order, captions left out.
func (s sheet) Digest() [32]byte {
	parts := [][32]byte{s.strategic.Digest()}
	for _, m := range s.land {
		parts = append(parts, m.Digest())
	}
	return picture.Digests(parts...)
}

func sideTitle(side engine.Side) string {
	if side == German {
		return "German"
	}
	return "Allied"
}

// weatherLine is the weather of the View's turn, and the next turn's once
// it is rolled.
func weatherLine(s *State) string {
	if s.Turn < 1 || s.Turn > len(s.Weather) {
		return ""
	}
	w := s.Weather[s.Turn-1]
	t := fmt.Sprintf("weather turn %d: north %s, south %s, at sea %s", s.Turn, w.North, w.South, s.seaWeather())
	if len(s.Weather) > s.Turn {
		n := s.Weather[s.Turn]
		t += fmt.Sprintf("; turn %d: north %s, south %s", s.Turn+1, n.North, n.South)
	}
	return t
}

// shipCode is the short name of a kind of ship on its counter.
func shipCode(kind string) string {
	switch kind {
	case "bs":
		return "BS"
	case "cv":
		return "CV"
	case "convoy":
		return "TR"
	case "sub":
		return "U"
	}
	return strings.ToUpper(kind)
}

// strategicMap builds the Strategic Map and the legend.
func strategicMap(v *View, side engine.Side) *picture.AreaMap {
	s := v.Game
	m := &picture.AreaMap{Width: 680, Height: 960, Background: picSea}
	m.Title = "Norge - " + sideTitle(side) + " map: " + v.Phase.Title
	if v.Phase.Over {
		m.Title = "Norge - " + sideTitle(side) + " map: the game is over"
	}
	m.Subtitle = strings.TrimSpace(fmt.Sprintf("Strategic Map; %s", weatherLine(s)))
	m.Outlines = []picture.Outline{
		{Points: swedenCoast, Fill: picSweden, Line: picSeaSide},
		{Points: norwayCoast, Fill: picNorway, Line: picSeaSide},
		{Points: jutlandCoast, Fill: picDenmark, Line: picSeaSide},
		// The weather line between the southern and the northern sector
		// (8.1), between North4 and B2 (data/sea.txt).
		{Points: []image.Point{{0, 500}, {200, 500}}, Line: picWeather, Width: 2, Dashed: true, Open: true},
	}
	m.Texts = []picture.Text{
		{X: 560, Y: 300, Text: "SWEDEN", Color: grey},
		{X: 420, Y: 560, Text: "NORWAY", Color: grey},
		{X: 345, Y: 940, Text: "DENMARK", Color: grey},
		{X: 90, Y: 490, Text: "north sector", Color: picWeather, Halo: picSea},
		{X: 90, Y: 512, Text: "south sector", Color: picWeather, Halo: picSea},
	}
	for _, n := range data.Sea {
		m.Areas = append(m.Areas, seaArea(s, n))
		for _, o := range n.Next {
			if n.Name < o {
				m.Links = append(m.Links, picture.Link{A: n.Name, B: o, Color: picLink, Width: 2})
			}
		}
	}
	for k := 1; k <= 7; k++ {
		p := subAreaAt[k]
		m.Areas = append(m.Areas, picture.Area{ID: "area" + strconv.Itoa(k), Label: "sea area " + strconv.Itoa(k), X: p.X, Y: p.Y, Fill: picSubArea})
	}
	var offBoard []string
	for _, sd := range []engine.Side{side, enemy(side)} {
		offBoard = append(offBoard, shipMarkers(m, s, side, sd)...)
	}
	m.Legend = strategicLegend(side)
	m.Notes = strategicNotes(v, side, offBoard)
	return m
}

// seaArea is sea node n on the Strategic Map: fjords, ports in their
// holder's colour, entrance hexes (4.6).
func seaArea(s *State, n SeaNode) picture.Area {
	p := seaAt[n.Name]
	a := picture.Area{ID: n.Name, Label: n.Name, X: p.X, Y: p.Y, Fill: picSea}
	switch n.Kind {
	case "fjord":
		a.Fill = picFjord
	case "port":
		a.Fill = white
		a.Border = sidePaint(s.controller(n.Name))
		a.Badges = []picture.Badge{{Shape: picture.ShapeRing, Color: sidePaint(s.controller(n.Name))}}
	case "entry-german", "entry-allied":
		a.Fill = picEntry
		a.Label = n.Name + " entrance"
	}
	if n.Port != "" {
		a.Badges = []picture.Badge{{Shape: picture.ShapeRing, Color: sidePaint(s.controller(n.Port))}}
		a.Border = sidePaint(s.controller(n.Port))
	}
	return a
}

// shipMarkers puts side sd's ships on the Strategic Map as seen by side:
// counts of a kind a hex, own convoys one by one, own submarines in their
// sea areas. It returns side's own ships off the board.
func shipMarkers(m *picture.AreaMap, s *State, side, sd engine.Side) (offBoard []string) {
	type key struct{ loc, code string }
	counts := map[key]int{}
	var order []key
	for _, sh := range s.Ships {
		if sh.Side != sd || sh.Sunk || sh.Scrapped {
			continue
		}
		k := key{sh.Loc, shipCode(sh.Kind)}
		if sh.Kind == "sub" {
			if sd != side {
				continue
			}
			if sh.Area < 1 || sh.Area > 7 {
				offBoard = append(offBoard, sh.ID)
				continue
			}
			k.loc = "area" + strconv.Itoa(sh.Area)
		} else if sh.Loc == "" {
			if sd == side {
				offBoard = append(offBoard, sh.ID)
			}
			continue
		}
		if _, ok := seaAt[k.loc]; !ok && !strings.HasPrefix(k.loc, "area") {
			continue
		}
		if sh.Kind == "convoy" && sd == side {
			// Own convoys one by one, with the units aboard.
			m.Markers = append(m.Markers, picture.AreaMarker{Area: k.loc, Text: "TR" + strconv.Itoa(len(aboard(s, sh.ID))), Color: sidePaint(sd)})
			continue
		}
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	for _, k := range order {
		t := k.code
		if counts[k] > 1 {
			t = strconv.Itoa(counts[k]) + k.code
		}
		shape := picture.ShapeBox
		if k.code == "U" {
			shape = picture.ShapeCircle
		}
		m.Markers = append(m.Markers, picture.AreaMarker{Area: k.loc, Text: t, Color: sidePaint(sd), Shape: shape})
	}
	return offBoard
}

// aboard lists the units on ship id (own ships only: the View keeps no
// enemy cargo).
func aboard(s *State, id string) []string {
	var out []string
	for _, u := range s.Units {
		if u.Loc == shipPrefix+id {
			out = append(out, u.ID)
		}
	}
	return out
}

func strategicLegend(side engine.Side) []picture.LegendItem {
	own, foe := sideTitle(side), sideTitle(enemy(side))
	return []picture.LegendItem{
		{Kind: picture.LegendHeading, Text: "Strategic Map"},
		{Kind: picture.LegendArea, Color: picSea, Text: "sea hex (1 MF)"},
		{Kind: picture.LegendArea, Color: picFjord, Text: "fjord hex (4 MF)"},
		{Kind: picture.LegendArea, Color: white, Border: picGerman, Text: "port held by the Germans"},
		{Kind: picture.LegendArea, Color: white, Border: picAllied, Text: "port held by the Allies"},
		{Kind: picture.LegendArea, Color: picEntry, Text: "entrance hex (4.6)"},
		{Kind: picture.LegendArea, Color: picSubArea, Text: "sea area, for submarines (4.3)"},
		{Kind: picture.LegendLink, Color: picLink, Text: "hexes next to each other"},
		{Kind: picture.LegendLink, Color: picWeather, Dashed: true, Text: "weather line (8.1)"},
		{Kind: picture.LegendMarker, Color: sidePaint(side), Sample: "2BS", Text: own + " battleships, CV carrier"},
		{Kind: picture.LegendMarker, Color: sidePaint(side), Sample: "TR3", Text: own + " convoy with 3 units aboard"},
		{Kind: picture.LegendMarker, Color: sidePaint(side), Shape: picture.ShapeCircle, Sample: "U", Text: own + " submarine in a sea area"},
		{Kind: picture.LegendMarker, Color: sidePaint(enemy(side)), Sample: "TR", Text: foe + " ships seen (no cargo)"},
		{Kind: picture.LegendHeading, Text: "Tactical Maps, mini maps, roads"},
		{Kind: picture.LegendCell, Color: picLand, Text: "land"},
		{Kind: picture.LegendCell, Color: picMinorRoad, Text: "land with a minor road"},
		{Kind: picture.LegendCell, Color: picMajorRoad, Text: "land with a major road"},
		{Kind: picture.LegendCell, Color: picLake, Hatch: picHatch, Text: "lake (impassable)"},
		{Kind: picture.LegendCell, Color: picSweden, Text: "Sweden (impassable)"},
		{Kind: picture.LegendCell, Color: picSea, Text: "sea"},
		{Kind: picture.LegendEdge, Color: picRiver, Text: "river"},
		{Kind: picture.LegendEdge, Color: picBridge, Text: "river with a bridge"},
		{Kind: picture.LegendEdge, Color: picBlown, Text: "blown bridge"},
		{Kind: picture.LegendEdge, Color: picSeaSide, Text: "sea hexside"},
		{Kind: picture.LegendLink, Color: picFerry, Dashed: true, Text: "ferry lane"},
		{Kind: picture.LegendBadge, Shape: picture.ShapeRing, Color: picGerman, Text: "port (holder's colour)"},
		{Kind: picture.LegendBadge, Shape: picture.ShapeFlag, Color: picGerman, Text: "quays of a port"},
		{Kind: picture.LegendBadge, Shape: picture.ShapePlus, Color: picGerman, Text: "airfield (holder's colour)"},
		{Kind: picture.LegendMarker, Color: picGerman, Sample: "3", Text: "German units on the hex"},
		{Kind: picture.LegendMarker, Color: picAllied, Sample: "2", Text: "Allied units on the hex"},
	}
}

func strategicNotes(v *View, side engine.Side, offBoard []string) []string {
	s := v.Game
	var notes []string
	notes = append(notes, fmt.Sprintf("Victory points: German %d, Allied %d.", v.German.Total, v.Allied.Total))
	var g, a []string
	for _, p := range data.Ports {
		if s.controller(p.Name) == German {
			g = append(g, p.Name)
		} else {
			a = append(a, p.Name)
		}
	}
	for _, f := range data.Airfields {
		if s.controller(f.Name) == German {
			g = append(g, f.Name+"(af)")
		} else {
			a = append(a, f.Name+"(af)")
		}
	}
	notes = append(notes, "German hold: "+listOrNone(g)+".", "Allies hold: "+listOrNone(a)+".")
	for _, sh := range s.Ships {
		if sh.Side == side && sh.onMap() && (sh.Kind == "convoy" || len(aboard(s, sh.ID)) > 0) {
			notes = append(notes, fmt.Sprintf("%s %s at %s carries: %s.", capital(kindName(sh.Kind)), sh.ID, sh.Loc, listOrNone(aboard(s, sh.ID))))
		}
	}
	for _, sh := range s.Ships {
		if sh.Side == side && sh.Kind == "sub" && !sh.Sunk && sh.Area > 0 {
			notes = append(notes, fmt.Sprintf("Submarine %s in sea area %d.", sh.ID, sh.Area))
		}
	}
	if len(offBoard) > 0 {
		notes = append(notes, "Your ships off the board: "+strings.Join(offBoard, ", ")+".")
	}
	byLoc := map[string][]string{}
	for _, u := range s.Units {
		if u.Side == side {
			switch u.Loc {
			case LocReserve, LocAirlift, LocDrop, LocElim:
				byLoc[u.Loc] = append(byLoc[u.Loc], u.ID)
			}
		}
	}
	for _, loc := range []string{LocReserve, LocAirlift, LocDrop, LocElim} {
		if len(byLoc[loc]) > 0 {
			notes = append(notes, fmt.Sprintf("Your units %s: %s.", locWords(loc), strings.Join(byLoc[loc], ", ")))
		}
	}
	var sunk []string
	for _, sh := range s.Ships {
		if sh.Sunk {
			sunk = append(sunk, sh.ID)
		}
	}
	if len(sunk) > 0 {
		notes = append(notes, "Sunk: "+strings.Join(sunk, ", ")+".")
	}
	return notes
}

func locWords(loc string) string {
	switch loc {
	case LocReserve:
		return "in reserve"
	case LocAirlift:
		return "for air transport"
	case LocDrop:
		return "for air drops"
	}
	return "eliminated"
}

// capital is s with its first letter upper case.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// landMaps builds one hex map for each Tactical Map and mini map, and one
// for the road corridors side by side.
func landMaps(v *View, side engine.Side) []*picture.HexMap {
	var out []*picture.HexMap
	var corridors []LandMap
	for _, lm := range data.Maps {
		if lm.Kind == "corridor" {
			corridors = append(corridors, lm)
			continue
		}
		out = append(out, landMap(v, side, []LandMap{lm}))
	}
	if len(corridors) > 0 {
		out = append(out, landMap(v, side, corridors))
	}
	return out
}

// landMap draws one land map, or several one-column corridors as the
// columns of one map.
func landMap(v *View, side engine.Side, maps []LandMap) *picture.HexMap {
	s := v.Game
	hm, col := landMapFrame(s, maps)
	in := map[string]bool{}
	for _, lm := range maps {
		in[lm.ID] = true
	}
	pos := func(name string) (picture.Pos, bool) {
		mid, h, ok := splitHex(name)
		if !ok || !in[mid] {
			return picture.Pos{}, false
		}
		return picture.Pos{Row: h.Row, Col: h.Col + col[mid]}, true
	}
	var names []string
	for name, t := range data.Hexes {
		if in[t.Map] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		p, _ := pos(name)
		c := landCell(s, data.Hexes[name], p)
		if len(maps) > 1 {
			c.Label = name
		}
		hm.Cells = append(hm.Cells, c)
	}
	hexsideLines(hm, s, pos)
	// Units: one counter a side a hex, own side first.
	var notes []string
	for _, sd := range []engine.Side{side, enemy(side)} {
		notes = append(notes, unitMarkers(hm, s, sd, pos)...)
	}
	head := landMapHead(s, maps, names)
	if len(notes) == 0 {
		notes = []string{"No units on this map."}
	}
	hm.Notes = append(head, notes...)
	return hm
}

// landMapFrame lays out the hex map for maps, with its title, and gives
// each map's column offset.
func landMapFrame(s *State, maps []LandMap) (*picture.HexMap, map[string]int) {
	hm := &picture.HexMap{EvenRowsEast: true, HexSize: 26}
	col := map[string]int{} // map ID -> column offset
	for i, lm := range maps {
		hm.Rows = max(hm.Rows, lm.Rows)
		if len(maps) == 1 {
			hm.Cols = lm.Cols
		} else {
			// One corridor a column, with an empty column between.
			col[lm.ID] = 2 * i
			hm.Cols = 2*i + 1
			for len(hm.ColNames) < 2*i {
				hm.ColNames = append(hm.ColNames, "")
			}
			hm.ColNames = append(hm.ColNames, lm.ID)
		}
	}
	first := maps[0]
	sector := map[string]string{"N": "north", "S": "south"}[first.Sector]
	if len(maps) == 1 {
		hm.Title = fmt.Sprintf("Map %s: %s", first.ID, first.Title)
		if first.Kind == "mini" {
			hm.Title = fmt.Sprintf("Mini map %s: %s", first.ID, first.Title)
		}
		hm.Subtitle = fmt.Sprintf("%s sector, weather %s", sector, s.weatherOf(first.Sector))
		if first.Kind == "tactical" {
			g, a := mapStrength(s, first.ID)
			hm.Subtitle += fmt.Sprintf("; combat factors German %d, Allied %d", g, a)
		}
	} else {
		hm.Title = "Roads between the maps (3.4)"
		hm.Subtitle = "one column a road, its hexes named e.g. BD:E1"
	}
	return hm, col
}

// landCell is the cell of a land-map hex with terrain t at p: its terrain
// colour and its port, quays and airfield in their holder's colour.
func landCell(s *State, t Terrain, p picture.Pos) picture.Cell {
	c := picture.Cell{Row: p.Row, Col: p.Col, Fill: picLand}
	switch {
	case t.Sea:
		c.Fill = picSea
	case t.Lake:
		c.Fill, c.Hatch = picLake, picHatch
	case t.Sweden:
		c.Fill = picSweden
	case t.Road == 3:
		c.Fill = picMajorRoad
	case t.Road == 2:
		c.Fill = picMinorRoad
	}
	if t.Port != "" {
		c.Badges = append(c.Badges, picture.Badge{Shape: picture.ShapeRing, Color: sidePaint(s.controller(t.Port))})
		c.Label = t.Port
		c.LabelColor = ink
	}
	if t.Quay != "" {
		c.Badges = append(c.Badges, picture.Badge{Shape: picture.ShapeFlag, Color: sidePaint(s.controller(t.Quay))})
	}
	if t.Airfld != "" {
		c.Badges = append(c.Badges, picture.Badge{Shape: picture.ShapePlus, Color: sidePaint(s.controller(t.Airfld))})
		c.Label = t.Airfld
		c.LabelColor = ink
	}
	return c
}

// hexsideLines draws the ferry lanes, sea hexsides, rivers, bridges and
// blown bridges between the hexes pos places.
func hexsideLines(hm *picture.HexMap, s *State, pos func(string) (picture.Pos, bool)) {
	blown := map[string]bool{}
	for _, b := range s.Blown {
		blown[b.Side] = true
	}
	var sides []string
	for k := range data.Sides {
		sides = append(sides, k)
	}
	sort.Strings(sides)
	for _, k := range sides {
		hs := data.Sides[k]
		a, okA := pos(hs.A)
		b, okB := pos(hs.B)
		if !okA || !okB {
			continue
		}
		switch hs.Kind {
		case "ferry":
			hm.Lines = append(hm.Lines, picture.Line{Hexes: []picture.Pos{a, b}, Color: picFerry, Width: 2, Dashed: true})
			continue
		case "sea":
			hm.Edges = append(hm.Edges, picture.Edge{A: a, B: b, Color: picSeaSide, Width: 4})
			continue
		}
		e := picture.Edge{A: a, B: b, Color: picRiver, Width: 4}
		if hs.Bridge {
			e.Color = picBridge
		}
		if blown[k] {
			e.Color = picBlown
		}
		hm.Edges = append(hm.Edges, e)
	}
}

// unitMarkers puts one counter of side sd's units on each hex pos places
// and returns a note listing them.
func unitMarkers(hm *picture.HexMap, s *State, sd engine.Side, pos func(string) (picture.Pos, bool)) (notes []string) {
	byHex := map[string][]string{}
	var hexes []string
	for _, u := range s.Units {
		if u.Side != sd || !onHex(u.Loc) {
			continue
		}
		if _, ok := pos(u.Loc); !ok {
			continue
		}
		if _, seen := byHex[u.Loc]; !seen {
			hexes = append(hexes, u.Loc)
		}
		name := u.ID
		if u.Reduced {
			name += "(r)"
		}
		if u.RT {
			name += "[RT]"
		}
		byHex[u.Loc] = append(byHex[u.Loc], name)
	}
	sort.Strings(hexes)
	for _, h := range hexes {
		p, _ := pos(h)
		hm.Markers = append(hm.Markers, picture.Marker{Row: p.Row, Col: p.Col, Text: strconv.Itoa(len(byHex[h])), Color: sidePaint(sd)})
		notes = append(notes, fmt.Sprintf("%s %s: %s", h, sideTitle(sd), strings.Join(byHex[h], " ")))
	}
	return notes
}

// landMapHead is the notes heading a land map: the air units over it and
// the roads off it to other maps.
func landMapHead(s *State, maps []LandMap, names []string) []string {
	var head []string
	for _, lm := range maps {
		for _, am := range s.Air {
			if am.Map == lm.ID {
				head = append(head, fmt.Sprintf("Air over the map: %s %d from %s.", sideTitle(am.Side), am.Strength, am.Base))
			}
		}
	}
	for _, lm := range maps {
		var ls []string
		for _, name := range names {
			if !strings.HasPrefix(name, lm.ID+":") {
				continue
			}
			for _, o := range data.Links[name] {
				ls = append(ls, name+" to "+o)
			}
		}
		if len(ls) > 0 {
			head = append(head, "Roads off the map: "+strings.Join(ls, ", ")+".")
		}
	}
	return head
}
