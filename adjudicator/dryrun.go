package adjudicator

import (
	"errors"
	"iter"
	"path/filepath"
	"sync"
	"time"

	"skagerrak/events"
)

// DryRun wraps a store so that a host opened on it decides as it would and
// changes nothing: each game's log is read as it stands (a file store's
// without its lock, so beside a running daemon) and what the host appends
// is kept in memory and forgotten when the log is closed; no game is made
// and no snapshot saved. skagerrak check runs a message through it.
func DryRun(st Store) Store { return dryStore{st} }

type dryStore struct{ Store }

// errDryRun refuses what a dry run cannot do.
var errDryRun = errors.New("adjudicator: a dry run makes no game")

func (d dryStore) Create(string, []byte) (events.Log, func(bool) error, error) {
	return nil, nil, errDryRun
}

func (d dryStore) SaveSnapshot(string, uint64, []byte) error { return nil }

// Open reads the game's records into a log that appends in memory.
func (d dryStore) Open(id string) (events.Log, error) {
	var src interface {
		Events(from uint64) iter.Seq2[events.Event, error]
	}
	if fs, ok := d.Store.(*FileStore); ok {
		src = LogReader{Path: filepath.Join(fs.dir, id, LogFile)}
	} else {
		l, err := d.Store.Open(id)
		if err != nil {
			return nil, err
		}
		defer l.Close()
		src = l
	}
	m := &memOverlay{}
	for ev, err := range src.Events(1) {
		if err != nil {
			return nil, err
		}
		m.evs = append(m.evs, ev)
	}
	return m, nil
}

// memOverlay is a game's records as read, and what a dry run appended.
type memOverlay struct {
	mu  sync.Mutex
	evs []events.Event
}

func (m *memOverlay) Append(typ string, at time.Time, data any) (events.Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	seq, prev := m.head()
	ev, err := events.NewEvent(seq+1, prev, typ, at, data)
	if err != nil {
		return events.Event{}, err
	}
	m.evs = append(m.evs, ev)
	return ev, nil
}

func (m *memOverlay) AppendBatch(batch []events.Event) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	seq, prev := m.head()
	if _, err := events.Sealed(seq, prev, batch); err != nil {
		return err
	}
	m.evs = append(m.evs, batch...)
	return nil
}

func (m *memOverlay) Events(from uint64) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		m.mu.Lock()
		evs := m.evs
		m.mu.Unlock()
		for _, ev := range evs {
			if ev.Seq >= from && !yield(ev, nil) {
				return
			}
		}
	}
}

func (m *memOverlay) Head() (uint64, string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.head()
}

func (m *memOverlay) head() (uint64, string) {
	if len(m.evs) == 0 {
		return 0, events.GenesisPrev
	}
	e := m.evs[len(m.evs)-1]
	return e.Seq, e.Hash
}

func (m *memOverlay) Close() error { return nil }
