package adjudicator

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
	"skagerrak/events"
)

// playWithReceipts plays a race game to the end: each phase both sides
// order, german twice in T02 (the second replaces the first), allied's T03
// orders entered on paper (the dice decide whether the race ends before
// T05). It returns the game directory, every mail sent and the number of
// phases played.
func playWithReceipts(t *testing.T) (string, []Mail, int) {
	t.Helper()
	h, clk, dir := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game("g1")
	for g.Ended == nil {
		phase := g.Opened.Phase
		if phase == "T02" {
			submit(t, h, "g1", "german", orders("g1", phase, "german", "advance 1"))
			clk.Add(time.Second)
			submit(t, h, "g1", "german", orders("g1", phase, "german", "advance 3"))
			clk.Add(time.Second)
		}
		if phase == "T03" {
			if _, err := h.SubmitFile("g1", "allied", []byte(orders("g1", phase, "allied", "advance 2")), "", true, "the referee"); err != nil {
				t.Fatal(err)
			}
		} else {
			submit(t, h, "g1", "allied", orders("g1", phase, "allied", "advance 2"))
		}
		clk.Add(time.Second)
		if phase != "T02" {
			submit(t, h, "g1", "german", orders("g1", phase, "german", "advance 3"))
		}
		clk.Add(time.Minute)
	}
	var o outbox
	if _, err := h.Flush(context.Background(), &o); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "g1"), o.mails, g.Resolved
}

func readLog(t *testing.T, path string) []events.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []events.Event
	for ev, err := range events.NewReader(f, path).All() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

// Every acceptance reply names the OrdersAccepted record of the orders it
// answers, by seq and the record's own hash, and the message's identity;
// every report and final report names the record before its MailQueued.
// Text and JSON copy say the same; other mail carries none.
func TestEveryAcceptanceAndReportNamesItsRecord(t *testing.T) {
	gdir, mails, phases := playWithReceipts(t)
	evs := readLog(t, filepath.Join(gdir, LogFile))
	queuedAt := map[string]events.Event{}
	for _, ev := range evs {
		if ev.Type == EvMailQueued {
			var q MailQueued
			decode(ev, &q)
			queuedAt[q.ID] = ev
		}
	}
	var held []HeldReceipt
	kinds := map[string]int{}
	for _, m := range mails {
		r, err := ReadReceipt(m.Text, m.Attachments)
		if err != nil {
			t.Fatalf("%s: %v", m.ID, err)
		}
		q := queuedAt[m.ID]
		switch m.Kind {
		case MailAccepted:
			if r == nil || r.Kind != ReceiptOrders {
				t.Fatalf("acceptance %s without an orders receipt: %+v", m.ID, r)
			}
			rec := evs[r.Seq-1]
			var a OrdersAccepted
			decode(rec, &a)
			var mq MailQueued
			decode(q, &mq)
			if rec.Type != EvOrdersAccepted || rec.Hash != r.Hash || a.Key != r.Message || mq.About != a.Key || a.Side != r.Side || a.Phase != r.Phase {
				t.Errorf("acceptance %s names record %d (%s, key %s), which is %s %s key %s", m.ID, r.Seq, r.Hash, r.Message, rec.Type, rec.Hash, a.Key)
			}
			if a.Source == "unsigned" && !strings.Contains(m.Text, "entered on paper by the referee") {
				t.Errorf("the reply to paper orders does not say so:\n%s", m.Text)
			}
		case MailReport, MailFinal:
			if r == nil || r.Kind != ReceiptHead {
				t.Fatalf("%s %s without a head receipt", m.Kind, m.ID)
			}
			if r.Seq != q.Seq-1 || evs[r.Seq-1].Hash != r.Hash || q.Prev != r.Hash {
				t.Errorf("%s %s names record %d %s; its MailQueued is record %d after %s", m.Kind, m.ID, r.Seq, r.Hash, q.Seq, q.Prev)
			}
		default:
			if r != nil {
				t.Errorf("%s mail %s carries a receipt", m.Kind, m.ID)
			}
			continue
		}
		kinds[m.Kind]++
		held = append(held, HeldReceipt{LogReceipt: *r, Mail: m.ID})
	}
	// Two acceptances a phase and german's first T02 orders, the two
	// opening reports and two after each phase but the last, two final
	// reports.
	if kinds[MailAccepted] != 2*phases+1 || kinds[MailReport] != 2*phases || kinds[MailFinal] != 2 {
		t.Errorf("receipts by kind after %d phases: %v", phases, kinds)
	}
	c, err := CheckReceipts(gdir, held)
	if err != nil {
		t.Fatal(err)
	}
	if !c.OK() || c.Checked != len(held) || c.Matched != len(held) || c.Orders != 2*phases+1 {
		t.Errorf("the honest log against its receipts: %+v", c)
	}
}

// Tampering with what a receipt says is named for what it is.
func TestCheckReceiptsNamesEachKindOfMismatch(t *testing.T) {
	gdir, mails, _ := playWithReceipts(t)
	var orders, head *LogReceipt
	for _, m := range mails {
		r, _ := ReadReceipt(m.Text, m.Attachments)
		if r != nil && r.Kind == ReceiptOrders && orders == nil {
			orders = r
		}
		if r != nil && r.Kind == ReceiptHead {
			head = r
		}
	}
	altered := *orders
	altered.Hash = strings.Repeat("0", 64)
	dropped := *orders
	dropped.Message, dropped.Hash = "sig1:"+strings.Repeat("a", 64), strings.Repeat("1", 64)
	beyond := *head
	beyond.Seq += 100
	forked := *head
	forked.Hash = strings.Repeat("2", 64)
	other := *head
	other.Game = "another-game"
	held := []HeldReceipt{{LogReceipt: *orders, Mail: "a"}, {LogReceipt: altered, Mail: "b"}, {LogReceipt: dropped, Mail: "c"},
		{LogReceipt: beyond, Mail: "d"}, {LogReceipt: forked, Mail: "e"}, {LogReceipt: *head, Mail: "f"}, {LogReceipt: other, Mail: "g"}}
	c, err := CheckReceipts(filepath.Join(gdir, LogFile), held)
	if err != nil {
		t.Fatal(err)
	}
	if c.OK() || c.Checked != 6 || c.Other != 1 || c.Matched != 2 || len(c.Mismatches) != 4 {
		t.Fatalf("check: %+v", c)
	}
	want := map[string]string{
		"b": "holds this message's orders there, but they or the records before them were altered",
		"c": "holds no record of this message: the accepted orders were dropped",
		"d": "the log ends at record",
		"e": "a fork, or records rewritten",
	}
	for _, m := range c.Mismatches {
		if !strings.Contains(m.Why, want[m.Mail]) {
			t.Errorf("mail %s: %q, want %q", m.Mail, m.Why, want[m.Mail])
		}
	}
	// The orders receipt matches and is the lowest; the lowest mismatch
	// names the same record with another hash.
	if c.Departs != orders.Seq || c.Agree != 0 {
		t.Errorf("departs %d (want %d), agrees to %d", c.Departs, orders.Seq, c.Agree)
	}
	if len(c.Contradictions) != 2 || !strings.Contains(c.Contradictions[0], orders.Hash) {
		t.Errorf("contradictions: %q", c.Contradictions)
	}
}

// Mail queued by a build before receipts renders as it was sent: without.
func TestMailOfEarlierRenderRevisionsHasNoReceipt(t *testing.T) {
	h, _, _ := newHost(t)
	g, err := h.Create(raceSpec("g1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []int{0, receiptsSince - 1, RenderRevision} {
		m, err := g.render(MailQueued{Kind: MailReport, Side: "german", To: "g@example.org", Render: rev})
		if err != nil {
			t.Fatal(err)
		}
		r, err := ReadReceipt(m.Text, m.Attachments)
		if has := r != nil && strings.Contains(m.Text, "Receipt, signed"); err != nil || has != (rev >= receiptsSince) {
			t.Errorf("render revision %d: receipt %+v, %v", rev, r, err)
		}
	}
}

// A snapshot keeps the records of the open phase's orders and the game's
// first record, so that a receipt rendered after a restart names them.
func TestSnapshotKeepsTheRecordsOfOrders(t *testing.T) {
	h, _, _ := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "g1", "german", orders("g1", "T01", "german", "advance 2"))
	g, _ := h.Game("g1")
	g.Outbox = nil
	b, ok, err := g.MarshalSnapshot()
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	s := readSnapshot(b)
	o, want := s.Orders[engine.Side("german")], g.Orders["german"]
	if s == nil || o.Seq == 0 || o.Seq != want.Seq || o.Hash != want.Hash {
		t.Fatalf("orders after the snapshot: %d %s, want %d %s", o.Seq, o.Hash, want.Seq, want.Hash)
	}
	if s.createdHash == "" || s.createdHash != g.createdHash {
		t.Errorf("the first record after the snapshot: %q, want %q", s.createdHash, g.createdHash)
	}
}
