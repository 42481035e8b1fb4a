package adjudicator

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ownerOnly makes a game directory mode 0700 and every file in it 0600
// (taking bits away only: a file made read-only stays so). While a game is
// played its log holds both sides' secret orders and their mail, and its
// dice secret decides every roll: nobody but the host's user may read
// them. Games made by earlier builds had a log of mode 0640.
func ownerOnly(gdir string) error {
	fix := func(path string, mode fs.FileMode) error {
		if mode.Perm()&0o077 == 0 {
			return nil
		}
		if err := os.Chmod(path, mode.Perm()&^0o077); err != nil {
			return fmt.Errorf("adjudicator: %s is open to others (mode %04o) and cannot be made owner-only: %w (run chmod -R go= %s as its owner)", path, mode.Perm(), err, gdir)
		}
		return nil
	}
	st, err := os.Stat(gdir)
	if err != nil {
		return fmt.Errorf("adjudicator: %w", err)
	}
	if err := fix(gdir, st.Mode()); err != nil {
		return err
	}
	ents, err := os.ReadDir(gdir)
	if err != nil {
		return fmt.Errorf("adjudicator: %w", err)
	}
	for _, e := range ents {
		if !e.Type().IsRegular() && !e.IsDir() {
			continue // a link is not the game's to change
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		if err := fix(filepath.Join(gdir, e.Name()), info.Mode()); err != nil {
			return err
		}
	}
	return nil
}
