package kampen

import (
	"fmt"
	"image"
	"image/color"
	"strconv"
	"strings"

	"skagerrak/engine"
	"skagerrak/engine/picture"
)

// Colours of the Kampen om Norge map picture.
var (
	picLand      = color.RGBA{196, 214, 160, 255}
	picSea       = color.RGBA{164, 200, 228, 255}
	picSweden    = color.RGBA{206, 204, 192, 255}
	picCoast     = color.RGBA{45, 70, 100, 255}
	picArea      = color.RGBA{255, 255, 255, 255}
	picBorder    = color.RGBA{95, 95, 95, 255}
	picFjordLink = color.RGBA{30, 90, 190, 255}
	picSeaText   = color.RGBA{30, 60, 120, 255}
	picGerman    = color.RGBA{80, 88, 94, 255}
	picNorwegian = color.RGBA{185, 35, 40, 255}
	picAllied    = color.RGBA{40, 100, 170, 255}
	picNobody    = color.RGBA{150, 150, 150, 255}
	picCombat    = color.RGBA{245, 130, 0, 255}
	picGrey      = color.RGBA{90, 90, 90, 255}
)

// sideColour is the colour of a side's battalions.
func sideColour(side engine.Side) color.RGBA {
	switch side {
	case German:
		return picGerman
	case Norwegian:
		return picNorwegian
	case Allied:
		return picAllied
	}
	return picNobody
}

// areaAt places the areas of data/areas.txt on a 720x900 map, north up.
// The rulebook prints no board, so each is reconstructed: the town's
// position (longitude and latitude of 1940 maps scaled to the picture),
// moved a little where two boxes would touch.
var areaAt = map[string]image.Point{
	"oslo":         {509, 733}, // reconstructed: the town's position, 10.75E 59.91N
	"fredrikstad":  {560, 837}, // reconstructed: the town's position, 10.93E 59.22N (east of the fjord)
	"drammen":      {440, 764}, // reconstructed: the town's position, 10.20E 59.74N
	"larvik":       {410, 862}, // reconstructed: the town's position, 10.03E 59.05N
	"kongsberg":    {340, 790}, // reconstructed: the town's position, 9.65E 59.67N
	"honefoss":     {440, 690}, // reconstructed: the town's position, 10.26E 60.17N
	"hallingdal":   {270, 625}, // reconstructed: Gol, 8.94E 60.70N
	"valdres":      {319, 566}, // reconstructed: Fagernes, 9.23E 60.99N
	"laerdal":      {110, 555}, // reconstructed: the town's position, 7.48E 61.10N
	"gjovik":       {455, 612}, // reconstructed: the town's position, 10.69E 60.80N (west of Mjøsa)
	"hamar":        {575, 612}, // reconstructed: the town's position, 11.07E 60.79N (east of Mjøsa)
	"kongsvinger":  {650, 700}, // reconstructed: the town's position, 12.00E 60.19N
	"elverum":      {650, 575}, // reconstructed: the town's position, 11.56E 60.88N
	"rena":         {585, 520}, // reconstructed: the town's position, 11.37E 61.13N
	"tynset":       {512, 378}, // reconstructed: the town's position, 10.78E 62.28N
	"roros":        {600, 334}, // reconstructed: the town's position, 11.39E 62.57N
	"lillehammer":  {470, 530}, // reconstructed: the town's position, 10.47E 61.12N
	"kvam":         {376, 469}, // reconstructed: the village's position, 9.69E 61.67N
	"dombas":       {305, 409}, // reconstructed: the village's position, 9.12E 62.07N
	"andalsnes":    {150, 345}, // reconstructed: the town's position, 7.69E 62.57N
	"molde":        {60, 300},  // reconstructed: the town's position, 7.16E 62.74N
	"kristiansund": {130, 240}, // reconstructed: the town's position, 7.73E 63.11N
	"oppdal":       {376, 320}, // reconstructed: the village's position, 9.69E 62.59N
	"trondheim":    {465, 205}, // reconstructed: the town's position, 10.40E 63.43N
	"steinkjer":    {602, 118}, // reconstructed: the town's position, 11.50E 64.01N
	"namsos":       {602, 49},  // reconstructed: the town's position, 11.50E 64.47N
}

// The sea, lake Mjøsa and Sweden round the areas, in map pixels
// (reconstructed: the coast of 1940 drawn round the positions above).
var (
	westSea = []image.Point{
		{0, 0}, {520, 0}, {560, 30}, {540, 80}, {500, 150}, {450, 175}, {380, 160}, {300, 170},
		{220, 200}, {185, 260}, {190, 300}, {120, 320}, {60, 345}, {30, 420}, {160, 540}, {150, 565},
		{60, 560}, {0, 600},
	}
	oslofjord = []image.Point{
		{495, 752}, {525, 752}, {520, 800}, {545, 860}, {720, 870}, {720, 900}, {0, 900}, {0, 880},
		{300, 880}, {380, 885}, {470, 860}, {495, 800},
	}
	mjosa = []image.Point{
		{498, 548}, {510, 548}, {522, 590}, {528, 640}, {515, 652}, {505, 610}, {496, 575},
	}
	sweden = []image.Point{
		{720, 0}, {720, 870}, {612, 866}, {625, 800}, {695, 760}, {705, 640}, {690, 560}, {680, 440},
		{660, 360}, {670, 250}, {690, 130}, {680, 60}, {700, 0},
	}
)

// seaAt places the names of the sea areas (I-VII) by the coasts that touch
// them (reconstructed: beside the coastal areas of data/areas.txt).
var seaAt = map[string]image.Point{
	"I":   {527, 812}, // reconstructed: the Oslofjord, between Oslo, Drammen and Fredrikstad
	"II":  {250, 890}, // reconstructed: the Skagerrak off Larvik
	"III": {60, 585},  // reconstructed: the Sognefjord west of Lærdal
	"IV":  {60, 380},  // reconstructed: the sea off Molde and Åndalsnes
	"V":   {300, 140}, // reconstructed: the Trondheimsfjord and the Nordmøre coast
	"VI":  {440, 40},  // reconstructed: the sea off Namsos
	"VII": {150, 60},  // reconstructed: the open sea north of the board in use
}

// DrawMap implements engine.TypedBook: the side's map (Picture draws it as
// a PNG), from its View alone. The board is open, so it shows every area
// with its borders (fjord and lake borders dashed blue), the coasts and the
// sea areas I-VII, the four German objectives outlined in the holder's
// colour, each side's battalions where they stand, battalions on the move
// waiting at the border, the combats to fight; and in the panel the round,
// the side's own hand and standing orders, and every side's card and
// battalion counts. No other side's hand nor any deck's order is drawn: the
// View has neither.
func (rules) DrawMap(v *View, side engine.Side) (engine.Drawing, error) {
	if err := engine.CheckMapSide("kampen", v.Side, side, German, Norwegian, Allied); err != nil {
		return nil, err
	}
	return mapPicture(v, side), nil
}

func sideWord(side engine.Side) string {
	switch side {
	case German:
		return "German"
	case Norwegian:
		return "Norwegian"
	case Allied:
		return "Allied"
	}
	return "nobody"
}

// mapPicture builds the draw list of side's map from v.
func mapPicture(v *View, side engine.Side) *picture.AreaMap {
	m := &picture.AreaMap{Width: 720, Height: 900, Background: picLand}
	m.Title = "Kampen om Norge: Gudbrandsdalen og Østerdalen - " + sideWord(side) + " map"
	m.Subtitle = v.Phase.Title
	if v.Over {
		m.Subtitle = "Game over: " + v.Summary
	}
	m.Outlines = []picture.Outline{
		{Points: sweden, Fill: picSweden, Line: picBorder, Width: 1, Dashed: true},
		{Points: westSea, Fill: picSea, Line: picCoast},
		{Points: oslofjord, Fill: picSea, Line: picCoast},
		{Points: mjosa, Fill: picSea, Line: picCoast},
	}
	m.Texts = []picture.Text{
		{X: 690, Y: 300, Text: "SWEDEN", Color: picGrey},
		{X: 552, Y: 578, Text: "Mjøsa", Color: picSeaText, Halo: picLand},
	}
	for _, id := range []string{"I", "II", "III", "IV", "V", "VI", "VII"} {
		p := seaAt[id]
		m.Texts = append(m.Texts, picture.Text{X: p.X, Y: p.Y, Text: "sea " + id, Color: picSeaText, Bold: true, Halo: picSea})
	}
	holder := map[string]engine.Side{}
	objective := map[string]bool{}
	for _, h := range v.Objectives {
		objective[h.Area] = true
		holder[h.Area] = h.Holder
	}
	for _, a := range data.Areas {
		p := areaAt[a.ID]
		ar := picture.Area{ID: a.ID, Label: a.Name, X: p.X, Y: p.Y, Fill: picArea}
		if a.Sea != "" {
			ar.Label += " (" + a.Sea + ")"
			ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapeRing, Color: picSeaText})
		}
		if objective[a.ID] {
			ar.Border = sideColour(holder[a.ID])
			ar.Badges = append(ar.Badges, picture.Badge{Shape: picture.ShapeFlag, Color: sideColour(holder[a.ID])})
		}
		m.Areas = append(m.Areas, ar)
	}
	for _, l := range data.Links {
		k := picture.Link{A: l.A, B: l.B, Color: picBorder, Width: 2}
		if l.Kind == "fjord" {
			k.Color, k.Dashed = picFjordLink, true
		}
		m.Links = append(m.Links, k)
	}
	for _, g := range v.Groups {
		m.Links = append(m.Links, picture.Link{A: g.From, B: g.To, Color: sideColour(g.Side), Width: 4, Dashed: true})
	}
	// Markers: the battalions standing, in turn order, then those moving
	// in, then the combat to fight.
	for _, x := range turnOrder {
		for _, st := range v.Stacks {
			if st.Side == x && st.N > 0 {
				m.Markers = append(m.Markers, picture.AreaMarker{Area: st.Area, Text: strconv.Itoa(st.N), Color: sideColour(x)})
			}
		}
	}
	for _, g := range v.Groups {
		m.Markers = append(m.Markers, picture.AreaMarker{Area: g.To, Text: strconv.Itoa(g.N), Color: sideColour(g.Side), Shape: picture.ShapeTriangle})
	}
	for i, c := range v.Combats {
		m.Markers = append(m.Markers, picture.AreaMarker{Area: c.Area, Text: strconv.Itoa(i + 1), Color: picCombat, Shape: picture.ShapeBurst})
	}
	m.Legend = legend()
	m.Notes = notes(v, side)
	if !v.Over {
		m.Captions = 1 // who owes orders: the phase, as the subtitle names it
	}
	return m
}

func legend() []picture.LegendItem {
	return []picture.LegendItem{
		{Kind: picture.LegendArea, Color: picArea, Text: "land area"},
		{Kind: picture.LegendBadge, Shape: picture.ShapeRing, Color: picSeaText, Text: "coast on the sea area named"},
		{Kind: picture.LegendLink, Color: picBorder, Width: 2, Text: "border"},
		{Kind: picture.LegendLink, Color: picFjordLink, Width: 2, Dashed: true, Text: "border across a fjord or Mjøsa"},
		{Kind: picture.LegendArea, Color: picArea, Border: picGerman, Text: "objective held by Germany"},
		{Kind: picture.LegendArea, Color: picArea, Border: picNorwegian, Text: "objective held by Norway"},
		{Kind: picture.LegendArea, Color: picArea, Border: picAllied, Text: "objective held by the Allies"},
		{Kind: picture.LegendArea, Color: picArea, Border: picNobody, Text: "objective held by nobody"},
		{Kind: picture.LegendMarker, Color: picGerman, Sample: "3", Text: "German battalions"},
		{Kind: picture.LegendMarker, Color: picNorwegian, Sample: "2", Text: "Norwegian battalions"},
		{Kind: picture.LegendMarker, Color: picAllied, Sample: "2", Text: "Allied battalions"},
		{Kind: picture.LegendLink, Color: picGerman, Width: 4, Dashed: true, Text: "battalions on the move ..."},
		{Kind: picture.LegendMarker, Color: picGerman, Shape: picture.ShapeTriangle, Sample: "2", Text: "... waiting to enter the area"},
		{Kind: picture.LegendMarker, Color: picCombat, Shape: picture.ShapeBurst, Sample: "1", Text: "combat to fight, in order"},
	}
}

func notes(v *View, side engine.Side) []string {
	var out []string
	if !v.Over {
		var owes []string
		for _, o := range v.Phase.Owes {
			owes = append(owes, sideWord(o))
		}
		out = append(out, "Orders owed by: "+listOr(owes, "nobody")+".")
	}
	for i, c := range v.Combats {
		out = append(out, fmt.Sprintf("Combat %d: %s attacked by %s%s.", i+1, AreaName(c.Area), sideWord(c.Attacker), cardsText(c.Attacker, c.Cards, " with ")))
	}
	var held []string
	for _, h := range v.Objectives {
		held = append(held, AreaName(h.Area)+": "+sideWord(h.Holder))
	}
	out = append(out, "German objectives: "+strings.Join(held, ", ")+".")
	var hand []string
	for _, id := range v.Hand {
		hand = append(hand, CardName(side, id))
	}
	out = append(out, "Your hand: "+listOr(hand, "none")+".")
	for _, x := range v.Sides {
		out = append(out, fmt.Sprintf("%s: %d battalions; cards %d in hand, %d in the deck, %d used.", sideWord(x.Side), x.Battalions, x.Hand, x.Deck, x.Used))
	}
	if v.Hidden != nil {
		out = append(out, fmt.Sprintf("Your standing orders: engineer %s, reactions %s.", onOff(v.Hidden.Engineer), playsText(German, v.Hidden.Reacts)))
	}
	if side == Allied {
		out = append(out, "Standing order: submarine "+onOff(v.Submarine)+".")
	}
	if v.Losses != "" {
		out = append(out, "First loss in a joint defence: "+v.Losses+".")
	}
	return out
}

func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}
