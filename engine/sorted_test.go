package engine

import (
	"reflect"
	"testing"
)

func TestSortedKeysAndHexes(t *testing.T) {
	if got := SortedKeys(map[string]int{"b": 1, "a": 2, "c": 3}); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("SortedKeys = %v, want a b c", got)
	}
	hs := map[Hex]bool{{Row: 2, Col: 1}: true, {Row: 1, Col: 5}: true, {Row: 1, Col: 2}: true}
	want := []Hex{{Row: 1, Col: 2}, {Row: 1, Col: 5}, {Row: 2, Col: 1}}
	if got := SortedHexes(hs); !reflect.DeepEqual(got, want) {
		t.Errorf("SortedHexes = %v, want %v (row, then column)", got, want)
	}
}

func TestWithoutFailedDropsTheNamedLines(t *testing.T) {
	lines := []string{"a", "b", "c"}
	got := WithoutFailed(lines, []LineError{{Line: 2}, {Line: 2}, {Line: 0}})
	if !reflect.DeepEqual(got, []string{"a", "c"}) {
		t.Errorf("WithoutFailed = %v, want a c (line 2 is b)", got)
	}
	if got := WithoutFailed(lines, []LineError{{Line: 1}, {Line: 2}, {Line: 3}}); got != nil {
		t.Errorf("WithoutFailed of every line = %#v, want nil", got)
	}
}

func TestPhaseAwaits(t *testing.T) {
	ph := Phase{Owes: []Side{"allied", "german"}}
	if !ph.Awaits("german") || ph.Awaits("norwegian") {
		t.Errorf("%v: Awaits(german) %v, Awaits(norwegian) %v; want true, false", ph.Owes, ph.Awaits("german"), ph.Awaits("norwegian"))
	}
}

func TestEdgeKind(t *testing.T) {
	g := NewAreaGraph()
	g.AddArea("a")
	g.AddArea("b")
	g.AddArea("c")
	if err := g.Connect("a", "b", "rail"); err != nil {
		t.Fatal(err)
	}
	if g.EdgeKind("a", "b") != "rail" || g.EdgeKind("b", "a") != "rail" || g.EdgeKind("a", "c") != "" {
		t.Errorf("EdgeKind a-b %q, b-a %q, a-c %q; want rail, rail, none", g.EdgeKind("a", "b"), g.EdgeKind("b", "a"), g.EdgeKind("a", "c"))
	}
}

func TestFindPointsIntoTheSlice(t *testing.T) {
	xs := []Hex{{Row: 1, Col: 1}, {Row: 2, Col: 2}, {Row: 2, Col: 3}}
	p := Find(xs, func(h *Hex) bool { return h.Row == 2 })
	if p == nil || *p != (Hex{Row: 2, Col: 2}) {
		t.Fatalf("Find row 2 = %v, want the first, B2", p)
	}
	p.Col = 9
	if xs[1].Col != 9 {
		t.Error("Find's pointer does not point into the slice")
	}
	if Find(xs, func(h *Hex) bool { return h.Row == 3 }) != nil {
		t.Error("Find of no match is not nil")
	}
}

func TestQueuePopsTheLeastFirst(t *testing.T) {
	q := NewQueue(func(a, b int) bool { return a < b }, 5)
	for _, x := range []int{3, 8, 1, 5} {
		q.Push(x)
	}
	var got []int
	for q.Len() > 0 {
		got = append(got, q.Pop())
	}
	if !reflect.DeepEqual(got, []int{1, 3, 5, 5, 8}) {
		t.Errorf("popped %v, want 1 3 5 5 8", got)
	}
}
