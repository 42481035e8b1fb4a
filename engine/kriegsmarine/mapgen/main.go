// Command mapgen generates data/hexes.tsv, the terrain of the Kriegsmarine
// Strikes hex map, from Natural Earth coastlines as shipped by the npm
// package world-atlas 2.0.2 (ISC licence; Natural Earth data is public
// domain).
//
//	mkdir -p /tmp/atlas && cd /tmp/atlas && npm install world-atlas@2.0.2
//	go run ./engine/kriegsmarine/mapgen -atlas /tmp/atlas/node_modules/world-atlas \
//	    -out engine/kriegsmarine/data/hexes.tsv [-png /tmp/map.png]
//
// It decodes the TopoJSON of countries-50m.json, projects it with a Lambert
// conformal conic projection (lat_1 = lat_2 = lat_0 = 62N, lon_0 = 3E,
// WGS84), lays the hex grid over it and samples points inside every hex:
// a hex with no land is sea, one with only land is land, any other is
// coastal. A hexside that is land along its whole length is closed to ships
// (rule 6.14: a ship may not pass along a land hexside, e.g. O13 to P13) and
// listed as a "side" record.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// countryCodes maps Natural Earth country names to the map's country codes.
// The Faroe Islands were Danish in 1940. A hex holding land of any other
// country is an error (the data could not name it).
var countryCodes = map[string]string{
	"Norway":         "NO",
	"Sweden":         "SE",
	"Denmark":        "DK",
	"Faeroe Is.":     "DK",
	"United Kingdom": "UK",
	"Germany":        "DE",
}

// sampleStep is the spacing in kilometres of the sample points in a hex
// (about 330 points per hex); edgeSamples is the number of points tested
// along a hexside, vertices excluded.
const (
	sampleStep  = 2.0
	edgeSamples = 19
)

// mapBox (min lon, min lat, max lon, max lat) holds the whole map: A1 is at
// 56.2N 4.5W, A20 at 56.0N 13.4E, FF1 at 70.2N 8.6W and FF20 at 69.8N 20.7E.
var mapBox = [4]float64{-12, 54, 25, 72}

func main() {
	atlas := flag.String("atlas", "", "directory of the world-atlas 2.0.2 npm package (holds countries-50m.json)")
	out := flag.String("out", "", "output TSV file (default standard output)")
	pngOut := flag.String("png", "", "also draw the classified map to this PNG file (for checking by eye)")
	flag.Parse()
	if *atlas == "" {
		fmt.Fprintln(os.Stderr, "mapgen: -atlas is required")
		os.Exit(2)
	}
	if err := run(*atlas, *out, *pngOut); err != nil {
		fmt.Fprintln(os.Stderr, "mapgen:", err)
		os.Exit(1)
	}
}

func run(atlas, out, pngOut string) error {
	data, err := os.ReadFile(filepath.Join(atlas, "countries-50m.json"))
	if err != nil {
		return err
	}
	fs, err := decodeTopology(data, "countries")
	if err != nil {
		return err
	}
	shapes := projectFeatures(fs, countryCodes, newLCC(projLat, projLon), mapBox, mapExtent())
	if len(shapes) == 0 {
		return fmt.Errorf("no Scandinavian land found in %s", atlas)
	}
	m := classify(newLand(shapes))
	for _, d := range m.hexes {
		for _, cc := range d.countries {
			if strings.HasPrefix(cc, "?") {
				return fmt.Errorf("hex %s holds land of %s, which has no country code", d.hex.name(), cc[1:])
			}
		}
	}
	var w io.Writer = os.Stdout
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	if err := m.write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if pngOut != "" {
		return drawPNG(pngOut, m, newLand(shapes))
	}
	return nil
}

// land answers "which country's land is at this point" for projected points.
type land struct{ shapes []shape }

func newLand(s []shape) *land { return &land{shapes: s} }

// at returns the country code of the land at pt, "" over water.
func (l *land) at(pt xy) string {
	for i := range l.shapes {
		if l.shapes[i].contains(pt) {
			return l.shapes[i].country
		}
	}
	return ""
}

// hexData is the classification of one hex.
type hexData struct {
	hex       hexRC
	landPct   int
	terrain   string
	countries []string
}

// mapData is the classified map.
type mapData struct {
	hexes []hexData
	sides [][2]hexRC
}

// classify samples every hex and hexside of the map.
func classify(l *land) *mapData {
	m := &mapData{}
	terr := map[hexRC]string{}
	for r := 1; r <= rows; r++ {
		for c := 1; c <= cols; c++ {
			h := hexRC{r, c}
			ctr := centre(h)
			total, onLand := 0, 0
			seen := map[string]bool{}
			for dy := -36.0; dy <= 36; dy += sampleStep {
				for dx := -30.0; dx <= 30; dx += sampleStep {
					pt := xy{ctr[0] + dx, ctr[1] + dy}
					if hexOf(pt) != h {
						continue
					}
					total++
					if cc := l.at(pt); cc != "" {
						onLand++
						seen[cc] = true
					}
				}
			}
			d := hexData{hex: h, landPct: (100*onLand + total/2) / total}
			switch {
			case onLand == 0:
				d.terrain = "sea"
			case onLand == total:
				d.terrain = "land"
			default:
				d.terrain = "coastal"
			}
			for cc := range seen {
				d.countries = append(d.countries, cc)
			}
			sort.Strings(d.countries)
			terr[h] = d.terrain
			m.hexes = append(m.hexes, d)
		}
	}
	for r := 1; r <= rows; r++ {
		for c := 1; c <= cols; c++ {
			a := hexRC{r, c}
			for _, b := range neighbours3(a) {
				if !onMap(b) || (terr[a] == "land" && terr[b] == "land") {
					continue
				}
				if edgeAllLand(l, a, b) {
					m.sides = append(m.sides, [2]hexRC{a, b})
				}
			}
		}
	}
	return m
}

// edgeAllLand reports whether the hexside shared by adjacent hexes a and b is
// land at every sample strictly between its two end vertices (the vertices
// touch a third hex, so they say nothing about this side).
func edgeAllLand(l *land, a, b hexRC) bool {
	p, q := hexsideEnds(a, b)
	for i := 1; i <= edgeSamples; i++ {
		f := float64(i) / (edgeSamples + 1)
		if l.at(xy{p[0] + f*(q[0]-p[0]), p[1] + f*(q[1]-p[1])}) == "" {
			return false
		}
	}
	return true
}

// counts returns the number of sea, coastal and land hexes.
func (m *mapData) counts() (sea, coastal, landN int) {
	for _, d := range m.hexes {
		switch d.terrain {
		case "sea":
			sea++
		case "coastal":
			coastal++
		default:
			landN++
		}
	}
	return
}

// write emits the TSV with its provenance header.
func (m *mapData) write(w io.Writer) error {
	sea, coastal, landN := m.counts()
	hdr := []string{
		"Kriegsmarine Strikes hex map terrain, GENERATED by engine/kriegsmarine/mapgen; do not edit by hand",
		"(hand-kept facts and overrides live in overlay.tsv).",
		"Source: Natural Earth 1:50m admin-0 countries (public domain) via the npm package",
		"world-atlas 2.0.2, countries-50m.json (ISC licence, copyright 2013-2019 Michael Bostock).",
		"Regenerate: mkdir -p /tmp/atlas && cd /tmp/atlas && npm install world-atlas@2.0.2; then, in the repository,",
		"  go run ./engine/kriegsmarine/mapgen -atlas /tmp/atlas/node_modules/world-atlas -out engine/kriegsmarine/data/hexes.tsv",
		"Projection: Lambert conformal conic, lat_1=lat_2=lat_0=62N, lon_0=3E, WGS84 (kilometres).",
		"Hex centres: x = (col + 0.5*[row even])*58.99 - 528.8, y = row*51.09 - 673.9 (rows A=1 .. FF=32 south to north).",
		fmt.Sprintf("Sampling: points %.0f km apart in each hex; sea = no land, land = all land, coastal = both.", sampleStep),
		fmt.Sprintf("Counts: %d sea, %d coastal, %d land; %d land-only hexsides (rule 6.14).", sea, coastal, landN, len(m.sides)),
		"Columns: hex, terrain, countries (codes, comma-separated, - for none), land% of the samples.",
		"\"side A/B land\": the hexside between A and B is land along its whole length, closed to ships (6.14).",
	}
	for _, l := range hdr {
		if _, err := fmt.Fprintln(w, "# "+l); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "hex\tterrain\tcountries\tland%")
	for _, d := range m.hexes {
		cc := "-"
		if len(d.countries) > 0 {
			cc = strings.Join(d.countries, ",")
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\t%d\n", d.hex.name(), d.terrain, cc, d.landPct); err != nil {
			return err
		}
	}
	for _, s := range m.sides {
		if _, err := fmt.Fprintf(w, "side\t%s/%s\tland\n", s[0].name(), s[1].name()); err != nil {
			return err
		}
	}
	return nil
}
