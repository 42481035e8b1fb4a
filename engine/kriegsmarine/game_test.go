package kriegsmarine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// playGame plays up to 40 phases of a game with the scripted players,
// returning the final state and the digest of the state after each phase.
func playGame(t *testing.T, setup engine.Setup, seed string) (*State, []string) {
	t.Helper()
	p := enginetest.Scripted{Setup: setup, Secret: seed, Phases: 40}.Play(t, Ruleset{})
	return p.Final().(*State), p.Digests
}

func TestFullGameScriptedPlayers(t *testing.T) {
	s, _ := playGame(t, engine.Setup{}, "seed-1")
	if !s.Over || s.Result == nil {
		t.Fatalf("game not over after 18 turns: turn %d", s.Turn)
	}
	kinds := map[string]int{}
	for _, e := range s.Log {
		kinds[e.Kind]++
	}
	t.Logf("objective %s, kinds %v, result %s", s.Objective.Result.Kind, kinds, s.Result.Summary)
}

// TestScriptedPlayersGiveCleanOrders: the scripted players never need the
// safety net that drops rejected lines, whatever the objective and options.
func TestScriptedPlayersGiveCleanOrders(t *testing.T) {
	r := Ruleset{}
	for _, opts := range [][]string{nil, {OptWeather, OptSplitting, OptIndependent, OptBismarck, OptGrafZeppelin, OptQShips, OptWilfred, OptCommanders, OptDanish, OptWehrmacht, OptSupply, OptNorFighters, OptSkua}} {
		for _, seed := range []string{"a", "b", "c", "d"} {
			secret := []byte(seed)
			st, err := r.New(engine.Setup{Options: opts}, engine.NewSeededDice(secret, "g", "setup", [32]byte{}))
			if err != nil {
				t.Fatal(err)
			}
			for !r.Phase(st).Over {
				ph := r.Phase(st)
				orders := map[engine.Side]engine.Orders{}
				texts := map[engine.Side]string{}
				for _, side := range ph.Owes {
					text := r.Play(r.View(st, side), side, nil)
					if strings.Contains(text, "# dropped") {
						t.Errorf("seed %s %v %s %s: the scripted player wrote a rejected line:\n%s", seed, opts, ph.ID, side, text)
					}
					o, errs := r.ParseOrders(st, side, text)
					if len(errs) > 0 {
						t.Fatal(errs)
					}
					orders[side], texts[side] = o, text
				}
				st, err = r.Resolve(st, orders, engine.NewSeededDice(secret, "g", ph.ID, engine.OrdersDigest(texts)))
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestDecodeStateRoundTrip: a state read back from its JSON marshals to the
// same bytes and resolves to the same next state (the adjudicator's
// snapshots and replays depend on it).
func TestDecodeStateRoundTrip(t *testing.T) {
	r := Ruleset{}
	s, _ := playGame(t, engine.Setup{Options: []string{OptWeather}}, "round-trip")
	b, _ := json.Marshal(s)
	back, err := r.DecodeState(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(back)
	if string(b) != string(b2) {
		t.Fatal("state does not round-trip through JSON")
	}
	s0, err := r.New(engine.Setup{}, enginetest.ThenOnes(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	b0, _ := json.Marshal(s0)
	d0, _ := r.DecodeState(b0)
	o := map[engine.Side]engine.Orders{Allied: r.DefaultOrders(s0, Allied), German: r.DefaultOrders(s0, German)}
	n1, _ := r.Resolve(s0, o, enginetest.ThenOnes())
	n2, _ := r.Resolve(d0, o, enginetest.ThenOnes())
	j1, _ := json.Marshal(n1)
	j2, _ := json.Marshal(n2)
	if string(j1) != string(j2) {
		t.Fatal("a decoded state resolves differently")
	}
	if v, err := r.DecodeView(mustJSON(t, r.View(s, German))); err != nil || v.(*View).Side != German {
		t.Fatalf("DecodeView: %v", err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReportFormAndReveal: the report and the order form are written from
// the View alone (no objective for the Allies before the end), the form is
// itself a valid order file, and Reveal tells all at the end.
func TestReportFormAndReveal(t *testing.T) {
	r := Ruleset{}
	st, err := r.New(engine.Setup{}, enginetest.ThenOnes(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []engine.Side{Allied, German} {
		rep := r.Report(r.View(st, side), side)
		if strings.Contains(rep, "objective") != (side == German) {
			t.Errorf("%s report and the objective:\n%s", side, rep)
		}
		form := r.OrderForm(r.View(st, side), side)
		if _, errs := r.ParseOrders(st, side, form); len(errs) > 0 {
			t.Errorf("%s order form is not a valid order file: %v", side, errs)
		}
	}
	s, _ := playGame(t, engine.Setup{}, "reveal")
	rev := r.Reveal(s)
	if !strings.Contains(rev, "German objective") || !strings.Contains(rev, "Victory points") {
		t.Errorf("reveal:\n%s", rev)
	}
}

// TestDemoFlowThroughJSON plays a game the way the demo does: each side's
// View goes through JSON and DecodeView, the scripted order text goes in an
// order file with its header, the body is parsed; and the orders as
// understood (FormatOrders) parse back to the same text.
func TestDemoFlowThroughJSON(t *testing.T) {
	r := Ruleset{}
	secret := []byte("demo")
	st, err := r.New(engine.Setup{Options: []string{OptWeather, OptIndependent, OptCommanders}}, engine.NewSeededDice(secret, "g", "setup", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	for !r.Phase(st).Over {
		ph := r.Phase(st)
		orders := map[engine.Side]engine.Orders{}
		texts := map[engine.Side]string{}
		for _, side := range ph.Owes {
			js, err := json.Marshal(r.View(st, side))
			if err != nil {
				t.Fatal(err)
			}
			v, err := r.DecodeView(js)
			if err != nil {
				t.Fatal(err)
			}
			body := r.Play(v, side, engine.NewSeededDice(secret, "p", ph.ID, [32]byte{}))
			f, err := engine.ParseOrderFile(fmt.Sprintf("Game: demo\nPhase: %s\nSide: %s\n%s", ph.ID, side, body))
			if err != nil {
				t.Fatal(err)
			}
			o, errs := r.ParseOrders(st, f.Side, f.Body)
			if len(errs) > 0 {
				t.Fatalf("%s %s: %v", ph.ID, side, errs)
			}
			understood := r.FormatOrders(st, side, o)
			o2, errs := r.ParseOrders(st, side, understood)
			if len(errs) > 0 {
				t.Fatalf("%s %s: the orders as understood do not parse: %v\n%s", ph.ID, side, errs, understood)
			}
			if again := r.FormatOrders(st, side, o2); again != understood {
				t.Fatalf("%s %s: FormatOrders does not round-trip:\n%s\n---\n%s", ph.ID, side, understood, again)
			}
			orders[side], texts[side] = o, body
		}
		st, err = r.Resolve(st, orders, engine.NewSeededDice(secret, "g", ph.ID, engine.OrdersDigest(texts)))
		if err != nil {
			t.Fatal(err)
		}
	}
	if r.Result(st) == nil {
		t.Fatal("no result")
	}
}

// TestEveryOptionPlays: each option alone builds a game that the scripted
// players can play (the Allied answers to Bismarck with the bismarck
// option).
func TestEveryOptionPlays(t *testing.T) {
	r := Ruleset{}
	for _, o := range r.Options() {
		opts := []string{o.ID}
		if strings.HasPrefix(o.ID, "bismarck-") {
			opts = append(opts, OptBismarck)
		}
		st, err := r.New(engine.Setup{Options: opts}, engine.NewSeededDice([]byte(o.ID), "g", "setup", [32]byte{}))
		if err != nil {
			t.Fatalf("%s: %v", o.ID, err)
		}
		for turn := 0; turn < 8 && !r.Phase(st).Over; turn++ {
			ph := r.Phase(st)
			orders := map[engine.Side]engine.Orders{}
			for _, side := range ph.Owes {
				text := r.Play(r.View(st, side), side, nil)
				if strings.Contains(text, "# dropped") {
					t.Errorf("%s %s %s: a rejected line:\n%s", o.ID, ph.ID, side, text)
				}
				ord, errs := r.ParseOrders(st, side, text)
				if len(errs) > 0 {
					t.Fatalf("%s: %v", o.ID, errs)
				}
				orders[side] = ord
			}
			if st, err = r.Resolve(st, orders, engine.NewSeededDice([]byte(o.ID), "g", ph.ID, [32]byte{})); err != nil {
				t.Fatalf("%s: %v", o.ID, err)
			}
		}
	}
	if _, err := r.New(engine.Setup{Options: []string{"no-such-option"}}, enginetest.ThenOnes(3, 4)); err == nil {
		t.Error("an unknown option was accepted")
	}
	if _, err := r.New(engine.Setup{Options: []string{OptBismarckHood}}, enginetest.ThenOnes(3, 4)); err == nil {
		t.Error("an Allied answer to Bismarck without Bismarck was accepted")
	}
}
