package stacktest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Mutt writes and signs a mail with stock mutt (`mutt -n`: no system
// configuration) driven through tmux, and returns the message mutt hands
// to its sendmail. Its configuration is mutt's defaults but for what
// signing needs: PGP/MIME through GPGME, sign every mail (crypt_autosign)
// with the player's key, a sendmail that captures the message, and an
// editor that leaves the prepared body as it is ("touch": it must look
// edited, or mutt aborts the unmodified message). So mutt's send_charset
// (us-ascii:iso-8859-1:utf-8) applies: text with umlauts goes out as
// ISO-8859-1. attach lists files to attach (mutt recodes text attachments
// to its send charset too).
func (p *Player) Mutt(t testing.TB, to, subject, body string, attach ...string) []byte {
	t.Helper()
	return p.MuttWith(t, MuttOptions{}, to, subject, body, attach...)
}

// MuttOptions are the settings a player may add to mutt's.
type MuttOptions struct {
	// Encrypt sets crypt_autoencrypt: mutt encrypts every mail to its
	// recipients' keys (the player's GnuPG must hold the recipient's key
	// with full validity: see TrustKey), signing it too.
	Encrypt bool
}

// MuttWith is Mutt with more settings.
func (p *Player) MuttWith(t testing.TB, o MuttOptions, to, subject, body string, attach ...string) []byte {
	t.Helper()
	Require(t, "mutt", "tmux")
	dir, err := os.MkdirTemp("", "mutt")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sent := filepath.Join(dir, "sent.eml")
	write(t, filepath.Join(dir, "sendmail"), "#!/bin/sh\ncat > "+sent+".part && mv "+sent+".part "+sent+"\n")
	os.Chmod(filepath.Join(dir, "sendmail"), 0o755)
	write(t, filepath.Join(dir, "body.txt"), body)
	write(t, filepath.Join(dir, "muttrc"), fmt.Sprintf(`set crypt_use_gpgme = yes
set crypt_autosign = yes
set pgp_sign_as = "%[1]s"
set pgp_default_key = "%[1]s"
set sendmail = "%[2]s/sendmail"
set editor = "touch"
set from = "%[3]s <%[4]s>"
set use_from = yes
set record = ""
set folder = "%[2]s"
set spoolfile = "%[2]s"
`, p.FPR, dir, p.Name, p.Addr)+map[bool]string{true: "set crypt_autoencrypt = yes\n"}[o.Encrypt])
	args := []string{"mutt", "-n", "-F", quote(filepath.Join(dir, "muttrc")), "-s", quote(subject), "-i", quote(filepath.Join(dir, "body.txt"))}
	if len(attach) > 0 {
		args = append(args, "-a")
		for _, a := range attach {
			args = append(args, quote(a))
		}
		args = append(args, "--")
	}
	args = append(args, to)
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(a ...string) ([]byte, error) {
		return exec.Command("tmux", append([]string{"-S", sock}, a...)...).CombinedOutput()
	}
	shell := "env GNUPGHOME=" + p.GPG.Home + " LANG=C.UTF-8 LC_ALL=C.UTF-8 " + strings.Join(args, " ")
	// tmux's server leaves the test's process tree: its session ends by
	// itself within two minutes (and the server with it) even if the test
	// dies before kill-server.
	bounded := "timeout -k 5 120 sh -c " + quote(shell+"; sleep 30")
	if out, err := tmux("new-session", "-d", "-x", "200", "-y", "50", bounded); err != nil {
		t.Fatalf("stacktest: tmux: %v\n%s", err, out)
	}
	defer tmux("kill-server")
	screen := ""
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(screen, "y:Send") || !strings.Contains(screen, "Sign") {
		if time.Now().After(deadline) {
			t.Fatalf("stacktest: mutt's compose menu did not come up:\n%s", screen)
		}
		time.Sleep(100 * time.Millisecond)
		out, _ := tmux("capture-pane", "-p")
		screen = string(out)
		// mutt asks for the recipients and the subject it was given on
		// its command line, filled in: confirm them as they are.
		if last := lastLine(screen); strings.HasPrefix(last, "To: ") || strings.HasPrefix(last, "Subject: ") || strings.HasPrefix(last, "Cc: ") || strings.HasPrefix(last, "Bcc: ") {
			tmux("send-keys", "Enter")
			time.Sleep(200 * time.Millisecond)
		}
	}
	if out, err := tmux("send-keys", "y"); err != nil {
		t.Fatalf("stacktest: tmux send-keys: %v\n%s", err, out)
	}
	for {
		if b, err := os.ReadFile(sent); err == nil {
			return b
		}
		if time.Now().After(deadline) {
			out, _ := tmux("capture-pane", "-p")
			t.Fatalf("stacktest: mutt sent nothing:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// lastLine is the last line of a screen that is not blank.
func lastLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, " \n"), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// quote makes an argument safe for the shell tmux runs.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
