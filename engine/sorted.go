package engine

import "sort"

// SortedKeys returns the keys of m sorted: the order to walk a map in
// when the walk decides anything (resolution never depends on Go's map
// order).
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SortHexes sorts hs by row, then column.
func SortHexes(hs []Hex) {
	sort.Slice(hs, func(i, j int) bool {
		if hs[i].Row != hs[j].Row {
			return hs[i].Row < hs[j].Row
		}
		return hs[i].Col < hs[j].Col
	})
}

// SortedHexes returns the hexes that key m, sorted as SortHexes does.
func SortedHexes[V any](m map[Hex]V) []Hex {
	var out []Hex
	for h := range m {
		out = append(out, h)
	}
	SortHexes(out)
	return out
}

// Find is the first element of xs that match accepts, or nil: a pointer
// into xs, to read or change it in place.
func Find[T any](xs []T, match func(*T) bool) *T {
	for i := range xs {
		if match(&xs[i]) {
			return &xs[i]
		}
	}
	return nil
}
