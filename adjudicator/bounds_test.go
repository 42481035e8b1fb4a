package adjudicator

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
	"skagerrak/events"
)

// route submits a signed submission of a side of game g1 as the intake does.
func routeSigned(t *testing.T, h *Host, side engine.Side, text, key string, signed time.Time, raw []byte) Receipt {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games["g1"].g
	fp := g.Referee.Fingerprint
	if side != Referee {
		fp = g.Players[side].Fingerprint
	}
	r, err := h.route(Submission{Text: text, Source: "mail", Raw: raw, Fingerprint: fp, Key: key, SigTime: signed}, h.clock.Now(), h.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// lastData is the data of the last event of a game's log.
func lastEvent(t *testing.T, h *Host, typ string) events.Event {
	t.Helper()
	var last events.Event
	for ev, err := range h.games["g1"].log.Events(1) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == typ {
			last = ev
		}
	}
	return last
}

// A refused order file of 900 KB, its mail as large, a header naming a
// game of 200 KB and 4000 bad lines leave a record of at most
// MaxRejectedRecord: the start of the text, the size and digest of the
// mail and of the text, the first MaxRejectedErrors errors and the count
// of the rest; the reply says how many more errors there were.
func TestRejectedRecordIsBounded(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	huge := orders("g1", "T01", "allied", strings.Repeat("# padding <&> \"\x01\n", 900<<10/18))
	raw := []byte("Subject: orders\r\n\r\n" + huge)
	r := routeSigned(t, h, "allied", huge, "sig1:big", clk.Now(), raw)
	if r.Status != StatusRejected || !strings.Contains(r.Reason, "the limit is") {
		t.Fatalf("%+v", r)
	}
	ev := lastEvent(t, h, EvOrdersRejected)
	if len(ev.Data) > MaxRejectedRecord {
		t.Errorf("the record of a 900 KB refusal holds %d bytes, the bound is %d", len(ev.Data), MaxRejectedRecord)
	}
	var d OrdersRejected
	json.Unmarshal(ev.Data, &d)
	t.Logf("a refusal of %d bytes of mail left a record of %d bytes", len(raw), len(ev.Data))
	if d.Raw != nil || d.RawBytes != len(raw) || d.RawSHA256 != digestText(string(raw)) || d.TextBytes != len(huge) || d.TextSHA256 != digestText(huge) || !strings.HasPrefix(huge, d.Text) {
		t.Errorf("raw %d bytes kept, %d %s; text %d %s", len(d.Raw), d.RawBytes, d.RawSHA256, d.TextBytes, d.TextSHA256)
	}

	clk.Add(time.Second)
	long := orders(strings.Repeat("g", 200<<10), "T01", "allied", "advance 1")
	routeSigned(t, h, "allied", long, "sig1:long-game", clk.Now(), nil)
	ev = lastEvent(t, h, EvOrdersRejected)
	json.Unmarshal(ev.Data, &d)
	if len(ev.Data) > 8<<10 || !strings.HasSuffix(d.Reason, "…") {
		t.Errorf("a 200 KB game name left %d bytes, reason %.80q", len(ev.Data), d.Reason)
	}

	clk.Add(time.Second)
	bad := orders("g1", "T01", "allied", strings.Repeat("advance 9 "+strings.Repeat("x", 300)+"\n", 10)+strings.Repeat("advance 9 "+strings.Repeat("x", 40)+"\n", 3980))
	r = routeSigned(t, h, "allied", bad, "sig1:errors", clk.Now(), nil)
	ev = lastEvent(t, h, EvOrdersRejected)
	json.Unmarshal(ev.Data, &d)
	t.Logf("a refusal with 3990 errors left a record of %d bytes", len(ev.Data))
	if len(r.Errors) != MaxRejectedErrors || d.MoreErrors != 3990-MaxRejectedErrors || len(ev.Data) > MaxRejectedRecord {
		t.Fatalf("%d errors kept, %d more, %d bytes", len(d.Errors), d.MoreErrors, len(ev.Data))
	}
	for _, e := range d.Errors {
		if len(e.Text) > 200 {
			t.Errorf("an error quotes %d bytes of its line", len(e.Text))
		}
	}
	if m := lastMail(t, h, "g1"); !strings.Contains(m.Text, fmt.Sprintf("and %d more errors", 3990-MaxRejectedErrors)) || len(m.Text) > 16<<10 {
		t.Errorf("the reply (%d bytes):\n%.2000s", len(m.Text), m.Text)
	}
}

// fitJSON cuts between runes to what encoding/json writes in max bytes.
func TestFitJSONBoundsTheEncodedString(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("a\"\\\n\t\x00\x01\x7f<>&é€\u2028😀\ufffd")
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for n := rng.IntN(60); n > 0; n-- {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		if rng.IntN(4) == 0 {
			s += "\xff" // a byte that is not UTF-8
		}
		max := rng.IntN(80)
		cut := fitJSON(s, max)
		enc, _ := json.Marshal(cut)
		if !strings.HasPrefix(s, cut) || len(enc)-2 > max {
			t.Fatalf("fitJSON(%q, %d) = %q, %d bytes encoded", s, max, cut, len(enc)-2)
		}
		if full, _ := json.Marshal(s); len(full)-2 <= max && cut != s {
			t.Fatalf("fitJSON(%q, %d) cut a string that fits", s, max)
		}
	}
}

// Replies to one key are limited per phase: its first MaxRepliesPerPhase
// messages are answered (the last answer says so), the rest are recorded
// unanswered, never answered later by the repair of replies, and the next
// phase answers again. Replay accepts such a log, and refuses a reply
// withheld under the limit.
func TestRepliesToOneKeyAreLimitedPerPhase(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	g, _ := h.Game("g1")
	queued := len(g.Outbox)
	for i := 0; i < MaxRepliesPerPhase+5; i++ {
		clk.Add(time.Second)
		text := orders("g1", "T01", "allied", fmt.Sprintf("advance %d", 4+i)) // out of range: refused
		if r := routeSigned(t, h, "allied", text, fmt.Sprintf("sig1:flood-%d", i), clk.Now(), nil); r.Status != StatusRejected {
			t.Fatal(r)
		}
		if i == MaxRepliesPerPhase-1 {
			if m := lastMail(t, h, "g1"); !strings.Contains(strings.Join(strings.Fields(m.Text), " "), "This is the last of the 10 replies your key gets in this phase") {
				t.Errorf("the last reply does not say so:\n%s", m.Text)
			}
		}
	}
	if n := len(g.Outbox) - queued; n != MaxRepliesPerPhase {
		t.Errorf("%d replies queued to allied, want %d", n, MaxRepliesPerPhase)
	}
	ev := lastEvent(t, h, EvOrdersRejected)
	var d OrdersRejected
	json.Unmarshal(ev.Data, &d)
	if !strings.Contains(d.Unanswered, "had its 10 replies in phase T01") {
		t.Errorf("unanswered: %q", d.Unanswered)
	}
	// Accepted orders over the limit are taken, unanswered.
	clk.Add(time.Second)
	if r := routeSigned(t, h, "allied", orders("g1", "T01", "allied", "advance 2"), "sig1:ok", clk.Now(), nil); r.Status != StatusAccepted {
		t.Fatal(r)
	}
	mustTick(t, h)
	if n := len(g.Outbox) - queued; n != MaxRepliesPerPhase {
		t.Errorf("after the accepted orders and a tick: %d replies, want %d (none repaired)", n, MaxRepliesPerPhase)
	}
	// The german side, another key, is answered; the phase resolves, and
	// the next phase answers allied again.
	clk.Add(time.Second)
	routeSigned(t, h, "german", orders("g1", "T01", "german", "advance 1"), "sig1:g", clk.Now(), nil)
	if g.Resolved != 1 {
		t.Fatalf("%d phases resolved", g.Resolved)
	}
	before := len(g.Outbox)
	clk.Add(time.Second)
	routeSigned(t, h, "allied", orders("g1", "T02", "allied", "advance 1"), "sig1:t2", clk.Now(), nil)
	if len(g.Outbox) != before+1 {
		t.Errorf("no reply in the next phase")
	}
	if _, err := Replay(h.games["g1"].log, true); err != nil {
		t.Fatalf("replay of a log with replies withheld: %v", err)
	}

	c := newCrashingGame(t)
	ev2, _ := c.log.Append(EvOrdersRejected, c.clock.Now(), OrdersRejected{Side: "allied", Fingerprint: "FPA", Key: "sig1:x", Reason: "r", Unanswered: "the reply limit"})
	if err := c.g.Apply(ev2); err == nil || !strings.Contains(err.Error(), "under the limit of 10") {
		t.Fatalf("Apply of a reply withheld under the limit: %v", err)
	}
}

// Stray mail of a key (not an order file, another game's, side's or
// phase's, or signed before the phase opened) has replies of its own, at most
// MaxStrayRepliesPerPhase a phase, the last saying so: however much of it
// comes, the key's own orders still get their MaxRepliesPerPhase replies.
// Replay counts each refusal as its record says, and refuses a stray
// reply withheld under the stray limit.
func TestStrayMailHasRepliesOfItsOwn(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	g, _ := h.Game("g1")
	opened := g.OpenedAt
	queued := len(g.Outbox)
	strays := []string{
		"Dear allied, shall we share Norway?\n",
		orders("g-elsewhere", "T04", "allied", "advance 1"),
		orders("g1", "T01", "german", "advance 1"),
		orders("g1", "T07", "allied", "advance 1"),
	}
	for i := 0; i < 5*MaxStrayRepliesPerPhase; i++ {
		clk.Add(time.Second)
		signed := clk.Now()
		text := strays[i%len(strays)]
		if i%5 == 4 { // orders of this game signed an hour before the phase opened
			signed, text = opened.Add(-time.Hour+time.Duration(i)*time.Second), orders("g1", "T01", "allied", "advance 1")
		}
		if r := routeSigned(t, h, "allied", text, fmt.Sprintf("sig1:stray-%d", i), signed, nil); r.Status != StatusRejected {
			t.Fatalf("stray %d: %+v", i, r)
		}
		if i == MaxStrayRepliesPerPhase-1 {
			if m := lastMail(t, h, "g1"); !strings.Contains(strings.Join(strings.Fields(m.Text), " "), "This is the last of the 3 replies your key gets in this phase to mail that is not its orders for this game, or that was signed before the phase opened") {
				t.Errorf("the last stray reply does not say so:\n%s", m.Text)
			}
		}
	}
	if n := len(g.Outbox) - queued; n != MaxStrayRepliesPerPhase {
		t.Errorf("%d replies to stray mail, want %d", n, MaxStrayRepliesPerPhase)
	}
	d := decodeRejected(t, lastEvent(t, h, EvOrdersRejected))
	if !d.Stray || !strings.Contains(d.Unanswered, "had its 3 replies in phase T01 to mail that is not its orders") {
		t.Errorf("the last stray refusal: stray %v, unanswered %q", d.Stray, d.Unanswered)
	}
	// The key's own orders: refused ones are answered, then the accepted.
	for i := 0; i < MaxRepliesPerPhase-1; i++ {
		clk.Add(time.Second)
		routeSigned(t, h, "allied", orders("g1", "T01", "allied", fmt.Sprintf("advance %d", 4+i)), fmt.Sprintf("sig1:own-%d", i), clk.Now(), nil)
		if d := decodeRejected(t, lastEvent(t, h, EvOrdersRejected)); d.Stray || d.Unanswered != "" {
			t.Fatalf("own refused orders %d: stray %v, unanswered %q", i, d.Stray, d.Unanswered)
		}
	}
	clk.Add(time.Second)
	if r := routeSigned(t, h, "allied", orders("g1", "T01", "allied", "advance 2"), "sig1:ok", clk.Now(), nil); r.Status != StatusAccepted {
		t.Fatal(r)
	}
	if m := lastMail(t, h, "g1"); m.Kind != MailAccepted {
		t.Fatalf("the acceptance got no reply; the last mail is a %s", m.Kind)
	}
	if n := len(g.Outbox) - queued; n != MaxStrayRepliesPerPhase+MaxRepliesPerPhase {
		t.Errorf("%d replies in all, want %d", n, MaxStrayRepliesPerPhase+MaxRepliesPerPhase)
	}
	if _, err := Replay(h.games["g1"].log, true); err != nil {
		t.Fatalf("replay: %v", err)
	}
	c := newCrashingGame(t)
	ev, _ := c.log.Append(EvOrdersRejected, c.clock.Now(), OrdersRejected{Side: "allied", Fingerprint: "FPA", Key: "sig1:x", Reason: "r", Stray: true, Unanswered: "the reply limit"})
	if err := c.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "under the limit of 3") {
		t.Fatalf("Apply of a stray reply withheld under the limit: %v", err)
	}
}

func decodeRejected(t *testing.T, ev events.Event) OrdersRejected {
	t.Helper()
	var d OrdersRejected
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// The order files of one side accepted in a phase are limited: each is
// kept whole with its mail (the evidence receipts and verify check), so
// after MaxOrdersPerPhase accepted files the next is refused, with a
// bounded record naming the limit, and the last accepted stands. The count
// survives a restart from snapshots, and the next phase takes orders
// again. A key's flood in one phase thus adds at most MaxOrdersPerPhase
// whole mails and MaxRefusalLogBytes for each message after them.
func TestOrdersAcceptedFromOneSideAreLimitedPerPhase(t *testing.T) {
	h, clk, dir := newHost(t)
	h.Create(raceSpec("g1"))
	raw := []byte("Subject: orders\r\n\r\n" + strings.Repeat("x", 100<<10))
	for i := range MaxOrdersPerPhase {
		clk.Add(time.Second)
		text := orders("g1", "T01", "allied", fmt.Sprintf("advance %d # %d", 1+i%3, i))
		if r := routeSigned(t, h, "allied", text, fmt.Sprintf("sig1:acc-%d", i), clk.Now(), raw); r.Status != StatusAccepted {
			t.Fatalf("order file %d: %+v", i, r)
		}
	}
	if _, err := h.Snapshot(); err != nil {
		t.Fatal(err)
	}
	h.Close()
	h, err := OpenHost(dir, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	clk.Add(time.Second)
	over := orders("g1", "T01", "allied", "advance 3")
	r := routeSigned(t, h, "allied", over, "sig1:acc-over", clk.Now(), raw)
	if r.Status != StatusRejected || !strings.Contains(r.Reason, "side allied has had 20 order files accepted in phase T01, the most one phase takes: the last one accepted stands") {
		t.Fatalf("order file %d of the phase: %+v", MaxOrdersPerPhase+1, r)
	}
	if ev := lastEvent(t, h, EvOrdersRejected); len(ev.Data) > MaxRejectedRecord {
		t.Errorf("the refusal left %d bytes, the bound is %d", len(ev.Data), MaxRejectedRecord)
	}
	g, _ := h.Game("g1")
	if k := g.Orders["allied"].Key; k != fmt.Sprintf("sig1:acc-%d", MaxOrdersPerPhase-1) {
		t.Errorf("the orders standing are %s, want the last accepted", k)
	}
	clk.Add(time.Second)
	routeSigned(t, h, "german", orders("g1", "T01", "german", "advance 1"), "sig1:g", clk.Now(), nil)
	if g.Resolved != 1 {
		t.Fatalf("%d phases resolved", g.Resolved)
	}
	clk.Add(time.Second)
	if r := routeSigned(t, h, "allied", orders("g1", "T02", "allied", "advance 1"), "sig1:t2", clk.Now(), nil); r.Status != StatusAccepted {
		t.Errorf("the next phase: %+v", r)
	}
	if _, err := Replay(h.games["g1"].log, true); err != nil {
		t.Fatalf("replay: %v", err)
	}
}

// Paper orders the referee enters (submit --unsigned) keep no mail: the
// limit of MaxOrdersPerPhase accepted files, there to bound the whole
// mails a key's flood adds to the log, does not lock the referee out of
// entering a side's orders once that side's key used up the phase's
// files, nor do paper orders count against the side's mail.
func TestPaperOrdersAfterASidesMailFloodAreTaken(t *testing.T) {
	h, clk, _ := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	for i := range MaxOrdersPerPhase {
		clk.Add(time.Second)
		text := orders("g1", "T01", "allied", fmt.Sprintf("advance %d # %d", 1+i%3, i))
		if r := routeSigned(t, h, "allied", text, fmt.Sprintf("sig1:acc-%d", i), clk.Now(), nil); r.Status != StatusAccepted {
			t.Fatalf("order file %d: %+v", i, r)
		}
	}
	clk.Add(time.Second)
	g, _ := h.Game("g1")
	queued := len(g.Outbox)
	paper := orders("g1", "T01", "allied", "advance 2 # on paper")
	r, err := h.SubmitFile("g1", "allied", []byte(paper), "", true, "the referee")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusAccepted {
		t.Errorf("paper orders entered by the referee after the side's 20 mailed files: %+v (%d mails queued for the side)", r, len(g.Outbox)-queued)
	}
}

// flakyListing is the file store whose listing of the data directory
// fails while fail is set (EMFILE, EIO, a NFS hiccup).
type flakyListing struct {
	*FileStore
	fail bool
}

func (s *flakyListing) Games() ([]string, error) {
	if s.fail {
		return nil, errors.New("open data: too many open files")
	}
	return s.FileStore.Games()
}

// TestValidListIsCutBetweenNames: a list of valid values longer than the
// record keeps is cut after a whole name and says how many more there
// are; no name is cut in the middle (a "Trondhei…" helps nobody).
func TestValidListIsCutBetweenNames(t *testing.T) {
	names := strings.Repeat("Trondheim, ", 40) + "Narvik"
	got := cutValid(names, maxField)
	if len(got) > maxField {
		t.Fatalf("%d bytes, want at most %d", len(got), maxField)
	}
	head, more, ok := strings.Cut(got, " … and ")
	if !ok || !strings.HasSuffix(more, " more") {
		t.Fatalf("%q does not count the names left out", got)
	}
	for _, n := range strings.Split(head, ", ") {
		if n != "Trondheim" {
			t.Fatalf("a name cut in the middle: %q in %q", n, got)
		}
	}
}
