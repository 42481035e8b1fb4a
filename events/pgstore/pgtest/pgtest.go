// Package pgtest gives tests a real PostgreSQL: a private cluster made with
// initdb in a temporary directory, run as a non-root user and listening on
// a Unix socket only, started once per test binary and stopped by Main.
//
// SKAGERRAK_TEST_PG=URL uses an existing server instead (each test gets a
// database of its own there). Where neither is possible a test skips and
// says so loudly; under CI (CI set) it fails instead, because CI installs
// PostgreSQL (.ci/run).
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Superuser is the superuser of the private cluster.
const Superuser = "skagerrak"

var (
	once    sync.Once
	cluster *Cluster
	failure error
	seq     atomic.Int64
)

// Cluster is a running private cluster.
type Cluster struct {
	// Dir holds the data directory, the socket and the server's log.
	Dir string
	// URL is the superuser's URL of the maintenance database.
	URL string
	bin string
	as  string // the user the server runs as, "" for the current one
	own bool   // started here (Stop stops it)

	server *os.Process   // the running postmaster, nil while halted
	exited chan struct{} // closed when server has exited
}

// Main runs the tests and then stops the cluster if one was started:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
func Main(m *testing.M) int {
	code := m.Run()
	if cluster != nil {
		cluster.Stop()
	}
	return code
}

// Get returns the cluster, starting it on first use, or skips t (fails it
// under CI) when there is no PostgreSQL to be had.
func Get(t testing.TB) *Cluster {
	t.Helper()
	once.Do(func() { cluster, failure = start() })
	if failure != nil {
		unavailable(t, failure)
	}
	return cluster
}

// Private starts a cluster of t's own, stopped when t ends: for a test
// that stops and starts its server, so that tests running beside it on
// the shared cluster are not disturbed. It skips t (fails it under CI)
// when there is no PostgreSQL to be had, or when SKAGERRAK_TEST_PG names
// a server (which the tests cannot stop).
func Private(t testing.TB) *Cluster {
	t.Helper()
	if u := os.Getenv("SKAGERRAK_TEST_PG"); u != "" {
		unavailable(t, errors.New("SKAGERRAK_TEST_PG names a server the tests cannot stop and start"))
	}
	c, err := newCluster()
	if err != nil {
		unavailable(t, err)
	}
	t.Cleanup(c.Stop)
	return c
}

// unavailable skips t, or fails it under CI, because of err.
func unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("pgtest: no PostgreSQL for the tests under CI: %v", err)
	}
	fmt.Fprintf(os.Stderr, "\n*** pgtest: SKIPPING %s: no PostgreSQL: %v\n*** (apt-get install postgresql, or set SKAGERRAK_TEST_PG=postgres://...)\n\n", t.Name(), err)
	t.Skipf("SKIPPED: no PostgreSQL: %v", err)
}

// URL returns the URL of a new, empty database on the shared cluster, for
// one test; the database is dropped when the test ends.
func URL(t testing.TB) string {
	t.Helper()
	return Get(t).NewDatabase(t)
}

// NewDatabase returns the URL of a new, empty database on c, for one
// test; the database is dropped when the test ends.
func (c *Cluster) NewDatabase(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), seq.Add(1))
	if err := c.Exec(context.Background(), "CREATE DATABASE "+name+" ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return c.DatabaseURL(name, "")
}

// DatabaseURL is the URL of database name as role (the superuser when "").
func (c *Cluster) DatabaseURL(name, role string) string {
	u, _ := url.Parse(c.URL)
	u.Path = "/" + name
	if role != "" {
		u.User = url.User(role)
	}
	return u.String()
}

// Exec runs one statement as the superuser on the maintenance database.
func (c *Cluster) Exec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, c.URL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

func start() (*Cluster, error) {
	if u := os.Getenv("SKAGERRAK_TEST_PG"); u != "" {
		c := &Cluster{URL: u}
		if err := c.Exec(context.Background(), "SELECT 1"); err != nil {
			return nil, fmt.Errorf("SKAGERRAK_TEST_PG=%s: %w", u, err)
		}
		return c, nil
	}
	return newCluster()
}

// newCluster makes and starts a private cluster in a new temporary
// directory.
func newCluster() (*Cluster, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, own: true}
	if os.Geteuid() == 0 {
		// initdb and postgres refuse to run as root.
		if _, err := user.Lookup("postgres"); err != nil {
			return nil, errors.New("running as root and there is no postgres user to run the server as")
		}
		c.as = "postgres"
	}
	c.reapOrphans()
	dir, err := os.MkdirTemp("", "skagerrak-pg-")
	if err != nil {
		return nil, err
	}
	c.Dir = dir
	// Who started it, so that a later test binary stops a cluster whose
	// test binary was killed before Main could.
	os.WriteFile(filepath.Join(dir, "owner"), []byte(strconv.Itoa(os.Getpid())), 0o644)
	if c.as != "" {
		if err := chownTo(dir, c.as); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data, sock := filepath.Join(dir, "data"), dir
	if out, err := c.run("initdb", "-D", data, "-U", Superuser, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	c.URL = (&url.URL{Scheme: "postgres", User: url.User(Superuser), Path: "/postgres", RawQuery: "host=" + url.QueryEscape(sock)}).String()
	if err := c.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

// reapOrphans stops and removes the clusters of test binaries that died
// without stopping theirs (killed, or timed out).
func (c *Cluster) reapOrphans() {
	owners, _ := filepath.Glob(filepath.Join(os.TempDir(), "skagerrak-pg-*", "owner"))
	for _, o := range owners {
		b, err := os.ReadFile(o)
		pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || perr != nil || pid <= 0 || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue
		}
		orphan := &Cluster{Dir: filepath.Dir(o), bin: c.bin, as: c.as, own: true}
		orphan.Stop()
	}
}

// Start starts the cluster's server (again, after Halt) and waits until
// it takes connections. The server runs in the foreground as a child of
// the test binary that dies with it (Linux's parent-death signal), so a
// test binary that panics, times out or is killed leaves no server behind.
func (c *Cluster) Start() error {
	data := filepath.Join(c.Dir, "data")
	logf, err := os.OpenFile(filepath.Join(c.Dir, "server.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(filepath.Join(c.bin, "postgres"), "-D", data,
		"-c", "listen_addresses=", "-k", c.Dir, "-c", "max_connections=200")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Dir = os.TempDir()
	if cmd.SysProcAttr, err = c.childAttr(); err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	c.server, c.exited = cmd.Process, done
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		err := c.Exec(ctx, "SELECT 1")
		if err == nil {
			return nil
		}
		select {
		case <-done:
			log, _ := os.ReadFile(filepath.Join(c.Dir, "server.log"))
			return fmt.Errorf("postgres exited at start: %v\n%s", err, log)
		case <-ctx.Done():
			c.Halt("immediate")
			return fmt.Errorf("postgres does not answer: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Halt stops the server of a cluster started here, keeping its data, as
// an operator's restart or a crash of the database does (mode "fast" ends
// every session, rolling back what they had not committed; "immediate" is
// a crash; "smart" waits for sessions to end). Start brings it back.
func (c *Cluster) Halt(mode string) error {
	if !c.own {
		return errors.New("pgtest: the cluster was not started here")
	}
	sig, ok := map[string]syscall.Signal{"smart": syscall.SIGTERM, "fast": syscall.SIGINT, "immediate": syscall.SIGQUIT}[mode]
	if !ok {
		return fmt.Errorf("pgtest: no shutdown mode %q (smart, fast, immediate)", mode)
	}
	if c.server == nil {
		return nil
	}
	c.server.Signal(sig)
	select {
	case <-c.exited:
	case <-time.After(60 * time.Second):
		c.server.Kill()
		<-c.exited
		return fmt.Errorf("pgtest: postgres did not stop on %v within a minute; killed", sig)
	}
	c.server, c.exited = nil, nil
	return nil
}

// Stop stops a cluster started here and removes its directory.
func (c *Cluster) Stop() {
	if !c.own {
		return
	}
	if c.server != nil {
		c.Halt("immediate")
	} else {
		// An orphan of a test binary that died before Main could stop it.
		c.run("pg_ctl", "-D", filepath.Join(c.Dir, "data"), "-m", "immediate", "-w", "stop")
	}
	os.RemoveAll(c.Dir)
}

// childAttr runs a server program as the cluster's user, in a process
// group of its own (a ^C to the tests does not stop it before Stop has
// run), killed when the test binary dies.
func (c *Cluster) childAttr() (*syscall.SysProcAttr, error) {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if c.as == "" {
		return attr, nil
	}
	u, err := user.Lookup(c.as)
	if err != nil {
		return nil, err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	attr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return attr, nil
}

// run runs one of the server's programs (initdb, pg_ctl), as the server's
// user, and waits for it.
func (c *Cluster) run(prog string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(c.bin, prog), args...)
	cmd.Dir = os.TempDir()
	attr, err := c.childAttr()
	if err != nil {
		return nil, err
	}
	cmd.SysProcAttr = attr
	return cmd.CombinedOutput()
}

// findBin finds the directory of initdb, pg_ctl and postgres: PATH, else
// Debian's /usr/lib/postgresql/VERSION/bin (the newest).
func findBin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "pg_ctl")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	if len(dirs) == 0 {
		return "", errors.New("no initdb on PATH or under /usr/lib/postgresql")
	}
	return filepath.Dir(dirs[0]), nil
}

func version(initdb string) int {
	v, _ := strconv.Atoi(strings.Split(strings.TrimPrefix(initdb, "/usr/lib/postgresql/"), "/")[0])
	return v
}

func chownTo(dir, name string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}
