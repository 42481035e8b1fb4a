package engine

import (
	"fmt"
	"slices"
	"sort"
)

// Edge is a connection between two areas of an area map, of some kind
// ("road", "rail", "sea", "strait", ...) chosen by the ruleset.
type Edge struct {
	From, To string
	Kind     string
}

// AreaGraph is an undirected graph of named areas. Build it with AddArea and
// Connect; it answers adjacency and path questions deterministically (ties
// broken by area name).
type AreaGraph struct {
	areas map[string]bool
	adj   map[string][]Edge
}

// NewAreaGraph returns an empty graph.
func NewAreaGraph() *AreaGraph {
	return &AreaGraph{areas: map[string]bool{}, adj: map[string][]Edge{}}
}

// AddArea adds an area by name.
func (g *AreaGraph) AddArea(name string) { g.areas[name] = true }

// Has reports whether the area exists.
func (g *AreaGraph) Has(name string) bool { return g.areas[name] }

// Areas returns every area name, sorted.
func (g *AreaGraph) Areas() []string {
	out := make([]string, 0, len(g.areas))
	for a := range g.areas {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// Connect adds an edge of a kind between two existing areas, both ways.
func (g *AreaGraph) Connect(a, b, kind string) error {
	if !g.areas[a] {
		return fmt.Errorf("engine: area graph: unknown area %q", a)
	}
	if !g.areas[b] {
		return fmt.Errorf("engine: area graph: unknown area %q", b)
	}
	g.adj[a] = insertEdge(g.adj[a], Edge{From: a, To: b, Kind: kind})
	g.adj[b] = insertEdge(g.adj[b], Edge{From: b, To: a, Kind: kind})
	return nil
}

func insertEdge(es []Edge, e Edge) []Edge {
	for _, x := range es {
		if x == e {
			return es
		}
	}
	es = append(es, e)
	sort.Slice(es, func(i, j int) bool {
		if es[i].To != es[j].To {
			return es[i].To < es[j].To
		}
		return es[i].Kind < es[j].Kind
	})
	return es
}

// Edges returns the edges leaving area a, sorted by destination then kind.
func (g *AreaGraph) Edges(a string) []Edge { return append([]Edge(nil), g.adj[a]...) }

// EdgeKind is the kind of the connection a-b, or "" where there is none.
func (g *AreaGraph) EdgeKind(a, b string) string {
	for _, e := range g.adj[a] {
		if e.To == b {
			return e.Kind
		}
	}
	return ""
}

// Adjacent reports whether a and b share an edge, of any of kinds (any kind
// when none is given).
func (g *AreaGraph) Adjacent(a, b string, kinds ...string) bool {
	for _, e := range g.adj[a] {
		if e.To == b && (len(kinds) == 0 || containsString(kinds, e.Kind)) {
			return true
		}
	}
	return false
}

// Neighbors returns the distinct areas adjacent to a, sorted.
func (g *AreaGraph) Neighbors(a string) []string {
	var out []string
	for _, e := range g.adj[a] {
		if len(out) == 0 || out[len(out)-1] != e.To {
			out = append(out, e.To)
		}
	}
	return out
}

// CostFunc prices one step along an edge; ok=false forbids the step.
type CostFunc func(e Edge) (cost int, ok bool)

// Path is a route through an area graph.
type Path struct {
	Areas []string
	Cost  int
}

// ShortestPath finds the cheapest route from a to b under cost (Dijkstra;
// ties between equal-cost routes are broken by area names, so the answer is
// deterministic). ok is false when b cannot be reached.
func (g *AreaGraph) ShortestPath(a, b string, cost CostFunc) (Path, bool) {
	if !g.areas[a] || !g.areas[b] {
		return Path{}, false
	}
	dist := map[string]int{a: 0}
	prev := map[string]string{}
	done := map[string]bool{}
	pq := NewQueue(pathFirst, pathItem{area: a})
	for pq.Len() > 0 {
		it := pq.Pop()
		if done[it.area] {
			continue
		}
		done[it.area] = true
		if it.area == b {
			break
		}
		for _, e := range g.adj[it.area] {
			c, ok := cost(e)
			if !ok || c < 0 {
				continue
			}
			nd := it.cost + c
			if d, seen := dist[e.To]; !seen || nd < d || (nd == d && it.area < prev[e.To]) {
				dist[e.To] = nd
				prev[e.To] = it.area
				pq.Push(pathItem{area: e.To, cost: nd})
			}
		}
	}
	if !done[b] {
		return Path{}, false
	}
	var rev []string
	for at := b; ; at = prev[at] {
		rev = append(rev, at)
		if at == a {
			break
		}
	}
	p := Path{Cost: dist[b]}
	for i := len(rev) - 1; i >= 0; i-- {
		p.Areas = append(p.Areas, rev[i])
	}
	return p, true
}

// Reachable returns every area reachable from a within budget under cost,
// with its cheapest cost, as sorted area names.
func (g *AreaGraph) Reachable(a string, budget int, cost CostFunc) map[string]int {
	dist := map[string]int{a: 0}
	pq := NewQueue(pathFirst, pathItem{area: a})
	for pq.Len() > 0 {
		it := pq.Pop()
		if it.cost > dist[it.area] {
			continue
		}
		for _, e := range g.adj[it.area] {
			c, ok := cost(e)
			if !ok || c < 0 {
				continue
			}
			nd := it.cost + c
			if nd > budget {
				continue
			}
			if d, seen := dist[e.To]; !seen || nd < d {
				dist[e.To] = nd
				pq.Push(pathItem{area: e.To, cost: nd})
			}
		}
	}
	return dist
}

type pathItem struct {
	area string
	cost int
}

// pathFirst orders a path search's queue: cheapest first, then by area
// name.
func pathFirst(a, b pathItem) bool {
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	return a.area < b.area
}

func containsString(xs []string, s string) bool {
	return slices.Contains(xs, s)
}
