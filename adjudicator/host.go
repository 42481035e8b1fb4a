package adjudicator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"skagerrak/engine"
	"skagerrak/events"
)

// Clock tells the time. The daemon's is the wall clock; tests inject one.
type Clock interface {
	Now() time.Time
}

// WallClock is the system clock.
type WallClock struct{}

// Now implements Clock.
func (WallClock) Now() time.Time { return time.Now().UTC() }

// KeySet is a parsed set of public keys, made by a Verifier.
type KeySet any

// Verified is what a signature check yields.
type Verified struct {
	// Signed are the signed bytes: the order file.
	Signed []byte
	// Fingerprint is the signer's primary key fingerprint.
	Fingerprint string
	// Key is the idempotency key (hex SHA-256 of the signature packet).
	Key string
	// SigTime is the signature's creation time.
	SigTime time.Time
	// Form is how it was signed: pgp-mime, detached, clearsigned.
	Form string
}

// Verifier checks OpenPGP signatures. The mail package implements it.
type Verifier interface {
	// Keys parses armored public keys.
	Keys(armored []string) (KeySet, error)
	// VerifyMail verifies a raw RFC 5322 message at time at.
	VerifyMail(raw []byte, keys KeySet, at time.Time) (Verified, error)
	// VerifyFile verifies a file and its armored detached signature, or a
	// cleartext-signed file when sig is "".
	VerifyFile(data []byte, sig string, keys KeySet, at time.Time) (Verified, error)
}

// Sender delivers a rendered Mail. An error wrapping ErrPermanent is a
// failure for good (SMTP 5xx); any other error is retried on a later pass.
type Sender interface {
	Send(ctx context.Context, m Mail) error
}

// ErrPermanent marks a delivery that will never succeed.
var ErrPermanent = errors.New("permanent delivery failure")

// File names inside a game directory.
const (
	LogFile    = "events.jsonl"
	SecretFile = "dice-secret"
)

// Host serves every game under one data directory.
type Host struct {
	dir      string
	clock    Clock
	verifier Verifier
	log      *slog.Logger
	entropy  io.Reader

	mu     sync.Mutex
	games  map[string]*hosted
	ids    []string
	byFP   map[string][]string
	byFPOK bool
	keys   KeySet
	keysOK bool
}

type hosted struct {
	g   *Game
	log events.Log
	// snapSeq is the seq of the game's last snapshot.
	snapSeq uint64
}

// Options configure a Host; nil fields take defaults.
type Options struct {
	Clock    Clock
	Verifier Verifier
	Logger   *slog.Logger
	// Entropy is where dice secrets come from; nil is crypto/rand. Tests
	// that need the same game twice give a fixed source.
	Entropy io.Reader
}

// OpenHost opens every game under dir (creating dir if missing), replaying
// each game's log. A game whose log is locked by another process, damaged,
// or does not replay is an error naming it.
func OpenHost(dir string, o Options) (*Host, error) {
	if o.Clock == nil {
		o.Clock = WallClock{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("adjudicator: data directory %s: %w", dir, err)
	}
	if o.Entropy == nil {
		o.Entropy = rand.Reader
	}
	h := &Host{dir: dir, clock: o.Clock, verifier: o.Verifier, log: o.Logger, entropy: o.Entropy, games: map[string]*hosted{}}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("adjudicator: data directory %s: %w", dir, err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), LogFile)); err != nil {
			continue
		}
		if err := h.openGame(e.Name()); err != nil {
			h.Close()
			return nil, err
		}
	}
	return h, nil
}

func (h *Host) openGame(id string) error {
	gdir := filepath.Join(h.dir, id)
	l, err := events.Open(filepath.Join(gdir, LogFile))
	if err != nil {
		return fmt.Errorf("adjudicator: game %s: %w", id, err)
	}
	g, err := replayFrom(l, readSnapshot(gdir))
	if err != nil {
		l.Close()
		return fmt.Errorf("adjudicator: game %s: %w", id, err)
	}
	if g.Ended == nil {
		sec, err := ReadSecret(gdir)
		if err != nil {
			l.Close()
			return fmt.Errorf("adjudicator: game %s: %w", id, err)
		}
		if err := g.SetSecret(sec); err != nil {
			l.Close()
			return err
		}
	}
	h.games[id] = &hosted{g: g, log: l}
	if g.Seq > 0 {
		if b, err := os.ReadFile(filepath.Join(gdir, SnapshotFile)); err == nil && len(b) > 0 {
			h.games[id].snapSeq = snapSeqOf(b)
		}
	}
	h.keysOK, h.byFPOK = false, false
	return nil
}

// Replay folds every event of a log into a new Game. strict checks every
// queued mail's digest too (verify).
func Replay(l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}, strict bool) (*Game, error) {
	g := NewGame(TemplateRenderer{}, strict)
	for ev, err := range l.Events(1) {
		if err != nil {
			return nil, err
		}
		if err := g.Apply(ev); err != nil {
			return nil, err
		}
	}
	if g.Seq == 0 {
		return nil, fmt.Errorf("adjudicator: the log is empty")
	}
	return g, nil
}

// replayFrom replays a log onto a snapshot (nil: from nothing). A snapshot
// whose last event is not in the log as recorded is not used.
func replayFrom(l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}, snap *Game) (*Game, error) {
	if snap == nil {
		return Replay(l, false)
	}
	first := true
	for ev, err := range l.Events(snap.Seq) {
		if err != nil {
			return nil, err
		}
		if first {
			first = false
			if ev.Seq != snap.Seq || ev.Hash != snap.Hash {
				return Replay(l, false)
			}
			continue
		}
		if err := snap.Apply(ev); err != nil {
			return nil, err
		}
	}
	if first {
		return Replay(l, false) // the log is shorter than the snapshot
	}
	return snap, nil
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
		ok, err := hg.g.WriteSnapshot(filepath.Join(h.dir, id))
		if err != nil {
			return n, err
		}
		if ok {
			hg.snapSeq = hg.g.Seq
			n++
		}
	}
	return n, nil
}

// Mails replays a game's log and returns every mail it queued that keep
// accepts, rendered as it was sent.
func Mails(l interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}, keep func(MailQueued) bool) ([]Mail, error) {
	g := NewGame(TemplateRenderer{}, false)
	var out []Mail
	g.OnMail = func(o *Outgoing) {
		if keep(o.Queued) {
			out = append(out, o.Mail)
		}
	}
	for ev, err := range l.Events(1) {
		if err != nil {
			return nil, err
		}
		if err := g.Apply(ev); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func snapSeqOf(b []byte) uint64 {
	var s struct {
		Seq uint64 `json:"seq"`
	}
	json.Unmarshal(b, &s)
	return s.Seq
}

// ReadSecret reads a game directory's dice secret.
func ReadSecret(gdir string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(gdir, SecretFile))
	if err != nil {
		return nil, fmt.Errorf("dice secret: %w", err)
	}
	sec, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(sec) != 32 {
		return nil, fmt.Errorf("dice secret %s: not 64 hex digits", filepath.Join(gdir, SecretFile))
	}
	return sec, nil
}

// Close closes every game log.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var first error
	for _, hg := range h.games {
		if err := hg.log.Close(); err != nil && first == nil {
			first = err
		}
	}
	h.games = map[string]*hosted{}
	h.ids = nil
	return first
}

// Dir is the data directory.
func (h *Host) Dir() string { return h.dir }

// Games lists the game ids, sorted.
func (h *Host) Games() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.idsLocked()...)
}

// idsLocked returns the sorted game ids, kept until the set of games
// changes (an idle pass over a thousand games should not sort them).
func (h *Host) idsLocked() []string {
	if len(h.ids) != len(h.games) {
		ids := make([]string, 0, len(h.games))
		for id := range h.games {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		h.ids = ids
	}
	return h.ids
}

// Game returns a game by id. The Game is the host's own: read it, don't
// keep it across other Host calls.
func (h *Host) Game(id string) (*Game, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hg, ok := h.games[id]
	if !ok {
		return nil, h.unknownGame(id)
	}
	return hg.g, nil
}

func (h *Host) unknownGame(id string) error {
	ids := h.idsLocked()
	if len(ids) == 0 {
		return fmt.Errorf("adjudicator: no game %q under %s (there are no games)", id, h.dir)
	}
	return fmt.Errorf("adjudicator: no game %q under %s (games: %s)", id, h.dir, strings.Join(ids, ", "))
}

// emitter appends to a game's log and applies the event. A log failure
// that wraps events.ErrFatal must end the process; the caller sees it.
func (h *Host) emitter(hg *hosted) Emit {
	return func(typ string, data any) error {
		ev, err := hg.log.Append(typ, h.clock.Now(), data)
		if err != nil {
			return err
		}
		if err := hg.g.Apply(ev); err != nil {
			return fmt.Errorf("adjudicator: applying the event just written: %w", err)
		}
		if typ == EvSideChanged || typ == EvGameCreated {
			h.keysOK, h.byFPOK = false, false
		}
		return nil
	}
}

// Create makes a new game: its directory, its dice secret (owner-only,
// fsync'd), its log with GameCreated and the first phase, and each side's
// first report in the outbox. Nothing is written if the spec is bad or the
// game exists.
func (h *Host) Create(s Spec) (*Game, error) {
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("adjudicator: %w", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, dup := h.games[s.Game]; dup {
		return nil, fmt.Errorf("adjudicator: game %q already exists under %s", s.Game, h.dir)
	}
	gdir := filepath.Join(h.dir, s.Game)
	if _, err := os.Stat(gdir); err == nil {
		return nil, fmt.Errorf("adjudicator: %s already exists; a game id is used once", gdir)
	}
	secret := make([]byte, 32)
	if _, err := io.ReadFull(h.entropy, secret); err != nil {
		return nil, err
	}
	if err := os.Mkdir(gdir, 0o700); err != nil {
		return nil, fmt.Errorf("adjudicator: %w", err)
	}
	fail := func(err error) (*Game, error) {
		os.RemoveAll(gdir)
		return nil, err
	}
	if err := writeSync(filepath.Join(gdir, SecretFile), []byte(hex.EncodeToString(secret)+"\n"), 0o600); err != nil {
		return fail(err)
	}
	l, err := events.Create(filepath.Join(gdir, LogFile))
	if err != nil {
		return fail(err)
	}
	hg := &hosted{g: NewGame(TemplateRenderer{}, false), log: l}
	if err := hg.g.Start(s, secret, h.clock.Now(), h.emitter(hg)); err != nil {
		l.Close()
		return fail(err)
	}
	h.games[s.Game] = hg
	h.keysOK, h.byFPOK = false, false
	return hg.g, nil
}

func writeSync(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// keySet returns the parsed keys of every player and referee of every game
// that is not over.
func (h *Host) keySet() (KeySet, error) {
	if h.keysOK {
		return h.keys, nil
	}
	var armored []string
	seen := map[string]bool{}
	for _, id := range h.idsLocked() {
		g := h.games[id].g
		if g.Ended != nil {
			continue
		}
		ps := make([]Player, 0, len(g.Players)+1)
		for _, s := range g.Sides() {
			ps = append(ps, g.Players[s])
		}
		if g.Referee != nil {
			ps = append(ps, *g.Referee)
		}
		for _, p := range ps {
			if !seen[p.Fingerprint] {
				seen[p.Fingerprint] = true
				armored = append(armored, p.Key)
			}
		}
	}
	ks, err := h.verifier.Keys(armored)
	if err != nil {
		return nil, err
	}
	h.keys, h.keysOK = ks, true
	return ks, nil
}

// gamesOf returns the games where a key is registered (for a side or as
// the referee), sorted, from an index rebuilt when registrations change.
func (h *Host) gamesOf(fingerprint string) []string {
	if !h.byFPOK {
		h.byFP = map[string][]string{}
		for _, id := range h.idsLocked() {
			g := h.games[id].g
			for _, s := range g.Sides() {
				fp := g.Players[s].Fingerprint
				h.byFP[fp] = append(h.byFP[fp], id)
			}
			if g.Referee != nil {
				h.byFP[g.Referee.Fingerprint] = append(h.byFP[g.Referee.Fingerprint], id)
			}
		}
		h.byFPOK = true
	}
	return h.byFP[fingerprint]
}

// Receipt is what became of one received message.
type Receipt struct {
	Outcome
	// Game is the game it went to, "" if none.
	Game string
	// Moved says where the message goes: "processed" or "rejected".
	Moved string
}

// Receive takes one raw message from the mailbox: verifies it, routes it to
// its game by the order file's header, submits it, and resolves what that
// completes. Unsigned mail, a bad signature or an unknown key is rejected
// with no event and no reply (no backscatter). Each outcome is durable in a
// game log before Receive returns, so the caller may then move the message.
func (h *Host) Receive(raw []byte) (Receipt, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.verifier == nil {
		return Receipt{}, errors.New("adjudicator: no verifier")
	}
	now := h.clock.Now()
	ks, err := h.keySet()
	if err != nil {
		return Receipt{}, err
	}
	v, err := h.verifier.VerifyMail(raw, ks, now)
	if err != nil {
		return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: err.Error()}, Moved: "rejected"}, nil
	}
	sub := Submission{Text: string(v.Signed), Source: "mail", Raw: raw, Fingerprint: v.Fingerprint, Key: v.Key, SigTime: v.SigTime}
	return h.route(sub, now)
}

// route sends an authenticated submission to the game its header names.
func (h *Host) route(sub Submission, now time.Time) (Receipt, error) {
	// A message already in any game the signer plays is only moved (its
	// outcome is recorded in one of them, whatever its header says).
	var mine []string
	for _, id := range h.gamesOf(sub.Fingerprint) {
		g := h.games[id].g
		if g.Seen(sub.Key) {
			return Receipt{Outcome: Outcome{Status: StatusDuplicate}, Game: id, Moved: "processed"}, nil
		}
		if g.Ended == nil {
			mine = append(mine, id)
		}
	}
	if len(mine) == 0 && sub.Source != "unsigned" {
		return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: "the signing key " + sub.Fingerprint + " is not registered in any open game"}, Moved: "rejected"}, nil
	}
	target := ""
	if f, err := engine.ParseOrderFile(sub.Text); err == nil {
		if _, ok := h.games[f.Game]; ok {
			target = f.Game
		}
	}
	if sub.Source == "unsigned" && target == "" {
		return Receipt{Outcome: Outcome{Status: StatusRejected, Reason: "the order file names no game of this host"}, Moved: "rejected"}, nil
	}
	if target == "" || (sub.Source != "unsigned" && !contains(mine, target)) {
		// The header names no game of this signer: the rejection is
		// recorded, and answered, in a game the signer does play.
		target = mine[0]
	}
	hg := h.games[target]
	emit := h.emitter(hg)
	out, err := hg.g.Submit(sub, now, emit)
	if err != nil {
		return Receipt{}, err
	}
	if _, err := hg.g.Tick(now, emit); err != nil {
		return Receipt{}, err
	}
	moved := "processed"
	if out.Status == StatusRejected {
		moved = "rejected"
	}
	return Receipt{Outcome: out, Game: target, Moved: moved}, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// SubmitFile submits an order file from the command line: signed (a
// cleartext-signed file, or a file and its detached signature), or, for a
// referee entering paper orders, unsigned and recorded as such.
func (h *Host) SubmitFile(game string, side engine.Side, data []byte, sig string, unsigned bool, by string) (Receipt, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hg, ok := h.games[game]
	if !ok {
		return Receipt{}, h.unknownGame(game)
	}
	now := h.clock.Now()
	if unsigned {
		if _, ok := hg.g.Players[side]; !ok {
			return Receipt{}, fmt.Errorf("adjudicator: game %s has no side %q; valid: %s", game, side, joinSides(hg.g.Sides()))
		}
		f, err := engine.ParseOrderFile(string(data))
		if err != nil {
			return Receipt{}, fmt.Errorf("adjudicator: %w", err)
		}
		if f.Side != side || f.Game != game {
			return Receipt{}, fmt.Errorf("adjudicator: the file says Game: %s, Side: %s; the command says %s, %s", f.Game, f.Side, game, side)
		}
		return h.route(Submission{Text: string(data), Source: "unsigned", Side: side, By: by}, now)
	}
	if h.verifier == nil {
		return Receipt{}, errors.New("adjudicator: no verifier")
	}
	ks, err := h.keySet()
	if err != nil {
		return Receipt{}, err
	}
	v, err := h.verifier.VerifyFile(data, sig, ks, now)
	if err != nil {
		return Receipt{}, fmt.Errorf("adjudicator: the file's signature does not verify: %w", err)
	}
	if s, ok := hg.g.SideOf(v.Fingerprint); !ok || s != side {
		return Receipt{}, fmt.Errorf("adjudicator: the file is signed by %s, which is not side %s's key in game %s", v.Fingerprint, side, game)
	}
	sub := Submission{Text: string(v.Signed), Source: "file", Signature: sig, Fingerprint: v.Fingerprint, Key: v.Key, SigTime: v.SigTime}
	if sig == "" {
		sub.Raw = data // the cleartext-signed file, to check again in verify
	}
	return h.route(sub, now)
}

// Referee carries out a referee command given by the host operator.
func (h *Host) Referee(game string, c Command) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	hg, ok := h.games[game]
	if !ok {
		return h.unknownGame(game)
	}
	if c.By == "" {
		c.By = "host operator"
	}
	return hg.g.Do(c, h.clock.Now(), h.emitter(hg))
}

// Tick lets time act on every game: deadlines, reminders, pause limits. It
// returns, per game, how many manual dice a resolution waits for.
func (h *Host) Tick() (map[string]int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	wait := map[string]int{}
	now := h.clock.Now()
	for _, id := range h.idsLocked() {
		hg := h.games[id]
		n, err := hg.g.Tick(now, h.emitter(hg))
		if err != nil {
			return wait, err
		}
		if n > 0 {
			wait[id] = n
		}
	}
	return wait, nil
}

// Flush sends every queued mail of every game, oldest first, recording each
// delivery (MailSent) or permanent failure (MailFailed). A temporary
// failure stops nothing: the mail stays queued for the next pass. It
// returns the number sent and the first temporary error.
func (h *Host) Flush(ctx context.Context, s Sender) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sent := 0
	var firstErr error
	for _, id := range h.idsLocked() {
		hg := h.games[id]
		for len(hg.g.Outbox) > 0 {
			n := len(hg.g.Outbox)
			o := hg.g.Outbox[0]
			if err := o.Render(); err != nil {
				return sent, err
			}
			if err := o.Mail.Complete(); err != nil {
				return sent, fmt.Errorf("adjudicator: game %s: %w", id, err)
			}
			err := s.Send(ctx, o.Mail)
			switch {
			case err == nil:
				if err := h.emitter(hg)(EvMailSent, MailSent{ID: o.Queued.ID}); err != nil {
					return sent, err
				}
				sent++
			case errors.Is(err, ErrPermanent):
				h.log.Warn("delivery failed for good", "game", id, "id", o.Queued.ID, "to", o.Queued.To, "err", err)
				if err := h.emitter(hg)(EvMailFailed, MailFailed{ID: o.Queued.ID, Error: err.Error()}); err != nil {
					return sent, err
				}
			default:
				h.log.Warn("delivery deferred", "game", id, "id", o.Queued.ID, "err", err)
				if firstErr == nil {
					firstErr = err
				}
			}
			if len(hg.g.Outbox) == n {
				break // deferred: keep the order, try the next game
			}
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
		}
	}
	return sent, firstErr
}
