package adjudicator

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
)

// The message of a resolution waiting for dice counts the dice by type,
// smallest first, and names each roll's die and what it is for, in order.
func TestDiceWaitSaysWhatEachRollIsFor(t *testing.T) {
	w := &DiceWait{Phase: "T1-german-combat", Want: []engine.Roll{
		{Sides: 10, Why: "incremental odds (34A1), the 00-90 die"},
		{Sides: 10, Why: "incremental odds (34A1), the 0-9 die"},
		{Sides: 6, Why: "combat at R18"},
	}}
	want := "T1-german-combat needs 1 d6 and 2 d10: a d10 (0 for its 0 face) for incremental odds (34A1), the 00-90 die, " +
		"then a d10 (0 for its 0 face) for incremental odds (34A1), the 0-9 die, then a d6 for combat at R18"
	if got := w.String(); !strings.HasPrefix(got, want) {
		t.Errorf("wait:\n%s\nwant it to start\n%s", got, want)
	}
	if w.N() != 3 {
		t.Errorf("N = %d, want 3", w.N())
	}
}

// A die supplied is a face of the die its roll asks for, checked as it is
// given: the racetest phase rolls a d6 for each side, Allied first.
func TestManualDiceAreCheckedAgainstTheDieTheyAreFor(t *testing.T) {
	h, _, dir := newHost(t)
	s := raceSpec("g1")
	s.Dice = "manual"
	if _, err := h.Create(s); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game("g1")
	if err := h.Referee("g1", Command{Name: "dice", Args: []string{"4"}}); err == nil || !strings.Contains(err.Error(), "does not resolve yet") {
		t.Fatalf("dice before the phase is due: %v", err)
	}
	submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 2"))
	submit(t, h, "g1", "german", orders("g1", "T01", "german", "advance 2"))
	// It stops at the first die it does not have: allied's.
	if wait, _ := h.Tick(); wait["g1"] != 1 {
		t.Fatalf("waiting for %v, want 1", wait)
	}
	w := g.DiceWanted(h.clock.Now())
	if w == nil || w.String() != "T01 needs 1 d6: a d6 for allied advance (more may follow once it is in)" {
		t.Fatalf("wait: %v", w)
	}
	for _, bad := range [][]string{{"7"}, {"0"}, {"x"}, {"5", "1", "3"}} {
		err := h.Referee("g1", Command{Name: "dice", Args: bad})
		if err == nil || !strings.Contains(err.Error(), "nothing was added") {
			t.Errorf("dice %v: %v, want refused with nothing added", bad, err)
		}
	}
	if len(g.Dice) != 0 {
		t.Fatalf("refused dice were added: %v", g.Dice)
	}
	// The referee's signed mail supplies one, and is told what is still
	// wanted.
	if r := submitAt(t, h, Referee, orders("g1", "T01", "referee", "dice 5"), "ref-dice", h.clock.Now()); r.Status != StatusReferee {
		t.Fatalf("referee mail: %+v", r)
	}
	if w := g.DiceWanted(h.clock.Now()); w == nil || !strings.HasPrefix(w.String(), "T01 needs 1 d6: a d6 for german advance") {
		t.Fatalf("after one die: %v", w)
	}
	ob := &outbox{}
	if _, err := h.Flush(t.Context(), ob); err != nil {
		t.Fatal(err)
	}
	var text string
	for _, m := range ob.to("ref@example.org") {
		text += m.Text
	}
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "done: dice 5; still waiting: T01 needs 1 d6: a d6 for german advance") {
		t.Errorf("the referee's reply:\n%s", text)
	}
	if err := h.Referee("g1", Command{Name: "dice", Args: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	if g.Resolved != 1 || len(g.Dice) != 0 {
		t.Fatalf("resolved %d, hand %v", g.Resolved, g.Dice)
	}
	h.Close()
	if _, err := VerifyPath(filepath.Join(dir, "g1"), nil); err != nil {
		t.Error(err)
	}
}

// DiceAdded without per_die (every log made before dice of every type)
// holds d6 faces; they stay d6 faces in the hand before the dice given
// since, and a resolution is checked against each as it was supplied.
func TestManualDiceSuppliedAsD6FacesKeepTheirMeaning(t *testing.T) {
	c := newCrashingGame(t)
	c.g.Created.Dice = "manual"
	for _, d := range []DiceAdded{{Values: []int{5}, By: "ref"}, {Values: []int{2}, By: "ref", PerDie: true}} {
		ev, _ := c.log.Append(EvDiceAdded, c.clock.Now(), d)
		if err := c.g.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	if c.g.DiceD6 != 1 || len(c.g.Dice) != 2 {
		t.Fatalf("hand %v with %d d6 faces, want [5 2] with 1", c.g.Dice, c.g.DiceD6)
	}
	ev, _ := c.log.Append(EvDiceAdded, c.clock.Now(), DiceAdded{Values: []int{3}, By: "ref"})
	if err := c.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "d6 faces supplied after") {
		t.Fatalf("d6 faces after dice of every type: %v", err)
	}
	// A d6 face 5 read for a d3 is 3 (5 halved, rounded up); a face of the
	// die asked is itself; a d3 of 2 is not what a supplied 5 shows.
	g := &Game{Dice: []int{5, 2}, DiceD6: 1}
	if err := g.useDice([]engine.Roll{{Sides: 3, Value: 3}, {Sides: 6, Value: 2}}); err != nil || len(g.Dice) != 0 || g.DiceD6 != 0 {
		t.Errorf("d3 from the d6 face 5 and a d6 of 2: %v, hand %v", err, g.Dice)
	}
	g = &Game{Dice: []int{5, 2}, DiceD6: 1}
	if err := g.useDice([]engine.Roll{{Sides: 3, Value: 2}}); err == nil {
		t.Error("a d3 of 2 from the d6 face 5 was accepted")
	}
	g = &Game{Dice: []int{9}}
	if err := g.useDice([]engine.Roll{{Sides: 10, Value: 9}}); err != nil {
		t.Errorf("a d10 of 9 supplied as 9: %v", err)
	}
}

// A kampen game made before dice of every type stopped on a d5 that its
// d6 faces could not give. It still replays as it did; the referee clears
// the hand and supplies dice of every type, and the game goes on.
func TestStuckManualGameGoesOnWithDiceOfEveryType(t *testing.T) {
	dir := t.TempDir()
	gdir := filepath.Join(dir, "full")
	if err := os.MkdirAll(gdir, 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "manual", "kampen-r1-stuck-on-a-d5.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(gdir, LogFile), b, 0o600)
	// The game was made with 32 bytes of 7 as its dice secret.
	os.WriteFile(filepath.Join(gdir, SecretFile), []byte(hex.EncodeToString(bytes.Repeat([]byte{7}, 32))+"\n"), 0o600)
	clk := &testClock{t: time.Date(2026, 4, 20, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(dir, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g, _ := h.Game("full")
	resolved, hand := g.Resolved, len(g.Dice)
	if hand == 0 || g.DiceD6 != hand {
		t.Fatalf("the stuck game's hand: %v (%d d6 faces)", g.Dice, g.DiceD6)
	}
	wait, err := h.Tick()
	if err != nil || wait["full"] != 1 {
		t.Fatalf("tick: %v %v", wait, err)
	}
	w := g.DiceWanted(clk.Now())
	if w == nil || !strings.Contains(w.Misfit, "a d5 was asked for") || !strings.Contains(w.String(), "dice clear") {
		t.Fatalf("wait: %v", w)
	}
	if err := h.Referee("full", Command{Name: "dice", Args: []string{"3"}}); err == nil || !strings.Contains(err.Error(), "nothing was added") {
		t.Fatalf("dice on a hand that fits no roll: %v", err)
	}
	if err := h.Referee("full", Command{Name: "dice", Args: []string{"clear"}}); err == nil {
		t.Fatal("dice clear without a reason was accepted")
	}
	if err := h.Referee("full", Command{Name: "dice", Args: []string{"clear"}, Why: "d6 faces cannot give the d5"}); err != nil {
		t.Fatal(err)
	}
	if len(g.Dice) != 0 {
		t.Fatalf("hand after clear: %v", g.Dice)
	}
	faces := engine.NewSeededDice([]byte("stuck"), "full", "", [32]byte{})
	sides := feedDice(t, h, "full", clk, faces, 200)
	if g.Resolved <= resolved || sides[5] == 0 {
		t.Fatalf("resolved %d (was %d), dice supplied by sides %v: want the phase resolved with a d5", g.Resolved, resolved, sides)
	}
	h.Close()
	if _, err := VerifyPath(gdir, nil); err != nil {
		t.Error(err)
	}
}

// feedDice supplies, one at a time, the die each waiting resolution of a
// game asks for next, a face drawn from faces, until none waits (or n are
// given); it returns how many dice of each size were supplied.
func feedDice(t testing.TB, h *Host, game string, clk *testClock, faces engine.Dice, n int) map[int]int {
	t.Helper()
	g, _ := h.Game(game)
	sides := map[int]int{}
	for i := 0; i < n; i++ {
		w := g.DiceWanted(clk.Now())
		if w == nil {
			break
		}
		if w.Misfit != "" {
			t.Fatalf("%s", w)
		}
		r := w.Want[0]
		v := faces.Roll(r.Sides, r.Why)
		arg := fmt.Sprint(v)
		if r.Sides == 10 && v == 10 {
			arg = "0" // as a d10's 0 face is read
		}
		if err := h.Referee(game, Command{Name: "dice", Args: []string{arg}}); err != nil {
			t.Fatalf("dice %s for %s: %v", arg, dieFor(r), err)
		}
		sides[r.Sides]++
	}
	return sides
}

// Every ruleset plays a whole game with manual dice through the
// adjudicator, the host operator supplying each die a resolution asks for,
// whatever its size; the log verifies. Objective: Sweden with incremental
// odds (34A) rolls its ten-sided dice among them.
func TestManualDiceGamesOfEveryRuleset(t *testing.T) {
	if testing.Short() {
		t.Skip("full games")
	}
	for _, name := range rulesetNames() {
		if name == "racetest" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			setup := engine.Setup{}
			if name == "sweden43" {
				setup.Options = []string{"incremental"}
			}
			g, dir, supplied := playManual(t, name, 2, setup)
			if g.Ended == nil || g.Ended.Result == nil {
				t.Fatalf("no result: %+v", g.Ended)
			}
			t.Logf("%d phases, dice supplied by sides %v: %.80s", g.Resolved, supplied, g.Ended.Result.Summary)
			if name == "sweden43" && supplied[10] == 0 {
				t.Errorf("no ten-sided die supplied in a game with incremental odds: %v", supplied)
			}
			if _, err := VerifyPath(dir, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// BenchmarkDiceWanted times what checking one manual die costs: a dry
// resolution of the phase waiting for it (each value given to dice add is
// checked so), here an Objective: Sweden combat phase.
func BenchmarkDiceWanted(b *testing.B) {
	h, clk, _ := newHost(b)
	spec := Spec{Game: "g", Ruleset: "sweden43", Dice: "manual", Timing: Timing{Deadline: Duration(48 * time.Hour)}}
	rs, _ := engine.Lookup("sweden43")
	for i, s := range rs.Sides() {
		spec.Players = append(spec.Players, Player{Side: s, Address: string(s) + "@example.org", Key: "k", Fingerprint: fmt.Sprint("FP", i)})
	}
	g, err := h.Create(spec)
	if err != nil {
		b.Fatal(err)
	}
	faces := engine.NewSeededDice([]byte("bench"), "g", "", [32]byte{})
	for n := 0; n < 100 && g.Ended == nil; n++ {
		for _, s := range g.Owing() {
			body := rs.(engine.Player).Play(rs.View(g.State, s), s, nil)
			submit(b, h, "g", s, orders("g", g.Opened.Phase, string(s), body))
		}
		if w := g.DiceWanted(clk.Now()); w != nil && strings.HasSuffix(w.Phase, "-combat") {
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g.DiceWanted(clk.Now())
			}
			return
		}
		feedDice(b, h, "g", clk, faces, 1000)
	}
	b.Fatal("no combat phase waited for dice")
}
