package bench

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"skagerrak/internal/daemontest"
	"skagerrak/internal/machinetest"
	"skagerrak/mail/stacktest"
)

// The benchmark's MTA as README starts it (opensmtpd-sink.sh) comes up and
// takes mail whatever state the machine's spool is in: here with
// /var/spool/smtpd at mode 0755, which a bare `smtpd -d -f` refuses
// ("error in spool directory setup"). The sink's configuration is run on a
// free port, so that it may run beside a benchmark; the machine's spool is
// put back as it was.
func TestBenchmarkSinkStarts(t *testing.T) {
	stacktest.Require(t, "smtpd", "unshare")
	if st, err := os.Stat("/var/spool/smtpd"); err == nil {
		defer os.Chmod("/var/spool/smtpd", st.Mode().Perm())
		os.Chmod("/var/spool/smtpd", 0o755)
	}
	conf, err := os.ReadFile("testdata/opensmtpd-sink.conf")
	if err != nil {
		t.Fatal(err)
	}
	addr := machinetest.ClosedAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	if !strings.Contains(string(conf), "port 2525") {
		t.Fatalf("the sink no longer listens on port 2525, as README's benchmark line says:\n%s", conf)
	}
	p := filepath.Join(t.TempDir(), "sink.conf")
	os.WriteFile(p, []byte(strings.Replace(string(conf), "port 2525", "port "+port, 1)), 0o644)
	var log daemontest.SyncBuffer
	cmd := exec.Command("testdata/opensmtpd-sink.sh", p)
	cmd.Stdout, cmd.Stderr = &log, &log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
	}()
	deadline := time.Now().Add(20 * time.Second)
	var c *smtp.Client
	for c == nil {
		if c, err = smtp.Dial(addr); err != nil && time.Now().After(deadline) {
			t.Fatalf("the sink never listened on %s: %v\n%s", addr, err, log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	defer c.Close()
	msg := "From: a@skagerrak.test\r\nTo: b@example.org\r\nSubject: sink\r\n\r\nsink\r\n"
	if err := c.SendMail("a@skagerrak.test", []string{"b@example.org"}, strings.NewReader(msg)); err != nil {
		t.Fatalf("the sink refused a message: %v\n%s", err, log.String())
	}
}
