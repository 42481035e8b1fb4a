package commands

import (
	"os"
	"path/filepath"
	"skagerrak/internal/hosttest"
	"strings"
	"testing"
)

// The case: a host key file that does not exist and no password
// in the environment are problems, not "configuration OK".
func TestConfigCheckFindsMissingKeyAndPassword(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "skagerrak.yaml")
	os.WriteFile(cfg, []byte("data_dir: "+dir+"/games\nhost_key: "+dir+"/nope.asc\nimap:\n  addr: 127.0.0.1:1\n  username: ref\n  tls: none\nsmtp:\n  addr: 127.0.0.1:1\n  tls: none\n  from: ref@example.org\n"), 0o600)
	t.Setenv("SKAGERRAK_IMAP_PASSWORD", "")
	code, out, errs := run(t, "--config", cfg, "config", "check")
	if code != 1 || strings.Contains(out, "configuration OK") {
		t.Fatalf("config check: exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"FAIL  host_key: open " + dir + "/nope.asc", "FAIL  imap.username is ref, but SKAGERRAK_IMAP_PASSWORD is not set", "2 problem(s)"} {
		if !strings.Contains(out+errs, want) {
			t.Errorf("output does not say %q:\n%s\n%s", want, out, errs)
		}
	}
}

// A sound configuration passes, and with --connect logs in to both servers
// (the loopback ones) and names the folders it made.
func TestConfigCheckConnects(t *testing.T) {
	e := hosttest.New(t, 0)
	cfg := e.Config(t)
	code, out, errs := run(t, "--config", cfg, "config", "check", "--connect")
	if code != 0 {
		t.Fatalf("config check --connect: exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"unlocked, signs, decrypts", "ok    smtp.replay_max 7MB: a final report attaches the game's replay page up to 7.0 MB", "imap " + e.IMAP.Addr() + ": logged in as " + hosttest.HostAddr, "skagerrak/processed and skagerrak/rejected", "smtp " + e.SMTP.Addr() + ": without login", "configuration OK"} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not say %q:\n%s", want, out)
		}
	}
	// The SMTP server gone: --connect says so.
	e.SMTP.Close()
	code, out, _ = run(t, "--config", cfg, "config", "check", "--connect")
	if code != 1 || !strings.Contains(out, "FAIL  smtp "+e.SMTP.Addr()) {
		t.Errorf("without SMTP: exit %d\n%s", code, out)
	}
}

// config check --connect without the IMAP password says which variable is
// missing and does not ask the server (whose answer would only be
// AUTHENTICATIONFAILED).
func TestConfigCheckConnectWithoutPassword(t *testing.T) {
	e := hosttest.New(t, 0)
	cfg := e.Config(t)
	t.Setenv("SKAGERRAK_IMAP_PASSWORD", "")
	code, out, errs := run(t, "--config", cfg, "config", "check", "--connect")
	if code != 1 || !strings.Contains(out, "FAIL  imap.username is "+hosttest.HostAddr+", but SKAGERRAK_IMAP_PASSWORD is not set") ||
		!strings.Contains(out, "skip  imap "+e.IMAP.Addr()+": no login without SKAGERRAK_IMAP_PASSWORD") || strings.Contains(out+errs, "AUTHENTICATIONFAILED") || !strings.Contains(out, "1 problem(s)") && !strings.Contains(errs, "1 problem(s)") {
		t.Errorf("config check --connect without the password: exit %d\n%s\n%s", code, out, errs)
	}
}
