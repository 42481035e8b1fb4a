package adjudicator

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"skagerrak/engine"
)

// SnapshotFile is the name of a game's snapshot in its directory.
const SnapshotFile = "snapshot.json"

// snapshotVersion changes whenever the snapshot's shape does; a snapshot of
// another version is ignored (the log is replayed instead).
const snapshotVersion = 16

// snapshot is a cache of a Game at one event: never the truth, which is
// the log. It is keyed by the seq and hash of the last event it includes;
// on open it is used only if the log holds that very event, and the state
// in it has the digest the log recorded.
type snapshot struct {
	Version      int                            `json:"version"`
	Seq          uint64                         `json:"seq"`
	Hash         string                         `json:"hash"`
	Time         time.Time                      `json:"time"`
	Created      GameCreated                    `json:"created"`
	State        json.RawMessage                `json:"state"`
	StateDigest  string                         `json:"state_digest"`
	Opened       *PhaseOpened                   `json:"opened,omitempty"`
	OpenedAt     time.Time                      `json:"opened_at"`
	Orders       map[engine.Side]OrdersAccepted `json:"orders,omitempty"`
	OrderRecords map[engine.Side]recordRef      `json:"order_records,omitempty"`
	Players      []Player                       `json:"players"`
	Referee      *Player                        `json:"referee,omitempty"`
	Failed       []MailFailed                   `json:"failed,omitempty"`
	Bounced      []MailBounced                  `json:"bounced,omitempty"`
	Paused       *GamePaused                    `json:"paused,omitempty"`
	PausedAt     time.Time                      `json:"paused_at"`
	Pauses       int                            `json:"pauses"`
	Missed       map[engine.Side]int            `json:"missed,omitempty"`
	Dice         []int                          `json:"dice,omitempty"`
	DiceD6       int                            `json:"dice_d6,omitempty"`
	Ended        *GameEnded                     `json:"ended,omitempty"`
	Resolved     int                            `json:"resolved"`
	History      []PhaseResolved                `json:"history,omitempty"`
	HistorySeqs  []uint64                       `json:"history_seqs,omitempty"`
	Keys         map[string]uint64              `json:"keys,omitempty"`
	Legacy       []string                       `json:"legacy,omitempty"`
	RejectedKeys []string                       `json:"rejected_keys,omitempty"`
	Replies      map[string]int                 `json:"replies,omitempty"`
	AcceptedIn   map[engine.Side]int            `json:"accepted_in,omitempty"`
	Reminded     []string                       `json:"reminded,omitempty"`
	Flagged      map[engine.Side]int            `json:"flagged,omitempty"`
	Encrypts     map[engine.Side]bool           `json:"encrypts,omitempty"`
	LastRejected *OrdersRejected                `json:"last_rejected,omitempty"`
	LastNotice   string                         `json:"last_notice,omitempty"`
	Waiting      *PhaseWaiting                  `json:"waiting,omitempty"`
	Moves        []PhaseMoves                   `json:"moves,omitempty"`
	Replied      []string                       `json:"replied,omitempty"`
	Finals       []engine.Side                  `json:"finals,omitempty"`
	Signed       map[string]time.Time           `json:"signed,omitempty"`
	Former       []Player                       `json:"former,omitempty"`
	Mails        map[string]engine.Side         `json:"mails,omitempty"`
	MailNotes    map[string]mailNote            `json:"mail_notes,omitempty"`
	Undelivered  []Undelivered                  `json:"undelivered,omitempty"`
	CreatedHash  string                         `json:"created_hash"`
	// Reports are the reports queued, without the game as it stood for
	// each (replayed from the log when one is sent again).
	Reports      []snapReport           `json:"reports,omitempty"`
	LastMap      map[engine.Side]uint64 `json:"last_map,omitempty"`
	ToldUnsigned []string               `json:"told_unsigned,omitempty"`
	// MapSums caches the mapSum of each side's last map, by Message-ID
	// (from version 16 with its captions left out).
	MapSums map[string]string `json:"map_sums,omitempty"`
}

// snapReport is a sentReport in a snapshot.
type snapReport struct {
	Queued MailQueued `json:"queued"`
	Seq    uint64     `json:"seq"`
	Open   string     `json:"open,omitempty"`
}

// recordRef names a record of the log: the one of a side's accepted
// orders, for the receipt of their reply.
type recordRef struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
}

// stateDigest is the digest the log recorded for the current state.
func (g *Game) stateDigest() string {
	if n := len(g.History); n > 0 {
		return g.History[n-1].StateDigest
	}
	return g.Created.StateDigest
}

// WriteSnapshot saves the game as it stands into gdir, atomically (see
// MarshalSnapshot); it reports whether it wrote one.
func (g *Game) WriteSnapshot(gdir string) (bool, error) {
	b, ok, err := g.MarshalSnapshot()
	if !ok || err != nil {
		return false, err
	}
	return true, saveSnapshotFile(gdir, b)
}

// MarshalSnapshot encodes the game as it stands. A game with mail still
// in its outbox is not saved (the mail's pictures are made from views a
// snapshot does not keep); it reports whether it made one.
func (g *Game) MarshalSnapshot() ([]byte, bool, error) {
	if len(g.Outbox) > 0 || g.Seq == 0 {
		return nil, false, nil
	}
	st, err := json.Marshal(g.State)
	if err != nil {
		return nil, false, err
	}
	s := snapshot{Version: snapshotVersion, Seq: g.Seq, Hash: g.Hash, Time: g.Time, Created: g.Created, State: st, StateDigest: g.stateDigest(),
		Opened: g.Opened, OpenedAt: g.OpenedAt, Orders: g.Orders, Referee: g.Referee, Failed: g.Failed, Bounced: g.Bounced, Paused: g.Paused, PausedAt: g.PausedAt,
		Pauses: g.Pauses, Missed: g.Missed, Dice: g.Dice, DiceD6: g.DiceD6, Ended: g.Ended, Resolved: g.Resolved, History: g.History, Flagged: g.flagged, Encrypts: g.encrypts,
		LastRejected: g.lastRejected, LastNotice: g.lastNotice, Moves: g.Moves, Waiting: g.waiting,
		Players: g.snapPlayers(), HistorySeqs: g.historySeqs(), OrderRecords: g.orderRecords(),
		Keys: g.keys, Replies: g.replies, AcceptedIn: g.acceptedIn,
		Legacy: sortedKeys(g.legacy), RejectedKeys: trueKeys(g.rejected), Reminded: sortedKeys(g.reminded), Replied: trueKeys(g.replied), Finals: g.finalSides(),
		Signed: g.signed, Mails: g.mails, CreatedHash: g.createdHash, Former: g.former, MailNotes: g.mailNotes, Undelivered: g.Undelivered,
		Reports: g.snapReports(), LastMap: g.lastMap, MapSums: g.hexMapSums(), ToldUnsigned: trueKeys(g.toldUnsigned)}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// snapPlayers lists the players in the order of their sides.
func (g *Game) snapPlayers() []Player {
	var ps []Player
	for _, side := range g.Sides() {
		ps = append(ps, g.Players[side])
	}
	return ps
}

// historySeqs lists the seq of each resolution in History, which its JSON
// leaves out.
func (g *Game) historySeqs() []uint64 {
	var seqs []uint64
	for _, h := range g.History {
		seqs = append(seqs, h.Seq)
	}
	return seqs
}

// orderRecords names the record of each side's accepted orders (nil if
// none are).
func (g *Game) orderRecords() map[engine.Side]recordRef {
	var refs map[engine.Side]recordRef
	for side, o := range g.Orders {
		if refs == nil {
			refs = map[engine.Side]recordRef{}
		}
		refs[side] = recordRef{Seq: o.Seq, Hash: o.Hash}
	}
	return refs
}

// finalSides lists, in order, the sides whose final report is queued.
func (g *Game) finalSides() []engine.Side {
	var sides []engine.Side
	for _, side := range g.Sides() {
		if g.finals[side] {
			sides = append(sides, side)
		}
	}
	return sides
}

// snapReports lists the reports queued, without the game as it stood.
func (g *Game) snapReports() []snapReport {
	var rs []snapReport
	for _, r := range g.reports {
		rs = append(rs, snapReport{Queued: r.Queued, Seq: r.Seq, Open: r.Open})
	}
	return rs
}

// hexMapSums is the map checksums in hex (nil if there are none).
func (g *Game) hexMapSums() map[string]string {
	var sums map[string]string
	for id, sum := range g.mapSums {
		if sums == nil {
			sums = map[string]string{}
		}
		sums[id] = hex.EncodeToString(sum[:])
	}
	return sums
}

// sortedKeys lists m's keys in order (nil if it has none).
func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// trueKeys lists, in order, the keys m maps to true (nil if none).
func trueKeys(m map[string]bool) []string {
	var ks []string
	for k, ok := range m {
		if ok {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	return ks
}

// saveSnapshotFile replaces gdir's snapshot file atomically.
func saveSnapshotFile(gdir string, b []byte) error {
	tmp := filepath.Join(gdir, SnapshotFile+".tmp")
	os.Remove(tmp)
	if err := writeSync(tmp, b, 0o600); err != nil {
		return fmt.Errorf("adjudicator: snapshot in %s: %w", gdir, err)
	}
	if err := os.Rename(tmp, filepath.Join(gdir, SnapshotFile)); err != nil {
		return fmt.Errorf("adjudicator: snapshot in %s: %w", gdir, err)
	}
	d, err := os.Open(gdir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// readSnapshot loads a game from a snapshot, or returns nil when there is
// none or it cannot be trusted (another version, a state that does not
// decode to the recorded digest). Which event it ends at is checked by the
// caller against the log.
func readSnapshot(b []byte) *Game {
	s, rs, st, ok := decodeSnapshot(b)
	if !ok {
		return nil
	}
	g := NewGame(TemplateRenderer{}, false)
	g.ID, g.Created, g.Rules, g.State, g.Phase = s.Created.Game, s.Created, rs, st, rs.Phase(st)
	g.Opened, g.OpenedAt, g.Referee, g.Failed, g.Bounced = s.Opened, s.OpenedAt, s.Referee, s.Failed, s.Bounced
	g.Paused, g.PausedAt, g.Pauses, g.Dice, g.Ended, g.Resolved = s.Paused, s.PausedAt, s.Pauses, s.Dice, s.Ended, s.Resolved
	g.DiceD6, g.createdHash = s.DiceD6, s.CreatedHash
	g.History, g.lastRejected, g.lastNotice, g.Moves = s.History, s.LastRejected, s.LastNotice, s.Moves
	g.waiting = s.Waiting
	g.Seq, g.Hash, g.Time = s.Seq, s.Hash, s.Time
	for i := range g.History {
		if i < len(s.HistorySeqs) {
			g.History[i].Seq = s.HistorySeqs[i]
		}
	}
	for _, p := range s.Players {
		g.Players[p.Side] = p
	}
	g.restoreIndexes(&s)
	g.restoreMail(&s)
	if !g.restoreOrders(&s, rs, st) {
		return nil
	}
	return g
}

// decodeSnapshot decodes a snapshot of this version and its state, and
// reports whether the state has the digest recorded.
func decodeSnapshot(b []byte) (snapshot, engine.Ruleset, engine.State, bool) {
	var s snapshot
	if len(b) == 0 {
		return s, nil, nil, false
	}
	if json.Unmarshal(b, &s) != nil || s.Version != snapshotVersion || s.Seq == 0 {
		return s, nil, nil, false
	}
	rs, err := engine.Lookup(s.Created.Ruleset)
	if err != nil {
		return s, nil, nil, false
	}
	st, err := rs.DecodeState(s.State)
	if err != nil {
		return s, nil, nil, false
	}
	if d, err := Digest(st); err != nil || d != s.StateDigest {
		return s, nil, nil, false
	}
	return s, rs, st, true
}

// restoreIndexes fills the game's private indexes (the keys, replies and
// reminders recorded, and who was flagged, encrypts or signed) from s.
func (g *Game) restoreIndexes(s *snapshot) {
	maps.Copy(g.Missed, s.Missed)
	maps.Copy(g.flagged, s.Flagged)
	maps.Copy(g.encrypts, s.Encrypts)
	maps.Copy(g.keys, s.Keys)
	maps.Copy(g.replies, s.Replies)
	maps.Copy(g.acceptedIn, s.AcceptedIn)
	setKeys(g.legacy, s.Legacy)
	setKeys(g.rejected, s.RejectedKeys)
	setKeys(g.reminded, s.Reminded)
	setKeys(g.replied, s.Replied)
	for _, side := range s.Finals {
		g.finals[side] = true
	}
	maps.Copy(g.signed, s.Signed)
	g.former = slices.Clone(s.Former)
}

// restoreMail fills what the game knows of the mail it queued from s.
func (g *Game) restoreMail(s *snapshot) {
	maps.Copy(g.mails, s.Mails)
	maps.Copy(g.mailNotes, s.MailNotes)
	g.Undelivered = slices.Clone(s.Undelivered)
	for _, r := range s.Reports {
		g.reports = append(g.reports, &sentReport{Queued: r.Queued, Seq: r.Seq, Open: r.Open})
	}
	maps.Copy(g.lastMap, s.LastMap)
	setKeys(g.toldUnsigned, s.ToldUnsigned)
	for id, h := range s.MapSums {
		var sum [32]byte
		if b, err := hex.DecodeString(h); err == nil && len(b) == 32 {
			copy(sum[:], b)
			g.mapSums[id] = sum
		}
	}
}

// restoreOrders parses each side's accepted orders again; it reports false
// if any no longer parse or has no record named, and the snapshot is not
// to be trusted.
func (g *Game) restoreOrders(s *snapshot, rs engine.Ruleset, st engine.State) bool {
	for side, o := range s.Orders {
		f, err := readOrderFileTo(o.Text, o.ReadTo)
		if err != nil {
			return false
		}
		parsed, errs := rs.ParseOrders(st, side, f.Body)
		if len(errs) > 0 {
			return false
		}
		ref, ok := s.OrderRecords[side]
		if !ok {
			return false
		}
		o.Seq, o.Hash = ref.Seq, ref.Hash
		g.Orders[side] = o
		g.parsed[side] = parsed
	}
	return true
}

// setKeys sets each of keys to true in m.
func setKeys(m map[string]bool, keys []string) {
	for _, k := range keys {
		m[k] = true
	}
}

// Snapshot saves a snapshot of every game that changed since its last one
// and has no mail waiting, so that the next start need not replay them from
// the beginning. It returns how many it wrote.
func (h *Host) Snapshot() (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, id := range h.idsLocked() {
		hg := h.games[id]
		if hg.snapSeq == hg.g.Seq {
			continue
		}
		b, ok, err := hg.g.MarshalSnapshot()
		if err == nil && ok {
			err = h.store.SaveSnapshot(id, hg.g.Seq, b)
		}
		if err != nil {
			return n, fmt.Errorf("adjudicator: snapshot of %s: %w", id, err)
		}
		if ok {
			hg.snapSeq = hg.g.Seq
			n++
		}
	}
	return n, nil
}
