package gamelog

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/internal/wiring"
)

// Export writes the log of game, from the configured store, as the file
// store keeps it: to w, or with out a game directory out/GAME (see
// ExportDir).
func Export(ctx context.Context, w io.Writer, c *config.Config, game, out string) error {
	st, err := wiring.OpenStore(ctx, c, true)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := adjudicator.ValidGameID(game); err != nil {
		return err
	}
	lr, done, err := Of(c, st, game)
	if err != nil {
		return err
	}
	defer done()
	if out == "" {
		return Write(w, lr)
	}
	return ExportDir(st, lr, game, filepath.Join(out, game))
}

// Write writes every record as its line, as the file store keeps it
// (skagerrak export); a log with no records is an error.
func Write(w io.Writer, lr Reader) error {
	bw := bufio.NewWriter(w)
	n := 0
	for ev, err := range lr.Events(1) {
		if err != nil {
			return err
		}
		b, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
		n++
	}
	if n == 0 {
		return errors.New("export: the game has no records")
	}
	return bw.Flush()
}

// ExportDir writes a game directory gdir that the file store serves: the log, and the dice secret of a
// game that is not over.
func ExportDir(st adjudicator.Store, lr Reader, game, gdir string) error {
	if _, err := os.Stat(gdir); err == nil {
		return fmt.Errorf("export: %s exists; export into a directory where the game is not", gdir)
	}
	if err := os.MkdirAll(gdir, 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(gdir, adjudicator.LogFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := Write(f, lr); err != nil {
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
	g, err := adjudicator.LoadGame(gdir)
	if err != nil {
		return err
	}
	if g.Ended != nil {
		return nil
	}
	sec, err := st.Secret(game)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(gdir, adjudicator.SecretFile), []byte(hex.EncodeToString(sec)+"\n"), 0o600)
}
