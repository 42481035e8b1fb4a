package adjudicator

import (
	"os"
	"path/filepath"
	"testing"
)

// modes lists the permission bits of a game directory and of each file in
// it.
func modes(t *testing.T, gdir string) map[string]os.FileMode {
	t.Helper()
	out := map[string]os.FileMode{}
	st, err := os.Stat(gdir)
	if err != nil {
		t.Fatal(err)
	}
	out["."] = st.Mode().Perm()
	ents, _ := os.ReadDir(gdir)
	for _, e := range ents {
		info, _ := e.Info()
		out[e.Name()] = info.Mode().Perm()
	}
	return out
}

// A game directory is 0700 and everything in it 0600 (its log holds the
// sides' secret orders, its secret decides the dice), made so by a new
// game and restored on open for a game whose files were opened to others
// (as earlier builds left the log, 0640).
func TestGameDirectoryIsOwnerOnly(t *testing.T) {
	h, clk, dir := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Flush(t.Context(), &outbox{}); err != nil {
		t.Fatal(err)
	}
	if n, err := h.Snapshot(); n != 1 || err != nil {
		t.Fatalf("snapshot: %d %v", n, err)
	}
	gdir := filepath.Join(dir, "g1")
	check := func(when string) {
		t.Helper()
		got := modes(t, gdir)
		for _, f := range []string{LogFile, LogFile + ".lock", SecretFile, SnapshotFile} {
			if _, ok := got[f]; !ok {
				t.Errorf("%s: no %s", when, f)
			}
		}
		for name, m := range got {
			want := os.FileMode(0o600)
			if name == "." {
				want = 0o700
			}
			if m != want {
				t.Errorf("%s: %s has mode %04o, want %04o", when, name, m, want)
			}
		}
	}
	check("a new game")
	h.Close()
	os.Chmod(gdir, 0o755)
	os.Chmod(filepath.Join(gdir, LogFile), 0o640)
	os.Chmod(filepath.Join(gdir, SecretFile), 0o644)
	h2, err := OpenHost(dir, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	check("reopened")
}
