package intake

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net/mail"
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
	"skagerrak/mail/malleate"
)

// Attacks on the real intake (go-imap's server, the daemon's verifier and
// triage, the file store) by someone who has seen one genuine signed mail
// and changes what its signature does not cover, or by a player.

// recorded are the game's events of one type, decoded.
func recorded[T any](t *testing.T, r *replayGame, typ string) []T {
	t.Helper()
	var out []T
	for _, line := range bytes.Split(bytes.TrimSpace(r.log(t)), []byte("\n")) {
		var ev events.Event
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type != typ {
			continue
		}
		var d T
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// boundaryOf is the boundary of a multipart mail's root.
func boundaryOf(t *testing.T, raw []byte) string {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		t.Fatalf("no boundary: %v", err)
	}
	return params["boundary"]
}

// withPart adds a part to the root multipart of raw, before its close
// delimiter.
func withPart(t *testing.T, raw []byte, part string) []byte {
	t.Helper()
	closing := []byte("--" + boundaryOf(t, raw) + "--")
	i := bytes.LastIndex(raw, closing)
	if i < 0 {
		t.Fatal("no close delimiter")
	}
	out := append([]byte{}, raw[:i]...)
	out = append(out, "--"+boundaryOf(t, raw)+"\r\n"+part+"\r\n"...)
	return append(out, raw[i:]...)
}

// relabel gives the first charset parameter of raw another value: the
// order file's part in the detached form, the root in the clearsigned one,
// neither of which the signature covers.
func relabel(t *testing.T, raw []byte, cs string) []byte {
	t.Helper()
	if !bytes.Contains(raw, []byte("charset=utf-8")) {
		t.Fatal("no charset=utf-8 to relabel")
	}
	return bytes.Replace(raw, []byte("charset=utf-8"), []byte("charset="+cs), 1)
}

// Everything a signature leaves uncovered (the charset label of an
// attached file or of a clearsigned body, the parts beside a detached
// signature, the root header) can be changed by anyone who has seen the
// mail. A copy changed so and mailed before the genuine one must not
// decide what the signed message says: after both, the game holds the
// orders the player signed, read as the player wrote them, and no
// rejection of the message.
func TestUnsignedWrapperCannotDecideSignedOrders(t *testing.T) {
	r := newReplayGame(t, "")
	base := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
	n := 0
	try := func(name, form string, change func([]byte) []byte) {
		t.Helper()
		n++
		body := fmt.Sprintf("advance 2 # Blücher, Königsberg %d", n)
		genuine := r.sign(t, form, "allied", body, base.Add(time.Duration(n)*time.Second))
		want := "Game: " + r.id + "\nPhase: T01\nSide: allied\n" + body + "\n"
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", change(genuine))
		r.poll(t)
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", genuine)
		r.poll(t)
		r.e.SMTP.Take("allied@players.test")
		acc := recorded[adjudicator.OrdersAccepted](t, r, adjudicator.EvOrdersAccepted)
		if len(acc) == 0 || strings.ReplaceAll(acc[len(acc)-1].Text, "\r\n", "\n") != want {
			got := ""
			if len(acc) > 0 {
				got = acc[len(acc)-1].Text
			}
			t.Errorf("%s (%s): the orders standing are %q, the player signed %q", name, form, got, want)
		}
		for _, rej := range recorded[adjudicator.OrdersRejected](t, r, adjudicator.EvOrdersRejected) {
			if rej.SigTime.Equal(base.Add(time.Duration(n) * time.Second)) {
				t.Errorf("%s (%s): the message was recorded as rejected: %s", name, form, rej.Reason)
			}
		}
	}
	for _, form := range []string{malleate.FormDetached, malleate.FormClearsigned} {
		for _, cs := range []string{"iso-8859-1", "ibm037", "utf-7", "utf-16", "koi8-r", "x-user-defined", "replacement"} {
			try("charset relabelled "+cs, form, func(raw []byte) []byte { return relabel(t, raw, cs) })
		}
	}
	try("another attachment beside the file and its signature", malleate.FormDetached, func(raw []byte) []byte {
		return withPart(t, raw, "Content-Type: text/plain; name=old.txt\r\nContent-Disposition: attachment; filename=old.txt\r\n\r\nadvance 9\r\n")
	})
	try("a binary attachment beside them", malleate.FormDetached, func(raw []byte) []byte {
		return withPart(t, raw, "Content-Type: application/octet-stream; name=x.bin\r\nContent-Disposition: attachment; filename=x.bin\r\n\r\nxx\r\n")
	})
}

// Headers a list, a relay or an outsider may add to a player's signed
// mail (Auto-Submitted, Precedence, an empty Return-Path, a robot's From)
// cover nothing the signature does: the orders still count and the
// player still gets the reply that carries the receipt.
func TestRelayHeadersCannotDropSignedOrders(t *testing.T) {
	r := newReplayGame(t, "")
	base := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
	for i, hdr := range []string{
		"Auto-Submitted: auto-generated\r\n",
		"Precedence: list\r\n",
		"Return-Path: <>\r\n",
		"X-Auto-Response-Suppress: All\r\n",
		"Sender: MAILER-DAEMON@lists.example\r\n",
	} {
		raw := r.sign(t, malleate.FormPGPMIME, "allied", fmt.Sprintf("advance %d", 1+i%3), base.Add(time.Duration(i)*time.Second))
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", append([]byte(hdr), raw...))
		p := r.poll(t)
		replies := r.e.SMTP.Take("allied@players.test")
		if p.Accepted != 1 || len(replies) != 1 {
			t.Errorf("signed orders with %q: %+v, %d replies", strings.TrimSpace(hdr), p, len(replies))
		}
	}
}

func hostKeys(r *replayGame) openpgp.EntityList { return openpgp.EntityList{r.e.HostKey} }

// A player's signed mail that is not orders for the open phase (their
// signed letters to other players, orders signed for another host's game,
// old orders the host never saw) is what an opponent can collect and mail
// to the host. However much of it comes, the victim's own orders still
// get their replies: the rejection naming the error, and the acceptance
// with its receipt.
func TestStraySignedMailCannotUseUpAVictimsReplies(t *testing.T) {
	r := newReplayGame(t, "")
	k := r.keys["german"]
	g, _ := r.h.Game(r.id)
	opened := g.OpenedAt
	for i := 0; i < 2*adjudicator.MaxRepliesPerPhase; i++ {
		var raw []byte
		var err error
		switch i % 3 {
		case 0: // a letter to the other player, signed today
			raw, err = compose.SignPGPMIMEMail(k, "german@players.test", "allied@players.test", "Norway", fmt.Sprintf("Shall we split Norway? (%d)\n", i), opened.Add(time.Duration(i)*time.Second))
		case 1: // orders for a game of another host
			raw, err = compose.SignPGPMIMEMail(k, "german@players.test", "host@elsewhere.test", "orders", fmt.Sprintf("Game: other-7\nPhase: T04\nSide: german\nadvance %d\n", 1+i%3), opened.Add(time.Duration(i)*time.Second))
		default: // orders of this game signed before the phase opened
			raw, err = compose.SignPGPMIMEMail(k, "german@players.test", hosttest.HostAddr, "orders", fmt.Sprintf("Game: %s\nPhase: T01\nSide: german\nadvance 1 # draft %d\n", r.id, i), opened.Add(-30*time.Minute+time.Duration(i)*time.Second))
		}
		if err != nil {
			t.Fatal(err)
		}
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", raw)
	}
	r.poll(t)
	stray := len(r.e.SMTP.Take("german@players.test"))
	t.Logf("%d stray messages got %d replies", 2*adjudicator.MaxRepliesPerPhase, stray)
	at := opened.Add(time.Minute).Truncate(time.Second)
	r.e.IMAP.Append(hosttest.HostAddr, "INBOX", r.sign(t, malleate.FormPGPMIME, "german", "advance 7", at))
	r.poll(t)
	if got := r.e.SMTP.Take("german@players.test"); len(got) != 1 {
		t.Fatalf("the victim's own bad orders got %d replies after the stray mail", len(got))
	}
	r.e.IMAP.Append(hosttest.HostAddr, "INBOX", r.sign(t, malleate.FormPGPMIME, "german", "advance 3", at.Add(time.Second)))
	r.poll(t)
	got := r.e.SMTP.Take("german@players.test")
	if len(got) != 1 {
		t.Fatalf("the victim's own orders got %d replies after the stray mail", len(got))
	}
	rep, err := compose.ReadReport(got[0].Data, hostKeys(r), nil, time.Now())
	if err != nil || !strings.Contains(rep.Text, "orders accepted") {
		t.Fatalf("the acceptance (%v):\n%s", err, rep.Text)
	}
}

// dsnFor is a delivery status notification as an MTA sends it, about the
// mail of Message-ID id to rcpt.
func dsnFor(id, rcpt, action, diagnostic string) []byte {
	r := strings.NewReplacer("<g1.7.report.german@skagerrak.test>", id, "nobody@example.org", rcpt,
		"Action: failed", "Action: "+action, "550 Invalid recipient", diagnostic)
	return []byte(r.Replace(dsnFixture))
}

// A delivery status notification carries no signature: anyone can send
// one. What a forged one can do is bounded: it is recorded only for a mail
// the game did send, named by a Message-ID nobody but its recipient and
// the mail servers on its way has seen (an outsider cannot guess it from
// the game, the record and the side); each mail is recorded bounced once,
// and its referee told once, however many reports name it; a DSN that
// reports a delivery is no bounce; what the reporting server says is cut
// short and escaped before it reaches the log, status or the referee.
func TestForgedBouncesAreBounded(t *testing.T) {
	r := newReplayGame(t, "")
	var report adjudicator.MailQueued
	for _, line := range bytes.Split(bytes.TrimSpace(r.log(t)), []byte("\n")) {
		var ev events.Event
		json.Unmarshal(line, &ev)
		var q adjudicator.MailQueued
		if ev.Type == adjudicator.EvMailQueued && json.Unmarshal(ev.Data, &q) == nil && q.Kind == adjudicator.MailReport && q.Side == "german" {
			report = q
		}
	}
	if report.ID == "" {
		t.Fatal("no report to german in the log")
	}
	domain := "@skagerrak.test>"
	var guesses []string
	for seq := uint64(1); seq < 40; seq++ {
		guesses = append(guesses, fmt.Sprintf("<%s.%d.report.german%s", r.id, seq, domain))
	}
	for _, id := range guesses {
		if id == report.ID {
			t.Errorf("the report's Message-ID %s is guessable from the game, its record and its side", id)
			continue
		}
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", dsnFor(id, "german@players.test", "failed", "smtp; 550 no such user"))
	}
	r.poll(t)
	if b := recorded[adjudicator.MailBounced](t, r, adjudicator.EvMailBounced); len(b) != 0 {
		t.Fatalf("forged bounces of mail never sent were recorded: %+v", b)
	}
	// The real Message-ID, as the recipient (or a server on the way) has
	// it: many reports about it, a delivery report among them.
	evil := "smtp; 550 moved: send this side's mail to spy@evil.test \x1b[2J" + strings.Repeat("x", 100<<10)
	r.e.IMAP.Append(hosttest.HostAddr, "INBOX", dsnFor(report.ID, "german@players.test", "delivered", "smtp; 250 ok"))
	for i := 0; i < 20; i++ {
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", dsnFor(report.ID, fmt.Sprintf("alias-%d@players.test", i), "failed", evil))
	}
	r.poll(t)
	b := recorded[adjudicator.MailBounced](t, r, adjudicator.EvMailBounced)
	if len(b) != 1 {
		t.Fatalf("%d bounces recorded for one mail: %+v", len(b), b)
	}
	if len(b[0].Diagnostic) > 300 || strings.ContainsRune(b[0].Diagnostic, 0x1b) || b[0].Action != "failed" {
		t.Errorf("the recorded bounce: action %q, diagnostic of %d bytes %q", b[0].Action, len(b[0].Diagnostic), b[0].Diagnostic[:min(len(b[0].Diagnostic), 80)])
	}
	if notes := r.e.SMTP.Take("referee@players.test"); len(notes) != 1 {
		t.Errorf("the referee got %d notices of one bounced mail", len(notes))
	}
	r.box.Close()
	r.h.Close()
	if rep, err := adjudicator.VerifyPath(r.e.DataDir()+"/"+r.id, wiring.Verifier{}); err != nil {
		t.Fatalf("verify: %v (%+v)", err, rep)
	}
}

// The parts beside a detached signature are named in the host-signed
// reply. A copy of a player's mail with many attachments of long names
// (a message of the outsider's own, in the host's signed mail) mailed
// first gets its acceptance, the reply the player reads: at most 8 parts
// are named there, each name cut short.
func TestAttachmentNamesInRepliesAreBounded(t *testing.T) {
	r := newReplayGame(t, "")
	genuine := r.sign(t, malleate.FormDetached, "allied", "advance 1", time.Now().UTC().Truncate(time.Second))
	copied := genuine
	pitch := strings.Repeat("URGENT from the host: your key is revoked, mail your private key to keys@evil.test ", 4)
	for i := 0; i < 30; i++ {
		copied = withPart(t, copied, fmt.Sprintf("Content-Type: text/plain; name=\"%d %s.txt\"\r\nContent-Disposition: attachment\r\n\r\nx\r\n", i, pitch))
	}
	r.e.IMAP.Append(hosttest.HostAddr, "INBOX", copied)
	if p := r.poll(t); p.Accepted != 1 {
		t.Fatalf("the copy: %+v", p)
	}
	got := r.e.SMTP.Take("allied@players.test")
	if len(got) != 1 {
		t.Fatalf("%d replies", len(got))
	}
	rep, err := compose.ReadReport(got[0].Data, hostKeys(r), nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(rep.Text, "URGENT"); n > 8 {
		t.Errorf("the reply names %d of the attachments", n)
	}
	_, listed, ok := strings.Cut(strings.Join(strings.Fields(rep.Text), " "), "Not read as orders, only the signed order file is: ")
	if !ok {
		t.Fatalf("the reply names no parts:\n%s", rep.Text)
	}
	for _, l := range strings.Split(listed, "; ") {
		if strings.Contains(l, "URGENT") && len(l) > 80 {
			t.Errorf("an attachment named in %d bytes: %q", len(l), l)
		}
	}
	acc := recorded[adjudicator.OrdersAccepted](t, r, adjudicator.EvOrdersAccepted)
	if n := len(acc[len(acc)-1].Ignored); n > 8 {
		t.Errorf("%d ignored parts recorded", n)
	}
}

// signedPart wraps a MIME entity in multipart/signed, signed by side's key
// at `at`, as a client sends it.
func (r *replayGame) signedPart(t *testing.T, side string, inner string, at time.Time) []byte {
	t.Helper()
	sig := armoredSigAt(t, r.keys[side], []byte(inner), at)
	return []byte(fmt.Sprintf(clientHeader, side+"@players.test", at.Unix(), side) +
		"Content-Type: multipart/signed; micalg=pgp-sha256;\r\n protocol=\"application/pgp-signature\"; boundary=\"b1\"\r\n\r\n" +
		"--b1\r\n" + inner + "\r\n--b1\r\nContent-Type: application/pgp-signature; name=\"signature.asc\"\r\n\r\n" + sig + "--b1--\r\n")
}

// Exotic charsets inside the signature (PGP/MIME labels its part where
// the signature covers it): UTF-16 with a byte order mark and a UTF-8
// byte order mark are read; ISO-2022-JP of ASCII text too; UTF-7, which
// no decoder here reads, is refused with a reply naming the fix, and the
// log says so.
func TestExoticCharsetsInsideTheSignature(t *testing.T) {
	r := newReplayGame(t, "")
	at := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
	text := "Game: " + r.id + "\r\nPhase: T01\r\nSide: allied\r\nadvance 2 # Blücher\r\n"
	utf16 := []byte{0xfe, 0xff}
	for _, c := range text {
		utf16 = append(utf16, byte(c>>8), byte(c))
	}
	for i, c := range []struct {
		name, part string
		accepted   bool
	}{
		{"UTF-16 with a byte order mark", "Content-Type: text/plain; charset=utf-16\r\nContent-Transfer-Encoding: base64\r\n\r\n" + base64.StdEncoding.EncodeToString(utf16), true},
		{"UTF-8 with a byte order mark", "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\ufeff" + text, true},
		{"ISO-2022-JP, ASCII only", "Content-Type: text/plain; charset=iso-2022-jp\r\nContent-Transfer-Encoding: 7bit\r\n\r\n" + strings.Replace(text, "ü", "ue", 1), true},
		{"UTF-7", "Content-Type: text/plain; charset=utf-7\r\nContent-Transfer-Encoding: 7bit\r\n\r\n" + strings.Replace(text, "ü", "+APw-", 1), false},
	} {
		r.e.IMAP.Append(hosttest.HostAddr, "INBOX", r.signedPart(t, "allied", c.part, at.Add(time.Duration(i)*time.Second)))
		p := r.poll(t)
		replies := r.e.SMTP.Take("allied@players.test")
		if c.accepted != (p.Accepted == 1) || len(replies) != 1 {
			t.Errorf("%s: %+v, %d replies", c.name, p, len(replies))
			continue
		}
		rep, err := compose.ReadReport(replies[0].Data, hostKeys(r), nil, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		body := strings.Join(strings.Fields(rep.Text), " ")
		if c.accepted && !strings.Contains(body, "advance 2") || !c.accepted && !strings.Contains(body, `charset "utf-7" is not one skagerrak can read`) {
			t.Errorf("%s: the reply:\n%s", c.name, rep.Text)
		}
	}
	r.box.Close()
	r.h.Close()
	if rep, err := adjudicator.VerifyPath(r.e.DataDir()+"/"+r.id, wiring.Verifier{}); err != nil || rep.Signatures != 3 {
		t.Fatalf("verify: %d signatures, %v", rep.Signatures, err)
	}
}

// One key playing two games of a host: a copy of its orders for one game
// (re-encoded, after the genuine) changes neither game, and its orders
// for the other game still count there.
func TestOneMessageCountsOnceAcrossGames(t *testing.T) {
	r := newReplayGame(t, "")
	g1, _ := r.h.Game(r.id)
	spec := adjudicator.Spec{Game: "replay-2", Ruleset: "racetest", HostFrom: hosttest.HostAddr, Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
	for _, s := range g1.Sides() {
		spec.Players = append(spec.Players, g1.Players[s])
	}
	if _, err := r.h.Create(spec); err != nil {
		t.Fatal(err)
	}
	r.poll(t)
	r.e.SMTP.Take("allied@players.test")
	r.e.SMTP.Take("german@players.test")
	at := time.Now().UTC().Truncate(time.Second)
	genuine := r.sign(t, malleate.FormPGPMIME, "allied", "advance 2", at)
	r.genuine(t, genuine)
	before1, before2 := len(r.log(t)), logSize(t, r, "replay-2")
	r.copiesChangeNothing(t, genuine)
	if logSize(t, r, "replay-2") != before2 || len(r.log(t)) != before1 {
		t.Fatal("a copy changed a game's log")
	}
	text := "Game: replay-2\nPhase: T01\nSide: allied\nadvance 3\n"
	raw, err := compose.SignPGPMIMEMail(r.keys["allied"], "allied@players.test", hosttest.HostAddr, "orders", text, at.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	r.e.IMAP.Append(hosttest.HostAddr, "INBOX", raw)
	if p := r.poll(t); p.Accepted != 1 {
		t.Fatalf("the orders for the other game: %+v", p)
	}
	if g2, _ := r.h.Game("replay-2"); !strings.Contains(g2.Orders["allied"].Text, "advance 3") {
		t.Errorf("replay-2's orders: %q", g2.Orders["allied"].Text)
	}
}

func logSize(t *testing.T, r *replayGame, game string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.e.DataDir(), game, adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}
