package norway1940

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/picture"
)

// playPhasesForPicture plays n phases of a game with the scripted players
// straight through the Ruleset, with seeded dice, and returns the state.
func playPhasesForPicture(t *testing.T, seed string, n int) *State {
	t.Helper()
	r := Ruleset{}
	secret := []byte(seed)
	st, err := r.New(engine.Setup{}, engine.NewSeededDice(secret, "pic", "new", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		ph := r.Phase(st)
		if ph.Over {
			break
		}
		texts := map[engine.Side]string{}
		orders := map[engine.Side]engine.Orders{}
		for _, side := range ph.Owes {
			text := r.Play(r.View(st, side), side, engine.NewSeededDice(secret, "pic", ph.ID+"/"+string(side), [32]byte{}))
			o, errs := r.ParseOrders(st, side, text)
			if len(errs) > 0 {
				t.Fatalf("%s %s: scripted orders rejected: %v\n%s", ph.ID, side, errs, text)
			}
			texts[side], orders[side] = text, o
		}
		next, err := r.Resolve(st, orders, engine.NewSeededDice(secret, "pic", ph.ID, engine.OrdersDigest(texts)))
		if err != nil {
			t.Fatal(err)
		}
		st = next
	}
	return asState(st)
}

// keepPicture writes a picture to $SKAGERRAK_PICTURES, or to a temporary
// directory, so that a person can look at it.
func keepPicture(t *testing.T, name string, b []byte) {
	t.Helper()
	dir := os.Getenv("SKAGERRAK_PICTURES")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
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
	s := playPhasesForPicture(t, "picture-same", 6)
	for _, side := range []engine.Side{German, Allied} {
		a, b := pictureOf(t, s, side), pictureOf(t, s.clone(), side)
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: the same view gave different pictures", side)
		}
		if _, err := png.DecodeConfig(bytes.NewReader(a)); err != nil {
			t.Fatalf("%s: not a picture: %v", side, err)
		}
	}
	if bytes.Equal(pictureOf(t, s, German), pictureOf(t, s, Allied)) {
		t.Error("the German and the Allied maps are the same picture")
	}
}

func TestPictureOfEachSideAfterAFewTurns(t *testing.T) {
	s := playPhasesForPicture(t, "picture-look", 8)
	for _, side := range []engine.Side{German, Allied} {
		keepPicture(t, "norway1940-"+string(side)+".png", pictureOf(t, s, side))
	}
	s0 := playPhasesForPicture(t, "picture-look", 0)
	for _, side := range []engine.Side{German, Allied} {
		keepPicture(t, "norway1940-start-"+string(side)+".png", pictureOf(t, s0, side))
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

var _ = strings.Contains
