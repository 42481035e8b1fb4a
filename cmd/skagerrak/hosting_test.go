package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"skagerrak/config"
	"skagerrak/internal/daemontest"
	"skagerrak/internal/machinetest"
	"skagerrak/mail/gpgtest"
	"skagerrak/mail/stacktest"
)

// unitService is the [Service] section of the unit `config systemd` prints.
func unitService(t *testing.T) map[string]string {
	t.Helper()
	keys := map[string]string{}
	section := ""
	for _, l := range strings.Split(config.SystemdUnit(), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "["):
			section = l
		case section == "[Service]" && l != "" && !strings.HasPrefix(l, "#"):
			k, v, _ := strings.Cut(l, "=")
			keys[k] = v
		}
	}
	return keys
}

// TestHostingAsREADMESays follows README's "Hosting a game" step by step
// on a real Dovecot (Maildir) and OpenSMTPD, with the binary installed
// where README says and run as a user that is not root: the host key made
// and exported with gpg; the configuration from `config example` with only
// the servers filled in, the passwords in secrets.env (root's, readable by
// the daemon's group) and `config check --connect` run as the daemon's
// user; the game made as that user; a pass by README's cron line exactly
// as cron runs it (/bin/sh, PATH=/usr/bin:/bin), and the same line with the
// IMAP server down exiting non-zero within poll_timeout; the daemon started
// as the unit `config systemd` prints says (its user, EnvironmentFile,
// WorkingDirectory, UMask), taking orders over IDLE and a game made beside
// it, refusing a CLI write to a game it holds with the way out, and
// stopping cleanly on SIGTERM; the data directory owner-only; a copy of it
// verified whole. It needs root (.ci/run); elsewhere it says loudly that it
// skips.
func TestHostingAsREADMESays(t *testing.T) {
	t.Parallel()
	stacktest.Require(t, "dovecot", "smtpd", "gpg")
	s := stacktest.Start(t, "skagerrak.test", []string{"host", "german", "allied", "referee"}, nil)
	german, allied, referee := s.NewPlayer(t, "german", "Erich Raeder"), s.NewPlayer(t, "allied", "Charles Forbes"), s.NewPlayer(t, "referee", "Referee")
	host := "host@skagerrak.test"
	m := newMachine(t)

	// Step 2: the host key, exported; the players import its public half.
	hg := gpgtest.New(t)
	hostFPR := hg.GenKey("Skagerrak host <"+host+">", "ed25519", "sign", "never")
	m.Write("/etc/skagerrak/host-key.asc", hg.ExportSecret(hostFPR), m.UID, 0, 0o600)
	for _, p := range []*stacktest.Player{german, allied, referee} {
		p.GPG.Import(hg.ExportPublic(hostFPR))
		m.Write("/tmp/"+strings.Split(p.Addr, "@")[0]+".asc", p.PublicKey(), 0, 0, 0o644)
	}

	// Step 3: config example as it comes, the servers filled in.
	code, example := m.Skagerrak(nil, "config", "example")
	if code != 0 {
		t.Fatalf("config example: %d %s", code, example)
	}
	cfg := m.Rewrite(example)
	for old, repl := range map[string]string{
		"addr: imap.example.org:993":                                                   "addr: " + s.IMAPAddr,
		"username: referee@example.org\n  tls: tls":                                    "username: " + host + "\n  tls: none",
		"addr: smtp.example.org:587\n  username: referee@example.org\n  tls: starttls": "addr: " + s.SMTPAddr + "\n  tls: none",
		"from: referee@example.org":                                                    "from: " + host,
		"poll_interval: 1m":                                                            "poll_interval: 2s", // the only change beyond the servers: a faster test
	} {
		if !strings.Contains(cfg, old) {
			t.Fatalf("config example has no %q to fill in:\n%s", old, cfg)
		}
		cfg = strings.Replace(cfg, old, repl, 1)
	}
	m.Write("/etc/skagerrak/skagerrak.yaml", []byte(cfg), 0, 0, 0o644)
	m.Write("/etc/skagerrak/secrets.env", []byte("SKAGERRAK_IMAP_PASSWORD='"+s.Password(host)+"'\n"), 0, m.GID, 0o640)
	secrets := m.Sourced("/etc/skagerrak/secrets.env")
	if code, out := m.Skagerrak(secrets, "config", "check", "--connect"); code != 0 || !strings.Contains(out, "configuration OK") {
		t.Fatalf("config check --connect as the daemon's user: %d\n%s", code, out)
	}

	// Step 5: the game, made as the daemon's user.
	newGame := func(id string) {
		t.Helper()
		code, out := m.Skagerrak(nil, "new", "--game", id, "--ruleset", "kriegsmarine",
			"--side", "german="+german.Addr+","+m.Path("/tmp/german.asc"), "--side", "allied="+allied.Addr+","+m.Path("/tmp/allied.asc"),
			"--referee", referee.Addr+","+m.Path("/tmp/referee.asc"), "--deadline", "48h")
		if code != 0 {
			t.Fatalf("new %s: %d %s", id, code, out)
		}
	}
	newGame("weser-1")

	// Step 6, cron: README's line as cron runs it.
	cronUser, cronCmd := machinetest.ReadmeCron(t)
	if cronUser != "skagerrak" {
		t.Fatalf("README's cron line runs as %q", cronUser)
	}
	cron := func(command string) (int, string, time.Duration) {
		cmd := m.Command(false, m.Path("/var/lib/skagerrak"), []string{"PATH=/usr/bin:/bin", "SHELL=/bin/sh", "HOME=" + m.Path("/var/lib/skagerrak"), "LOGNAME=skagerrak"},
			"/bin/sh", "-c", m.Rewrite(command))
		start := time.Now()
		out, err := cmd.CombinedOutput()
		return machinetest.ExitCode(t, err), string(out), time.Since(start)
	}
	if code, out, _ := cron(cronCmd); code != 0 || !strings.Contains(out, "mail sent 2") {
		t.Fatalf("README's cron line: exit %d\n%s", code, out)
	}
	form := stacktest.OrderForm(t, german.ReadSigned(t, german.WaitInbox(t, 1, time.Minute)[0].Raw, hostFPR))
	allied.WaitInbox(t, 1, time.Minute)
	// The same line with the IMAP server gone: it gives up within
	// poll_timeout, exits non-zero and says why.
	down := strings.Replace(strings.Replace(cfg, "addr: "+s.IMAPAddr, "addr: "+machinetest.ClosedAddr(t), 1), "poll_timeout: 2m", "poll_timeout: 5s", 1)
	m.Write("/etc/skagerrak/down.yaml", []byte(down), 0, 0, 0o644)
	code, out, took := cron(strings.Replace(cronCmd, "skagerrak.yaml", "down.yaml", 1))
	if code == 0 || !strings.Contains(out, "gave up after 5s") || !strings.Contains(out, "connection refused") || took > 15*time.Second {
		t.Fatalf("the cron line with IMAP down: exit %d after %s\n%s", code, took, out)
	}

	// Step 6, systemd: the daemon as the unit says.
	unit := unitService(t)
	if unit["User"] != "skagerrak" || unit["KillSignal"] != "SIGTERM" {
		t.Fatalf("unit: User=%s KillSignal=%s", unit["User"], unit["KillSignal"])
	}
	stopWithin, err := time.ParseDuration(unit["TimeoutStopSec"])
	if err != nil {
		t.Fatalf("unit: TimeoutStopSec=%s: %v", unit["TimeoutStopSec"], err)
	}
	env := append([]string{"PATH=/usr/local/bin:/usr/bin:/bin"}, m.Sourced(strings.TrimPrefix(m.Rewrite(unit["EnvironmentFile"]), m.Root))...)
	daemon := m.Command(false, m.Rewrite(unit["WorkingDirectory"]), env, "/bin/sh", "-c", "umask "+unit["UMask"]+"; exec "+m.Rewrite(unit["ExecStart"]))
	log := &daemontest.SyncBuffer{}
	daemon.Stdout, daemon.Stderr = log, log
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	defer daemon.Process.Kill()
	daemontest.WaitLog(t, log, "skagerrak running")
	german.Send(t, host, german.Clearsigned(t, host, "orders weser-1", form))
	daemontest.WaitLog(t, log, "status=accepted")
	// A game made beside the daemon is taken up: its first reports go.
	newGame("weser-2")
	daemontest.WaitLog(t, log, "game taken up")
	if ms := allied.WaitInbox(t, 1, time.Minute); !strings.Contains(ms[0].Subject, "weser-2") {
		t.Fatalf("the Allies got %q, not weser-2's first report", ms[0].Subject)
	}
	// A command that writes to a game the daemon holds says how to go on.
	if code, out := m.Skagerrak(nil, "referee", "weser-1", "extend", "24h", "travelling"); code == 0 || !strings.Contains(out, "systemctl stop skagerrak") {
		t.Fatalf("referee beside the daemon: exit %d\n%s", code, out)
	}
	start := time.Now()
	daemon.Process.Signal(syscall.SIGTERM)
	err = daemon.Wait()
	if code := machinetest.ExitCode(t, err); code != 0 || time.Since(start) > stopWithin || !strings.Contains(log.String(), "skagerrak stopped") {
		t.Fatalf("SIGTERM: exit %d after %s (the unit allows %s)\n%s", code, time.Since(start), stopWithin, log.String())
	}
	ownerOnlyTree(t, m.Path("/var/lib/skagerrak/games"), m.UID)

	// Step 8: a copy of the data directory verifies, every game of it.
	backup := filepath.Join(t.TempDir(), "games")
	if out, err := exec.Command("cp", "-a", m.Path("/var/lib/skagerrak/games"), backup).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	if code, out, errs := run(t, "verify", backup); code != 0 || !strings.Contains(out, "2 games, every one intact") {
		t.Fatalf("verify of the backup: %d\n%s\n%s", code, out, errs)
	}
}

// ownerOnlyTree checks that everything under dir belongs to uid and is
// owner-only (directories 0700, files 0600).
func ownerOnlyTree(t *testing.T, dir string, uid int) {
	t.Helper()
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			t.Error(err)
			return nil
		}
		want := os.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
		}
		st := fi.Sys().(*syscall.Stat_t)
		if fi.Mode().Perm() != want || int(st.Uid) != uid {
			t.Errorf("%s: mode %o owner %d, want %o owned by %d", p, fi.Mode().Perm(), st.Uid, want, uid)
		}
		return nil
	})
}
