package sweden43

import (
	"embed"
	"fmt"
	"strings"

	"skagerrak/engine"
)

//go:embed data/*.txt
var dataFS embed.FS

// files is the data pack: the files under data/.
var files = engine.Pack{Game: "sweden43", FS: dataFS}

// Terrain is one line of the terrain effects chart.
type Terrain struct {
	Name     string
	Key      byte
	MPMot    int
	MPOther  int
	MPCav    int
	MPMtn    int
	DRM      int
	NoAEC    bool
	Halved   string
	Source   string
	Optional bool
}

// CityKind is one line of the city effects.
type CityKind struct {
	Kind   string
	DRM    int
	NoAEC  bool
	AA     int
	Source string
}

// AECLevel is one proportion of armour of revision 2's armour effects:
// the die modifiers it gives when at least Num/Den of the REs have it.
type AECLevel struct {
	Name             string
	AECA, AECD, ATEC int
	Num, Den         int
	Source           string
}

// Place is a named hex of the map.
type Place struct {
	Name    string
	Hex     engine.Hex
	Kind    string
	Port    bool
	Airbase bool
	Zone    string
	Europa  string
	Source  string
}

// IsCity reports whether the place is a city (31A, 12C1).
func (p Place) IsCity() bool {
	switch p.Kind {
	case "full", "partial", "dot", "reference":
		return true
	}
	return false
}

// RailLine is one reconstructed rail line (7A).
type RailLine struct {
	Name   string
	Hexes  []engine.Hex
	Source string
}

// UnitDef is one ground unit of an order of battle.
type UnitDef struct {
	ID, Nation, Type, Size string
	Aliases                []string
	Side                   engine.Side
	Att, Def, Move, RE2    int
	Cadre                  int
	AEC, ATEC              bool
	Scenarios              []string
	Start                  string
	Turn                   int
	Source                 string
}

// AirDef is one air unit of an order of battle.
type AirDef struct {
	ID, Nation, Type      string
	Side                  engine.Side
	Att, Def, Bomb, Range int
	Scenarios             []string
	Base                  string
	Source                string
}

// ScenarioDef is a scenario of Rule 33.
type ScenarioDef struct {
	engine.Info
	First  engine.Side
	Source string
}

// Data is the whole embedded data pack.
type Data struct {
	Grid     engine.HexGrid
	terrain  map[engine.Hex]byte
	country  map[engine.Hex]byte
	Terrains map[string]Terrain
	Cities   map[string]CityKind
	RiverDRM int
	Places   []Place
	placeAt  map[engine.Hex]int
	Rails    []RailLine
	rail     map[engine.Hexside]bool
	railHex  map[engine.Hex]bool
	rivers   map[engine.Hexside]string
	// majorRiver names the major rivers (revision 2 quarters attacks across them).
	majorRiver map[string]bool
	RiverSrc   []string
	Units      []UnitDef
	Air        []AirDef
	CRTCols    []string
	CRT        [8][]string
	// CRT2 is revision 2's table, rows -1 to 8 (CRT2[r+1]); CRT2Known marks
	// the cells known from the published Europa rules.
	CRT2      [10][]string
	CRT2Known [10][]bool
	// AEC holds revision 2's armour effects by proportion.
	AEC       []AECLevel
	Params    map[string]int
	Scenarios []ScenarioDef
	Options   []engine.Info
	Sources   map[string]string
}

// data is what the ruleset read from its data pack, files.
var data = engine.Load(files, load)

func load() (d *Data, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	d = &Data{terrain: map[engine.Hex]byte{}, country: map[engine.Hex]byte{}, Terrains: map[string]Terrain{},
		Cities: map[string]CityKind{}, placeAt: map[engine.Hex]int{}, rail: map[engine.Hexside]bool{},
		railHex: map[engine.Hex]bool{}, rivers: map[engine.Hexside]string{}, majorRiver: map[string]bool{}, Params: map[string]int{}, Sources: map[string]string{}}
	steps := []func() error{d.loadMap, d.loadTables, d.loadPlaces, d.loadRails, d.loadRivers, d.loadUnits, d.loadAir, d.loadScenarios}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// loadMap reads map.txt: the grid, then a row of terrain keys and a row of
// country keys per map row.
func (d *Data) loadMap() error {
	m, err := files.Text("map.txt")
	if err != nil {
		return err
	}
	for _, l := range strings.Split(m, "\n") {
		t := strings.Fields(l)
		if len(t) == 0 || strings.HasPrefix(t[0], "#") {
			continue
		}
		if t[0] == "grid" {
			d.Grid = engine.HexGrid{Rows: files.Atoi(t[1]), Cols: files.Atoi(t[2])}
			continue
		}
		if len(t) < 4 {
			return fmt.Errorf("map.txt: short row %q", l)
		}
		h, err := engine.ParseHex(t[0] + "1")
		if err != nil {
			return err
		}
		if len(t[1]) != d.Grid.Cols || len(t[2]) != d.Grid.Cols {
			return fmt.Errorf("map.txt: row %s has %d columns", t[0], len(t[1]))
		}
		for c := 1; c <= d.Grid.Cols; c++ {
			x := engine.Hex{Row: h.Row, Col: c}
			d.terrain[x] = t[1][c-1]
			d.country[x] = t[2][c-1]
		}
	}
	return nil
}

// loadTables reads tables.txt: terrain and city effects, the river DRM,
// both combat results tables, the armour effects and the parameters.
func (d *Data) loadTables() error {
	rows, err := files.Rows("tables.txt", 0)
	if err != nil {
		return err
	}
	for _, f := range rows {
		switch f[0] {
		case "terrain":
			t := Terrain{Name: f[1], Key: f[2][0], MPMot: files.Atoi(f[3]), MPOther: files.Atoi(f[4]), MPCav: files.Atoi(f[5]), MPMtn: files.Atoi(f[6]), DRM: files.Atoi(f[7]), NoAEC: f[8] == "yes", Halved: f[9], Source: f[10]}
			t.Optional = strings.HasSuffix(t.Name, "32")
			d.Terrains[t.Name] = t
		case "city":
			d.Cities[f[1]] = CityKind{Kind: f[1], DRM: files.Atoi(f[2]), NoAEC: f[3] == "yes", AA: files.Atoi(f[4]), Source: f[5]}
		case "river":
			d.RiverDRM = files.Atoi(f[1])
			d.Sources["river"] = f[2]
		case "crtcols":
			d.CRTCols = strings.Fields(f[1])
			d.Sources["crt"] = f[2]
		case "crt":
			r := files.Atoi(f[1])
			d.CRT[r] = strings.Fields(f[2])
			if len(d.CRT[r]) != len(d.CRTCols) {
				return fmt.Errorf("tables.txt: CRT row %d has %d columns", r, len(d.CRT[r]))
			}
		case "crt2":
			if err := d.loadCRT2Row(f); err != nil {
				return err
			}
		case "aec":
			num, den, _ := strings.Cut(f[5], "/")
			d.AEC = append(d.AEC, AECLevel{Name: f[1], AECA: files.Atoi(f[2]), AECD: files.Atoi(f[3]), ATEC: files.Atoi(f[4]), Num: files.Atoi(num), Den: files.Atoi(den), Source: f[6]})
		case "param":
			d.Params[f[1]] = files.Atoi(f[2])
			d.Sources["param "+f[1]] = f[3]
		default:
			return fmt.Errorf("tables.txt: unknown line %q", f[0])
		}
	}
	return nil
}

// loadCRT2Row reads a row of revision 2's CRT; a cell marked * is known
// from the published Europa rules.
func (d *Data) loadCRT2Row(f []string) error {
	r := files.Atoi(f[1])
	if r < -1 || r > 8 {
		return fmt.Errorf("tables.txt: CRT row %d outside -1 to 8", r)
	}
	for _, cell := range strings.Fields(f[2]) {
		known := strings.HasSuffix(cell, "*")
		d.CRT2[r+1] = append(d.CRT2[r+1], strings.TrimSuffix(cell, "*"))
		d.CRT2Known[r+1] = append(d.CRT2Known[r+1], known)
	}
	if len(d.CRT2[r+1]) != len(d.CRTCols) {
		return fmt.Errorf("tables.txt: CRT row %d has %d columns", r, len(d.CRT2[r+1]))
	}
	return nil
}

// loadPlaces reads places.txt: the named places, one a land hex.
func (d *Data) loadPlaces() error {
	rows, err := files.Rows("places.txt", 0)
	if err != nil {
		return err
	}
	for _, f := range rows {
		h, err := engine.ParseHex(f[1])
		if err != nil {
			return err
		}
		p := Place{Name: f[0], Hex: h, Kind: f[2], Port: f[3] == "port", Airbase: f[4] == "airbase", Zone: f[5], Source: f[7]}
		if f[6] != "-" {
			p.Europa = f[6]
		}
		if _, dup := d.placeAt[h]; dup {
			return fmt.Errorf("places.txt: two places in %s", h)
		}
		if !d.Land(h) {
			return fmt.Errorf("places.txt: %s in %s is not land", p.Name, h)
		}
		d.placeAt[h] = len(d.Places)
		d.Places = append(d.Places, p)
	}
	return nil
}

// loadRails reads rails.txt: each railway line as a path of adjacent hexes.
func (d *Data) loadRails() error {
	rows, err := files.Rows("rails.txt", 0)
	if err != nil {
		return err
	}
	for _, f := range rows {
		rl := RailLine{Name: f[0], Source: f[2]}
		seen := map[engine.Hex]bool{}
		for _, s := range strings.Fields(f[1]) {
			h, err := engine.ParseHex(s)
			if err != nil {
				return err
			}
			if seen[h] {
				return fmt.Errorf("rails.txt: %s lists %s twice", rl.Name, h)
			}
			seen[h] = true
			if n := len(rl.Hexes); n > 0 && rl.Hexes[n-1].Distance(h) != 1 {
				return fmt.Errorf("rails.txt: %s: %s and %s are not adjacent", rl.Name, rl.Hexes[n-1], h)
			}
			rl.Hexes = append(rl.Hexes, h)
			d.railHex[h] = true
		}
		for i := 1; i < len(rl.Hexes); i++ {
			d.rail[engine.MakeHexside(rl.Hexes[i-1], rl.Hexes[i])] = true
		}
		d.Rails = append(d.Rails, rl)
	}
	return nil
}

// loadRivers reads rivers.txt: each river, minor or major, by its hexsides.
func (d *Data) loadRivers() error {
	rows, err := files.Rows("rivers.txt", 0)
	if err != nil {
		return err
	}
	for _, f := range rows {
		if len(f) != 4 || (f[1] != "minor" && f[1] != "major") {
			return fmt.Errorf("rivers.txt: %s: want name | minor or major | hexsides | source", f[0])
		}
		if f[1] == "major" {
			d.majorRiver[f[0]] = true
		}
		for _, s := range strings.Fields(f[2]) {
			a, b, _ := strings.Cut(s, "/")
			ha, err1 := engine.ParseHex(a)
			hb, err2 := engine.ParseHex(b)
			if err1 != nil || err2 != nil || ha.Distance(hb) != 1 {
				return fmt.Errorf("rivers.txt: bad hexside %q", s)
			}
			d.rivers[engine.MakeHexside(ha, hb)] = f[0]
		}
		d.RiverSrc = append(d.RiverSrc, f[0]+": "+f[3])
	}
	return nil
}

// loadUnits reads units.txt, the ground units.
func (d *Data) loadUnits() error {
	rows, err := files.Rows("units.txt", 0)
	if err != nil {
		return err
	}
	for _, f := range rows {
		u := UnitDef{ID: f[0], Side: engine.Side(f[2]), Nation: f[3], Type: f[4], Size: f[5], Att: files.Atoi(f[6]), Def: files.Atoi(f[7]),
			Move: files.Atoi(f[8]), RE2: files.Atoi(f[9]), Cadre: files.Atoi(f[10]), AEC: f[11] == "full", ATEC: f[12] == "full",
			Scenarios: strings.Split(f[13], ","), Start: f[14], Turn: files.Atoi(f[15]), Source: f[16]}
		if f[1] != "-" {
			u.Aliases = strings.Split(f[1], ",")
		}
		d.Units = append(d.Units, u)
	}
	return nil
}

// loadAir reads air.txt, the air units.
func (d *Data) loadAir() error {
	rows, err := files.Rows("air.txt", 0)
	if err != nil {
		return err
	}
	for _, f := range rows {
		d.Air = append(d.Air, AirDef{ID: f[0], Side: engine.Side(f[1]), Nation: f[2], Type: f[3], Att: files.Atoi(f[4]), Def: files.Atoi(f[5]),
			Bomb: files.Atoi(f[6]), Range: files.Atoi(f[7]), Scenarios: strings.Split(f[8], ","), Base: f[9], Source: f[10]})
	}
	return nil
}

// loadScenarios reads scenarios.txt: the scenarios (33) and the options.
func (d *Data) loadScenarios() error {
	rows, err := files.Rows("scenarios.txt", 0)
	if err != nil {
		return err
	}
	for _, f := range rows {
		switch f[0] {
		case "scenario":
			d.Scenarios = append(d.Scenarios, ScenarioDef{Info: engine.Info{ID: f[1], Title: f[2], Rule: f[3]}, First: engine.Side(f[4]), Source: f[5]})
		case "option":
			d.Options = append(d.Options, engine.Info{ID: f[1], Title: f[2], Rule: f[3]})
		}
	}
	return nil
}

// TerrainAt returns the terrain key of h ('~' off the map).
func (d *Data) TerrainAt(h engine.Hex) byte {
	if t, ok := d.terrain[h]; ok {
		return t
	}
	return '~'
}

// CountryAt returns S, N, D or '-' for h.
func (d *Data) CountryAt(h engine.Hex) byte {
	if c, ok := d.country[h]; ok {
		return c
	}
	return '-'
}

// Land reports whether h is a land hex a ground unit could stand in.
func (d *Data) Land(h engine.Hex) bool {
	t := d.TerrainAt(h)
	return t != '~' && t != '='
}

// Coastal reports whether a land hex touches the sea.
func (d *Data) Coastal(h engine.Hex) bool {
	if !d.Land(h) {
		return false
	}
	for _, n := range h.Neighbors() {
		if d.TerrainAt(n) == '~' {
			return true
		}
	}
	return false
}

// PlaceAt returns the place in h, if any.
func (d *Data) PlaceAt(h engine.Hex) (Place, bool) {
	if i, ok := d.placeAt[h]; ok {
		return d.Places[i], true
	}
	return Place{}, false
}

// Rail reports whether a rail line runs along the hexside a-b.
func (d *Data) Rail(a, b engine.Hex) bool { return d.rail[engine.MakeHexside(a, b)] }

// River returns the river on hexside a-b, or "".
func (d *Data) River(a, b engine.Hex) string { return d.rivers[engine.MakeHexside(a, b)] }

// MajorRiver reports whether the river on hexside a-b is a major river.
func (d *Data) MajorRiver(a, b engine.Hex) bool { return d.majorRiver[d.River(a, b)] }

// PlaceByName finds a place by name or by the Europa hex number the text
// quotes (any case).
func (d *Data) PlaceByName(s string) (Place, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range d.Places {
		if strings.ToLower(strings.ReplaceAll(p.Name, " ", "-")) == s || strings.ToLower(p.Name) == s || (p.Europa != "" && strings.ToLower(p.Europa) == s) {
			return p, true
		}
	}
	// The text misprints map 5B as "513".
	if strings.HasPrefix(s, "513:") {
		return d.PlaceByName("5b:" + s[4:])
	}
	return Place{}, false
}

// ParseHexOrPlace reads a hex name ("R18"), a place name ("Stockholm") or a
// Europa hex number the text quotes ("5B:5026").
func (d *Data) ParseHexOrPlace(s string) (engine.Hex, error) {
	if p, ok := d.PlaceByName(s); ok {
		return p.Hex, nil
	}
	h, err := engine.ParseHex(s)
	if err != nil {
		return h, fmt.Errorf("%q is neither a hex (e.g. R18) nor a place name (e.g. Stockholm)", s)
	}
	if !d.Grid.Contains(h) {
		return h, fmt.Errorf("%s is off the map (rows A-%s, columns 1-%d)", h, engine.RowName(d.Grid.Rows), d.Grid.Cols)
	}
	return h, nil
}

// HexName writes a hex with its place name, e.g. "R18 Stockholm".
func (d *Data) HexName(h engine.Hex) string {
	if p, ok := d.PlaceAt(h); ok {
		return h.String() + " " + p.Name
	}
	return h.String()
}

// inScenario reports whether a list of scenario ids includes id.
func inScenario(list []string, id string) bool {
	for _, s := range list {
		if s == "all" || s == id {
			return true
		}
	}
	return false
}

// scenarioDef finds a scenario by id ("" is the default).
func (d *Data) scenarioDef(id string) (ScenarioDef, bool) {
	if id == "" {
		return d.Scenarios[0], true
	}
	for _, s := range d.Scenarios {
		if s.ID == id {
			return s, true
		}
	}
	return ScenarioDef{}, false
}
