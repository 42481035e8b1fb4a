package adjudicator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"skagerrak/engine"
)

// Print says what verify found of the intact log rep reports on;
// verifiedBy names the build that verified it.
func (rep VerifyReport) Print(w io.Writer, verifiedBy string) {
	fmt.Fprintf(w, "%s: intact\n", rep.Path)
	fmt.Fprintf(w, "  game %s: %s, %s resolved, %s checked\n", rep.Game, count(int(rep.Events), "event"), count(rep.Phases, "phase"), count(rep.Signatures, "signature"))
	fmt.Fprintf(w, "  played under %s rules revision %d\n", rep.Ruleset, rep.Revision)
	if rep.Unrendered > 0 {
		fmt.Fprintf(w, "  %d mails were rendered by an earlier build (render revision %d here): their text was not compared, what the game decided was\n", rep.Unrendered, RenderRevision)
	}
	if rep.Software != "" {
		fmt.Fprintf(w, "  created by skagerrak %s; verified by %s\n", rep.Software, verifiedBy)
	}
	if rep.RollsChecked {
		fmt.Fprintf(w, "  %s checked against the game's committed dice secret\n", count(rep.Rolls, "dice roll"))
	} else {
		fmt.Fprintln(w, "  dice rolls not checked: the secret is published when the game ends (or verify the game directory)")
	}
	if rep.Ended {
		fmt.Fprintln(w, "  the game is over")
	}
	if rep.TornTail {
		fmt.Fprintln(w, "  note: the file ends in an incomplete record, which the next writer cuts off")
	}
}

// DataDirGames returns the game directories under path when path is a
// data directory (it holds games, and is not itself one), else nil.
func DataDirGames(path string) []string {
	if _, err := os.Stat(filepath.Join(path, LogFile)); err == nil {
		return nil
	}
	dirs, err := GameDirs(path)
	if err != nil || len(dirs) == 0 {
		return nil
	}
	return dirs
}

// VerifyAll verifies every game directory of a data directory (a backup,
// after an upgrade), printing what it found of each to w, going on past a
// game that fails; an error names those. verifiedBy names this build.
func VerifyAll(ctx context.Context, w io.Writer, dirs []string, v Verifier, verifiedBy string) error {
	var bad []string
	for _, d := range dirs {
		rep, err := VerifyPathContext(ctx, d, v)
		if errors.As(err, new(*engine.Stopped)) {
			return err
		}
		if err != nil {
			fmt.Fprintf(w, "%s: DOES NOT VERIFY: %v\n", d, err)
			bad = append(bad, filepath.Base(d))
			continue
		}
		rep.Print(w, verifiedBy)
	}
	if len(bad) > 0 {
		return fmt.Errorf("verify: %d of %d games do not verify: %s", len(bad), len(dirs), strings.Join(bad, ", "))
	}
	fmt.Fprintf(w, "%s, every one intact\n", count(len(dirs), "game"))
	return nil
}

// count is n and the noun, plural unless n is 1: "1 phase", "9 phases".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
