package kriegsmarine

import (
	"os"
	"strings"
	"testing"

	"skagerrak/engine"
)

// Rule citations are to the rulebook, seed 000 "The Kriegsmarine Strikes".

func hx(t *testing.T, s string) engine.Hex {
	t.Helper()
	h, err := engine.ParseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func info(t *testing.T, s string) HexInfo {
	t.Helper()
	hi, ok := TheMap().Info(hx(t, s))
	if !ok {
		t.Fatalf("%s is not on the map", s)
	}
	return hi
}

// The embedded data parses, covers the 32 x 20 grid and every overlay line
// carries a reason.
func TestMapEmbeddedDataParses(t *testing.T) {
	hexes, err := dataFS.ReadFile("data/hexes.tsv")
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := dataFS.ReadFile("data/overlay.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseMap(hexes, overlay); err != nil {
		t.Fatal(err)
	}
	m := TheMap()
	if g := m.Grid(); g.Rows != 32 || g.Cols != 20 {
		t.Fatalf("grid %dx%d, want 32x20 (A..FF by 1..20)", g.Rows, g.Cols)
	}
	for _, h := range m.Grid().All() {
		hi, ok := m.Info(h)
		if !ok || hi.Hex != h {
			t.Fatalf("Info(%s) = %v, %v", h, hi.Hex, ok)
		}
	}
	for _, h := range []engine.Hex{{Row: 1, Col: 0}, {Row: 1, Col: 21}, {Row: 0, Col: 5}, {Row: 33, Col: 1}} {
		if _, ok := m.Info(h); ok {
			t.Errorf("Info(%v) should be off the map", h)
		}
	}
	for _, want := range []string{"Source: Natural Earth", "world-atlas 2.0.2", "ISC", "go run ./engine/kriegsmarine/mapgen"} {
		if !strings.Contains(string(hexes), want) {
			t.Errorf("hexes.tsv header lacks %q", want)
		}
	}
	if !strings.Contains(string(overlay), "hex\tattr\tvalue\treason\n") {
		t.Error("overlay.tsv lacks its column header")
	}
}

// ParseMap refuses malformed data with the file and line.
func TestMapParseErrors(t *testing.T) {
	hexes, _ := dataFS.ReadFile("data/hexes.tsv")
	overlay, _ := dataFS.ReadFile("data/overlay.tsv")
	cases := []struct{ name, hexes, overlay, want string }{
		{"missing hex", strings.Replace(string(hexes), "\nA1\t", "\n#A1\t", 1), "", "hex A1 missing"},
		{"duplicate hex", string(hexes) + "A1\tsea\t-\t0\n", "", "listed twice"},
		{"bad terrain", strings.Replace(string(hexes), "\nA12\tsea", "\nA12\tswamp", 1), "", "unknown terrain"},
		{"off map", string(hexes) + "A21\tsea\t-\t0\n", "", "off the map"},
		{"no reason", string(hexes), "A12\tentry\t4\t \n", "no reason"},
		{"bad attr", string(hexes), "A12\tcolour\tred\tbecause\n", "unknown attribute"},
		{"bad country", string(hexes), "A12\tcountry\tXX\tbecause\n", "unknown country"},
		{"bad airfield", string(hexes), "A12\tairfield\tX;a;snow;NO\tbecause\n", "capacity"},
		{"side not adjacent", string(hexes), "A1/A3\tside\tland\tbecause\n", "not adjacent"},
		{"duplicate port", string(hexes), string(overlay) + "A12\tport\tOslo\tbecause\n", "already at"},
	}
	for _, c := range cases {
		ov := c.overlay
		if ov == "" {
			ov = string(overlay)
		}
		_, err := ParseMap([]byte(c.hexes), []byte(ov))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

// Terrain counts stay in the ranges measured for this map (notes/kriegsmarine-map.md:
// about 390 sea, 120-135 coastal, 120-130 land with Natural Earth 1:50m).
func TestMapTerrainCounts(t *testing.T) {
	n := map[Terrain]int{}
	for _, h := range TheMap().Grid().All() {
		hi, _ := TheMap().Info(h)
		n[hi.Terrain]++
	}
	t.Logf("sea %d, coastal %d, land %d", n[Sea], n[Coastal], n[Land])
	if n[Sea] < 380 || n[Sea] > 400 || n[Coastal] < 120 || n[Coastal] > 135 || n[Land] < 120 || n[Land] > 130 {
		t.Errorf("counts sea %d coastal %d land %d out of range (380-400 / 120-135 / 120-130)", n[Sea], n[Coastal], n[Land])
	}
	for i, s := range []string{"sea", "coastal", "land"} {
		if Terrain(i).String() != s {
			t.Errorf("Terrain(%d).String() = %q", i, Terrain(i))
		}
		if tt, err := ParseTerrain(s); err != nil || tt != Terrain(i) {
			t.Errorf("ParseTerrain(%q) = %v, %v", s, tt, err)
		}
	}
}

// Every hex the rulebook names is on the map with the attribute the text gives.
func TestMapRulebookHexes(t *testing.T) {
	m := TheMap()
	ship := func(s string) func(*testing.T, HexInfo) {
		return func(t *testing.T, hi HexInfo) {
			if !m.ShipCanEnter(hi.Hex) {
				t.Errorf("%s: ships must be able to enter (%s)", hi.Hex, s)
			}
		}
	}
	airfield := func(name string, snowFree bool) func(*testing.T, HexInfo) {
		return func(t *testing.T, hi HexInfo) {
			if hi.Airfield == nil || hi.Airfield.Name != name || hi.Airfield.SnowFree != snowFree || hi.Airfield.Source == "" {
				t.Errorf("%s: airfield %+v, want %s snow-free=%v", hi.Hex, hi.Airfield, name, snowFree)
			}
		}
	}
	tag := func(tg string) func(*testing.T, HexInfo) {
		return func(t *testing.T, hi HexInfo) {
			if !hi.HasTag(tg) {
				t.Errorf("%s: tags %v lack %q", hi.Hex, hi.Tags, tg)
			}
		}
	}
	entry := func(cost int) func(*testing.T, HexInfo) {
		return func(t *testing.T, hi HexInfo) {
			if c, ok := m.EntryCost(hi.Hex); !ok || (cost > 0 && c != cost) {
				t.Errorf("%s: entry cost %d, %v; want %d", hi.Hex, c, ok, cost)
			}
			ship("6.16")(t, hi)
		}
	}
	port := func(name, fortress string) func(*testing.T, HexInfo) {
		return func(t *testing.T, hi HexInfo) {
			if hi.Port != name || hi.Fortress != fortress {
				t.Errorf("%s: port %q fortress %q, want %q %q", hi.Hex, hi.Port, hi.Fortress, name, fortress)
			}
			ship("6.14 port city")(t, hi)
		}
	}
	cases := []struct {
		hex, rule string
		check     func(*testing.T, HexInfo)
	}{
		{"A12", "6.16 example: 4 points to enter A12", entry(4)},
		{"A13", "6.16 arrows A12-17", entry(0)},
		{"A14", "6.16 arrows A12-17", entry(0)},
		{"A15", "6.16 arrow; 4.411/6.22 aircraft enter at A15", entry(0)},
		{"A16", "6.16 arrows A12-17", entry(0)},
		{"A17", "6.16 arrows A12-17", entry(0)},
		{"A19", "6.16 arrow A19", entry(0)},
		{"AA17", "15.3 light-grey hex", tag("light-grey")},
		{"Z16", "15.3 light-grey hex", tag("light-grey")},
		{"C16", "9.62 Aalborg snow-free", airfield("Aalborg", true)},
		{"D16", "17.3 Frederikshavn, no fortress", port("Frederikshavn", "")},
		{"D2", "6.23 Lossiemouth", airfield("Lossiemouth", true)},
		{"DD19", "5.13/9.51 Bardufoss", airfield("Bardufoss", false)},
		{"F11", "6.28 Sola snow-free", airfield("Sola", true)},
		{"F11", "8.523 ships in F11 fire on Sola", ship("8.523")},
		{"F13", "6.28 谢维克 (Kjevik) snow-free", airfield("Kjevik", true)},
		{"J15", "6.28 Fornebu snow-free", airfield("Fornebu", true)},
		{"J16", "6.28/17.11 谢勒 (Kjeller), snow unless 17.1", airfield("Kjeller", false)},
		{"Q16", "9.622 Vaernes needs snow clearing", airfield("Vaernes", false)},
		{"H16", "9.21 Oslo outer fortress", func(t *testing.T, hi HexInfo) {
			if hi.Fortress != "Oslo outer" {
				t.Errorf("H16 fortress %q", hi.Fortress)
			}
			ship("9.21")(t, hi)
		}},
		{"I16", "3.4 note and 9.21: Oscarsborg at I16, Oslo", port("Oslo", "Oscarsborg")},
		{"G1", "14.1 HN25 leaves between G1 and K1", tag("convoy-exit")},
		{"K1", "14.1 HN25 leaves between G1 and K1", tag("convoy-exit")},
		{"O13", "6.14 example", ship("6.14")},
		{"P13", "6.14 example", ship("6.14")},
		{"Q13", "6.37 example: ships pass Q13", ship("6.37")},
		{"R12", "6.37 example: ships stop at R12", ship("6.37")},
		{"U13", "15.x example: destroyers move to U13", ship("15.x")},
		{"X14", "15.x example: destroyers move from X14", ship("15.x")},
	}
	for _, c := range cases {
		t.Run(c.hex+" "+c.rule, func(t *testing.T) { c.check(t, info(t, c.hex)) })
	}
	// The distances the examples quote follow from the grid.
	dist := []struct {
		a, b string
		n    int
		rule string
	}{
		{"A15", "Q16", 16, "6.21 example: 16 points from A15 to Vaernes"},
		{"X14", "U13", 3, "15.x example: 3 hexes from X14 to U13"},
	}
	for _, d := range dist {
		if got := hx(t, d.a).Distance(hx(t, d.b)); got != d.n {
			t.Errorf("%s: distance %s-%s = %d, want %d", d.rule, d.a, d.b, got, d.n)
		}
	}
	// Row S is "column S" (6.37, 13.x).
	if s := m.WithTag("column-s"); len(s) != 20 || s[0] != hx(t, "S1") || s[19] != hx(t, "S20") {
		t.Errorf("column-s = %v, want S1..S20", s)
	}
}

// 16.2: the six Norwegian port cities, their fortresses (9.2, 9.21) and
// their airfields (9.51: airfields adjacent to the port).
func TestMapNorwegianPorts(t *testing.T) {
	m := TheMap()
	want := []struct{ port, hex, fortress, airfields string }{
		{"Oslo", "I16", "Oscarsborg", "Fornebu Kjeller"},
		{"Kristiansand", "E14", "Kristiansand", "Kjevik"},
		{"Stavanger", "G12", "", "Sola"},
		{"Bergen", "J11", "Bergen", ""},
		{"Trondheim", "Q15", "Agdenes", "Vaernes"},
		{"Narvik", "CC19", "", "Bardufoss"},
	}
	norwegian := 0
	for _, p := range m.Ports() {
		if p.HasCountry("NO") {
			norwegian++
		}
	}
	if norwegian != len(want) {
		t.Errorf("%d Norwegian ports, want the six of 16.2", norwegian)
	}
	for _, w := range want {
		hi, ok := m.Port(strings.ToUpper(w.port))
		if !ok || hi.Hex != hx(t, w.hex) {
			t.Errorf("Port(%q) = %v, %v; want %s", w.port, hi.Hex, ok, w.hex)
			continue
		}
		if hi.Fortress != w.fortress {
			t.Errorf("%s fortress %q, want %q", w.port, hi.Fortress, w.fortress)
		}
		if !m.IsCoastal(hi.Hex, "NO") || !m.ShipCanEnter(hi.Hex) || !m.SubCanEnter(hi.Hex) {
			t.Errorf("%s (%s) must be a Norwegian coastal hex ships and submarines can enter", w.port, hi.Hex)
		}
		var adj []string
		for _, a := range m.Airfields() {
			if a.Hex.Distance(hi.Hex) == 1 {
				adj = append(adj, a.Airfield.Name)
			}
		}
		if got := strings.Join(adj, " "); got != w.airfields {
			t.Errorf("airfields adjacent to %s: %q, want %q", w.port, got, w.airfields)
		}
	}
	if _, ok := m.Port("scapa flow"); !ok {
		t.Error("Scapa Flow (4.5, 14.0) is missing")
	}
	if _, ok := m.Port("Atlantis"); ok {
		t.Error("Port(Atlantis) found")
	}
	if n := len(m.Fortresses()); n != 5 {
		t.Errorf("%d fortresses, want 5 (Oslo outer, Oscarsborg, Kristiansand, Bergen, Agdenes)", n)
	}
}

// reachable returns the hexes a surface ship can reach from start (6.14).
func reachable(m *Map, start engine.Hex) map[engine.Hex]int {
	dist := map[engine.Hex]int{start: 0}
	queue := []engine.Hex{start}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, n := range h.Neighbors() {
			if _, seen := dist[n]; !seen && m.ShipCanCross(h, n) {
				dist[n] = dist[h] + 1
				queue = append(queue, n)
			}
		}
	}
	return dist
}

// 6.14: ships enter sea, coastal, fjord and port hexes only, and never cross
// a land hexside; every port and fjord can be reached from the entry arrows.
func TestMapShipMovement(t *testing.T) {
	m := TheMap()
	if m.ShipCanEnter(hx(t, "J17")) || m.SubCanEnter(hx(t, "J17")) {
		t.Error("J17 (inland Norway) is land: no ship or submarine may enter (6.14, 6.19)")
	}
	if m.ShipCanEnter(hx(t, "GG1")) {
		t.Error("off-map hex enterable")
	}
	o13, p13 := hx(t, "O13"), hx(t, "P13")
	if m.ShipCanCross(o13, p13) || m.ShipCanCross(p13, o13) || !m.LandHexside(o13, p13) {
		t.Error("6.14 example: a ship may not move from O13 to P13")
	}
	if !m.ShipCanCross(hx(t, "R12"), hx(t, "Q13")) || !m.ShipCanCross(hx(t, "Q13"), hx(t, "R12")) {
		t.Error("6.37 example: ships pass Q13 to R12")
	}
	if m.ShipCanCross(hx(t, "A12"), hx(t, "A14")) {
		t.Error("ShipCanCross of hexes that are not adjacent")
	}
	if !m.ShipCanCross(hx(t, "H16"), hx(t, "I16")) {
		t.Error("9.21: ships pass from the Oslo outer fortress H16 to Oscarsborg I16")
	}
	from := reachable(m, hx(t, "A12"))
	for _, p := range m.Ports() {
		if _, ok := from[p.Hex]; !ok {
			t.Errorf("port %s (%s) cannot be reached by sea from A12", p.Port, p.Hex)
		}
	}
	for _, f := range m.Fjords() {
		if _, ok := from[f]; !ok {
			t.Errorf("fjord hex %s cannot be reached by sea from A12", f)
		}
		if !m.SubCanEnter(f) {
			t.Errorf("6.19: submarines may enter fjord hex %s", f)
		}
	}
	for h := range m.entry {
		if _, ok := from[h]; !ok {
			t.Errorf("6.16: entry hex %s leads nowhere", h)
		}
	}
	for _, h := range append(m.WithTag("exit"), m.WithTag("exit-r1")...) {
		if _, ok := from[h]; !ok {
			t.Errorf("6.18: exit hex %s cannot be reached from A12", h)
		}
	}
	// 13.3: "The shortest distance from column S to Narvik is 11 hexes."
	narvik, _ := m.Port("Narvik")
	best := 99
	for _, s := range m.WithTag("column-s") {
		if d, ok := reachable(m, s)[narvik.Hex]; ok && d < best {
			best = d
		}
	}
	t.Logf("13.3: sea distance from column S to Narvik = %d hexes", best)
	if best < 10 || best > 12 {
		t.Errorf("13.3: shortest sea distance from column S to Narvik is %d, the rulebook says 11", best)
	}
}

// 6.16: German entry arrows A12-A17 and A19 with their off-map costs; no
// arrow at A18.
func TestMapEntryCosts(t *testing.T) {
	m := TheMap()
	var names []string
	for _, h := range m.WithTag("entry") {
		c, ok := m.EntryCost(h)
		if !ok || c < 1 || c > 6 {
			t.Errorf("%s: entry cost %d, %v", h, c, ok)
		}
		names = append(names, h.String())
	}
	if got := strings.Join(names, " "); got != "A12 A13 A14 A15 A16 A17 A19" {
		t.Errorf("entry hexes %s, want A12-A17 and A19", got)
	}
	if c, _ := m.EntryCost(hx(t, "A12")); c != 4 {
		t.Errorf("6.16 example: Scharnhorst needs 4 points to enter A12, map says %d", c)
	}
	if _, ok := m.EntryCost(hx(t, "A18")); ok {
		t.Error("A18 has no arrow")
	}
}

// 9.62 and 6.28: which airfields are snow-free; capacities positive.
func TestMapAirfields(t *testing.T) {
	m := TheMap()
	names := map[string]HexInfo{}
	for _, a := range m.Airfields() {
		names[a.Airfield.Name] = a
		if a.Airfield.Capacity < 1 || a.Airfield.Source == "" || !a.HasCountry(a.Airfield.Country) {
			t.Errorf("airfield %+v at %s (countries %v)", *a.Airfield, a.Hex, a.Countries)
		}
		// 9.62: Aalborg and all Allied airfields are snow-free.
		if (a.Airfield.Country == "UK" || a.Airfield.Name == "Aalborg") && !a.Airfield.SnowFree {
			t.Errorf("9.62: %s must be snow-free", a.Airfield.Name)
		}
	}
	for _, n := range []string{"Sola", "Fornebu", "Kjevik"} {
		if !names[n].Airfield.SnowFree {
			t.Errorf("6.28: %s is snow-free", n)
		}
	}
	if v := names["Vaernes"]; v.Hex != hx(t, "Q16") || v.Airfield.SnowFree || v.Airfield.Capacity+1 != 2 {
		t.Errorf("Vaernes %+v: Q16, snow (9.622), capacity 2 with the Air Emergency Scramble (6.29)", v)
	}
	if v, ok := m.AirfieldNamed("Værnes"); !ok || v.Hex != hx(t, "Q16") {
		t.Errorf("AirfieldNamed(Værnes) = %v, %v", v.Hex, ok)
	}
	if _, ok := m.AirfieldNamed("Gardermoen"); ok {
		t.Error("AirfieldNamed(Gardermoen) found")
	}
	if len(names) != 9 {
		t.Errorf("%d airfields, want 9 (Sola, Fornebu, Kjevik, Kjeller, Vaernes, Bardufoss, Aalborg, Lossiemouth, Hatston)", len(names))
	}
}

// 6.37 and 15.3: island groups, Scapa Flow, exits; the Norwegian coast is a
// chain of coastal hexes from the Skagerrak to the north edge.
func TestMapCoastsAndIslands(t *testing.T) {
	m := TheMap()
	for tg, n := range map[string]int{"orkney": 3, "shetland": 4, "scapa-flow": 1, "light-grey": 2, "exit": 8, "exit-r1": 10, "convoy-exit": 5} {
		hs := m.WithTag(tg)
		if len(hs) != n {
			t.Errorf("tag %s on %v, want %d hexes", tg, hs, n)
		}
		for _, h := range hs {
			hi, _ := m.Info(h)
			if (tg == "orkney" || tg == "shetland" || tg == "scapa-flow") && (!hi.HasCountry("UK") || hi.Terrain != Coastal) {
				t.Errorf("%s %s should be a coastal hex with British land", tg, h)
			}
		}
	}
	coast := map[engine.Hex]bool{}
	for _, h := range m.Grid().All() {
		if m.IsCoastal(h, "NO") {
			coast[h] = true
		}
	}
	if m.IsCoastal(hx(t, "J17"), "NO") || m.IsCoastal(hx(t, "A12"), "NO") || m.IsCoastal(hx(t, "D2"), "NO") {
		t.Error("IsCoastal true for land, sea or British hexes")
	}
	start := hx(t, "H16") // the Oslofjord, on the Skagerrak
	seen := map[engine.Hex]bool{start: true}
	queue := []engine.Hex{start}
	top := 0
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		top = max(top, h.Row)
		for _, n := range h.Neighbors() {
			if coast[n] && !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	if top != m.Grid().Rows {
		t.Errorf("the Norwegian coast from H16 stops at row %s", engine.RowName(top))
	}
	for h := range coast {
		if !seen[h] {
			t.Logf("Norwegian coastal hex %s is off the main coast (an offshore islet)", h)
		}
	}
	if len(seen) < 60 {
		t.Errorf("only %d hexes in the Norwegian coast chain", len(seen))
	}
}

// A picture of the map in the test log (go test -run MapPicture -v), and as
// /tmp/kriegsmarine-map.txt when KRIEGSMARINE_MAP_DUMP is set.
func TestMapPicture(t *testing.T) {
	m := TheMap()
	var b strings.Builder
	b.WriteString(". sea  c coastal  # land  f fjord  P port  * airfield  E entry  X exit  o Orkney/Shetland\n")
	for r := m.Grid().Rows; r >= 1; r-- {
		name := engine.RowName(r)
		b.WriteString(name + strings.Repeat(" ", 3-len(name)))
		if r%2 == 0 {
			b.WriteString(" ")
		}
		for c := 1; c <= m.Grid().Cols; c++ {
			hi, _ := m.Info(engine.Hex{Row: r, Col: c})
			ch := map[Terrain]string{Sea: ".", Coastal: "c", Land: "#"}[hi.Terrain]
			switch {
			case hi.Port != "":
				ch = "P"
			case hi.Airfield != nil:
				ch = "*"
			case hi.Fjord:
				ch = "f"
			case hi.HasTag("entry"):
				ch = "E"
			case hi.HasTag("exit"):
				ch = "X"
			case hi.HasTag("orkney") || hi.HasTag("shetland"):
				ch = "o"
			}
			b.WriteString(ch + " ")
		}
		b.WriteString("\n")
	}
	t.Log("\n" + b.String())
	if os.Getenv("KRIEGSMARINE_MAP_DUMP") != "" {
		if err := os.WriteFile("/tmp/kriegsmarine-map.txt", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
