package stacktest

import (
	"os"
	"path/filepath"
	"testing"

	"skagerrak/mail/gpgtest"
)

// Host is skagerrak's side of a stack: the game's mailbox, the host key
// (made with gpg, as README's "Hosting a game" has a host make it) and a
// configuration that reads that mailbox over IMAP and sends through the
// stack's MTA, both on loopback without TLS.
type Host struct {
	// Addr is the game's address; FPR the host key's fingerprint.
	Addr, FPR string
	// Dir holds the key files and the games (Dir/games); Config is the
	// configuration file.
	Dir, Config string
}

// NewHost makes the host for the user local (a user given to Start), with
// the players importing its public key, and sets the mailbox's password in
// SKAGERRAK_IMAP_PASSWORD for the test.
func (s *Stack) NewHost(t *testing.T, local string, players ...*Player) *Host {
	t.Helper()
	h := &Host{Addr: local + "@" + s.Domain, Dir: t.TempDir()}
	g := gpgtest.New(t)
	h.FPR = g.GenKey("Skagerrak host <"+h.Addr+">", "ed25519", "sign", "never")
	key := filepath.Join(h.Dir, "host-key.asc")
	write0600(t, key, g.ExportSecret(h.FPR))
	for _, p := range players {
		p.GPG.Import(g.ExportPublic(h.FPR))
	}
	h.Config = filepath.Join(h.Dir, "skagerrak.yaml")
	write0600(t, h.Config, []byte("data_dir: "+h.Dir+"/games\npoll_interval: 1s\nhost_key: "+key+"\n"+
		"imap:\n  addr: "+s.IMAPAddr+"\n  username: "+h.Addr+"\n  tls: none\n"+
		"smtp:\n  addr: "+s.SMTPAddr+"\n  tls: none\n  from: "+h.Addr+"\n"))
	t.Setenv("SKAGERRAK_IMAP_PASSWORD", s.Password(h.Addr))
	return h
}

// KeyFile writes a player's public key where `new --side` can read it and
// returns its path.
func (h *Host) KeyFile(t testing.TB, p *Player) string {
	t.Helper()
	path := filepath.Join(h.Dir, p.Addr+".asc")
	write0600(t, path, p.PublicKey())
	return path
}

func write0600(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
