package receipts

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/events"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/receipts"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/loopback"
	"skagerrak/mail/smtpout"
)

// stepClock is a host clock the test sets.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *stepClock) Set(t time.Time)     { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func (c *stepClock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

var receiptStart = time.Date(2026, 1, 10, 10, 0, 0, 0, time.UTC)

// receiptWorld is a race game's players and host key: real keys, the
// host's mail signed by the real sender over a real SMTP server.
type receiptWorld struct {
	host    *openpgp.Entity
	players map[engine.Side]*openpgp.Entity
	spec    adjudicator.Spec
	dir     string
	// signed is when each player last signed (a key's messages count in
	// the order they were signed, to the second).
	signed map[engine.Side]time.Time
}

func newReceiptWorld(t testing.TB, encrypt bool) *receiptWorld {
	t.Helper()
	w := &receiptWorld{players: map[engine.Side]*openpgp.Entity{}, dir: t.TempDir(), signed: map[engine.Side]time.Time{}}
	var err error
	if w.host, err = compose.GenerateKey("host", hosttest.HostAddr, receiptStart.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	w.spec = adjudicator.Spec{Game: "r1", Ruleset: "racetest", HostFrom: hosttest.HostAddr, Encrypt: encrypt,
		Timing: adjudicator.Timing{Deadline: adjudicator.Duration(5 * time.Minute)}}
	for _, side := range []engine.Side{"allied", "german"} {
		addr := string(side) + "@players.test"
		k, err := compose.GenerateKey(string(side), addr, receiptStart.Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := compose.ArmorPublicKey(k)
		w.players[side] = k
		w.spec.Players = append(w.spec.Players, adjudicator.Player{Side: side, Address: addr, Key: string(pub), Fingerprint: compose.Fingerprint(k)})
	}
	return w
}

// hostKeyFile writes the host's public key, as a player keeps it.
func (w *receiptWorld) hostKeyFile(t testing.TB) string {
	t.Helper()
	pub, err := compose.ArmorPublicKey(w.host)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(w.dir, "host.asc")
	if err := os.WriteFile(p, pub, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// order is a player's signed order mail, signed at clk's time (at least a
// second after the player's last).
func (w *receiptWorld) order(t testing.TB, clk *stepClock, side engine.Side, phase string, n int) []byte {
	t.Helper()
	at := clk.Now()
	if !at.After(w.signed[side]) {
		at = w.signed[side].Add(time.Second)
	}
	w.signed[side] = at
	text := fmt.Sprintf("Game: r1\nPhase: %s\nSide: %s\nadvance %d\n", phase, side, n)
	raw, err := compose.SignPGPMIMEMail(w.players[side], string(side)+"@players.test", hosttest.HostAddr, "orders", text, at)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// receiptHost is one host of the world's game (a cheating host keeps two),
// with its own log, clock and SMTP server.
type receiptHost struct {
	w      *receiptWorld
	h      *adjudicator.Host
	clk    *stepClock
	smtp   *loopback.SMTPServer
	sender *wiring.Sender
	dir    string
}

// newHost creates the game on a new host: the same spec, dice secret and
// clock give the same first records on every host.
func (w *receiptWorld) newHost(t testing.TB, name string) *receiptHost {
	t.Helper()
	return w.newHostWith(t, name, 7, receiptStart)
}

// newHostWith creates the game on a new host whose dice secret is 32
// octets of secret, at the time start.
func (w *receiptWorld) newHostWith(t testing.TB, name string, secret byte, start time.Time) *receiptHost {
	t.Helper()
	rh := &receiptHost{w: w, clk: &stepClock{t: start}, dir: filepath.Join(w.dir, name)}
	var err error
	if rh.smtp, err = loopback.StartSMTP(loopback.SMTPOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rh.smtp.Close() })
	ss, err := smtpout.New(smtpout.Config{Addr: rh.smtp.Addr(), TLS: smtpout.TLSNone, From: hosttest.HostAddr})
	if err != nil {
		t.Fatal(err)
	}
	rh.sender = &wiring.Sender{Via: ss, From: hosttest.HostAddr, Host: w.host, Clock: rh.clk.Now}
	rh.h, err = adjudicator.OpenHost(rh.dir, adjudicator.Options{Clock: rh.clk, Verifier: wiring.Verifier{}, Entropy: bytes.NewReader(bytes.Repeat([]byte{secret}, 32))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rh.h.Close() })
	if _, err := rh.h.Create(w.spec); err != nil {
		t.Fatal(err)
	}
	return rh
}

// playToEnd plays the host's game to its end: each phase, both sides'
// orders (advance 2), ten seconds apart; with boxes, every mail to a side
// is saved in its box as it goes.
func (rh *receiptHost) playToEnd(t testing.TB, boxes map[engine.Side]*savedBox) {
	t.Helper()
	for phase := 1; rh.game().Ended == nil; phase++ {
		for _, side := range []engine.Side{"allied", "german"} {
			rh.clk.Add(10 * time.Second)
			rh.receive(t, rh.clk.Now(), rh.w.order(t, rh.clk, side, fmt.Sprintf("T%02d", phase), 2))
			for _, s := range []engine.Side{"allied", "german"} {
				if box, ok := boxes[s]; ok {
					rh.deliver(t, s, box)
				}
			}
		}
	}
}

func (rh *receiptHost) game() *adjudicator.Game {
	g, _ := rh.h.Game("r1")
	return g
}

func (rh *receiptHost) logPath() string { return filepath.Join(rh.dir, "r1", adjudicator.LogFile) }

// receive takes one mail at time at and sends what it leads to.
func (rh *receiptHost) receive(t testing.TB, at time.Time, raw []byte) adjudicator.Receipt {
	t.Helper()
	rh.clk.Set(at)
	r, err := rh.h.Receive(raw)
	if err != nil {
		t.Fatal(err)
	}
	rh.flush(t)
	return r
}

func (rh *receiptHost) flush(t testing.TB) {
	t.Helper()
	if _, err := rh.h.Flush(context.Background(), rh.sender); err != nil {
		t.Fatal(err)
	}
}

// deliver files the mail this host sent a side since the last call into
// the side's saved mail, one .eml per mail, as a mail client saves it.
func (rh *receiptHost) deliver(t testing.TB, side engine.Side, box *savedBox) {
	t.Helper()
	for _, d := range rh.smtp.Take(string(side) + "@players.test") {
		box.add(t, d.Data)
	}
}

// savedBox is one player's saved mail, as .eml files in a folder.
type savedBox struct {
	dir  string
	mail [][]byte
}

func newSavedBox(t testing.TB, dir string) *savedBox {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &savedBox{dir: dir}
}

func (b *savedBox) add(t testing.TB, raw []byte) {
	t.Helper()
	b.mail = append(b.mail, raw)
	if err := os.WriteFile(filepath.Join(b.dir, fmt.Sprintf("%03d.eml", len(b.mail))), raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// input is a mail the host received, and when.
type input struct {
	at   time.Time
	side engine.Side
	raw  []byte
}

// verifyOut runs `skagerrak verify` and returns its exit status and output.
func verifyOut(t *testing.T, args ...string) (int, string) {
	t.Helper()
	code, out, errs := run(t, append([]string{"verify"}, args...)...)
	return code, out + errs
}

// recordOf finds the seq of the first record of a type whose data holds s.
func recordOf(t testing.TB, logPath, typ, s string) uint64 {
	t.Helper()
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for ev, err := range events.NewReader(f, logPath).All() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == typ && strings.Contains(string(ev.Data), s) {
			return ev.Seq
		}
	}
	t.Fatalf("no %s holding %q in %s", typ, s, logPath)
	return 0
}

// droppedOrders plays a game whose host accepts german's orders for T02
// and tells german so, then drops them: it plays the game again from
// every message it got but that one, so that its log is chained and
// replays consistently (german "missed" T02 and played its default
// orders), and goes on from there to the end. It returns the rewritten
// log, german's saved mail, the receipt of the dropped orders and the
// record the honest log held them at.
func droppedOrders(t testing.TB, w *receiptWorld) (string, *savedBox, adjudicator.HeldReceipt, uint64) {
	t.Helper()
	boxes := map[engine.Side]*savedBox{}
	for _, s := range []engine.Side{"allied", "german"} {
		boxes[s] = newSavedBox(t, filepath.Join(w.dir, "mail", string(s)))
	}
	honest := w.newHost(t, "honest")
	var inputs []input
	for phase := 1; phase <= 2; phase++ {
		for _, side := range []engine.Side{"allied", "german"} {
			honest.clk.Add(10 * time.Second)
			in := input{at: honest.clk.Now(), side: side, raw: w.order(t, honest.clk, side, fmt.Sprintf("T%02d", phase), 2)}
			if r := honest.receive(t, in.at, in.raw); r.Status != adjudicator.StatusAccepted {
				t.Fatalf("%s T%02d: %+v", side, phase, r)
			}
			inputs = append(inputs, in)
			for _, s := range []engine.Side{"allied", "german"} {
				honest.deliver(t, s, boxes[s])
			}
		}
	}
	inputs = inputs[:len(inputs)-1] // german's T02 orders, the last
	victim := lastOrdersReceipt(t, w, boxes["german"])
	if victim.Phase != "T02" || victim.Side != "german" {
		t.Fatalf("german's last receipt: %+v", victim)
	}
	dropped := recordOf(t, honest.logPath(), adjudicator.EvOrdersAccepted, victim.Message)

	// The rewrite: the same game from every message but german's T02
	// orders; T02 resolves at its deadline with german defaulted.
	cheat := w.newHost(t, "cheat")
	for _, in := range inputs {
		cheat.receive(t, in.at, in.raw)
	}
	cheat.smtp.Take("allied@players.test") // what the players already have
	cheat.smtp.Take("german@players.test")
	cheat.clk.Set(cheat.game().Opened.Deadline)
	if _, err := cheat.h.Tick(); err != nil {
		t.Fatal(err)
	}
	cheat.flush(t)
	if g := cheat.game(); len(g.History) != 2 || len(g.History[1].Defaulted) != 1 || g.History[1].Defaulted[0] != "german" {
		t.Fatalf("the rewritten T02 does not default german: %+v", g.History)
	}
	// The game goes on, on the rewritten log, to its end.
	for phase := 3; cheat.game().Ended == nil; phase++ {
		for _, side := range []engine.Side{"allied", "german"} {
			cheat.deliver(t, side, boxes[side])
			cheat.clk.Add(10 * time.Second)
			cheat.receive(t, cheat.clk.Now(), w.order(t, cheat.clk, side, fmt.Sprintf("T%02d", phase), 3))
		}
	}
	for _, s := range []engine.Side{"allied", "german"} {
		cheat.deliver(t, s, boxes[s])
	}
	return cheat.logPath(), boxes["german"], victim, dropped
}

// A host that drops accepted orders and re-chains its log consistently
// passes verify; with the victim's saved mail, verify names the orders.
func TestHostDroppingAcceptedOrdersIsCaughtByTheVictimsReceipts(t *testing.T) {
	w := newReceiptWorld(t, false)
	hostKey := w.hostKeyFile(t)
	log, box, victim, dropped := droppedOrders(t, w)
	if code, out := verifyOut(t, log); code != 0 {
		t.Fatalf("the rewritten log does not verify alone (a rewrite that consistent must): %s", out)
	}
	code, out := verifyOut(t, log, "--host-key", hostKey, "--receipts", box.dir)
	want := fmt.Sprintf("DOES NOT MATCH: german's orders for T02 (message %s, accepted as record %d)", victim.Message, dropped)
	if code == 0 || !strings.Contains(out, want) || !strings.Contains(out, "the accepted orders were dropped") {
		t.Fatalf("verify with the victim's receipts: exit %d, want a failure naming %q:\n%s", code, want, out)
	}
	if !strings.Contains(out, fmt.Sprintf("not from record %d on", dropped)) {
		t.Errorf("verify does not say the log departs at the dropped record %d:\n%s", dropped, out)
	}
	t.Log(out)
}

// lastOrdersReceipt is the receipt of the last acceptance reply a
// player saved.
func lastOrdersReceipt(t testing.TB, w *receiptWorld, box *savedBox) adjudicator.HeldReceipt {
	t.Helper()
	k, err := receipts.Read([]string{box.dir}, openpgp.EntityList{w.host}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(k.Held) - 1; i >= 0; i-- {
		if k.Held[i].Kind == adjudicator.ReceiptOrders {
			return k.Held[i]
		}
	}
	t.Fatal("no acceptance reply saved")
	return adjudicator.HeldReceipt{}
}

// firstDifference is the first seq where two logs hold different records.
func firstDifference(t testing.TB, a, b string) uint64 {
	t.Helper()
	read := func(p string) []string {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var hs []string
		for ev, err := range events.NewReader(f, p).All() {
			if err != nil {
				t.Fatal(err)
			}
			hs = append(hs, ev.Hash)
		}
		return hs
	}
	ha, hb := read(a), read(b)
	for i := 0; i < len(ha) && i < len(hb); i++ {
		if ha[i] != hb[i] {
			return uint64(i + 1)
		}
	}
	t.Fatal("the logs do not differ")
	return 0
}

var departsRE = regexp.MustCompile(`up to record (\d+) and not from record (\d+) on`)

// A host keeps two logs from phase T03 on: in allied's, allied's second
// T03 orders replace its first; in german's, the host never got them.
// Each side gets its reports from its own log, and every later message
// goes into both. Each log verifies alone, and against its own side's
// receipts; with both sides' receipts verify names where they fork.
func TestForkedLogsAreCaughtByBothSidesReceipts(t *testing.T) {
	w := newReceiptWorld(t, false)
	hostKey := w.hostKeyFile(t)
	a, b := w.newHost(t, "for-allied"), w.newHost(t, "for-german")
	boxes := map[engine.Side]*savedBox{}
	for _, s := range []engine.Side{"allied", "german"} {
		boxes[s] = newSavedBox(t, filepath.Join(w.dir, "mail", string(s)))
	}
	forked := false
	clk := &stepClock{t: receiptStart}
	send := func(side engine.Side, phase, n int, onlyA bool) {
		clk.Add(10 * time.Second)
		raw := w.order(t, clk, side, fmt.Sprintf("T%02d", phase), n)
		for _, rh := range []*receiptHost{a, b} {
			if rh == b && onlyA {
				continue
			}
			rh.receive(t, clk.Now(), raw)
		}
		for _, s := range []engine.Side{"allied", "german"} {
			from, other := a, b
			if forked && s == "german" {
				from, other = b, a
			}
			from.deliver(t, s, boxes[s])
			other.smtp.Take(string(s) + "@players.test")
		}
	}
	for phase := 1; phase <= 2; phase++ {
		send("allied", phase, 2, false)
		send("german", phase, 2, false)
	}
	send("allied", 3, 1, false)
	forked = true
	send("allied", 3, 3, true) // german's log never gets these
	send("german", 3, 2, false)
	for phase := 4; a.game().Ended == nil || b.game().Ended == nil; phase++ {
		send("allied", phase, 3, false)
		send("german", phase, 3, false)
	}
	fork := firstDifference(t, a.logPath(), b.logPath())
	for _, c := range []struct {
		log  string
		side engine.Side
	}{{a.logPath(), "allied"}, {b.logPath(), "german"}} {
		if code, out := verifyOut(t, c.log); code != 0 {
			t.Fatalf("a forked log does not verify alone: %s", out)
		}
		if code, out := verifyOut(t, c.log, "--host-key", hostKey, "--receipts", boxes[c.side].dir); code != 0 {
			t.Fatalf("the log shown to %s fails against %s's own receipts: %s", c.side, c.side, out)
		}
		code, out := verifyOut(t, c.log, "--host-key", hostKey, "--receipts", boxes["allied"].dir, boxes["german"].dir)
		m := departsRE.FindStringSubmatch(out)
		if code == 0 || m == nil {
			t.Fatalf("verify %s with both sides' receipts: exit %d, want the fork named:\n%s", c.log, code, out)
		}
		var agree, departs uint64
		fmt.Sscan(m[1], &agree)
		fmt.Sscan(m[2], &departs)
		if agree >= fork || departs < fork {
			t.Errorf("verify names the fork between records %d and %d; the logs fork at %d:\n%s", agree, departs, fork, out)
		}
		if !strings.Contains(out, "TWO HISTORIES") {
			t.Errorf("the two sides' receipts name records with two hashes, and verify does not say so:\n%s", out)
		}
		t.Logf("fork at record %d; verify of %s says:\n%s", fork, filepath.Base(filepath.Dir(filepath.Dir(c.log))), out)
	}
}

// writeMbox stores mails in an mbox as mboxrd writers do: a "From " line
// before each, LF line ends, ">" before body lines starting (">"...)
// "From ", an empty line after each.
func writeMbox(t testing.TB, path string, mails [][]byte) {
	t.Helper()
	var b bytes.Buffer
	for _, m := range mails {
		fmt.Fprintf(&b, "From %s Sat Jan 10 10:00:00 2026\n", hosttest.HostAddr)
		for _, l := range strings.SplitAfter(strings.ReplaceAll(string(m), "\r\n", "\n"), "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, ">"), "From ") {
				b.WriteByte('>')
			}
			b.WriteString(l)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The same saved mail gives the same verdict whether it is kept as .eml
// files, in a Maildir, or in an mbox (LF line ends, as mbox files have
// them: the host's signature holds over the canonical CRLF form), and
// in any mix of them.
func TestReceiptsReadFromMboxMaildirAndEMLFiles(t *testing.T) {
	w := newReceiptWorld(t, false)
	hostKey := w.hostKeyFile(t)
	log, box, victim, _ := droppedOrders(t, w)
	box2 := filepath.Join(w.dir, "saved")
	mbox := filepath.Join(box2, "skagerrak.mbox")
	maildir := filepath.Join(box2, "Maildir")
	os.MkdirAll(box2, 0o755)
	writeMbox(t, mbox, box.mail)
	for i, m := range box.mail {
		sub := "cur"
		name := fmt.Sprintf("17680%05d.M%dP1.player:2,S", i, i)
		if i%3 == 0 {
			sub, name = "new", fmt.Sprintf("17680%05d.M%dP1.player", i, i)
		}
		p := filepath.Join(maildir, sub, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, m, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(maildir, "tmp"), 0o755)
	os.WriteFile(filepath.Join(maildir, "tmp", "half"), []byte("still arriving"), 0o644)
	var emls []string
	for i := range box.mail {
		emls = append(emls, filepath.Join(box.dir, fmt.Sprintf("%03d.eml", i+1)))
	}
	half := len(box.mail) / 2
	writeMbox(t, filepath.Join(w.dir, "first-half.mbox"), box.mail[:half])
	want := fmt.Sprintf("german's orders for T02 (message %s", victim.Message)
	counted := fmt.Sprintf("%d host-signed receipts of game r1 checked", len(box.mail))
	for name, paths := range map[string][]string{
		"mbox":          {mbox},
		"Maildir":       {maildir},
		"eml files":     emls,
		"mbox and emls": append([]string{filepath.Join(w.dir, "first-half.mbox")}, emls[half:]...),
	} {
		code, out := verifyOut(t, append([]string{log, "--host-key", hostKey, "--receipts"}, paths...)...)
		if code == 0 || !strings.Contains(out, want) || !strings.Contains(out, counted) || strings.Contains(out, "refused") {
			t.Errorf("%s: exit %d, want %q and %q:\n%s", name, code, counted, want, out)
		}
	}
}

// Mail whose host signature does not verify is refused and not counted:
// a receipt altered after the host signed it, and one signed by another
// key, both naming records the log does not hold, leave verify passing
// and are listed as refused.
func TestReceiptsWithAnInvalidHostSignatureAreRefused(t *testing.T) {
	w := newReceiptWorld(t, false)
	hostKey := w.hostKeyFile(t)
	rh := w.newHost(t, "host")
	box := newSavedBox(t, filepath.Join(w.dir, "mail", "german"))
	rh.playToEnd(t, nil)
	rh.deliver(t, "german", box)
	genuine := len(box.mail)
	code, out := verifyOut(t, rh.logPath(), "--host-key", hostKey, "--receipts", box.dir)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%d host-signed receipts of game r1 checked", genuine)) {
		t.Fatalf("the honest game: exit %d\n%s", code, out)
	}
	// Altered: the first acceptance reply's receipt names another hash,
	// in its text (quoted-printable) and its receipt.json (base64).
	var altered []byte
	for _, m := range box.mail {
		if bytes.Contains(m, []byte("orders accepted")) {
			altered = alterReceipt(t, m)
			break
		}
	}
	box.add(t, altered)
	// Forged: a well-formed receipt mail signed by a key that is not the
	// host's.
	forger, err := compose.GenerateKey("host", hosttest.HostAddr, receiptStart.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	r := adjudicator.LogReceipt{Schema: adjudicator.ReceiptSchema, Kind: adjudicator.ReceiptHead, Game: "r1", Side: "german", Seq: 3, Hash: strings.Repeat("ab", 32)}
	js, _ := json.Marshal(r)
	forged, err := compose.Sign(compose.Message{From: hosttest.HostAddr, To: "german@players.test", Subject: "[skagerrak] r1: report for german", MessageID: "<forged@skagerrak.test>",
		Date: receiptStart, Text: fmt.Sprintf("Receipt: the log ended at record 3, whose hash is\n  %s\n", r.Hash),
		Attachments: []compose.Attachment{{Name: "receipt.json", ContentType: "application/json", Data: js}}}, forger, receiptStart)
	if err != nil {
		t.Fatal(err)
	}
	box.add(t, forged)
	code, out = verifyOut(t, rh.logPath(), "--host-key", hostKey, "--receipts", box.dir)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%d host-signed receipts of game r1 checked", genuine)) || !strings.Contains(out, "2 mails refused, not counted") ||
		!strings.Contains(out, "bad-signature") || !strings.Contains(out, "unknown-key") {
		t.Fatalf("with an altered and a forged receipt: exit %d, want both refused and %d counted:\n%s", code, genuine, out)
	}
	t.Log(out)
}

// alterReceipt changes the hash a host mail's receipt names, in its text
// and its receipt.json, leaving the host's signature as it was.
func alterReceipt(t testing.TB, raw []byte) []byte {
	t.Helper()
	m := regexp.MustCompile(`whose hash is\r\n  ([0-9a-f]{64})`).FindSubmatch(raw)
	if m == nil {
		t.Fatalf("no receipt hash in the mail's text:\n%s", raw)
	}
	old := string(m[1])
	repl := strings.Repeat("0", 64)
	out := bytes.ReplaceAll(raw, []byte(old), []byte(repl))
	// receipt.json is base64: decode, change, encode the part again.
	re := regexp.MustCompile(`(?s)(receipt\.json"?\r\n\r\n)([A-Za-z0-9+/=\r\n]+?)(\r\n--)`)
	loc := re.FindSubmatchIndex(out)
	if loc == nil {
		t.Fatalf("no receipt.json part:\n%s", out)
	}
	dec, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(string(out[loc[4]:loc[5]]), "\r\n", ""))
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.StdEncoding.EncodeToString(bytes.ReplaceAll(dec, []byte(old), []byte(repl)))
	return append(append(append([]byte(nil), out[:loc[4]]...), enc...), out[loc[5]:]...)
}

// Encrypted reports are read with the player's own key (--key); without
// it they cannot be read, so they are refused and nothing is checked.
func TestReceiptsInEncryptedMail(t *testing.T) {
	w := newReceiptWorld(t, true)
	hostKey := w.hostKeyFile(t)
	rh := w.newHost(t, "host")
	box := newSavedBox(t, filepath.Join(w.dir, "mail", "german"))
	rh.playToEnd(t, nil)
	rh.deliver(t, "german", box)
	if !bytes.Contains(box.mail[0], []byte("multipart/encrypted")) {
		t.Fatal("the game's mail is not encrypted")
	}
	priv, _ := compose.ArmorPrivateKey(w.players["german"])
	keyFile := filepath.Join(w.dir, "german.key")
	os.WriteFile(keyFile, priv, 0o600)
	code, out := verifyOut(t, rh.logPath(), "--host-key", hostKey, "--receipts", box.dir, "--key", keyFile)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%d host-signed receipts of game r1 checked", len(box.mail))) {
		t.Fatalf("encrypted mail with the player's key: exit %d\n%s", code, out)
	}
	code, out = verifyOut(t, rh.logPath(), "--host-key", hostKey, "--receipts", box.dir)
	if code == 0 || !strings.Contains(out, "no private key") || !strings.Contains(out, "nothing was checked") {
		t.Fatalf("encrypted mail without the key: exit %d\n%s", code, out)
	}
}

// --receipts wants the host's key, and verify takes one log.
func TestVerifyReceiptsFlags(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "events.jsonl")
	if code, out := verifyOut(t, log, "--receipts", dir); code == 0 || !strings.Contains(out, "--host-key") {
		t.Errorf("--receipts without --host-key: %d %s", code, out)
	}
	if code, out := verifyOut(t, log, dir); code == 0 || !strings.Contains(out, "after --receipts") {
		t.Errorf("two paths without --receipts: %d %s", code, out)
	}
}

// BenchmarkVerifyReceipts measures checking a player's saved mail against
// a log: reading each mail, its host signature, its receipt, and the
// receipts against the log. It reports the time per mail.
func BenchmarkVerifyReceipts(b *testing.B) {
	w := newReceiptWorld(b, false)
	rh := w.newHost(b, "host")
	box := newSavedBox(b, filepath.Join(w.dir, "mail", "german"))
	rh.playToEnd(b, nil)
	rh.deliver(b, "german", box)
	host := openpgp.EntityList{w.host}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k, err := receipts.Read([]string{box.dir}, host, nil)
		if err != nil {
			b.Fatal(err)
		}
		c, err := adjudicator.CheckReceipts(rh.logPath(), k.Held)
		if err != nil || !c.OK() {
			b.Fatal(err, c)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(box.mail)), "µs/mail")
}

// A host may play a game of one name again once the first is over. A
// player keeping the first game's receipts cannot make them count against
// the second game's log: receipts name the game's first record, and those
// of a game played before this one began are set apart, blaming nobody.
// A host that keeps two logs of one name at once (two first records, two
// dice secrets, one shown to each side) is named, as a fork is.
func TestReceiptsOfAnotherGameOfTheSameName(t *testing.T) {
	w := newReceiptWorld(t, false)
	hostKey := w.hostKeyFile(t)
	box := func(name string) map[engine.Side]*savedBox {
		return map[engine.Side]*savedBox{"allied": newSavedBox(t, filepath.Join(w.dir, name, "allied")), "german": newSavedBox(t, filepath.Join(w.dir, name, "german"))}
	}
	first, firstBoxes := w.newHostWith(t, "first", 7, receiptStart), box("first-mail")
	first.playToEnd(t, firstBoxes)
	again, againBoxes := w.newHostWith(t, "again", 9, first.clk.Now().Add(30*24*time.Hour)), box("again-mail")
	again.playToEnd(t, againBoxes)

	code, out := verifyOut(t, again.logPath(), "--host-key", hostKey, "--receipts", firstBoxes["allied"].dir, againBoxes["allied"].dir)
	if code != 0 || strings.Contains(out, "DOES NOT MATCH") || strings.Contains(out, "TWO") || !strings.Contains(out, "receipts of another game named r1, played before this one began or after it ended") {
		t.Errorf("the second game's log with the first game's receipts and its own: exit %d\n%s", code, out)
	}
	code, out = verifyOut(t, first.logPath(), "--host-key", hostKey, "--receipts", againBoxes["german"].dir)
	if strings.Contains(out, "DOES NOT MATCH") || strings.Contains(out, "TWO") || !strings.Contains(out, "another game named r1") {
		t.Errorf("the first game's log with the second game's receipts: exit %d\n%s", code, out)
	}

	// Two games of one name at once, one shown to each side.
	w2 := newReceiptWorld(t, false)
	hostKey2 := w2.hostKeyFile(t)
	forAllied, forGerman := w2.newHostWith(t, "for-allied", 7, receiptStart), w2.newHostWith(t, "for-german", 9, receiptStart)
	mail := map[engine.Side]*savedBox{"allied": newSavedBox(t, filepath.Join(w2.dir, "m", "allied")), "german": newSavedBox(t, filepath.Join(w2.dir, "m", "german"))}
	clk := &stepClock{t: receiptStart}
	for phase := 1; forAllied.game().Ended == nil || forGerman.game().Ended == nil; phase++ {
		for _, side := range []engine.Side{"allied", "german"} {
			clk.Add(10 * time.Second)
			raw := w2.order(t, clk, side, fmt.Sprintf("T%02d", phase), 2)
			forAllied.receive(t, clk.Now(), raw)
			forGerman.receive(t, clk.Now(), raw)
			forAllied.deliver(t, "allied", mail["allied"])
			forGerman.deliver(t, "german", mail["german"])
			forAllied.smtp.Take("german@players.test")
			forGerman.smtp.Take("allied@players.test")
		}
	}
	code, out = verifyOut(t, forAllied.logPath(), "--host-key", hostKey2, "--receipts", mail["allied"].dir, mail["german"].dir)
	if code == 0 || !strings.Contains(out, "TWO GAMES AT ONCE") {
		t.Errorf("the log shown to allied with both sides' receipts: exit %d, want two games at once named\n%s", code, out)
	}
}
