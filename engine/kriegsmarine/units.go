package kriegsmarine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"skagerrak/engine"
)

// Sides of the game (2.0). The Allied player also runs the Norwegian and
// Danish forces (4.2, 17.3).
const (
	Allied engine.Side = "allied"
	German engine.Side = "german"
)

// Torpedo modes of a ship counter (3.411, 8.28, 8.282).
const (
	TorpNone   = ""       // no torpedoes
	TorpTurn   = "turn"   // (N): any number of attacks, one a turn
	TorpOnce   = "once"   // NT: N points for the whole game
	TorpReload = "reload" // NTR: N points, reloadable once (German only)
	TorpLimit  = "limit"  // N/M: N points, at most M a turn (Hood, Rodney)
)

// UnitDef is one counter of the game: a ship, a task force, a submarine
// (group) or an aircraft unit, as printed (or as reconstructed where the
// rulebook does not transcribe the counter). Source says which.
type UnitDef struct {
	ID      string      `json:"id"`
	Name    string      `json:"name"`
	Aliases []string    `json:"aliases,omitempty"`
	Side    engine.Side `json:"side"`
	Nation  string      `json:"nation"`
	// Type is the ship type of 3.413 (BB, BC, CV, CA, ...) or the aircraft
	// type of 3.422 (B, DB, T, F, TR).
	Type string `json:"type"`
	// Air marks aircraft units.
	Air bool `json:"air,omitempty"`

	Ships         int    `json:"ships,omitempty"`      // 3.419 ship count
	SpeedOdd      int    `json:"speed_odd,omitempty"`  // 3.414 left value
	SpeedEven     int    `json:"speed_even,omitempty"` // 3.414 right value
	Gunnery       int    `json:"gunnery,omitempty"`    // 3.415
	Hits          int    `json:"hits,omitempty"`       // 3.416 hit capacity
	FloodModerate int    `json:"flood_mod,omitempty"`  // 3.418 left value
	FloodSink     int    `json:"flood_sink,omitempty"` // 3.418 right value
	Torpedo       int    `json:"torpedo,omitempty"`    // 3.417
	TorpMode      string `json:"torp_mode,omitempty"`  // Torp* constant
	TorpPerTurn   int    `json:"torp_turn,omitempty"`  // most points a turn, 0 = all
	VP            string `json:"vp,omitempty"`         // as printed on the damage record sheet
	Carrier       int    `json:"carrier,omitempty"`    // 6.26 aircraft capacity
	Base          string `json:"base,omitempty"`       // aircraft: home base at set-up
	Radius        int    `json:"radius,omitempty"`     // aircraft: operational radius (3.424)
	Entry         string `json:"entry"`                // how the unit comes into play
	Option        string `json:"option,omitempty"`     // the option that enables it
	Source        string `json:"source"`               // rule or reconstruction
}

// Surface reports whether the unit is a surface ship or task force (6.11).
func (d *UnitDef) Surface() bool { return !d.Air && !d.Sub() }

// Sub reports whether the unit is a submarine or submarine group (6.11).
func (d *UnitDef) Sub() bool { return d.Type == "UB" || d.Type == "SUB" }

// TaskForce reports whether the unit stands for several ships (3.411).
func (d *UnitDef) TaskForce() bool { return d.Ships > 1 }

// Small reports whether weather cuts the unit's speed as a small craft
// (15.0: DD, TB and PT).
func (d *UnitDef) Small() bool { return d.Type == "DD" || d.Type == "TB" || d.Type == "PT" }

// Hidden reports whether searches never see the unit (6.34: submarines, Q-ships, aircraft).
func (d *UnitDef) Hidden() bool { return d.Sub() || d.Type == "UF" || d.Air }

// Speed returns the printed speed for a turn (3.414: odd turns the left value).
func (d *UnitDef) Speed(turn int) int {
	if turn%2 == 1 {
		return d.SpeedOdd
	}
	return d.SpeedEven
}

// SpeedString prints the speed as on the counter, "5-4".
func (d *UnitDef) SpeedString() string { return fmt.Sprintf("%d-%d", d.SpeedOdd, d.SpeedEven) }

// EvasionSpeed is the sum of both speed values (6.43: Bismarck 5+4=9).
func (d *UnitDef) EvasionSpeed() int { return d.SpeedOdd + d.SpeedEven }

// VPValue is the printed VP as a number of half points (0.5 -> 1).
func (d *UnitDef) VPValue() (halves int) {
	s := strings.TrimSuffix(d.VP, "*")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return int(f*2 + 0.5)
}

type unitTable struct {
	defs  []*UnitDef
	byID  map[string]*UnitDef
	names map[engine.Side]map[string]string // normalized name -> id
}

var (
	unitsOnce sync.Once
	units     *unitTable
	unitsErr  error
)

// Units returns every unit definition of the data pack, ships first then
// aircraft, in data-file order.
func Units() []*UnitDef {
	t := mustUnits()
	return append([]*UnitDef(nil), t.defs...)
}

// UnitByID returns the definition of the unit with the given id.
func UnitByID(id string) (*UnitDef, bool) {
	d, ok := mustUnits().byID[id]
	return d, ok
}

func mustUnits() *unitTable {
	unitsOnce.Do(func() {
		units, unitsErr = loadUnits()
	})
	if unitsErr != nil {
		panic("kriegsmarine: " + unitsErr.Error())
	}
	return units
}

func def(id string) *UnitDef {
	d, ok := mustUnits().byID[id]
	if !ok {
		panic("kriegsmarine: unknown unit " + id)
	}
	return d
}

// normName folds a unit name for matching: lower case, umlauts and Nordic
// letters folded, everything but letters and digits dropped.
//
// It is called for every name in every order line, so plain ASCII names
// take a fast path: no allocation when the name is already folded, one
// otherwise; other names go the general way.
func normName(s string) string {
	folded := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return normNameUnicode(s)
		}
		if !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			folded = false
		}
	}
	if folded {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+('a'-'A'))
		case (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'):
			b = append(b, c)
		}
	}
	return string(b)
}

// nameFolds are the letters normName spells out.
var nameFolds = strings.NewReplacer("ü", "u", "ö", "o", "ä", "a", "æ", "ae", "ø", "o", "å", "a", "ß", "ss", "é", "e", "è", "e")

// normNameUnicode is normName for names with letters beyond ASCII.
func normNameUnicode(s string) string {
	s = nameFolds.Replace(strings.ToLower(s))
	var b strings.Builder
	for _, c := range s {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// lookupName finds a unit of side by name or alias (case-insensitive).
func lookupName(side engine.Side, name string) (string, bool) {
	id, ok := mustUnits().names[side][normName(name)]
	return id, ok
}

func loadUnits() (*unitTable, error) {
	t := &unitTable{byID: map[string]*UnitDef{}, names: map[engine.Side]map[string]string{Allied: {}, German: {}}}
	ships, err := files.Text("units.tsv")
	if err != nil {
		return nil, err
	}
	if err := eachTSV(ships, "units.tsv", 17, func(line int, f []string) error {
		d := &UnitDef{ID: f[0], Name: f[1], Side: engine.Side(f[3]), Nation: f[4], Type: f[5], VP: f[12], Entry: f[13], Option: f[14], Source: f[16]}
		d.Aliases = splitList(f[2])
		var err error
		if d.Ships, err = atoi(f[6]); err != nil {
			return err
		}
		if d.SpeedOdd, d.SpeedEven, err = pair(f[7], "-"); err != nil {
			return fmt.Errorf("speed: %w", err)
		}
		if d.Gunnery, err = atoi(f[8]); err != nil {
			return err
		}
		if d.Hits, err = atoi(f[9]); err != nil {
			return err
		}
		if f[10] != "-" {
			if d.FloodModerate, d.FloodSink, err = pair(f[10], "/"); err != nil {
				return fmt.Errorf("flood: %w", err)
			}
		}
		if err := parseTorp(d, f[11]); err != nil {
			return err
		}
		if d.Carrier, err = atoi(f[15]); err != nil {
			return err
		}
		return t.add(d)
	}); err != nil {
		return nil, err
	}
	air, err := files.Text("aircraft.tsv")
	if err != nil {
		return nil, err
	}
	if err := eachTSV(air, "aircraft.tsv", 11, func(line int, f []string) error {
		d := &UnitDef{ID: f[0], Name: f[1], Side: engine.Side(f[3]), Nation: f[4], Type: f[5], Air: true, Base: f[6], Entry: f[8], Option: f[9], Source: f[10]}
		d.Aliases = splitList(f[2])
		var err error
		if d.Radius, err = atoi(f[7]); err != nil {
			return err
		}
		return t.add(d)
	}); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *unitTable) add(d *UnitDef) error {
	if d.Side != Allied && d.Side != German {
		return fmt.Errorf("unit %s: side %q", d.ID, d.Side)
	}
	if d.Source == "" {
		return fmt.Errorf("unit %s has no source", d.ID)
	}
	if _, dup := t.byID[d.ID]; dup {
		return fmt.Errorf("unit %s twice", d.ID)
	}
	t.byID[d.ID] = d
	t.defs = append(t.defs, d)
	names := t.names[d.Side]
	for _, n := range append([]string{d.ID, d.Name}, d.Aliases...) {
		k := normName(n)
		if k == "" {
			continue
		}
		if prev, ok := names[k]; ok && prev != d.ID {
			return fmt.Errorf("unit %s: name %q already names %s", d.ID, n, prev)
		}
		names[k] = d.ID
	}
	return nil
}

func parseTorp(d *UnitDef, s string) error {
	var err error
	switch {
	case s == "-":
		return nil
	case strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")"):
		d.TorpMode = TorpTurn
		d.Torpedo, err = atoi(s[1 : len(s)-1])
	case strings.HasSuffix(s, "TR"):
		d.TorpMode = TorpReload
		d.Torpedo, err = atoi(strings.TrimSuffix(s, "TR"))
	case strings.HasSuffix(s, "T"):
		d.TorpMode = TorpOnce
		d.Torpedo, err = atoi(strings.TrimSuffix(s, "T"))
	case strings.Contains(s, "/"):
		d.TorpMode = TorpLimit
		d.Torpedo, d.TorpPerTurn, err = pair(s, "/")
	default:
		d.TorpMode = TorpOnce
		d.Torpedo, err = atoi(s)
	}
	if err != nil {
		return fmt.Errorf("torpedo %q: %w", s, err)
	}
	return nil
}

func eachTSV(text, name string, cols int, fn func(line int, f []string) error) error {
	header := true
	for i, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if header {
			header = false
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != cols {
			return fmt.Errorf("%s:%d: %d columns, want %d", name, i+1, len(f), cols)
		}
		if err := fn(i+1, f); err != nil {
			return fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func atoi(s string) (int, error) { return strconv.Atoi(strings.TrimSpace(s)) }

func pair(s, sep string) (int, int, error) {
	a, b, ok := strings.Cut(s, sep)
	if !ok {
		return 0, 0, fmt.Errorf("%q is not N%sM", s, sep)
	}
	x, err := atoi(a)
	if err != nil {
		return 0, 0, err
	}
	y, err := atoi(b)
	return x, y, err
}

func sortedIDs(ids []string) []string {
	out := append([]string(nil), ids...)
	sort.Strings(out)
	return out
}
