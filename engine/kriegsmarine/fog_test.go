package kriegsmarine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"skagerrak/engine"
)

// hiddenVariant adds to side's order text moves the enemy cannot detect:
// submarines moving without searching (6.34: searches never see them),
// ships held off the map spending points towards an arrow (6.16), and
// surface ships that neither start nor end anywhere the enemy searches,
// reports passively (6.37) or could meet. It returns "" if there is nothing
// to vary.
func hiddenVariant(s *State, side engine.Side, text string, enemyOrders *Orders, k int) string {
	o, errs := parseOrders(s.view(side), text)
	if len(errs) > 0 {
		return ""
	}
	busy := map[string]bool{}
	for _, m := range o.Moves {
		for _, id := range m.Units {
			busy[id] = true
		}
	}
	for _, sr := range o.Searches {
		busy[sr.Unit] = true
	}
	for _, t := range s.Tracks {
		for _, id := range append(append([]string(nil), t.TrackerUnits...), t.TrackedUnits...) {
			busy[id] = true
		}
	}
	watched := map[engine.Hex]bool{}
	for _, sr := range enemyOrders.Searches {
		watched[sr.Hex] = true
	}
	// Where enemy ships end their moves: a submarine there may attack
	// them (8.1) if its side finds them, so whether it stays is not hidden.
	arrive := map[engine.Hex]bool{}
	for _, m := range enemyOrders.Moves {
		if len(m.Path) > 0 {
			arrive[m.Path[len(m.Path)-1]] = true
		}
	}
	safe := func(d *UnitDef, h engine.Hex) bool {
		if watched[h] || s.passiveSpecial(side, d, h) || norwegian(h) {
			return false
		}
		for _, u := range s.Units {
			if def(u.ID).Side != side && u.Where == AtMap && u.Hex.Distance(h) <= 7 {
				return false
			}
		}
		return true
	}
	var extra []string
	n := 0
	for _, u := range s.Units {
		d := def(u.ID)
		if d.Side != side || busy[u.ID] || d.Air {
			continue
		}
		n++
		if (n+k)%2 == 0 {
			continue
		}
		switch {
		case u.Where == AtHeld:
			cost, _ := TheMap().EntryCost(engine.Hex{Row: 1, Col: 13})
			if u.Spent == 0 && d.Speed(s.Turn) < cost {
				extra = append(extra, fmt.Sprintf("enter %s A13 spend %d", d.Name, 1))
			} else if u.Spent == 0 {
				extra = append(extra, fmt.Sprintf("enter %s A13 spend %d", d.Name, 1+k%3))
			}
		case u.Where == AtMap && d.Sub() && (len(s.visibleAt(other(side), u.Hex)) > 0 || arrive[u.Hex]):
			// A submarine sharing a hex with enemy ships may attack them
			// (8.1): whether it stays is not hidden.
		case u.Where == AtMap && (d.Sub() || safe(d, u.Hex)):
			if (d.Nation == "NO" || d.Nation == "DK") && (s.intervention() == 0 || s.Turn < s.intervention()) {
				continue
			}
			for i, nb := range u.Hex.Neighbors() {
				if (i+k)%3 != 0 {
					continue
				}
				if r, _ := enterable(side, d.Nation, d.Sub(), nb, s.Turn, s.intervention()); r != "" {
					continue
				}
				if r, _ := crossable(d.Sub(), u.Hex, nb); r != "" {
					continue
				}
				if !d.Sub() && !safe(d, nb) {
					continue
				}
				if d.Sub() && (len(s.visibleAt(other(side), nb)) > 0 || arrive[nb]) {
					continue
				}
				extra = append(extra, fmt.Sprintf("move %s %s", d.Name, nb))
				break
			}
		}
	}
	if len(extra) == 0 {
		return ""
	}
	out := text + "\n" + strings.Join(extra, "\n") + "\n"
	if _, errs := parseOrders(s.view(side), out); len(errs) > 0 {
		return ""
	}
	return out
}

var fogSeeds = []string{"fog-1", "fog-2", "fog-3", "fog-4", "fog-5", "fog-6"}

// TestFogOfWarUndetectedActionsLeaveTheEnemyViewUnchanged is the fog of
// war property (DESIGN.md): what one side does that the other does not
// detect never changes a byte of the other side's View.
func TestFogOfWarUndetectedActionsLeaveTheEnemyViewUnchanged(t *testing.T) {
	r := Ruleset{}
	checked, shorts := 0, 0
	optionSets := [][]string{{OptWeather}, {OptWeather, OptCommanders, OptQShips, OptIndependent, OptSplitting, OptBismarck, OptGrafZeppelin, OptWilfred, OptDanish, OptWehrmacht, OptSupply}}
	for i, seed := range fogSeeds {
		secret := []byte(seed)
		st, err := r.New(engine.Setup{Options: optionSets[i%2]}, engine.NewSeededDice(secret, "g", "setup", [32]byte{}))
		if err != nil {
			t.Fatal(err)
		}
		for turn := 1; turn <= LastTurn && !st.(*State).Over; turn++ {
			s := st.(*State)
			texts := map[engine.Side]string{}
			orders := map[engine.Side]*Orders{}
			for _, side := range []engine.Side{Allied, German} {
				texts[side] = r.Play(r.View(st, side), side, engine.NewSeededDice(secret, "p", fmt.Sprint(turn, side), [32]byte{}))
				if asker := []engine.Side{"", German, Allied}[i%3]; asker == side {
					// This side decides its encounters and battles in
					// person: short phases open inside the turn.
					texts[side] = strings.ReplaceAll(strings.ReplaceAll(texts[side], "encounter all track", ""), "encounter all evade", "") + "\nencounter all ask\ncombat ask\n"
				}
				o, errs := parseOrders(s.view(side), texts[side])
				if len(errs) > 0 {
					t.Fatalf("turn %d %s: %v", turn, side, errs)
				}
				orders[side] = o
			}
			for _, side := range []engine.Side{Allied, German} {
				enemy := other(side)
				variant := hiddenVariant(s, side, texts[side], orders[enemy], turn)
				if variant == "" {
					continue
				}
				vo, _ := parseOrders(s.view(side), variant)
				base := map[engine.Side]engine.Orders{side: orders[side], enemy: orders[enemy]}
				alt := map[engine.Side]engine.Orders{side: vo, enemy: orders[enemy]}
				a, err := r.Resolve(st, base, engine.NewSeededDice(secret, "g", phaseID(turn), [32]byte{}))
				if err != nil {
					t.Fatal(err)
				}
				b, err := r.Resolve(st, alt, engine.NewSeededDice(secret, "g", phaseID(turn), [32]byte{}))
				if err != nil {
					t.Fatal(err)
				}
				// Through the short phases of the turn, the enemy's View
				// (its question, if it owes one) stays the same too.
				for a.(*State).Pending != nil || b.(*State).Pending != nil {
					va, vb := mustJSON(t, r.View(a, enemy)), mustJSON(t, r.View(b, enemy))
					if string(va) != string(vb) || r.Phase(a).ID != r.Phase(b).ID {
						t.Fatalf("seed %s turn %d: %s's undetected actions changed the %s view in a short phase.\nvariant orders:\n%s\nviews:\n%s\n%s", seed, turn, side, enemy, variant, va, vb)
					}
					a, b = answerShortPhase(t, a, secret), answerShortPhase(t, b, secret)
				}
				sa, _ := json.Marshal(a)
				sb, _ := json.Marshal(b)
				if string(sa) == string(sb) {
					continue // the variant changed nothing at all
				}
				if a.(*State).Over {
					continue // the end of the game reveals everything (4.1, 16.0)
				}
				va, _ := json.Marshal(r.View(a, enemy))
				vb, _ := json.Marshal(r.View(b, enemy))
				if string(va) != string(vb) {
					t.Fatalf("seed %s turn %d: %s's undetected actions changed the %s view.\nvariant orders:\n%s\nviews:\n%s\n%s", seed, turn, side, enemy, variant, va, vb)
				}
				checked++
			}
			next, err := r.Resolve(st, map[engine.Side]engine.Orders{Allied: orders[Allied], German: orders[German]}, engine.NewSeededDice(secret, "g", phaseID(turn), [32]byte{}))
			if err != nil {
				t.Fatal(err)
			}
			for next.(*State).Pending != nil {
				// The side that owes nothing sees the turn's start: no
				// sign of the decision pending (its encounter or battle
				// is reported when the turn is resolved).
				for _, side := range []engine.Side{Allied, German} {
					if !contains(sideStrings(r.Phase(next).Owes), string(side)) && string(mustJSON(t, r.View(next, side))) != string(mustJSON(t, r.View(st, side))) {
						t.Fatalf("seed %s %s: the View of %s, who owes nothing, changed", seed, r.Phase(next).ID, side)
					}
				}
				shorts++
				next = answerShortPhase(t, next, secret)
			}
			st = next
		}
	}
	if checked < 20 || shorts == 0 {
		t.Fatalf("only %d variants checked, %d short phases", checked, shorts)
	}
	t.Logf("%d hidden variants checked, %d short phases", checked, shorts)
}

// answerShortPhase resolves an open short decision phase with the scripted
// players' answers.
func answerShortPhase(t *testing.T, st engine.State, secret []byte) engine.State {
	t.Helper()
	r := Ruleset{}
	ph := r.Phase(st)
	orders := map[engine.Side]engine.Orders{}
	for _, side := range ph.Owes {
		o, errs := r.ParseOrders(st, side, r.Play(r.View(st, side), side, nil))
		if len(errs) > 0 {
			t.Fatalf("%s %s: %v", ph.ID, side, errs)
		}
		orders[side] = o
	}
	next, err := r.Resolve(st, orders, engine.NewSeededDice(secret, "g", ph.ID, [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	return next
}

func sideStrings(sides []engine.Side) []string {
	var out []string
	for _, s := range sides {
		out = append(out, string(s))
	}
	return out
}

// TestFullGameDeterministic plays all 18 turns twice with the scripted
// players, straight through the Ruleset, and gets the same digests; and
// checks that searches, encounters and tracking happened.
func TestFullGameDeterministic(t *testing.T) {
	for _, setup := range []engine.Setup{{Options: []string{OptInvasion}}, {Options: []string{OptWeather, OptSplitting, OptIndependent, OptBismarck, OptGrafZeppelin, OptCommanders, OptQShips, OptWilfred, OptDanish, OptWehrmacht, OptSupply}}} {
		s1, d1 := playGame(t, setup, "determinism")
		s2, d2 := playGame(t, setup, "determinism")
		if (setup.Options[0] == OptInvasion && len(d1) != LastTurn) || len(d1) == 0 || len(d1) > LastTurn || strings.Join(d1, ",") != strings.Join(d2, ",") {
			t.Fatalf("%v: digests differ or wrong count (%d)", setup.Options, len(d1))
		}
		if !s1.Over || s2.Result == nil || s1.Result.Summary != s2.Result.Summary {
			t.Fatalf("results differ: %v / %v", s1.Result, s2.Result)
		}
		kinds := map[string]int{}
		for _, e := range s1.Log {
			kinds[e.Kind]++
		}
		for _, k := range []string{"search", "searched", "passive", "encounter", "tracking", "evasion"} {
			if kinds[k] == 0 {
				t.Errorf("%v: no %s entries in a whole game: %v", setup.Options, k, kinds)
			}
		}
		_, d3 := playGame(t, setup, "another seed")
		if strings.Join(d1, ",") == strings.Join(d3, ",") {
			t.Errorf("another seed gave the same game")
		}
	}
}
