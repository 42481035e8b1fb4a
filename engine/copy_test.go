package engine

import (
	"encoding/json"
	"testing"
)

type copyInner struct {
	Name  string
	Tags  []string
	Score *int
}

type copyState struct {
	Turn   int
	Units  []*copyInner
	ByName map[string]copyInner
	Empty  []int
	Nil    []int
	Any    any
	Arr    [2][]int
	hidden int
}

func TestDeepCopySharesNothing(t *testing.T) {
	five := 5
	s := &copyState{Turn: 3, Units: []*copyInner{{Name: "Glasgow", Tags: []string{"CL"}, Score: &five}},
		ByName: map[string]copyInner{"Hipper": {Name: "Hipper", Tags: []string{"CA"}}}, Empty: []int{},
		Any: map[string]any{"x": []int{1}}, Arr: [2][]int{{1}, {2}}, hidden: 9}
	before, _ := json.Marshal(s)
	c := DeepCopy(s)
	after, _ := json.Marshal(c)
	if string(before) != string(after) || c.hidden != 9 {
		t.Fatalf("copy differs:\n%s\n%s", before, after)
	}
	// Change everything reachable from the copy: the original must not move.
	c.Turn = 4
	c.Units[0].Name = "Sheffield"
	c.Units[0].Tags[0] = "XX"
	*c.Units[0].Score = 6
	inner := c.ByName["Hipper"]
	inner.Tags[0] = "XX"
	c.Any.(map[string]any)["x"].([]int)[0] = 7
	c.Arr[1][0] = 7
	c.Empty = append(c.Empty, 1)
	now, _ := json.Marshal(s)
	if string(now) != string(before) {
		t.Fatalf("changing the copy changed the original:\n%s\n%s", before, now)
	}
	if c.Nil != nil || s.Empty == nil {
		t.Error("nil and empty slices are not kept apart")
	}
}

func BenchmarkDeepCopyVsJSON(b *testing.B) {
	s := &copyState{ByName: map[string]copyInner{}}
	for i := 0; i < 300; i++ {
		n := i
		s.Units = append(s.Units, &copyInner{Name: "u", Tags: []string{"a", "b"}, Score: &n})
	}
	b.Run("deepcopy", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = DeepCopy(s)
		}
	})
	b.Run("json", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			j, _ := json.Marshal(s)
			var c copyState
			_ = json.Unmarshal(j, &c)
		}
	})
}
