package norway1940

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"skagerrak/engine"
)

// askGame says how playAsking plays.
type askGame struct {
	// extra lines added to each player-turn's orders of a side, e.g. "ask all".
	extra map[engine.Side]string
	// deadline answers the short phases with DefaultOrders instead of the
	// scripted player.
	deadline bool
	// each is called on every open phase's state.
	each func(s *State)
}

// playAsking plays a whole game with the scripted players through the
// Ruleset interface. The dice of a player-turn are one seeded stream,
// shared by its short phases, so that a game whose decisions are taken in
// person rolls the same dice as one played by standing orders. It returns
// every phase opened and the state at the start of every player-turn.
func playAsking(t *testing.T, secret string, g askGame) (phases []engine.Phase, turns []*State) {
	t.Helper()
	r := Ruleset{}
	st, err := r.New(engine.Setup{}, engine.NewSeededDice([]byte(secret), "g", "new", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	var dice engine.Dice
	for i := 0; i < 500; i++ {
		s := st.(*State)
		ph := r.Phase(st)
		if ph.Over {
			return phases, append(turns, s)
		}
		if g.each != nil {
			g.each(s)
		}
		phases = append(phases, ph)
		if s.Pending == nil {
			turns = append(turns, s)
			dice = engine.NewSeededDice([]byte(secret), "g", ph.ID, [32]byte{})
		}
		orders := map[engine.Side]engine.Orders{}
		for _, side := range ph.Owes {
			if s.Pending != nil && g.deadline {
				orders[side] = r.DefaultOrders(st, side)
				continue
			}
			text := r.Play(r.View(st, side), side, nil)
			if s.Pending == nil && g.extra[side] != "" {
				text += g.extra[side] + "\n"
			}
			o, errs := r.ParseOrders(st, side, text)
			if len(errs) > 0 {
				t.Fatalf("%s: scripted %s orders rejected: %v\n%s", ph.ID, side, errs, text)
			}
			orders[side] = o
		}
		if st, err = r.Resolve(st, orders, dice); err != nil {
			t.Fatalf("%s: %v", ph.ID, err)
		}
	}
	t.Fatal("the game did not end")
	return nil, nil
}

// TestRule5_2_StandingOrdersOnlyNeverOpenAShortPhase (5.2, 9.14.4, 9.14.5,
// 8.9.3.1): without "ask", a whole game is the player-turns and nothing
// else: T01-german, T01-allied, T02-german, ...
func TestRule5_2_StandingOrdersOnlyNeverOpenAShortPhase(t *testing.T) {
	for _, seed := range []string{"alpha", "b2"} {
		phases, _ := playAsking(t, seed, askGame{})
		for i, ph := range phases {
			side := German
			if i%2 == 1 {
				side = Allied
			}
			if want := fmt.Sprintf("T%02d-%s", i/2+1, side); ph.ID != want || len(ph.Owes) != 1 || ph.Owes[0] != side {
				t.Fatalf("seed %s: phase %d is %s owed by %v, want %s", seed, i, ph.ID, ph.Owes, want)
			}
		}
		if len(phases) < 20 {
			t.Errorf("seed %s: only %d phases", seed, len(phases))
		}
	}
}

// TestRule5_2_AskedGameAtTheDeadlineIsTheStandingGame (9.14.4, 9.14.5, 9.14.5.1,
// 8.9.3.1): both sides ask every decision and never answer; each short
// phase resolves with DefaultOrders, which is what the standing orders
// decide, so with the same dice every player-turn starts exactly as in
// the game played by standing orders alone.
func TestRule5_2_AskedGameAtTheDeadlineIsTheStandingGame(t *testing.T) {
	kinds := map[string]int{}
	for _, seed := range []string{"b1", "b2"} {
		_, want := playAsking(t, seed, askGame{})
		phases, got := playAsking(t, seed, askGame{extra: map[engine.Side]string{German: "ask all", Allied: "ask all"}, deadline: true, each: func(s *State) {
			if s.Pending != nil {
				kinds[s.Pending.Ask.Kind]++
			}
		}})
		short := 0
		for _, ph := range phases {
			if strings.Contains(ph.ID, "-react") {
				short++
			}
		}
		if short == 0 {
			t.Fatalf("seed %s: no decision was asked", seed)
		}
		if len(got) != len(want) {
			t.Fatalf("seed %s: %d player-turns, want %d", seed, len(got), len(want))
		}
		for i := range want {
			a, b := want[i].clone(), got[i].clone()
			for j := range a.Sides {
				a.Sides[j].Standing.Ask, b.Sides[j].Standing.Ask = nil, nil
			}
			ja, _ := engine.Canonical(a)
			jb, _ := engine.Canonical(b)
			if !bytes.Equal(ja, jb) {
				t.Fatalf("seed %s: player-turn %d (%s) differs from the standing game", seed, i, PhaseOf(want[i]).ID)
			}
		}
		t.Logf("seed %s: %d short phases, %d player-turns alike", seed, short, len(want))
	}
	if kinds[AskLosses] == 0 {
		t.Errorf("no losses decision (10.5.6) in the games: %v", kinds)
	}
}

// TestRule5_2_AlliedAskingGameWaitsOnlyForTheAllied (5.2, 9.14.5): the Allied asks
// every decision and the scripted Allied answers them from its View; the
// short phases open only in German player-turns, are owed by the Allied
// alone, and only the Allied View holds the question.
func TestRule5_2_AlliedAskingGameWaitsOnlyForTheAllied(t *testing.T) {
	r := Ruleset{}
	kinds := map[string]int{}
	phases, _ := playAsking(t, "b4", askGame{extra: map[engine.Side]string{Allied: "ask all"}, each: func(s *State) {
		if s.Pending == nil {
			return
		}
		if av := r.View(s, Allied).(*View); av.Ask == nil || av.Ask.Side != Allied {
			t.Errorf("%s: the Allied view lacks its question", PhaseOf(s).ID)
		}
		if gv := r.View(s, German).(*View); gv.Ask != nil || r.Play(gv, German, nil) != "" {
			t.Errorf("%s: the German is asked", PhaseOf(s).ID)
		}
		kinds[s.Pending.Ask.Kind]++
	}})
	short := 0
	for _, ph := range phases {
		if !strings.Contains(ph.ID, "-react") {
			continue
		}
		short++
		if !strings.Contains(ph.ID, "-german-react") || len(ph.Owes) != 1 || ph.Owes[0] != Allied {
			t.Errorf("short phase %s owed by %v", ph.ID, ph.Owes)
		}
	}
	if short == 0 || len(kinds) < 2 || kinds[AskLosses] == 0 {
		t.Errorf("%d short phases, kinds %v", short, kinds)
	}
	t.Logf("%d short phases of %d: %v", short, len(phases), kinds)
}
