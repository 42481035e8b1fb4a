package adjudicator

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"skagerrak/events"
)

// LogReader reads a game's log file without taking its lock or changing
// it, for commands that only look (status, report) while a daemon runs.
type LogReader struct{ Path string }

// Events yields the log's records from seq from.
func (r LogReader) Events(from uint64) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		f, err := os.Open(r.Path)
		if err != nil {
			yield(events.Event{}, err)
			return
		}
		defer f.Close()
		for ev, err := range events.NewReader(f, r.Path).All() {
			if err != nil {
				yield(ev, err)
				return
			}
			if ev.Seq < from {
				continue
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// LoadGame replays a game directory's log read-only.
func LoadGame(gdir string) (*Game, error) {
	return LoadGameContext(context.Background(), gdir)
}

// LoadGameContext is LoadGame within ctx (see ReplayContext).
func LoadGameContext(ctx context.Context, gdir string) (*Game, error) {
	g, err := ReplayContext(ctx, LogReader{Path: filepath.Join(gdir, LogFile)}, false)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", filepath.Base(gdir), err)
	}
	return g, nil
}

// GameDirs lists the game directories under a data directory, sorted.
func GameDirs(dataDir string) ([]string, error) {
	ents, err := os.ReadDir(dataDir)
	if err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	var out []string
	for _, e := range ents {
		// A name starting with a dot is no game (.imap, a game being made).
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(dataDir, e.Name(), LogFile)); err == nil {
			out = append(out, filepath.Join(dataDir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}
