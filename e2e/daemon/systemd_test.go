package daemon

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"skagerrak/internal/machinetest"
	"skagerrak/mail/gpgtest"
	"skagerrak/mail/stacktest"
)

// systemdBin is systemd itself, run here as PID 1 of a namespace.
const systemdBin = "/lib/systemd/systemd"

// TestUnderSystemd runs the daemon under a real systemd: systemd as PID 1
// of a PID and mount namespace of its own (see bootSystemd), the unit
// exactly as `config systemd` prints it, started with systemctl against
// Dovecot and OpenSMTPD. systemctl start returns once the daemon said
// READY=1 (Type=notify); systemctl show reports it active, with its
// watchdog (WatchdogSec) and the STATUS= of a finished pass; the players
// get their first reports; systemctl stop (SIGTERM) ends it cleanly, exit
// status 0. It needs root (.ci/run); elsewhere it says loudly that it
// skips.
func TestUnderSystemd(t *testing.T) {
	stacktest.Require(t, "dovecot", "smtpd", "gpg", "unshare", "nsenter", "systemctl")
	if _, err := os.Stat("/run/systemd/system"); err == nil {
		// A second systemd beside the machine's own would share its
		// cgroups: only where none runs (a container, as CI).
		t.Skip("!!! this machine runs systemd: the test boots one of its own only where none runs: SKIPPED !!!")
	}
	s := stacktest.Start(t, "skagerrak.test", []string{"host", "german", "allied"}, nil)
	german, allied := s.NewPlayer(t, "german", "Erich Raeder"), s.NewPlayer(t, "allied", "Charles Forbes")
	host := "host@skagerrak.test"
	m := newMachine(t)
	hg := gpgtest.New(t)
	hostFPR := hg.GenKey("Skagerrak host <"+host+">", "ed25519", "sign", "never")
	m.Write("/etc/skagerrak/host-key.asc", hg.ExportSecret(hostFPR), m.UID, 0, 0o600)
	for _, p := range []*stacktest.Player{german, allied} {
		p.GPG.Import(hg.ExportPublic(hostFPR))
		m.Write("/tmp/"+strings.Split(p.Addr, "@")[0]+".asc", p.PublicKey(), 0, 0, 0o644)
	}
	// The configuration at README's paths, as the daemon reads it inside
	// the namespace; the same with the test machine's paths, outside.
	cfg := "data_dir: /var/lib/skagerrak/games\npoll_interval: 2s\nhost_key: /etc/skagerrak/host-key.asc\n" +
		"imap:\n  addr: " + s.IMAPAddr + "\n  username: " + host + "\n  tls: none\n" +
		"smtp:\n  addr: " + s.SMTPAddr + "\n  tls: none\n  from: " + host + "\n"
	m.Write("/etc/skagerrak/skagerrak.yaml", []byte(cfg), 0, 0, 0o644)
	m.Write("/etc/skagerrak/outside.yaml", []byte(m.Rewrite(cfg)), 0, 0, 0o644)
	m.Write("/etc/skagerrak/secrets.env", []byte("SKAGERRAK_IMAP_PASSWORD='"+s.Password(host)+"'\n"), 0, m.GID, 0o640)
	if code, out := m.Skagerrak(nil, "--config", m.Path("/etc/skagerrak/outside.yaml"), "new", "--game", "weser-1", "--ruleset", "kriegsmarine",
		"--side", "german="+german.Addr+","+m.Path("/tmp/german.asc"), "--side", "allied="+allied.Addr+","+m.Path("/tmp/allied.asc")); code != 0 {
		t.Fatalf("new: %d %s", code, out)
	}

	ns := bootSystemd(t, m)
	ns.sh(t, "/usr/local/bin/skagerrak --config /etc/skagerrak/skagerrak.yaml config systemd > /run/systemd/system/skagerrak.service && systemctl daemon-reload")
	if out, err := ns.run("timeout", "60", "systemctl", "start", "skagerrak"); err != nil {
		st, _ := ns.run("systemctl", "status", "--no-pager", "skagerrak")
		t.Fatalf("systemctl start skagerrak: %v\n%s\n%s\n%v", err, out, st, ns.show(t))
	}
	german.WaitInbox(t, 1, time.Minute)
	allied.WaitInbox(t, 1, time.Minute)
	deadline := time.Now().Add(30 * time.Second)
	var show map[string]string
	for {
		show = ns.show(t)
		if strings.HasPrefix(show["StatusText"], "last pass") || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if show["ActiveState"] != "active" || show["SubState"] != "running" || show["Type"] != "notify" || show["WatchdogUSec"] != "5min" || !strings.HasPrefix(show["StatusText"], "last pass") {
		t.Fatalf("systemctl show skagerrak while it runs: %v", show)
	}
	t.Logf("running: %s, %s; watchdog %s; %q", show["ActiveState"], show["SubState"], show["WatchdogUSec"], show["StatusText"])
	start := time.Now()
	ns.sh(t, "timeout 90 systemctl stop skagerrak")
	show = ns.show(t)
	t.Logf("stopped after %s: %s, result %s, exit code %s status %s", time.Since(start).Round(time.Millisecond), show["ActiveState"], show["Result"], show["ExecMainCode"], show["ExecMainStatus"])
	// ExecMainCode 1: it exited (CLD_EXITED), not killed by a signal.
	if show["ActiveState"] != "inactive" || show["Result"] != "success" || show["ExecMainCode"] != "1" || show["ExecMainStatus"] != "0" {
		t.Fatalf("systemctl show skagerrak after stop: %v", show)
	}
}

// systemdNS is systemd running as PID 1 of a PID and mount namespace.
type systemdNS struct {
	pid int // systemd's PID outside the namespace
}

// sealed is the start of the namespace's boot script: what systemd may
// change is the namespace's own. /run, /tmp, /var/tmp, /var/log and
// /var/lib/systemd are private tmpfs (a booting systemd empties /tmp), no
// generator runs, and every unit the machine's .wants and .requires
// directories name is masked in /run/systemd/system.control (which
// outranks /etc): the unit's default dependencies (sysinit.target,
// basic.target) then start nothing of the machine's. The empty target
// is ordered after skagerrak.service only so that the unit stays loaded
// once stopped (an unreferenced inactive unit is unloaded, and with it
// how its process ended).
const sealed = `for d in /run /tmp /var/tmp /var/log /var/lib/systemd /usr/lib/systemd/system-generators; do mount -t tmpfs tmpfs $d; done
chmod 1777 /tmp /var/tmp
mkdir -p /run/systemd/system.control /run/systemd/system
for u in $(ls /etc/systemd/system/*.wants /etc/systemd/system/*.requires /usr/lib/systemd/system/*.wants /usr/lib/systemd/system/*.requires 2>/dev/null | grep -v ':$' | sort -u); do
  ln -sf /dev/null /run/systemd/system.control/$u
done
printf '[Unit]\nDescription=the test, nothing else\nAfter=skagerrak.service\n' > /run/systemd/system/skagerrak-test.target
`

// bootSystemd starts systemd as PID 1 of a new PID and mount namespace,
// sealed (see sealed), with README's paths bind-mounted from the test
// machine m (/usr/local/bin holding the binary under its name,
// /etc/skagerrak, /var/lib/skagerrak, made empty on the machine where it
// lacks them and removed again), a user and group skagerrak (m's uid and
// gid) in its /etc/passwd and /etc/group, and no unit to start but an
// empty target. It is killed, with all it started, when the test ends (or
// the test binary dies: unshare --kill-child, the parent-death signal).
func bootSystemd(t *testing.T, m *machinetest.Machine) *systemdNS {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	if err := os.Link(m.Path("/usr/local/bin/skagerrak"), filepath.Join(bin, "skagerrak")); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []struct{ name, line string }{{"passwd", fmt.Sprintf("skagerrak:x:%d:%d::/var/lib/skagerrak:/usr/sbin/nologin\n", m.UID, m.GID)},
		{"group", fmt.Sprintf("skagerrak:x:%d:\n", m.GID)}} {
		b, err := os.ReadFile("/etc/" + f.name)
		if err != nil {
			t.Fatal(err)
		}
		write(f.name, string(b)+f.line, 0o644)
	}
	for _, p := range []string{"/etc/skagerrak", "/var/lib/skagerrak"} {
		if err := os.Mkdir(p, 0o755); err == nil {
			t.Cleanup(func() { os.Remove(p) })
		}
	}
	// The binds first: their sources are under /tmp, which sealed hides.
	boot := "set -e\n" +
		"mount --bind " + bin + " /usr/local/bin\n" +
		"mount --bind " + m.Path("/etc/skagerrak") + " /etc/skagerrak\n" +
		"mount --bind " + m.Path("/var/lib/skagerrak") + " /var/lib/skagerrak\n" +
		"mount --bind " + dir + "/passwd /etc/passwd\nmount --bind " + dir + "/group /etc/group\n" +
		sealed +
		"exec env container=skagerrak-test " + systemdBin + " --system --unit=skagerrak-test.target\n"
	cmd := exec.Command("unshare", "--pid", "--fork", "--kill-child", "--mount", "--propagation", "private", "--mount-proc", "sh", "-c", boot)
	out, err := os.Create(filepath.Join(dir, "unshare.out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("unshare: %v", err)
	}
	cgroups := cgroupDirs()
	t.Cleanup(func() {
		// unshare --kill-child takes systemd, PID 1, and with it the
		// whole namespace; then the cgroups it made go.
		cmd.Process.Kill()
		cmd.Wait()
		out.Close()
		removeCgroupsBut(t, cgroups)
	})
	ns := &systemdNS{}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", cmd.Process.Pid, cmd.Process.Pid)); err == nil {
			fmt.Sscan(string(b), &ns.pid)
		}
		if ns.pid != 0 {
			if st, err := ns.run("systemctl", "is-system-running"); err == nil && strings.TrimSpace(st) == "running" {
				return ns
			}
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(dir, "unshare.out"))
			t.Fatalf("systemd did not come up in its namespace (pid %d):\n%s", ns.pid, b)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// run runs a command inside the namespace.
func (ns *systemdNS) run(name string, args ...string) (string, error) {
	out, err := exec.Command("nsenter", append([]string{"-t", fmt.Sprint(ns.pid), "-m", "-p", name}, args...)...).CombinedOutput()
	return string(out), err
}

// sh runs a shell command inside the namespace, failing t if it fails.
func (ns *systemdNS) sh(t *testing.T, command string) {
	t.Helper()
	if out, err := ns.run("sh", "-c", command); err != nil {
		st, _ := ns.run("systemctl", "status", "--no-pager", "skagerrak")
		t.Fatalf("%s: %v\n%s\n%s", command, err, out, st)
	}
}

// show is systemctl show skagerrak.
func (ns *systemdNS) show(t *testing.T) map[string]string {
	t.Helper()
	out, err := ns.run("systemctl", "show", "skagerrak")
	if err != nil {
		t.Fatalf("systemctl show: %v\n%s", err, out)
	}
	props := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			props[k] = v
		}
	}
	return props
}

// cgroupDirs are the cgroups systemd may make (a unit's, named NAME.slice,
// .scope, .service, .mount, .socket or .swap, and what is inside one)
// that there are now: in the name=systemd and unified hierarchies of
// cgroup v1, or in cgroup v2.
func cgroupDirs() map[string]bool {
	roots := []string{"/sys/fs/cgroup/systemd", "/sys/fs/cgroup/unified"}
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		roots = []string{"/sys/fs/cgroup"}
	}
	dirs := map[string]bool{}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			for _, part := range strings.Split(rel, "/") {
				switch filepath.Ext(part) {
				case ".slice", ".scope", ".service", ".mount", ".socket", ".swap":
					dirs[p] = true
					return nil
				}
			}
			return nil
		})
	}
	return dirs
}

// removeCgroupsBut removes, deepest first, the cgroup directories made
// since before (the systemd of the test made them; they are empty once
// it is gone).
func removeCgroupsBut(t *testing.T, before map[string]bool) {
	var made []string
	for p := range cgroupDirs() {
		if !before[p] {
			made = append(made, p)
		}
	}
	slices.SortFunc(made, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, p := range made {
		var err error
		for range 50 { // a cgroup is busy until its last process is reaped
			if err = os.Remove(p); err == nil || os.IsNotExist(err) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil && !os.IsNotExist(err) {
			t.Errorf("the cgroup %s of the test's systemd stays: %v", p, err)
		}
	}
}
