package adjudicator

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"skagerrak/engine"
)

// TestShortMailOnEveryRuleset plays each ruleset with its scripted
// players and checks every report's map against what the side could see:
// a side that owes orders always gets its map; a side that owes nothing
// gets it only when something drawn on it changed since the last map it
// was sent, and not when only the captions (which name the phase) did.
// Every ruleset but The Kriegsmarine Strikes (where both sides owe orders
// every phase) sends at least one report for information without its map
// although the picture's caption changed, and at least one with it.
func TestShortMailOnEveryRuleset(t *testing.T) {
	for _, name := range rulesetNames() {
		rs, _ := engine.Lookup(name)
		pic, drawn := rs.(engine.Picturer)
		dig, digested := rs.(engine.MapDigester)
		if !drawn || !digested {
			continue // no map (the test ruleset)
		}
		t.Run(name, func(t *testing.T) {
			g := playForShortMail(t, name, 8)
			type sent struct {
				png []byte
				sum [32]byte
			}
			last := map[engine.Side]sent{}
			var info, short, captionOnly int
			for _, r := range g.reports {
				q := r.Queued
				if q.Kind != MailReport {
					continue
				}
				then, err := g.reportAt(r.Seq)
				if err != nil {
					t.Fatal(err)
				}
				v := then.Rules.View(then.State, q.Side)
				sum, err := dig.MapDigest(v, q.Side)
				if err != nil {
					t.Fatal(err)
				}
				owes := then.owes(q.Side)
				before, seen := last[q.Side]
				switch {
				case owes && !q.Map:
					t.Errorf("%s: the report to %s, which owes orders, has no map", q.ID, q.Side)
				case !seen && !q.Map:
					t.Errorf("%s: the first report to %s has no map", q.ID, q.Side)
				case !owes && seen && q.Map == (sum == before.sum):
					t.Errorf("%s: report for information to %s: map attached %v, but the map shows something new: %v", q.ID, q.Side, q.Map, sum != before.sum)
				}
				if !owes {
					info++
				}
				if !q.Map {
					short++
					png, err := pic.Picture(v, q.Side)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(png, before.png) {
						captionOnly++
					}
					continue
				}
				png, err := pic.Picture(v, q.Side)
				if err != nil {
					t.Fatal(err)
				}
				last[q.Side] = sent{png, sum}
			}
			t.Logf("%s: %d reports for information, %d without the map, %d of them with a new caption", name, info, short, captionOnly)
			if name == "kriegsmarine" {
				if info != 0 {
					t.Errorf("%d reports for information; every phase of The Kriegsmarine Strikes asks orders of both sides", info)
				}
				return
			}
			if captionOnly == 0 {
				t.Errorf("no report for information left its map out when only the caption changed")
			}
			if info-short == 0 {
				t.Errorf("no report for information carried a map that changed")
			}
		})
	}
}

// playForShortMail plays up to phases phases of a game of ruleset name,
// every side sending its scripted player's orders, and returns the game.
func playForShortMail(t *testing.T, name string, phases int) *Game {
	t.Helper()
	clk := &testClock{t: time.Date(2026, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(t.TempDir(), Options{Clock: clk, Entropy: bytes.NewReader(bytes.Repeat([]byte{7}, 64))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	rs, _ := engine.Lookup(name)
	spec := Spec{Game: "short", Ruleset: name, HostFrom: "host@skagerrak.example",
		Timing: Timing{Deadline: Duration(48 * time.Hour)}}
	for i, s := range rs.Sides() {
		spec.Players = append(spec.Players, Player{Side: s, Address: string(s) + "@example.org", Key: "k", Fingerprint: fmt.Sprint("FP", i)})
	}
	if _, err := h.Create(spec); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game("short")
	bot := rs.(engine.Player)
	for phase := 0; phase < phases && g.Ended == nil; phase++ {
		for _, s := range g.Owing() {
			body := bot.Play(rs.View(g.State, s), s, engine.NewSeededDice([]byte("short"), string(s), g.Opened.Phase, [32]byte{}))
			submit(t, h, "short", s, orders("short", g.Opened.Phase, string(s), body))
		}
		clk.Add(time.Hour)
	}
	return g
}
