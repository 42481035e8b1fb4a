package configcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The data directory's check: one not made yet passes (skagerrak new
// makes it), a file in its place fails, and a relative one is named with
// where it is from here and the advice to give it in full (systemd and
// cron run elsewhere).
func TestDataDirCheck(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	ck := &checker{w: &out}
	checkDataDir(ck, filepath.Join(dir, "games"))
	if ck.failed != 0 || !strings.Contains(out.String(), "ok    data_dir "+filepath.Join(dir, "games")+": not there yet (skagerrak new makes it)") {
		t.Errorf("a data directory not made yet:\n%s", out.String())
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	out.Reset()
	checkDataDir(ck, file)
	if ck.failed != 1 || !strings.Contains(out.String(), "FAIL  data_dir "+file+": not a directory") {
		t.Errorf("a file as data directory:\n%s", out.String())
	}
	t.Chdir(dir)
	out.Reset()
	checkDataDir(ck, "games")
	if !strings.Contains(out.String(), "games ("+filepath.Join(dir, "games")+" from here;") || !strings.Contains(out.String(), "give it in full") {
		t.Errorf("a relative data directory:\n%s", out.String())
	}
}
