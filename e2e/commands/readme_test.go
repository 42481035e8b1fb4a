package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/mail/gpgtest"
)

// readmeBlock is the first ```sh block of README after the line holding
// marker.
func readmeBlock(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatalf("README has no %q", marker)
	}
	s = s[i:]
	start := strings.Index(s, "```sh\n")
	end := strings.Index(s[start+6:], "```")
	if start < 0 || end < 0 {
		t.Fatalf("README has no sh block after %q", marker)
	}
	return s[start+6 : start+6+end]
}

// README's key step, run as it stands (its paths moved into the test's
// directory, the key's owner this user): the host key is exported, and
// the revocation certificate gpg made with it is kept where the step says
// before the GnuPG home goes.
func TestREADMEKeyStepKeepsRevocation(t *testing.T) {
	gpgtest.New(t) // gpg is there, or the test says loudly that it skips
	root := t.TempDir()
	for _, d := range []string{"etc/skagerrak", "root", "work"} {
		os.MkdirAll(filepath.Join(root, d), 0o700)
	}
	script := strings.NewReplacer("/etc/skagerrak", root+"/etc/skagerrak", "/root/", root+"/root/", "chown skagerrak ", "chown $(id -u) ").
		Replace(readmeBlock(t, "**Make the host key**"))
	cmd := exec.Command("/bin/sh", "-ec", script)
	cmd.Dir = filepath.Join(root, "work")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + root}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("README's key step: %v\n%s\n%s", err, script, out)
	}
	rev, err := os.ReadFile(filepath.Join(root, "root", "host-key-revocation.asc"))
	if err != nil || !strings.Contains(string(rev), "revocation certificate") || !strings.Contains(string(rev), ":-----BEGIN PGP PUBLIC KEY BLOCK-----") {
		t.Fatalf("README's key step did not keep the revocation certificate: %v\n%s", err, rev)
	}
	if key, err := os.Stat(filepath.Join(root, "etc/skagerrak/host-key.asc")); err != nil || key.Mode().Perm() != 0o600 {
		t.Fatalf("host-key.asc: %v %v", key, err)
	}
}
