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
	dir, rulesetName, maxPasses := o.Dir, o.Ruleset, o.MaxPasses
	rs, err := engine.Lookup(rulesetName)
	if err != nil {
		return err
	}
	bot, ok := rs.(engine.Player)
	dec, ok2 := rs.(engine.ViewDecoder)
	if !ok || !ok2 {
		return fmt.Errorf("demo: ruleset %s has no scripted player", rulesetName)
	}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "skagerrak-demo-"); err != nil {
			return err
		}
	}
	dataDir := filepath.Join(dir, "games")
	if _, err := os.Stat(filepath.Join(dataDir, demoGame)); err == nil {
		return fmt.Errorf("demo: %s already holds a demo game; give another --dir", dir)
	}
	keyDir := filepath.Join(dir, "keys")
	if err := os.MkdirAll(keyDir, 0o700); err != nil {
		return err
	}
	quiet := o.Logger
	if quiet == nil {
		quiet = slog.New(slog.DiscardHandler)
	}
	imapSrv, err := loopback.StartIMAP(loopback.IMAPOptions{Users: []loopback.IMAPUser{{Username: demoHostAddr, Password: demoPassword}}})
	if err != nil {
		return err
	}
	defer imapSrv.Close()
	smtpSrv, err := loopback.StartSMTP(loopback.SMTPOptions{})
	if err != nil {
		return err
	}
	defer smtpSrv.Close()
	fmt.Fprintf(o.Out, "skagerrak demo: %s by mail (IMAP %s, SMTP %s)\n", rs.Title(), imapSrv.Addr(), smtpSrv.Addr())

	now := time.Now().UTC()
	hostKey, err := compose.GenerateKey("skagerrak host", demoHostAddr, now.Add(-time.Minute))
	if err != nil {
		return err
	}
	if err := saveKey(keyDir, "host", hostKey); err != nil {
		return err
	}
	hostRing := openpgp.EntityList{hostKey}
	var players []*demoPlayer
	spec := adjudicator.Spec{Game: demoGame, Ruleset: rulesetName, HostFrom: demoHostAddr, Software: o.Software, GameIDs: true,
		Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour), Reminder: adjudicator.Duration(12 * time.Hour), FlagAfter: 2, PauseLimit: 1}}
	for _, side := range rs.Sides() {
		addr := string(side) + "@players.test"
		k, err := compose.GenerateKey("scripted "+string(side), addr, now.Add(-time.Minute))
		if err != nil {
			return err
		}
		if err := saveKey(keyDir, string(side), k); err != nil {
			return err
		}
		pub, err := compose.ArmorPublicKey(k)
		if err != nil {
			return err
		}
		mailDir := filepath.Join(dir, "mail", string(side))
		if err := os.MkdirAll(mailDir, 0o755); err != nil {
			return err
		}
		players = append(players, &demoPlayer{side: side, addr: addr, key: k, ordered: map[string]bool{}, mailDir: mailDir})
		spec.Players = append(spec.Players, adjudicator.Player{Side: side, Address: addr, Key: string(pub), Fingerprint: compose.Fingerprint(k)})
	}

	h, err := adjudicator.OpenHost(dataDir, adjudicator.Options{Verifier: wiring.Verifier{}, Logger: quiet})
	if err != nil {
		return err
	}
	defer h.Close()
	g, err := h.Create(spec)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dataDir, ".imap"), 0o700); err != nil {
		return err
	}
	box, err := imapbox.Open(ctx, imapbox.Config{Addr: imapSrv.Addr(), Username: demoHostAddr, Password: demoPassword, TLS: imapbox.TLSNone,
		StateDir: filepath.Join(dataDir, ".imap"), Logger: quiet})
	if err != nil {
		return err
	}
	defer box.Close()
	ss, err := smtpout.New(smtpout.Config{Addr: smtpSrv.Addr(), TLS: smtpout.TLSNone, From: demoHostAddr, Logger: quiet})
	if err != nil {
		return err
	}
	autocrypt, err := compose.AutocryptKeydata(hostKey)
	if err != nil {
		return err
	}
	sender := &wiring.Sender{Via: ss, From: demoHostAddr, Host: hostKey, Clock: func() time.Time { return time.Now().UTC() }, Autocrypt: autocrypt}

	// One unsigned message, as a careless player would send: it must be
	// rejected without a reply.
	stray := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: orders\r\nMessage-ID: <stray@players.test>\r\n\r\nGame: %s\r\nPhase: %s\r\nSide: %s\r\n", players[0].addr, demoHostAddr, demoGame, g.Opened.Phase, players[0].side)
	if _, err := imapSrv.Append(demoHostAddr, "INBOX", []byte(stray)); err != nil {
		return err
	}

	var total adjudicator.Pass
	orders, lastResolved, idle := 0, 0, 0
	for pass := 0; ; pass++ {
		if pass >= maxPasses {
			return fmt.Errorf("demo: no end after %d passes (phase %v)", pass, g.Opened)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		p, err := h.PollOnce(ctx, wiring.Inbox{Box: box}, sender)
		if err != nil {
			return err
		}
		total.Messages += p.Messages
		total.Accepted += p.Accepted
		total.Rejected += p.Rejected
		total.Sent += p.Sent
		if p.Failures > 0 {
			return fmt.Errorf("demo: %d failures in a pass", p.Failures)
		}
		for g.Resolved > lastResolved {
			r := g.History[lastResolved]
			fmt.Fprintf(o.Out, "  %-14s resolved (%s), %s rolled\n", r.Phase, r.Why, counted(len(r.Rolls), "die", "dice"))
			lastResolved++
		}
		sent := 0
		for _, pl := range players {
			n, err := pl.readAndAnswer(smtpSrv, imapSrv, hostRing, dec, bot)
			if err != nil {
				return fmt.Errorf("demo: %s: %w", pl.side, err)
			}
			sent += n
		}
		orders += sent
		done := g.Ended != nil
		for _, pl := range players {
			done = done && pl.final
		}
		if done {
			break
		}
		if sent == 0 && p.Messages == 0 && p.Sent == 0 {
			idle++
			if idle > 3 {
				return fmt.Errorf("demo: the game is stuck in phase %v", g.Opened)
			}
		} else {
			idle = 0
		}
	}
	h.Close()
	gameDir := filepath.Join(dataDir, demoGame)
	fmt.Fprintf(o.Out, "\ngame over: %s\n", adjudicator.EndedText(g.Ended.Why))
	if g.Ended.Result != nil {
		fmt.Fprintf(o.Out, "result: %s\n", g.Ended.Result.Summary)
	}
	fmt.Fprintf(o.Out, "%s resolved; %s to the host (%s from the players, and the unsigned one): %d accepted, %d rejected; %s sent by the host\n",
		count(g.Resolved, "phase"), count(total.Messages, "message"), count(orders, "order mail"), total.Accepted, total.Rejected, count(total.Sent, "mail"))
	fmt.Fprintf(o.Out, "game directory: %s\n", gameDir)
	fmt.Fprintf(o.Out, "the players' mail (reports, maps, replies): %s\n", filepath.Join(dir, "mail"))
	rep, err := adjudicator.VerifyPath(gameDir, wiring.Verifier{})
	if err != nil {
		return fmt.Errorf("demo: verify: %w", err)
	}
	fmt.Fprintf(o.Out, "verify: intact: %s, %s and %s checked\n", count(int(rep.Events), "event"), count(rep.Signatures, "signature"), count(rep.Rolls, "dice roll"))
	if err := demoReceipts(o.Out, rep.Path, players, hostRing); err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "check it yourself: go run ./cmd/skagerrak verify %s --host-key %s --receipts %s\n", gameDir, filepath.Join(keyDir, "host.asc"), filepath.Join(dir, "mail"))
	fmt.Fprintf(o.Out, "took %s\n", time.Since(started).Round(10*time.Millisecond))
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
		if a.Name == "map.png" || a.Name == "report.json" {
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
