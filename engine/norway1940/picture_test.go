package norway1940

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
	"skagerrak/engine/picture"
)

// playPhasesForPicture plays n phases of a game with the scripted players
// straight through the Ruleset, with seeded dice, and returns the states:
// the first at the start, then one after each phase.
func playPhasesForPicture(t *testing.T, seed string, n int) []*State {
	t.Helper()
	p := enginetest.Scripted{Secret: seed, Game: "pic", SetupPhase: "new", Phases: n,
		PlayerPhase: func(phase string, side engine.Side) string { return phase + "/" + string(side) }}.Play(t, Ruleset{})
	var out []*State
	for _, st := range p.States {
		out = append(out, st.(*State))
	}
	return out
}

func pictureOf(t *testing.T, s *State, side engine.Side) []byte {
	t.Helper()
	b, err := Ruleset{}.Picture(Ruleset{}.View(s, side), side)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPictureSameViewSameBytes(t *testing.T) {
	s := playPhasesForPicture(t, "picture-same", 6)[6]
	for _, side := range []engine.Side{German, Allied} {
		a, b := pictureOf(t, s, side), pictureOf(t, s.clone(), side)
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: the same view gave different pictures", side)
		}
		if _, err := png.DecodeConfig(bytes.NewReader(a)); err != nil {
			t.Fatalf("%s: not a picture: %v", side, err)
		}
		// The view read back from its JSON, as a report carries it, draws
		// the same picture.
		var back View
		if err := json.Unmarshal(mustJSON(t, Ruleset{}.View(s, side)), &back); err != nil {
			t.Fatal(err)
		}
		c, err := Ruleset{}.Picture(&back, side)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, c) {
			t.Fatalf("%s: the view read back from JSON gave a different picture", side)
		}
	}
	if bytes.Equal(pictureOf(t, s, German), pictureOf(t, s, Allied)) {
		t.Error("the German and the Allied maps are the same picture")
	}
}

// markersIn returns the markers of the draw list by area.
func markersIn(m *picture.AreaMap) map[string][]picture.AreaMarker {
	out := map[string][]picture.AreaMarker{}
	for _, mk := range m.Markers {
		out[mk.Area] = append(out[mk.Area], mk)
	}
	return out
}

func TestPictureOfEachSideAfterAFewTurnsShowsWhatTheSideKnows(t *testing.T) {
	states := playPhasesForPicture(t, "picture-look", 20)
	for _, n := range []int{0, 8, 20} {
		s := states[n]
		for _, side := range []engine.Side{German, Allied} {
			v := viewOf(s, side)
			m := mapPicture(v, side)
			b, err := m.PNG()
			if err != nil {
				t.Fatal(err)
			}
			enginetest.KeepPicture(t, fmt.Sprintf("norway1940-%s-%02d.png", side, n), b)
			got := markersIn(m)
			// Own land units: box markers in their areas, one per
			// nation, counting every unit there.
			want := map[string]int{}
			for _, u := range s.Units {
				if u.Side == side && !u.Dead && u.Fleet == "" && u.Type != "supply" && data.Graph.Has(u.Loc) {
					want[u.Loc]++
				}
			}
			for area, n := range want {
				c := 0
				for _, mk := range got[area] {
					if mk.Shape == picture.ShapeBox && !strings.HasPrefix(mk.Text, "G") && !strings.HasPrefix(mk.Text, "A") {
						k, _ := strconv.Atoi(mk.Text)
						c += k
					}
				}
				if c != n {
					t.Errorf("after %d phases, %s map: %d own units drawn in %s, want %d", n, side, c, area, n)
				}
			}
			// Enemy land units: diamonds only where the View shows them.
			seen := map[string]bool{}
			for _, u := range v.Units {
				if u.Side != side {
					seen[u.Loc] = true
				}
			}
			for area, ms := range got {
				for _, mk := range ms {
					if mk.Shape == picture.ShapeDiamond && !isFleetMarker(mk.Text) && !seen[area] {
						t.Errorf("after %d phases, %s map: enemy marker %q in %s, where the view shows no enemy unit", n, side, mk.Text, area)
					}
				}
			}
			// Each fleet: own ones by name, enemy undetected ones as "?"
			// markers whose contents the notes do not tell.
			for _, f := range s.Fleets {
				text := f.ID
				if f.Side != side && !f.Detected {
					text += "?"
				}
				if !hasMarker(got[f.Where], text) {
					t.Errorf("after %d phases, %s map: no marker %q at %s", n, side, text, f.Where)
				}
				if f.Side != side && !f.Detected {
					for _, note := range m.Notes {
						if strings.HasPrefix(note, f.ID+" at") && strings.Contains(note, "combat") {
							t.Errorf("after %d phases, %s map: the note %q tells an undetected fleet's contents", n, side, note)
						}
					}
				}
			}
		}
	}
}

func isFleetMarker(text string) bool {
	text = strings.TrimSuffix(text, "?")
	return fleetIDRe.MatchString(text)
}

func hasMarker(ms []picture.AreaMarker, text string) bool {
	for _, mk := range ms {
		if mk.Text == text {
			return true
		}
	}
	return false
}

// hideFromPicture changes, with the dice, what side x may not know of side
// y: the contents of y's undetected fleets (points, decoys, nation, goal,
// cargo), y's units off the map or embarked in them, y's naval points in
// port, air points, decoys, submarines and standing orders.
func hideFromPicture(s *State, y engine.Side, d engine.Dice) {
	var hidden []*Fleet
	for _, f := range s.Fleets {
		if f.Side == y && !f.Detected {
			hidden = append(hidden, f)
			f.Combat, f.Transport, f.Decoys = d.Roll(12, "combat"), d.Roll(9, "transport")-1, d.Roll(3, "decoys")-1
			f.Nation, f.Goal = []string{"british", "norwegian", "german", "french"}[d.Roll(4, "nation")-1], ""
		}
	}
	for _, u := range s.Units {
		if u.Side != y || u.Dead || data.Graph.Has(u.Loc) {
			continue
		}
		if u.Fleet != "" {
			if f := s.fleet(u.Fleet); f != nil && f.Detected {
				continue
			}
		}
		u.Steps, u.Entry = d.Roll(2, "steps"), d.Roll(21, "entry")
		if len(hidden) > 0 && d.Roll(2, "embark") == 1 {
			if g := s.fleet(u.Fleet); g != nil {
				var rest []string
				for _, id := range g.Cargo {
					if id != u.ID {
						rest = append(rest, id)
					}
				}
				g.Cargo = rest
			}
			f := hidden[d.Roll(len(hidden), "fleet")-1]
			u.Fleet, u.Loc = f.ID, ""
			f.Cargo = append(f.Cargo, u.ID)
		}
	}
	for _, p := range s.Pools {
		if p.Side == y {
			p.Combat, p.Transport = d.Roll(30, "pool")-1, d.Roll(30, "pool")-1
		}
	}
	ss := s.side(y)
	for i := range ss.Air {
		ss.Air[i].Used = d.Roll(3, "air") - 1
	}
	for i := range ss.Decoys {
		ss.Decoys[i].N = d.Roll(8, "decoys") - 1
	}
	ss.Subs = d.Roll(5, "subs") - 1
	ss.Standing = Standing{Keep: d.Roll(5, "keep") - 1, Evade: "always", React: d.Roll(2, "react") == 1}
}

func TestPictureFogOfWar(t *testing.T) {
	checked := 0
	states := playPhasesForPicture(t, "picture-fog", 12)
	for _, n := range []int{1, 7, 12} {
		s := states[n]
		for _, x := range []engine.Side{German, Allied} {
			want, wantList := pictureOf(t, s, x), mustJSON(t, mapPicture(viewOf(s, x), x))
			for k := 0; k < 3; k++ {
				c := s.clone()
				hideFromPicture(c, other(x), engine.NewSeededDice([]byte("picture-fog"), PhaseOf(s).ID, fmt.Sprintf("%s%d", x, k), [32]byte{}))
				if bytes.Equal(mustJSON(t, c), mustJSON(t, s)) {
					t.Fatalf("after %d phases: nothing hidden from the %s changed", n, x)
				}
				// The draw list makes the bytes; the first change is
				// drawn in full.
				if got := mustJSON(t, mapPicture(viewOf(c, x), x)); !bytes.Equal(got, wantList) {
					t.Fatalf("after %d phases: the %s map's draw list changed when only things hidden from it changed", n, x)
				}
				if k == 0 && !bytes.Equal(pictureOf(t, c, x), want) {
					t.Fatalf("after %d phases: the %s picture changed when only things hidden from it changed", n, x)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
	// What the side does see changes the picture: an enemy fleet once
	// detected, an enemy land unit moved.
	s := states[7]
	want := pictureOf(t, s, Allied)
	c := s.clone()
	found := false
	for _, f := range c.Fleets {
		if f.Side == German && !f.Detected {
			f.Detected, found = true, true
			break
		}
	}
	if !found {
		t.Fatal("no undetected German fleet after seven phases")
	}
	if bytes.Equal(pictureOf(t, c, Allied), want) {
		t.Error("detecting a German fleet left the Allied picture unchanged")
	}
	c = s.clone()
	for _, u := range c.Units {
		if u.Side == German && !u.Dead && u.Fleet == "" && data.Graph.Has(u.Loc) {
			u.Loc = "Tromso"
			found = false
			break
		}
	}
	if found {
		t.Fatal("no German land unit on the map after seven phases")
	}
	if bytes.Equal(pictureOf(t, c, Allied), want) {
		t.Error("moving a German land unit left the Allied picture unchanged")
	}
}

func mustJSON(t *testing.T, x any) []byte {
	t.Helper()
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPictureRejectsAnotherSidesView(t *testing.T) {
	s := playPhasesForPicture(t, "picture-reject", 0)[0]
	r := Ruleset{}
	if _, err := r.Picture(r.View(s, German), Allied); err == nil {
		t.Error("the German view was drawn as the Allied map")
	}
	if _, err := r.Picture(r.View(s, German), "swedish"); err == nil {
		t.Error("a map was drawn for an unknown side")
	}
	if _, err := r.Picture("not a view", German); err == nil {
		t.Error("a map was drawn from something that is not a view")
	}
	if _, err := r.Picture((*View)(nil), German); err == nil {
		t.Error("a map was drawn from a nil view")
	}
}

// TestPictureLayout checks the map's layout: Norway runs from Kristiansand
// in the south to Tromso in the north, Bergen lies west of Oslo and Sweden
// east; no area's box (with its badges above it and room for a marker
// under it) covers another's.
func TestPictureLayout(t *testing.T) {
	s := playPhasesForPicture(t, "picture-layout", 0)[0]
	m := mapPicture(viewOf(s, German), German)
	at := map[string]picture.Area{}
	for _, a := range m.Areas {
		at[a.ID] = a
	}
	north := []string{"Kristiansand", "Oslo", "Hamar", "Dombas", "Trondheim", "Namsos", "Mosjoen", "Bodo", "Narvik", "Tromso"}
	for i := 1; i < len(north); i++ {
		if at[north[i]].Y >= at[north[i-1]].Y {
			t.Errorf("%s is drawn at y %d, not north of %s at y %d", north[i], at[north[i]].Y, north[i-1], at[north[i-1]].Y)
		}
	}
	if at["Bergen"].X >= at["Oslo"].X || at["Sweden"].X <= at["Oslo"].X || at["Stavanger"].X >= at["Kristiansand"].X {
		t.Error("Bergen, Oslo, Sweden or Stavanger drawn on the wrong side")
	}
	for _, a := range data.Areas {
		if _, ok := at[a.Name]; !ok {
			t.Errorf("area %s not drawn", a.Name)
		}
	}
	for _, b := range data.Boxes {
		if _, ok := at[b.Name]; !ok {
			t.Errorf("naval box %s not drawn", b.Name)
		}
	}
	room := func(a picture.Area) image.Rectangle {
		hw := max(7*len(a.Label)+12, 30) / 2
		r := image.Rect(a.X-hw, a.Y-10, a.X+hw, a.Y+10)
		if len(a.Badges) > 0 {
			r.Min.Y = a.Y - 21
		}
		return r
	}
	under := func(a picture.Area) image.Rectangle { return image.Rect(a.X-10, a.Y+16, a.X+10, a.Y+32) }
	for i, a := range m.Areas {
		for j, b := range m.Areas {
			if i == j {
				continue
			}
			if i < j && room(a).Overlaps(room(b)) {
				t.Errorf("the boxes of %s and %s overlap: %v %v", a.ID, b.ID, room(a), room(b))
			}
			if under(a).Overlaps(room(b)) {
				t.Errorf("a marker under %s would cover %s", a.ID, b.ID)
			}
		}
	}
}

func TestPictureMarksDepotsAirfieldsAndControl(t *testing.T) {
	st, err := Ruleset{}.New(engine.Setup{Options: []string{OptNorwegianDepots}}, engine.NewSeededDice([]byte("picture-marks"), "pic", "new", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if len(s.Depots) == 0 {
		t.Fatal("no depot markers with option 16.4")
	}
	s.addMark("Dombas")
	s.addMark("Dombas")
	s.airfield("Stavanger").Hits = 1
	s.setControl("Bergen", German)
	for _, side := range []engine.Side{German, Allied} {
		m := mapPicture(viewOf(s, side), side)
		got := markersIn(m)
		if !hasMarker(got["Dombas"], "2") {
			t.Errorf("%s map: no marker of the two interdiction markers at Dombas: %v", side, got["Dombas"])
		}
		for _, d := range s.Depots {
			if !hasMarker(got[d.Area], "D") {
				t.Errorf("%s map: no depot marker at %s", side, d.Area)
			}
		}
		for _, a := range m.Areas {
			switch a.ID {
			case "Stavanger":
				hit := false
				for _, b := range a.Badges {
					hit = hit || (b.Shape == picture.ShapePlus && b.Color == picHit)
				}
				if !hit {
					t.Errorf("%s map: Stavanger's airfield not marked as hit", side)
				}
			case "Bergen":
				if a.Fill != picGermanCt {
					t.Errorf("%s map: German-held Bergen filled %v, want %v", side, a.Fill, picGermanCt)
				}
			case "Oslo":
				if a.Fill != picAlliedCt {
					t.Errorf("%s map: Allied-held Oslo filled %v, want %v", side, a.Fill, picAlliedCt)
				}
			}
		}
	}
	// Which depots are real no side knows: the pictures do not tell.
	c := s.clone()
	for _, d := range c.Depots {
		d.Real = !d.Real
	}
	for _, side := range []engine.Side{German, Allied} {
		if !bytes.Equal(pictureOf(t, s, side), pictureOf(t, c, side)) {
			t.Errorf("%s map: the picture tells which depot markers are real", side)
		}
	}
}

func TestPictureGameOver(t *testing.T) {
	s := playPhasesForPicture(t, "picture-over", 2)[2].clone()
	s.finish(German, "points", "German victory on points", true)
	if !PhaseOf(s).Over {
		t.Fatal("the game is not over")
	}
	for _, side := range []engine.Side{German, Allied} {
		m := mapPicture(viewOf(s, side), side)
		if !strings.Contains(m.Subtitle, "game over") || !strings.Contains(m.Subtitle, "German victory on points") {
			t.Errorf("%s map at the end: subtitle %q", side, m.Subtitle)
		}
		if _, err := m.PNG(); err != nil {
			t.Errorf("%s map at the end: %v", side, err)
		}
	}
}
