package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/mail/gpgtest"
	"skagerrak/mail/stacktest"
)

// interopHost is the skagerrak host of an interop test on a stack: its key
// made and exported with gpg as README's "Hosting a game" says, and its
// configuration (the games under Dir, a pass every second, the stack's
// IMAP and SMTP without TLS, the IMAP password in the environment).
type interopHost struct {
	t *testing.T
	// Addr is the host's address, FPR its key's fingerprint, Pub the
	// armored public key the players import.
	Addr, FPR string
	Pub       []byte
	// GPG holds the host's secret key.
	GPG *gpgtest.GPG
	// Dir holds the key files and the games (Dir/games); Config is the
	// configuration file.
	Dir, Config string
}

// newInteropHost makes the host host@DOMAIN of the stack s, whose users
// include "host". With encrypting, its key has an encryption subkey, for
// players who encrypt their orders.
func newInteropHost(t *testing.T, s *stacktest.Stack, encrypting bool) *interopHost {
	t.Helper()
	h := &interopHost{t: t, Addr: "host@" + s.Domain, GPG: gpgtest.New(t), Dir: t.TempDir()}
	h.FPR = h.GPG.GenKey("Skagerrak host <"+h.Addr+">", "ed25519", "sign", "never")
	if encrypting {
		h.GPG.Run(nil, "--quick-add-key", h.FPR, "cv25519", "encr", "never")
	}
	h.Pub = h.GPG.ExportPublic(h.FPR)
	keyPath := h.keyFile("host-key", h.GPG.ExportSecret(h.FPR))
	h.Config = filepath.Join(h.Dir, "skagerrak.yaml")
	writeFile(t, h.Config, "data_dir: "+h.Dir+"/games\npoll_interval: 1s\nhost_key: "+keyPath+"\n"+
		"imap:\n  addr: "+s.IMAPAddr+"\n  username: "+h.Addr+"\n  tls: none\n"+
		"smtp:\n  addr: "+s.SMTPAddr+"\n  tls: none\n  from: "+h.Addr+"\n")
	t.Setenv("SKAGERRAK_IMAP_PASSWORD", s.Password(h.Addr))
	return h
}

// keyFile writes an armored key as Dir/NAME.asc and returns its path.
func (h *interopHost) keyFile(name string, armored []byte) string {
	p := filepath.Join(h.Dir, name+".asc")
	writeFile(h.t, p, string(armored))
	return p
}

// party is what new takes after "--side SIDE=" or "--referee": the
// player's address and a file of their public key.
func (h *interopHost) party(p *stacktest.Player) string {
	return p.Addr + "," + h.keyFile(p.Addr, p.PublicKey())
}

// introduce has each player import the host's public key.
func (h *interopHost) introduce(ps ...*stacktest.Player) {
	for _, p := range ps {
		p.GPG.Import(h.Pub)
	}
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

// writeFile writes a file only its owner may read, failing the test if it
// cannot.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}
