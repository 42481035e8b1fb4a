// Package stacktest runs a real mail stack on loopback for the interop
// suite: Dovecot in its default Maildir layout from a private config file,
// OpenSMTPD (or Postfix: StartPostfix) delivering into it over LMTP, and
// players who read their mail over IMAP, check signatures with gpg and
// sign with stock mutt (driven through tmux) or gpg itself. It is for
// tests only.
//
// The suite needs root (Dovecot and OpenSMTPD drop to their own users) and
// the packages dovecot-imapd, dovecot-lmtpd, opensmtpd, mutt, tmux and
// gnupg. Outside CI a missing part skips the test with a loud message; with
// SKAGERRAK_INTEROP=1 in the environment (.ci/run sets it) it fails.
package stacktest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"skagerrak/config"
)

// EnvRequire is the environment variable that makes the suite mandatory.
const EnvRequire = "SKAGERRAK_INTEROP"

// Require skips t loudly, or fails it under EnvRequire, unless every tool
// is on PATH and the test runs as root.
func Require(t testing.TB, tools ...string) {
	t.Helper()
	// The daemons live in /usr/sbin, which a user's PATH may lack.
	if p := os.Getenv("PATH"); !strings.Contains(p, "/usr/sbin") {
		os.Setenv("PATH", p+":/usr/sbin:/sbin")
	}
	var missing []string
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if os.Geteuid() != 0 {
		missing = append(missing, "root")
	}
	if len(missing) == 0 {
		return
	}
	need(t, "the interop suite against Dovecot, OpenSMTPD, mutt and gpg needs "+strings.Join(missing, ", ")+
		" (apt-get install dovecot-imapd dovecot-lmtpd opensmtpd mutt tmux gnupg, as root)")
}

// need fails t under EnvRequire, and skips it loudly otherwise, saying
// what is missing.
func need(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv(EnvRequire) != "" {
		t.Fatal("!!! " + msg + ": " + EnvRequire + " is set, so it must run !!!")
	}
	t.Skip("!!! " + msg + ": SKIPPED !!!")
}

// Stack is a running Dovecot and OpenSMTPD for one mail domain.
type Stack struct {
	// Domain is the mail domain every user lives in.
	Domain string
	// IMAPAddr and SMTPAddr are the loopback addresses of Dovecot's IMAP
	// and OpenSMTPD's SMTP listeners.
	IMAPAddr, SMTPAddr string
	// Dir holds the configuration, the mail and the logs.
	Dir string

	t         testing.TB
	users     map[string]string // address -> password
	addresses []string          // every address OpenSMTPD takes, ghosts too
	cert, key string            // the TLS certificate and key (PEM files)
	dovecot   string            // config file
	smtpd     *exec.Cmd
	mtaLog    string   // the MTA's log in Dir: smtpd.log, postfix.log
	postfix   *postfix // Postfix's tree and queue, nil for OpenSMTPD

	dovecotCmd  *exec.Cmd     // Dovecot's master, nil while stopped
	dovecotDone chan struct{} // closed when it has exited
}

// Password returns the IMAP password of a user made by Start.
func (s *Stack) Password(addr string) string { return s.users[addr] }

// Start runs Dovecot with a Maildir mailbox (and IMAP password) for each
// local part in users, and OpenSMTPD accepting mail for the domain and
// delivering it over LMTP. Mail to the local parts in ghosts is accepted by
// OpenSMTPD but has no mailbox: Dovecot refuses it and OpenSMTPD, after its
// queue time of 4 s, bounces it to the sender with a DSN. Both servers stop
// when the test ends.
func Start(t testing.TB, domain string, users, ghosts []string) *Stack {
	t.Helper()
	Require(t, "dovecot", "smtpd")
	s := newStack(t, domain, users, ghosts)
	s.startDovecot()
	s.startSMTPD()
	return s
}

// newStack makes the stack's directory, its users' passwords and its
// certificate, and picks its ports; nothing runs yet.
func newStack(t testing.TB, domain string, users, ghosts []string) *Stack {
	t.Helper()
	dir, err := os.MkdirTemp("", "skagerrak-stack-")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("STACKTEST_KEEP") == "" {
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	// Dovecot's and the MTA's own users must reach what is in it.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Stack{Domain: domain, Dir: dir, t: t, users: map[string]string{}, mtaLog: "smtpd.log"}
	_, uid, gid := mailUser(t)
	for _, d := range []string{"base", "state", "mail"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Chown(filepath.Join(dir, "mail"), uid, gid)
	var passwd strings.Builder
	for i, u := range users {
		addr := u + "@" + domain
		pw := fmt.Sprintf("pw%d-%d", i, time.Now().UnixNano()%100000)
		s.users[addr] = pw
		s.addresses = append(s.addresses, addr)
		// As README has a host write it: the password hashed by doveadm.
		hash, err := exec.Command("doveadm", "-O", "pw", "-s", "SHA512-CRYPT", "-p", pw).Output()
		if err != nil {
			t.Fatalf("stacktest: doveadm pw: %v", err)
		}
		fmt.Fprintf(&passwd, "%s:%s::::::\n", addr, strings.TrimSpace(string(hash)))
	}
	for _, g := range ghosts {
		s.addresses = append(s.addresses, g+"@"+domain)
	}
	write(t, filepath.Join(dir, "users"), passwd.String())
	// root:dovecot 0640, as README has it.
	if g, err := user.LookupGroup("dovecot"); err == nil {
		gid, _ := strconv.Atoi(g.Gid)
		os.Chown(filepath.Join(dir, "users"), 0, gid)
		os.Chmod(filepath.Join(dir, "users"), 0o640)
	}
	s.cert, s.key = selfSigned(t, dir, "mail."+domain)
	s.IMAPAddr = freeAddr(t)
	s.SMTPAddr = freeAddr(t)
	return s
}

// mailUser is the system user that owns the mail (Debian's "mail"), in
// place of the host's vmail, which a test may not add to the machine.
func mailUser(t testing.TB) (string, int, int) {
	u, err := user.Lookup("mail")
	if err != nil {
		t.Fatalf("stacktest: no system user mail: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return u.Username, uid, gid
}

// server is the shipped configuration's fields for this stack: its
// paths, loopback and ports in place of a host's.
func (s *Stack) server() config.MailServer {
	name, uid, _ := mailUser(s.t)
	_, imapPort, _ := net.SplitHostPort(s.IMAPAddr)
	_, smtpPort, _ := net.SplitHostPort(s.SMTPAddr)
	return config.MailServer{
		Domain: s.Domain, Hostname: "mail." + s.Domain, Addresses: s.addresses,
		MailUser: name, MailGroup: name, MailUID: uid, MailDir: filepath.Join(s.Dir, "mail"),
		UsersFile: filepath.Join(s.Dir, "users"), TLSCert: s.cert, TLSKey: s.key,
		Listen: "127.0.0.1", IMAPPort: imapPort, IMAPSPort: "0", SMTPListen: "127.0.0.1", SMTPPort: smtpPort,
		BaseDir: filepath.Join(s.Dir, "base"), StateDir: filepath.Join(s.Dir, "state"), LogPath: filepath.Join(s.Dir, "dovecot.log"),
		QueueTTL: "4s", Postfix: s.postfix != nil, PostfixQueue: s.postfixQueue(),
	}
}

// render writes the shipped configuration name for this stack to file.
func (s *Stack) render(name, file string) string {
	path := filepath.Join(s.Dir, file)
	write(s.t, path, s.renderText(name))
	return path
}

// renderText is the shipped configuration name for this stack.
func (s *Stack) renderText(name string) string {
	text, err := config.MailServerConfig(name, s.server())
	if err != nil {
		s.t.Fatalf("stacktest: %v", err)
	}
	return text
}

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// freeAddr is a loopback address with a port nothing listens on.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startDovecot runs Dovecot from the shipped configuration (README, A
// mail server), with this stack's paths and port: a passwd-file of users,
// IMAP on a loopback port with STARTTLS on a self-signed certificate, and
// LMTP on a socket. mail_location is maildir:~/Maildir (Maildir++: the
// hierarchy delimiter is ".").
func (s *Stack) startDovecot() {
	t := s.t
	s.dovecot = s.render("dovecot", "dovecot.conf")
	s.StartDovecot()
	t.Cleanup(s.StopDovecot)
}

// StopDovecot stops Dovecot and every process of it, ending every IMAP
// session, and waits until they are gone (its master leads a process
// group of its own; the processes serving sessions may outlive the master
// by seconds otherwise). StartDovecot starts it again on the same address
// and mail.
func (s *Stack) StopDovecot() {
	if s.dovecotCmd == nil {
		return
	}
	pid := s.dovecotCmd.Process.Pid
	syscall.Kill(pid, syscall.SIGTERM)
	select {
	case <-s.dovecotDone:
	case <-time.After(10 * time.Second):
		syscall.Kill(pid, syscall.SIGKILL)
		<-s.dovecotDone
	}
	syscall.Kill(-pid, syscall.SIGTERM)
	waitGone(-pid)
	s.dovecotCmd, s.dovecotDone = nil, nil
}

// StartDovecot starts Dovecot (again, after StopDovecot) in the
// foreground, as a child that dies with the test binary (Linux's
// parent-death signal; its other processes end when their master does),
// so a test that panics or times out leaves no Dovecot behind.
func (s *Stack) StartDovecot() {
	s.t.Helper()
	out, err := os.OpenFile(filepath.Join(s.Dir, "dovecot.out"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command("dovecot", "-F", "-c", s.dovecot)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("stacktest: dovecot: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.dovecotCmd, s.dovecotDone = cmd, done
	s.waitListening(s.IMAPAddr, "dovecot.log")
}

// startSMTPD runs OpenSMTPD in the foreground from the shipped
// configuration (README, A mail server) with this stack's addresses and
// port, its queue's lifetime 4 s. Its control socket and
// queue have fixed paths (/run/smtpd.sock, /var/spool/smtpd), so where it
// can it runs in a mount namespace of its own with private ones, and any
// other OpenSMTPD on the machine is left alone.
func (s *Stack) startSMTPD() {
	t := s.t
	path := s.render("opensmtpd", "smtpd.conf")
	logf, err := os.Create(filepath.Join(s.Dir, "smtpd.log"))
	if err != nil {
		t.Fatal(err)
	}
	var cmd *exec.Cmd
	if _, err := exec.LookPath("unshare"); err == nil && exec.Command("unshare", "--mount", "true").Run() == nil {
		cmd = exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c",
			"mount -t tmpfs tmpfs /run && mkdir -p -m 0711 /var/spool/smtpd && mount -t tmpfs -o mode=0711 tmpfs /var/spool/smtpd && exec smtpd -d -f "+path)
	} else {
		cmd = exec.Command("smtpd", "-d", "-f", path)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	// It dies with the test binary (Linux's parent-death signal, kept
	// across unshare's and sh's exec), so a test that panics or times out
	// leaves no OpenSMTPD behind; its other processes end with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("stacktest: smtpd: %v", err)
	}
	s.smtpd = cmd
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
		logf.Close()
	})
	s.waitListening(s.SMTPAddr, "smtpd.log")
}

// waitListening waits until addr accepts connections.
func (s *Stack) waitListening(addr, logName string) {
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(s.Dir, logName))
			s.t.Fatalf("stacktest: nothing listens on %s: %v\n%s", addr, err, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func waitGone(pid int) {
	for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(50 * time.Millisecond)
	}
}

// MTALog returns the log of the stack's MTA (OpenSMTPD's or Postfix's)
// for failures.
func (s *Stack) MTALog() string { return s.Log(s.mtaLog) }

// Log returns a server's log ("dovecot.log", "smtpd.log", "postfix.log")
// for failures.
func (s *Stack) Log(name string) string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, name))
	return string(b)
}

// WaitFor polls cond until it holds or the context ends.
func WaitFor(ctx context.Context, cond func() bool) bool {
	for !cond() {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
	return true
}

// Count returns how many messages a user's folder holds, over IMAP; -1 if
// the folder is not there.
func (s *Stack) Count(t testing.TB, local, folder string) int {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr, nil)
	if err != nil {
		t.Fatalf("stacktest: imap: %v", err)
	}
	defer c.Close()
	addr := local + "@" + s.Domain
	if err := c.Login(addr, s.users[addr]).Wait(); err != nil {
		t.Fatalf("stacktest: imap login %s: %v", addr, err)
	}
	st, err := c.Status(folder, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil || st.NumMessages == nil {
		return -1
	}
	return int(*st.NumMessages)
}

// Deliver hands a raw message to OpenSMTPD for a local user, as any sender
// on the network would.
func (s *Stack) Deliver(t testing.TB, from, to string, raw []byte) {
	t.Helper()
	c, err := smtp.Dial(s.SMTPAddr)
	if err == nil {
		defer c.Close()
		err = c.SendMail(from, []string{to}, bytes.NewReader(raw))
	}
	if err != nil {
		t.Fatalf("stacktest: deliver to %s: %v", to, err)
	}
}

// DeliverLMTP hands a raw message straight to Dovecot's LMTP socket, past
// OpenSMTPD (which cuts a line at a NUL byte): for bytes only a local
// delivery keeps.
func (s *Stack) DeliverLMTP(t testing.TB, from, to string, raw []byte) {
	t.Helper()
	conn, err := net.Dial("unix", filepath.Join(s.Dir, "base", "lmtp"))
	if err != nil {
		t.Fatalf("stacktest: lmtp: %v", err)
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		t.Fatalf("stacktest: lmtp: %v", err)
	}
	if err := c.SendMail(from, []string{to}, bytes.NewReader(raw)); err != nil {
		t.Fatalf("stacktest: lmtp deliver to %s: %v", to, err)
	}
}

// DeliverMaildir puts a raw message straight into a user's Maildir INBOX
// (new/), as a local delivery agent does, with no server running needed:
// mail that reached the host while its IMAP service was down. Its file
// time, which Dovecot takes for the message's INTERNALDATE, is at. The
// Maildir must exist (Dovecot makes it at the first login).
func (s *Stack) DeliverMaildir(t testing.TB, local string, raw []byte, at time.Time) {
	t.Helper()
	md := filepath.Join(s.Dir, "mail", local, "Maildir")
	name := fmt.Sprintf("%d.M%dP%d.stacktest", at.Unix(), at.Nanosecond()/1000, os.Getpid())
	tmp := filepath.Join(md, "tmp", name)
	if err := os.WriteFile(tmp, raw, 0o600); err != nil {
		t.Fatalf("stacktest: maildir delivery: %v", err)
	}
	_, uid, gid := mailUser(t)
	os.Chown(tmp, uid, gid)
	if err := os.Chtimes(tmp, at, at); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(md, "new", name)); err != nil {
		t.Fatalf("stacktest: maildir delivery: %v", err)
	}
}
