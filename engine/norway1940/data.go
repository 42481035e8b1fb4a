package norway1940

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
var files = engine.Pack{Game: "norway1940", FS: dataFS}

// AreaInfo is one land area of the reconstructed map (data/areas.txt).
type AreaInfo struct {
	Name      string
	Aliases   []string
	Zone      string // S, C, N ("" for Sweden)
	Lat       int    // tenths of a degree
	City      int    // defence modifier, -1 for no city
	VP        int
	Port      string // grey, red, minor or ""
	Sea       string // sea area of the port
	Airfields int
	Runway    bool
	Para      bool
	Strong    bool
	CB        int
	Depot     bool
	Source    string
}

// BoxInfo is one naval box (data/sea.txt).
type BoxInfo struct {
	Name, Area, Title            string
	GRecon, GBomb, BRecon, BBomb bool
	Source                       string
}

// UnitInfo is one land unit of the orders of battle (data/units.txt).
type UnitInfo struct {
	ID             string
	Aliases        []string
	Side           engine.Side
	Nation         string
	Type, Size     string
	Mod, Red, Move int
	Steps          int
	Div            string
	Start          string
	Entry          int
	Goal           string
	Source         string
}

// PoolInfo is naval points in a port from a turn on (data/naval.txt).
type PoolInfo struct {
	Side                    engine.Side
	Nation, Port            string
	Combat, Transport, Turn int
	Groups                  []int
	Source                  string
}

// FleetInfo is a fleet formed at the start (data/naval.txt).
type FleetInfo struct {
	Side              engine.Side
	Nation, ID, Where string
	Combat, Transport int
	Goal, Source      string
}

// AirInfo is one line of a side's air points (data/air.txt).
type AirInfo struct {
	Side              engine.Side
	Nation, Type      string
	Markers, Strength int
	From, To          int
	Source            string
}

// Data is the whole data pack, parsed once.
type Data struct {
	Areas       []AreaInfo
	Boxes       []BoxInfo
	Units       []UnitInfo
	Pools       []PoolInfo
	Fleets      []FleetInfo
	Air         []AirInfo
	Decoys      map[string]int // by nation
	Subs        map[string]int // by side
	Carriers    []PoolInfo     // aircraft carriers by port and turn (9.12)
	SupplyShips map[string]int // target port -> halves
	Calendar    []string       // index = turn
	Graph       *engine.AreaGraph

	area  map[string]int // lower-case name or alias -> index
	box   map[string]int
	unit  map[string]int
	names map[string]string // lower-case alias -> canonical area or box name

	Weather, LandCombat, LandCombatPage        engine.Table[string]
	Interception, NavalCombat, CombinedArms    engine.Table[int]
	Continuation, CBDetect, CBDetectNote       engine.Table[string]
	Anchored, AnchoredAlt, Surrender, Garrison engine.Table[string]
	CBLand, LandingFleet                       engine.Table[string]
	TableSources                               map[string][]string
}

// Sea areas in north-south order (9.13.2).
var seaAreas = []string{"South", "Centre", "North"}

// Home ports off the map (9.6, reconstructed).
const (
	Germany = "Germany"
	UK      = "UK"
	Denmark = "Denmark"
	ParaBox = "Para"
)

// data is what the ruleset read from its data pack, files.
var data = engine.Load(files, loadData)

func splitList(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	var out []string
	for _, x := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(x))
	}
	return out
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

// loadData reads the data pack: the areas and their links, the sea boxes,
// the units, the naval and air forces, the calendar and the tables.
func loadData() (*Data, error) {
	d := &Data{area: map[string]int{}, box: map[string]int{}, unit: map[string]int{}, names: map[string]string{},
		Decoys: map[string]int{}, Subs: map[string]int{}, SupplyShips: map[string]int{}, TableSources: map[string][]string{}}
	d.Graph = engine.NewAreaGraph()
	for _, load := range []func(*Data) error{loadAreas, loadLinks, loadSeaBoxes, loadUnits, loadNaval, loadAir, loadCalendar, loadTables} {
		if err := load(d); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// loadAreas reads areas.txt: the land areas, their names and aliases.
func loadAreas(d *Data) error {
	ar, err := files.Rows("areas.txt", 14)
	if err != nil {
		return err
	}
	for _, f := range ar {
		a := AreaInfo{Name: f[0], Aliases: splitList(f[1]), Zone: dash(f[2]), Lat: files.Atoi(f[3]), City: -1, VP: files.Atoi(f[5]),
			Port: dash(f[6]), Sea: dash(f[7]), Para: f[9] == "1", Strong: f[10] == "1", CB: files.Atoi(f[11]), Depot: f[12] == "1", Source: f[13]}
		if f[4] != "-" {
			a.City = files.Atoi(f[4])
		}
		if f[8] == "runway" {
			a.Runway = true
		} else {
			a.Airfields = files.Atoi(f[8])
		}
		d.area[strings.ToLower(a.Name)] = len(d.Areas)
		d.names[strings.ToLower(a.Name)] = a.Name
		for _, al := range a.Aliases {
			d.names[strings.ToLower(al)] = a.Name
		}
		d.Areas = append(d.Areas, a)
		d.Graph.AddArea(a.Name)
	}
	return nil
}

// loadLinks reads links.txt: the borders between areas and their kind.
func loadLinks(d *Data) error {
	lk, err := files.Rows("links.txt", 4)
	if err != nil {
		return err
	}
	for _, f := range lk {
		switch f[2] {
		case "road", "rail", "cross", "strait":
		default:
			return fmt.Errorf("links.txt: kind %q", f[2])
		}
		if err := d.Graph.Connect(f[0], f[1], f[2]); err != nil {
			return err
		}
	}
	return nil
}

// loadSeaBoxes reads sea.txt: the naval boxes; Germany and the UK are
// names too.
func loadSeaBoxes(d *Data) error {
	sb, err := files.Rows("sea.txt", 8)
	if err != nil {
		return err
	}
	for _, f := range sb {
		b := BoxInfo{Name: f[0], Area: f[1], Title: f[2], GRecon: f[3] == "1", GBomb: f[4] == "1", BRecon: f[5] == "1", BBomb: f[6] == "1", Source: f[7]}
		d.box[strings.ToLower(b.Name)] = len(d.Boxes)
		d.names[strings.ToLower(b.Name)] = b.Name
		d.Boxes = append(d.Boxes, b)
	}
	for _, h := range []string{Germany, UK} {
		d.names[strings.ToLower(h)] = h
	}
	return nil
}

// loadUnits reads units.txt: the land units, each name and alias once.
func loadUnits(d *Data) error {
	un, err := files.Rows("units.txt", 15)
	if err != nil {
		return err
	}
	for _, f := range un {
		u := UnitInfo{ID: f[0], Aliases: splitList(f[1]), Side: engine.Side(f[2]), Nation: f[3], Type: f[4], Size: f[5],
			Mod: files.Atoi(f[6]), Red: files.Atoi(f[7]), Move: files.Atoi(f[8]), Steps: files.Atoi(f[9]), Div: f[10], Start: f[11], Entry: files.Atoi(f[12]), Goal: dash(f[13]), Source: f[14]}
		for _, k := range append([]string{u.ID}, u.Aliases...) {
			if _, dup := d.unit[strings.ToLower(k)]; dup {
				return fmt.Errorf("units.txt: duplicate name %q", k)
			}
			d.unit[strings.ToLower(k)] = len(d.Units)
		}
		d.Units = append(d.Units, u)
	}
	return nil
}

// loadNaval reads naval.txt: naval pools, fleets, decoys, submarines,
// carriers and supply ships.
func loadNaval(d *Data) error {
	nv, err := files.Rows("naval.txt", 0)
	if err != nil {
		return err
	}
	for _, f := range nv {
		switch f[0] {
		case "pool":
			p := PoolInfo{Side: engine.Side(f[1]), Nation: f[2], Port: f[3], Combat: files.Atoi(f[4]), Transport: files.Atoi(f[5]), Turn: files.Atoi(f[6]), Source: f[8]}
			if f[7] != "-" {
				for _, g := range strings.Split(f[7], "+") {
					p.Groups = append(p.Groups, files.Atoi(g))
				}
			}
			d.Pools = append(d.Pools, p)
		case "fleet":
			d.Fleets = append(d.Fleets, FleetInfo{Side: engine.Side(f[1]), Nation: f[2], ID: f[3], Where: f[4], Combat: files.Atoi(f[5]), Transport: files.Atoi(f[6]), Goal: dash(f[7]), Source: f[8]})
		case "decoys":
			d.Decoys[f[2]] = files.Atoi(f[3])
		case "subs":
			d.Subs[f[1]] = files.Atoi(f[3])
		case "carriers":
			d.Carriers = append(d.Carriers, PoolInfo{Side: engine.Side(f[1]), Nation: f[2], Port: f[3], Combat: files.Atoi(f[4]), Turn: files.Atoi(f[5]), Source: f[6]})
		case "supplyships":
			d.SupplyShips[f[3]] = files.Atoi(f[4])
		default:
			return fmt.Errorf("naval.txt: row kind %q", f[0])
		}
	}
	return nil
}

// loadAir reads air.txt: each nation's air markers by type and turns.
func loadAir(d *Data) error {
	ai, err := files.Rows("air.txt", 8)
	if err != nil {
		return err
	}
	for _, f := range ai {
		d.Air = append(d.Air, AirInfo{Side: engine.Side(f[0]), Nation: f[1], Type: f[2], Markers: files.Atoi(f[3]), Strength: files.Atoi(f[4]), From: files.Atoi(f[5]), To: files.Atoi(f[6]), Source: f[7]})
	}
	return nil
}

// loadCalendar reads calendar.txt: each turn's date.
func loadCalendar(d *Data) error {
	cal, err := files.Rows("calendar.txt", 3)
	if err != nil {
		return err
	}
	d.Calendar = make([]string, 22)
	for _, f := range cal {
		d.Calendar[files.Atoi(f[0])] = f[1]
	}
	return nil
}

// loadTables reads tables.txt: the dice tables with text results, and the
// interception, naval combat and combined arms tables with numbers.
func loadTables(d *Data) error {
	tb, err := files.Rows("tables.txt", 5)
	if err != nil {
		return err
	}
	str := map[string][]engine.TableRow[string]{}
	num := map[string][]engine.TableRow[int]{}
	for _, f := range tb {
		name := f[0]
		d.TableSources[name] = append(d.TableSources[name], f[4])
		lo, hi := files.Atoi(f[1]), files.Atoi(f[2])
		if name == "interception" || name == "navalcombat" || name == "combinedarms" {
			num[name] = append(num[name], engine.TableRow[int]{Lo: lo, Hi: hi, Result: files.Atoi(f[3])})
		} else {
			str[name] = append(str[name], engine.TableRow[string]{Lo: lo, Hi: hi, Result: f[3]})
		}
	}
	st := func(name string) (engine.Table[string], error) {
		if len(str[name]) == 0 {
			return engine.Table[string]{}, fmt.Errorf("tables.txt: no table %s", name)
		}
		return engine.NewTable(name, str[name]...)
	}
	for name, dst := range map[string]*engine.Table[string]{"weather": &d.Weather, "landcombat": &d.LandCombat, "landcombatpage": &d.LandCombatPage,
		"continuation": &d.Continuation, "cbdetect": &d.CBDetect, "cbdetectnote": &d.CBDetectNote, "anchored": &d.Anchored, "anchoredalt": &d.AnchoredAlt,
		"surrender": &d.Surrender, "garrison": &d.Garrison, "cbland": &d.CBLand, "landingfleet": &d.LandingFleet} {
		t, err := st(name)
		if err != nil {
			return err
		}
		*dst = t
	}
	if d.Interception, err = engine.NewTable("interception", num["interception"]...); err != nil {
		return err
	}
	if d.NavalCombat, err = engine.NewTable("navalcombat", num["navalcombat"]...); err != nil {
		return err
	}
	if d.CombinedArms, err = engine.NewTable("combinedarms", num["combinedarms"]...); err != nil {
		return err
	}
	if len(d.CombinedArms.Rows) != 16 {
		return fmt.Errorf("tables.txt: the combined arms table needs 16 rows")
	}
	return nil
}

// AreaByName returns the area with that name or alias.
func (d *Data) AreaByName(name string) (*AreaInfo, bool) {
	n, ok := d.names[strings.ToLower(name)]
	if !ok {
		return nil, false
	}
	i, ok := d.area[strings.ToLower(n)]
	if !ok {
		return nil, false
	}
	return &d.Areas[i], true
}

// Area returns an area by its canonical name; it panics on an unknown name.
func (d *Data) Area(name string) *AreaInfo {
	i, ok := d.area[strings.ToLower(name)]
	if !ok {
		panic("norway1940: unknown area " + name)
	}
	return &d.Areas[i]
}

// Box returns a naval box by its canonical name.
func (d *Data) Box(name string) (*BoxInfo, bool) {
	i, ok := d.box[strings.ToLower(name)]
	if !ok {
		return nil, false
	}
	return &d.Boxes[i], true
}

// Canon returns the canonical name of an area, box or home port.
func (d *Data) Canon(name string) (string, bool) {
	n, ok := d.names[strings.ToLower(name)]
	return n, ok
}

// UnitInfoOf returns the order-of-battle entry for a unit name or alias.
func (d *Data) UnitInfoOf(name string) (*UnitInfo, bool) {
	i, ok := d.unit[strings.ToLower(name)]
	if !ok {
		return nil, false
	}
	return &d.Units[i], true
}

// BoxesOf returns the naval boxes of a sea area, sorted.
func (d *Data) BoxesOf(sea string) []string {
	var out []string
	for _, b := range d.Boxes {
		if b.Area == sea {
			out = append(out, b.Name)
		}
	}
	sort.Strings(out)
	return out
}

// PortsOf returns the port areas of a sea area, sorted.
func (d *Data) PortsOf(sea string) []string {
	var out []string
	for _, a := range d.Areas {
		if a.Port != "" && a.Sea == sea {
			out = append(out, a.Name)
		}
	}
	sort.Strings(out)
	return out
}

// seaAdjacent reports whether two sea areas are the same or adjacent (9.13).
func seaAdjacent(a, b string) bool {
	ia, ib := -1, -1
	for i, s := range seaAreas {
		if s == a {
			ia = i
		}
		if s == b {
			ib = i
		}
	}
	if ia < 0 || ib < 0 {
		return false
	}
	return ia-ib <= 1 && ib-ia <= 1
}

// homeSeas lists the sea areas a home port opens on.
func homeSeas(port string) []string {
	switch port {
	case Germany:
		return []string{"South"}
	case UK:
		return append([]string(nil), seaAreas...)
	}
	if a, ok := data.AreaByName(port); ok && a.Sea != "" {
		return []string{a.Sea}
	}
	return nil
}

// seaOf returns the sea area of a box or port, "" for none.
func seaOf(where string) string {
	if b, ok := data.Box(where); ok {
		return b.Area
	}
	if where == Germany {
		return "South"
	}
	if a, ok := data.AreaByName(where); ok {
		return a.Sea
	}
	return ""
}

func isBox(where string) bool { _, ok := data.Box(where); return ok }
