package verify

import (
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// README step 5 run from root's home: `runuser -u skagerrak -- skagerrak
// new ... --side german=...,german.asc` cannot read /root/german.asc. The
// error names the user, the file in full and what to do, where it said
// only "open german.asc: permission denied".
func TestUnreadableKeyFileSaysWhoAndWhere(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"open german.asc: permission denied", "user " + u.Username,
		filepath.Join(dir, "german.asc"), "install -m 0644 -t /var/lib/skagerrak"}
	check := func(t *testing.T, err error) {
		t.Helper()
		for _, w := range want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Fatalf("error %v does not say %q", err, w)
			}
		}
	}
	t.Run("as os.ReadFile reports it", func(t *testing.T) {
		// Root reads any file, so the error os.ReadFile gives another user.
		check(t, unreadableKeyFile("german.asc", &fs.PathError{Op: "open", Path: "german.asc", Err: syscall.EACCES}))
	})
	t.Run("a file this user may not read", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads every file")
		}
		os.WriteFile("german.asc", []byte("-----BEGIN PGP PUBLIC KEY BLOCK-----\n"), 0o000)
		_, _, err := ReadPublicKeyFile("german.asc")
		check(t, err)
	})
	t.Run("a missing file is only missing", func(t *testing.T) {
		_, _, err := ReadPublicKeyFile("allied.asc")
		if err == nil || strings.Contains(err.Error(), "may not read") || !strings.Contains(err.Error(), "no such file") {
			t.Fatalf("a missing key file: %v", err)
		}
	})
}
