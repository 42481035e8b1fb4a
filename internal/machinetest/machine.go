// Package machinetest lays out the machine of README's "Hosting a game"
// under a temporary directory, for the tests that install skagerrak and
// run it as README says: as the daemon's user, from cron, from the
// systemd unit.
package machinetest

import (
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Machine stands in for the host of README's "Hosting a game": the paths
// README names (/usr/local/bin/skagerrak, /etc/skagerrak, /var/lib/skagerrak)
// live under root, and the user nobody stands in for the skagerrak user
// (what a test may not add to the machine).
type Machine struct {
	t *testing.T
	// Root is where the machine's / is; UID and GID are the daemon's
	// user's.
	Root     string
	UID, GID int
}

// New lays out step 1 of README: the binary installed (a copy of binary,
// run with the environment variables env if any are given), the daemon's
// home (owned by its user) and /etc/skagerrak (root, group of the
// daemon's user, 0750).
func New(t *testing.T, binary string, env ...string) *Machine {
	t.Helper()
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("no user nobody to stand in for the skagerrak user: %v", err)
	}
	root, err := os.MkdirTemp("", "skagerrak-machine-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	os.Chmod(root, 0o755)
	m := &Machine{t: t, Root: root}
	m.UID, _ = strconv.Atoi(u.Uid)
	m.GID, _ = strconv.Atoi(u.Gid)
	for _, d := range []string{"/usr/local/bin", "/var/lib", "/etc", "/tmp"} {
		if err := os.MkdirAll(m.Path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(m.Path("/tmp"), 0o1777)
	// useradd --home-dir /var/lib/skagerrak --create-home
	os.Mkdir(m.Path("/var/lib/skagerrak"), 0o755)
	os.Chown(m.Path("/var/lib/skagerrak"), m.UID, m.GID)
	// install -d -m 0750 -o root -g skagerrak /etc/skagerrak
	os.Mkdir(m.Path("/etc/skagerrak"), 0o750)
	os.Chown(m.Path("/etc/skagerrak"), 0, m.GID)
	// go build -o /usr/local/bin/skagerrak
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	bin := m.Path("/usr/local/bin/skagerrak")
	if len(env) > 0 {
		bin += ".bin" // run by a wrapper that sets env
		wrapper := "#!/bin/sh\n" + strings.Join(env, " ") + " exec " + bin + " \"$@\"\n"
		if err := os.WriteFile(m.Path("/usr/local/bin/skagerrak"), []byte(wrapper), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return m
}

// Path maps a path of the machine to where it lives in the test.
func (m *Machine) Path(p string) string { return filepath.Join(m.Root, p) }

// Rewrite maps every path README and the unit name to the test's.
func (m *Machine) Rewrite(s string) string {
	for _, p := range []string{"/usr/local/bin/skagerrak", "/etc/skagerrak", "/var/lib/skagerrak"} {
		s = strings.ReplaceAll(s, p, m.Path(p))
	}
	return s
}

// Write writes a file of the machine with its owner and mode.
func (m *Machine) Write(p string, data []byte, uid, gid int, mode os.FileMode) {
	m.t.Helper()
	if err := os.WriteFile(m.Path(p), data, mode); err != nil {
		m.t.Fatal(err)
	}
	os.Chmod(m.Path(p), mode)
	os.Chown(m.Path(p), uid, gid)
}

// Command makes a command run as the daemon's user (root when asRoot),
// with only env in its environment and the working directory dir.
func (m *Machine) Command(asRoot bool, dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	cmd.Dir = dir
	if !asRoot {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(m.UID), Gid: uint32(m.GID), Groups: []uint32{uint32(m.GID)}}}
	}
	return cmd
}

// Sourced is the environment a shell has after `set -a; . FILE`: what
// README has root do before config check, and the cron line do.
func (m *Machine) Sourced(file string) []string {
	m.t.Helper()
	out, err := exec.Command("/bin/sh", "-c", "set -a; . "+m.Path(file)+"; set +a; env").Output()
	if err != nil {
		m.t.Fatalf("sh: . %s: %v", file, err)
	}
	var env []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "SKAGERRAK_") {
			env = append(env, l)
		}
	}
	return env
}

// Skagerrak runs the installed binary as the daemon's user with the
// configuration of README's steps, and returns its exit status and output.
func (m *Machine) Skagerrak(env []string, args ...string) (int, string) {
	m.t.Helper()
	cmd := m.Command(false, m.Path("/var/lib/skagerrak"), append([]string{"PATH=/usr/bin:/bin"}, env...),
		m.Path("/usr/local/bin/skagerrak"), append([]string{"--config", m.Path("/etc/skagerrak/skagerrak.yaml")}, args...)...)
	out, err := cmd.CombinedOutput()
	return ExitCode(m.t, err), string(out)
}

// ExitCode is the exit status of a command that ran, failing t if it
// could not run.
func ExitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatalf("could not run: %v", err)
	return -1
}

// ReadmeCron is the cron line of README's "Hosting a game": its user and
// its command.
func ReadmeCron(t *testing.T) (string, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ModuleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 6 && f[0] == "*/5" {
			user := f[5]
			return user, strings.TrimSpace(l[strings.Index(l, user)+len(user):])
		}
	}
	t.Fatal("README has no cron line")
	return "", ""
}

// Cron runs a crontab command as cron does: /bin/sh -c, cron's PATH and
// nothing else in the environment, as the daemon's user where the test
// may switch users.
func (m *Machine) Cron(command string) (int, string, string) {
	m.t.Helper()
	asSelf := os.Geteuid() != 0
	cmd := m.Command(asSelf, m.Path("/var/lib/skagerrak"), []string{"PATH=/usr/bin:/bin", "SHELL=/bin/sh", "HOME=" + m.Path("/var/lib/skagerrak"), "LOGNAME=skagerrak"},
		"/bin/sh", "-c", m.Rewrite(command))
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	return ExitCode(m.t, cmd.Run()), out.String(), errb.String()
}

// ClosedAddr is a loopback address nothing listens on.
func ClosedAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// ModuleRoot is the directory of go.mod above the test's working
// directory (its package's directory).
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
}
