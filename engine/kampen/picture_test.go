package kampen

import (
	"bytes"
	"image/png"
	"testing"

	"skagerrak/engine"
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

// TestPictureOfAPlayedGame draws all three sides' maps after several phases
// of a scripted game, and checks they are PNG pictures that differ by side.
func TestPictureOfAPlayedGame(t *testing.T) {
	r := Ruleset{}
	for _, n := range []int{0, 1, 5, 14} {
		s := playForPicture(t, "picture-2", n)
		seen := map[string]engine.Side{}
		for _, side := range r.Sides() {
			b, err := r.Picture(r.View(s, side), side)
			if err != nil {
				t.Fatalf("after %d phases, %s: %v", n, side, err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("after %d phases, %s: not a PNG: %v", n, side, err)
			}
			if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w < 1000 || h < 900 {
				t.Fatalf("after %d phases, %s: a %dx%d picture is too small for the board", n, side, w, h)
			}
			if other, dup := seen[string(b)]; dup {
				t.Fatalf("after %d phases, %s and %s got the same picture", n, other, side)
			}
			seen[string(b)] = side
			enginetest.KeepPicture(t, "kampen-"+string(side)+"-"+r.Phase(s).ID+".png", b)
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

// TestPictureFogOfWar changes what a side cannot see - the other sides'
// hands and the order of their decks, the German standing reactions, the
// Allied and Norwegian standing orders, the defenders' secret cards and
// private events - and checks that the side's picture does not change by a
// byte.
func TestPictureFogOfWar(t *testing.T) {
	r := Ruleset{}
	checked := 0
	for _, n := range []int{1, 4, 7, 11} {
		s := playForPicture(t, "picture-4", n)
		for _, side := range r.Sides() {
			want, err := r.Picture(r.View(s, side), side)
			if err != nil {
				t.Fatal(err)
			}
			h := s.clone()
			for _, x := range turnOrder {
				if x == side {
					continue
				}
				d := h.deck(x)
				if len(d.Hand) > 0 && len(d.Draw) > 0 {
					d.Hand[0], d.Draw[0] = d.Draw[0], d.Hand[0]
				}
				for i, j := 0, len(d.Draw)-1; i < j; i, j = i+1, j-1 {
					d.Draw[i], d.Draw[j] = d.Draw[j], d.Draw[i]
				}
				h.Events = append(h.Events, Event{Round: h.Round, Turn: h.Turn, To: x, Text: "a secret"})
			}
			if side != German {
				h.Hidden.Engineer = !h.Hidden.Engineer
				h.Hidden.Reacts = append(h.Hidden.Reacts, CardPlay{Area: "hamar", Cards: []string{"secret"}})
			}
			if side != Allied {
				h.Submarine = !h.Submarine
				h.AllLosses = "norwegian"
			}
			if side != Norwegian {
				h.NorLosses = "allied"
			}
			for i := range h.Combats {
				h.Combats[i].Defence = append(h.Combats[i].Defence, SideCards{Side: Norwegian, Cards: []string{"secret"}})
			}
			got, err := r.Picture(r.View(h, side), side)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("after %d phases: the %s picture changed when secrets it cannot see changed", n, side)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}
