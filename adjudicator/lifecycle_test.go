package adjudicator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"skagerrak/engine"
	"skagerrak/engine/enginetest"
)

func init() { enginetest.Register() }

// testClock is an injected clock the tests move by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// outbox collects what Flush sends, like an SMTP server would.
type outbox struct{ mails []Mail }

func (o *outbox) Send(_ context.Context, m Mail) error { o.mails = append(o.mails, m); return nil }

func (o *outbox) to(addr string) []Mail {
	var out []Mail
	for _, m := range o.mails {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

func raceSpec(id string) Spec {
	return Spec{
		Game: id, Ruleset: "racetest",
		Players: []Player{
			{Side: "allied", Address: "a@example.org", Key: "key-a", Fingerprint: "FPA"},
			{Side: "german", Address: "g@example.org", Key: "key-g", Fingerprint: "FPG"},
		},
		Referee:  &Player{Side: Referee, Address: "ref@example.org", Key: "key-r", Fingerprint: "FPR"},
		Timing:   Timing{Deadline: Duration(48 * time.Hour), Reminder: Duration(12 * time.Hour), FlagAfter: 2, PauseLimit: 1},
		HostFrom: "host@skagerrak.example",
	}
}

func newHost(t testing.TB) (*Host, *testClock, string) {
	t.Helper()
	dir := t.TempDir()
	clk := &testClock{t: time.Date(1940, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(dir, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h, clk, dir
}

func orders(game, phase, side, body string) string {
	return fmt.Sprintf("Game: %s\nPhase: %s\nSide: %s\n%s\n", game, phase, side, body)
}

// submit enters orders as an authenticated submission of the side's key.
func submit(t testing.TB, h *Host, game string, side engine.Side, text string) Receipt {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[game].g
	fp := g.Players[side].Fingerprint
	if side == Referee {
		fp = g.Referee.Fingerprint
	}
	r, err := h.route(Submission{Text: text, Source: "file", Fingerprint: fp, Key: fmt.Sprintf("k-%s-%s", side, digestText(text)[:12]), SigTime: h.clock.Now()}, h.clock.Now(), h.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCreateQueuesFirstReportsAndCommitsSecret(t *testing.T) {
	h, _, dir := newHost(t)
	g, err := h.Create(raceSpec("g1"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Opened == nil || g.Opened.Phase != "T01" || len(g.Outbox) != 2 {
		t.Fatalf("opened %+v, outbox %d", g.Opened, len(g.Outbox))
	}
	st, err := os.Stat(filepath.Join(dir, "g1", SecretFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("secret file: %v %v", st, err)
	}
	sec, _ := ReadSecret(filepath.Join(dir, "g1"))
	log, _ := os.ReadFile(filepath.Join(dir, "g1", LogFile))
	if strings.Contains(string(log), fmt.Sprintf("%x", sec)) {
		t.Fatal("the dice secret is in the log before the game ended")
	}
	if _, err := h.Create(raceSpec("g1")); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("duplicate game id: %v", err)
	}
	bad := raceSpec("g2")
	bad.Players[1].Side = "soviet"
	if _, err := h.Create(bad); err == nil || !strings.Contains(err.Error(), "no side \"soviet\"") {
		t.Errorf("unknown side: %v", err)
	}
	bad = raceSpec("g3")
	bad.Ruleset = "chess"
	if _, err := h.Create(bad); err == nil || !strings.Contains(err.Error(), "unknown ruleset") {
		t.Errorf("unknown ruleset: %v", err)
	}
	bad = raceSpec("g4")
	bad.Setup.Options = []string{"short"}
	if _, err := h.Create(bad); err == nil || !strings.Contains(err.Error(), "no option \"short\"") {
		t.Errorf("unknown option: %v", err)
	}
	for _, id := range []string{"g2", "g3", "g4"} {
		if _, err := os.Stat(filepath.Join(dir, id)); err == nil {
			t.Errorf("a refused game %s left a directory", id)
		}
	}
}

func TestAllInResolvesAndLaterOrdersReplace(t *testing.T) {
	h, clk, dir := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	r := submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 1"))
	if r.Status != StatusAccepted {
		t.Fatalf("first orders: %+v", r)
	}
	r = submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 3"))
	if r.Status != StatusAccepted {
		t.Fatalf("replacement: %+v", r)
	}
	g, _ := h.Game("g1")
	if g.Opened.Phase != "T01" {
		t.Fatal("resolved with one side still owing")
	}
	clk.Add(time.Hour)
	submit(t, h, "g1", "german", orders("g1", "T01", "german", "advance 2"))
	if g.Opened == nil || g.Opened.Phase != "T02" || g.History[0].Why != "all-in" {
		t.Fatalf("after all in: opened %+v history %+v", g.Opened, g.History)
	}
	if !strings.Contains(g.History[0].Rolls[len(g.History[0].Rolls)-2].Why, "allied") {
		t.Errorf("rolls %+v", g.History[0].Rolls)
	}
	v := g.Rules.View(g.State, "allied").(enginetest.RaceView)
	if !strings.HasPrefix(v.Last, "advance 3") {
		t.Errorf("the later submission did not replace the earlier: %q", v.Last)
	}
	// Orders for a resolved phase are rejected, saying so.
	r = submit(t, h, "g1", "german", orders("g1", "T01", "german", "advance 1"))
	if r.Status != StatusRejected || !strings.Contains(r.Reason, "not open") {
		t.Errorf("late orders: %+v", r)
	}
	// A bad line is rejected with its line and rule.
	r = submit(t, h, "g1", "german", orders("g1", "T02", "german", "advance 9"))
	if r.Status != StatusRejected || len(r.Errors) != 1 || r.Errors[0].Line != 4 || r.Errors[0].Rule != "1.2" {
		t.Errorf("bad line: %+v", r)
	}
	ob := &outbox{}
	if _, err := h.Flush(context.Background(), ob); err != nil {
		t.Fatal(err)
	}
	rej := ob.to("g@example.org")
	last := rej[len(rej)-1]
	if !strings.Contains(last.Text, "line 4") || !strings.Contains(last.Text, "rule 1.2") {
		t.Errorf("rejection reply:\n%s", last.Text)
	}
	// Replaying the log twice gives the same state digest.
	h.Close()
	d1 := replayDigest(t, filepath.Join(dir, "g1"))
	d2 := replayDigest(t, filepath.Join(dir, "g1"))
	if d1 != d2 {
		t.Errorf("replays differ: %s %s", d1, d2)
	}
	if _, err := VerifyPath(filepath.Join(dir, "g1"), nil); err != nil {
		t.Errorf("verify: %v", err)
	}
}

func replayDigest(t *testing.T, gdir string) string {
	t.Helper()
	h, err := OpenHost(filepath.Dir(gdir), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g, err := h.Game(filepath.Base(gdir))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := Digest(g.State)
	return d
}

func TestDeadlineNMRReminderAndFlag(t *testing.T) {
	h, clk, _ := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game("g1")
	// German never orders. Allied orders each phase.
	for turn := 1; turn <= 3; turn++ {
		phase := fmt.Sprintf("T%02d", turn)
		submit(t, h, "g1", "allied", orders("g1", phase, "allied", "advance 1"))
		// 36h in: the reminder is due (12h before the 48h deadline).
		clk.Add(36*time.Hour - time.Nanosecond)
		mustTick(t, h)
		if g.Reminded() {
			t.Fatalf("%s: reminder before it was due", phase)
		}
		clk.Add(time.Nanosecond)
		mustTick(t, h)
		if !g.Reminded() {
			t.Fatalf("%s: no reminder at deadline-12h", phase)
		}
		// One nanosecond before the deadline nothing resolves.
		clk.Add(12*time.Hour - time.Nanosecond)
		mustTick(t, h)
		if g.Opened.Phase != phase {
			t.Fatalf("%s resolved before its deadline", phase)
		}
		clk.Add(time.Nanosecond)
		mustTick(t, h)
		if g.Opened == nil || g.Opened.Phase == phase {
			t.Fatalf("%s did not resolve at its deadline", phase)
		}
		last := g.History[len(g.History)-1]
		if last.Why != "deadline" || len(last.Defaulted) != 1 || last.Defaulted[0] != "german" {
			t.Fatalf("%s: %+v", phase, last)
		}
	}
	ob := &outbox{}
	if _, err := h.Flush(context.Background(), ob); err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{"a@example.org", "g@example.org"} {
		found := false
		for _, m := range ob.to(addr) {
			if strings.Contains(m.Text, "Missed orders (default orders used): german") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s's report does not say who missed", addr)
		}
	}
	if rem := ob.to("g@example.org"); !strings.Contains(strings.Join(subjects(rem), "\n"), "reminder") {
		t.Errorf("german got no reminder: %v", subjects(rem))
	}
	if len(ob.to("a@example.org")) == 0 || strings.Contains(strings.Join(subjects(ob.to("a@example.org")), "\n"), "reminder") {
		t.Errorf("allied, who ordered, was reminded: %v", subjects(ob.to("a@example.org")))
	}
	flag := ob.to("ref@example.org")
	if len(flag) == 0 || !strings.Contains(flag[0].Text, "german has missed 2 phases in a row") {
		t.Errorf("referee not flagged: %v", flag)
	}
}

func subjects(ms []Mail) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Subject)
	}
	return out
}

func mustTick(t *testing.T, h *Host) {
	t.Helper()
	if _, err := h.Tick(); err != nil {
		t.Fatal(err)
	}
}

func TestRefereeCommandsOnlyFromRefereeKey(t *testing.T) {
	h, clk, _ := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game("g1")
	dl := g.Opened.Deadline
	cmds := []string{"extend 24h travelling", "shorten 1h hurry", "pause holiday", "resume back", "resolve stalled", "address german new@example.org moved", "end enough", "abandon gone"}
	for _, c := range cmds {
		// From a player's key, with Side: referee: refused, nothing done.
		text := orders("g1", g.Opened.Phase, "referee", c)
		r := submit(t, h, "g1", "german", text)
		if r.Status != StatusRejected || !strings.Contains(r.Reason, "registered for side \"german\"") {
			t.Errorf("%q from german's key: %+v", c, r)
		}
	}
	if g.Opened.Deadline != dl || g.Paused != nil || g.Ended != nil {
		t.Fatal("a player's key changed the game")
	}
	r := submit(t, h, "g1", Referee, orders("g1", "T01", "referee", "extend 24h travelling"))
	if r.Status != StatusReferee || r.Reason != "" || !g.Opened.Deadline.Equal(dl.Add(24*time.Hour)) {
		t.Fatalf("referee extend: %+v, deadline %v", r, g.Opened.Deadline)
	}
	r = submit(t, h, "g1", Referee, orders("g1", "T01", "referee", "pause holiday"))
	if g.Paused == nil || g.Paused.Why != "holiday" {
		t.Fatalf("pause: %+v", r)
	}
	clk.Add(10 * time.Hour)
	submit(t, h, "g1", Referee, orders("g1", "T01", "referee", "resume back"))
	if g.Paused != nil || !g.Opened.Deadline.Equal(dl.Add(34*time.Hour)) {
		t.Fatalf("resume moved the deadline to %v", g.Opened.Deadline)
	}
	// The pause limit is 1.
	r = submit(t, h, "g1", Referee, orders("g1", "T01", "referee", "pause again"))
	if !strings.Contains(r.Reason, "used its 1 pause") {
		t.Errorf("second pause: %+v", r)
	}
	if err := h.Referee("g1", Command{Name: "address", Args: []string{"german", "new@example.org"}, Why: "moved"}); err != nil {
		t.Fatal(err)
	}
	if g.Players["german"].Address != "new@example.org" {
		t.Error("address not changed")
	}
	if err := h.Referee("g1", Command{Name: "resolve", Why: "stalled"}); err != nil {
		t.Fatal(err)
	}
	if g.History[0].Why != "forced by host operator: stalled" || len(g.History[0].Defaulted) != 2 {
		t.Errorf("forced resolution: %+v", g.History[0])
	}
	if err := h.Referee("g1", Command{Name: "abandon", Why: "players left"}); err != nil {
		t.Fatal(err)
	}
	if g.Ended == nil || !strings.HasPrefix(g.Ended.Why, "abandoned by host operator") || g.Ended.Secret == "" {
		t.Errorf("abandon: %+v", g.Ended)
	}
	if err := h.Referee("g1", Command{Name: "extend", Args: []string{"1h"}, Why: "x"}); err == nil {
		t.Error("a command after the end was accepted")
	}
}

func TestManualDiceWaitForRolls(t *testing.T) {
	h, _, dir := newHost(t)
	s := raceSpec("g1")
	s.Dice = "manual"
	if _, err := h.Create(s); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game("g1")
	// The set-up's head start comes from the committed secret, not from
	// the manual dice (none can be supplied before the game exists).
	start := g.Rules.View(g.State, "allied").(enginetest.RaceView).Enemy
	submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 2"))
	submit(t, h, "g1", "german", orders("g1", "T01", "german", "advance 2"))
	// The phase rolls allied's d6, then german's: with no die in hand it
	// stops at the first (no die is invented to see what comes after).
	wait, err := h.Tick()
	if err != nil || wait["g1"] != 1 {
		t.Fatalf("waiting for %v dice, err %v; want 1", wait, err)
	}
	if err := h.Referee("g1", Command{Name: "dice", Args: []string{"5"}}); err != nil {
		t.Fatal(err)
	}
	if wait, _ := h.Tick(); wait["g1"] != 1 {
		t.Fatalf("after one die: waiting for %v", wait)
	}
	if err := h.Referee("g1", Command{Name: "dice", Args: []string{"1"}}); err != nil {
		t.Fatal(err)
	}
	v := g.Rules.View(g.State, "allied").(enginetest.RaceView)
	if v.Mine != 2 || v.Enemy != start {
		t.Errorf("allied rolled 5 and german 1: %+v", v)
	}
	h.Close()
	if _, err := VerifyPath(filepath.Join(dir, "g1"), nil); err != nil {
		t.Error(err)
	}
}

func TestGameEndPublishesSecretAndVerifyChecksRolls(t *testing.T) {
	h, _, dir := newHost(t)
	g := playRaceToEnd(t, h, "g1")
	if g.Ended.Result == nil || g.Ended.Why != "over" {
		t.Fatalf("ended: %+v", g.Ended)
	}
	ob := &outbox{}
	h.Flush(context.Background(), ob)
	finals := 0
	for _, m := range ob.mails {
		if strings.Contains(m.Subject, "final report") {
			finals++
			if !strings.Contains(m.Text, g.Ended.Secret) {
				t.Error("final report lacks the secret")
			}
		}
	}
	if finals != 2 {
		t.Errorf("%d final reports, want 2", finals)
	}
	h.Close()
	// Verify the log alone (no game directory): the secret comes from
	// GameEnded, and every roll is checked.
	logPath := filepath.Join(dir, "g1", LogFile)
	rep, err := VerifyPath(logPath, nil)
	if err != nil || !rep.RollsChecked || rep.Rolls == 0 {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	// A changed roll fails at its PhaseResolved.
	b, _ := os.ReadFile(logPath)
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.Contains(l, `"type":"PhaseResolved"`) {
			lines[i] = strings.Replace(l, `"value":`, `"value":1`, 1)
			break
		}
	}
	tampered := filepath.Join(t.TempDir(), "events.jsonl")
	os.WriteFile(tampered, []byte(strings.Join(lines, "\n")), 0o600)
	if _, err := VerifyPath(tampered, nil); err == nil {
		t.Error("a tampered roll verified")
	}
}

func TestSecondHostOnTheSameDataDirFailsFast(t *testing.T) {
	h, _, dir := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	_, err := OpenHost(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), "locked") || !strings.Contains(err.Error(), "g1") {
		t.Fatalf("second host: %v", err)
	}
}

func TestGraceDelaysTheDeadline(t *testing.T) {
	h, clk, _ := newHost(t)
	s := raceSpec("g1")
	s.Timing.Grace = Duration(6 * time.Hour)
	if _, err := h.Create(s); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game("g1")
	clk.Add(48 * time.Hour)
	mustTick(t, h)
	if g.Resolved != 0 {
		t.Fatal("resolved at the deadline despite the grace period")
	}
	// Orders in the grace period still count.
	submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 3"))
	clk.Add(6 * time.Hour)
	mustTick(t, h)
	if g.Resolved != 1 || len(g.History[0].Defaulted) != 1 || g.History[0].Defaulted[0] != "german" {
		t.Fatalf("after the grace: %+v", g.History)
	}
}
