package stacktest

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// PostfixRootEnv names the directory Debian's postfix package is unpacked
// in (dpkg -x), for a machine where it is not installed: Debian's postfix
// and opensmtpd packages exclude each other, so the suite runs Postfix
// from there, without installing it. .ci/run unpacks it into
// DefaultPostfixRoot and sets this.
const PostfixRootEnv = "SKAGERRAK_POSTFIX_ROOT"

// DefaultPostfixRoot is where .ci/run unpacks Postfix.
const DefaultPostfixRoot = "/var/cache/skagerrak-ci/postfix"

// postfixMaster is Postfix's master daemon under a root directory.
const postfixMaster = "usr/lib/postfix/sbin/master"

// postfix is where a stack's Postfix runs from and keeps its queue.
type postfix struct {
	root  string // "/" when installed, else the unpacked package
	conf  string // config_directory: main.cf and master.cf
	queue string // queue_directory, its chroot
	data  string // data_directory
}

// postfixRoot finds Postfix: unpacked where PostfixRootEnv says, installed,
// or unpacked where .ci/run puts it.
func postfixRoot() (string, bool) {
	var roots []string
	if r := os.Getenv(PostfixRootEnv); r != "" {
		roots = []string{r}
	} else {
		roots = []string{"/", DefaultPostfixRoot}
	}
	for _, r := range roots {
		if fi, err := os.Stat(filepath.Join(r, postfixMaster)); err == nil && fi.Mode().IsRegular() {
			return r, true
		}
	}
	return "", false
}

// RequirePostfix skips t loudly, or fails it under EnvRequire, unless
// Dovecot and Postfix (installed or unpacked) are there, with Postfix's
// users, and the test runs as root. It returns Postfix's root directory.
func RequirePostfix(t testing.TB) string {
	t.Helper()
	Require(t, "dovecot")
	var missing []string
	root, ok := postfixRoot()
	if !ok {
		missing = append(missing, "Postfix (apt-get download postfix; dpkg -x postfix_*.deb "+DefaultPostfixRoot+", or "+PostfixRootEnv+"=DIR)")
	}
	if _, err := user.Lookup("postfix"); err != nil {
		missing = append(missing, "the user postfix (useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postfix)")
	}
	if _, err := user.LookupGroup("postdrop"); err != nil {
		missing = append(missing, "the group postdrop (groupadd --system postdrop)")
	}
	if len(missing) > 0 {
		need(t, "the interop suite against Postfix needs "+strings.Join(missing, ", ")+"; .ci/run makes all of them")
	}
	return root
}

// StartPostfix is Start with Postfix in place of OpenSMTPD: Postfix from
// the shipped main.cf (README, A mail server) and Debian's master.cf,
// delivering over LMTP into Dovecot's socket in Postfix's chroot (Dovecot's
// configuration made with --postfix). Mail to a local part in ghosts is
// accepted by Postfix, refused by Dovecot, and bounced by Postfix to the
// sender at once; mail to an address it does not know Postfix refuses at
// RCPT TO (550 5.1.1).
func StartPostfix(t testing.TB, domain string, users, ghosts []string) *Stack {
	t.Helper()
	root := RequirePostfix(t)
	s := newStack(t, domain, users, ghosts)
	s.mtaLog = "postfix.log"
	s.postfix = &postfix{root: root, conf: filepath.Join(s.Dir, "postfix"),
		queue: filepath.Join(s.Dir, "postfix-queue"), data: filepath.Join(s.Dir, "postfix-data")}
	s.postfix.makeDirs(t)
	s.startDovecot()
	s.startPostfix()
	return s
}

// postfixQueue is the stack's Postfix queue, "" for OpenSMTPD.
func (s *Stack) postfixQueue() string {
	if s.postfix == nil {
		return ""
	}
	return s.postfix.queue
}

// makeDirs makes Postfix's configuration, data and queue directories with
// the owners and modes Debian's postfix-files gives them (Postfix checks
// them and refuses others).
func (p *postfix) makeDirs(t testing.TB) {
	t.Helper()
	owner, err := user.Lookup("postfix")
	if err != nil {
		t.Fatal(err)
	}
	drop, err := user.LookupGroup("postdrop")
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(owner.Uid)
	gid, _ := strconv.Atoi(drop.Gid)
	mk := func(dir string, mode uint32, u, g int) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, u, g); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
	}
	mk(p.conf, 0o755, 0, 0)
	mk(p.queue, 0o755, 0, 0)
	mk(p.data, 0o700, uid, 0)
	mk(filepath.Join(p.queue, "pid"), 0o755, 0, 0)
	for _, d := range []string{"active", "bounce", "corrupt", "defer", "deferred", "flush", "hold", "incoming", "private", "saved", "trace"} {
		mk(filepath.Join(p.queue, d), 0o700, uid, 0)
	}
	mk(filepath.Join(p.queue, "maildrop"), 0o1730, uid, gid)
	mk(filepath.Join(p.queue, "public"), 0o2710, uid, gid)
}

// env is the environment Postfix's programs run in: its libraries are in
// the unpacked tree, not where their RUNPATH says.
func (p *postfix) env() []string {
	return append(os.Environ(), "MAIL_CONFIG="+p.conf, "LD_LIBRARY_PATH="+filepath.Join(p.root, "usr/lib/postfix"))
}

// run runs one of Postfix's commands (postalias, postconf).
func (p *postfix) run(t testing.TB, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(p.root, "usr/sbin", name), append([]string{"-c", p.conf}, args...)...)
	cmd.Env = p.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("stacktest: %s: %v\n%s", name, err, out)
	}
}

// smtpListener is the SMTP service's line of Debian's master.cf.
var smtpListener = regexp.MustCompile(`(?m)^smtp(\s+inet\s)`)

// startPostfix writes main.cf (the shipped one, then what a test must move:
// the directories, the log) and master.cf (Debian's, its SMTP service on
// this stack's port), and runs Postfix's master in the foreground.
func (s *Stack) startPostfix() {
	t, p := s.t, s.postfix
	mainCf := s.renderText("postfix")
	// The one file the shipped main.cf names that a test may not touch.
	aliases := filepath.Join(p.conf, "aliases")
	mainCf = strings.ReplaceAll(mainCf, "hash:/etc/aliases", "hash:"+aliases)
	lib := filepath.Join(p.root, "usr/lib/postfix")
	mainCf += "\n# The interop suite's: Postfix from " + p.root + ", its queue, data and log in " + s.Dir + ".\n" +
		"queue_directory = " + p.queue + "\ndata_directory = " + p.data + "\n" +
		"daemon_directory = " + filepath.Join(p.root, "usr/lib/postfix/sbin") + "\n" +
		"command_directory = " + filepath.Join(p.root, "usr/sbin") + "\n" +
		"meta_directory = " + filepath.Join(p.root, "etc/postfix") + "\nshlib_directory = " + lib + "\n" +
		"maillog_file = " + filepath.Join(s.Dir, "postfix.log") + "\nmaillog_file_prefixes = " + s.Dir + "\n" +
		"import_environment = MAIL_CONFIG MAIL_DEBUG MAIL_LOGTAG TZ LANG=C POSTLOG_SERVICE POSTLOG_HOSTNAME LD_LIBRARY_PATH=" + lib + "\n"
	write(t, filepath.Join(p.conf, "main.cf"), mainCf)
	master, err := os.ReadFile(filepath.Join(p.root, "usr/share/postfix/master.cf.dist"))
	if err != nil {
		t.Fatalf("stacktest: Debian's master.cf: %v", err)
	}
	if !smtpListener.Match(master) {
		t.Fatalf("stacktest: Debian's master.cf has no smtp inet service")
	}
	write(t, filepath.Join(p.conf, "master.cf"), smtpListener.ReplaceAllString(string(master), s.SMTPAddr+"$1"))
	write(t, aliases, "postmaster: root\n")
	p.run(t, "postalias", aliases)
	p.run(t, "postconf", "-n")

	out, err := os.Create(filepath.Join(s.Dir, "postfix.out"))
	if err != nil {
		t.Fatal(err)
	}
	// -d: in the foreground. It dies with the test binary (the
	// parent-death signal); its daemons end when it does.
	cmd := exec.Command(filepath.Join(p.root, postfixMaster), "-c", p.conf, "-d")
	cmd.Env, cmd.Dir = p.env(), p.queue
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("stacktest: postfix: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		pid := cmd.Process.Pid
		syscall.Kill(pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(pid, syscall.SIGKILL)
			<-done
		}
		syscall.Kill(-pid, syscall.SIGTERM)
		waitGone(-pid)
		out.Close()
	})
	s.waitListening(s.SMTPAddr, "postfix.log")
}
