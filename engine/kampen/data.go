package kampen

import (
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"skagerrak/engine"
)

//go:embed data/*.txt
var dataFS embed.FS

// files is the data pack: the files under data/.
var files = engine.Pack{Game: "kampen", FS: dataFS}

// AreaInfo is one land area of the reconstructed board (data/areas.txt).
type AreaInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Gloss  string `json:"gloss"`
	Sea    string `json:"sea,omitempty"`
	Source string `json:"source"`
}

// LinkInfo is one border between two land areas (data/links.txt).
type LinkInfo struct {
	A, B   string
	Kind   string
	Source string
}

// CardInfo is one kind of card (data/cards.txt). Card kinds are keyed by
// side and id, since both Germany and Norway have a Rask forflytning.
type CardInfo struct {
	ID      string
	Side    engine.Side
	Name    string
	Gloss   string
	Count   int
	Symbols int
	Uses    []string
	Attack  int
	Defend  int
	Cancels []string
	Source  string
}

// Can reports whether the card may be used for use (see data/cards.txt).
func (c CardInfo) Can(use string) bool {
	return slices.Contains(c.Uses, use)
}

// SetupInfo is one stack of the scenario's set-up (data/setup.txt).
type SetupInfo struct {
	Side engine.Side
	Area string
	N    int
}

// Face is one face of the custom combat die (data/dice.txt).
type Face struct {
	Label  string
	Points int
	Z      bool
}

// Data is the whole embedded data pack.
type Data struct {
	Areas  []AreaInfo
	Links  []LinkInfo
	Cards  []CardInfo
	Setup  []SetupInfo
	Faces  [6]Face
	Graph  *engine.AreaGraph
	byArea map[string]int
}

// data is what the ruleset read from its data pack, files.
var data = engine.Load(files, load)

func load() (*Data, error) {
	d := &Data{Graph: engine.NewAreaGraph(), byArea: map[string]int{}}
	rs, err := files.Rows("areas.txt", 5)
	if err != nil {
		return nil, err
	}
	for _, f := range rs {
		a := AreaInfo{ID: f[0], Name: f[1], Gloss: f[2], Source: f[4]}
		if f[3] != "-" {
			a.Sea = f[3]
		}
		if normName(a.Name) != a.ID {
			return nil, fmt.Errorf("areas.txt: id %q does not match name %q", a.ID, a.Name)
		}
		d.byArea[a.ID] = len(d.Areas)
		d.Areas = append(d.Areas, a)
		d.Graph.AddArea(a.ID)
	}
	rs, err = files.Rows("links.txt", 4)
	if err != nil {
		return nil, err
	}
	for _, f := range rs {
		if f[2] != "land" && f[2] != "fjord" {
			return nil, fmt.Errorf("links.txt: %s-%s: kind %q", f[0], f[1], f[2])
		}
		if err := d.Graph.Connect(f[0], f[1], f[2]); err != nil {
			return nil, err
		}
		d.Links = append(d.Links, LinkInfo{A: f[0], B: f[1], Kind: f[2], Source: f[3]})
	}
	rs, err = files.Rows("cards.txt", 11)
	if err != nil {
		return nil, err
	}
	for _, f := range rs {
		c := CardInfo{ID: f[0], Side: engine.Side(f[1]), Name: f[2], Gloss: f[3], Source: f[10]}
		nums := []*int{&c.Count, &c.Symbols, nil, &c.Attack, &c.Defend}
		for i, p := range nums {
			if p == nil {
				continue
			}
			if *p, err = strconv.Atoi(f[4+i]); err != nil {
				return nil, fmt.Errorf("cards.txt: %s: %v", c.ID, err)
			}
		}
		if f[6] != "-" {
			c.Uses = strings.Split(f[6], ",")
		}
		if f[9] != "-" {
			c.Cancels = strings.Split(f[9], ",")
		}
		d.Cards = append(d.Cards, c)
	}
	rs, err = files.Rows("setup.txt", 4)
	if err != nil {
		return nil, err
	}
	for _, f := range rs {
		n, err := strconv.Atoi(f[2])
		if err != nil || !d.Graph.Has(f[1]) {
			return nil, fmt.Errorf("setup.txt: bad line %v", f)
		}
		d.Setup = append(d.Setup, SetupInfo{Side: engine.Side(f[0]), Area: f[1], N: n})
	}
	rs, err = files.Rows("dice.txt", 5)
	if err != nil {
		return nil, err
	}
	if len(rs) != 6 {
		return nil, fmt.Errorf("dice.txt: %d faces, want 6", len(rs))
	}
	for i, f := range rs {
		p, _ := strconv.Atoi(f[2])
		d.Faces[i] = Face{Label: f[1], Points: p, Z: f[3] == "1"}
	}
	return d, nil
}

// Area returns the area with id, and whether it exists.
func (d *Data) Area(id string) (AreaInfo, bool) {
	i, ok := d.byArea[id]
	if !ok {
		return AreaInfo{}, false
	}
	return d.Areas[i], true
}

// AreaName is the display name of area id.
func AreaName(id string) string {
	if a, ok := data.Area(id); ok {
		return a.Name
	}
	return id
}

// Card returns side's card kind id.
func (d *Data) Card(side engine.Side, id string) (CardInfo, bool) {
	for _, c := range d.Cards {
		if c.Side == side && c.ID == id {
			return c, true
		}
	}
	return CardInfo{}, false
}

// CardName is the display name of side's card id.
func CardName(side engine.Side, id string) string {
	if c, ok := data.Card(side, id); ok {
		return c.Name
	}
	return id
}

// EdgeKind returns the kind of the border a-b ("land", "fjord"), or "".
func EdgeKind(a, b string) string { return data.Graph.EdgeKind(a, b) }

// Distance is the number of borders between a and b, -1 if unreachable.
func Distance(a, b string) int {
	p, ok := data.Graph.ShortestPath(a, b, func(engine.Edge) (int, bool) { return 1, true })
	if !ok {
		return -1
	}
	return p.Cost
}

// normName folds a name for matching: lower case, Norwegian letters to
// their usual ASCII spellings, and blanks, hyphens and underscores dropped.
func normName(s string) string {
	return nameFolder.Replace(strings.ToLower(s))
}

// nameFolder folds Norwegian letters and separators out of names; built
// once, as building a Replacer is the costly part.
var nameFolder = strings.NewReplacer("æ", "ae", "ø", "o", "å", "a", "aa", "a", "ö", "o", "ä", "ae", "-", "", "_", "", " ", "", "'", "")

// areaAliases are further names order files may use for areas.
var areaAliases = map[string]string{
	"fagernes": "valdres", "gol": "hallingdal", "ringebu": "kvam", "sel": "kvam", "otta": "kvam",
	"koppang": "rena", "storelvdal": "rena", "amot": "rena", "ringerike": "honefoss", "storen": "trondheim",
}

// lookupArea resolves an area name as written in an order file.
func lookupArea(word string) (string, bool) {
	n := normName(word)
	if _, ok := data.byArea[n]; ok {
		return n, true
	}
	if a, ok := areaAliases[n]; ok {
		return a, true
	}
	return "", false
}

// cardAliases maps English glosses and short forms to card ids.
var cardAliases = map[string]string{
	"engineers": "ingeniorkompani", "engineer": "ingeniorkompani", "ingenior": "ingeniorkompani",
	"scouts": "speidertropp", "scout": "speidertropp",
	"rapid": "rask-forflytning", "rapidmovement": "rask-forflytning", "rask": "rask-forflytning",
	"paratroops": "fallskjermtropp", "para": "fallskjermtropp", "fallskjerm": "fallskjermtropp",
	"bombers": "bombefly", "fighterbombers": "jagerbomber", "artillery": "artilleri",
	"ambush": "bakhold", "blownbridge": "sprengt-bro", "bridge": "sprengt-bro", "roadblock": "veisperring",
	"fighters": "jagerfly", "antitank": "panservernkanon", "atguns": "panservernkanon", "pak": "panservernkanon",
	"submarine": "ubat", "reinforcements": "forsterkninger", "tank": "stridsvogn", "tanks": "stridsvogn",
	"legion": "fremmedlegionaer", "foreignlegion": "fremmedlegionaer", "armour": "panzer", "armor": "panzer",
}

// lookupCard resolves a card name of side's deck as written in an order file.
func lookupCard(side engine.Side, word string) (string, bool) {
	n := normName(word)
	if a, ok := cardAliases[n]; ok {
		n = a
	}
	for _, c := range data.Cards {
		if c.Side == side && (normName(c.ID) == normName(n) || normName(c.Name) == normName(n)) {
			return c.ID, true
		}
	}
	return "", false
}

// sideCards lists side's card ids in data order.
func sideCards(side engine.Side) []string {
	var out []string
	for _, c := range data.Cards {
		if c.Side == side {
			out = append(out, c.ID)
		}
	}
	return out
}
