package kriegsmarine

import (
	"bytes"
	"image"
	"image/color"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
	"skagerrak/engine/picture"
)

// playTurnsForPicture plays n turns of a game with the scripted players
// straight through the Ruleset and returns the state.
func playTurnsForPicture(t *testing.T, seed string, n int) *State {
	t.Helper()
	return enginetest.Scripted{Secret: seed, Game: "pic", Phases: n}.Play(t, Ruleset{}).Final().(*State)
}

func drawn(t *testing.T, v *View, side engine.Side) (*picture.HexMap, *image.RGBA) {
	t.Helper()
	m := mapPicture(v, side)
	img, err := m.Image()
	if err != nil {
		t.Fatal(err)
	}
	return m, img
}

// hasColourNear reports whether a pixel of colour c lies within r pixels of
// hex h's centre.
func hasColourNear(m *picture.HexMap, img *image.RGBA, h engine.Hex, c color.RGBA, r int) bool {
	p := m.Center(h.Row, h.Col)
	for y := p.Y - r; y <= p.Y+r; y++ {
		for x := p.X - r; x <= p.X+r; x++ {
			if img.RGBAAt(x, y) == c {
				return true
			}
		}
	}
	return false
}

// TestPictureDeterministic: the same View, or the View read back from its
// JSON as players' tools get it, always draws the same bytes.
func TestPictureDeterministic(t *testing.T) {
	enginetest.PictureStable(t, Ruleset{}, playTurnsForPicture(t, "picture-1", 4))
}

func TestPictureRejectsAnotherSidesView(t *testing.T) {
	r := Ruleset{}
	s := newGame(t, nil)
	if _, err := r.Picture(r.View(s, Allied), German); err == nil {
		t.Error("the Allied view drawn as the German map gave no error")
	}
	if _, err := r.Picture(r.View(s, Allied), "french"); err == nil {
		t.Error("an unknown side gave no error")
	}
}

func TestPictureMapColours(t *testing.T) {
	v := Ruleset{}.View(newGame(t, nil), Allied).(*View)
	m, img := drawn(t, v, Allied)
	tm := TheMap()
	checked := map[string]bool{}
	for _, h := range tm.Grid().All() {
		hi, _ := tm.Info(h)
		p := m.Center(h.Row, h.Col)
		got := img.RGBAAt(p.X, p.Y)
		var want color.RGBA
		switch {
		case hi.Terrain == Sea && !checked["sea"] && !hasColourNear(m, img, h, picAllied, 12):
			want, checked["sea"] = picSea, true
		case hi.Terrain == Land && !hi.Fjord && mainCountry(hi) == "NO" && !checked["no"]:
			want, checked["no"] = countryColours["NO"], true
		case hi.Terrain == Coastal && !hi.Fjord && mainCountry(hi) == "NO" && !checked["noc"] && hi.Port == "" && hi.Airfield == nil:
			want, checked["noc"] = lighter(countryColours["NO"]), true
		default:
			continue
		}
		if got != want {
			t.Errorf("centre of %s (%s %v) is %v, want %v", h, hi.Terrain, hi.Countries, got, want)
		}
	}
	if len(checked) != 3 {
		t.Errorf("checked %v, want a sea, a Norwegian land and a Norwegian coastal hex", checked)
	}
	// Every port is labelled with its name.
	labels := map[string]bool{}
	for _, c := range m.Cells {
		labels[c.Label] = true
	}
	for _, p := range tm.Ports() {
		if !labels[p.Port] {
			t.Errorf("port %s is not labelled", p.Port)
		}
	}
}

// TestPictureOfEachSide draws both sides' maps after a few turns of a game
// of the scripted players, and checks that each shows the side's own units
// where they are and no enemy the side has not been told of.
func TestPictureOfEachSide(t *testing.T) {
	r := Ruleset{}
	for _, turns := range []int{0, 3, 6, LastTurn} {
		s := playTurnsForPicture(t, "picture-1", turns)
		for _, side := range r.Sides() {
			v := r.View(s, side).(*View)
			b, err := r.Picture(v, side)
			if err != nil {
				t.Fatal(err)
			}
			enginetest.KeepPicture(t, string(side)+"-turn"+string(rune('0'+s.Turn/10))+string(rune('0'+s.Turn%10))+".png", b)
			m, img := drawn(t, v, side)
			own := picAllied
			if side == German {
				own = picGerman
			}
			ownHexes := map[engine.Hex]bool{}
			for _, u := range s.Units {
				d := def(u.ID)
				if d.Side != side || u.Where != AtMap {
					continue
				}
				ownHexes[u.Hex] = true
				if !hasColourNear(m, img, u.Hex, own, 12) {
					t.Errorf("turn %d %s: %s at %s has no marker there", s.Turn, side, d.Name, u.Hex)
				}
			}
			// Enemy markers stand only where the view reports the enemy.
			told := map[engine.Hex]bool{}
			for _, e := range v.Reports {
				if h, ok := onMapHex(e.Hex); ok && e.Count > 0 {
					told[h] = true
				}
			}
			for _, tr := range v.Tracking {
				if h, ok := onMapHex(tr.Hex); ok {
					told[h] = true
				}
			}
			contacts := 0
			for _, mk := range m.Markers {
				if mk.Shape != picture.ShapeDiamond {
					continue
				}
				contacts++
				if !told[engine.Hex{Row: mk.Row, Col: mk.Col}] {
					t.Errorf("turn %d %s: an enemy marker at %s%d the view does not report", s.Turn, side, engine.RowName(mk.Row), mk.Col)
				}
			}
			for _, u := range s.Units {
				d := def(u.ID)
				if d.Side == side || u.Where != AtMap || told[u.Hex] || ownHexes[u.Hex] {
					continue
				}
				if hasColourNear(m, img, u.Hex, picContact, 12) || hasColourNear(m, img, u.Hex, picOlder, 12) {
					t.Errorf("turn %d %s: undetected enemy %s at %s shows on the map", s.Turn, side, d.Name, u.Hex)
				}
			}
			t.Logf("turn %d %s: %d own hexes, %d enemy markers, %d notes", s.Turn, side, len(ownHexes), contacts, len(m.Notes))
		}
	}
}

// TestPictureFogOfWar: moving German units the Allies have not detected,
// changing the secret objective and the German units off the map does not
// change a byte of the Allied picture (but does change the German one).
func TestPictureFogOfWar(t *testing.T) {
	r := Ruleset{}
	s := playTurnsForPicture(t, "picture-1", 4)
	v := r.View(s, Allied).(*View)
	known := map[engine.Hex]bool{}
	for _, e := range v.Reports {
		if h, ok := onMapHex(e.Hex); ok {
			known[h] = true
		}
	}
	for _, tr := range v.Tracking {
		if h, ok := onMapHex(tr.Hex); ok {
			known[h] = true
		}
	}
	for _, tr := range s.Tracks {
		known[tr.Hex] = true
	}
	free := func(h engine.Hex) bool {
		if known[h] || !TheMap().ShipCanEnter(h) {
			return false
		}
		for _, u := range s.Units {
			if u.Where == AtMap && u.Hex == h {
				return false
			}
		}
		return true
	}
	moved := s.clone()
	n := 0
	for i := range moved.Units {
		u := &moved.Units[i]
		if def(u.ID).Side != German || u.Where != AtMap || known[u.Hex] {
			continue
		}
		for _, h := range TheMap().Grid().Within(u.Hex, 3) {
			if h != u.Hex && free(h) {
				u.Hex = h
				n++
				break
			}
		}
	}
	if n == 0 {
		t.Fatal("no undetected German unit to move")
	}
	// Nor does the secret objective, nor the German units off the map.
	moved.Objective.Roll = 7 - moved.Objective.Roll
	for i := range moved.Units {
		if u := &moved.Units[i]; def(u.ID).Side == German && u.Where == AtHeld {
			u.Where = AtReserve
		}
	}
	before, err := r.Picture(r.View(s, Allied), Allied)
	if err != nil {
		t.Fatal(err)
	}
	after, err := r.Picture(r.View(moved, Allied), Allied)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatalf("moving %d undetected German unit(s) changed the Allied picture", n)
	}
	gb, _ := r.Picture(r.View(s, German), German)
	ga, _ := r.Picture(r.View(moved, German), German)
	if bytes.Equal(gb, ga) {
		t.Fatalf("moving %d German unit(s) did not change the German picture", n)
	}
	t.Logf("moved %d undetected German unit(s); the Allied picture is byte for byte the same", n)
}

// TestPictureContactsAndSearchesFromReports draws a hand-made view: each
// report of the last turn puts its mark where it says, news of the turn
// before is pale, and older news is not drawn.
func TestPictureContactsAndSearchesFromReports(t *testing.T) {
	v := &View{Game: "kriegsmarine", Side: Allied, Turn: 5, Title: TurnTitle(5), Weather: "clear",
		Units: []UnitView{{ID: "a", Name: "Renown", Type: "BC", Where: AtMap, Hex: "K10"}},
		Reports: []Entry{
			{Turn: 2, To: "allied", Kind: "passive", Hex: "M12", Count: 2},
			{Turn: 3, To: "allied", Kind: "passive", Hex: "L12", Count: 4},
			{Turn: 4, To: "allied", Kind: "search", Hex: "K11", Count: 2, Types: []string{"CA", "DD"}},
			{Turn: 4, To: "allied", Kind: "passive", Hex: "K11", Count: 3},
			{Turn: 4, To: "allied", Kind: "search", Hex: "P8"},
			{Turn: 4, To: "allied", Kind: "searched", Hex: "K10"},
			{Turn: 4, To: "both", Kind: "encounter", Hex: "K11", Count: 3, Text: "Encounter at K11."},
		},
	}
	m := mapPicture(v, Allied)
	type mark struct {
		hex   string
		shape string
		text  string
		col   color.RGBA
	}
	got := map[mark]bool{}
	for _, mk := range m.Markers {
		got[mark{engine.Hex{Row: mk.Row, Col: mk.Col}.String(), mk.Shape, mk.Text, mk.Color}] = true
	}
	for _, want := range []mark{
		{"K10", picture.ShapeBox, "1", picAllied},
		{"K11", picture.ShapeDiamond, "3", picContact},
		{"L12", picture.ShapeDiamond, "4", picOlder},
		{"K11", picture.ShapeBurst, "!", picFight},
	} {
		if !got[want] {
			t.Errorf("no marker %+v; have %+v", want, got)
		}
	}
	if len(m.Markers) != 4 {
		t.Errorf("%d markers, want 4 (turn 2's news is too old to draw)", len(m.Markers))
	}
	rings := map[string]color.RGBA{}
	for _, l := range m.Lines {
		rings[engine.Hex{Row: l.Hexes[0].Row, Col: l.Hexes[0].Col}.String()] = l.Color
	}
	for hex, want := range map[string]color.RGBA{"K11": picFound, "P8": picEmpty, "K10": picSearched} {
		if rings[hex] != want {
			t.Errorf("ring at %s: %v, want %v", hex, rings[hex], want)
		}
	}
	notes := strings.Join(m.Notes, "\n")
	for _, want := range []string{"K10: Renown", "K11: 1 CA, 1 DD; 3 unit(s) in all (your search, passive report, encounter, turn 4)", "Encounter at K11."} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}
