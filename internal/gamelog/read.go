package gamelog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/events"
	"skagerrak/internal/wiring"
)

// Reader reads a game's records.
type Reader interface {
	Events(from uint64) iter.Seq2[events.Event, error]
}

// Of is a game's records read without writing: the file read as it is (a
// daemon may hold its lock), or the database's; done closes what it
// opened.
func Of(c *config.Config, st adjudicator.Store, game string) (lr Reader, done func(), err error) {
	if c.IsFileStore() {
		path := filepath.Join(c.DataDir, game, adjudicator.LogFile)
		return adjudicator.LogReader{Path: path}, func() {}, nil
	}
	l, err := st.Open(game)
	if err != nil {
		return nil, nil, err
	}
	return l, func() { l.Close() }, nil
}

// Stored is the records of a game of the configured store, read without
// writing; a game that is not there is an error naming the games that
// are. done closes what it opened.
func Stored(ctx context.Context, c *config.Config, game string) (lr Reader, done func(), err error) {
	if c.IsFileStore() {
		if err := fileGame(c, game); err != nil {
			return nil, nil, err
		}
	}
	st, err := wiring.OpenStore(ctx, c, true)
	if err != nil {
		return nil, nil, err
	}
	lr, closeLog, err := Of(c, st, game)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return lr, func() { closeLog(); st.Close() }, nil
}

// Open reads the records of a log file, a game directory, or (an
// argument that is no file) a game of the store that config loads.
func Open(ctx context.Context, arg string, config func() (*config.Config, error)) (Reader, func(), error) {
	st, err := os.Stat(arg)
	if err != nil {
		if strings.ContainsRune(arg, os.PathSeparator) || !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		c, err := config()
		if err != nil {
			return nil, nil, err
		}
		return Stored(ctx, c, arg)
	}
	if st.IsDir() {
		arg = filepath.Join(arg, adjudicator.LogFile)
	}
	return adjudicator.LogReader{Path: arg}, func() {}, nil
}

// noDataDir explains a data directory that is not there: most often the
// command ran without the configuration that names it.
func noDataDir(c *config.Config) error {
	abs, _ := filepath.Abs(c.DataDir)
	hint := "give the configuration that sets data_dir with --config FILE (or SKAGERRAK_CONFIG), or the directory with --data-dir DIR"
	if c.File != "" {
		hint = "set data_dir in " + c.File + " to where the games are, or give --data-dir DIR"
	}
	where := c.DataDir
	if abs != c.DataDir {
		where += " (" + abs + ")"
	}
	return fmt.Errorf("no games found: the data directory %s does not exist; %s", where, hint)
}

// FileGames returns the ids of the games under the data directory; a
// directory that is not there is an error saying how to name it.
func FileGames(c *config.Config) ([]string, error) {
	if _, err := os.Stat(c.DataDir); errors.Is(err, fs.ErrNotExist) {
		return nil, noDataDir(c)
	}
	dirs, err := adjudicator.GameDirs(c.DataDir)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(dirs))
	for i, d := range dirs {
		ids[i] = filepath.Base(d)
	}
	return ids, nil
}

// NoGame says that a game is not in where, naming the games that are.
func NoGame(id, where string, ids []string) error {
	if len(ids) == 0 {
		return fmt.Errorf("no game %q in %s: there are no games there (skagerrak new makes one)", id, where)
	}
	return fmt.Errorf("no game %q in %s; the games there: %s", id, where, strings.Join(ids, ", "))
}

// fileGame checks that a game of the file store is there.
func fileGame(c *config.Config, id string) error {
	ids, err := FileGames(c)
	if err != nil {
		return err
	}
	if !slices.Contains(ids, id) {
		return NoGame(id, c.DataDir, ids)
	}
	return nil
}
