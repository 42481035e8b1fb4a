package adjudicator

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"skagerrak/engine"
	"skagerrak/events"
)

// HeldReceipt is a receipt a player kept, with the mail that carried it.
type HeldReceipt struct {
	LogReceipt
	// Mail names the mail: a file, or a message of an mbox.
	Mail string
	// Signed is when the host signed the mail.
	Signed time.Time
}

// What names the receipt for people.
func (r HeldReceipt) What() string {
	if r.Kind == ReceiptOrders {
		return fmt.Sprintf("%s's orders for %s (message %s, accepted as record %d)", r.Side, r.Phase, r.Message, r.Seq)
	}
	return fmt.Sprintf("the report to %s written at record %d", r.Side, r.Seq)
}

// ReceiptMismatch is a receipt the log does not bear out.
type ReceiptMismatch struct {
	HeldReceipt
	// Why says how the log differs from what the receipt says.
	Why string
}

// ReceiptCheck is what checking kept receipts against a game's log found.
type ReceiptCheck struct {
	Game string
	// Records is the number of records in the log.
	Records uint64
	// Checked counts the receipts of this game; Matched those the log
	// bears out. Other counts receipts of other games, not checked.
	Checked, Matched, Other int
	// Orders counts the receipts of accepted orders among those checked.
	Orders     int
	Mismatches []ReceiptMismatch
	// Contradictions are records that two receipts name with different
	// hashes: the host signed two histories, whatever the log says.
	Contradictions []string
	// Departs is the lowest record whose receipt the log does not bear
	// out, and Agree the highest record below it whose receipt it does
	// (0 if none): the log is the history the host showed the players up
	// to Agree, and not from Departs on. The log was forked or rewritten
	// somewhere from Agree+1 to Departs. Both are 0 when all match.
	Agree, Departs uint64
	// AtDeparture describes the game at record Agree+1 ("while phase T03
	// was open").
	AtDeparture string
	// Elsewhere counts receipts of another game of this name (their
	// first record is not this log's): one played before this one began
	// or after it ended, not checked. Concurrent lists, by first record,
	// the other games of this name whose receipts the host signed while
	// this one was played: two logs for one game, shown to different
	// players.
	Elsewhere  int
	Concurrent []string
}

// OK reports whether the log bears out every receipt.
func (c ReceiptCheck) OK() bool {
	return len(c.Mismatches) == 0 && len(c.Contradictions) == 0 && len(c.Concurrent) == 0
}

// logRecord is what checking receipts needs of one record of the log.
type logRecord struct {
	hash, typ, key string
	time           time.Time
	// during describes the game when the record was written.
	during string
}

// CheckReceipts checks receipts a player kept against a game's log (a
// game directory or its events.jsonl): that the log holds each receipt's
// record at its seq with its hash (and, for orders, that the record is
// the OrdersAccepted of the message the receipt names). Every receipt
// that does not match is named with what the log holds instead: orders
// dropped, moved or turned into a rejection, a record altered, a log cut
// short, a fork. The log's own chain is checked as it is read; replaying
// it is VerifyPath's job.
func CheckReceipts(path string, held []HeldReceipt) (ReceiptCheck, error) {
	logPath, _, err := logOf(path)
	if err != nil {
		return ReceiptCheck{}, err
	}
	recs, byKey, game, err := readRecords(logPath)
	if err != nil {
		return ReceiptCheck{}, err
	}
	t := receiptTally{recs: recs, byKey: byKey, hashes: map[uint64]map[string]string{}, matched: map[uint64]bool{}, other: map[string]bool{}}
	t.c.Game, t.c.Records = game, uint64(len(recs))
	for _, h := range held {
		t.check(h)
	}
	return t.finish(), nil
}

// receiptTally gathers, receipt by receipt, what CheckReceipts finds in
// one log.
type receiptTally struct {
	c       ReceiptCheck
	recs    logRecords
	byKey   map[string][]keyed
	hashes  map[uint64]map[string]string // seq -> hash -> first mail naming it
	matched map[uint64]bool              // seqs of receipts the log bears out
	other   map[string]bool              // first records of games of this name played at once
}

// check checks one receipt against the log.
func (t *receiptTally) check(h HeldReceipt) {
	c := &t.c
	if h.Game != c.Game {
		c.Other++
		return
	}
	if h.Created != "" && h.Created != t.recs[0].hash {
		// Another game of this name: its records say nothing of
		// this log's, unless the host ran both at once.
		if t.recs.during(h.Signed) {
			t.other[h.Created] = true
		} else {
			c.Elsewhere++
		}
		return
	}
	c.Checked++
	if h.Kind == ReceiptOrders {
		c.Orders++
	}
	if t.hashes[h.Seq] == nil {
		t.hashes[h.Seq] = map[string]string{}
	}
	if _, ok := t.hashes[h.Seq][h.Hash]; !ok {
		t.hashes[h.Seq][h.Hash] = h.Mail
	}
	if why := mismatch(h, t.recs, t.byKey); why != "" {
		c.Mismatches = append(c.Mismatches, ReceiptMismatch{HeldReceipt: h, Why: why})
		if c.Departs == 0 || h.Seq < c.Departs {
			c.Departs = h.Seq
		}
		return
	}
	c.Matched++
	t.matched[h.Seq] = true
}

// finish works out, once every receipt is checked, where the log departs
// from them, the contradictions and the games played at once.
func (t *receiptTally) finish() ReceiptCheck {
	c := t.c
	for seq := range t.matched {
		if c.Departs > 0 && seq < c.Departs && seq > c.Agree {
			c.Agree = seq
		}
	}
	if c.Departs > 0 && c.Agree < uint64(len(t.recs)) {
		c.AtDeparture = t.recs[c.Agree].during
	}
	sort.Slice(c.Mismatches, func(i, j int) bool { return c.Mismatches[i].Seq < c.Mismatches[j].Seq })
	c.Contradictions = contradictions(t.hashes)
	for h := range t.other {
		c.Concurrent = append(c.Concurrent, h)
	}
	sort.Strings(c.Concurrent)
	return c
}

// logRecords are the records of a log, in order.
type logRecords []logRecord

// during reports whether t falls while the log's game was played: from
// its first record until its GameEnded (allowing for the mail the end
// sends, and for clocks, ClockSkew either side), or, for a game not
// over, from its first record on.
func (recs logRecords) during(t time.Time) bool {
	if t.IsZero() || t.Before(recs[0].time.Add(-ClockSkew)) {
		return false
	}
	for _, r := range recs {
		if r.typ == EvGameEnded {
			return !t.After(r.time.Add(ClockSkew))
		}
	}
	return true
}

// mismatch says how the log differs from a receipt, or "" if it holds it.
func mismatch(h HeldReceipt, recs logRecords, byKey map[string][]keyed) string {
	why := ""
	switch {
	case h.Seq > uint64(len(recs)):
		why = fmt.Sprintf("the log ends at record %d, before record %d that this mail names", len(recs), h.Seq)
	case recs[h.Seq-1].hash != h.Hash:
		why = fmt.Sprintf("record %d of the log (%s) has another hash", h.Seq, recs[h.Seq-1].typ)
	case h.Kind == ReceiptOrders && (recs[h.Seq-1].typ != EvOrdersAccepted || recs[h.Seq-1].key != h.Message):
		return fmt.Sprintf("record %d has the hash this mail names but is not the %s of message %s: the host signed a false receipt", h.Seq, EvOrdersAccepted, h.Message)
	default:
		return ""
	}
	if h.Kind != ReceiptOrders {
		return why + ": the history the host showed when it wrote this mail is not this log's (a fork, or records rewritten)"
	}
	return why + ": " + ordersFate(h, byKey[h.Message])
}

// ordersFate says what the log holds of a receipt's message.
func ordersFate(h HeldReceipt, found []keyed) string {
	for _, k := range found {
		switch {
		case k.typ == EvOrdersAccepted && k.seq == h.Seq:
			return "it holds this message's orders there, but they or the records before them were altered"
		case k.typ == EvOrdersAccepted:
			return fmt.Sprintf("it holds this message's orders at record %d instead, so records before them were added, dropped or changed (a fork, or a rewrite)", k.seq)
		case k.typ == EvOrdersRejected:
			return fmt.Sprintf("it records this message as rejected (record %d): accepted orders were turned into a rejection", k.seq)
		}
	}
	return "the log holds no record of this message: the accepted orders were dropped"
}

// contradictions lists the records two receipts name with two hashes.
func contradictions(hashes map[uint64]map[string]string) []string {
	var seqs []uint64
	for seq, hs := range hashes {
		if len(hs) > 1 {
			seqs = append(seqs, seq)
		}
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	var out []string
	for _, seq := range seqs {
		var hs []string
		for h := range hashes[seq] {
			hs = append(hs, h)
		}
		sort.Strings(hs)
		s := fmt.Sprintf("record %d:", seq)
		for _, h := range hs {
			s += fmt.Sprintf(" %s (%s)", h, hashes[seq][h])
		}
		out = append(out, s)
	}
	return out
}

// keyed is a record that names a received message.
type keyed struct {
	seq uint64
	typ string
}

// readRecords reads what checking receipts needs of every record of a log.
func readRecords(logPath string) (recs logRecords, byKey map[string][]keyed, game string, err error) {
	f, err := os.Open(logPath)
	if err != nil {
		return nil, nil, "", fmt.Errorf("receipts: %w", err)
	}
	defer f.Close()
	byKey = map[string][]keyed{}
	during := "when the game was created"
	for ev, err := range events.NewReader(f, logPath).All() {
		if err != nil {
			return nil, nil, "", fmt.Errorf("receipts: %w", err)
		}
		var d struct {
			Game  string      `json:"game"`
			Key   string      `json:"key"`
			Phase string      `json:"phase"`
			Side  engine.Side `json:"side"`
		}
		switch ev.Type {
		case EvGameCreated, EvOrdersAccepted, EvOrdersRejected, EvRefereeMail, EvPlayerMail, EvPhaseOpened, EvPhaseResolved:
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				return nil, nil, "", fmt.Errorf("receipts: record %d of %s: %w", ev.Seq, logPath, err)
			}
		}
		switch ev.Type {
		case EvGameCreated:
			game = d.Game
		case EvPhaseOpened:
			during = "while phase " + d.Phase + " was open"
		case EvPhaseResolved:
			during = "when phase " + d.Phase + " was resolved"
		case EvGameEnded:
			during = "when the game ended"
		}
		if d.Key != "" {
			byKey[d.Key] = append(byKey[d.Key], keyed{seq: ev.Seq, typ: ev.Type})
		}
		recs = append(recs, logRecord{hash: ev.Hash, typ: ev.Type, key: d.Key, time: ev.Time, during: during})
	}
	if len(recs) == 0 {
		return nil, nil, "", fmt.Errorf("receipts: %s holds no records", logPath)
	}
	return recs, byKey, game, nil
}

// logOf finds a game's log: path itself, or events.jsonl in the game
// directory path (gdir is then path).
func logOf(path string) (logPath, gdir string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", "", fmt.Errorf("verify: %w", err)
	}
	if !st.IsDir() {
		return path, "", nil
	}
	logPath = filepath.Join(path, LogFile)
	if _, err := os.Stat(logPath); err != nil {
		return "", "", fmt.Errorf("verify: %s is not a game directory: no %s", path, LogFile)
	}
	return logPath, path, nil
}
