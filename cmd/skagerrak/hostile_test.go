package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/mail"
	"strings"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/events"
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
		r.e.imap.Append(hostAddr, "INBOX", change(genuine))
		r.poll(t)
		r.e.imap.Append(hostAddr, "INBOX", genuine)
		r.poll(t)
		r.e.smtp.Take("allied@players.test")
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
		r.e.imap.Append(hostAddr, "INBOX", append([]byte(hdr), raw...))
		p := r.poll(t)
		replies := r.e.smtp.Take("allied@players.test")
		if p.Accepted != 1 || len(replies) != 1 {
			t.Errorf("signed orders with %q: %+v, %d replies", strings.TrimSpace(hdr), p, len(replies))
		}
	}
}

func hostKeys(r *replayGame) openpgp.EntityList { return openpgp.EntityList{r.e.hostKey} }

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
			raw, err = compose.SignPGPMIMEMail(k, "german@players.test", hostAddr, "orders", fmt.Sprintf("Game: %s\nPhase: T01\nSide: german\nadvance 1 # draft %d\n", r.id, i), opened.Add(-30*time.Minute+time.Duration(i)*time.Second))
		}
		if err != nil {
			t.Fatal(err)
		}
		r.e.imap.Append(hostAddr, "INBOX", raw)
	}
	r.poll(t)
	stray := len(r.e.smtp.Take("german@players.test"))
	t.Logf("%d stray messages got %d replies", 2*adjudicator.MaxRepliesPerPhase, stray)
	at := opened.Add(time.Minute).Truncate(time.Second)
	r.e.imap.Append(hostAddr, "INBOX", r.sign(t, malleate.FormPGPMIME, "german", "advance 7", at))
	r.poll(t)
	if got := r.e.smtp.Take("german@players.test"); len(got) != 1 {
		t.Fatalf("the victim's own bad orders got %d replies after the stray mail", len(got))
	}
	r.e.imap.Append(hostAddr, "INBOX", r.sign(t, malleate.FormPGPMIME, "german", "advance 3", at.Add(time.Second)))
	r.poll(t)
	got := r.e.smtp.Take("german@players.test")
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
	var seqs []uint64
	for _, line := range bytes.Split(bytes.TrimSpace(r.log(t)), []byte("\n")) {
		var ev events.Event
		json.Unmarshal(line, &ev)
		var q adjudicator.MailQueued
		if ev.Type == adjudicator.EvMailQueued && json.Unmarshal(ev.Data, &q) == nil && q.Kind == adjudicator.MailReport && q.Side == "german" {
			report, seqs = q, append(seqs, ev.Seq)
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
		r.e.imap.Append(hostAddr, "INBOX", dsnFor(id, "german@players.test", "failed", "smtp; 550 no such user"))
	}
	r.poll(t)
	if b := recorded[adjudicator.MailBounced](t, r, adjudicator.EvMailBounced); len(b) != 0 {
		t.Fatalf("forged bounces of mail never sent were recorded: %+v", b)
	}
	// The real Message-ID, as the recipient (or a server on the way) has
	// it: many reports about it, a delivery report among them.
	evil := "smtp; 550 moved: send this side's mail to spy@evil.test \x1b[2J" + strings.Repeat("x", 100<<10)
	r.e.imap.Append(hostAddr, "INBOX", dsnFor(report.ID, "german@players.test", "delivered", "smtp; 250 ok"))
	for i := 0; i < 20; i++ {
		r.e.imap.Append(hostAddr, "INBOX", dsnFor(report.ID, fmt.Sprintf("alias-%d@players.test", i), "failed", evil))
	}
	r.poll(t)
	b := recorded[adjudicator.MailBounced](t, r, adjudicator.EvMailBounced)
	if len(b) != 1 {
		t.Fatalf("%d bounces recorded for one mail: %+v", len(b), b)
	}
	if len(b[0].Diagnostic) > 300 || strings.ContainsRune(b[0].Diagnostic, 0x1b) || b[0].Action != "failed" {
		t.Errorf("the recorded bounce: action %q, diagnostic of %d bytes %q", b[0].Action, len(b[0].Diagnostic), b[0].Diagnostic[:min(len(b[0].Diagnostic), 80)])
	}
	if notes := r.e.smtp.Take("referee@players.test"); len(notes) != 1 {
		t.Errorf("the referee got %d notices of one bounced mail", len(notes))
	}
	r.box.Close()
	r.h.Close()
	if rep, err := adjudicator.VerifyPath(r.e.dataDir()+"/"+r.id, pgpVerifier{}); err != nil {
		t.Fatalf("verify: %v (%+v)", err, rep)
	}
}
