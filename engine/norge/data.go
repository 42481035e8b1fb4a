package norge

import (
	"embed"
	"fmt"
	"sort"
	"strings"

	"skagerrak/engine"
)

//go:embed data/*.txt
var dataFS embed.FS

// files is the data pack: the files under data/.
var files = engine.Pack{Game: "norge", FS: dataFS}

// Terrain of one land hex (data/maps.txt).
type Terrain struct {
	Land    bool   // a land unit may stand here
	Road    int    // 0 none, 2 minor road, 3 major road (14.3)
	Lake    bool   // impassable lake (14.2)
	Sweden  bool   // Swedish territory (4.2)
	Sea     bool   // sea on a land map
	Port    string // port name if a port hex
	Quay    string // port name if the quays of a port
	Airfld  string // airfield name if an airfield hex
	Map     string // map letter
	Sector  string // N or S (4.4)
	Tactics bool   // on a Tactical Map (counts for victory, 2.2)
}

// LandMap is one Tactical Map or mini map.
type LandMap struct {
	ID, Kind, Title, Sector string
	Rows, Cols              int
}

// Hexside is a river, sea or ferry hexside of a land map.
type Hexside struct {
	Kind   string
	A, B   string
	Bridge bool
	Source string
}

// PortInfo is one of the 12 ports (data/places.txt).
type PortInfo struct {
	Name, Hex, Quay, Node, Source string
}

// AirfieldInfo is one of the 5 airfields (data/airfields.txt).
type AirfieldInfo struct {
	Name, Hex, Sector string
	Range             []string
	// Oversea aircraft cross the sea to reach Norway (9.4).
	Oversea bool
	Source  string
}

// SeaNode is one hex of the Strategic Map (data/sea.txt).
type SeaNode struct {
	Name, Kind, Sector string
	Area               int
	Next               []string
	Carrier            []string
	Port               string
	Source             string
}

// UnitInfo is one land counter (data/units.txt).
type UnitInfo struct {
	ID          string
	Aliases     []string
	Side        engine.Side
	Nation      string
	Type, Size  string
	CF, Red, MF int
	Start       string
	Avail       int
	Source      string
}

// ShipInfo is one naval counter (data/naval.txt).
type ShipInfo struct {
	ID      string
	Side    engine.Side
	Kind    string
	CF, Red int
	Start   string
	Avail   int
	Source  string
}

// Data is the whole embedded data pack.
type Data struct {
	Maps      []LandMap
	Hexes     map[string]Terrain
	Sides     map[string]Hexside  // key "A:B3|A:B4" sorted
	Links     map[string][]string // map-to-map links (3.4, 6.1)
	Ports     []PortInfo
	Airfields []AirfieldInfo
	Sea       []SeaNode
	seaIdx    map[string]int
	Units     []UnitInfo
	Ships     []ShipInfo
	Weather   [6]string
	LandCRT   map[string][6]string
	NavalCRT  map[string][6]string
	SubRatio  map[string]string
	Ratios    []string
}

// data is what the ruleset read from its data pack, files.
var data = engine.Load(files, load)

// links are the map-to-map links of the data pack, kept apart from data so
// that the loader may use adjacent.
var links map[string][]string

func list(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func load() (*Data, error) {
	d := &Data{Hexes: map[string]Terrain{}, Sides: map[string]Hexside{}, Links: map[string][]string{}, seaIdx: map[string]int{},
		LandCRT: map[string][6]string{}, NavalCRT: map[string][6]string{}, SubRatio: map[string]string{}}
	steps := []func() error{d.loadMaps, d.loadHexsides, d.loadPlaces, d.loadAirfields, d.loadSea,
		d.checkSeaLinks, d.checkPortNodes, d.loadUnits, d.loadShips, d.loadTables}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	sort.Strings(d.Ratios)
	return d, nil
}

// loadMaps reads maps.txt: one row of terrain letters per line, the maps in
// order and each map's rows in order.
func (d *Data) loadMaps() error {
	mr, err := files.Rows("maps.txt", 7)
	if err != nil {
		return err
	}
	for _, f := range mr {
		id := f[0]
		if len(d.Maps) == 0 || d.Maps[len(d.Maps)-1].ID != id {
			d.Maps = append(d.Maps, LandMap{ID: id, Kind: f[1], Title: f[2], Sector: f[3]})
		}
		m := &d.Maps[len(d.Maps)-1]
		m.Rows++
		row, err := engine.ParseHex(f[4] + "1")
		if err != nil || row.Row != m.Rows {
			return fmt.Errorf("maps.txt: map %s row %s out of order", id, f[4])
		}
		if m.Cols == 0 {
			m.Cols = len(f[5])
		} else if m.Cols != len(f[5]) {
			return fmt.Errorf("maps.txt: map %s row %s has %d columns, want %d", id, f[4], len(f[5]), m.Cols)
		}
		for c, ch := range f[5] {
			t := Terrain{Map: id, Sector: f[3], Tactics: f[1] == "tactical"}
			if !setTerrain(&t, ch) {
				return fmt.Errorf("maps.txt: map %s row %s: unknown terrain %q", id, f[4], ch)
			}
			d.Hexes[fmt.Sprintf("%s:%s%d", id, f[4], c+1)] = t
		}
	}
	return nil
}

// setTerrain sets what the maps.txt letter ch says about a hex; it reports
// false for an unknown letter.
func setTerrain(t *Terrain, ch rune) bool {
	switch ch {
	case '.':
		t.Land = true
	case '=', 'P', 'Q', 'F':
		t.Land, t.Road = true, 3
	case '-':
		t.Land, t.Road = true, 2
	case '~':
		t.Sea = true
	case 'L':
		t.Lake = true
	case 'x':
		t.Sweden = true
	default:
		return false
	}
	return true
}

// loadHexsides reads hexsides.txt: the map-to-map links (3.4, 6.1) and the
// special hexsides.
func (d *Data) loadHexsides() error {
	hs, err := files.Rows("hexsides.txt", 5)
	if err != nil {
		return err
	}
	for _, f := range hs {
		if f[0] == "link" {
			for _, h := range []string{f[1], f[2]} {
				if !d.Hexes[h].Land {
					return fmt.Errorf("hexsides.txt: link end %s is not a land hex", h)
				}
			}
			d.Links[f[1]] = append(d.Links[f[1]], f[2])
			d.Links[f[2]] = append(d.Links[f[2]], f[1])
			links = d.Links
			continue
		}
		if f[0] != "ferry" && !adjacent(f[1], f[2]) {
			return fmt.Errorf("hexsides.txt: %s and %s are not adjacent", f[1], f[2])
		}
		d.Sides[sideKey(f[1], f[2])] = Hexside{Kind: f[0], A: f[1], B: f[2], Bridge: f[3] == "1", Source: f[4]}
	}
	return nil
}

// loadPlaces reads places.txt: the ports, each a land hex with its quays
// next to it.
func (d *Data) loadPlaces() error {
	pl, err := files.Rows("places.txt", 6)
	if err != nil {
		return err
	}
	for _, f := range pl {
		switch f[0] {
		case "port":
			p := PortInfo{Name: f[1], Hex: f[2], Quay: f[3], Node: f[4], Source: f[5]}
			if !adjacent(p.Hex, p.Quay) {
				return fmt.Errorf("places.txt: quays %s not next to port %s", p.Quay, p.Hex)
			}
			for _, h := range []string{p.Hex, p.Quay} {
				if !d.Hexes[h].Land {
					return fmt.Errorf("places.txt: port hex %s is not land", h)
				}
			}
			t := d.Hexes[p.Hex]
			t.Port = p.Name
			d.Hexes[p.Hex] = t
			t = d.Hexes[p.Quay]
			t.Quay = p.Name
			d.Hexes[p.Quay] = t
			d.Ports = append(d.Ports, p)
		default:
			return fmt.Errorf("places.txt: unknown kind %q", f[0])
		}
	}
	return nil
}

// loadAirfields reads airfields.txt; an airfield on the map marks its hex.
func (d *Data) loadAirfields() error {
	ar, err := files.Rows("airfields.txt", 6)
	if err != nil {
		return err
	}
	for _, f := range ar {
		a := AirfieldInfo{Name: f[0], Hex: f[1], Sector: f[2], Range: list(f[3]), Oversea: f[4] == "1", Source: f[5]}
		if a.Hex != "-" {
			t, ok := d.Hexes[a.Hex]
			if !ok || !t.Land {
				return fmt.Errorf("airfields.txt: airfield hex %s is not land", a.Hex)
			}
			t.Airfld = a.Name
			d.Hexes[a.Hex] = t
		}
		d.Airfields = append(d.Airfields, a)
	}
	return nil
}

// loadSea reads sea.txt, the nodes of the naval display.
func (d *Data) loadSea() error {
	sr, err := files.Rows("sea.txt", 8)
	if err != nil {
		return err
	}
	for _, f := range sr {
		n := SeaNode{Name: f[0], Kind: f[1], Sector: f[2], Next: list(f[4]), Carrier: list(f[5]), Source: f[7]}
		if f[3] != "-" {
			n.Area = files.Atoi(f[3])
		}
		if f[6] != "-" {
			n.Port = f[6]
		}
		d.seaIdx[n.Name] = len(d.Sea)
		d.Sea = append(d.Sea, n)
	}
	return nil
}

// checkSeaLinks checks that every sea node's neighbours exist and list it
// back.
func (d *Data) checkSeaLinks() error {
	for _, n := range d.Sea {
		for _, m := range n.Next {
			o := d.node(m)
			if o == nil {
				return fmt.Errorf("sea.txt: %s: unknown neighbour %s", n.Name, m)
			}
			found := false
			for _, back := range o.Next {
				found = found || back == n.Name
			}
			if !found {
				return fmt.Errorf("sea.txt: %s lists %s but not the other way", n.Name, m)
			}
		}
	}
	return nil
}

// checkPortNodes checks that every port's sea node serves it.
func (d *Data) checkPortNodes() error {
	for _, p := range d.Ports {
		n := d.node(p.Node)
		if n == nil || (n.Kind != "port" && n.Port != p.Name) {
			return fmt.Errorf("places.txt: port %s: sea node %s does not serve it", p.Name, p.Node)
		}
	}
	return nil
}

// loadUnits reads units.txt, the land and air units.
func (d *Data) loadUnits() error {
	ur, err := files.Rows("units.txt", 12)
	if err != nil {
		return err
	}
	for _, f := range ur {
		u := UnitInfo{ID: f[0], Aliases: list(f[1]), Side: engine.Side(f[2]), Nation: f[3], Type: f[4], Size: f[5],
			CF: files.Atoi(f[6]), Red: files.Atoi(f[7]), MF: files.Atoi(f[8]), Start: f[9], Avail: files.Atoi(f[10]), Source: f[11]}
		if strings.Contains(u.Start, ":") && !strings.HasPrefix(u.Start, "ship:") && !d.Hexes[u.Start].Land {
			return fmt.Errorf("units.txt: %s starts on %s, not a land hex", u.ID, u.Start)
		}
		d.Units = append(d.Units, u)
	}
	return nil
}

// loadShips reads naval.txt, the ships.
func (d *Data) loadShips() error {
	nr, err := files.Rows("naval.txt", 8)
	if err != nil {
		return err
	}
	for _, f := range nr {
		d.Ships = append(d.Ships, ShipInfo{ID: f[0], Side: engine.Side(f[1]), Kind: f[2], CF: files.Atoi(f[3]), Red: files.Atoi(f[4]), Start: f[5], Avail: files.Atoi(f[6]), Source: f[7]})
	}
	return nil
}

// loadTables reads tables.txt: the weather table, the land and naval combat
// results tables and the submarine ratios.
func (d *Data) loadTables() error {
	tr, err := files.Rows("tables.txt", 4)
	if err != nil {
		return err
	}
	for _, f := range tr {
		switch f[0] {
		case "weather", "land", "naval":
			r := strings.Split(f[2], ",")
			if len(r) != 6 {
				return fmt.Errorf("tables.txt: %s %s: %d results, want 6", f[0], f[1], len(r))
			}
			var a [6]string
			copy(a[:], r)
			switch f[0] {
			case "weather":
				d.Weather = a
			case "land":
				d.LandCRT[f[1]] = a
				d.Ratios = append(d.Ratios, f[1])
			case "naval":
				d.NavalCRT[f[1]] = a
			}
		case "subratio":
			d.SubRatio[f[1]] = f[2]
		}
	}
	return nil
}

func (d *Data) node(name string) *SeaNode {
	i, ok := d.seaIdx[name]
	if !ok {
		return nil
	}
	return &d.Sea[i]
}

func (d *Data) port(name string) *PortInfo {
	return engine.Find(d.Ports, func(x *PortInfo) bool { return strings.EqualFold(x.Name, name) })
}

func (d *Data) airfield(name string) *AirfieldInfo {
	return engine.Find(d.Airfields, func(x *AirfieldInfo) bool { return strings.EqualFold(x.Name, name) })
}

func (d *Data) landMap(id string) *LandMap {
	return engine.Find(d.Maps, func(x *LandMap) bool { return strings.EqualFold(x.ID, id) })
}

// splitHex splits "A:C3" into the map letter and the hex.
func splitHex(s string) (string, engine.Hex, bool) {
	m, h, ok := strings.Cut(s, ":")
	if !ok {
		return "", engine.Hex{}, false
	}
	hx, err := engine.ParseHex(h)
	if err != nil {
		return "", engine.Hex{}, false
	}
	return strings.ToUpper(m), hx, true
}

func hexName(m string, h engine.Hex) string { return m + ":" + h.String() }

func adjacent(a, b string) bool {
	if containsStr(links[a], b) {
		return true
	}
	ma, ha, ok1 := splitHex(a)
	mb, hb, ok2 := splitHex(b)
	return ok1 && ok2 && ma == mb && ha.Distance(hb) == 1
}

func sideKey(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return a + "|" + b
}

// neighbours lists the on-map hexes next to h, NE first, clockwise.
func neighbours(h string) []string {
	m, hx, ok := splitHex(h)
	if !ok {
		return nil
	}
	var out []string
	for _, n := range hx.Neighbors() {
		name := hexName(m, n)
		if _, on := data.Hexes[name]; on {
			out = append(out, name)
		}
	}
	return append(out, data.Links[h]...)
}

// canonHex normalises a hex name typed by a player ("a:c2" -> "A:C2").
func canonHex(s string) (string, bool) {
	m, h, ok := splitHex(s)
	if !ok {
		return "", false
	}
	name := hexName(m, h)
	_, on := data.Hexes[name]
	return name, on
}
