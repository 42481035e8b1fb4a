package adjudicator

import (
	"encoding/json"
	"fmt"
	"strings"

	"skagerrak/engine"
)

// ReceiptSchema names the JSON copy of a receipt that an acceptance reply
// attaches as receipt.json.
const ReceiptSchema = "skagerrak-receipt/1"

// Receipt kinds.
const (
	// ReceiptOrders names the record of accepted orders: an acceptance
	// reply's receipt.
	ReceiptOrders = "orders"
	// ReceiptHead names the last record of the log when a report was
	// written: a report's receipt.
	ReceiptHead = "head"
)

// receiptsSince is the RenderRevision from which mail carries receipts:
// mail queued before (in the logs of earlier builds) renders without.
// From createdSince on, receipts also name the game's first record.
const (
	receiptsSince = 9
	createdSince  = 13
)

// LogReceipt is what a host's mail states about the game's log, inside
// the host's signature (the whole mail is signed): that the log holds, at
// Seq, the record whose hash is Hash. The hash chains every record before
// it, so a receipt pins the whole log up to Seq; anyone holding the
// published log can check it (events/doc.go, Hash rule).
//
// An acceptance reply's receipt (Kind "orders") names the OrdersAccepted
// record of the orders it answers, and Message, the canonical identity of
// the signed message (its data.key). A report's (Kind "head") names the
// record the log ended at when the report was written: the one before
// its MailQueued.
type LogReceipt struct {
	// Schema is ReceiptSchema in receipt.json, absent inside report.json.
	Schema string      `json:"schema,omitempty"`
	Kind   string      `json:"kind"`
	Game   string      `json:"game"`
	Side   engine.Side `json:"side"`
	Seq    uint64      `json:"seq"`
	Hash   string      `json:"hash"`
	// Type, Phase and Message are set for orders: the record's type
	// (OrdersAccepted), the phase and the message's identity.
	Type    string `json:"type,omitempty"`
	Phase   string `json:"phase,omitempty"`
	Message string `json:"message,omitempty"`
	// Created is the hash of record 1 (GameCreated): which game of that
	// name the receipt is of, since a host may play a game of one name
	// again after the first is over. Absent before createdSince.
	Created string `json:"created,omitempty"`
}

// receipts reports whether a queued mail carries a receipt.
func (q MailQueued) receipts() bool { return q.rendered() >= receiptsSince }

// headReceipt is the receipt of a report queued now: the log's last record.
func (g *Game) headReceipt(q MailQueued) *LogReceipt {
	if !q.receipts() {
		return nil
	}
	return &LogReceipt{Kind: ReceiptHead, Game: g.ID, Side: q.Side, Seq: g.Seq, Hash: g.Hash, Created: g.created(q)}
}

// created is what a receipt of a mail names as the game's first record.
// GameID is the game's own short identity, the first 8 hex digits of the
// hash of its GameCreated record: what order forms carry as Game-Id, so
// that two games of one name (on two hosts, or one played again) take
// only their own signed order files.
func (g *Game) GameID() string {
	if len(g.createdHash) < 8 {
		return ""
	}
	return g.createdHash[:8]
}

// gameIDRefusal says why an order file's Game-Id does not do for this
// game, or "".
func (g *Game) gameIDRefusal(f engine.OrderFile) string {
	id := g.GameID()
	switch {
	case f.GameID != "" && id != "" && f.GameID != id:
		return fmt.Sprintf("the order file is for the game %s with Game-Id %s, not this one (Game-Id %s): it was made for another game of that name, on another host or played before; use the order form of this game's latest report", f.Game, f.GameID, id)
	case f.GameID == "" && g.Created.GameIDs:
		return fmt.Sprintf("the order file has no Game-Id: line; this game's is Game-Id: %s (copy the header lines of the order form in your latest report)", id)
	}
	return ""
}

func (g *Game) created(q MailQueued) string {
	if q.rendered() < createdSince {
		return ""
	}
	return g.createdHash
}

// ordersReceipt is the receipt of an acceptance reply: the record of the
// orders it answers.
func (g *Game) ordersReceipt(q MailQueued, o OrdersAccepted) *LogReceipt {
	if !q.receipts() {
		return nil
	}
	return &LogReceipt{Kind: ReceiptOrders, Game: g.ID, Side: q.Side, Seq: o.Seq, Hash: o.Hash, Type: EvOrdersAccepted, Phase: o.Phase, Message: o.Key, Created: g.created(q)}
}

// attachment is the receipt as receipt.json.
func (r *LogReceipt) attachment() (Attachment, error) {
	c := *r
	c.Schema = ReceiptSchema
	js, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return Attachment{}, err
	}
	return Attachment{Name: "receipt.json", ContentType: "application/json", Data: append(js, '\n')}, nil
}

// ReadReceipt finds the receipt in a host mail's signed text and
// attachments: receipt.json, or the receipt member of report.json. A mail
// without one (a rejection, a reminder, a notice, mail of a build before
// receipts) gives nil. A receipt whose text does not name the same record
// as its JSON copy is an error: the host signed two different statements.
func ReadReceipt(text string, atts []Attachment) (*LogReceipt, error) {
	var r *LogReceipt
	for _, a := range atts {
		switch a.Name {
		case "receipt.json":
			var x LogReceipt
			if err := json.Unmarshal(a.Data, &x); err != nil {
				return nil, fmt.Errorf("receipt.json: %w", err)
			}
			if x.Schema != ReceiptSchema {
				return nil, fmt.Errorf("receipt.json has schema %q, want %q", x.Schema, ReceiptSchema)
			}
			r = &x
		case "report.json":
			var x struct {
				Receipt *LogReceipt `json:"receipt"`
			}
			if err := json.Unmarshal(a.Data, &x); err != nil {
				return nil, fmt.Errorf("report.json: %w", err)
			}
			if x.Receipt != nil {
				r = x.Receipt
			}
		}
	}
	if r == nil {
		return nil, nil
	}
	switch {
	case r.Kind != ReceiptOrders && r.Kind != ReceiptHead:
		return nil, fmt.Errorf("a receipt of kind %q (want %s or %s)", r.Kind, ReceiptOrders, ReceiptHead)
	case r.Seq == 0 || len(r.Hash) != 64:
		return nil, fmt.Errorf("a receipt without a record (seq %d, hash %q)", r.Seq, r.Hash)
	case r.Kind == ReceiptOrders && r.Message == "":
		return nil, fmt.Errorf("a receipt of orders without the message's identity")
	case r.Created != "" && len(r.Created) != 64:
		return nil, fmt.Errorf("a receipt naming the game's first record by %q", r.Created)
	}
	if !strings.Contains(text, fmt.Sprintf("record %d,", r.Seq)) || !strings.Contains(text, r.Hash) {
		return nil, fmt.Errorf("the mail's text does not name record %d with hash %s as its JSON copy does", r.Seq, r.Hash)
	}
	return r, nil
}
