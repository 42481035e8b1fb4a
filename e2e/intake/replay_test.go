package intake

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/events"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/malleate"
)

// replayGame is a game with a referee on loopback IMAP and SMTP, played by
// the real intake as `skagerrak run` wires it.
type replayGame struct {
	e    *hosttest.Env
	h    *adjudicator.Host
	box  *imapbox.Box
	s    *wiring.Sender
	id   string
	keys map[string]*openpgp.Entity // by side, "referee" included
}

func newReplayGame(t *testing.T, dice string) *replayGame {
	t.Helper()
	e := hosttest.New(t, 0)
	r := &replayGame{e: e, id: "replay-1"}
	spec := adjudicator.Spec{Game: r.id, Ruleset: "racetest", HostFrom: hosttest.HostAddr, Dice: dice,
		Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
	r.keys = hosttest.AddPlayers(t, &spec, "allied", "german", "referee")
	r.h, r.box, r.s = e.Open(t)
	t.Cleanup(func() { r.box.Close(); r.h.Close() })
	if _, err := r.h.Create(spec); err != nil {
		t.Fatal(err)
	}
	r.poll(t)
	e.SMTP.Take("allied@players.test")
	e.SMTP.Take("german@players.test")
	return r
}

func (r *replayGame) poll(t *testing.T) adjudicator.Pass {
	t.Helper()
	p, err := r.h.PollOnce(context.Background(), wiring.Inbox{Box: r.box}, r.s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sign makes a signed mail of side's in one of the three forms, signed at.
func (r *replayGame) sign(t *testing.T, form, side, body string, at time.Time) []byte {
	t.Helper()
	k, from := r.keys[side], side+"@players.test"
	text := "Game: " + r.id + "\nPhase: T01\nSide: " + side + "\n" + body + "\n"
	var raw []byte
	var err error
	switch form {
	case malleate.FormPGPMIME:
		raw, err = compose.SignPGPMIMEMail(k, from, hosttest.HostAddr, "orders", text, at)
	case malleate.FormDetached:
		raw, err = compose.SignDetachedMail(k, from, hosttest.HostAddr, "orders", "orders.txt", text, at)
	default:
		raw, err = compose.SignCleartextMail(k, from, hosttest.HostAddr, "orders", text, at)
	}
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func (r *replayGame) log(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.e.DataDir(), r.id, adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// genuine mails raw, expects it taken (accepted, or run as referee
// commands) and its replies sent, and clears the SMTP server.
func (r *replayGame) genuine(t *testing.T, raw []byte) {
	t.Helper()
	r.e.IMAP.Append(hosttest.HostAddr, "INBOX", raw)
	p := r.poll(t)
	if p.Accepted+p.Referee != 1 || p.Sent == 0 {
		t.Fatalf("the genuine mail: %+v", p)
	}
	for _, d := range r.e.SMTP.Deliveries() {
		for _, to := range d.To {
			r.e.SMTP.Take(to)
		}
	}
}

// copiesChangeNothing mails every copy of raw that mail/malleate makes,
// one pass each, and requires each to leave the game's log and outbox as
// they were and send nothing; it returns how many were recognised as the
// message already recorded.
func (r *replayGame) copiesChangeNothing(t *testing.T, raw []byte) int {
	t.Helper()
	vs, err := malleate.Variants(raw)
	if err != nil {
		t.Fatal(err)
	}
	before := r.log(t)
	dups := 0
	for _, v := range vs {
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", v.Raw)
		p := r.poll(t)
		if p.Accepted+p.Referee != 0 || p.Sent != 0 || len(r.e.SMTP.Deliveries()) != 0 {
			t.Fatalf("%s: a copy did something: %+v, %d mails", v.Name, p, len(r.e.SMTP.Deliveries()))
		}
		if after := r.log(t); !bytes.Equal(after, before) {
			t.Fatalf("%s: a copy grew the log by %d bytes:\n%s", v.Name, len(after)-len(before), after[len(before):])
		}
		g, _ := r.h.Game(r.id)
		if len(g.Outbox) != 0 {
			t.Fatalf("%s: %d mails queued", v.Name, len(g.Outbox))
		}
		if v.Valid && p.Duplicates != 1 {
			t.Errorf("%s: not recognised as the message recorded: %+v", v.Name, p)
		}
		dups += p.Duplicates
	}
	if n := r.e.Count(t, "INBOX"); n != 0 {
		t.Errorf("%d copies left in the INBOX", n)
	}
	return dups
}

// Every copy anyone can make of a player's accepted orders (each form,
// each malleation class), mailed after the genuine one through go-imap's
// server and the real intake, leaves the log and the outbox as they were,
// sends nothing and is moved away.
func TestReplayedOrdersChangeNothing(t *testing.T) {
	r := newReplayGame(t, "")
	forms := []string{malleate.FormPGPMIME, malleate.FormDetached, malleate.FormClearsigned}
	for i, form := range forms {
		raw := r.sign(t, form, "allied", "advance 1 # "+form, time.Now().UTC().Add(time.Duration(i)*time.Second))
		r.genuine(t, raw)
		n := r.copiesChangeNothing(t, raw)
		t.Logf("%s: %d copies recognised as the orders recorded", form, n)
	}
	g, _ := r.h.Game(r.id)
	if !strings.Contains(g.Orders["allied"].Text, "# clearsigned") || g.Resolved != 0 {
		t.Errorf("orders %q, %d phases resolved", g.Orders["allied"].Text, g.Resolved)
	}
}

// A copy of the referee's signed `extend 24h` (or of any command) runs
// nothing again: the deadline stays where the genuine one moved it, and
// nobody hears of it.
func TestReplayedRefereeCommandChangesNothing(t *testing.T) {
	r := newReplayGame(t, "")
	g, _ := r.h.Game(r.id)
	was := g.Opened.Deadline
	raw := r.sign(t, malleate.FormPGPMIME, "referee", "extend 24h travelling", time.Now().UTC())
	r.genuine(t, raw)
	moved := g.Opened.Deadline
	if moved.Sub(was) != 24*time.Hour {
		t.Fatalf("the genuine extend moved the deadline by %v", moved.Sub(was))
	}
	r.copiesChangeNothing(t, raw)
	if !g.Opened.Deadline.Equal(moved) {
		t.Errorf("the deadline moved again, to %v", g.Opened.Deadline)
	}
}

// A copy of the referee's `dice 6` in a manual-dice game adds no roll:
// the phase waits for two dice, one is supplied, and a copy of that mail
// would have supplied the other, resolving the phase with a roll its
// sender knew.
func TestReplayedManualDiceAddNothing(t *testing.T) {
	r := newReplayGame(t, "manual")
	now := time.Now().UTC()
	r.genuine(t, r.sign(t, malleate.FormPGPMIME, "allied", "advance 1", now))
	r.genuine(t, r.sign(t, malleate.FormPGPMIME, "german", "advance 2", now))
	raw := r.sign(t, malleate.FormClearsigned, "referee", "dice 6", now)
	r.genuine(t, raw)
	g, _ := r.h.Game(r.id)
	if len(g.Dice) != 1 || g.Resolved != 0 {
		t.Fatalf("%d dice held and %d phases resolved after the genuine mail", len(g.Dice), g.Resolved)
	}
	r.copiesChangeNothing(t, raw)
	if len(g.Dice) != 1 || g.Resolved != 0 {
		t.Errorf("%d dice held and %d phases resolved after the copies", len(g.Dice), g.Resolved)
	}
}

// verify refuses a log in which one signed message is recorded twice,
// however the copy was encoded: it fails at the second record, naming the
// first.
func TestVerifyRefusesACanonicalDuplicate(t *testing.T) {
	r := newReplayGame(t, "")
	raw := r.sign(t, malleate.FormPGPMIME, "allied", "advance 2", time.Now().UTC())
	r.genuine(t, raw)
	r.box.Close()
	r.h.Close()
	gdir := filepath.Join(r.e.DataDir(), r.id)
	if code, out, errs := run(t, "verify", gdir); code != 0 {
		t.Fatalf("verify before: %d %s %s", code, out, errs)
	}
	// The copy: the same signature packet in an old-format header.
	vs, err := malleate.Variants(raw)
	if err != nil {
		t.Fatal(err)
	}
	var cp []byte
	for _, v := range vs {
		if v.Name == "old-format header, four-octet length" {
			cp = v.Raw
		}
	}
	l, err := events.Open(filepath.Join(gdir, adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	var first events.Event
	for ev, err := range l.Events(1) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type == adjudicator.EvOrdersAccepted {
			first = ev
		}
	}
	var a adjudicator.OrdersAccepted
	if err := json.Unmarshal(first.Data, &a); err != nil {
		t.Fatal(err)
	}
	a.Raw = cp
	dup, err := l.Append(adjudicator.EvOrdersAccepted, first.Time.Add(time.Minute), a)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	code, out, errs := run(t, "verify", gdir)
	want := fmt.Sprintf("event %d (OrdersAccepted): the message %s was recorded before, at seq %d", dup.Seq, a.Key, first.Seq)
	if code == 0 || !strings.Contains(errs, want) {
		t.Errorf("verify of a log holding a copy: exit %d\n%s%s\nwant %q", code, out, errs, want)
	}
}

// A signed order holding a NUL byte, as an IMAP server without BINARY
// passes it on (Dovecot sends 0x80 for it), verifies once the NUL is put
// back; the known signer gets a reply naming the line and the fix, and
// `skagerrak check` of the same mail says the same. The same mail arriving
// intact later (a server with BINARY) is the message already answered.
func TestNULInSignedOrdersIsAnsweredAsCheckSays(t *testing.T) {
	r := newReplayGame(t, "")
	k := r.keys["allied"]
	text := "Game: " + r.id + "\nPhase: T01\nSide: allied\nadvance\x001\n"
	qp, err := compose.SignCleartextMail(k, "allied@players.test", hosttest.HostAddr, "orders", text, time.Now().UTC())
	if err != nil {
		t.Fatal(err)
	}
	m, err := malleate.Parse(qp)
	if err != nil {
		t.Fatal(err)
	}
	intact := m.Encode(nil, malleate.Encoding{Transfer: "8bit"})
	mangled := bytes.ReplaceAll(intact, []byte{0}, []byte{0x80})
	r.e.IMAP.Append(hosttest.HostAddr, "INBOX", mangled)
	if p := r.poll(t); p.Rejected != 1 || p.Sent != 1 {
		t.Fatalf("the mangled order: %+v", p)
	}
	got := r.e.SMTP.Take("allied@players.test")
	if len(got) != 1 {
		t.Fatalf("%d replies", len(got))
	}
	rep, err := compose.ReadReport(got[0].Data, openpgp.EntityList{r.e.HostKey}, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	const want = "line 4, column 8 of the order file holds the control character NUL (U+0000), which mail does not carry intact: remove it, save the file as plain text and sign it again"
	if !strings.Contains(strings.Join(strings.Fields(rep.Text), " "), want) {
		t.Errorf("the reply does not say %q:\n%s", want, rep.Text)
	}
	dir := t.TempDir()
	pub, _ := compose.ArmorPublicKey(k)
	keyPath := filepath.Join(dir, "allied.asc")
	os.WriteFile(keyPath, pub, 0o600)
	for name, raw := range map[string][]byte{"mangled": mangled, "intact": intact} {
		eml := filepath.Join(dir, name+".eml")
		os.WriteFile(eml, raw, 0o600)
		code, out, _ := run(t, "check", eml, "--key", keyPath)
		if code == 0 || !strings.Contains(out, "detail:      "+want) || !strings.Contains(out, "the signer gets a reply") {
			t.Errorf("check of the %s mail: exit %d\n%s", name, code, out)
		}
	}
	r.e.IMAP.Append(hosttest.HostAddr, "INBOX", intact)
	if p := r.poll(t); p.Duplicates != 1 || p.Sent != 0 {
		t.Errorf("the intact copy: %+v", p)
	}
}

// A flood of N distinct refused messages signed by a player's own key (the
// worst shapes: 900 KB order files, a 200 KB game name, thousands of bad
// lines) grows the game's log by at most N times MaxRefusalLogBytes and
// sends the player at most MaxRepliesPerPhase replies, and
// MaxStrayRepliesPerPhase more for what is not its orders; forged copies
// (another key's signature, a broken one) add nothing at all.
func TestFloodOfRefusedMailIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	r := newReplayGame(t, "")
	before := len(r.log(t))
	base := time.Now().UTC()
	const n = 24
	for i := 0; i < n; i++ {
		var body string
		switch i % 3 {
		case 0:
			body = strings.Repeat("# padding to the size limit and beyond\n", 900<<10/40)
		case 1:
			body = "advance 1\nGame: " + strings.Repeat("g", 200<<10)
		default:
			body = strings.Repeat(fmt.Sprintf("advance 9 # flood %d\n", i), 3900)
		}
		raw := r.sign(t, malleate.FormPGPMIME, "allied", body, base.Add(time.Duration(i)*time.Second))
		if _, err := r.e.IMAP.Append(hosttest.HostAddr, "INBOX", raw); err != nil {
			t.Fatal(err)
		}
	}
	stranger, _ := compose.GenerateKey("stranger", "allied@players.test", time.Now().Add(-time.Hour))
	for i := 0; i < n; i++ {
		text := fmt.Sprintf("Game: %s\nPhase: T01\nSide: allied\nadvance 1 # forged %d\n", r.id, i)
		raw, _ := compose.SignPGPMIMEMail(stranger, "allied@players.test", hosttest.HostAddr, "orders", text, base)
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", raw)
		good := r.sign(t, malleate.FormClearsigned, "allied", fmt.Sprintf("advance 1 # %d", i), base.Add(time.Hour))
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", bytes.Replace(good, []byte("advance 1"), []byte("advance 3"), 1))
	}
	p := r.poll(t)
	if p.Accepted != 0 || p.Rejected != 3*n {
		t.Fatalf("the flood: %+v", p)
	}
	logged := r.log(t)
	if c := bytes.Count(logged, []byte(`"type":"OrdersRejected"`)); c != n || !bytes.Contains(logged, []byte(`"raw_bytes":9`)) {
		t.Fatalf("%d OrdersRejected for %d refused messages, or none of the largest", c, n)
	}
	grown := len(logged) - before
	if grown > n*adjudicator.MaxRefusalLogBytes {
		t.Errorf("%d refused messages grew the log by %d bytes, over %d a message", n, grown, adjudicator.MaxRefusalLogBytes)
	}
	if got, max := len(r.e.SMTP.For("allied@players.test")), adjudicator.MaxRepliesPerPhase+adjudicator.MaxStrayRepliesPerPhase; got > max {
		t.Errorf("the player got %d replies, the limit is %d", got, max)
	}
	t.Logf("%d refused messages (%d forged ones aside): %d bytes of log, %d a message; %d replies", n, 2*n, grown, grown/n, len(r.e.SMTP.For("allied@players.test")))
}
