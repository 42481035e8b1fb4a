package norge

import (
	"bytes"
	"image/png"
	"testing"

	"skagerrak/engine/enginetest"
)

// playForPicture plays n phases of a game with the scripted players
// straight through the Ruleset and returns the state.
func playForPicture(t *testing.T, seed string, n int) *State {
	t.Helper()
	return enginetest.Scripted{Secret: seed, Game: "pic", Phases: n}.Play(t, Ruleset{}).Final().(*State)
}

// TestPictureDeterministic: the same View, or the View read back from its
// JSON as players' tools get it, always draws the same bytes.
func TestPictureDeterministic(t *testing.T) {
	enginetest.PictureStable(t, Ruleset{}, playForPicture(t, "picture-1", 12))
}

// TestPictureOfAPlayedGame draws both sides' maps after several phases of
// a scripted game, and checks they are PNG pictures of the whole sheet.
func TestPictureOfAPlayedGame(t *testing.T) {
	r := Ruleset{}
	for _, n := range []int{0, 9, 12, 23} {
		s := playForPicture(t, "picture-2", n)
		var pics [][]byte
		for _, side := range r.Sides() {
			b, err := r.Picture(r.View(s, side), side)
			if err != nil {
				t.Fatalf("after %d phases, %s: %v", n, side, err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("after %d phases, %s: not a PNG: %v", n, side, err)
			}
			if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w < 1000 || h < 2000 {
				t.Fatalf("after %d phases, %s: a %dx%d picture is too small for the Strategic Map and the land maps", n, side, w, h)
			}
			enginetest.KeepPicture(t, "norge-"+string(side)+"-"+PhaseOf(s).ID+".png", b)
			pics = append(pics, b)
		}
		if bytes.Equal(pics[0], pics[1]) {
			t.Fatalf("after %d phases, both sides got the same picture", n)
		}
	}
}

func TestPictureRejectsAnotherSidesView(t *testing.T) {
	r := Ruleset{}
	s := playForPicture(t, "picture-3", 2)
	if _, err := r.Picture(r.View(s, German), Allied); err == nil {
		t.Fatal("the German view was drawn as the Allied map")
	}
	if _, err := r.Picture(r.View(s, German), "swedish"); err == nil {
		t.Fatal("a map was drawn for an unknown side")
	}
}

// TestPictureFogOfWar changes what a side cannot see - the enemy's
// submarines, convoy contents, reserve and off-board ships - and checks that
// the side's picture does not change by a byte.
func TestPictureFogOfWar(t *testing.T) {
	r := Ruleset{}
	checked := 0
	for _, n := range []int{3, 10, 17} {
		s := playForPicture(t, "picture-4", n)
		for _, side := range r.Sides() {
			foe := enemy(side)
			want, err := r.Picture(r.View(s, side), side)
			if err != nil {
				t.Fatal(err)
			}
			h := s.clone()
			changed := false
			var reserve []string
			for _, u := range h.Units {
				if u.Side == foe && u.Loc == LocReserve {
					reserve = append(reserve, u.ID)
				}
			}
			for i := range h.Ships {
				sh := &h.Ships[i]
				if sh.Side != foe || sh.Sunk {
					continue
				}
				switch {
				case sh.Kind == "sub":
					sh.Area = sh.Area%7 + 1
					sh.Reduced = !sh.Reduced
					changed = true
				case sh.Kind == "convoy":
					for _, id := range sh.Cargo {
						h.unit(id).Loc = LocReserve
					}
					sh.Cargo = nil
					if len(reserve) > 0 {
						h.unit(reserve[0]).Loc = shipPrefix + sh.ID
						sh.Cargo = []string{reserve[0]}
						reserve = reserve[1:]
					}
					changed = true
				case sh.Loc == "":
					sh.Reduced = !sh.Reduced
					changed = true
				}
			}
			for i := range h.Units {
				if u := &h.Units[i]; u.Side == foe && (u.Loc == LocReserve || u.Loc == LocAirlift || u.Loc == LocDrop) {
					u.Reduced = !u.Reduced
					changed = true
				}
			}
			if !changed {
				continue
			}
			got, err := r.Picture(r.View(h, side), side)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("after %d phases: the %s picture changed when the %s secrets changed", n, side, foe)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no secrets were changed")
	}
}
