package kriegsmarine

import (
	"fmt"
	"image/color"
	"sort"
	"strconv"
	"strings"

	"skagerrak/engine"
	"skagerrak/engine/picture"
)

// Colours of the Kriegsmarine Strikes map picture.
var (
	picSea      = color.RGBA{164, 200, 228, 255}
	picHatch    = color.RGBA{35, 85, 165, 230}
	picCoast    = color.RGBA{45, 70, 100, 255}
	picLandSide = color.RGBA{120, 80, 35, 255}
	picExit     = color.RGBA{215, 30, 30, 255}
	picPort     = color.RGBA{20, 35, 90, 255}
	picAirfield = color.RGBA{55, 55, 55, 255}
	picFortress = color.RGBA{135, 25, 25, 255}
	picHeld     = color.RGBA{0, 0, 0, 255}
	picEntry    = color.RGBA{215, 30, 30, 255}
	picGerman   = color.RGBA{80, 88, 94, 255}
	picAllied   = color.RGBA{206, 168, 98, 255}
	picContact  = color.RGBA{214, 24, 96, 255}
	picOlder    = color.RGBA{240, 176, 200, 255}
	picFound    = color.RGBA{245, 135, 0, 255}
	picEmpty    = color.RGBA{215, 175, 0, 255}
	picSearched = color.RGBA{125, 60, 185, 255}
	picTracked  = color.RGBA{125, 60, 185, 255}
	picFight    = color.RGBA{225, 20, 20, 255}
)

// countryColours are the land colours by country code; coastal hexes get a
// lighter shade of the same.
var countryColours = map[string]color.RGBA{
	"NO": {128, 172, 100, 255},
	"SE": {178, 180, 168, 255},
	"DK": {190, 196, 118, 255},
	"UK": {204, 186, 140, 255},
	"DE": {158, 158, 158, 255},
}

var countryNames = map[string]string{"NO": "Norway", "SE": "Sweden", "DK": "Denmark", "UK": "United Kingdom", "DE": "Germany"}

// DrawMap implements engine.TypedBook: the side's map (Picture draws it as
// a PNG), from its View alone. It shows the map of the data pack (sea,
// coastal and land hexes by country, coastlines, land hexsides, fjords,
// ports, airfields, fortresses, entry arrows, the red exit border,
// German-held ports); the side's own units where they are; the enemy only
// where the View's reports and tracking contacts put him (the last turn's,
// and paler the turn before's); the last turn's searches and fights; and a
// legend with notes.
func (rules) DrawMap(v *View, side engine.Side) (engine.Drawing, error) {
	if err := engine.CheckMapSide("kriegsmarine", v.Side, side, Allied, German); err != nil {
		return nil, err
	}
	return mapPicture(v, side), nil
}

// mapPicture builds the draw list of side's map from v.
func mapPicture(v *View, side engine.Side) *picture.HexMap {
	m := &picture.HexMap{Rows: MapRows, Cols: MapCols, EvenRowsEast: true}
	m.Title = "Norway 1940: The Kriegsmarine Strikes - " + sideName(side) + " map"
	last := v.Turn - 1
	if v.Over {
		last = LastTurn
	}
	m.Subtitle = v.Title
	if !v.Over {
		m.Subtitle += ", weather " + v.Weather
	}
	if last >= 1 {
		m.Subtitle += "; searches and fights of turn " + strconv.Itoa(last)
	}
	present := baseMap(m, v)
	own := ownUnits(m, v, side)
	contacts := enemyContacts(m, v, last)
	events := searchesAndFights(m, v, last)
	m.Legend = legend(present, side)
	m.Notes = append(append(own, contacts...), events...)
	return m
}

func pos(h engine.Hex) picture.Pos { return picture.Pos{Row: h.Row, Col: h.Col} }

// mainCountry is the country whose colour a hex takes: the first of its
// countries in code order, "" for none.
func mainCountry(hi HexInfo) string {
	if len(hi.Countries) == 0 {
		return ""
	}
	return hi.Countries[0]
}

func lighter(c color.RGBA) color.RGBA {
	return color.RGBA{uint8((int(c.R) + 2*255) / 3), uint8((int(c.G) + 2*255) / 3), uint8((int(c.B) + 2*255) / 3), 255}
}

// baseMap adds the printed map: cells, hexsides and the German-held ports.
// It returns the country codes whose land appears, in code order.
func baseMap(m *picture.HexMap, v *View) []string {
	tm := TheMap()
	held := map[string]bool{}
	for _, o := range v.Occupied {
		held[o.Hex] = true
	}
	seen := map[string]bool{}
	for _, h := range tm.Grid().All() {
		hi, _ := tm.Info(h)
		c := picture.Cell{Row: h.Row, Col: h.Col, Fill: picSea}
		if hi.Terrain != Sea {
			land, ok := countryColours[mainCountry(hi)]
			if !ok {
				land = color.RGBA{190, 180, 150, 255}
			}
			seen[mainCountry(hi)] = true
			c.Fill = land
			if hi.Terrain == Coastal {
				c.Fill = lighter(land)
			}
		}
		if hi.Fjord {
			c.Hatch = picHatch
		}
		if _, ok := tm.EntryCost(h); ok {
			c.Badges = append(c.Badges, picture.Badge{Shape: picture.ShapeTriangle, Color: picEntry})
		}
		if hi.Port != "" {
			c.Badges = append(c.Badges, picture.Badge{Shape: picture.ShapeRing, Color: picPort})
			c.Label = hi.Port
		}
		if hi.Airfield != nil {
			c.Badges = append(c.Badges, picture.Badge{Shape: picture.ShapePlus, Color: picAirfield})
			if c.Label == "" {
				c.Label = hi.Airfield.Name
			}
		}
		if hi.Fortress != "" {
			c.Badges = append(c.Badges, picture.Badge{Shape: picture.ShapeBox, Color: picFortress})
		}
		if held[h.String()] {
			c.Badges = append(c.Badges, picture.Badge{Shape: picture.ShapeFlag, Color: picHeld})
			c.LabelColor = picHeld
		}
		m.Cells = append(m.Cells, c)

		for d := engine.Direction(0); d < 6; d++ {
			n := h.Neighbor(d)
			if !tm.Grid().Contains(n) {
				if exitHex(v.rev(), h) {
					m.Edges = append(m.Edges, picture.Edge{A: pos(h), B: pos(n), Color: picExit, Width: 4})
				}
				continue
			}
			// Each inner hexside once: from the hex that comes first.
			if n.Row < h.Row || (n.Row == h.Row && n.Col < h.Col) {
				continue
			}
			ni, _ := tm.Info(n)
			switch {
			case tm.LandHexside(h, n):
				m.Edges = append(m.Edges, picture.Edge{A: pos(h), B: pos(n), Color: picLandSide, Width: 3})
			case (hi.Terrain == Sea) != (ni.Terrain == Sea):
				m.Edges = append(m.Edges, picture.Edge{A: pos(h), B: pos(n), Color: picCoast, Width: 2})
			}
		}
	}
	var out []string
	for _, c := range Countries {
		if seen[c] {
			out = append(out, c)
		}
	}
	return out
}

// ownUnits adds markers for the side's units on the map and its aircraft
// at airfields and on carriers, and returns notes listing them.
func ownUnits(m *picture.HexMap, v *View, side engine.Side) []string {
	col := picAllied
	if side == German {
		col = picGerman
	}
	gs := &hexGroups{by: map[engine.Hex]*hexGroup{}}
	hexOf, offMap := gs.addShips(v)
	airOff := gs.addAircraft(v, hexOf)
	order := gs.order
	sort.Slice(order, func(i, j int) bool {
		if order[i].Row != order[j].Row {
			return order[i].Row > order[j].Row
		}
		return order[i].Col < order[j].Col
	})
	var notes []string
	if len(order) > 0 {
		notes = append(notes, "Your forces on the map:")
	}
	for _, h := range order {
		g := gs.by[h]
		if g.ships > 0 {
			m.Markers = append(m.Markers, picture.Marker{Row: h.Row, Col: h.Col, Text: strconv.Itoa(g.ships), Color: col, Shape: picture.ShapeBox})
		}
		if g.subs > 0 {
			m.Markers = append(m.Markers, picture.Marker{Row: h.Row, Col: h.Col, Text: strconv.Itoa(g.subs), Color: col, Shape: picture.ShapeCircle})
		}
		if g.air > 0 {
			m.Markers = append(m.Markers, picture.Marker{Row: h.Row, Col: h.Col, Text: strconv.Itoa(g.air), Color: col, Shape: picture.ShapeTriangle})
		}
		notes = append(notes, h.String()+": "+strings.Join(g.names, ", "))
	}
	notes = append(notes, offMapNotes(offMap, airOff)...)
	for _, t := range v.Tracked {
		if h, ok := onMapHex(t.Hex); ok {
			m.Lines = append(m.Lines, picture.Line{Hexes: []picture.Pos{pos(h)}, Color: picTracked, Width: 2})
			notes = append(notes, fmt.Sprintf("Your group at %s is tracked by %s.", h, countTypes(t.Enemy)))
		}
	}
	return notes
}

// hexGroup is what the side has in one hex: how many ships, submarines
// and aircraft units, and their names.
type hexGroup struct {
	ships, subs, air int
	names            []string
}

// hexGroups gathers the side's units by hex; order lists the hexes in the
// order first met.
type hexGroups struct {
	order []engine.Hex
	by    map[engine.Hex]*hexGroup
}

// at is the group in h, started when h is first met.
func (gs *hexGroups) at(h engine.Hex) *hexGroup {
	g := gs.by[h]
	if g == nil {
		g = &hexGroup{}
		gs.by[h] = g
		gs.order = append(gs.order, h)
	}
	return g
}

// addShips adds the side's ships on the map; it returns the hex of each
// and counts the ships off the map by where they are.
func (gs *hexGroups) addShips(v *View) (hexOf map[string]engine.Hex, offMap map[string]int) {
	hexOf = map[string]engine.Hex{}
	offMap = map[string]int{}
	for _, u := range v.Units {
		if u.Where != AtMap || u.Air {
			if !u.Air {
				offMap[u.Where]++
			}
			continue
		}
		h, ok := onMapHex(u.Hex)
		if !ok {
			continue
		}
		hexOf[u.ID] = h
		g := gs.at(h)
		if u.Sub {
			g.subs++
		} else {
			g.ships++
		}
		g.names = append(g.names, u.Name)
	}
	return hexOf, offMap
}

// addAircraft adds the side's aircraft at bases on the map (airfields, and
// carriers at hexOf); it returns how many are based off the map.
func (gs *hexGroups) addAircraft(v *View, hexOf map[string]engine.Hex) int {
	airOff := 0
	for _, u := range v.Units {
		if !u.Air || u.Where != AtBase {
			continue
		}
		h, ok := hexOf[u.Base]
		if !ok {
			af, found := TheMap().AirfieldNamed(u.Base)
			if !found {
				airOff++
				continue
			}
			h = af.Hex
		}
		g := gs.at(h)
		g.air++
		g.names = append(g.names, u.Name)
	}
	return airOff
}

// offMapNotes counts the side's ships off the map by where they are, and
// its aircraft based off the map.
func offMapNotes(offMap map[string]int, airOff int) []string {
	var notes []string
	var off []string
	for _, w := range []struct{ where, say string }{
		{AtHeld, "in the German area"}, {AtReserve, "in reserve"}, {AtWaiting, "still to arrive"},
		{AtDetach, "not yet detached"}, {AtExited, "gone off the map"}, {AtBrokeOut, "broken out"}, {AtSunk, "sunk"},
	} {
		if n := offMap[w.where]; n > 0 {
			off = append(off, fmt.Sprintf("%d %s", n, w.say))
		}
	}
	if len(off) > 0 {
		notes = append(notes, "Ships off the map: "+strings.Join(off, ", ")+".")
	}
	if airOff > 0 {
		notes = append(notes, fmt.Sprintf("Aircraft based off the map: %d.", airOff))
	}
	return notes
}

// contact is what a side knows of the enemy in one hex.
type contact struct {
	hex   engine.Hex
	turn  int
	count int      // 0: not known
	types []string // as reported, may be nil
	how   string
}

// enemyContacts adds a marker for every enemy contact the View reports in
// turn last (and, paler, in the turn before), and one for every enemy group
// the side tracks; it returns notes listing them.
func enemyContacts(m *picture.HexMap, v *View, last int) []string {
	byHex := contactsByHex{}
	for _, e := range v.Reports {
		if c, ok := reportedContact(e, last); ok {
			byHex.note(c)
		}
	}
	for _, t := range v.Tracking {
		if h, ok := onMapHex(t.Hex); ok {
			byHex.note(contact{hex: h, turn: last + 1, count: len(t.Enemy), types: t.Enemy, how: "you track it now"})
		}
	}
	var cs []*contact
	for _, c := range byHex {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].turn != cs[j].turn {
			return cs[i].turn > cs[j].turn
		}
		if cs[i].hex.Row != cs[j].hex.Row {
			return cs[i].hex.Row > cs[j].hex.Row
		}
		return cs[i].hex.Col < cs[j].hex.Col
	})
	var notes []string
	if len(cs) > 0 {
		notes = append(notes, "", "Enemy reported:")
	}
	for _, c := range cs {
		notes = append(notes, drawContact(m, c, last))
	}
	return notes
}

// contactsByHex keeps the newest news of each hex.
type contactsByHex map[engine.Hex]*contact

// note keeps the newest news of c's hex; news of the same turn is merged:
// the largest count, the fullest list of types, every source.
func (byHex contactsByHex) note(c contact) {
	old := byHex[c.hex]
	switch {
	case old == nil || c.turn > old.turn:
		byHex[c.hex] = &c
	case c.turn == old.turn:
		old.count = max(old.count, c.count)
		if len(c.types) > len(old.types) {
			old.types = c.types
		}
		if !strings.Contains(old.how, c.how) {
			old.how += ", " + c.how
		}
	}
}

// reportedContact is the contact a journal entry of turn last (or the turn
// before, or the set-up before turn 1) reports, if it reports one.
func reportedContact(e Entry, last int) (contact, bool) {
	current := e.Turn == last || (last < 1 && e.Turn <= 1 && e.Kind == "setup")
	if !current && e.Turn != last-1 {
		return contact{}, false
	}
	h, ok := onMapHex(e.Hex)
	if !ok || e.Count == 0 {
		return contact{}, false
	}
	turn := last
	if !current {
		turn = last - 1
	}
	c := contact{hex: h, turn: turn}
	switch e.Kind {
	case "search":
		c.count, c.types, c.how = e.Count, e.Types, "your search"
	case "passive":
		c.count, c.how = e.Count, "passive report"
	case "tracking":
		c.count, c.types, c.how = e.Count, e.Types, "tracking"
	case "setup":
		c.count, c.how = e.Count, "reported at set-up"
	case "encounter":
		c.how = "encounter"
	default:
		return contact{}, false
	}
	return c, true
}

// drawContact adds c's marker, paler when older than turn last, and
// returns its note.
func drawContact(m *picture.HexMap, c *contact, last int) string {
	text, what := "?", "ships"
	if c.count > 0 {
		text = strconv.Itoa(c.count)
		what = fmt.Sprintf("%d unit(s)", c.count)
	}
	if len(c.types) > 0 {
		what = countTypes(c.types)
		if c.count > len(c.types) {
			what += fmt.Sprintf("; %d unit(s) in all", c.count)
		}
	}
	col, how := picContact, c.how
	switch {
	case c.turn < last:
		col = picOlder
		how += ", turn " + strconv.Itoa(c.turn)
	case c.turn == last && last >= 1:
		how += ", turn " + strconv.Itoa(c.turn)
	}
	m.Markers = append(m.Markers, picture.Marker{Row: c.hex.Row, Col: c.hex.Col, Text: text, Color: col, Shape: picture.ShapeDiamond})
	return fmt.Sprintf("%s: %s (%s)", c.hex, what, how)
}

// searchesAndFights adds rings for the side's searches in turn last and the
// enemy's searches of its hexes, and a burst for every encounter, battle
// and evasion; it returns the fights' report lines as notes.
func searchesAndFights(m *picture.HexMap, v *View, last int) []string {
	var notes []string
	fought := map[engine.Hex]bool{}
	for _, e := range v.Reports {
		if e.Turn != last || last < 1 {
			continue
		}
		h, ok := onMapHex(e.Hex)
		if !ok {
			continue
		}
		p := []picture.Pos{pos(h)}
		switch e.Kind {
		case "search":
			if e.Count > 0 {
				m.Lines = append(m.Lines, picture.Line{Hexes: p, Color: picFound, Width: 3})
			} else {
				m.Lines = append(m.Lines, picture.Line{Hexes: p, Color: picEmpty, Width: 2, Dashed: true})
			}
		case "searched":
			m.Lines = append(m.Lines, picture.Line{Hexes: p, Color: picSearched, Width: 2, Dashed: true})
		case "encounter", "combat", "evasion":
			if !fought[h] {
				fought[h] = true
				m.Markers = append(m.Markers, picture.Marker{Row: h.Row, Col: h.Col, Text: "!", Color: picFight, Shape: picture.ShapeBurst})
			}
			if len(notes) == 0 {
				notes = append(notes, "", fmt.Sprintf("Fights of turn %d:", last))
			}
			notes = append(notes, e.Text)
		}
	}
	return notes
}

// legend explains what the picture uses: present are the countries whose
// land is on the map.
func legend(present []string, side engine.Side) []picture.LegendItem {
	cell := func(text string, c color.RGBA) picture.LegendItem {
		return picture.LegendItem{Kind: picture.LegendCell, Text: text, Color: c}
	}
	items := []picture.LegendItem{{Kind: picture.LegendHeading, Text: "The map"}, cell("sea", picSea)}
	for _, c := range present {
		col, ok := countryColours[c]
		if !ok {
			continue
		}
		items = append(items, cell(countryNames[c]+", land", col), cell(countryNames[c]+", coastal", lighter(col)))
	}
	own := picAllied
	if side == German {
		own = picGerman
	}
	items = append(items,
		picture.LegendItem{Kind: picture.LegendCell, Text: "fjord", Color: lighter(countryColours["NO"]), Hatch: picHatch},
		picture.LegendItem{Kind: picture.LegendEdge, Text: "coastline", Color: picCoast},
		picture.LegendItem{Kind: picture.LegendEdge, Text: "land hexside (no ships)", Color: picLandSide},
		picture.LegendItem{Kind: picture.LegendEdge, Text: "red border: exit (6.18)", Color: picExit},
		picture.LegendItem{Kind: picture.LegendBadge, Text: "port", Shape: picture.ShapeRing, Color: picPort},
		picture.LegendItem{Kind: picture.LegendBadge, Text: "airfield", Shape: picture.ShapePlus, Color: picAirfield},
		picture.LegendItem{Kind: picture.LegendBadge, Text: "coastal fortress", Shape: picture.ShapeBox, Color: picFortress},
		picture.LegendItem{Kind: picture.LegendBadge, Text: "German entry arrow (6.16)", Shape: picture.ShapeTriangle, Color: picEntry},
		picture.LegendItem{Kind: picture.LegendBadge, Text: "held by Germany", Shape: picture.ShapeFlag, Color: picHeld},
		picture.LegendItem{Kind: picture.LegendHeading, Text: "Your forces (number of units)"},
		picture.LegendItem{Kind: picture.LegendMarker, Text: "surface ships", Shape: picture.ShapeBox, Sample: "2", Color: own},
		picture.LegendItem{Kind: picture.LegendMarker, Text: "submarines", Shape: picture.ShapeCircle, Sample: "1", Color: own},
		picture.LegendItem{Kind: picture.LegendMarker, Text: "aircraft at base", Shape: picture.ShapeTriangle, Sample: "3", Color: own},
		picture.LegendItem{Kind: picture.LegendRing, Text: "your group, tracked by the enemy", Color: picTracked},
		picture.LegendItem{Kind: picture.LegendHeading, Text: "The enemy, as reported to you"},
		picture.LegendItem{Kind: picture.LegendMarker, Text: "reported last turn / tracked", Shape: picture.ShapeDiamond, Sample: "2", Color: picContact},
		picture.LegendItem{Kind: picture.LegendMarker, Text: "reported the turn before", Shape: picture.ShapeDiamond, Sample: "1", Color: picOlder},
		picture.LegendItem{Kind: picture.LegendHeading, Text: "Last turn"},
		picture.LegendItem{Kind: picture.LegendRing, Text: "your search: enemy found", Color: picFound},
		picture.LegendItem{Kind: picture.LegendDashedRing, Text: "your search: nothing found", Color: picEmpty},
		picture.LegendItem{Kind: picture.LegendDashedRing, Text: "the enemy searched here", Color: picSearched},
		picture.LegendItem{Kind: picture.LegendMarker, Text: "encounter, battle or evasion", Shape: picture.ShapeBurst, Sample: "!", Color: picFight},
	)
	return items
}
