package adjudicator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
)

// playThrough plays a whole game of a ruleset with its scripted players
// through the adjudicator, each side ordering from its own View, with the
// dice secret drawn from entropy; it returns the game and its directory.
func playThrough(t *testing.T, name string, entropy byte, options ...string) (*Game, string) {
	return playAsking(t, name, entropy, nil, options...)
}

// asking gives, per side, the standing line by which it asks to decide in
// person, and tells the short phases that asking opens.
type asking struct {
	side engine.Side
	// ask turns the side's scripted orders of a main phase into orders
	// that ask.
	ask   func(body string) string
	short func(phase string) bool
	// quiet says the other side's View does not change in a short phase
	// (The Kriegsmarine Strikes: the turn is not resolved until the end),
	// so it must get no report for one.
	quiet bool
	// owed counts the short phases opened, and wrong those owed by
	// anyone else than the asking side.
	owed, wrong int
}

// playAsking is playThrough with one side asking to decide in person.
func playAsking(t *testing.T, name string, entropy byte, ask *asking, options ...string) (*Game, string) {
	t.Helper()
	return playGame(t, name, entropy, ask, engine.Setup{Options: options}, nil)
}

// playSetup plays a whole game of a given scenario and options.
func playSetup(t *testing.T, name string, entropy byte, setup engine.Setup) (*Game, string) {
	t.Helper()
	return playGame(t, name, entropy, nil, setup, nil)
}

// playManual plays a whole game with manual dice: whenever a resolution
// waits, the host operator supplies the die it asks for next, drawn from a
// stream seeded by entropy; it returns the game, its directory and how
// many dice of each size were supplied.
func playManual(t *testing.T, name string, entropy byte, setup engine.Setup) (*Game, string, map[int]int) {
	t.Helper()
	supplied := map[int]int{}
	g, dir := playGame(t, name, entropy, nil, setup, supplied)
	return g, dir, supplied
}

// playGame plays a whole game; with supplied non-nil it has manual dice and
// counts there the dice supplied, by their sides.
func playGame(t *testing.T, name string, entropy byte, ask *asking, setup engine.Setup, supplied map[int]int) (*Game, string) {
	t.Helper()
	dir := t.TempDir()
	clk := &testClock{t: time.Date(2026, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(dir, Options{Clock: clk, Entropy: bytes.NewReader(bytes.Repeat([]byte{entropy}, 32))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	rs, _ := engine.Lookup(name)
	spec := Spec{Game: "full", Ruleset: name, Setup: setup, Timing: Timing{Deadline: Duration(48 * time.Hour)}}
	if supplied != nil {
		spec.Dice = "manual"
	}
	for i, s := range rs.Sides() {
		spec.Players = append(spec.Players, Player{Side: s, Address: string(s) + "@example.org", Key: "k", Fingerprint: fmt.Sprint("FP", i)})
	}
	g, err := h.Create(spec)
	if err != nil {
		t.Fatal(err)
	}
	bot := rs.(engine.Player)
	faces := engine.NewSeededDice([]byte{entropy}, "manual dice", "", [32]byte{})
	for n := 0; g.Ended == nil; n++ {
		if n > 500 {
			t.Fatalf("no end after %d phases", n)
		}
		if ask != nil && ask.short(g.Opened.Phase) {
			ask.owed++
			if len(g.Opened.Owes) != 1 || g.Opened.Owes[0] != ask.side {
				ask.wrong++
			}
		}
		for _, s := range g.Owing() {
			body := bot.Play(rs.View(g.State, s), s, engine.NewSeededDice([]byte{entropy}, string(s), g.Opened.Phase, [32]byte{}))
			if ask != nil && s == ask.side && !ask.short(g.Opened.Phase) {
				body = ask.ask(body)
			}
			r := submit(t, h, "full", s, orders("full", g.Opened.Phase, string(s), body))
			if r.Status != StatusAccepted {
				t.Fatalf("%s %s: the scripted orders were %s: %s %v\n%s", g.Opened.Phase, s, r.Status, r.Reason, r.Errors, body)
			}
		}
		if supplied != nil {
			for n, k := range feedDice(t, h, "full", clk, faces, 1000) {
				supplied[n] += k
			}
		}
		clk.Add(time.Hour)
	}
	return g, filepath.Join(dir, "full")
}

// TestFullGamesThroughTheAdjudicator plays whole games of each ruleset by
// its scripted players through the adjudicator to a result, and verifies
// each game's log from nothing, rolls included.
func TestFullGamesThroughTheAdjudicator(t *testing.T) {
	if testing.Short() {
		t.Skip("full games")
	}
	// The secrets are picked so that some games go the whole length (18
	// turns; 21 turns of two player-turns) and others end early (a raider
	// breaking out; sudden death). A change to the rules or the scripted
	// players moves the outcomes: pick again then (fullPhases 0 skips the
	// length check).
	// Every ruleset plays one game with the secret 1; these play more.
	type fullGame struct {
		ruleset    string
		entropy    byte
		options    []string
		fullPhases int
	}
	cases := []fullGame{
		{"kriegsmarine", 3, nil, 18},
		{"norway1940", 22, nil, 42},
		{"kriegsmarine", 3, []string{"all"}, 0},
		{"norway1940", 6, []string{"all"}, 0},
	}
	for _, n := range rulesetNames() {
		if n != "racetest" {
			cases = append(cases, fullGame{n, 1, nil, 0})
		}
	}
	for _, c := range cases {
		name := fmt.Sprint(c.ruleset, "/", c.entropy)
		if len(c.options) == 1 && c.options[0] == "all" {
			rs, _ := engine.Lookup(c.ruleset)
			c.options = allOptions(rs)
			name += "/all-options"
		}
		t.Run(name, func(t *testing.T) {
			g, dir := playThrough(t, c.ruleset, c.entropy, c.options...)
			if g.Ended.Result == nil || g.Ended.Result.Summary == "" {
				t.Fatalf("no result: %+v", g.Ended)
			}
			t.Logf("%d phases: %s", g.Resolved, g.Ended.Result.Summary)
			if c.fullPhases > 0 && g.Resolved != c.fullPhases {
				t.Errorf("the game ended after %d phases; this secret used to play all %d", g.Resolved, c.fullPhases)
			}
			if c.ruleset == "kriegsmarine" && c.fullPhases > 0 {
				// The whole game had searches, encounters and tracking in it
				// (6.3, 6.4): count the kinds of its report entries.
				kinds := logKinds(t, g.State)
				for _, k := range []string{"search", "passive", "encounter", "tracking", "combat"} {
					if kinds[k] == 0 {
						t.Errorf("no %q in the whole game (%v)", k, kinds)
					}
				}
				t.Logf("report entries by kind: %v", kinds)
			}
			rep, err := VerifyPath(dir, nil)
			if err != nil || !rep.RollsChecked || !rep.Ended {
				t.Fatalf("verify: %+v %v", rep, err)
			}
		})
	}
}

// TestDecisionsInPersonThroughTheAdjudicator: a side that asks to decide
// encounters, battles (6.41, 8.24) or its reactions (9.14.5, 8.9.3.1) in
// person gets short phases that it alone owes, answered from its View; the
// game still ends with a result and verifies.
func TestDecisionsInPersonThroughTheAdjudicator(t *testing.T) {
	if testing.Short() {
		t.Skip("full games")
	}
	cases := askingCases()
	for name, ask := range cases {
		t.Run(name, func(t *testing.T) {
			g, dir := playAsking(t, name, 3, ask)
			if ask.owed == 0 || ask.wrong != 0 {
				t.Fatalf("%d short phases, %d owed by another side than %s", ask.owed, ask.wrong, ask.side)
			}
			t.Logf("%d phases, %d of them short: %.100s", g.Resolved, ask.owed, g.Ended.Result.Summary)
			// The side that did not ask is not sent a report for a short
			// phase that changed nothing it knows: at most one report per
			// main phase, and the first.
			if !ask.quiet {
				return
			}
			ms, err := Mails(LogReader{Path: filepath.Join(dir, LogFile)}, func(q MailQueued) bool {
				return q.Kind == MailReport && q.Side != ask.side
			})
			if err != nil {
				t.Fatal(err)
			}
			if main := g.Resolved - ask.owed; len(ms) > main+1 {
				t.Errorf("the side that did not ask got %d reports for %d main phases", len(ms), main)
			}
			if _, err := VerifyPath(dir, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// askingCases are, per ruleset that can, a side asking to decide every
// mid-turn choice in person.
func askingCases() map[string]*asking {
	return map[string]*asking{
		"kriegsmarine": {side: "german", ask: func(body string) string {
			// Every encounter choice becomes "ask", and battles too.
			lines := strings.Split(body, "\n")
			for i, l := range lines {
				if f := strings.Fields(l); len(f) >= 3 && f[0] == "encounter" {
					lines[i] = strings.Join(f[:len(f)-1], " ") + " ask"
				}
			}
			return "combat ask\n" + strings.Join(lines, "\n")
		}, short: func(p string) bool {
			return strings.Contains(p, "-encounter") || strings.Contains(p, "-combat")
		}, quiet: true},
		"norway1940": {side: "allied", ask: func(body string) string { return "ask all\n" + body },
			short: func(p string) bool { return strings.Contains(p, "-react") }},
	}
}

// logKinds counts a Kriegsmarine Strikes state's report entries by kind,
// read from its JSON as any tool would.
func logKinds(t *testing.T, st engine.State) map[string]int {
	t.Helper()
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Log []struct {
			Kind string `json:"kind"`
		} `json:"log"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range s.Log {
		out[e.Kind]++
	}
	return out
}
