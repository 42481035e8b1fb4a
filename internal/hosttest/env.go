// Package hosttest is the fixture of the end-to-end tests of a host's
// mail: games of racetest whose players have real keys, a host key, and
// loopback IMAP and SMTP servers (go-imap's and go-smtp's) the host is
// wired to as the daemon wires it (Env.Open), or as an operator configures
// the binary for them (Env.Config). The servers stop when the test ends,
// failed or not.
package hosttest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/internal/machinetest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/loopback"
	"skagerrak/mail/smtpout"
)

// HostAddr is the host's address: its IMAP user and its mail's From.
const HostAddr = "host@skagerrak.test"

// The folders the box makes by default on go-imap's in-memory server,
// whose hierarchy delimiter is "/".
const (
	DefaultProcessed = "skagerrak/processed"
	DefaultRejected  = "skagerrak/rejected"
)

// Env is a host wired to real loopback IMAP and SMTP servers, with real
// keys, as the daemon is wired.
type Env struct {
	Dir     string
	IMAP    *loopback.IMAPServer
	SMTP    *loopback.SMTPServer
	HostKey *openpgp.Entity
	Players map[string]*openpgp.Entity // by address
	signed  map[string]time.Time       // when each address last signed
}

// New makes an Env with games games of racetest (CreateGames).
func New(t testing.TB, games int) *Env {
	t.Helper()
	return NewWith(t, games, loopback.IMAPOptions{})
}

// NewWith is New with the IMAP server's options.
func NewWith(t testing.TB, games int, opts loopback.IMAPOptions) *Env {
	t.Helper()
	e := &Env{Dir: t.TempDir(), Players: map[string]*openpgp.Entity{}, signed: map[string]time.Time{}}
	var err error
	opts.Users = append(opts.Users, loopback.IMAPUser{Username: HostAddr, Password: "pw"})
	if e.IMAP, err = loopback.StartIMAP(opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.IMAP.Close() })
	if e.SMTP, err = loopback.StartSMTP(loopback.SMTPOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.SMTP.Close() })
	now := time.Now().UTC().Add(-time.Hour)
	if e.HostKey, err = compose.GenerateKey("host", HostAddr, now); err != nil {
		t.Fatal(err)
	}
	h, err := adjudicator.OpenHost(e.DataDir(), adjudicator.Options{Verifier: wiring.Verifier{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	e.CreateGames(t, h, games)
	return e
}

// DataDir is the host's data directory.
func (e *Env) DataDir() string { return filepath.Join(e.Dir, "games") }

// Open opens the host and its mail as `skagerrak poll` does (the same
// verifier and triage of automatic mail).
func (e *Env) Open(t testing.TB) (*adjudicator.Host, *imapbox.Box, *wiring.Sender) {
	t.Helper()
	h, err := adjudicator.OpenHost(e.DataDir(), adjudicator.Options{Verifier: wiring.Verifier{}, Triage: wiring.Triage{}})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(e.DataDir(), ".imap"), 0o700)
	box, err := imapbox.Open(context.Background(), imapbox.Config{Addr: e.IMAP.Addr(), Username: HostAddr, Password: "pw", TLS: imapbox.TLSNone, StateDir: filepath.Join(e.DataDir(), ".imap"), MaxFetch: 500})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := smtpout.New(smtpout.Config{Addr: e.SMTP.Addr(), TLS: smtpout.TLSNone, From: HostAddr})
	if err != nil {
		t.Fatal(err)
	}
	return h, box, &wiring.Sender{Via: ss, From: HostAddr, Host: e.HostKey, Clock: func() time.Time { return time.Now().UTC() }}
}

// RetryingSMTP is a sender to the env's SMTP server that retries a 4xx
// at once (no real backoff in tests).
func (e *Env) RetryingSMTP() (*smtpout.Sender, error) {
	return smtpout.New(smtpout.Config{Addr: e.SMTP.Addr(), TLS: smtpout.TLSNone, From: HostAddr, MaxAttempts: 3,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
}

// Config writes a configuration file for the env's loopback servers, as
// an operator would, with the password in the environment, and returns
// its path.
func (e *Env) Config(t *testing.T) string {
	t.Helper()
	priv, err := compose.ArmorPrivateKey(e.HostKey)
	if err != nil {
		t.Fatal(err)
	}
	keyPath := filepath.Join(e.Dir, "host.key")
	os.WriteFile(keyPath, priv, 0o600)
	cfg := fmt.Sprintf(`data_dir: %s
poll_interval: 200ms
host_key: %s
imap:
  addr: %s
  username: %s
  tls: none
smtp:
  addr: %s
  tls: none
  from: %s
`, e.DataDir(), keyPath, e.IMAP.Addr(), HostAddr, e.SMTP.Addr(), HostAddr)
	p := filepath.Join(e.Dir, "skagerrak.yaml")
	os.WriteFile(p, []byte(cfg), 0o600)
	t.Setenv("SKAGERRAK_IMAP_PASSWORD", "pw")
	return p
}

// CreateGames makes n games of racetest (g000...), each side played by a
// player of its own with a fresh key: the games of New.
func (e *Env) CreateGames(t testing.TB, h *adjudicator.Host, n int) {
	t.Helper()
	e.CreateGamesDue(t, h, n, 48*time.Hour)
}

// CreateGamesDue is CreateGames with the phases' deadline.
func (e *Env) CreateGamesDue(t testing.TB, h *adjudicator.Host, n int, deadline time.Duration) {
	t.Helper()
	now := time.Now().UTC().Add(-time.Hour)
	for i := 0; i < n; i++ {
		spec := adjudicator.Spec{Game: fmt.Sprintf("g%03d", i), Ruleset: "racetest", HostFrom: HostAddr,
			Timing: adjudicator.Timing{Deadline: adjudicator.Duration(deadline)}}
		for _, side := range []string{"allied", "german"} {
			addr := fmt.Sprintf("%s-%d@players.test", side, i)
			k, err := compose.GenerateKey(side, addr, now)
			if err != nil {
				t.Fatal(err)
			}
			pub, _ := compose.ArmorPublicKey(k)
			e.Players[addr] = k
			spec.Players = append(spec.Players, adjudicator.Player{Side: engine.Side(side), Address: addr, Key: string(pub), Fingerprint: compose.Fingerprint(k)})
		}
		if _, err := h.Create(spec); err != nil {
			t.Fatal(err)
		}
	}
}

// Order mails a signed order file of a player into the host's INBOX.
func (e *Env) Order(t testing.TB, game int, side, phase, body string) {
	t.Helper()
	addr := fmt.Sprintf("%s-%d@players.test", side, game)
	text := fmt.Sprintf("Game: g%03d\nPhase: %s\nSide: %s\n%s\n", game, phase, side, body)
	raw, err := compose.SignPGPMIMEMail(e.Players[addr], addr, HostAddr, "orders", text, e.SignAt(addr))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.IMAP.Append(HostAddr, "INBOX", raw); err != nil {
		t.Fatal(err)
	}
}

// SignAt is when an address signs its next message: now, or a second
// after its last (a key's messages count in the order signed, to the
// second, and a test sends faster than that).
func (e *Env) SignAt(addr string) time.Time {
	at := time.Now().UTC().Truncate(time.Second)
	if e.signed == nil {
		e.signed = map[string]time.Time{}
	}
	if last, ok := e.signed[addr]; ok && !at.After(last) {
		at = last.Add(time.Second)
	}
	e.signed[addr] = at
	return at
}

// Deliver puts a raw mail in the host's INBOX.
func (e *Env) Deliver(t testing.TB, raw []byte) {
	t.Helper()
	if _, err := e.IMAP.Append(HostAddr, "INBOX", raw); err != nil {
		t.Fatal(err)
	}
}

// Count is how many messages a folder of the host's mailbox holds.
func (e *Env) Count(t testing.TB, folder string) int {
	t.Helper()
	ms, err := e.IMAP.Messages(HostAddr, folder)
	if err != nil {
		return 0
	}
	return len(ms)
}

// CountEvents is how many events of type typ a game's log holds.
func (e *Env) CountEvents(t testing.TB, game, typ string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.DataDir(), game, adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), `"type":"`+typ+`"`)
}

// LoadGame loads a game of the host from its log.
func (e *Env) LoadGame(id string) (*adjudicator.Game, error) {
	return adjudicator.LoadGame(filepath.Join(e.DataDir(), id))
}

// ReplyText is the text of the last mail sent to addr, unwrapped.
func (e *Env) ReplyText(t testing.TB, addr string) string {
	t.Helper()
	got := e.SMTP.Take(addr)
	if len(got) == 0 {
		t.Fatalf("no mail to %s", addr)
	}
	r, err := compose.ReadReport(got[len(got)-1].Data, openpgp.EntityList{e.HostKey}, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(r.Text), " ")
}

// MessageID is the Message-ID of a raw mail ("" if it has none).
func MessageID(raw []byte) string {
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(strings.ToLower(l), "message-id:") {
			return strings.TrimSpace(l[len("message-id:"):])
		}
	}
	return ""
}

// CheckedInLogs is the directory of the finished games kept for every
// ruleset revision (cmd/skagerrak/testdata/logs).
func CheckedInLogs(t testing.TB) string {
	return filepath.Join(machinetest.ModuleRoot(t), "cmd", "skagerrak", "testdata", "logs")
}
