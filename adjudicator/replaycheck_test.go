package adjudicator

import (
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
)

// submitAt submits a side's order file signed at the given time under a
// key of the test's choosing, as a re-encoded signature would give.
func submitAt(t *testing.T, h *Host, side engine.Side, text, key string, signed time.Time) Receipt {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games["g1"].g
	fp := g.Referee.Fingerprint
	if side != Referee {
		fp = g.Players[side].Fingerprint
	}
	r, err := h.route(Submission{Text: text, Source: "mail", Fingerprint: fp, Key: key, SigTime: signed}, h.clock.Now(), h.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestOlderSignedOrdersCannotRollBackNewerOnes(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	t1 := clk.Now()
	a := orders("g1", "T01", "allied", "advance 1")
	if r := submitAt(t, h, "allied", a, "sig1:a", t1); r.Status != StatusAccepted {
		t.Fatal(r)
	}
	clk.Add(time.Hour)
	if r := submitAt(t, h, "allied", orders("g1", "T01", "allied", "advance 3"), "sig1:b", clk.Now()); r.Status != StatusAccepted {
		t.Fatal(r)
	}
	g, _ := h.Game("g1")
	seq := g.Seq
	// The first message again, however re-encoded: its identity is known.
	if r := submitAt(t, h, "allied", a, "sig1:a", t1); r.Status != StatusDuplicate || g.Seq != seq {
		t.Fatalf("a copy of an accepted message: %+v, %d events more", r, g.Seq-seq)
	}
	// Orders signed before the accepted ones, never seen here (held up in
	// transit), cannot roll them back.
	r := submitAt(t, h, "allied", orders("g1", "T01", "allied", "advance 2"), "sig1:c", t1.Add(30*time.Minute))
	if r.Status != StatusRejected || !strings.Contains(r.Reason, "before the last message accepted from this key") {
		t.Fatalf("an older message over a newer one: %+v", r)
	}
	if !strings.Contains(g.Orders["allied"].Text, "advance 3") {
		t.Errorf("the orders were rolled back to %q", g.Orders["allied"].Text)
	}
}

// A game in progress since before canonical identities recorded its
// messages by the hash of their signature packet. A re-encoded copy of
// such a message has a new packet hash and an identity the log never
// recorded; it is still known, by signer, signing second and text.
func TestMessageRecordedUnderItsPacketKeyIsKnownByItsContent(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	t1 := clk.Now()
	a := orders("g1", "T01", "allied", "advance 1")
	if r := submitAt(t, h, "allied", a, "0a1b", t1); r.Status != StatusAccepted {
		t.Fatal(r)
	}
	route := func(sub Submission) Receipt {
		h.mu.Lock()
		defer h.mu.Unlock()
		r, err := h.route(sub, h.clock.Now(), h.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	clk.Add(time.Minute)
	fp := "FPA"
	copyOf := Submission{Text: strings.ReplaceAll(a, "\n", "\r\n"), Source: "mail", Fingerprint: fp, Key: "sig1:new", PacketKey: "0a1b-reframed", SigTime: t1}
	if r := route(copyOf); r.Status != StatusDuplicate {
		t.Fatalf("a re-encoded copy of a message recorded by its packet: %+v", r)
	}
	// The same text signed again, a second later, is a new message.
	again := Submission{Text: a, Source: "mail", Fingerprint: fp, Key: "sig1:again", PacketKey: "2c3d", SigTime: t1.Add(time.Second)}
	if r := route(again); r.Status != StatusAccepted {
		t.Fatalf("the same orders signed again: %+v", r)
	}
}

// Two messages of one key signed in the same second: the first to arrive
// counts, the second is refused with a reply asking to sign it again, and
// replay refuses a log that took both.
func TestSameSigningSecondOfOneKeyIsRefused(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	t1 := clk.Now()
	if r := submitAt(t, h, "allied", orders("g1", "T01", "allied", "advance 1"), "sig1:a", t1); r.Status != StatusAccepted {
		t.Fatal(r)
	}
	r := submitAt(t, h, "allied", orders("g1", "T01", "allied", "advance 2"), "sig1:b", t1)
	if r.Status != StatusRejected || !strings.Contains(r.Reason, "the same second as the last message accepted from this key") {
		t.Fatalf("a second message of the same signing second: %+v", r)
	}
	g, _ := h.Game("g1")
	if !strings.Contains(g.Orders["allied"].Text, "advance 1") || g.lastRejected.Key != "sig1:b" {
		t.Fatalf("orders %q, last rejection %+v", g.Orders["allied"].Text, g.lastRejected)
	}
	if !strings.Contains(strings.Join(strings.Fields(lastMail(t, h, "g1").Text), " "), "cannot be told: sign it again") {
		t.Errorf("the reply does not ask to sign again:\n%s", lastMail(t, h, "g1").Text)
	}
	// The copy of the refused one is a replay: nothing.
	seq := g.Seq
	if r := submitAt(t, h, "allied", orders("g1", "T01", "allied", "advance 2"), "sig1:b", t1); r.Status != StatusDuplicate || g.Seq != seq {
		t.Fatalf("a copy of the refused message: %+v", r)
	}
	// A log that accepted both fails replay at the second.
	c := newCrashingGame(t)
	sub := Submission{Text: orders("g1", "T01", "allied", "advance 1"), Source: "file", Fingerprint: "FPA", Key: "sig1:a", SigTime: t1}
	if o, err := c.g.Submit(sub, t1, c.emit("", 0)); err != nil || o.Status != StatusAccepted {
		t.Fatalf("%+v %v", o, err)
	}
	ev, _ := c.log.Append(EvOrdersAccepted, t1, OrdersAccepted{Phase: "T01", Side: "allied", Text: orders("g1", "T01", "allied", "advance 2"), Source: "file", Fingerprint: "FPA", Key: "sig1:b", SigTime: t1})
	if err := c.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "the same second as the last accepted message") {
		t.Fatalf("Apply: %v", err)
	}
}

// lastMail renders the last mail a game queued.
func lastMail(t *testing.T, h *Host, game string) Mail {
	t.Helper()
	g, _ := h.Game(game)
	o := g.Outbox[len(g.Outbox)-1]
	if err := o.Render(); err != nil {
		t.Fatal(err)
	}
	return o.Mail
}

func TestRefereeMailOfAnEarlierPhaseIsRefused(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	signed := clk.Now()
	cmd := orders("g1", "T01", "referee", "resolve stalled")
	if r := submitAt(t, h, Referee, cmd, "sig1:ref-1", signed); r.Status != StatusReferee || r.Reason != "" {
		t.Fatalf("the referee's resolve: %+v", r)
	}
	g, _ := h.Game("g1")
	if g.Opened.Phase != "T02" {
		t.Fatalf("phase %s after resolve", g.Opened.Phase)
	}
	clk.Add(time.Hour)
	// The same command, however re-encoded, in the next phase: nothing.
	if r := submitAt(t, h, Referee, cmd, "sig1:ref-1", signed); r.Status != StatusDuplicate || g.Resolved != 1 {
		t.Fatalf("an old referee command replayed in T02: %+v, %d phases resolved", r, g.Resolved)
	}
	// Another command for T01, never seen here, is refused in T02.
	r := submitAt(t, h, Referee, orders("g1", "T01", "referee", "resolve again"), "sig1:ref-2", signed.Add(time.Second))
	if r.Status != StatusRejected || g.Resolved != 1 || !strings.Contains(r.Reason, `phase "T01" is not open`) {
		t.Fatalf("a referee command of an earlier phase: %+v, %d phases resolved", r, g.Resolved)
	}
	// A command naming the open phase but signed before it opened is
	// refused too.
	if err := h.Referee("g1", Command{Name: "resolve", Why: "operator"}); err != nil {
		t.Fatal(err)
	}
	r = submitAt(t, h, Referee, orders("g1", "T03", "referee", "resolve stalled"), "sig1:ref-3", signed.Add(2*time.Second))
	if r.Status != StatusRejected || g.Resolved != 2 || !strings.Contains(r.Reason, "before phase T03 opened") {
		t.Fatalf("a referee command signed before its phase: %+v", r)
	}
}

func TestOrdersThatAreNotUTF8AreRefusedAndTheLogStaysSound(t *testing.T) {
	h, clk, dir := newHost(t)
	h.Create(raceSpec("g1"))
	r := submitAt(t, h, "allied", orders("g1", "T01", "allied", "advance 2 # Troms\xf8"), "latin1", clk.Now())
	if r.Status != StatusRejected || !strings.Contains(r.Reason, "not UTF-8") {
		t.Fatalf("Latin-1 orders: %+v", r)
	}
	h.Close()
	if _, err := VerifyPath(dir+"/g1", nil); err != nil {
		t.Fatalf("verify after a non-UTF-8 submission: %v", err)
	}
	h2, err := OpenHost(dir, Options{})
	if err != nil {
		t.Fatalf("reopening: %v", err)
	}
	h2.Close()
}

func TestReplayRefusesWhatTheRulesWouldNot(t *testing.T) {
	base := func(t *testing.T) *crashingGame {
		c := newCrashingGame(t)
		c.submit("allied", orders("g1", "T01", "allied", "advance 3"), c.emit("", 0))
		return c
	}
	t.Run("defaulting a side that ordered", func(t *testing.T) {
		c := base(t)
		ev, _ := c.log.Append(EvPhaseResolved, c.clock.Now(), PhaseResolved{Phase: "T01", Defaulted: []engine.Side{"allied", "german"}, Why: "deadline"})
		if err := c.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "the sides without orders were [german]") {
			t.Fatalf("Apply: %v", err)
		}
	})
	t.Run("mail to another address", func(t *testing.T) {
		c := base(t)
		ev, _ := c.log.Append(EvMailQueued, c.clock.Now(), MailQueued{ID: "<x>", Kind: MailReport, Side: "german", To: "a@example.org"})
		if err := c.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "registered address") {
			t.Fatalf("Apply: %v", err)
		}
	})
	t.Run("orders whose file names another phase", func(t *testing.T) {
		c := base(t)
		ev, _ := c.log.Append(EvOrdersAccepted, c.clock.Now(), OrdersAccepted{Phase: "T01", Side: "german", Text: orders("g1", "T07", "german", "advance 1"), Source: "unsigned", Key: "k"})
		if err := c.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "Phase T07") {
			t.Fatalf("Apply: %v", err)
		}
	})
	t.Run("the same orders twice", func(t *testing.T) {
		c := base(t)
		a := c.g.Orders["allied"]
		ev, _ := c.log.Append(EvOrdersAccepted, c.clock.Now(), a)
		if err := c.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "recorded before, at seq 5") {
			t.Fatalf("Apply: %v", err)
		}
	})
}

func TestManualDiceReplayChecksTheDiceSupplied(t *testing.T) {
	c := newCrashingGame(t)
	c.g.Created.Dice = "manual"
	ev, _ := c.log.Append(EvDiceAdded, c.clock.Now(), DiceAdded{Values: []int{1, 1}, By: "ref"})
	if err := c.g.Apply(ev); err != nil {
		t.Fatal(err)
	}
	c.submit("allied", orders("g1", "T01", "allied", "advance 1"), c.emit("", 0))
	c.submit("german", orders("g1", "T01", "german", "advance 1"), c.emit("", 0))
	// A resolution that rolled two 6s, consistent in every other way.
	ords, texts := c.g.phaseOrders(nil)
	od := engine.OrdersDigest(texts)
	rolls := []engine.Roll{{Sides: 6, Value: 6, Why: "allied advance"}, {Sides: 6, Value: 6, Why: "german advance"}}
	st, err := c.g.Rules.Resolve(c.g.State, ords, engine.NewReplayDice(rolls))
	if err != nil {
		t.Fatal(err)
	}
	dg, _ := Digest(st)
	ev, _ = c.log.Append(EvPhaseResolved, c.clock.Now(), PhaseResolved{Phase: "T01", Why: "all-in", OrdersDigest: hex.EncodeToString(od[:]), Rolls: rolls, StateDigest: dg})
	if err := c.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "the die supplied for it shows 1") {
		t.Fatalf("rolls of 6 where 1s were supplied: %v", err)
	}
}

func TestResumeCountsThePauseFromWhenTheDeadlineWasSet(t *testing.T) {
	h, clk, _ := newHost(t)
	s := raceSpec("g1")
	s.Timing.PauseLimit = 2
	h.Create(s)
	g, _ := h.Game("g1")
	if err := h.Referee("g1", Command{Name: "pause", Why: "holiday"}); err != nil {
		t.Fatal(err)
	}
	clk.Add(24 * time.Hour)
	want := clk.Now().Add(10 * time.Hour)
	if err := h.Referee("g1", Command{Name: "deadline", Args: []string{want.Format(time.RFC3339)}, Why: "set while paused"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Referee("g1", Command{Name: "resume", Why: "back"}); err != nil {
		t.Fatal(err)
	}
	if !g.Opened.Deadline.Equal(want) {
		t.Errorf("a deadline set during the pause moved to %v on an immediate resume, want %v", g.Opened.Deadline, want)
	}
}

func TestNegativeTimingsAreRefused(t *testing.T) {
	s := raceSpec("g1")
	s.Timing.Grace = Duration(-time.Hour)
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative grace: %v", err)
	}
}

func TestRefereeIsToldWhatEachCommandDid(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	g, _ := h.Game("g1")
	dl := g.Opened.Deadline
	r := submitAt(t, h, Referee, orders("g1", "T01", "referee", "extend 2h travel\nresume back\nshorten 1h hurry"), "ref-cmds", clk.Now())
	if r.Status != StatusReferee || !strings.Contains(r.Reason, "not paused") {
		t.Fatalf("outcome %+v", r)
	}
	if !g.Opened.Deadline.Equal(dl.Add(2 * time.Hour)) {
		t.Errorf("deadline %v: the first command should stand, the last not run", g.Opened.Deadline)
	}
	ob := &outbox{}
	if _, err := h.Flush(t.Context(), ob); err != nil {
		t.Fatal(err)
	}
	var text string
	for _, m := range ob.to("ref@example.org") {
		text += m.Text
	}
	for _, want := range []string{"done: extend 2h travel", "refused: resume back", "not done (an earlier command failed): shorten 1h hurry"} {
		if !strings.Contains(text, want) {
			t.Errorf("the referee's reply lacks %q:\n%s", want, text)
		}
	}
}
