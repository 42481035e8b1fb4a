package kriegsmarine

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// arethusaMeetsBismarck is the 6.44 example: Arethusa and Bismarck in K8,
// the Allies search and choose to track.
func arethusaMeetsBismarck(t *testing.T) *State {
	t.Helper()
	s := newGame(t, []string{OptBismarck})
	clearMap(s)
	put(t, s, "arethusa", "K8")
	put(t, s, "bismarck", "K8")
	return s
}

func orderMap(t *testing.T, s *State, allied, german string) map[engine.Side]engine.Orders {
	t.Helper()
	return map[engine.Side]engine.Orders{Allied: parse(t, s, Allied, allied), German: parse(t, s, German, german)}
}

func mustResolve(t *testing.T, st engine.State, orders map[engine.Side]engine.Orders, dice engine.Dice) *State {
	t.Helper()
	next, err := Ruleset{}.Resolve(st, orders, dice)
	if err != nil {
		t.Fatal(err)
	}
	return next.(*State)
}

func viewJSON(t *testing.T, st engine.State, side engine.Side) string {
	t.Helper()
	return string(mustJSON(t, Ruleset{}.View(st, side)))
}

// TestRule6_41_EncounterDecidedInPersonOpensOneShortPhase: the German asked
// to decide Bismarck's encounters in person and the Allies did not: the
// turn stops at the encounter and exactly one extra phase opens, owed by
// the German only; the German sees the encounter as 6.41 reports it, the
// Allies see nothing new; only the choice is accepted; and the answer
// "evade" gives the very state the standing order "evade" gives with the
// same dice (6.44 example: 3+2 fails, Arethusa tracks).
func TestRule6_41_EncounterDecidedInPersonOpensOneShortPhase(t *testing.T) {
	r := Ruleset{}
	s := arethusaMeetsBismarck(t)
	allied := "search surface Arethusa\nencounter Arethusa track"
	md := enginetest.ThenOnes(3, 2)
	st := mustResolve(t, s, orderMap(t, s, allied, "encounter Bismarck ask"), md)
	ph := r.Phase(st)
	if ph.ID != "T01-encounter" || len(ph.Owes) != 1 || ph.Owes[0] != German || !strings.Contains(ph.Title, "German player decides an encounter") {
		t.Fatalf("phase %+v, want T01-encounter owed by the German only", ph)
	}
	if viewJSON(t, st, Allied) != viewJSON(t, s, Allied) {
		t.Fatal("the Allied view changed while the German decides: it reveals the pending decision")
	}
	gv := r.View(st, German).(*View)
	q := gv.Decision
	if q == nil || q.Kind != DecideEncounter || q.Hex != "K8" || strings.Join(q.Units, ",") != "bismarck" || strings.Join(q.Enemy, ",") != "CL" || q.DefaultChoice != ChoiceEvade || gv.Phase != "T01-encounter" {
		t.Fatalf("German question %+v (phase %s)", q, gv.Phase)
	}
	if !strings.Contains(r.Report(gv, German), "You must decide an encounter at K8") {
		t.Errorf("the report does not say what must be decided:\n%s", r.Report(gv, German))
	}
	if _, errs := r.ParseOrders(st, Allied, "track"); len(errs) == 0 {
		t.Error("the Allies, who owe nothing, had orders accepted")
	}
	rejects(t, st, German, "move Bismarck K9", 1, "6.41")
	rejects(t, st, German, "evade\nfight", 2, "6.41")
	rejects(t, st, German, "evade\nstanding", 2, "6.41")
	form := r.OrderForm(gv, German)
	if fo, errs := r.ParseOrders(st, German, form); len(errs) > 0 || fo.(*Orders).Decision.Choice != ChoiceEvade {
		t.Fatalf("the short phase's order form is not the default decision: %v\n%s", errs, form)
	}
	o, errs := r.ParseOrders(st, German, "Evade")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if r.FormatOrders(st, German, o) != "evade\n" {
		t.Errorf("formatted %q", r.FormatOrders(st, German, o))
	}
	before := string(mustJSON(t, st))
	done := mustResolve(t, st, map[engine.Side]engine.Orders{German: o}, md)
	if string(mustJSON(t, st)) != before {
		t.Fatal("Resolve of the short phase modified its input")
	}
	if ph := r.Phase(done); ph.ID != "T02" {
		t.Fatalf("after the decision the phase is %s, want T02", ph.ID)
	}
	standing := resolve(t, arethusaMeetsBismarck(t), allied, "encounter Bismarck evade", 3, 2)
	if string(mustJSON(t, done)) != string(mustJSON(t, standing)) {
		t.Fatal("the encounter decided in person differs from the same standing order with the same dice")
	}
	if len(done.Tracks) != 1 || done.Tracks[0].TrackedUnits[0] != "bismarck" {
		t.Fatalf("tracks %+v, want Arethusa tracking Bismarck", done.Tracks)
	}
}

// TestRule6_41_DeadlineGivesTheStandingChoice: at the deadline the short
// phase takes DefaultOrders, "standing": the group's choice with its "ask"
// line left out (here "all fight"), else track for the Allies and evade for
// the Germans.
func TestRule6_41_DeadlineGivesTheStandingChoice(t *testing.T) {
	r := Ruleset{}
	allied := "search surface Arethusa\nencounter Arethusa track"
	s := arethusaMeetsBismarck(t)
	md := enginetest.ThenOnes(3, 2)
	st := mustResolve(t, s, orderMap(t, s, allied, "encounter Bismarck ask"), md)
	def := r.DefaultOrders(st, German)
	if r.FormatOrders(st, German, def) != "standing\n" {
		t.Fatalf("default decision %q, want standing", r.FormatOrders(st, German, def))
	}
	done := mustResolve(t, st, map[engine.Side]engine.Orders{German: def}, md)
	standing := resolve(t, arethusaMeetsBismarck(t), allied, "", 3, 2)
	if string(mustJSON(t, done)) != string(mustJSON(t, standing)) {
		t.Fatal("the deadline default is not the German default choice, evade")
	}
	s = arethusaMeetsBismarck(t)
	st = mustResolve(t, s, orderMap(t, s, allied, "encounter all fight\nencounter Bismarck ask"), enginetest.ThenOnes())
	if q := r.View(st, German).(*View).Decision; q == nil || q.DefaultChoice != ChoiceFight {
		t.Fatalf("question %+v: the default is the side's standing choice, fight", q)
	}
	// Both sides asked: one phase owed by both.
	s = arethusaMeetsBismarck(t)
	st = mustResolve(t, s, orderMap(t, s, "search surface Arethusa\nencounter all ask", "encounter all ask"), enginetest.ThenOnes())
	if ph := r.Phase(st); ph.ID != "T01-encounter" || len(ph.Owes) != 2 {
		t.Fatalf("phase %+v, want T01-encounter owed by both", ph)
	}
}

// bigBattle puts three capital ships of each side in the open sea at K8
// (a night turn: no escort, 8.29).
func bigBattle(t *testing.T) *State {
	t.Helper()
	s := newGame(t, nil)
	clearMap(s)
	for _, id := range []string{"rodney", "renown", "valiant", "scharnhorst", "gneisenau", "hipper"} {
		put(t, s, id, "K8")
	}
	return s
}

// TestRule8_24_CombatDecidedInPerson: with "combat ask" a side decides
// each round of its battle in a short combat phase: before round 1 its
// declarations (8.26-8.28), before each later round the end-of-round check
// of 8.24 too. Answering "standing" every time gives exactly the state the
// standing orders give with the same dice; both answering "evade" after
// round 1 ends the battle after one round (8.24: both wish to end).
func TestRule8_24_CombatDecidedInPerson(t *testing.T) {
	r := Ruleset{}
	allied, german := "search surface Rodney\nencounter all fight", "encounter all fight"
	s := bigBattle(t)
	want := mustResolve(t, s, orderMap(t, s, allied, german), engine.NewSeededDice([]byte("battle"), "g", "T01", [32]byte{}))
	rounds := strings.Count(want.Engagements[0].Outcome, "round ")
	if rounds < 2 {
		t.Fatalf("the standing battle lasted %d round(s); the test needs two or more: %s", rounds, want.Engagements[0].Outcome)
	}
	d := engine.NewSeededDice([]byte("battle"), "g", "T01", [32]byte{})
	st := mustResolve(t, s, orderMap(t, s, allied, german+"\ncombat ask"), d)
	var ids []string
	for st.Pending != nil {
		ph := r.Phase(st)
		ids = append(ids, ph.ID)
		if len(ph.Owes) != 1 || ph.Owes[0] != German {
			t.Fatalf("%s owed by %v, want the German only", ph.ID, ph.Owes)
		}
		q := r.View(st, German).(*View).Decision
		if q.Kind != DecideCombat || q.Round != len(ids) || len(q.SoFar) != len(ids)-1 {
			t.Fatalf("%s: question %+v", ph.ID, q)
		}
		if q.Round == 1 {
			rejects(t, st, German, "fight", 1, "8.24")
		} else {
			rejects(t, st, German, "track", 1, "8.24")
		}
		rejects(t, st, German, "search surface Hipper", 1, "8.2")
		rejects(t, st, German, "target Hipper PT", 1, "8.221")
		st = mustResolve(t, st, map[engine.Side]engine.Orders{German: r.DefaultOrders(st, German)}, d)
	}
	wantIDs := []string{"T01-combat"}
	for i := 2; i <= rounds; i++ {
		wantIDs = append(wantIDs, fmt.Sprintf("T01-combat-%d", i))
	}
	if g := want.Engagements[0]; len(want.stillAt(g.Allied, g.Hex)) > 0 && len(want.stillAt(g.German, g.Hex)) > 0 {
		// Both sides are still there: the 8.24 check before the next
		// round ended the battle (8.25), and it was asked too.
		wantIDs = append(wantIDs, fmt.Sprintf("T01-combat-%d", rounds+1))
	}
	if strings.Join(ids, ",") != strings.Join(wantIDs, ",") {
		t.Fatalf("short phases %v, want %v (one a round, 8.24)", ids, wantIDs)
	}
	if string(mustJSON(t, st)) != string(mustJSON(t, want)) {
		t.Fatal("the battle decided in person with standing answers differs from the standing orders with the same dice")
	}

	// Both sides ask; both answer evade after round 1: the battle ends.
	d = engine.NewSeededDice([]byte("battle"), "g", "T01", [32]byte{})
	st = mustResolve(t, s, orderMap(t, s, allied+"\ncombat ask", german+"\ncombat ask"), d)
	answer := map[engine.Side]string{Allied: "restrict", German: "pass"}
	for step := 0; st.Pending != nil; step++ {
		ph := r.Phase(st)
		if len(ph.Owes) != 2 || step > 1 {
			t.Fatalf("step %d: %+v", step, ph)
		}
		orders := map[engine.Side]engine.Orders{}
		for _, side := range ph.Owes {
			o, errs := r.ParseOrders(st, side, answer[side])
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			orders[side] = o
		}
		st = mustResolve(t, st, orders, d)
		answer = map[engine.Side]string{Allied: "evade", German: "evade"}
	}
	out := st.Engagements[0].Outcome
	if !strings.Contains(out, "round 1: restricted fire") || strings.Contains(out, "round 2") {
		t.Fatalf("battle %q: want one round with restricted fire (8.26), then both end it (8.24)", out)
	}
}

// playPhases plays a game with the scripted players through every phase,
// short ones included; extra lines are added to a side's turn orders. It
// checks on the way that a side that owes nothing in a short phase sees
// exactly the View it saw before the turn (the fog of war), and that the
// owing side's View survives DecodeView, its order form parses and its
// report says what must be decided. It returns the phase IDs and owers.
func playPhases(t *testing.T, setup engine.Setup, seed string, extra map[engine.Side]string) ([]string, []string) {
	t.Helper()
	r := Ruleset{}
	secret := []byte(seed)
	st, err := r.New(setup, engine.NewSeededDice(secret, "g", "setup", [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	var ids, owes []string
	before := map[engine.Side]string{}
	for i := 0; i < 400 && !r.Phase(st).Over; i++ {
		ph := r.Phase(st)
		ids = append(ids, ph.ID)
		owes = append(owes, fmt.Sprint(ph.Owes))
		if st.(*State).Pending == nil {
			for _, side := range r.Sides() {
				before[side] = viewJSON(t, st, side)
			}
		}
		texts := map[engine.Side]string{}
		orders := map[engine.Side]engine.Orders{}
		for _, side := range r.Sides() {
			owing := false
			for _, o := range ph.Owes {
				owing = owing || o == side
			}
			if !owing {
				if viewJSON(t, st, side) != before[side] {
					t.Fatalf("%s: the View of %s, who owes nothing, changed during the turn", ph.ID, side)
				}
				continue
			}
			v, err := r.DecodeView([]byte(viewJSON(t, st, side)))
			if err != nil {
				t.Fatal(err)
			}
			text := r.Play(v, side, nil)
			if st.(*State).Pending == nil {
				if extra[side] != "" {
					// The extra lines replace the side's default choice.
					var keep []string
					for _, l := range strings.Split(text, "\n") {
						if !strings.HasPrefix(l, "encounter all ") {
							keep = append(keep, l)
						}
					}
					text = strings.Join(keep, "\n") + extra[side]
				}
			} else {
				if !strings.Contains(r.Report(v, side), "You must decide") {
					t.Fatalf("%s: the report does not say what must be decided", ph.ID)
				}
				if _, errs := r.ParseOrders(st, side, r.OrderForm(v, side)); len(errs) > 0 {
					t.Fatalf("%s: the order form does not parse: %v", ph.ID, errs)
				}
			}
			o, errs := r.ParseOrders(st, side, text)
			if len(errs) > 0 {
				t.Fatalf("%s %s: %v\n%s", ph.ID, side, errs, text)
			}
			understood := r.FormatOrders(st, side, o)
			if o2, errs := r.ParseOrders(st, side, understood); len(errs) > 0 || r.FormatOrders(st, side, o2) != understood {
				t.Fatalf("%s %s: the orders as understood do not round-trip: %v\n%s", ph.ID, side, errs, understood)
			}
			texts[side], orders[side] = text, o
		}
		st, err = r.Resolve(st, orders, engine.NewSeededDice(secret, "g", ph.ID, engine.OrdersDigest(texts)))
		if err != nil {
			t.Fatal(err)
		}
	}
	if !r.Phase(st).Over {
		t.Fatal("the game did not end")
	}
	return ids, owes
}

// TestStandingOrdersNeverOpenAShortPhase: with standing orders only, the
// phases of a whole scripted game are exactly T01..T18.
func TestStandingOrdersNeverOpenAShortPhase(t *testing.T) {
	for _, seed := range []string{"standing-1", "standing-2"} {
		ids, _ := playPhases(t, engine.Setup{Options: []string{OptInvasion}}, seed, nil)
		var want []string
		for turn := 1; turn <= LastTurn; turn++ {
			want = append(want, phaseID(turn))
		}
		if strings.Join(ids, ",") != strings.Join(want, ",") {
			t.Fatalf("phases %v, want T01..T18", ids)
		}
	}
}

// TestGermanAsksInAWholeGame: the German decides every encounter and
// battle round in person through a whole scripted game: every extra phase
// is a short phase of the turn owed by the German only, and the Allies,
// who asked nothing, never see one.
func TestGermanAsksInAWholeGame(t *testing.T) {
	short := regexp.MustCompile(`^T(0[1-9]|1[0-8])-(encounter|combat)(-[0-9]+)?$`)
	extras := 0
	for _, seed := range []string{"ask-1", "ask-2", "ask-3"} {
		ids, owes := playPhases(t, engine.Setup{Options: []string{OptInvasion}}, seed, map[engine.Side]string{German: "\nencounter all ask\ncombat ask\n"})
		turns := 0
		for i, id := range ids {
			if !strings.Contains(id, "-") {
				turns++
				continue
			}
			extras++
			if !short.MatchString(id) || owes[i] != "[german]" || !strings.HasPrefix(id, ids[i-1][:3]) {
				t.Fatalf("phase %s owed by %s", id, owes[i])
			}
		}
		if turns != LastTurn {
			t.Fatalf("%d turn phases", turns)
		}
	}
	if extras == 0 {
		t.Fatal("no short phase opened in three games")
	}
	t.Logf("%d short phases in three games", extras)
}

// TestPendingStateRoundTrip: a state stopped at a decision decodes to the
// same bytes and resolves the same.
func TestPendingStateRoundTrip(t *testing.T) {
	r := Ruleset{}
	s := arethusaMeetsBismarck(t)
	st := mustResolve(t, s, orderMap(t, s, "search surface Arethusa\nencounter Arethusa track", "encounter Bismarck ask"), enginetest.ThenOnes())
	b := mustJSON(t, st)
	back, err := r.DecodeState(b)
	if err != nil || string(mustJSON(t, back)) != string(b) {
		t.Fatalf("pending state does not round-trip: %v", err)
	}
	o := map[engine.Side]engine.Orders{German: &Orders{Decision: &Decision{Kind: DecideEncounter, Choice: ChoiceFight}}}
	a1 := mustResolve(t, st, o, enginetest.ThenOnes(6, 6, 6, 6))
	a2 := mustResolve(t, back, o, enginetest.ThenOnes(6, 6, 6, 6))
	if string(mustJSON(t, a1)) != string(mustJSON(t, a2)) {
		t.Fatal("a decoded pending state resolves differently")
	}
	var v View
	if err := json.Unmarshal([]byte(viewJSON(t, st, German)), &v); err != nil || v.Decision == nil {
		t.Fatalf("view JSON: %v", err)
	}
}

// TestRule8_27_EscortDecidedInPerson is the 8.27 example decided in
// person: before round 1 the German is told he may escort two ships (his
// two torpedo boat task forces) and declares the escort and restricted
// fire in the short combat phase; the round is fought exactly as with the
// same standing orders and the same dice. A ship not in the battle or a
// task force escorted, or a target type not in the battle, are rejected
// with their rules.
func TestRule8_27_EscortDecidedInPerson(t *testing.T) {
	r := Ruleset{}
	setup := func() *State {
		s := newGame(t, nil)
		clearMap(s)
		s.Turn = 2 // a day turn: no escort at night (8.29)
		for _, id := range []string{"scharnhorst", "emden", "tbfloti", "tbflotii", "rodney", "warspite", "galatea"} {
			put(t, s, id, "K8")
		}
		return s
	}
	allied := "search surface Rodney\nencounter all fight"
	s := setup()
	want := mustResolve(t, s, orderMap(t, s, allied, "escort Scharnhorst, Emden\nrestrict\nencounter all fight"), engine.NewSeededDice([]byte("escort"), "g", "T02", [32]byte{}))
	d := engine.NewSeededDice([]byte("escort"), "g", "T02", [32]byte{})
	st := mustResolve(t, s, orderMap(t, s, allied, "encounter all fight\ncombat ask"), d)
	q := r.View(st, German).(*View).Decision
	if r.Phase(st).ID != "T02-combat" || q == nil || q.Round != 1 || q.EscortsAllowed != 2 || !q.MayRestrict || strings.Join(q.Enemy, ",") != "BB,BB,CL" {
		t.Fatalf("phase %s, question %+v", r.Phase(st).ID, q)
	}
	rejects(t, st, German, "escort Scharnhorst, Emden, Hipper", 1, "8.27")
	rejects(t, st, German, "escort TB Flot I", 1, "8.27")
	rejects(t, st, German, "target Scharnhorst CA", 1, "8.221")
	full, errs := r.ParseOrders(st, German, "torpedoes tb flot i 1\ntarget Scharnhorst bb\nescort Scharnhorst, Emden\nrestrict")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	text := r.FormatOrders(st, German, full)
	if text != "restrict\nescort Scharnhorst, Emden\ntarget Scharnhorst BB\ntorpedoes TB Flot I 1\n" {
		t.Fatalf("formatted decision %q", text)
	}
	if again, errs := r.ParseOrders(st, German, text); len(errs) > 0 || r.FormatOrders(st, German, again) != text {
		t.Fatalf("the decision does not round-trip: %v", errs)
	}
	o, errs := r.ParseOrders(st, German, "escort Scharnhorst, Emden\nrestrict")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	st = mustResolve(t, st, map[engine.Side]engine.Orders{German: o}, d)
	for st.Pending != nil {
		// Later rounds: the standing declarations would be the same
		// (8.27: escort in the first round only; restricted fire again).
		o, errs := r.ParseOrders(st, German, "restrict")
		if len(errs) > 0 {
			if o, errs = r.ParseOrders(st, German, "pass"); len(errs) > 0 {
				t.Fatal(errs)
			}
		}
		st = mustResolve(t, st, map[engine.Side]engine.Orders{German: o}, d)
	}
	if string(mustJSON(t, st)) != string(mustJSON(t, want)) {
		t.Fatalf("the escort decided in person differs from the standing order:\n%s\n%s", st.Engagements[0].Outcome, want.Engagements[0].Outcome)
	}
}
