package norway1940

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

// DrawMap implements engine.TypedBook: the side's map (Picture draws it as
// a PNG), from its View alone. It shows Norway, Sweden and the tip of
// Denmark; the land areas as boxes filled in the colour of the side that
// controls them, with their victory points, ports, airfields, cities,
// strongpoints and coastal batteries; the road, railway, cross-country and
// strait connections; the three sea areas (tinted by the weather of their
// zone) with their naval boxes and the home ports; the weather zones; the
// side's own land units and fleets where they are; the enemy's land units
// on the map and his fleet markers as the View shows them (undetected: the
// marker only; detected: with its contents); interdiction and depot
// markers; and a legend with notes.
func (rules) DrawMap(v *View, side engine.Side) (engine.Drawing, error) {
	if err := engine.CheckMapSide("norway1940", v.Side, side, German, Allied); err != nil {
		return nil, err
	}
	return mapPicture(v, side), nil
}

// spot is an approximate map position: the longitude and latitude of an
// area's main place (or of the middle of a naval box) in hundredths of a
// degree, and a nudge in pixels where the boxes of neighbouring places
// would overlap on the picture.
type spot struct {
	lon, lat int
	dx, dy   int
	source   string
}

// spots are the map positions of every land area, naval box and home port.
// The data pack gives only each area's latitude (for rules that need it),
// so positions are kept here, for the picture alone.
var spots = map[string]spot{
	"Oslo":          {1075, 5991, 0, 0, "reconstructed: the city's position"},
	"Fredrikstad":   {1093, 5922, 25, 0, "reconstructed: the town's position"},
	"Kongsvinger":   {1200, 6019, 0, 0, "reconstructed: the town's position"},
	"Drammen":       {1020, 5974, -14, 8, "reconstructed: the town's position"},
	"Honefoss":      {1026, 6017, -12, -6, "reconstructed: the town's position"},
	"Larvik":        {1003, 5905, -10, 0, "reconstructed: the town's position"},
	"Kongsberg":     {965, 5967, -30, 30, "reconstructed: the town's position"},
	"Arendal":       {877, 5846, 15, 0, "reconstructed: the town's position"},
	"Evje":          {780, 5859, 0, -10, "reconstructed: the village's position"},
	"Kristiansand":  {799, 5815, 0, 0, "reconstructed: the city's position"},
	"Egersund":      {600, 5845, 0, 0, "reconstructed: the town's position"},
	"Stavanger":     {573, 5897, 0, 0, "reconstructed: the city's position"},
	"Bergen":        {532, 6039, 0, 0, "reconstructed: the city's position"},
	"Voss":          {642, 6063, 0, 0, "reconstructed: the village's position"},
	"Gol":           {894, 6070, -10, 0, "reconstructed: the village's position"},
	"Bang":          {956, 6082, 0, -20, "reconstructed: Bagn in Valdres"},
	"Hamar":         {1107, 6079, -25, 0, "reconstructed: the town's position"},
	"Elverum":       {1156, 6088, 55, 0, "reconstructed: the town's position"},
	"Tretten":       {1030, 6131, 0, 0, "reconstructed: the village's position"},
	"Kvam":          {970, 6166, 0, 0, "reconstructed: the village's position"},
	"Dombas":        {912, 6207, 0, 0, "reconstructed: the village's position"},
	"Andalsnes":     {769, 6257, 0, 0, "reconstructed: the village's position"},
	"Molde":         {716, 6274, -35, -10, "reconstructed: the town's position"},
	"Alvdal":        {1063, 6211, 0, 0, "reconstructed: the village's position"},
	"Roros":         {1138, 6257, 0, 0, "reconstructed: the town's position"},
	"Storen":        {1029, 6303, 0, 12, "reconstructed: the village's position"},
	"Trondheim":     {1040, 6343, -28, 0, "reconstructed: the city's position"},
	"Stjordal":      {1092, 6347, 35, 10, "reconstructed: Vaernes by Stjordal"},
	"Steinkjer":     {1150, 6401, 20, 0, "reconstructed: the town's position"},
	"Grong":         {1231, 6446, 20, 0, "reconstructed: the village's position"},
	"Namsos":        {1150, 6447, -50, 0, "reconstructed: the town's position"},
	"Mosjoen":       {1319, 6584, 0, 0, "reconstructed: the town's position"},
	"Mo":            {1414, 6631, 40, 0, "reconstructed: Mo i Rana"},
	"Bodo":          {1440, 6728, 0, 0, "reconstructed: the town's position"},
	"Narvik":        {1743, 6844, -15, 8, "reconstructed: the town's position"},
	"Bjornfjell":    {1807, 6844, 35, 25, "reconstructed: the station by the Swedish border"},
	"Elvegardsmoen": {1753, 6853, 25, -38, "reconstructed: the camp by Bjerkvik"},
	"Harstad":       {1654, 6880, -35, 0, "reconstructed: the town's position"},
	"Bardufoss":     {1852, 6907, 10, 0, "reconstructed: the airfield's position"},
	"Tromso":        {1896, 6965, 0, 0, "reconstructed: the town's position"},
	"Sweden":        {1500, 6250, 0, 0, "reconstructed: a place in Jamtland, between the border railways"},
	"South-1":       {950, 5785, 0, 0, "reconstructed: the Skagerrak"},
	"South-2":       {620, 5770, 0, 0, "reconstructed: off Lista and Egersund"},
	"South-3":       {420, 5900, 0, 0, "reconstructed: west of Stavanger"},
	"South-4":       {390, 6040, 0, 0, "reconstructed: the North Sea off Bergen"},
	"Centre-1":      {430, 6270, 0, 0, "reconstructed: off Stad"},
	"Centre-2":      {730, 6355, 0, 0, "reconstructed: off Kristiansund and Frohavet"},
	"Centre-3":      {980, 6460, 0, 0, "reconstructed: off Namsos"},
	"Centre-4":      {450, 6420, 0, 0, "reconstructed: the Norwegian Sea"},
	"North-1":       {1250, 6770, 0, 0, "reconstructed: the Vestfjord"},
	"North-2":       {1150, 6830, 0, 0, "reconstructed: off Lofoten"},
	"North-3":       {1600, 6955, 0, 0, "reconstructed: the Andfjord"},
	"North-4":       {1800, 7010, 0, 0, "reconstructed: off Tromso"},
	Germany:         {1140, 5730, 0, 0, "reconstructed: the Kattegat, the way from Germany"},
	UK:              {420, 5740, 0, 0, "reconstructed: the way from Scapa Flow and Rosyth"},
}

// knot is a point of a piecewise-linear scale: degrees (hundredths) to
// pixels.
type knot struct{ deg, px int }

// The picture's scales. Southern Norway, crowded with areas, is drawn
// larger than the long empty coast of Nordland; the Narvik and Tromso
// country larger again. Integer arithmetic keeps the pixels the same on
// every machine.
var (
	lonScale = []knot{{250, 0}, {1260, 860}, {1580, 990}, {1950, 1295}, {2150, 1320}}
	latScale = []knot{{5700, 1370}, {5800, 1250}, {6100, 830}, {6460, 480}, {6800, 320}, {7030, 0}}
)

const mapW, mapH = 1320, 1370

func scale(ks []knot, d int) int {
	i := 1
	for i < len(ks)-1 && d > ks[i].deg {
		i++
	}
	a, b := ks[i-1], ks[i]
	return a.px + (d-a.deg)*(b.px-a.px)/(b.deg-a.deg)
}

// project returns the map pixel of a longitude and latitude (hundredths of
// a degree), kept inside the map.
func project(lon, lat int) image.Point {
	x := min(max(scale(lonScale, lon), 0), mapW)
	y := min(max(scale(latScale, lat), 0), mapH)
	return image.Point{X: x, Y: y}
}

func spotOf(name string) image.Point {
	s := spots[name]
	p := project(s.lon, s.lat)
	return image.Point{X: min(max(p.X+s.dx, 0), mapW), Y: min(max(p.Y+s.dy, 0), mapH)}
}

// Coastlines and borders, longitude and latitude in hundredths of a degree
// (reconstructed: a coarse tracing of the coasts and of the border of
// Norway; enough to recognise the country, not to measure it).
var (
	// coast runs from the Swedish border at Svinesund round the Oslofjord,
	// the south and west coasts, the Trondheimsfjord and Nordland to the
	// map's east edge in the north.
	coast = [][2]int{
		{1185, 5905}, {1140, 5895}, {1100, 5900}, {1085, 5920}, {1070, 5945}, {1065, 5975}, {1075, 5990}, {1050, 5970},
		{1045, 5945}, {1035, 5915}, {1005, 5900}, {960, 5895}, {900, 5860}, {875, 5840}, {820, 5818},
		{795, 5808}, {740, 5800}, {705, 5795}, {660, 5805}, {615, 5830}, {590, 5845}, {550, 5875},
		{560, 5900}, {530, 5930}, {520, 5970}, {500, 6010}, {500, 6040}, {490, 6080}, {485, 6120},
		{495, 6160}, {510, 6220}, {570, 6235}, {620, 6255}, {680, 6280}, {730, 6295}, {770, 6310},
		{840, 6340}, {900, 6355}, {960, 6375}, {1035, 6345}, {1090, 6348}, {1135, 6380}, {1150, 6400},
		{1135, 6395}, {1095, 6362}, {1040, 6355}, {985, 6370}, {1000, 6400}, {1060, 6435}, {1120, 6450},
		{1100, 6485}, {1210, 6547}, {1245, 6590}, {1260, 6610}, {1300, 6660}, {1360, 6700}, {1430, 6728},
		{1500, 6755}, {1560, 6795}, {1630, 6820}, {1740, 6842}, {1690, 6850}, {1750, 6860}, {1730, 6880},
		{1780, 6910}, {1830, 6935}, {1860, 6955}, {1890, 6970}, {1930, 6990}, {2000, 7005}, {2080, 7010},
		{2150, 7005},
	}
	// border runs from Svinesund up the Swedish border to the Finnish
	// border at the map's east edge.
	border = [][2]int{
		{1185, 5905}, {1200, 5925}, {1220, 5950}, {1240, 5970}, {1255, 5995}, {1275, 6020}, {1275, 6060},
		{1280, 6100}, {1285, 6130}, {1260, 6160}, {1230, 6230}, {1225, 6280}, {1215, 6330}, {1270, 6370},
		{1370, 6410}, {1405, 6450}, {1440, 6530}, {1460, 6580}, {1540, 6625}, {1570, 6660}, {1630, 6710},
		{1690, 6755}, {1780, 6810}, {1813, 6842}, {1880, 6850}, {1960, 6870}, {2055, 6906}, {2150, 6930},
	}
	// islands are Lofoten, Vesteralen and Hinnoya, where Harstad lies.
	islands = [][2]int{
		{1290, 6785}, {1430, 6835}, {1500, 6860}, {1560, 6900}, {1580, 6920}, {1610, 6932}, {1630, 6905},
		{1675, 6880}, {1660, 6845}, {1600, 6835}, {1500, 6825}, {1400, 6800}, {1310, 6775},
	}
	// swedishCoast runs from the map's south edge up the Kattegat to
	// Svinesund.
	swedishCoast = [][2]int{{1200, 5700}, {1190, 5760}, {1160, 5820}, {1160, 5880}}
	denmark      = [][2]int{
		{1060, 5775}, {1055, 5745}, {1035, 5700}, {850, 5700}, {860, 5712}, {960, 5745}, {995, 5760},
	}
)

func reversedPoints(ps [][2]int) [][2]int {
	out := make([][2]int, len(ps))
	for i, p := range ps {
		out[len(ps)-1-i] = p
	}
	return out
}

// norwayOutline is the mainland of Norway: the coast, then back down the
// border.
func norwayOutline() [][2]int {
	return append(append([][2]int(nil), coast...), reversedPoints(border)...)
}

// swedenOutline is Sweden (with Finland's corner in the north): the border,
// the map's east and south edges, the Kattegat coast.
func swedenOutline() [][2]int {
	out := append([][2]int(nil), border...)
	out = append(out, [2]int{2150, 5700})
	return append(out, swedishCoast...)
}

func outline(pts [][2]int, fill color.RGBA) picture.Outline {
	o := picture.Outline{Fill: fill, Line: picCoast}
	for _, p := range pts {
		o.Points = append(o.Points, project(p[0], p[1]))
	}
	return o
}

// Colours of the Norway 1940 map picture.
var (
	picSea      = color.RGBA{196, 220, 238, 255}
	picCoast    = color.RGBA{95, 120, 140, 255}
	picNorway   = color.RGBA{214, 228, 190, 255}
	picSweden   = color.RGBA{226, 224, 214, 255}
	picRail     = color.RGBA{40, 40, 40, 255}
	picRoad     = color.RGBA{190, 70, 40, 255}
	picCross    = color.RGBA{150, 120, 80, 255}
	picStrait   = color.RGBA{220, 30, 30, 255}
	picZone     = color.RGBA{110, 60, 150, 255}
	picSeaText  = color.RGBA{30, 60, 110, 255}
	picBox      = color.RGBA{120, 160, 205, 255}
	picHome     = color.RGBA{60, 90, 140, 255}
	picGermanCt = color.RGBA{168, 174, 182, 255}
	picAlliedCt = color.RGBA{244, 226, 178, 255}
	picNeutral  = color.RGBA{255, 255, 255, 255}
	picPortGrey = color.RGBA{70, 70, 70, 255}
	picPortRed  = color.RGBA{215, 25, 25, 255}
	picPortMin  = color.RGBA{30, 80, 170, 255}
	picAirfield = color.RGBA{20, 20, 20, 255}
	picHit      = color.RGBA{235, 120, 0, 255}
	picCity     = color.RGBA{120, 40, 120, 255}
	picFleetOwn = color.RGBA{25, 45, 105, 255}
	picFleetDet = color.RGBA{214, 24, 96, 255}
	picFleetUnd = color.RGBA{240, 176, 200, 255}
	picSupply   = color.RGBA{250, 210, 60, 255}
	picInterdic = color.RGBA{245, 135, 0, 255}
	picDepot    = color.RGBA{160, 120, 200, 255}
	picOwner    = map[engine.Side]color.RGBA{German: {60, 66, 72, 255}, Allied: {180, 30, 40, 255}}
	picNations  = map[string]color.RGBA{
		"german":    {96, 104, 110, 255},
		"norwegian": {178, 34, 52, 255},
		"british":   {196, 164, 96, 255},
		"french":    {70, 100, 170, 255},
		"polish":    {235, 235, 235, 255},
	}
	weatherSea = map[string]color.RGBA{
		"clear":   {196, 220, 238, 255},
		"bad":     {180, 198, 212, 255},
		"storm":   {162, 172, 188, 255},
		"thunder": {200, 186, 222, 255},
	}
)

// nations in the order their markers are laid out.
var nationOrder = []string{"german", "norwegian", "british", "french", "polish"}

func nationColour(n string) color.RGBA {
	if c, ok := picNations[n]; ok {
		return c
	}
	return color.RGBA{150, 150, 150, 255}
}

// mapPicture builds the draw list of side's map from v.
func mapPicture(v *View, side engine.Side) *picture.AreaMap {
	m := &picture.AreaMap{Width: mapW, Height: mapH, Background: picSea}
	m.Title = "Norway 1940 - " + sideTitle(side) + " map"
	m.Subtitle = v.Phase.Title
	if v.Phase.Over {
		m.Subtitle = fmt.Sprintf("Turn %d: game over", v.Turn)
		if v.Result != nil && v.Result.Summary != "" {
			m.Subtitle += " - " + v.Result.Summary
		}
	} else {
		m.Subtitle += fmt.Sprintf("; weather South %s, Centre %s, North %s", v.Weather.South, v.Weather.Centre, v.Weather.North)
	}
	m.Subtitle += fmt.Sprintf("; VP held: German %d, Allied %d", v.GermanVP, v.AlliedVP)
	background(m, v)
	areas(m, v)
	links(m)
	notes := units(m, v, side)
	notes = append(notes, fleets(m, v, side)...)
	notes = append(notes, airNote(v)...)
	notes = append(notes, publicMarkers(m, v)...)
	if v.Ask != nil && v.Ask.Side == side {
		notes = append([]string{askNote(v.Ask)}, notes...)
	}
	m.Legend = legend(v, side)
	m.Notes = notes
	return m
}

func sideTitle(x engine.Side) string {
	if x == German {
		return "German"
	}
	return "Allied"
}

// background adds the sea areas tinted by their weather, the land, the
// zone borders and the names of seas, zones and countries.
func background(m *picture.AreaMap, v *View) {
	w := map[string]string{"South": v.Weather.South, "Centre": v.Weather.Centre, "North": v.Weather.North}
	band := func(sea string, lat0, lat1 int) {
		c, ok := weatherSea[w[sea]]
		if !ok {
			c = picSea
		}
		m.Outlines = append(m.Outlines, picture.Outline{Fill: c, Points: []image.Point{
			project(250, lat0), project(1300, lat0), project(1300, lat1), project(250, lat1)}})
	}
	// Sea areas (9.13.2): South to Stad, Centre to the Nordland coast
	// below Mosjoen, North beyond (reconstructed, as data/sea.txt).
	band("South", 5700, 6220)
	band("Centre", 6220, 6520)
	m.Outlines = append(m.Outlines, picture.Outline{Fill: colourOr(weatherSea[w["North"]], picSea), Points: []image.Point{
		project(250, 6520), project(2150, 6520), project(2150, 7030), project(250, 7030)}})
	m.Outlines = append(m.Outlines,
		outline(swedenOutline(), picSweden),
		outline(denmark, picSweden),
		outline(norwayOutline(), picNorway),
		outline(islands, picNorway))
	// Sea area borders: from the coast at Stad and below Mosjoen out to sea.
	m.Outlines = append(m.Outlines,
		picture.Outline{Open: true, Dashed: true, Line: picSeaText, Width: 2, Points: []image.Point{project(250, 6220), project(510, 6220)}},
		picture.Outline{Open: true, Dashed: true, Line: picSeaText, Width: 2, Points: []image.Point{project(250, 6520), project(1080, 6520)}})
	// Weather zone borders on land (6.1): between Elverum and Tretten, and
	// between Namsos and Mosjoen (reconstructed from the areas' zones).
	m.Outlines = append(m.Outlines,
		picture.Outline{Open: true, Dashed: true, Line: picZone, Width: 2, Points: []image.Point{project(485, 6100), project(1265, 6100)}},
		picture.Outline{Open: true, Dashed: true, Line: picZone, Width: 2, Points: []image.Point{project(1170, 6520), project(1455, 6520)}})
	halo := color.RGBA{255, 255, 255, 255}
	text := func(lon, lat int, s string, c color.RGBA, bold bool) {
		p := project(lon, lat)
		m.Texts = append(m.Texts, picture.Text{X: p.X, Y: p.Y, Text: s, Color: c, Bold: bold, Halo: halo})
	}
	text(390, 6190, "SOUTH sea area, zone S: "+v.Weather.South, picSeaText, true)
	text(390, 6490, "CENTRE sea area, zone C: "+v.Weather.Centre, picSeaText, true)
	text(600, 6990, "NORTH sea area, zone N: "+v.Weather.North, picSeaText, true)
	text(700, 6110, "zone C", picZone, false)
	text(700, 6090, "zone S", picZone, false)
	text(1130, 6535, "zone N", picZone, false)
	text(1130, 6505, "zone C", picZone, false)
	text(1560, 6470, "SWEDEN", picCoast, true)
	text(900, 5735, "DENMARK", picCoast, true)
	text(720, 6030, "NORWAY", picCoast, true)
}

func colourOr(c, d color.RGBA) color.RGBA {
	if c.A == 0 {
		return d
	}
	return c
}

// areas adds the land areas, the naval boxes and the home ports.
func areas(m *picture.AreaMap, v *View) {
	ctl := map[string]engine.Side{}
	for _, c := range v.Control {
		ctl[c.Area] = c.Side
	}
	fields := map[string]*Airfield{}
	for _, f := range v.Fields {
		fields[f.Area] = f
	}
	strong := map[string]*Strongpoint{}
	for _, s := range v.Strong {
		strong[s.Area] = s
	}
	bats := map[string][]*Battery{}
	for _, b := range v.Bats {
		bats[b.Area] = append(bats[b.Area], b)
	}
	for _, a := range data.Areas {
		p := spotOf(a.Name)
		label := a.Name
		if a.VP > 0 {
			label += " (" + strconv.Itoa(a.VP) + ")"
		}
		ar := picture.Area{ID: a.Name, Label: label, X: p.X, Y: p.Y, Fill: picNeutral}
		switch ctl[a.Name] {
		case German:
			ar.Fill = picGermanCt
		case Allied:
			ar.Fill = picAlliedCt
		}
		switch a.Port {
		case "grey":
			ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapeRing, Color: picPortGrey})
		case "red":
			ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapeRing, Color: picPortRed})
		case "minor":
			ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapeRing, Color: picPortMin})
		}
		if a.City >= 0 {
			ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapeBox, Color: picCity})
		}
		if a.Airfields > 0 || a.Runway {
			c := picAirfield
			if f := fields[a.Name]; f != nil && f.Hits > 0 {
				c = picHit
			}
			ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapePlus, Color: c})
		}
		if sp := strong[a.Name]; sp != nil {
			c := picOwner[sp.Owner]
			if !sp.Usable {
				c = color.RGBA{170, 170, 170, 255}
			}
			ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapeFlag, Color: c})
		}
		for _, b := range bats[a.Name] {
			switch b.Status {
			case "active":
				ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapeTriangle, Color: picOwner[b.Owner]})
			case "inoperative":
				ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapeTriangle, Color: color.RGBA{170, 170, 170, 255}})
			}
		}
		m.Areas = append(m.Areas, ar)
	}
	for _, b := range data.Boxes {
		p := spotOf(b.Name)
		m.Areas = append(m.Areas, picture.Area{ID: b.Name, Label: b.Name, X: p.X, Y: p.Y, Fill: picBox})
	}
	for _, h := range []string{Germany, UK} {
		p := spotOf(h)
		m.Areas = append(m.Areas, picture.Area{ID: h, Label: h + " (port)", X: p.X, Y: p.Y, Fill: picHome})
	}
}

// links adds the land connections of data/links.txt.
func links(m *picture.AreaMap) {
	for _, a := range data.Areas {
		for _, e := range data.Graph.Edges(a.Name) {
			if e.From >= e.To {
				continue // each link once
			}
			l := picture.Link{A: e.From, B: e.To}
			switch e.Kind {
			case "rail":
				l.Color, l.Width, l.Ticks = picRail, 4, picNeutral
			case "road":
				l.Color, l.Width = picRoad, 3
			case "cross":
				l.Color, l.Width, l.Dashed = picCross, 2, true
			case "strait":
				l.Color, l.Width, l.Dashed = picStrait, 3, true
			default:
				continue
			}
			m.Links = append(m.Links, l)
		}
	}
}

// stack is what one side has in one place.
type stack struct {
	byNation map[string]int
	supply   int
	names    []string
}

// units adds markers for the side's land units and the enemy's land units
// the View shows, and returns notes listing the side's own.
func units(m *picture.AreaMap, v *View, side engine.Side) []string {
	own, enemy, off := landStacks(v, side)
	var notes []string
	for _, a := range placeOrder() {
		if st := own[a]; st != nil {
			st.mark(m, a, picture.ShapeBox, picture.ShapeCircle)
			if len(notes) == 0 {
				notes = append(notes, "Your land units:")
			}
			notes = append(notes, a+": "+strings.Join(st.names, ", "))
		}
		if st := enemy[a]; st != nil {
			st.mark(m, a, picture.ShapeDiamond, picture.ShapeDiamond)
		}
	}
	notes = append(notes, off.notes()...)
	var seen []string
	for _, a := range placeOrder() {
		if st := enemy[a]; st != nil {
			seen = append(seen, a+": "+strings.Join(st.names, ", "))
		}
	}
	if len(seen) > 0 {
		notes = append(notes, "", "Enemy land units seen:")
		notes = append(notes, seen...)
	}
	return notes
}

// offMap is the side's land units not on the map: embarked, in the
// parachute pool, and the entry turns of those still to come.
type offMap struct {
	embarked, para []string
	waiting        []int
}

// notes lists the units off the map.
func (o offMap) notes() []string {
	var notes []string
	if len(o.embarked) > 0 {
		notes = append(notes, "Embarked: "+strings.Join(o.embarked, ", ")+".")
	}
	if len(o.para) > 0 {
		notes = append(notes, "Parachute pool: "+strings.Join(o.para, ", ")+".")
	}
	if len(o.waiting) > 0 {
		sort.Ints(o.waiting)
		notes = append(notes, fmt.Sprintf("To come: %d unit(s), the first on turn %d.", len(o.waiting), o.waiting[0]))
	}
	return notes
}

// landStacks gathers the live land units the View shows into stacks by
// place, the side's own and the enemy's, and the side's units off the map.
func landStacks(v *View, side engine.Side) (own, enemy map[string]*stack, off offMap) {
	onMap := func(loc string) bool {
		_, ok := spots[loc]
		return ok && !isBox(loc)
	}
	own, enemy = map[string]*stack{}, map[string]*stack{}
	for _, u := range v.Units {
		if u.Dead {
			continue
		}
		mine := u.Side == side
		switch {
		case u.Fleet != "":
			if mine {
				off.embarked = append(off.embarked, u.ID)
			}
			continue
		case u.Loc == ParaBox:
			if mine {
				off.para = append(off.para, u.ID)
			}
			continue
		case !onMap(u.Loc) || ((u.Loc == Germany || u.Loc == UK) && u.Entry > v.Turn):
			if mine {
				off.waiting = append(off.waiting, u.Entry)
			}
			continue
		}
		set := enemy
		if mine {
			set = own
		}
		st := set[u.Loc]
		if st == nil {
			st = &stack{byNation: map[string]int{}}
			set[u.Loc] = st
		}
		st.add(u)
	}
	return own, enemy, off
}

// add counts unit u in the stack and names it, with its supply steps,
// reduction, supply state and blast markers.
func (st *stack) add(u *Unit) {
	name := u.ID
	if u.Type == "supply" {
		st.supply++
		name += fmt.Sprintf(" supply %d/2", u.Steps)
	} else {
		st.byNation[u.Nation]++
		if u.Steps < u.MaxSteps {
			name += " reduced"
		}
	}
	if u.OOS {
		name += " out of supply"
	}
	if u.Blast > 0 {
		name += fmt.Sprintf(" %d blast", u.Blast)
	}
	st.names = append(st.names, name)
}

// mark adds the stack's markers at area a: a count of units per nation in
// shape, and the supply units in supplyShape.
func (st *stack) mark(m *picture.AreaMap, a string, shape, supplyShape string) {
	for _, n := range nationOrder {
		if k := st.byNation[n]; k > 0 {
			m.Markers = append(m.Markers, picture.AreaMarker{Area: a, Text: strconv.Itoa(k), Color: nationColour(n), Shape: shape})
		}
	}
	if st.supply > 0 {
		m.Markers = append(m.Markers, picture.AreaMarker{Area: a, Text: "S" + strconv.Itoa(st.supply), Color: picSupply, Shape: supplyShape})
	}
}

// placeOrder is every place of the map from south to north: home ports,
// land areas, naval boxes.
func placeOrder() []string {
	var out []string
	for name := range spots {
		out = append(out, name)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := spots[out[i]], spots[out[j]]
		if a.lat != b.lat {
			return a.lat < b.lat
		}
		return out[i] < out[j]
	})
	return out
}

// fleets adds a marker for each of the side's fleets and each enemy fleet
// marker, and returns notes: the side's fleets and naval points, and the
// enemy fleets as the View shows them.
func fleets(m *picture.AreaMap, v *View, side engine.Side) []string {
	var mine, theirs []string
	for _, f := range v.Fleets {
		if _, ok := spots[f.Where]; !ok {
			continue
		}
		if f.Side == side {
			m.Markers = append(m.Markers, picture.AreaMarker{Area: f.Where, Text: f.ID, Color: picFleetOwn, Shape: picture.ShapeBox})
			s := fmt.Sprintf("%s at %s: combat %d, transport %d", f.ID, f.Where, f.Combat, f.Transport)
			if f.Decoys > 0 {
				s += fmt.Sprintf(", %d decoy(s)", f.Decoys)
			}
			if len(f.Cargo) > 0 {
				s += ", carrying " + strings.Join(f.Cargo, " ")
			}
			if f.Detected {
				s += "; detected"
			}
			mine = append(mine, s)
			continue
		}
		if !f.Detected {
			m.Markers = append(m.Markers, picture.AreaMarker{Area: f.Where, Text: f.ID + "?", Color: picFleetUnd, Shape: picture.ShapeDiamond})
			theirs = append(theirs, fmt.Sprintf("%s at %s: undetected marker", f.ID, f.Where))
			continue
		}
		m.Markers = append(m.Markers, picture.AreaMarker{Area: f.Where, Text: f.ID, Color: picFleetDet, Shape: picture.ShapeDiamond})
		s := fmt.Sprintf("%s at %s: detected, %s, combat %d, transport %d", f.ID, f.Where, f.Nation, f.Combat, f.Transport)
		if len(f.Cargo) > 0 {
			s += ", carrying " + strings.Join(f.Cargo, " ")
		}
		theirs = append(theirs, s)
	}
	var notes []string
	if len(mine) > 0 {
		notes = append(notes, "", "Your fleets:")
		notes = append(notes, mine...)
	}
	var pools []string
	for _, p := range v.Pools {
		if p.Side == side && p.Combat+p.Transport > 0 {
			pools = append(pools, fmt.Sprintf("%s %d+%d", p.Port, p.Combat, p.Transport))
		}
	}
	if len(pools) > 0 {
		notes = append(notes, "Naval points in port (combat+transport): "+strings.Join(pools, ", ")+".")
	}
	if len(theirs) > 0 {
		notes = append(notes, "", "Enemy fleet markers:")
		notes = append(notes, theirs...)
	}
	return notes
}

// airNote returns a note of the side's air markers left this turn.
func airNote(v *View) []string {
	if v.Own == nil {
		return nil
	}
	var parts []string
	for _, a := range v.Own.Air {
		if a.Markers > 0 {
			parts = append(parts, fmt.Sprintf("%s %s %d/%d", a.Nation, a.Type, a.Markers-a.Used, a.Markers))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"", "Your air markers left this turn: " + strings.Join(parts, ", ") + "."}
}

// publicMarkers adds interdiction and depot markers and returns notes on
// works and airfield hits.
func publicMarkers(m *picture.AreaMap, v *View) []string {
	for _, mk := range v.Marks {
		if _, ok := spots[mk.Area]; ok && mk.Count > 0 {
			m.Markers = append(m.Markers, picture.AreaMarker{Area: mk.Area, Text: strconv.Itoa(mk.Count), Color: picInterdic, Shape: picture.ShapeBurst})
		}
	}
	for _, d := range v.Depots {
		if _, ok := spots[d.Area]; !ok || d.Used {
			continue
		}
		text := "D"
		if d.Flipped && !d.Real {
			continue
		}
		m.Markers = append(m.Markers, picture.AreaMarker{Area: d.Area, Text: text, Color: picDepot, Shape: picture.ShapeCircle})
	}
	var notes []string
	for _, w := range v.Works {
		state := "under way"
		if w.Done {
			state = "done"
		}
		notes = append(notes, fmt.Sprintf("%s %s at %s (%s, %s).", sideTitle(w.Side), w.Kind, w.Area, w.Unit, state))
	}
	for _, f := range v.Fields {
		if f.Hits > 0 {
			notes = append(notes, fmt.Sprintf("Airfield at %s: %d hit(s).", f.Area, f.Hits))
		}
	}
	if len(notes) > 0 {
		notes = append([]string{""}, notes...)
	}
	return notes
}

// legend explains the picture.
func legend(v *View, side engine.Side) []picture.LegendItem {
	badge := func(text, shape string, c color.RGBA) picture.LegendItem {
		return picture.LegendItem{Kind: picture.LegendBadge, Text: text, Shape: shape, Color: c}
	}
	marker := func(text, shape, sample string, c color.RGBA) picture.LegendItem {
		return picture.LegendItem{Kind: picture.LegendMarker, Text: text, Shape: shape, Sample: sample, Color: c}
	}
	items := []picture.LegendItem{
		{Kind: picture.LegendHeading, Text: "The map"},
		{Kind: picture.LegendArea, Text: "area held by the Allies (VP)", Color: picAlliedCt},
		{Kind: picture.LegendArea, Text: "area held by Germany (VP)", Color: picGermanCt},
		{Kind: picture.LegendArea, Text: "naval box", Color: picBox},
		{Kind: picture.LegendLink, Text: "railway (and road)", Color: picRail, Width: 4, Ticks: picNeutral},
		{Kind: picture.LegendLink, Text: "road", Color: picRoad, Width: 3},
		{Kind: picture.LegendLink, Text: "cross-country", Color: picCross, Dashed: true},
		{Kind: picture.LegendLink, Text: "strait crossing (10.3.5)", Color: picStrait, Width: 3, Dashed: true},
		{Kind: picture.LegendLink, Text: "weather zone border", Color: picZone, Dashed: true},
		badge("German target port (grey)", picture.ShapeRing, picPortGrey),
		badge("Allied landing port (red)", picture.ShapeRing, picPortRed),
		badge("minor port", picture.ShapeRing, picPortMin),
		badge("city", picture.ShapeBox, picCity),
		badge("airfield (orange: hit)", picture.ShapePlus, picAirfield),
		badge("strongpoint, by owner", picture.ShapeFlag, picOwner[Allied]),
		badge("coastal battery, by owner", picture.ShapeTriangle, picOwner[German]),
		{Kind: picture.LegendHeading, Text: "Sea areas by weather"},
	}
	for _, w := range []string{"clear", "bad", "storm", "thunder"} {
		items = append(items, picture.LegendItem{Kind: picture.LegendArea, Text: w, Color: weatherSea[w]})
	}
	items = append(items, picture.LegendItem{Kind: picture.LegendHeading, Text: "Your forces (number of units)"})
	nations := []string{"german"}
	if side == Allied {
		nations = []string{"norwegian", "british", "french", "polish"}
	}
	for _, n := range nations {
		items = append(items, marker(n+" land units", picture.ShapeBox, "2", nationColour(n)))
	}
	if side == German {
		items = append(items, marker("supply units", picture.ShapeCircle, "S1", picSupply))
	}
	items = append(items, marker("fleet", picture.ShapeBox, "G1", picFleetOwn),
		picture.LegendItem{Kind: picture.LegendHeading, Text: "The enemy, as you know him"})
	enemyNations := []string{"norwegian", "british", "french", "polish"}
	if side == Allied {
		enemyNations = []string{"german"}
	}
	for _, n := range enemyNations {
		items = append(items, marker(n+" land units", picture.ShapeDiamond, "2", nationColour(n)))
	}
	fl := "A1"
	if side == Allied {
		fl = "G1"
		items = append(items, marker("german supply units", picture.ShapeDiamond, "S1", picSupply))
	}
	items = append(items,
		marker("fleet marker, undetected", picture.ShapeDiamond, fl+"?", picFleetUnd),
		marker("fleet, detected", picture.ShapeDiamond, fl, picFleetDet),
		picture.LegendItem{Kind: picture.LegendHeading, Text: "Markers"},
		marker("interdiction markers", picture.ShapeBurst, "1", picInterdic),
		marker("depot marker (16.4)", picture.ShapeCircle, "D", picDepot),
	)
	return items
}

// askNote is the picture's note of the decision the side must take in a
// short phase.
func askNote(q *Question) string {
	n := "Your decision: " + askTitle[q.Kind]
	switch q.Kind {
	case AskEvasion, AskContinue:
		n += fmt.Sprintf(" - your fleet %s against %s in %s", q.Fleet, q.Enemy, q.Box)
	case AskReact:
		n += fmt.Sprintf(" - enemy fleet %s in %s", q.Enemy, q.Box)
	case AskInterception:
		n += fmt.Sprintf(" - %d kept fighter marker(s)", q.Keep)
	}
	return n
}
