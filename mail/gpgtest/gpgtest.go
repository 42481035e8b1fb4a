// Package gpgtest drives a real GnuPG in a throwaway GNUPGHOME so that the
// tests of mail/verify, mail/compose and the command line check signatures
// made by the tool players actually use. It is for tests only.
package gpgtest

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

var (
	installOnce sync.Once
	gpgPath     string
)

// find locates gpg, trying `apt-get install -y gnupg` once per process when
// it is missing.
func find() string {
	installOnce.Do(func() {
		if p, err := exec.LookPath("gpg"); err == nil {
			gpgPath = p
			return
		}
		if _, err := exec.LookPath("apt-get"); err == nil {
			_ = exec.Command("apt-get", "install", "-y", "gnupg").Run()
		}
		if p, err := exec.LookPath("gpg"); err == nil {
			gpgPath = p
		}
	})
	return gpgPath
}

// GPG is one throwaway GnuPG home.
type GPG struct {
	t    testing.TB
	bin  string
	Home string
}

// New creates a GnuPG home that is removed (and its agent stopped) when the
// test ends. Without gpg the test is skipped with a loud message.
func New(t testing.TB) *GPG {
	t.Helper()
	bin := find()
	if bin == "" {
		t.Skip("!!! GnuPG (gpg) is not installed and `apt-get install -y gnupg` failed: " +
			"the tests against real GnuPG signatures are SKIPPED !!!")
	}
	// A short path: gpg-agent's socket path must stay under ~100 bytes.
	home, err := os.MkdirTemp("", "gpgt")
	if err != nil {
		t.Fatalf("gpgtest: %v", err)
	}
	g := &GPG{t: t, bin: bin, Home: home}
	t.Cleanup(func() {
		cmd := exec.Command("gpgconf", "--kill", "gpg-agent")
		cmd.Env = append(os.Environ(), "GNUPGHOME="+home)
		_ = cmd.Run()
		_ = os.RemoveAll(home)
	})
	return g
}

var (
	sharedMu   sync.Mutex
	sharedHome string
)

// Shared returns a GnuPG home shared by the whole test binary (key generation
// is slow), bound to t for failures. Call CloseShared from TestMain after
// m.Run. Without gpg the test is skipped with a loud message.
func Shared(t testing.TB) *GPG {
	t.Helper()
	bin := find()
	if bin == "" {
		t.Skip("!!! GnuPG (gpg) is not installed and `apt-get install -y gnupg` failed: " +
			"the tests against real GnuPG signatures are SKIPPED !!!")
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedHome == "" {
		home, err := os.MkdirTemp("", "gpgs")
		if err != nil {
			t.Fatalf("gpgtest: %v", err)
		}
		sharedHome = home
	}
	return &GPG{t: t, bin: bin, Home: sharedHome}
}

// CloseShared stops the shared home's agent and removes the home.
func CloseShared() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedHome == "" {
		return
	}
	cmd := exec.Command("gpgconf", "--kill", "gpg-agent")
	cmd.Env = append(os.Environ(), "GNUPGHOME="+sharedHome)
	_ = cmd.Run()
	_ = os.RemoveAll(sharedHome)
	sharedHome = ""
}

// Run runs gpg in batch mode with stdin and returns stdout; a failure fails
// the test.
func (g *GPG) Run(stdin []byte, args ...string) []byte {
	g.t.Helper()
	out, err := g.TryRun(stdin, args...)
	if err != nil {
		g.t.Fatalf("gpgtest: gpg %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// TryRun is Run returning the error (with gpg's stderr) instead of failing.
func (g *GPG) TryRun(stdin []byte, args ...string) ([]byte, error) {
	full := append([]string{"--batch", "--yes", "--no-tty", "--pinentry-mode", "loopback", "--passphrase", ""}, args...)
	cmd := exec.Command(g.bin, full...)
	cmd.Env = append(os.Environ(), "GNUPGHOME="+g.Home, "LC_ALL=C")
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, &runError{err: err, stderr: stderr.String()}
	}
	return stdout.Bytes(), nil
}

type runError struct {
	err    error
	stderr string
}

func (e *runError) Error() string { return e.err.Error() + ": " + strings.TrimSpace(e.stderr) }

// GenKey generates a key for uid ("Name <a@b>") with the given algorithm
// (ed25519, rsa3072, rsa1024...), usage and expiry ("1d", "never"), and
// returns its primary fingerprint. extra arguments go before the command
// (e.g. --faked-system-time).
func (g *GPG) GenKey(uid, algo, usage, expire string, extra ...string) string {
	g.t.Helper()
	args := append(append([]string{}, extra...), "--quick-gen-key", uid, algo, usage, expire)
	g.Run(nil, args...)
	return g.Fingerprint(uid)
}

// Fingerprint returns the primary key fingerprint of uid.
func (g *GPG) Fingerprint(uid string) string {
	g.t.Helper()
	out := g.Run(nil, "--with-colons", "--fingerprint", uid)
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Split(line, ":")
		if len(f) > 9 && f[0] == "fpr" {
			return f[9]
		}
	}
	g.t.Fatalf("gpgtest: no fingerprint for %q", uid)
	return ""
}

// ExportPublic returns the armored public key of uid.
func (g *GPG) ExportPublic(uid string) []byte {
	g.t.Helper()
	return g.Run(nil, "--armor", "--export", uid)
}

// ExportSecret returns the armored secret key of uid.
func (g *GPG) ExportSecret(uid string) []byte {
	g.t.Helper()
	return g.Run(nil, "--armor", "--export-secret-keys", uid)
}

// Import imports armored key material.
func (g *GPG) Import(armored []byte) {
	g.t.Helper()
	g.Run(armored, "--import")
}

// Clearsign returns `gpg --clearsign` of text by uid.
func (g *GPG) Clearsign(uid string, text []byte, extra ...string) []byte {
	g.t.Helper()
	args := append(append([]string{"--local-user", uid}, extra...), "--clearsign")
	return g.Run(text, args...)
}

// DetachSign returns `gpg --detach-sign` of data by uid, armored if asked.
func (g *GPG) DetachSign(uid string, data []byte, armor bool, extra ...string) []byte {
	g.t.Helper()
	args := append([]string{"--local-user", uid}, extra...)
	if armor {
		args = append(args, "--armor")
	}
	args = append(args, "--detach-sign")
	return g.Run(data, args...)
}

// Verify runs `gpg --verify` on a detached signature over data, for
// round-trip checks of signatures made by go-crypto.
func (g *GPG) Verify(sig, data []byte) error {
	dir := g.t.TempDir()
	sp, dp := dir+"/d.sig", dir+"/d"
	if err := os.WriteFile(sp, sig, 0o600); err != nil {
		return err
	}
	if err := os.WriteFile(dp, data, 0o600); err != nil {
		return err
	}
	_, err := g.TryRun(nil, "--verify", sp, dp)
	return err
}
