package adjudicator

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
	_ "skagerrak/engine/kriegsmarine"
)

// recordedGame is what a checked-in log says of a game: how it was made,
// and each phase's orders (whole order files) and rolls.
type recordedGame struct {
	created GameCreated
	secret  []byte
	orders  map[string][]string // by phase, in the order accepted
	rolls   map[string][]engine.Roll
	digest  map[string]string // state digest after each phase
}

func readRecorded(t *testing.T, path string) recordedGame {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := recordedGame{orders: map[string][]string{}, rolls: map[string][]engine.Roll{}, digest: map[string]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case EvGameCreated:
			json.Unmarshal(ev.Data, &r.created)
		case EvOrdersAccepted:
			var d OrdersAccepted
			json.Unmarshal(ev.Data, &d)
			r.orders[d.Phase] = append(r.orders[d.Phase], d.Text)
		case EvPhaseResolved:
			var d PhaseResolved
			json.Unmarshal(ev.Data, &d)
			r.rolls[d.Phase], r.digest[d.Phase] = d.Rolls, d.StateDigest
		case EvGameEnded:
			var d GameEnded
			json.Unmarshal(ev.Data, &d)
			r.secret, _ = hex.DecodeString(d.Secret)
		}
	}
	if err := sc.Err(); err != nil || r.secret == nil {
		t.Fatalf("%s: %v (secret %x)", path, err, r.secret)
	}
	return r
}

// faces writes rolls as the arguments of "dice".
func faces(rolls []engine.Roll) []string {
	var out []string
	for _, r := range rolls {
		out = append(out, strconv.Itoa(r.Value))
	}
	return out
}

// within runs f and ends the test binary, failed, if it takes longer than
// d: a resolution that loops for ever fails the run rather than hanging it
// (it holds the host's lock, so not even the test's clean-up could end).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		fmt.Fprintf(os.Stderr, "--- FAIL: %s: %s did not answer within %s: the resolution runs away\n", t.Name(), what, d)
		os.Exit(1)
	}
}

// manualReplay makes the game of a checked-in log again with manual dice:
// the same secret (so the same set-up) and spec, and for each phase of
// phases the orders it records and, as the dice supplied, its rolls, so
// that each resolution asks, roll by roll, for what the recorded one
// rolled. The state after each is checked against the log's.
func manualReplay(t *testing.T, log string, phases ...string) (*Host, *Game, *testClock, recordedGame) {
	t.Helper()
	rec := readRecorded(t, filepath.Join("..", "cmd", "skagerrak", "testdata", "logs", log))
	clk := &testClock{t: time.Date(2026, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(t.TempDir(), Options{Clock: clk, Entropy: bytes.NewReader(rec.secret)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	gc := rec.created
	g, err := h.Create(Spec{Game: gc.Game, Ruleset: gc.Ruleset, Setup: gc.Setup, Players: gc.Players, Timing: gc.Timing, Dice: "manual"})
	if err != nil {
		t.Fatal(err)
	}
	for _, phase := range phases {
		submitAll(t, h, g, rec.orders[phase])
		if n := len(rec.rolls[phase]); n > 0 {
			if err := h.Referee(g.ID, Command{Name: "dice", Args: faces(rec.rolls[phase])}); err != nil {
				t.Fatal(err)
			}
		}
		if dg, _ := Digest(g.State); dg != rec.digest[phase] {
			t.Fatalf("%s: state %s, the log records %s: the game is not the recorded one", phase, dg, rec.digest[phase])
		}
	}
	return h, g, clk, rec
}

// submitAll submits whole order files, each for the side its header names.
func submitAll(t *testing.T, h *Host, g *Game, texts []string) {
	t.Helper()
	for _, text := range texts {
		f, err := engine.ParseOrderFile(text)
		if err != nil {
			t.Fatal(err)
		}
		if r := submit(t, h, g.ID, engine.Side(f.Side), text); r.Status != StatusAccepted {
			t.Fatalf("%s %s: %+v", f.Phase, f.Side, r)
		}
	}
}

// A Kriegsmarine game of revision 2 with manual dice, its dice spent in
// the middle of a battle: the checked-in options game made again with
// manual dice (manualReplay). Its T03 fought a battle of 30 gunnery rolls
// among 53. With the first 20 of them in hand, the resolution stops at
// roll 21 and says so: the d6 the log records as roll 21, for what it
// records ("gunnery (8.23)"); with 5 more, at roll 26; with the rest, T03
// resolves as recorded.
func TestManualDiceSpentMidBattleWaitForTheNextDie(t *testing.T) {
	h, g, clk, rec := manualReplay(t, "kriegsmarine-r2-options.jsonl", "T01", "T02")
	rolls := rec.rolls["T03"]
	submitAll(t, h, g, rec.orders["T03"])
	if err := h.Referee(g.ID, Command{Name: "dice", Args: faces(rolls[:20])}); err != nil {
		t.Fatal(err)
	}
	var w *DiceWait
	within(t, 20*time.Second, "status (the dry run)", func() { w = g.DiceWanted(clk.Now()) })
	if next := rolls[20]; w == nil || len(w.Want) != 1 || w.Want[0].Sides != next.Sides || w.Want[0].Why != next.Why || next.Why != "gunnery (8.23)" {
		t.Fatalf("waits for %+v, want roll 21 of T03: a d%d for %s", w, next.Sides, next.Why)
	}
	var err error
	within(t, 20*time.Second, "dice add", func() {
		err = h.Referee(g.ID, Command{Name: "dice", Args: faces(rolls[20:25])})
	})
	if err != nil || g.Resolved != 2 || len(g.Dice) != 25 {
		t.Fatalf("dice add of five: %v; %d phases resolved, %d dice in hand", err, g.Resolved, len(g.Dice))
	}
	if w := g.DiceWanted(clk.Now()); w == nil || w.Want[0].Why != rolls[25].Why {
		t.Fatalf("after 25 dice, waits for %+v, want %s", w, rolls[25].Why)
	}
	if err := h.Referee(g.ID, Command{Name: "dice", Args: faces(rolls[25:])}); err != nil {
		t.Fatal(err)
	}
	if dg, _ := Digest(g.State); g.Resolved != 3 || dg != rec.digest["T03"] {
		t.Fatalf("T03 with every recorded die: %d resolved, state %s, the log records %s", g.Resolved, dg, rec.digest["T03"])
	}
}

// The runaway battle of issue 21. In the same game both sides fight every
// encounter of T03 ("encounter all fight" in place of their encounter
// lines), and the referee has supplied forty 1s. 8.25 (revision 2): a
// battle goes on until one side is gone or chooses to end it; a gunnery
// roll of 2 (1+1) hurts no ship on any Gunnery Table row (8.23), so with
// 1s no ship is hurt and both fight on: the battle needs die after die.
// The dry run behind status and dice add used to fill the dice it lacked
// with 1s, every filler shot missed, and it never ended (status and dice
// add grew past 13 GB). Now it stops at the 41st die, a d6 of the
// battle's gunnery, and says so at once; dice add of five more 1s returns
// at once, the game still waiting.
func TestManualDiceRunawayBattleWaitsForTheNextDie(t *testing.T) {
	h, g, clk, rec := manualReplay(t, "kriegsmarine-r2-options.jsonl", "T01", "T02")
	var fighting []string
	for _, text := range rec.orders["T03"] {
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			if !strings.HasPrefix(l, "encounter ") {
				lines = append(lines, l)
			}
		}
		fighting = append(fighting, strings.Join(lines, "\n")+"\nencounter all fight\n")
	}
	// The last orders in make the phase due: it resolves, and waits.
	within(t, 20*time.Second, "the orders", func() { submitAll(t, h, g, fighting) })
	ones := strings.Fields(strings.Repeat("1 ", 40))
	var err error
	within(t, 20*time.Second, "dice add", func() { err = h.Referee(g.ID, Command{Name: "dice", Args: ones}) })
	if err != nil || g.Resolved != 2 || len(g.Dice) != 40 {
		t.Fatalf("dice add of forty 1s: %v; %d phases resolved, %d dice in hand", err, g.Resolved, len(g.Dice))
	}
	var w *DiceWait
	within(t, 20*time.Second, "status (the dry run)", func() { w = g.DiceWanted(clk.Now()) })
	if w == nil || len(w.Want) != 1 || w.Want[0].Sides != 6 || w.Want[0].Why != "gunnery (8.23)" {
		t.Fatalf("waits for %+v, want a d6 for gunnery (8.23)", w)
	}
	within(t, 20*time.Second, "dice add", func() { err = h.Referee(g.ID, Command{Name: "dice", Args: ones[:5]}) })
	if err != nil || g.Resolved != 2 || len(g.Dice) != 45 || g.DiceWanted(clk.Now()) == nil {
		t.Fatalf("dice add of five more 1s: %v; %d phases resolved, %d dice in hand", err, g.Resolved, len(g.Dice))
	}
}
