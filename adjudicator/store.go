package adjudicator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"skagerrak/events"
)

// Store keeps the games: each game's log, dice secret and snapshot. The
// file store (FileStore, a directory per game) is the default; the binary
// wires a PostgreSQL one where the configuration says so.
type Store interface {
	// Games lists the games kept, sorted.
	Games() ([]string, error)
	// Create makes a game with its dice secret and an empty log. Nothing
	// of it is kept unless done(true) is called once the first events are
	// appended; done(false) removes it. A game that exists is an error
	// wrapping fs.ErrExist.
	Create(id string, secret []byte) (l events.Log, done func(keep bool) error, err error)
	// Open opens a game's log for writing. A log another process writes
	// too implements SharedLog.
	Open(id string) (events.Log, error)
	// Secret returns a game's dice secret.
	Secret(id string) ([]byte, error)
	// Snapshot returns a game's snapshot, nil when there is none.
	Snapshot(id string) ([]byte, error)
	// SaveSnapshot replaces a game's snapshot, taken at record seq.
	SaveSnapshot(id string, seq uint64, b []byte) error
	// Where names the store in messages: a directory, a database.
	Where() string
	// Close releases the store (the host closes the logs first).
	Close() error
}

// Appearing is a Store whose games other processes may add while a host
// has it open (the file store: skagerrak new beside a running daemon).
type Appearing interface {
	// Appeared reports whether games may have been added since it last
	// said so (the first call says they may).
	Appeared() bool
}

// SharedLog is a game's log that other daemons append to as well (a
// database several daemons share). The host holds the game for each piece
// of work: Hold waits until no other daemon holds it and makes Head the
// log's true head, so that the host first applies the records others
// appended; what is appended until Release(true) is committed by it, at
// once.
type SharedLog interface {
	events.Log
	Hold(ctx context.Context) error
	Release(commit bool) error
}

// FileStore keeps each game in a directory of its own under one data
// directory: events.jsonl (the log), dice-secret (owner-only) and
// snapshot.json. A game is made in a directory whose name starts with a
// dot and renamed into place once its first events are durable, so that a
// daemon looking at the data directory meanwhile sees either no game or a
// whole one; names starting with a dot are never games.
type FileStore struct {
	dir string

	mu    sync.Mutex
	mtime time.Time // the data directory's, when Appeared last looked
}

// NewFileStore returns the file store of dir, making dir unless mustExist
// (for commands that act on games already there).
func NewFileStore(dir string, mustExist bool) (*FileStore, error) {
	if mustExist {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("adjudicator: no data directory %s (it is made by skagerrak new, or give --data-dir)", dir)
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("adjudicator: data directory %s: %w", dir, err)
	}
	return &FileStore{dir: dir}, nil
}

// Dir is the data directory.
func (s *FileStore) Dir() string { return s.dir }

// Where implements Store.
func (s *FileStore) Where() string { return s.dir }

// Close implements Store.
func (s *FileStore) Close() error { return nil }

// Games lists the directories that hold a log.
func (s *FileStore) Games() ([]string, error) {
	dirs, err := GameDirs(s.dir)
	if err != nil {
		return nil, fmt.Errorf("adjudicator: %w", err)
	}
	ids := make([]string, len(dirs))
	for i, d := range dirs {
		ids[i] = filepath.Base(d)
	}
	return ids, nil
}

// Appeared implements Appearing: a game directory renamed into place
// changes the data directory's modification time.
func (s *FileStore) Appeared() bool {
	st, err := os.Stat(s.dir)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.ModTime().Equal(s.mtime) {
		return false
	}
	s.mtime = st.ModTime()
	return true
}

// Create makes the game in a directory of its own (owner-only) with its
// dice secret (owner-only, fsync'd) and its log, under a dot name; done
// (true) renames it into place.
func (s *FileStore) Create(id string, secret []byte) (events.Log, func(bool) error, error) {
	gdir := filepath.Join(s.dir, id)
	if _, err := os.Stat(gdir); err == nil {
		return nil, nil, fmt.Errorf("adjudicator: %s already exists; a game id is used once: %w", gdir, fs.ErrExist)
	}
	stage, err := os.MkdirTemp(s.dir, ".new-"+id+"-")
	if err != nil {
		return nil, nil, fmt.Errorf("adjudicator: %w", err)
	}
	if err := writeSync(filepath.Join(stage, SecretFile), []byte(fmt.Sprintf("%x\n", secret)), 0o600); err != nil {
		os.RemoveAll(stage)
		return nil, nil, err
	}
	l, err := events.Create(filepath.Join(stage, LogFile))
	if err != nil {
		os.RemoveAll(stage)
		return nil, nil, err
	}
	done := func(keep bool) error {
		if !keep {
			l.Close()
			return os.RemoveAll(stage)
		}
		// A directory that is not empty is never replaced: of two games
		// made with one id at once, the second fails here.
		if err := os.Rename(stage, gdir); err != nil {
			l.Close()
			os.RemoveAll(stage)
			return fmt.Errorf("adjudicator: %s: %w", gdir, err)
		}
		l.Moved(filepath.Join(gdir, LogFile))
		return syncDir(s.dir)
	}
	return l, done, nil
}

// Open opens the game's log (and takes its lock), first making the game's
// directory and files owner-only (see ownerOnly).
func (s *FileStore) Open(id string) (events.Log, error) {
	if err := ownerOnly(filepath.Join(s.dir, id)); err != nil {
		return nil, err
	}
	return events.Open(filepath.Join(s.dir, id, LogFile))
}

// Secret reads the game's dice-secret file.
func (s *FileStore) Secret(id string) ([]byte, error) {
	return ReadSecret(filepath.Join(s.dir, id))
}

// Snapshot reads the game's snapshot.json.
func (s *FileStore) Snapshot(id string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(s.dir, id, SnapshotFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// SaveSnapshot replaces the game's snapshot.json atomically.
func (s *FileStore) SaveSnapshot(id string, _ uint64, b []byte) error {
	return saveSnapshotFile(filepath.Join(s.dir, id), b)
}
