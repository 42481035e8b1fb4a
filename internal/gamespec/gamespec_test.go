package gamespec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/adjudicator"
	_ "skagerrak/engine/kriegsmarine"
	"skagerrak/mail/compose"
)

// writeKey writes a fresh armored public key to dir/name.
func writeKey(t *testing.T, dir, name string) {
	t.Helper()
	k, err := compose.GenerateKey(name, name+"@example.org", time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := compose.ArmorPublicKey(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), pub, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A game file's key files are read relative to it, and the timings it
// leaves out take new's defaults (its help: deadline 48h, reminder 12h,
// grace 0, flag_after 2, pause_limit 3, max_pause 168h).
func TestGameFileKeysRelativeAndDefaults(t *testing.T) {
	dir := t.TempDir()
	writeKey(t, dir, "german.asc")
	writeKey(t, dir, "allied.asc")
	file := filepath.Join(dir, "game.yaml")
	os.WriteFile(file, []byte("game: weser-1\nruleset: kriegsmarine\nsides:\n  german: {address: g@example.org, key: german.asc}\n  allied: {address: a@example.org, key: allied.asc}\n"), 0o644)
	t.Chdir(t.TempDir()) // not where the game file is
	s, err := ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour), Reminder: adjudicator.Duration(12 * time.Hour),
		FlagAfter: 2, PauseLimit: 3, MaxPause: adjudicator.Duration(168 * time.Hour)}
	if s.Timing != want {
		t.Errorf("timing %+v, want %+v", s.Timing, want)
	}
	if len(s.Players) != 2 || s.Players[0].Side != "allied" || s.Players[1].Side != "german" || s.Players[1].Fingerprint == "" {
		t.Errorf("players %+v, want allied and german, sorted, with their keys", s.Players)
	}
}

// A key a game file does not know is refused, naming the file and the key.
func TestGameFileUnknownKeyNamed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "game.yaml")
	os.WriteFile(file, []byte("game: g\nruleset: kriegsmarine\ndeadlne: 48h\n"), 0o644)
	_, err := ReadFile(file)
	if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), `unknown key "deadlne"`) {
		t.Fatalf("error %v, want the file and the unknown key named", err)
	}
}

// --side must be SIDE=ADDRESS,KEYFILE; a malformed one says how to write it.
func TestSideFlagSaysHowToWriteIt(t *testing.T) {
	f := Flags{Game: "g", Ruleset: "kriegsmarine", Sides: []string{"german:g@example.org"}}
	_, err := f.Spec()
	if err == nil || !strings.Contains(err.Error(), "write SIDE=ADDRESS,KEYFILE") {
		t.Fatalf("error %v, want how to write --side", err)
	}
}
