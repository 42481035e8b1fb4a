package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"skagerrak/adjudicator"
	"skagerrak/config"
)

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

// fileGames returns the ids of the games under the data directory.
func fileGames(c *config.Config) ([]string, error) {
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

// noGame says that a game is not in where, naming the games that are.
func noGame(id, where string, ids []string) error {
	if len(ids) == 0 {
		return fmt.Errorf("no game %q in %s: there are no games there (skagerrak new makes one)", id, where)
	}
	return fmt.Errorf("no game %q in %s; the games there: %s", id, where, strings.Join(ids, ", "))
}

// fileGame checks that a game of the file store is there.
func fileGame(c *config.Config, id string) error {
	ids, err := fileGames(c)
	if err != nil {
		return err
	}
	if !slices.Contains(ids, id) {
		return noGame(id, c.DataDir, ids)
	}
	return nil
}

// count is n and the noun, plural unless n is 1: "1 phase", "9 phases".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// dice is "1 die", "2 dice".
func dice(n int) string {
	if n == 1 {
		return "1 die"
	}
	return fmt.Sprintf("%d dice", n)
}
