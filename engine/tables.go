package engine

import (
	"fmt"
	"sort"
)

// TableRow is one line of a dice table: the rolls Lo..Hi (inclusive) give
// Result.
type TableRow[T any] struct {
	Lo, Hi int
	Result T
}

// Table is a dice table keyed by roll ranges, e.g. "2-4: evade".
type Table[T any] struct {
	// Name is the table's name, for errors and reports.
	Name string
	Rows []TableRow[T]
}

// NewTable builds a table and checks that its ranges do not overlap.
func NewTable[T any](name string, rows ...TableRow[T]) (Table[T], error) {
	t := Table[T]{Name: name, Rows: append([]TableRow[T](nil), rows...)}
	sort.Slice(t.Rows, func(i, j int) bool { return t.Rows[i].Lo < t.Rows[j].Lo })
	for i, r := range t.Rows {
		if r.Lo > r.Hi {
			return t, fmt.Errorf("engine: table %s: row %d-%d is empty", name, r.Lo, r.Hi)
		}
		if i > 0 && r.Lo <= t.Rows[i-1].Hi {
			return t, fmt.Errorf("engine: table %s: rows %d-%d and %d-%d overlap", name, t.Rows[i-1].Lo, t.Rows[i-1].Hi, r.Lo, r.Hi)
		}
	}
	return t, nil
}

// MustTable is NewTable for tables written in code; it panics on a bad table.
func MustTable[T any](name string, rows ...TableRow[T]) Table[T] {
	t, err := NewTable(name, rows...)
	if err != nil {
		panic(err)
	}
	return t
}

// Lookup returns the result for roll. Rolls below the first row take the
// first row and rolls above the last take the last (modified rolls clamp, as
// every rulebook here reads "or less" and "or more" on its end rows).
func (t Table[T]) Lookup(roll int) T {
	if len(t.Rows) == 0 {
		var zero T
		return zero
	}
	if roll < t.Rows[0].Lo {
		return t.Rows[0].Result
	}
	for _, r := range t.Rows {
		if roll >= r.Lo && roll <= r.Hi {
			return r.Result
		}
	}
	last := t.Rows[len(t.Rows)-1]
	if roll > last.Hi {
		return last.Result
	}
	// A gap between rows: the nearest row below.
	var best TableRow[T]
	for _, r := range t.Rows {
		if r.Hi < roll {
			best = r
		}
	}
	return best.Result
}
