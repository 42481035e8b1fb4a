package events_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sync"
	"testing"

	"skagerrak/events"
	"skagerrak/events/logtest"
)

// openFileLog opens dir/events.jsonl, creating it if it does not exist.
func openFileLog(t *testing.T, dir string) (events.Log, error) {
	path := filepath.Join(dir, "events.jsonl")
	l, err := events.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return events.Create(path)
	}
	return l, err
}

func TestFileLogConformance(t *testing.T) {
	logtest.Run(t, openFileLog)
}

func TestMemLogConformance(t *testing.T) {
	var mu sync.Mutex
	logs := map[string]*events.MemLog{}
	logtest.Run(t, func(t *testing.T, dir string) (events.Log, error) {
		mu.Lock()
		defer mu.Unlock()
		m, ok := logs[dir]
		if !ok {
			m = events.NewMemLog()
			logs[dir] = m
			return m, nil
		}
		n, err := m.Reopen()
		if err != nil {
			return nil, err
		}
		logs[dir] = n
		return n, nil
	})
}
