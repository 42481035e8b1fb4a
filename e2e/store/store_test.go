package store

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"skagerrak/internal/hosttest"
)

// The finished games checked in go into the database and come out byte
// for byte, and what comes out verifies: every game played by signed mail
// (each ruleset and revision) and every one with manual dice. The store
// keeps a record's bytes whatever the game, so the other variants would
// add time, not cases.
func TestImportThenExportRoundTripsByteForByte(t *testing.T) {
	var paths []string
	for _, kind := range []string{"demo", "manual"} {
		p, _ := filepath.Glob(filepath.Join(hosttest.CheckedInLogs(t), "*-"+kind+".jsonl"))
		paths = append(paths, p...)
	}
	if len(paths) == 0 {
		t.Fatal("no logs")
	}
	dir := t.TempDir()
	for i, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) { roundTrip(t, p, dir, i == 0) })
	}
}

// roundTrip imports the log at p (which verifies it), exports it and
// compares the bytes. For the first log (full) it also verifies the
// export as a player would and imports it a second time; for the others
// the equal bytes say as much, and each replay of a whole game under
// -race costs seconds.
func roundTrip(t *testing.T, p, dir string, full bool) {
	hosttest.MigratedStore(t)
	args := []string{"import", p}
	if !strings.HasSuffix(p, "-demo.jsonl") {
		args = []string{"import", "--no-signatures", p} // stand-in keys that sign nothing
	}
	code, out, errs := run(t, args...)
	if code != 0 || !strings.Contains(out, "imported ") {
		t.Fatalf("import %s: %d %s %s", p, code, out, errs)
	}
	game := strings.Fields(out)[1]
	code, exported, errs := run(t, "export", game)
	if code != 0 {
		t.Fatalf("export %s: %d %s", game, code, errs)
	}
	orig, _ := os.ReadFile(p)
	if !bytes.Equal([]byte(exported), orig) {
		t.Fatalf("export of %s differs from %s (%d bytes against %d)", game, p, len(exported), len(orig))
	}
	if !full {
		return
	}
	out1 := filepath.Join(dir, filepath.Base(p))
	os.WriteFile(out1, []byte(exported), 0o644)
	vargs := []string{"verify", out1}
	if !strings.HasSuffix(p, "-demo.jsonl") {
		vargs = []string{"verify", "--no-signatures", out1}
	}
	if code, out, errs := run(t, vargs...); code != 0 || !strings.Contains(out, "intact") {
		t.Fatalf("verify of the export: %d %s %s", code, out, errs)
	}
	// The same game again is refused: it is in the store.
	if code, _, errs := run(t, args...); code != 1 || !strings.Contains(errs, "already exists") {
		t.Fatalf("a second import of %s: %d %s", p, code, errs)
	}
}

func TestImportRefusesALogThatDoesNotVerify(t *testing.T) {
	hosttest.MigratedStore(t)
	orig, err := os.ReadFile(filepath.Join(hosttest.CheckedInLogs(t), "kampen-r1-demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// One byte of a late record changed (a die roll, a text), hash left.
	lines := strings.SplitAfter(string(orig), "\n")
	i := len(lines) / 2
	lines[i] = strings.Replace(lines[i], `"type":"`, `"type":"X`, 1)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644)
	code, out, errs := run(t, "import", bad)
	if code != 1 || !strings.Contains(errs, "does not verify") || strings.Contains(out, "imported") {
		t.Fatalf("import of a damaged log: %d %s %s", code, out, errs)
	}
	if code, out, _ := run(t, "status"); code != 0 || !strings.Contains(out, "no games") {
		t.Fatalf("after the refused import: %d %s", code, out)
	}
}

// A game made on PostgreSQL is played by the same commands as on files,
// exported as a game directory the file store serves, and brought back.
func TestGameOnPostgresAndBackToFiles(t *testing.T) {
	hosttest.MigratedStore(t)
	dir := t.TempDir()
	k := hosttest.KeyFiles(t, dir)
	args := hosttest.NewGameArgs("unused", "g1", k)[2:]
	if code, out, errs := run(t, args...); code != 0 || !strings.Contains(out, "created game g1") {
		t.Fatalf("new on postgres: %d %s %s", code, out, errs)
	}
	if code, _, errs := run(t, args...); code == 0 || !strings.Contains(errs, "exists") {
		t.Fatalf("the same game twice: %d %s", code, errs)
	}
	if code, out, errs := run(t, "resolve", "g1"); code != 0 {
		t.Fatalf("resolve: %d %s %s", code, out, errs)
	}
	code, out, errs := run(t, "status", "g1")
	if code != 0 || !strings.Contains(out, "1 phase resolved") || !strings.Contains(out, "undelivered mail") {
		t.Fatalf("status: %d %s %s", code, out, errs)
	}
	if code, out, errs := run(t, "report", "g1", "--side", "allied"); code != 0 || !strings.Contains(out, "Message-ID:") {
		t.Fatalf("report: %d %s %s", code, out, errs)
	}
	files := filepath.Join(dir, "files")
	if code, _, errs := run(t, "export", "g1", "--out", files); code != 0 {
		t.Fatalf("export --out: %d %s", code, errs)
	}
	if st, err := os.Stat(filepath.Join(files, "g1", "dice-secret")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the exported dice secret: %v %v", st, err)
	}
	if code, out, errs := run(t, "verify", filepath.Join(files, "g1")); code != 0 || !strings.Contains(out, "dice rolls checked") {
		t.Fatalf("verify the exported game directory: %d %s %s", code, out, errs)
	}
	// On files, the game goes on.
	t.Setenv("SKAGERRAK_STORE", "file")
	if code, out, errs := run(t, "--data-dir", files, "resolve", "g1"); code != 0 || !strings.Contains(out, "2 phases resolved") {
		t.Fatalf("resolve on files: %d %s %s", code, out, errs)
	}
	// And back into another database.
	hosttest.MigratedStore(t)
	if code, out, errs := run(t, "import", filepath.Join(files, "g1")); code != 0 || !strings.Contains(out, "imported g1") {
		t.Fatalf("import back: %d %s %s", code, out, errs)
	}
	code, exported, _ := run(t, "export", "g1")
	orig, _ := os.ReadFile(filepath.Join(files, "g1", "events.jsonl"))
	if code != 0 || exported != string(unframed(orig)) {
		t.Fatalf("the game brought back differs (%d bytes against %d)", len(exported), len(orig))
	}
	if code, out, errs := run(t, "resolve", "g1"); code != 0 || !strings.Contains(out, "3 phases resolved") {
		t.Fatalf("resolve after coming back: %d %s %s", code, out, errs)
	}
}

// unframed is a file store's log without the frames of its batches
// (events: Batches): its records, as every store gives them.
func unframed(log []byte) []byte {
	return regexp.MustCompile(`,"batch":\[[0-9]+,[0-9]+\]}\n`).ReplaceAll(log, []byte("}\n"))
}
