package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/mail/stacktest"
)

// interopHost is the skagerrak host of an interop test (its key, its
// configuration on the stack: stacktest.Host) with the command line run
// as that host.
type interopHost struct {
	*stacktest.Host
	t *testing.T
}

// hostOn is the host h of the test t.
func hostOn(t *testing.T, h *stacktest.Host) *interopHost { return &interopHost{Host: h, t: t} }

// keyFile writes an armored key as Dir/NAME.asc and returns its path.
func (h *interopHost) keyFile(name string, armored []byte) string {
	p := filepath.Join(h.Dir, name+".asc")
	if err := os.WriteFile(p, armored, 0o600); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// party is what new takes after "--side SIDE=" or "--referee": the
// player's address and a file of their public key.
func (h *interopHost) party(p *stacktest.Player) string {
	return p.Addr + "," + h.KeyFile(h.t, p)
}

// try runs skagerrak with the host's configuration: its exit status and
// what it printed.
func (h *interopHost) try(args ...string) (int, string) {
	h.t.Helper()
	code, out, errs := run(h.t, append([]string{"--config", h.Config}, args...)...)
	return code, out + errs
}

// cli runs skagerrak with the host's configuration and returns its
// output; a non-zero exit fails the test.
func (h *interopHost) cli(args ...string) string {
	h.t.Helper()
	code, out, errs := run(h.t, append([]string{"--config", h.Config}, args...)...)
	if code != 0 {
		h.t.Fatalf("skagerrak %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// game is the directory of one of the host's games.
func (h *interopHost) game(id string) string { return filepath.Join(h.Dir, "games", id) }
