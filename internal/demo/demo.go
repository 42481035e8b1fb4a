// Package demo plays a whole game by real mail, in-process: an IMAP and an
// SMTP server on loopback, OpenPGP keys for the host and for scripted
// players, the host's daemon loop, and at the end a summary, the game's
// log verified and each player's receipts checked (skagerrak demo).
package demo

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/adjudicator/replaypage"
	"skagerrak/engine"
	"skagerrak/internal/receipts"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/loopback"
	"skagerrak/mail/smtpout"
)

// Options are what a demo plays and where it tells it.
type Options struct {
	// Out gets the summary; Logger (nil: none) the host's log.
	Out    io.Writer
	Logger *slog.Logger
	// Dir holds the game, keys and mail ("": a new temporary directory,
	// kept).
	Dir string
	// Ruleset is the ruleset played; MaxPasses how many mailbox passes
	// the demo makes at most.
	Ruleset   string
	MaxPasses int
	// Software names this build, for the game's log.
	Software string
}

const (
	demoGame     = "demo-1"
	demoHostAddr = "host@skagerrak.test"
	demoPassword = "demo"
)

// demoPlayer is a scripted player with its own key and mailbox.
type demoPlayer struct {
	side    engine.Side
	addr    string
	key     *openpgp.Entity
	forms   int
	signed  time.Time // when the player last signed
	final   bool
	ordered map[string]bool
	// mailDir keeps every mail the player received; received counts them.
	mailDir  string
	received int
}

// Run plays the demo game to its end and checks it.
func Run(ctx context.Context, o Options) error {
	started := time.Now()
	d, err := newDemo(o)
	if err != nil {
		return err
	}
	defer d.close()
	if err := d.startServers(); err != nil {
		return err
	}
	spec, err := d.makeKeys()
	if err != nil {
		return err
	}
	if err := d.openHost(ctx, spec); err != nil {
		return err
	}
	if err := d.sendStray(); err != nil {
		return err
	}
	if err := d.play(ctx); err != nil {
		return err
	}
	d.host.Close()
	if err := d.summarise(); err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "took %s\n", time.Since(started).Round(10*time.Millisecond))
	return nil
}

// demo is one demo game as it is played: where it is kept, the loopback
// servers, the keys, the scripted players, the host and its mailbox.
type demo struct {
	o                    Options
	rs                   engine.Ruleset
	bot                  engine.Player
	dec                  engine.ViewDecoder
	dir, dataDir, keyDir string
	quiet                *slog.Logger
	imapSrv              *loopback.IMAPServer
	smtpSrv              *loopback.SMTPServer
	hostKey              *openpgp.Entity
	hostRing             openpgp.EntityList
	players              []*demoPlayer
	host                 *adjudicator.Host
	g                    *adjudicator.Game
	box                  *imapbox.Box
	sender               *wiring.Sender
	// closers close what was opened, last opened first.
	closers []func() error
	// total sums the host's passes; orders counts the players' order
	// mails; resolved counts the phases already told.
	total    adjudicator.Pass
	orders   int
	resolved int
}

// newDemo looks up the ruleset and its scripted player and makes the
// demo's directory (a new temporary one when none is given).
func newDemo(o Options) (*demo, error) {
	rs, err := engine.Lookup(o.Ruleset)
	if err != nil {
		return nil, err
	}
	bot, ok := rs.(engine.Player)
	dec, ok2 := rs.(engine.ViewDecoder)
	if !ok || !ok2 {
		return nil, fmt.Errorf("demo: ruleset %s has no scripted player", o.Ruleset)
	}
	d := &demo{o: o, rs: rs, bot: bot, dec: dec, dir: o.Dir, quiet: o.Logger}
	if d.dir == "" {
		if d.dir, err = os.MkdirTemp("", "skagerrak-demo-"); err != nil {
			return nil, err
		}
	}
	d.dataDir = filepath.Join(d.dir, "games")
	if _, err := os.Stat(filepath.Join(d.dataDir, demoGame)); err == nil {
		return nil, fmt.Errorf("demo: %s already holds a demo game; give another --dir", d.dir)
	}
	d.keyDir = filepath.Join(d.dir, "keys")
	if err := os.MkdirAll(d.keyDir, 0o700); err != nil {
		return nil, err
	}
	if d.quiet == nil {
		d.quiet = slog.New(slog.DiscardHandler)
	}
	return d, nil
}

// close closes what the demo opened, last opened first.
func (d *demo) close() {
	for i := len(d.closers) - 1; i >= 0; i-- {
		d.closers[i]()
	}
}

// startServers starts the loopback IMAP and SMTP servers and says where
// they listen.
func (d *demo) startServers() error {
	imapSrv, err := loopback.StartIMAP(loopback.IMAPOptions{Users: []loopback.IMAPUser{{Username: demoHostAddr, Password: demoPassword}}})
	if err != nil {
		return err
	}
	d.imapSrv = imapSrv
	d.closers = append(d.closers, imapSrv.Close)
	smtpSrv, err := loopback.StartSMTP(loopback.SMTPOptions{})
	if err != nil {
		return err
	}
	d.smtpSrv = smtpSrv
	d.closers = append(d.closers, smtpSrv.Close)
	fmt.Fprintf(d.o.Out, "skagerrak demo: %s by mail (IMAP %s, SMTP %s)\n", d.rs.Title(), imapSrv.Addr(), smtpSrv.Addr())
	return nil
}

// makeKeys makes and saves the host's key and each scripted player's, and
// returns the game's spec naming the players.
func (d *demo) makeKeys() (adjudicator.Spec, error) {
	spec := adjudicator.Spec{Game: demoGame, Ruleset: d.o.Ruleset, HostFrom: demoHostAddr, Software: d.o.Software, GameIDs: true,
		Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour), Reminder: adjudicator.Duration(12 * time.Hour), FlagAfter: 2, PauseLimit: 1}}
	now := time.Now().UTC()
	hostKey, err := compose.GenerateKey("skagerrak host", demoHostAddr, now.Add(-time.Minute))
	if err != nil {
		return spec, err
	}
	if err := saveKey(d.keyDir, "host", hostKey); err != nil {
		return spec, err
	}
	d.hostKey, d.hostRing = hostKey, openpgp.EntityList{hostKey}
	for _, side := range d.rs.Sides() {
		pl, entry, err := d.newPlayer(side, now)
		if err != nil {
			return spec, err
		}
		d.players = append(d.players, pl)
		spec.Players = append(spec.Players, entry)
	}
	return spec, nil
}

// newPlayer makes a scripted player for a side: its key (saved) and its
// mail folder, and its entry in the game's spec.
func (d *demo) newPlayer(side engine.Side, now time.Time) (*demoPlayer, adjudicator.Player, error) {
	addr := string(side) + "@players.test"
	k, err := compose.GenerateKey("scripted "+string(side), addr, now.Add(-time.Minute))
	if err != nil {
		return nil, adjudicator.Player{}, err
	}
	if err := saveKey(d.keyDir, string(side), k); err != nil {
		return nil, adjudicator.Player{}, err
	}
	pub, err := compose.ArmorPublicKey(k)
	if err != nil {
		return nil, adjudicator.Player{}, err
	}
	mailDir := filepath.Join(d.dir, "mail", string(side))
	if err := os.MkdirAll(mailDir, 0o755); err != nil {
		return nil, adjudicator.Player{}, err
	}
	pl := &demoPlayer{side: side, addr: addr, key: k, ordered: map[string]bool{}, mailDir: mailDir}
	return pl, adjudicator.Player{Side: side, Address: addr, Key: string(pub), Fingerprint: compose.Fingerprint(k)}, nil
}

// openHost opens the host, creates the game, and connects the host's
// mailbox and its mail sender.
func (d *demo) openHost(ctx context.Context, spec adjudicator.Spec) error {
	h, err := adjudicator.OpenHost(d.dataDir, adjudicator.Options{Verifier: wiring.Verifier{}, Logger: d.quiet, Replay: replaypage.Make})
	if err != nil {
		return err
	}
	d.host = h
	d.closers = append(d.closers, h.Close)
	if d.g, err = h.Create(spec); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(d.dataDir, ".imap"), 0o700); err != nil {
		return err
	}
	box, err := imapbox.Open(ctx, imapbox.Config{Addr: d.imapSrv.Addr(), Username: demoHostAddr, Password: demoPassword, TLS: imapbox.TLSNone,
		StateDir: filepath.Join(d.dataDir, ".imap"), Logger: d.quiet})
	if err != nil {
		return err
	}
	d.box = box
	d.closers = append(d.closers, box.Close)
	ss, err := smtpout.New(smtpout.Config{Addr: d.smtpSrv.Addr(), TLS: smtpout.TLSNone, From: demoHostAddr, Logger: d.quiet})
	if err != nil {
		return err
	}
	autocrypt, err := compose.AutocryptKeydata(d.hostKey)
	if err != nil {
		return err
	}
	d.sender = &wiring.Sender{Via: ss, From: demoHostAddr, Host: d.hostKey, Clock: func() time.Time { return time.Now().UTC() }, Autocrypt: autocrypt}
	return nil
}

// sendStray puts one unsigned message in the host's inbox, as a careless
// player would send: it must be rejected without a reply.
func (d *demo) sendStray() error {
	first := d.players[0]
	stray := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: orders\r\nMessage-ID: <stray@players.test>\r\n\r\nGame: %s\r\nPhase: %s\r\nSide: %s\r\n", first.addr, demoHostAddr, demoGame, d.g.Opened.Phase, first.side)
	_, err := d.imapSrv.Append(demoHostAddr, "INBOX", []byte(stray))
	return err
}

// play makes mailbox passes until the game is over and every player has
// its final report, within MaxPasses, and gives up when nothing moves
// for four passes in a row.
func (d *demo) play(ctx context.Context) error {
	idle := 0
	for pass := 0; ; pass++ {
		if pass >= d.o.MaxPasses {
			return fmt.Errorf("demo: no end after %d passes (phase %v)", pass, d.g.Opened)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		busy, err := d.pass(ctx)
		if err != nil {
			return err
		}
		if d.over() {
			return nil
		}
		if busy {
			idle = 0
			continue
		}
		idle++
		if idle > 3 {
			return fmt.Errorf("demo: the game is stuck in phase %v", d.g.Opened)
		}
	}
}

// pass makes one host pass over the mailbox, tells the phases it
// resolved, and lets each player answer its new mail. It reports whether
// any mail moved.
func (d *demo) pass(ctx context.Context) (bool, error) {
	p, err := d.host.PollOnce(ctx, wiring.Inbox{Box: d.box}, d.sender)
	if err != nil {
		return false, err
	}
	d.total.Messages += p.Messages
	d.total.Accepted += p.Accepted
	d.total.Rejected += p.Rejected
	d.total.Sent += p.Sent
	if p.Failures > 0 {
		return false, fmt.Errorf("demo: %d failures in a pass", p.Failures)
	}
	d.tellResolved()
	sent := 0
	for _, pl := range d.players {
		n, err := pl.readAndAnswer(d.smtpSrv, d.imapSrv, d.hostRing, d.dec, d.bot)
		if err != nil {
			return false, fmt.Errorf("demo: %s: %w", pl.side, err)
		}
		sent += n
	}
	d.orders += sent
	return sent != 0 || p.Messages != 0 || p.Sent != 0, nil
}

// tellResolved prints a line for each phase resolved since the last call.
func (d *demo) tellResolved() {
	for d.g.Resolved > d.resolved {
		r := d.g.History[d.resolved]
		fmt.Fprintf(d.o.Out, "  %-14s resolved (%s), %s rolled\n", r.Phase, r.Why, counted(len(r.Rolls), "die", "dice"))
		d.resolved++
	}
}

// over is whether the game has ended and every player has its final report.
func (d *demo) over() bool {
	done := d.g.Ended != nil
	for _, pl := range d.players {
		done = done && pl.final
	}
	return done
}

// summarise tells how the game ended and what passed, verifies the game's
// log and checks each player's receipts against it.
func (d *demo) summarise() error {
	out, g := d.o.Out, d.g
	gameDir := filepath.Join(d.dataDir, demoGame)
	fmt.Fprintf(out, "\ngame over: %s\n", adjudicator.EndedText(g.Ended.Why))
	if g.Ended.Result != nil {
		fmt.Fprintf(out, "result: %s\n", g.Ended.Result.Summary)
	}
	fmt.Fprintf(out, "%s resolved; %s to the host (%s from the players, and the unsigned one): %d accepted, %d rejected; %s sent by the host\n",
		count(g.Resolved, "phase"), count(d.total.Messages, "message"), count(d.orders, "order mail"), d.total.Accepted, d.total.Rejected, count(d.total.Sent, "mail"))
	fmt.Fprintf(out, "game directory: %s\n", gameDir)
	fmt.Fprintf(out, "the players' mail (reports, maps, replies): %s\n", filepath.Join(d.dir, "mail"))
	rep, err := adjudicator.VerifyPath(gameDir, wiring.Verifier{})
	if err != nil {
		return fmt.Errorf("demo: verify: %w", err)
	}
	fmt.Fprintf(out, "verify: intact: %s, %s and %s checked\n", count(int(rep.Events), "event"), count(rep.Signatures, "signature"), count(rep.Rolls, "dice roll"))
	if err := demoReceipts(out, rep.Path, d.players, d.hostRing); err != nil {
		return err
	}
	fmt.Fprintf(out, "check it yourself: go run ./cmd/skagerrak verify %s --host-key %s --receipts %s\n", gameDir, filepath.Join(d.keyDir, "host.asc"), filepath.Join(d.dir, "mail"))
	return nil
}

// demoReceipts checks the receipts each scripted player kept (every mail it
// got, saved as .eml) against the game's final log, as a player would.
func demoReceipts(out io.Writer, logPath string, players []*demoPlayer, host openpgp.EntityList) error {
	var parts []string
	for _, p := range players {
		k, c, err := receipts.Check(logPath, []string{p.mailDir}, host, nil)
		if err != nil {
			return err
		}
		if !c.OK() || len(k.Bad) > 0 || len(k.Refused) > 0 || c.Checked == 0 {
			receipts.Print(out, logPath, []string{p.mailDir}, k, c)
			return fmt.Errorf("demo: the receipts %s kept do not all match the log", p.side)
		}
		parts = append(parts, fmt.Sprintf("%s %d (%d of its accepted orders)", p.side, c.Checked, c.Orders))
	}
	fmt.Fprintf(out, "receipts: the host-signed receipts each player kept all match the final log: %s\n", strings.Join(parts, ", "))
	return nil
}

// readAndAnswer reads the player's new mail and answers each report that
// asks for its orders. It returns the number of order mails sent.
func (p *demoPlayer) readAndAnswer(smtpSrv *loopback.SMTPServer, imapSrv *loopback.IMAPServer, hostRing openpgp.EntityList, dec engine.ViewDecoder, bot engine.Player) (int, error) {
	sent := 0
	for _, d := range smtpSrv.Take(p.addr) {
		rep, err := compose.ReadReport(d.Data, hostRing, p.key, time.Now().UTC())
		if err != nil {
			return sent, fmt.Errorf("a mail from the host does not verify: %w", err)
		}
		if err := p.keep(d.Data, rep); err != nil {
			return sent, err
		}
		if strings.Contains(rep.Text, "final report") {
			p.final = true
			continue
		}
		var js []byte
		for _, a := range rep.Attachments {
			if a.Name == "report.json" {
				js = a.Data
			}
		}
		if js == nil {
			continue // a reply or a notice
		}
		var r struct {
			GameID string                   `json:"game_id"`
			Next   *adjudicator.PhaseOpened `json:"next"`
			View   json.RawMessage          `json:"view"`
		}
		if err := json.Unmarshal(js, &r); err != nil {
			return sent, fmt.Errorf("report.json: %w", err)
		}
		if r.Next == nil || p.ordered[r.Next.Phase] || !owes(r.Next.Owes, p.side) {
			continue
		}
		v, err := dec.DecodeView(r.View)
		if err != nil {
			return sent, fmt.Errorf("report.json view: %w", err)
		}
		seed := sha256.Sum256([]byte(string(p.side) + "|" + r.Next.Phase))
		body := bot.Play(v, p.side, engine.NewSeededDice(seed[:], demoGame, r.Next.Phase, [32]byte{}))
		text := fmt.Sprintf("Game: %s\nGame-Id: %s\nPhase: %s\nSide: %s\n%s", demoGame, r.GameID, r.Next.Phase, p.side, body)
		raw, err := p.sign(text)
		if err != nil {
			return sent, err
		}
		if _, err := imapSrv.Append(demoHostAddr, "INBOX", raw); err != nil {
			return sent, err
		}
		p.ordered[r.Next.Phase] = true
		sent++
	}
	return sent, nil
}

// keep files a received mail and its attachments under the player's
// mail folder, so that the reports can be read after the demo.
func (p *demoPlayer) keep(raw []byte, rep *compose.Report) error {
	p.received++
	base := filepath.Join(p.mailDir, fmt.Sprintf("%03d", p.received))
	if err := os.WriteFile(base+".eml", raw, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(base+".txt", []byte(rep.Text), 0o644); err != nil {
		return err
	}
	for _, a := range rep.Attachments {
		if a.Name == "map.png" || a.Name == "report.json" || a.Name == adjudicator.ReplayName(demoGame) {
			if err := os.WriteFile(base+"-"+a.Name, a.Data, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// sign signs an order file in each of the three accepted forms in turn.
// A key's messages count in the order they were signed, to the second, and
// the demo plays faster than that: each signature is made at least a
// second after the player's last (a few minutes ahead of the clock at
// most, within what the host allows).
func (p *demoPlayer) sign(text string) ([]byte, error) {
	at := time.Now().UTC().Truncate(time.Second)
	if !at.After(p.signed) {
		at = p.signed.Add(time.Second)
	}
	p.signed = at
	subj := "orders"
	p.forms++
	switch p.forms % 3 {
	case 0:
		return compose.SignCleartextMail(p.key, p.addr, demoHostAddr, subj, text, at)
	case 1:
		return compose.SignPGPMIMEMail(p.key, p.addr, demoHostAddr, subj, text, at)
	default:
		return compose.SignDetachedMail(p.key, p.addr, demoHostAddr, subj, "orders.txt", text, at)
	}
}

func owes(ss []engine.Side, s engine.Side) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// saveKey writes a key pair as NAME.asc (public) and NAME.key (private).
func saveKey(dir, name string, e *openpgp.Entity) error {
	pub, err := compose.ArmorPublicKey(e)
	if err != nil {
		return err
	}
	priv, err := compose.ArmorPrivateKey(e)
	if err != nil {
		return err
	}
	return errors.Join(os.WriteFile(filepath.Join(dir, name+".asc"), pub, 0o644), os.WriteFile(filepath.Join(dir, name+".key"), priv, 0o600))
}

// count is n and the noun, plural unless n is 1: "1 phase", "9 phases".
func count(n int, noun string) string { return counted(n, noun, noun+"s") }

// counted is n with the noun's singular or plural: "1 die", "2 dice".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
