package kriegsmarine

import (
	"fmt"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// conforming is the ruleset with what its conformance suite needs to know.
type conforming struct{ Ruleset }

// Hide changes, in a copy, what side may not know: the enemy's untracked
// ships (their damage, flooding and the points spent towards an arrow,
// 6.16), the enemy's private reports, and, for the Allies before the end,
// the German objective roll (4.43).
func (conforming) Hide(st engine.State, side engine.Side, k int) engine.State {
	s := st.(*State).clone()
	enemy := other(side)
	tracked := map[string]bool{}
	for _, t := range s.Tracks {
		for _, id := range append(append([]string(nil), t.TrackedUnits...), t.TrackerUnits...) {
			tracked[id] = true
		}
	}
	for i := range s.Units {
		u := &s.Units[i]
		if def(u.ID).Side != enemy || tracked[u.ID] || u.Where == AtSunk {
			continue
		}
		u.Flooding += k % 2
		u.TorpUsed += k % 3
	}
	s.Log = append(s.Log, Entry{Turn: s.Turn, To: string(enemy), Kind: "search", Hex: "A13", Count: k})
	if side == Allied && !s.Over {
		s.Objective.Roll = 1 + (s.Objective.Roll+k)%6
	}
	return s
}

// Invariants: every unit is one of a kind, with no fewer than no hits;
// a unit sunk stays sunk; a finished game's points are the sum of the
// reasons it lists (16.0).
func (conforming) Invariants(prev, next engine.State) error {
	s := next.(*State)
	if s.Over && s.Result != nil {
		sum := map[engine.Side]int{Allied: 0, German: 0}
		for _, l := range s.score() {
			sum[l.Side] += l.Points
		}
		if s.Result.Points[Allied] != sum[Allied] || s.Result.Points[German] != sum[German] {
			return fmt.Errorf("points %v, their reasons add up to %v", s.Result.Points, sum)
		}
	}
	seen := map[string]*Unit{}
	for i := range s.Units {
		u := &s.Units[i]
		if seen[u.ID] != nil {
			return fmt.Errorf("unit %s twice", u.ID)
		}
		seen[u.ID] = u
		if u.Hits < 0 || u.Flooding < 0 {
			return fmt.Errorf("unit %s has %d hits and %d flooding", u.ID, u.Hits, u.Flooding)
		}
	}
	if prev == nil {
		return nil
	}
	for _, u := range prev.(*State).Units {
		if u.Where == AtSunk && seen[u.ID].Where != AtSunk {
			return fmt.Errorf("sunk unit %s is back, %s", u.ID, seen[u.ID].Where)
		}
	}
	return nil
}

func TestConformance(t *testing.T) { enginetest.Conformance(t, conforming{}) }

// ConformanceSetups adds to the usual set-ups Bismarck with each Allied
// answer (4.5), and every option at once with one answer.
func (r conforming) ConformanceSetups() []engine.Setup {
	out := enginetest.DefaultSetups(r)
	cur := engine.CurrentRevision(r)
	var all []string
	for _, o := range r.Options() {
		if o.ID != "bismarck-strasbourg" && o.ID != "bismarck-french" {
			all = append(all, o.ID)
		}
	}
	for _, answer := range []string{"bismarck-hood", "bismarck-strasbourg", "bismarck-french"} {
		out = append(out, engine.Setup{Options: []string{"bismarck", answer}, Revision: cur})
	}
	return append(out, engine.Setup{Options: all, Revision: cur})
}
