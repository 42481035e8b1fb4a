package norway1940

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

// rolls is a long fixed list of d6 faces, so that both ways of taking a
// decision run on the very same dice.
var rolls = []int{6, 1, 5, 6, 2, 4, 3, 6, 1, 2, 5, 5, 3, 1, 6, 4, 2, 2, 6, 3, 1, 4, 5, 6, 2, 3, 1, 5, 4, 6, 6, 1, 2, 3, 4, 5}

// resolveWith resolves st with one side's order text and the d6 faces given.
func resolveWith(t *testing.T, st *State, side engine.Side, text string, faces []int) (*State, *enginetest.OnesDice) {
	t.Helper()
	r := Ruleset{}
	o, errs := r.ParseOrders(st, side, text)
	if len(errs) > 0 {
		t.Fatalf("%s: orders rejected: %v", PhaseOf(st).ID, errs)
	}
	d := enginetest.ThenOnes(faces...)
	next, err := r.Resolve(st, map[engine.Side]engine.Orders{side: o}, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	return next.(*State), d
}

// sameOutcome compares two states but for the standing orders, which
// differ by construction (one side asked, the other did not).
func sameOutcome(t *testing.T, what string, a, b *State) {
	t.Helper()
	a, b = a.clone(), b.clone()
	for i := range a.Sides {
		a.Sides[i].Standing, b.Sides[i].Standing = Standing{}, Standing{}
	}
	ja, _ := engine.Canonical(a)
	jb, _ := engine.Canonical(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("%s: the outcomes differ:\n%s\n---\n%s", what, logText(a), logText(b))
	}
}

// evasionSetup: the undetected Allied fleet A20 (4 combat) in South-3; the
// German fleet G20 (10 combat) is there, deploys a submarine to find it
// and attacks (9.11, 9.14).
func evasionSetup(t *testing.T, st Standing) *State {
	s := bare(t, 8, German)
	fleetAt(s, "G20", German, "South-3", 10, 0)
	fleetAt(s, "A20", Allied, "South-3", 4, 0)
	s.side(Allied).Standing = st
	return s
}

const evasionOrders = "sub South-3 A20 1\nfleet G20 attack A20\n"

func TestRule9_14_5_AskEvasionOpensOneShortPhaseOwedByTheAlliedOnly(t *testing.T) {
	r := Ruleset{}
	s := evasionSetup(t, Standing{Evade: "weaker", React: true, Ask: []string{AskEvasion}})
	before, _ := json.Marshal(s)
	mid, d := resolveWith(t, s, German, evasionOrders, rolls)
	if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
		t.Fatal("Resolve changed its input")
	}
	// The submarine roll is made, then the resolution stops at the
	// evasion decision (9.14.5).
	if d.Used() != 1 {
		t.Errorf("%d rolls made before the decision, want the submarine's 1", d.Used())
	}
	ph := r.Phase(mid)
	if ph.ID != "T08-german-react" || len(ph.Owes) != 1 || ph.Owes[0] != Allied || !strings.Contains(ph.Title, "evade") {
		t.Fatalf("short phase %+v", ph)
	}
	v := r.View(mid, Allied).(*View)
	q := v.Ask
	if q == nil || q.Kind != AskEvasion || q.Rule != "9.14.5" || q.Fleet != "A20" || q.Enemy != "G20" || q.Box != "South-3" || q.Own != 4 || q.Them != 11 {
		t.Fatalf("question %+v", q)
	}
	if q.EvadeOn != evadeMax(mid, 7) || strings.Join(q.Default, ";") != "evade" || strings.Join(q.Choices, "|") != "evade|fight" {
		t.Errorf("question %+v: evades on %d, default evade (evade weaker)", q, evadeMax(mid, 7))
	}
	// What the Allied knows at that moment: the attack, and the German
	// fleet it now sees (9.14.2: the attacker is detected).
	if !viewLogHas(v, "fleet G20 (11 combat) attacks fleet A20 (4 combat)") {
		t.Errorf("the Allied view lacks the attack: %+v", v.Events)
	}
	for _, f := range v.Fleets {
		if f.ID == "G20" && (!f.Detected || f.Combat != 10) {
			t.Errorf("G20 in the Allied view %+v, want detected with 10 combat", f)
		}
	}
	if gv := r.View(mid, German).(*View); gv.Ask != nil {
		t.Error("the German view shows the Allied question")
	}
	if _, errs := r.ParseOrders(mid, German, "fleet G20 to South-2\n"); len(errs) != 1 || errs[0].Rule != "5.2" {
		t.Errorf("German orders in the Allied short phase: %v", errs)
	}
	// Only the decision lines are accepted; the errors cite 9.14.5.
	for _, bad := range []string{"fleet A20 to South-2\n", "evade always\n", "evade\nfight\n", "fight on\n", "# nothing\n"} {
		_, errs := r.ParseOrders(mid, Allied, bad)
		if len(errs) == 0 || errs[0].Rule != "9.14.5" || !strings.Contains(errs[0].Valid, "evade | fight") {
			t.Errorf("%q: errors %v, want one citing 9.14.5", bad, errs)
		}
	}
	end, _ := resolveWith(t, mid, Allied, "FIGHT  # stand and fight\n", rolls[1:])
	if end.Pending != nil || r.Phase(end).ID != "T08-allied" {
		t.Fatalf("after the decision the phase is %s, want T08-allied", r.Phase(end).ID)
	}
	if !logHas(end, "round 1: G20 rolls") || logHas(end, "fleet A20 evades") || logHas(end, "fails to evade") {
		t.Errorf("the Allied chose to fight: no evasion roll, combat at once:\n%s", logText(end))
	}
	// The same decision by standing order, with the same dice.
	std, _ := resolveWith(t, evasionSetup(t, Standing{Evade: "never", React: true}), German, evasionOrders, rolls)
	if std.Pending != nil {
		t.Fatal("a standing order opened a short phase")
	}
	sameOutcome(t, "fight in person vs evade never", end, std)
}

func TestRule9_14_5_AskEvasionDeadlineTakesTheStandingDefault(t *testing.T) {
	r := Ruleset{}
	mid, _ := resolveWith(t, evasionSetup(t, Standing{Evade: "weaker", React: true, Ask: []string{AskEvasion}}), German, evasionOrders, rolls)
	// 9.14.5 via DefaultOrders: the standing "evade weaker" of a fleet of 4
	// against 11 tries to evade.
	def := r.DefaultOrders(mid, Allied)
	if got := r.FormatOrders(mid, Allied, def); got != "evade\n" {
		t.Fatalf("default decision %q, want evade", got)
	}
	d := enginetest.ThenOnes(rolls[1:]...)
	next, err := r.Resolve(mid, map[engine.Side]engine.Orders{Allied: def}, d)
	if err != nil {
		t.Fatal(err)
	}
	end := next.(*State)
	if !logHas(end, "fleet A20 evades (rolled 1") {
		t.Errorf("the default evades on the roll of 1:\n%s", logText(end))
	}
	std, _ := resolveWith(t, evasionSetup(t, Standing{Evade: "weaker", React: true}), German, evasionOrders, rolls)
	sameOutcome(t, "deadline vs evade weaker", end, std)
	// The short phase of a state read back from its JSON resolves the same.
	b, _ := engine.Canonical(mid)
	back, err := r.DecodeState(b)
	if err != nil {
		t.Fatal(err)
	}
	next2, err := r.Resolve(back, map[engine.Side]engine.Orders{Allied: r.DefaultOrders(back, Allied)}, enginetest.ThenOnes(rolls[1:]...))
	if err != nil {
		t.Fatal(err)
	}
	sameOutcome(t, "decoded state", end, next2.(*State))
}

// continueSetup: the German fleet G20 (6 combat) attacks the detected
// Allied fleet A20 (8 combat), which never evades (9.14.5).
func continueSetup(t *testing.T, st Standing) *State {
	s := bare(t, 8, German)
	fleetAt(s, "G20", German, "South-3", 6, 0)
	fleetAt(s, "A20", Allied, "South-3", 8, 0).Detected = true
	s.side(Allied).Standing = st
	return s
}

func TestRule9_14_5_1_AskContinueAfterWinningARoundAsTheDefender(t *testing.T) {
	r := Ruleset{}
	// Round 1: the German rolls 1, the Allied 6: the Allied wins the round
	// and decides whether to fight on (9.14.5, 9.14.5.1).
	faces := append([]int{1, 6}, rolls...)
	for _, c := range []struct {
		answer string
		on     bool
	}{{"fight on", true}, {"break off", false}} {
		mid, d := resolveWith(t, continueSetup(t, Standing{Evade: "never", Ask: []string{AskContinue}}), German, "fleet G20 attack A20\n", faces)
		q := mid.Pending.Ask
		// What the Allied knows: the round's hits, the ratings left (A20
		// took none, G20 lost 4 of 6).
		if r.Phase(mid).ID != "T08-german-react" || q.Kind != AskContinue || q.Rule != "9.14.5.1" || q.Round != 1 || q.Fleet != "A20" || q.Own != 8 || q.Them != 2 {
			t.Fatalf("phase %s, question %+v", r.Phase(mid).ID, q)
		}
		if strings.Join(q.Default, "") != "break off" {
			t.Errorf("default %v, want break off (continue off)", q.Default)
		}
		end, _ := resolveWith(t, mid, Allied, c.answer+"\n", faces[d.Used():])
		std, _ := resolveWith(t, continueSetup(t, Standing{Evade: "never", Continue: c.on}), German, "fleet G20 attack A20\n", faces)
		sameOutcome(t, c.answer, end, std)
		if got := logHas(end, "Naval Combat Continuation") || logHas(end, "the fleets disengage") || logHas(end, "the combat goes on"); got != c.on {
			t.Errorf("%s: continuation rolled %v:\n%s", c.answer, got, logText(end))
		}
	}
}

func TestRule5_2_AskTwoDecisionsNumberTheShortPhases(t *testing.T) {
	r := Ruleset{}
	// The Allied asks both: evade (no: fight), then after winning round 1
	// whether to fight on: two short phases in the German player-turn.
	faces := append([]int{1, 6}, rolls...)
	s := continueSetup(t, Standing{Evade: "never", Ask: []string{AskContinue, AskEvasion}})
	mid, d := resolveWith(t, s, German, "fleet G20 attack A20\n", faces)
	if r.Phase(mid).ID != "T08-german-react" || mid.Pending.Ask.Kind != AskEvasion {
		t.Fatalf("first short phase %s %+v", r.Phase(mid).ID, mid.Pending.Ask)
	}
	used := d.Used()
	mid2, d2 := resolveWith(t, mid, Allied, "fight\n", faces[used:])
	if r.Phase(mid2).ID != "T08-german-react2" || mid2.Pending.Ask.Kind != AskContinue || r.Phase(mid2).Owes[0] != Allied {
		t.Fatalf("second short phase %s %+v", r.Phase(mid2).ID, mid2.Pending.Ask)
	}
	used += d2.Used()
	end, _ := resolveWith(t, mid2, Allied, "fight on\n", faces[used:])
	if r.Phase(end).ID != "T08-allied" {
		t.Fatalf("phase %s after the decisions", r.Phase(end).ID)
	}
	std, _ := resolveWith(t, continueSetup(t, Standing{Evade: "never", Continue: true}), German, "fleet G20 attack A20\n", faces)
	sameOutcome(t, "two decisions in person", end, std)
}

// reactSetup: the detected German fleet G20 (4 combat) sails into South-2,
// where the undetected Allied fleet A20 (8 combat) waits (9.14.4).
func reactSetup(t *testing.T, st Standing) *State {
	s := bare(t, 8, German)
	fleetAt(s, "G20", German, "South-1", 4, 0).Detected = true
	fleetAt(s, "A20", Allied, "South-2", 8, 0)
	s.side(Allied).Standing = st
	return s
}

func TestRule9_14_4_AskReactToADetectedFleetEnteringTheBox(t *testing.T) {
	r := Ruleset{}
	for _, c := range []struct {
		answer string
		react  bool
	}{{"attack with A20", true}, {"pass", false}} {
		mid, d := resolveWith(t, reactSetup(t, Standing{Evade: "weaker", React: true, Ask: []string{AskReact}}), German, "fleet G20 to South-2\n", rolls)
		q := r.View(mid, Allied).(*View).Ask
		if q == nil || q.Kind != AskReact || q.Rule != "9.14.4" || q.Enemy != "G20" || q.Box != "South-2" || strings.Join(q.Fleets, " ") != "A20" {
			t.Fatalf("question %+v", q)
		}
		if strings.Join(q.Default, "") != "attack with A20" {
			t.Errorf("default %v, want attack with A20 (react on)", q.Default)
		}
		if _, errs := r.ParseOrders(mid, Allied, "attack with A99\n"); len(errs) != 1 || errs[0].Rule != "9.14.4" {
			t.Errorf("a fleet that may not attack: %v", errs)
		}
		end, _ := resolveWith(t, mid, Allied, c.answer+"\n", rolls[d.Used():])
		std, _ := resolveWith(t, reactSetup(t, Standing{Evade: "weaker", React: c.react}), German, "fleet G20 to South-2\n", rolls)
		sameOutcome(t, c.answer, end, std)
		if logHas(end, "attacks the detected fleet G20") != c.react {
			t.Errorf("%s:\n%s", c.answer, logText(end))
		}
	}
}

// interceptSetup is the 8.9.3.1 test's: the German kept 4 fighters; an
// Allied bomber with one escorting fighter flies over Hamar.
func interceptSetup(t *testing.T, ask bool) *State {
	s := bare(t, 8, Allied)
	put(s, "340", "Hamar")
	put(s, "IR5", "Elverum")
	s.setControl("Hamar", German)
	s.setControl("Stjordal", Allied)
	s.setControl("Oslo", Allied)
	s.side(German).Standing.Keep = 4
	if ask {
		s.side(German).Standing.Ask = []string{AskInterception}
	}
	return s
}

func TestRule8_9_3_1_AskInterceptionOfTheKeptFighters(t *testing.T) {
	r := Ruleset{}
	const orders = "air bomb Hamar 340 1\nair patrol Hamar 1\n"
	mid, d := resolveWith(t, interceptSetup(t, true), Allied, orders, rolls)
	ph := r.Phase(mid)
	if ph.ID != "T08-allied-react" || len(ph.Owes) != 1 || ph.Owes[0] != German {
		t.Fatalf("short phase %+v", ph)
	}
	q := r.View(mid, German).(*View).Ask
	if q == nil || q.Kind != AskInterception || q.Rule != "8.9.3.1" || q.Keep != 4 || len(q.Raids) != 1 || q.Raids[0] != (Raid{Place: "Hamar", Missions: 1, Escorts: 1}) {
		t.Fatalf("question %+v", q)
	}
	if strings.Join(q.Default, ";") != "intercept Hamar 2" {
		t.Errorf("default %v, want the reconstructed procedure's intercept Hamar 2", q.Default)
	}
	for _, bad := range []string{"intercept Hamar 5\n", "intercept Oslo 1\n", "intercept Hamar 1\nintercept Hamar 1\n", "evade\n", "intercept Hamar 1\npass\n"} {
		if _, errs := r.ParseOrders(mid, German, bad); len(errs) == 0 || errs[0].Rule != "8.9.3.1" || errs[0].Line == 0 {
			t.Errorf("%q: errors %v, want one citing 8.9.3.1 on a line", bad, errs)
		}
	}
	end, _ := resolveWith(t, mid, German, "intercept hamar 2\n", rolls[d.Used():])
	std, _ := resolveWith(t, interceptSetup(t, false), Allied, orders, rolls)
	sameOutcome(t, "intercept in person vs kept fighters", end, std)
	if !logHas(end, "turned back by fighters") || end.side(German).Standing.Keep != 2 {
		t.Errorf("two fighters meet the escort and the bomber:\n%s", logText(end))
	}
	end, _ = resolveWith(t, mid, German, "pass\n", rolls[d.Used():])
	if logHas(end, "turned back by fighters") || logHas(end, "intercept over") || end.side(German).Standing.Keep != 4 {
		t.Errorf("pass: no interception, the 4 fighters stay kept:\n%s", logText(end))
	}
}

// TestShortPhaseFormReportPictureAndDecodedView (9.14.5): the asking side's
// order form is the decision filled in with its standing default and is
// accepted unchanged; its report and picture state the question; the other
// side owes nothing and sees no question; the View reads back from JSON and
// the scripted player decides from it (4 against 11: evade).
func TestShortPhaseFormReportPictureAndDecodedView(t *testing.T) {
	r := Ruleset{}
	mid, _ := resolveWith(t, evasionSetup(t, Standing{Evade: "never", Ask: []string{AskEvasion}}), German, evasionOrders, rolls)
	v := r.View(mid, Allied)
	form := r.OrderForm(v, Allied)
	if !strings.Contains(form, "Valid decision lines: evade | fight") || !strings.Contains(form, "\nfight\n") {
		t.Fatalf("form:\n%s", form)
	}
	o, errs := r.ParseOrders(mid, Allied, form)
	if len(errs) > 0 || r.FormatOrders(mid, Allied, o) != "fight\n" {
		t.Fatalf("the unchanged form: %v %v", errs, o)
	}
	if gf := r.OrderForm(r.View(mid, German), German); !strings.Contains(gf, "You owe no orders") {
		t.Errorf("German form in the Allied short phase:\n%s", gf)
	}
	if rep := r.Report(v, Allied); !strings.Contains(rep, "Your decision (rule 9.14.5)") {
		t.Errorf("report:\n%s", rep)
	}
	if rep := r.Report(r.View(mid, German), German); strings.Contains(rep, "Your decision") {
		t.Error("the German report shows the Allied question")
	}
	if _, err := r.Picture(v, Allied); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	back, err := r.DecodeView(b)
	if err != nil {
		t.Fatal(err)
	}
	if b2, _ := json.Marshal(back); !bytes.Equal(b, b2) {
		t.Error("the decoded short-phase view differs")
	}
	if p1, p2 := r.Play(v, Allied, nil), r.Play(back, Allied, nil); p1 != p2 || !strings.Contains(p1, "\nevade\n") {
		t.Errorf("scripted decision %q / %q, want evade (4 against 11)", p1, p2)
	}
	if r.Play(r.View(mid, German), German, nil) != "" {
		t.Error("the German plays in the Allied short phase")
	}
}

// TestAskStandingOrderSyntax: "ask KIND..." (aliases, any case) replaces
// the decisions asked, "ask all" asks every kind, "ask none" none, and a
// malformed ask order is an error citing 5.2.
func TestAskStandingOrderSyntax(t *testing.T) {
	s := bare(t, 8, German)
	o := parseOK(t, s, "ask Evasion intercept\n")
	if got := formatOrder(o.Lines[0]); got != "ask evasion interception" {
		t.Errorf("formatted %q", got)
	}
	next, _ := play(t, s, "ask all\n")
	if got := strings.Join(next.side(German).Standing.Ask, " "); got != "continue evasion interception losses react" {
		t.Errorf("ask all: %q", got)
	}
	// Revision 1 had no losses decision: "ask all" is the four others and
	// "ask losses" is refused.
	r1 := s.clone()
	r1.Revision = 0
	if got, _ := play(t, r1, "ask all\n"); strings.Join(got.side(German).Standing.Ask, " ") != "continue evasion interception react" {
		t.Errorf("revision 1 ask all: %q", got.side(German).Standing.Ask)
	}
	if e := parseErr(t, r1, "ask losses\n"); e.Rule != "5.2" || strings.Contains(e.Valid, "losses") {
		t.Errorf("revision 1 ask losses: %+v", e)
	}
	next, _ = play(t, next, "")
	for next.Phasing != German {
		next, _ = play(t, next, "")
	}
	next, _ = play(t, next, "ask none\n")
	if len(next.side(German).Standing.Ask) != 0 {
		t.Error("ask none keeps decisions")
	}
	if e := parseErr(t, s, "ask everything\n"); e.Rule != "5.2" {
		t.Errorf("malformed ask: %+v", e)
	}
}

func viewLogHas(v *View, sub string) bool {
	for _, e := range v.Events {
		if strings.Contains(e.Text, sub) {
			return true
		}
	}
	return false
}

// TestRule9_5_AskedQuestionsOpenOnWhatTheOpponentSees (9.5, 8.9.3.1, 9.14.4): a
// short phase must not tell the phasing side what it cannot see, so the
// reaction question opens for a decoy-only marker too, and the
// interception question with no fighters kept; then "pass" is the only
// decision.
func TestRule9_5_AskedQuestionsOpenOnWhatTheOpponentSees(t *testing.T) {
	r := Ruleset{}
	s := reactSetup(t, Standing{Evade: "weaker", React: true, Ask: []string{AskReact}})
	a := s.fleet("A20")
	a.Combat, a.Decoys = 0, 1
	mid, d := resolveWith(t, s, German, "fleet G20 to South-2\n", rolls)
	if q := mid.Pending; q == nil || q.Ask.Kind != AskReact || strings.Join(q.Ask.Choices, "|") != "pass" || len(q.Ask.Fleets) != 0 {
		t.Fatalf("decoy in the box: %+v", q)
	}
	if _, errs := r.ParseOrders(mid, Allied, "attack with A20\n"); len(errs) != 1 {
		t.Error("a decoy may not attack")
	}
	if end, _ := resolveWith(t, mid, Allied, "pass\n", rolls[d.Used():]); end.Pending != nil || logHas(end, "attacks the detected") {
		t.Errorf("pass:\n%s", logText(end))
	}
	s = interceptSetup(t, true)
	s.side(German).Standing.Keep = 0
	mid, _ = resolveWith(t, s, Allied, "air bomb Hamar 340 1\n", rolls)
	if q := mid.Pending; q == nil || q.Ask.Kind != AskInterception || strings.Join(q.Ask.Choices, "|") != "pass" || strings.Join(q.Ask.Default, "") != "pass" {
		t.Fatalf("no fighters kept: %+v", q)
	}
	if _, errs := r.ParseOrders(mid, German, "intercept Hamar 1\n"); len(errs) != 1 || errs[0].Rule != "8.9.3.1" {
		t.Errorf("intercepting without fighters: %v", errs)
	}
	// Without missions there is nothing to decide.
	if next, _ := resolveWith(t, interceptSetup(t, true), Allied, "", rolls); next.Pending != nil {
		t.Error("a short phase without any air mission")
	}
}

// TestShortPhaseReplaysFromItsOwnRolls: as the adjudicator's verifier does,
// each phase resolved again with exactly the rolls it made gives the same
// state: the player-turn phase stops at the question, the short phase
// replays the earlier rolls from the state and rolls only the new ones.
func TestShortPhaseReplaysFromItsOwnRolls(t *testing.T) {
	r := Ruleset{}
	s := evasionSetup(t, Standing{Evade: "weaker", Ask: []string{AskEvasion}})
	o, _ := r.ParseOrders(s, German, evasionOrders)
	// The first secret whose submarine roll finds A20 (9.11: a 6).
	var d1 *engine.SeededDice
	var mid engine.State
	for i := 0; mid == nil || mid.(*State).Pending == nil; i++ {
		if i == 50 {
			t.Fatal("no secret gives a short phase")
		}
		d1 = engine.NewSeededDice([]byte(fmt.Sprint("replay", i)), "g", "T08-german", [32]byte{})
		var err error
		if mid, err = r.Resolve(s, map[engine.Side]engine.Orders{German: o}, d1); err != nil {
			t.Fatal(err)
		}
	}
	again, err := r.Resolve(s, map[engine.Side]engine.Orders{German: o}, engine.NewReplayDice(d1.Rolls()))
	if err != nil {
		t.Fatal(err)
	}
	sameOutcome(t, "player-turn phase replayed", mid.(*State), again.(*State))
	a, _ := r.ParseOrders(mid, Allied, "fight\n")
	before, _ := json.Marshal(mid)
	defer func() {
		if after, _ := json.Marshal(mid); !bytes.Equal(before, after) {
			t.Error("resolving the short phase changed its input state")
		}
	}()
	d2 := engine.NewSeededDice([]byte("replay"), "g", "T08-german-react", [32]byte{})
	end, err := r.Resolve(mid, map[engine.Side]engine.Orders{Allied: a}, d2)
	if err != nil {
		t.Fatal(err)
	}
	if len(d2.Rolls()) == 0 || d2.Rolls()[0].Why != "9.14.5 naval combat, attacker" {
		t.Errorf("the short phase's first roll is %+v, want the first combat roll", d2.Rolls())
	}
	rd := engine.NewReplayDice(d2.Rolls())
	again, err = r.Resolve(mid, map[engine.Side]engine.Orders{Allied: a}, rd)
	if err != nil || rd.Err() != nil || rd.Short() != 0 {
		t.Fatal(err, rd.Err(), rd.Short())
	}
	sameOutcome(t, "short phase replayed", end.(*State), again.(*State))
	// Orders that are not decision lines are refused by Resolve too.
	if _, err := r.Resolve(mid, map[engine.Side]engine.Orders{Allied: &Orders{Side: Allied, Lines: []Order{{Verb: "evade", Flag: "never"}}}}, d2); err == nil {
		t.Error("a standing order resolved as the decision")
	}
}

// TestRule9_14_5_1_AskContinueOfAReactingFleet (9.14.4, 9.14.5.1): the Allied fleet that
// attacks a German fleet entering its box and wins a round is asked too;
// the standing default fights the three rounds.
func TestRule9_14_5_1_AskContinueOfAReactingFleet(t *testing.T) {
	r := Ruleset{}
	// German evasion roll 6 fails; round 1: A20 rolls 2, G20 rolls 1.
	faces := append([]int{6, 2, 1}, rolls...)
	mid, d := resolveWith(t, reactSetup(t, Standing{Evade: "weaker", React: true, Ask: []string{AskContinue, AskReact}}), German, "fleet G20 to South-2\n", faces)
	used := d.Used()
	mid, d = resolveWith(t, mid, Allied, "attack with A20\n", faces[used:])
	used += d.Used()
	q := mid.Pending.Ask
	if r.Phase(mid).ID != "T08-german-react2" || q.Kind != AskContinue || q.Fleet != "A20" || q.Enemy != "G20" || strings.Join(q.Default, "") != "fight on" {
		t.Fatalf("phase %s, question %+v", r.Phase(mid).ID, q)
	}
	end, _ := resolveWith(t, mid, Allied, "fight on\n", faces[used:])
	std, _ := resolveWith(t, reactSetup(t, Standing{Evade: "weaker", React: true}), German, "fleet G20 to South-2\n", faces)
	sameOutcome(t, "reacting fleet fights on", end, std)
	if !logHas(end, "the fleets disengage") && !logHas(end, "the combat goes on") {
		t.Errorf("fight on: the Continuation Table is rolled:\n%s", logText(end))
	}
	end, _ = resolveWith(t, mid, Allied, "break off\n", faces[used:])
	if logHas(end, "round 2") || logHas(end, "Continuation") || logHas(end, "the fleets disengage") || logHas(end, "the combat goes on") {
		t.Errorf("break off after round 1:\n%s", logText(end))
	}
}
