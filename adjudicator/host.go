package adjudicator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"skagerrak/events"
)

// File names inside a game directory.
const (
	LogFile    = "events.jsonl"
	SecretFile = "dice-secret"
)

// Host serves every game of one store.
type Host struct {
	store    Store
	clock    Clock
	verifier Verifier
	triage   Triage
	decrypt  Decrypter
	log      *slog.Logger
	entropy  io.Reader
	senders  int

	mu    sync.Mutex
	games map[string]*hosted
	ids   []string
	byFP  map[string][]string
	// byFormer: the games where a key was registered and was replaced.
	byFormer map[string][]string
	byFPOK   bool
	keys     KeySet
	keysOK   bool
	// aside are the games that could not be opened (see asideGame).
	aside map[string]*asideGame
	// stale guards keysOK and byFPOK against Flush's workers.
	stale sync.Mutex
	// selectFn is Options.Select; reopen asks the next Refresh to look
	// for new games again.
	selectFn func(id string) bool
	reopen   bool
	// observer watches passes and appends (see Observe).
	observer Observer
	// readAt is when the last read of the whole mailbox began (PollOnce):
	// deadlines before it are judged.
	readAt time.Time
	// dupGrace and fetchTimeout are Options.DuplicateGrace and
	// Options.FetchTimeout.
	dupGrace, fetchTimeout time.Duration
	// ctx is Options.Context, given to every game.
	ctx context.Context
}

type hosted struct {
	g   *Game
	log events.Log
	// snapSeq is the seq of the game's last snapshot.
	snapSeq uint64
	// held is set while this daemon holds a shared game (SharedLog).
	held bool
}

// Options configure a Host; nil fields take defaults.
type Options struct {
	Clock    Clock
	Verifier Verifier
	Logger   *slog.Logger
	// Entropy is where dice secrets come from; nil is crypto/rand. Tests
	// that need the same game twice give a fixed source.
	Entropy io.Reader
	// MustExist refuses a data directory that does not exist, rather than
	// making it: for commands that act on games already there.
	MustExist bool
	// Senders is how many games Flush sends mail of at once (each renders
	// its next mail while the others' are sent); 0 is 1.
	Senders int
	// Triage, if set, tells automatic mail (never answered) and bounces of
	// the host's own mail (recorded) from the rest.
	Triage Triage
	// Decrypter, if set, opens mail encrypted to the host (see
	// SetDecrypter).
	Decrypter Decrypter
	// Select, if set, picks the games the host opens: a command about one
	// game opens that one, skagerrak new none.
	Select func(id string) bool
	// DuplicateGrace, if set, replaces DuplicateGrace (tests).
	DuplicateGrace time.Duration
	// FetchTimeout, if set, replaces FetchTimeout.
	FetchTimeout time.Duration
	// Context, if set, bounds every resolution the host runs, replays
	// included: when it ends (the program is told to stop) a resolution
	// stops at its next step and records nothing.
	Context context.Context
}

// OpenHost opens every game of the file store under dir (creating dir if
// missing unless o.MustExist), replaying each game's log. A game whose log
// is locked by another process, damaged, or does not replay is an error
// naming it.
func OpenHost(dir string, o Options) (*Host, error) {
	st, err := NewFileStore(dir, o.MustExist)
	if err != nil {
		return nil, err
	}
	return OpenStore(st, o)
}

// OpenStore opens every game of a store, as OpenHost does. The host closes
// the store when it is closed.
func OpenStore(st Store, o Options) (*Host, error) {
	if o.Clock == nil {
		o.Clock = WallClock{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Entropy == nil {
		o.Entropy = rand.Reader
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	h := &Host{store: st, clock: o.Clock, verifier: o.Verifier, triage: o.Triage, decrypt: o.Decrypter, log: o.Logger, entropy: o.Entropy, games: map[string]*hosted{}, senders: max(o.Senders, 1),
		selectFn: o.Select, dupGrace: o.DuplicateGrace, fetchTimeout: o.FetchTimeout, ctx: o.Context}
	if h.dupGrace <= 0 {
		h.dupGrace = DuplicateGrace
	}
	if h.fetchTimeout <= 0 {
		h.fetchTimeout = FetchTimeout
	}
	ids, err := st.Games()
	if err != nil {
		st.Close()
		return nil, err
	}
	for _, id := range ids {
		if !h.selected(id) {
			continue
		}
		if err := h.openGame(id); err != nil && fatalOnOpen(err) {
			h.Close()
			return nil, err
		}
	}
	return h, nil
}

// openGame opens and replays one game. A game that cannot be opened is
// set aside (asideGame) and the error returned; the caller stops only for
// an error fatalOnOpen.
func (h *Host) openGame(id string) error {
	l, err := h.store.Open(id)
	if err != nil {
		err = fmt.Errorf("adjudicator: game %s: %w", id, err)
		if !fatalOnOpen(err) {
			h.setAside(id, err, nil)
		}
		return err
	}
	snap, err := h.store.Snapshot(id)
	if err != nil {
		h.log.Warn("the snapshot cannot be read; replaying the log", "game", id, "err", err)
	}
	g, err := replayFrom(h.ctx, l, readSnapshot(snap))
	if err != nil {
		err = fmt.Errorf("adjudicator: game %s: %w", id, err)
		if fatalOnOpen(err) {
			l.Close()
		} else {
			h.setAside(id, err, l)
		}
		return err
	}
	if g.Ended == nil {
		sec, err := h.store.Secret(id)
		if err != nil {
			l.Close()
			return fmt.Errorf("adjudicator: game %s: %w", id, err)
		}
		if err := g.SetSecret(sec); err != nil {
			l.Close()
			return err
		}
	}
	g.past = pastOf(l)
	h.games[id] = &hosted{g: g, log: l}
	if g.Seq > 0 && len(snap) > 0 {
		h.games[id].snapSeq = snapSeqOf(snap)
	}
	h.keysOK, h.byFPOK = false, false
	return nil
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

// SetDecrypter makes the host open mail encrypted to it with d (the host
// key is loaded once the mail servers are configured).
func (h *Host) SetDecrypter(d Decrypter) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.decrypt = d
}

// Close closes every game log, and the store.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var first error
	for _, hg := range h.games {
		if err := hg.log.Close(); err != nil && first == nil {
			first = err
		}
	}
	if err := h.store.Close(); err != nil && first == nil {
		first = err
	}
	h.games = map[string]*hosted{}
	h.ids = nil
	return first
}

// Dir names where the games are: the data directory of the file store,
// or the store's name (a database).
func (h *Host) Dir() string { return h.store.Where() }

// Store is the host's store.
func (h *Host) Store() Store { return h.store }

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
	if err := h.asideError(id); err != nil {
		return err
	}
	ids := h.idsLocked()
	if h.selectFn != nil {
		// The host opened only some: name every game the store has.
		if all, err := h.store.Games(); err == nil {
			ids = all
		}
	}
	if len(ids) == 0 {
		return fmt.Errorf("adjudicator: no game %q in %s (there are no games)", id, h.store.Where())
	}
	return fmt.Errorf("adjudicator: no game %q in %s (games: %s)", id, h.store.Where(), strings.Join(ids, ", "))
}

// decide runs op, one decision on a game, with the Emit of a Batch, and
// appends the batch to the game's log as one (record): what op emitted
// before it failed too, as each event was kept before batches. A shared
// game is held at the first emit (see act). A log failure that wraps
// events.ErrFatal must end the process; the caller sees it.
func (h *Host) decide(hg *hosted, op func(Emit) error) error {
	b := hg.g.NewBatch(h.clock.Now)
	err := op(func(typ string, data any) error {
		if err := h.hold(hg); err != nil {
			return err
		}
		if b.Len() >= events.MaxBatchRecords {
			// A decision this long (none is) is recorded in parts.
			if err := h.record(hg, b); err != nil {
				return err
			}
		}
		if typ == EvSideChanged || typ == EvGameCreated {
			h.keysOK, h.byFPOK = false, false
		}
		return b.Emit(typ, data)
	})
	if rerr := h.record(hg, b); rerr != nil {
		return errors.Join(rerr, err)
	}
	return err
}

// record appends what the batch holds to the game's log. If the log
// refuses it, or an event of it could not be applied, the game, which
// applied it, is replayed from the log.
func (h *Host) record(hg *hosted, b *Batch) error {
	evs, spoiled := b.Take()
	var err error
	if len(evs) > 0 {
		start := time.Now()
		err = hg.log.AppendBatch(evs)
		if h.observer != nil {
			h.observer.Append(time.Since(start), err)
		}
	}
	if err == nil && !spoiled {
		return nil
	}
	if rerr := h.reload(hg); rerr != nil {
		return errors.Join(err, fmt.Errorf("adjudicator: game %s: replaying the log after a decision it did not take: %w", hg.g.ID, rerr))
	}
	return err
}

// reload replays a game from its log, in place of the one in memory.
func (h *Host) reload(hg *hosted) error {
	g, err := replayFrom(h.ctx, hg.log, nil)
	if err != nil {
		return err
	}
	if g.Ended == nil {
		if err := g.SetSecret(hg.g.secret); err != nil {
			return err
		}
	}
	g.past = hg.g.past
	hg.g = g
	h.keysOK, h.byFPOK = false, false
	return nil
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
		return nil, fmt.Errorf("adjudicator: game %q already exists in %s", s.Game, h.store.Where())
	}
	secret := make([]byte, 32)
	if _, err := io.ReadFull(h.entropy, secret); err != nil {
		return nil, err
	}
	l, done, err := h.store.Create(s.Game, secret)
	if err != nil {
		return nil, err
	}
	// A shared log comes held: the game and its first events are kept
	// together, or not at all.
	_, shared := l.(SharedLog)
	hg := &hosted{g: NewGame(TemplateRenderer{}, false), log: l, held: shared}
	hg.g.past = pastOf(l)
	hg.g.SetContext(h.ctx)
	b := hg.g.NewBatch(h.clock.Now)
	err = hg.g.Start(s, secret, h.clock.Now(), b.Emit)
	if err == nil {
		evs, _ := b.Take()
		err = l.AppendBatch(evs)
	}
	if err != nil {
		done(false)
		return nil, err
	}
	hg.held = false
	if err := done(true); err != nil {
		l.Close()
		return nil, err
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
	return syncDir(filepath.Dir(path))
}

// syncDir fsyncs a directory, making the entries made in it durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
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
	now := h.clock.Now()
	return h.act(hg, func(emit Emit) error { return hg.g.Do(c, now, emit) })
}

// Tick lets time act on every game: deadlines, reminders, pause limits,
// the deadlines judged by the clock (a command's; the daemon's pass judges
// them by the mailbox, see PollOnce). It returns, per game, how many
// manual dice a resolution waits for. A game that fails does not stop the
// others: the first such error is returned after every game has had its
// turn, and a fatal log error at once.
func (h *Host) Tick() (map[string]int, error) {
	return h.tick(func(now time.Time) time.Time { return now })
}

// tickRead is Tick with deadlines judged at the last read of the whole
// mailbox.
func (h *Host) tickRead() (map[string]int, error) {
	return h.tick(func(time.Time) time.Time { return h.readAt })
}

func (h *Host) tick(read func(now time.Time) time.Time) (map[string]int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	wait := map[string]int{}
	now := h.clock.Now()
	var first error
	for _, id := range h.idsLocked() {
		hg := h.games[id]
		var n int
		err := h.act(hg, func(emit Emit) error {
			var err error
			n, err = hg.g.TickRead(now, read(now), emit)
			return err
		})
		if errors.Is(err, events.ErrFatal) || errors.Is(err, events.ErrUnavailable) {
			return wait, err // the store is gone: no other game can act either
		}
		if err != nil {
			// One game that cannot resolve must not hold up the others;
			// it is tried again on every pass, and said so each time.
			h.log.Error("a game could not act on time", "game", id, "err", err)
			if first == nil {
				first = err
			}
			continue
		}
		if n > 0 {
			wait[id] = n
		}
	}
	return wait, first
}
