package main

import (
	"encoding/json"
	"fmt"
	"math"
)

// topology is the part of a TopoJSON file (https://github.com/topojson/topojson-specification)
// the generator reads: a quantized transform, delta-encoded arcs and a
// GeometryCollection of Polygon / MultiPolygon countries.
type topology struct {
	Type      string `json:"type"`
	Transform *struct {
		Scale     [2]float64 `json:"scale"`
		Translate [2]float64 `json:"translate"`
	} `json:"transform"`
	Objects map[string]struct {
		Type       string `json:"type"`
		Geometries []struct {
			Type       string            `json:"type"`
			ID         string            `json:"id"`
			Properties map[string]string `json:"properties"`
			Arcs       json.RawMessage   `json:"arcs"`
		} `json:"geometries"`
	} `json:"objects"`
	Arcs [][][2]float64 `json:"arcs"`
}

// lonLat is a point in degrees.
type lonLat [2]float64

// ring is a closed ring of points (first point not repeated at the end).
type ring []lonLat

// polygon is an outer ring followed by its holes.
type polygon []ring

// feature is a named geometry: one country as a list of polygons.
type feature struct {
	Name     string
	ID       string
	Polygons []polygon
}

// decodeTopology reads the features of object obj from TopoJSON data.
func decodeTopology(data []byte, obj string) ([]feature, error) {
	var t topology
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, err
	}
	if t.Type != "Topology" {
		return nil, fmt.Errorf("not a TopoJSON Topology (type %q)", t.Type)
	}
	o, ok := t.Objects[obj]
	if !ok {
		return nil, fmt.Errorf("no object %q", obj)
	}
	arcs := make([][]lonLat, len(t.Arcs))
	for i, a := range t.Arcs {
		arcs[i] = decodeArc(a, t.Transform)
	}
	var out []feature
	for _, g := range o.Geometries {
		f := feature{Name: g.Properties["name"], ID: g.ID}
		switch g.Type {
		case "Polygon":
			var rings [][]int
			if err := json.Unmarshal(g.Arcs, &rings); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			p, err := assemblePolygon(rings, arcs)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			f.Polygons = append(f.Polygons, p)
		case "MultiPolygon":
			var polys [][][]int
			if err := json.Unmarshal(g.Arcs, &polys); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			for _, rings := range polys {
				p, err := assemblePolygon(rings, arcs)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f.Name, err)
				}
				f.Polygons = append(f.Polygons, p)
			}
		case "", "null":
			continue
		default:
			return nil, fmt.Errorf("%s: unsupported geometry %q", f.Name, g.Type)
		}
		out = append(out, f)
	}
	return out, nil
}

// decodeArc undoes the delta encoding and quantization of one arc.
func decodeArc(a [][2]float64, tr *struct {
	Scale     [2]float64 `json:"scale"`
	Translate [2]float64 `json:"translate"`
}) []lonLat {
	out := make([]lonLat, len(a))
	var x, y float64
	for i, p := range a {
		if tr == nil {
			out[i] = lonLat{p[0], p[1]}
			continue
		}
		x += p[0]
		y += p[1]
		out[i] = lonLat{x*tr.Scale[0] + tr.Translate[0], y*tr.Scale[1] + tr.Translate[1]}
	}
	return out
}

// assemblePolygon joins the arcs of each ring. Arc index i < 0 means arc ^i
// reversed; consecutive arcs share their joining point, kept once.
// Longitudes are kept continuous along a ring (no jump of 360 degrees between
// neighbouring points), so a ring crossing the antimeridian stays one piece
// instead of being torn apart.
func assemblePolygon(rings [][]int, arcs [][]lonLat) (polygon, error) {
	var p polygon
	for _, idx := range rings {
		var r ring
		for k, i := range idx {
			rev := i < 0
			if rev {
				i = ^i
			}
			if i >= len(arcs) {
				return nil, fmt.Errorf("arc %d out of range", i)
			}
			a := arcs[i]
			pts := make([]lonLat, len(a))
			for j := range a {
				if rev {
					pts[j] = a[len(a)-1-j]
				} else {
					pts[j] = a[j]
				}
			}
			if k > 0 {
				pts = pts[1:]
			}
			r = append(r, pts...)
		}
		for j := 1; j < len(r); j++ {
			for r[j][0]-r[j-1][0] > 180 {
				r[j][0] -= 360
			}
			for r[j][0]-r[j-1][0] < -180 {
				r[j][0] += 360
			}
		}
		if len(r) > 1 && r[0] == r[len(r)-1] {
			r = r[:len(r)-1]
		}
		p = append(p, r)
	}
	return p, nil
}

// xy is a projected point in kilometres.
type xy [2]float64

// shape is a projected polygon with its bounding box. Its edges are also
// filed in horizontal bands bandKm high, so that a point test only looks at
// the edges that can cross the point's horizontal ray.
type shape struct {
	country    string
	rings      [][]xy
	minX, minY float64
	maxX, maxY float64
	bands      map[int][][2]xy
}

const bandKm = 4.0

// index files every edge of the shape under each band its y range meets.
func (s *shape) index() {
	s.bands = map[int][][2]xy{}
	for _, r := range s.rings {
		j := len(r) - 1
		for i := range r {
			a, b := r[j], r[i]
			lo, hi := math.Min(a[1], b[1]), math.Max(a[1], b[1])
			for k := int(math.Floor(lo / bandKm)); k <= int(math.Floor(hi/bandKm)); k++ {
				s.bands[k] = append(s.bands[k], [2]xy{a, b})
			}
			j = i
		}
	}
}

// projectFeatures projects the polygons whose longitude/latitude box meets
// box (minLon, minLat, maxLon, maxLat), labelled with the country code codes
// gives their feature's name, or "?" and the name for a country codes does
// not know; polygons whose projected bounding box misses extent (minX, minY,
// maxX, maxY, kilometres) are dropped. A polygon whose ring was unwrapped past +-180 is
// shifted back by whole turns so that it overlaps the box if it can.
func projectFeatures(fs []feature, codes map[string]string, p *lcc, box, extent [4]float64) []shape {
	var out []shape
	for _, f := range fs {
		code, known := codes[f.Name]
		if !known {
			code = "?" + f.Name
		}
		for _, poly := range f.Polygons {
			lo, hi := math.Inf(1), math.Inf(-1)
			la, lb := math.Inf(1), math.Inf(-1)
			for _, pt := range poly[0] {
				lo, hi = math.Min(lo, pt[0]), math.Max(hi, pt[0])
				la, lb = math.Min(la, pt[1]), math.Max(lb, pt[1])
			}
			shift := 0.0
			for lo+shift > box[2] {
				shift -= 360
			}
			for hi+shift < box[0] {
				shift += 360
			}
			if lo+shift > box[2] || hi+shift < box[0] || la > box[3] || lb < box[1] {
				continue
			}
			s := shape{country: code, minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1)}
			for _, r := range poly {
				pr := make([]xy, len(r))
				for i, pt := range r {
					x, y := p.forward(pt[0]+shift, pt[1])
					pr[i] = xy{x, y}
					s.minX, s.maxX = math.Min(s.minX, x), math.Max(s.maxX, x)
					s.minY, s.maxY = math.Min(s.minY, y), math.Max(s.maxY, y)
				}
				s.rings = append(s.rings, pr)
			}
			s.index()
			if s.minX > extent[2] || s.maxX < extent[0] || s.minY > extent[3] || s.maxY < extent[1] {
				continue
			}
			out = append(out, s)
		}
	}
	return out
}

// contains reports whether the point is inside the shape: the even-odd rule
// over the outer ring and its holes, counting the edges that cross the ray
// from the point towards +x.
func (s *shape) contains(pt xy) bool {
	if pt[0] < s.minX || pt[0] > s.maxX || pt[1] < s.minY || pt[1] > s.maxY {
		return false
	}
	in := false
	for _, e := range s.bands[int(math.Floor(pt[1]/bandKm))] {
		a, b := e[0], e[1]
		if (a[1] > pt[1]) != (b[1] > pt[1]) &&
			pt[0] < (b[0]-a[0])*(pt[1]-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}
