package daemon

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"skagerrak/internal/binarytest"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/machinetest"
	"skagerrak/mail/compose"
)

// newMachine is README's machine with the binary installed.
func newMachine(t *testing.T) *machinetest.Machine {
	t.Helper()
	return machinetest.New(t, binarytest.Built())
}

// cronMachine is README's host with the binary installed, the games of e
// in /var/lib/skagerrak/games (the daemon's user's), a configuration
// naming e's loopback servers and a secrets.env holding the given lines.
func cronMachine(t *testing.T, e *hosttest.Env, secrets string) *machinetest.Machine {
	t.Helper()
	m := newMachine(t)
	if out, err := exec.Command("cp", "-a", e.DataDir(), m.Path("/var/lib/skagerrak/games")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	if out, err := exec.Command("chown", "-R", fmt.Sprintf("%d:%d", m.UID, m.GID), m.Path("/var/lib/skagerrak/games")).CombinedOutput(); os.Geteuid() == 0 && err != nil {
		t.Fatalf("chown: %v %s", err, out)
	}
	priv, err := compose.ArmorPrivateKey(e.HostKey)
	if err != nil {
		t.Fatal(err)
	}
	m.Write("/etc/skagerrak/host-key.asc", priv, m.UID, 0, 0o600)
	cfg := fmt.Sprintf("data_dir: /var/lib/skagerrak/games\nhost_key: /etc/skagerrak/host-key.asc\nimap:\n  addr: %s\n  username: %s\n  tls: none\nsmtp:\n  addr: %s\n  tls: none\n  from: %s\n",
		e.IMAP.Addr(), hosttest.HostAddr, e.SMTP.Addr(), hosttest.HostAddr)
	m.Write("/etc/skagerrak/skagerrak.yaml", []byte(m.Rewrite(cfg)), 0, 0, 0o644)
	m.Write("/etc/skagerrak/secrets.env", []byte(secrets), 0, m.GID, 0o640)
	return m
}

// The cron line is one line, the same in README and in poll --help, and
// it works as cron runs it: the first pass sends the first reports and
// says so; the idle pass after it prints nothing at all (cron would mail
// the host any output, 288 times a day) and exits 0.
func TestCronLineQuietWhenIdle(t *testing.T) {
	_, help, _ := run(t, "poll", "--help")
	var cronLine string
	for _, l := range strings.Split(help, "\n") {
		if strings.HasPrefix(l, "  */5 ") {
			cronLine = strings.TrimPrefix(l, "  ")
		}
	}
	if cronLine == "" {
		t.Fatalf("poll --help gives no cron line:\n%s", help)
	}
	user, command := machinetest.ReadmeCron(t)
	wantUser := strings.Fields(cronLine)[5]
	if user != wantUser || command != strings.TrimSpace(cronLine[strings.Index(cronLine, wantUser)+len(wantUser):]) {
		t.Fatalf("README's cron line (%s: %s) is not poll --help's: %s", user, command, cronLine)
	}
	e := hosttest.New(t, 1)
	m := cronMachine(t, e, "SKAGERRAK_IMAP_PASSWORD='pw'\n")
	code, out, errs := m.Cron(command)
	if code != 0 || !strings.Contains(out, "mail sent 2") {
		t.Fatalf("first pass from cron: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = m.Cron(command)
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("an idle pass from cron: exit %d, printed %q and %q; want exit 0 and nothing", code, out, errs)
	}
	code, out, errs = m.Cron(strings.Replace(command, "poll --once", "poll --once --verbose", 1))
	if code != 0 || !strings.Contains(out, "messages 0: accepted 0") {
		t.Fatalf("an idle pass with --verbose: exit %d\n%s\n%s", code, out, errs)
	}
}

// A secrets file that lacks the password (or was not sourced) is named
// by the variable missing, before any server is asked: never the server's
// AUTHENTICATIONFAILED.
func TestCronLineNamesMissingSecret(t *testing.T) {
	e := hosttest.New(t, 1)
	m := cronMachine(t, e, "# the IMAP password is not here\n")
	_, command := machinetest.ReadmeCron(t)
	code, out, errs := m.Cron(command)
	if code == 0 || out != "" || !strings.Contains(errs, "SKAGERRAK_IMAP_PASSWORD (imap.username is "+hosttest.HostAddr+") not set") || strings.Contains(errs, "AUTHENTICATIONFAILED") {
		t.Fatalf("cron line without the password: exit %d\n%s\n%s", code, out, errs)
	}
	for _, args := range [][]string{{"run"}, {"config", "check"}} {
		code, out := m.Skagerrak(nil, args...)
		if code == 0 || !strings.Contains(out, "SKAGERRAK_IMAP_PASSWORD") || strings.Contains(out, "AUTHENTICATIONFAILED") {
			t.Errorf("%s without the password: exit %d\n%s", args, code, out)
		}
	}
}

// A duration without a unit is refused where it is read: config check and
// the commands that start, naming the key and the value with a unit.
func TestBareDurationRefused(t *testing.T) {
	e := hosttest.New(t, 1)
	cfg := e.Config(t)
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(b, "poll_timeout: 120\n"...), 0o600)
	for _, args := range [][]string{{"config", "check"}, {"poll", "--once"}, {"run"}} {
		code, out, errs := run(t, append([]string{"--config", cfg}, args...)...)
		if code == 0 || !strings.Contains(errs, `key "poll_timeout" is 120, a number without a unit; write 120s`) {
			t.Errorf("%s with poll_timeout: 120: exit %d\n%s\n%s", args, code, out, errs)
		}
	}
}

// While the IMAP server is down the daemon tries again with a growing
// delay of at most poll_interval, as README says (it waited up to 5
// minutes, 1m25s seen). poll_interval is 1s here: from the third attempt
// on, the old back-off waited 2 s or more.
func TestBackoffUpToPollInterval(t *testing.T) {
	e := hosttest.New(t, 1)
	cfg := e.Config(t)
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(strings.Replace(string(b), "poll_interval: 200ms", "poll_interval: 1s", 1), e.IMAP.Addr(), machinetest.ClosedAddr(t), 1)), 0o600)
	d := binarytest.Start(t, binarytest.Built(), "--config", cfg, "run")
	errb := &d.Stderr
	delays := regexp.MustCompile(`retrying.*delay=(\S+)`)
	deadline := time.Now().Add(20 * time.Second)
	for len(delays.FindAllStringSubmatch(errb.String(), -1)) < 4 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	d.Stop(t)
	found := delays.FindAllStringSubmatch(errb.String(), -1)
	if len(found) < 4 {
		t.Fatalf("the daemon tried %d times in 20 s with the server down:\n%s", len(found), errb.String())
	}
	for _, f := range found {
		if d, err := time.ParseDuration(f[1]); err != nil || d > time.Second {
			t.Errorf("a retry waited %s, more than poll_interval (1s)", f[1])
		}
	}
}
