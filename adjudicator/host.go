package adjudicator

import (
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

	"skagerrak/events"
)

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
	triage   Triage
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
	// MustExist refuses a data directory that does not exist, rather than
	// making it: for commands that act on games already there.
	MustExist bool
	// Triage, if set, tells automatic mail (never answered) and bounces of
	// the host's own mail (recorded) from the rest.
	Triage Triage
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
	if o.MustExist {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("adjudicator: no data directory %s (it is made by skagerrak new, or give --data-dir)", dir)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("adjudicator: data directory %s: %w", dir, err)
	}
	if o.Entropy == nil {
		o.Entropy = rand.Reader
	}
	h := &Host{dir: dir, clock: o.Clock, verifier: o.Verifier, triage: o.Triage, log: o.Logger, entropy: o.Entropy, games: map[string]*hosted{}}
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
		hg.g.fresh = data
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
// returns, per game, how many manual dice a resolution waits for. A game
// that fails does not stop the others: the first such error is returned
// after every game has had its turn, and a fatal log error at once.
func (h *Host) Tick() (map[string]int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	wait := map[string]int{}
	now := h.clock.Now()
	var first error
	for _, id := range h.idsLocked() {
		hg := h.games[id]
		n, err := hg.g.Tick(now, h.emitter(hg))
		if errors.Is(err, events.ErrFatal) {
			return wait, err
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
