package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// config mailserver fills in the host's names: the domain and the game's
// address from smtp.from, the mail's owner; what it prints is what
// doveconf and smtpd accept as it stands (where they are installed: the
// interop suite runs these same files). A name it does not know is
// answered with the names it knows; a mail owner that does not exist with
// how to make it.
func TestConfigMailServerFillsInTheHost(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "skagerrak.yaml")
	os.WriteFile(cfg, []byte("smtp:\n  from: referee@games.example.net\n"), 0o600)
	code, dovecot, errs := run(t, "--config", cfg, "config", "mailserver", "dovecot", "--mail-user", "mail")
	if code != 0 {
		t.Fatalf("config mailserver dovecot: %d %s", code, errs)
	}
	for _, want := range []string{"#   referee@games.example.net:{SHA512-CRYPT}", "default_fields = uid=mail gid=mail home=/var/mail/skagerrak/%n", "ssl_cert = </etc/ssl/certs/ssl-cert-snakeoil.pem", "first_valid_uid = 8"} {
		if !strings.Contains(dovecot, want) {
			t.Errorf("dovecot.conf lacks %q:\n%s", want, dovecot)
		}
	}
	code, smtpd, errs := run(t, "--config", cfg, "config", "mailserver", "opensmtpd", "--mail-user", "mail", "--address", "referee@games.example.net", "--address", "postmaster@games.example.net")
	if code != 0 {
		t.Fatalf("config mailserver opensmtpd: %d %s", code, errs)
	}
	for _, want := range []string{`table vusers { "referee@games.example.net" = "mail", "postmaster@games.example.net" = "mail" }`, `match from any for domain "games.example.net" action "mailbox"`, `lmtp "/run/dovecot/lmtp"`} {
		if !strings.Contains(smtpd, want) {
			t.Errorf("smtpd.conf lacks %q:\n%s", want, smtpd)
		}
	}
	_, withPostfix, _ := run(t, "--config", cfg, "config", "mailserver", "dovecot", "--mail-user", "mail", "--postfix")
	if !strings.Contains(withPostfix, "unix_listener /var/spool/postfix/private/dovecot-lmtp {") {
		t.Errorf("dovecot.conf --postfix has no LMTP socket in Postfix's chroot:\n%s", withPostfix)
	}
	if _, err := exec.LookPath("doveconf"); err == nil {
		for _, conf := range []string{dovecot, withPostfix} {
			p := filepath.Join(dir, "dovecot.conf")
			os.WriteFile(p, []byte(conf), 0o644)
			if out, err := exec.Command("doveconf", "-n", "-c", p).CombinedOutput(); err != nil {
				t.Errorf("doveconf -n refuses the printed dovecot.conf: %v\n%s\n%s", err, out, conf)
			}
		}
	}
	if smtpdBin, err := exec.LookPath("smtpd"); err == nil || fileExists("/usr/sbin/smtpd") {
		if smtpdBin == "" {
			smtpdBin = "/usr/sbin/smtpd"
		}
		p := filepath.Join(dir, "smtpd.conf")
		os.WriteFile(p, []byte(smtpd), 0o644)
		if out, err := exec.Command(smtpdBin, "-n", "-f", p).CombinedOutput(); err != nil {
			t.Errorf("smtpd -n refuses the printed smtpd.conf: %v\n%s", err, out)
		}
	}
	if code, _, errs := run(t, "config", "mailserver", "exim", "--domain", "example.org"); code == 0 || !strings.Contains(errs, `no configuration "exim"; there are: dovecot, opensmtpd, postfix`) {
		t.Errorf("an unknown server: %d %s", code, errs)
	}
	if code, _, errs := run(t, "config", "mailserver", "dovecot", "--domain", "example.org", "--mail-user", "no-such-vmail"); code == 0 || !strings.Contains(errs, "useradd --system") {
		t.Errorf("a mail owner that does not exist: %d %s", code, errs)
	}
	if code, _, errs := run(t, "config", "mailserver", "postfix"); code == 0 || !strings.Contains(errs, "--domain") {
		t.Errorf("no domain: %d %s", code, errs)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
