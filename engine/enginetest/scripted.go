package enginetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"skagerrak/engine"
)

// Scripted is a game played by a ruleset's scripted players straight
// through the ruleset, as the rulesets' own tests play them: no adjudicator,
// no mail. The dice are seeded from Secret with the labels below, so a test
// that picked a secret for its outcome keeps it.
type Scripted struct {
	Setup  engine.Setup
	Secret string
	// Game is the game label of the dice ("g" if empty).
	Game string
	// SetupPhase is the phase label of the set-up dice ("setup" if empty).
	SetupPhase string
	// PlayerPhase gives the phase label of a scripted player's dice; nil is
	// the phase id followed by the side.
	PlayerPhase func(phase string, side engine.Side) string
	// Phases bounds the phases played; 0 plays to the end (at most 1000).
	Phases int
}

// Played is what a scripted game went through.
type Played struct {
	// States holds the state at the start and after each phase.
	States []engine.State
	// Digests holds the SHA-256 of each state after a phase, in hex.
	Digests []string
}

// Final is the last state.
func (p Played) Final() engine.State { return p.States[len(p.States)-1] }

// Play plays the game. A scripted order the ruleset rejects, a Resolve that
// fails or changes its input state, fail t.
func (s Scripted) Play(t testing.TB, rs engine.Ruleset) Played {
	t.Helper()
	game, setupPhase := s.Game, s.SetupPhase
	if game == "" {
		game = "g"
	}
	if setupPhase == "" {
		setupPhase = "setup"
	}
	playerPhase := s.PlayerPhase
	if playerPhase == nil {
		playerPhase = func(phase string, side engine.Side) string { return phase + string(side) }
	}
	limit := s.Phases
	if limit <= 0 {
		limit = 1000
	}
	bot, ok := rs.(engine.Player)
	if !ok {
		t.Fatalf("ruleset %s has no scripted player", rs.Name())
	}
	secret := []byte(s.Secret)
	st, err := rs.New(s.Setup, engine.NewSeededDice(secret, game, setupPhase, [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	p := Played{States: []engine.State{st}}
	for i := 0; i < limit; i++ {
		ph := rs.Phase(st)
		if ph.Over {
			break
		}
		texts := map[engine.Side]string{}
		orders := map[engine.Side]engine.Orders{}
		for _, side := range ph.Owes {
			text := bot.Play(rs.View(st, side), side, engine.NewSeededDice(secret, game, playerPhase(ph.ID, side), [32]byte{}))
			o, errs := rs.ParseOrders(st, side, text)
			if len(errs) > 0 {
				t.Fatalf("%s %s: scripted orders rejected: %v\n%s", ph.ID, side, errs, text)
			}
			texts[side], orders[side] = text, o
		}
		before, _ := json.Marshal(st)
		next, err := rs.Resolve(st, orders, engine.NewSeededDice(secret, game, ph.ID, engine.OrdersDigest(texts)))
		if err != nil {
			t.Fatalf("%s: %v", ph.ID, err)
		}
		if after, _ := json.Marshal(st); !bytes.Equal(before, after) {
			t.Fatalf("%s: Resolve changed its input state", ph.ID)
		}
		b, err := json.Marshal(next)
		if err != nil {
			t.Fatal(err)
		}
		p.Digests = append(p.Digests, fmt.Sprintf("%x", sha256.Sum256(b)))
		p.States = append(p.States, next)
		st = next
	}
	return p
}

// KeepPicture writes a picture to $SKAGERRAK_PICTURES, or to a temporary
// directory, so that a person can look at it.
func KeepPicture(t testing.TB, name string, png []byte) {
	t.Helper()
	dir := os.Getenv("SKAGERRAK_PICTURES")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// PictureStable checks, for every side of st, that the ruleset draws the
// same bytes twice from the same View and from the View read back from its
// JSON (what a player's tools get).
func PictureStable(t testing.TB, rs engine.Ruleset, st engine.State) {
	t.Helper()
	pic, ok := rs.(engine.Picturer)
	dec, ok2 := rs.(engine.ViewDecoder)
	if !ok || !ok2 {
		t.Fatalf("ruleset %s draws no picture or decodes no view", rs.Name())
	}
	for _, side := range rs.Sides() {
		a, err := pic.Picture(rs.View(st, side), side)
		if err != nil {
			t.Fatal(err)
		}
		b, err := pic.Picture(rs.View(st, side), side)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: the same view gave different pictures", side)
		}
		js, err := json.Marshal(rs.View(st, side))
		if err != nil {
			t.Fatal(err)
		}
		v, err := dec.DecodeView(js)
		if err != nil {
			t.Fatal(err)
		}
		c, err := pic.Picture(v, side)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, c) {
			t.Fatalf("%s: the view read back from its JSON gave a different picture", side)
		}
	}
}
