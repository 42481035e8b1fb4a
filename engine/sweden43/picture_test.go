package sweden43

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
// a scripted game, and checks they are PNG pictures that differ by side.
func TestPictureOfAPlayedGame(t *testing.T) {
	r := Ruleset{}
	for _, n := range []int{0, 2, 9} {
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
			if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w < 1000 || h < 1000 {
				t.Fatalf("after %d phases, %s: a %dx%d picture is too small for the 42x26 map", n, side, w, h)
			}
			enginetest.KeepPicture(t, "sweden43-"+string(side)+"-"+r.Phase(s).ID+".png", b)
			pics = append(pics, b)
		}
		if bytes.Equal(pics[0], pics[1]) {
			t.Fatalf("after %d phases, both sides got the same picture", n)
		}
	}
}

func TestPictureRejectsAnotherSidesView(t *testing.T) {
	r := Ruleset{}
	s := playForPicture(t, "picture-3", 1)
	if _, err := r.Picture(r.View(s, German), Allied); err == nil {
		t.Fatal("the German view was drawn as the Allied map")
	}
	if _, err := r.Picture(r.View(s, German), "swedish"); err == nil {
		t.Fatal("a map was drawn for an unknown side")
	}
	if _, err := r.Picture("not a view", German); err == nil {
		t.Fatal("a string was drawn as a map")
	}
}

// TestPictureFogOfWar changes what a side cannot see - the enemy's forces
// still to come (reinforcements, mobilizations, amphibious and airborne
// forces), his units' supply, the German replacement pool and private
// events - and checks that the side's picture does not change by a byte.
func TestPictureFogOfWar(t *testing.T) {
	r := Ruleset{}
	checked := 0
	for _, n := range []int{0, 3, 8} {
		s := playForPicture(t, "picture-4", n)
		for _, side := range r.Sides() {
			want, err := r.Picture(r.View(s, side), side)
			if err != nil {
				t.Fatal(err)
			}
			h := s.Clone()
			foe := other(side)
			for i := range h.Board.Units {
				u := &h.Board.Units[i]
				if u.Side != foe {
					continue
				}
				switch u.Status {
				case Pending:
					u.Turn++
					u.Arrive = "A1"
				case Mobilize, Assemble, HQAssemble:
					u.Turn++
				case Amph, ParaPool:
					u.Status = Neutralized
				case OnMap:
					u.OOS = !u.OOS
					u.Restricted = "Nowhere"
				}
			}
			if side == Allied {
				h.Board.ReplHalfREs += 3
			}
			h.Log = append(h.Log, Event{Turn: h.Turn, Text: "a secret", Only: foe})
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
		t.Fatal("nothing checked")
	}
}
