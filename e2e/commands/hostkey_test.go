package commands

import (
	"os"
	"path/filepath"
	"skagerrak/internal/hosttest"
	"strings"
	"testing"
)

// A host key file others can read is refused by run, poll and config
// check alike, naming the file and the fix; --allow-readable-host-key
// loads it all the same, and chmod 600 makes it good.
func TestHostKeyReadableByOthersIsRefused(t *testing.T) {
	e := hosttest.New(t, 1)
	cfg := e.Config(t)
	keyPath := filepath.Join(e.Dir, "host.key")
	if err := os.Chmod(keyPath, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "host_key " + keyPath + " is open to others (mode 0644): whoever reads it signs as the host; run chmod 600 " + keyPath + " (or pass --allow-readable-host-key to load it all the same)"
	code, out, errs := run(t, "--config", cfg, "config", "check")
	if code != 1 || !strings.Contains(out, "FAIL  "+want) {
		t.Errorf("config check of a readable key: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "--config", cfg, "poll", "--once")
	if code == 0 || !strings.Contains(errs, want) || len(e.SMTP.Deliveries()) != 0 {
		t.Errorf("poll with a readable key: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "--config", cfg, "--allow-readable-host-key", "config", "check"); code != 0 {
		t.Errorf("config check --allow-readable-host-key: exit %d\n%s%s", code, out, errs)
	}
	os.Chmod(keyPath, 0o600)
	if code, out, errs := run(t, "--config", cfg, "poll", "--once"); code != 0 || len(e.SMTP.Deliveries()) != 2 {
		t.Errorf("poll with the key made owner-only: exit %d\n%s%s", code, out, errs)
	}
}
