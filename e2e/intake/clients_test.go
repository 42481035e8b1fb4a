package intake

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/internal/browsertest"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
)

// armoredSig is an armored detached signature of data, as gpg makes it.
func armoredSig(t *testing.T, signer *openpgp.Entity, data []byte) string {
	t.Helper()
	return armoredSigAt(t, signer, data, time.Time{})
}

// armoredSigAt is armoredSig made at a given time (zero: now).
func armoredSigAt(t *testing.T, signer *openpgp.Entity, data []byte, at time.Time) string {
	t.Helper()
	var out bytes.Buffer
	w, err := armor.Encode(&out, "PGP SIGNATURE", nil)
	if err != nil {
		t.Fatal(err)
	}
	var cfg *packet.Config
	if !at.IsZero() {
		cfg = &packet.Config{Time: func() time.Time { return at }}
	}
	if err := openpgp.DetachSign(w, []*openpgp.Entity{signer}, bytes.NewReader(data), cfg); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return strings.ReplaceAll(out.String(), "\n", "\r\n") + "\r\n"
}

func crlfText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

const clientHeader = "From: <%s>\r\nTo: <" + hosttest.HostAddr + ">\r\nSubject: orders\r\nDate: Tue, 01 Dec 2026 12:00:00 +0000\r\nMessage-ID: <%d.%s>\r\nMIME-Version: 1.0\r\n"

// mailAs wraps a signed part in multipart/signed, as mutt sends it.
func mailAs(t *testing.T, e *hosttest.Env, from string, n int, inner string) []byte {
	t.Helper()
	sig := armoredSig(t, e.Players[from], []byte(inner))
	return []byte(fmt.Sprintf(clientHeader, from, n, from) +
		"Content-Type: multipart/signed; micalg=pgp-sha256;\r\n protocol=\"application/pgp-signature\"; boundary=\"b1\"\r\n\r\n" +
		"--b1\r\n" + inner + "\r\n--b1\r\nContent-Type: application/pgp-signature; name=\"signature.asc\"\r\n\r\n" + sig + "--b1--\r\n")
}

// mixedAs is a multipart/mixed mail of the given parts.
func mixedAs(from string, n int, parts ...string) []byte {
	b := fmt.Sprintf(clientHeader, from, n, from) + "Content-Type: multipart/mixed; boundary=\"m1\"\r\n\r\n"
	for _, p := range parts {
		b += "--m1\r\n" + p + "\r\n"
	}
	return []byte(b + "--m1--\r\n")
}

// The shapes stock clients send, through the real intake: mutt's
// ISO-8859-1 body, gpg --detach-sign with a note, text with no charset
// that is not UTF-8, and a detached signature beside another attachment.
func TestStockClientShapes(t *testing.T) {
	e := hosttest.New(t, 1)
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	pass := func() adjudicator.Pass {
		t.Helper()
		p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	pass() // the first reports
	allied, german := "allied-0@players.test", "german-0@players.test"
	e.SMTP.Take(allied)
	e.SMTP.Take(german)

	// mutt, default send_charset: ISO-8859-1, quoted-printable.
	latin := "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		crlfText("Game: g000\nPhase: T01\nSide: allied\nadvance 2 # Bl=FCcher, K=F6ln\n")
	e.Deliver(t, mailAs(t, e, allied, 1, latin))
	if p := pass(); p.Accepted != 1 {
		t.Fatalf("ISO-8859-1 orders: %+v", p)
	}
	if r := e.ReplyText(t, allied); !strings.Contains(r, "orders accepted") {
		t.Fatalf("reply:\n%s", r)
	}
	g, _ := e.LoadGame("g000")
	if o := g.Orders["allied"]; o.Charset != "iso-8859-1" || !strings.Contains(o.Text, "Blücher, Köln") {
		t.Fatalf("recorded %q from charset %q", o.Text, o.Charset)
	}

	// gpg --detach-sign orders.txt, attached with its .asc under a note
	// that itself looks like an order.
	file := "Game: g000\nPhase: T01\nSide: german\nadvance 3\n"
	e.Deliver(t, mixedAs(german, 2,
		"Content-Type: text/plain; charset=utf-8\r\n\r\nHere are my orders.\r\nadvance 9\r\n",
		"Content-Type: text/plain; charset=utf-8; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\n\r\n"+crlfText(file),
		"Content-Type: application/pgp-signature; name=orders.txt.asc\r\nContent-Disposition: attachment; filename=orders.txt.asc\r\n\r\n"+armoredSig(t, e.Players[german], []byte(file))))
	if p := pass(); p.Accepted != 1 {
		t.Fatalf("detached with a note: %+v", p)
	}
	// The phase resolved all in: the reply came before the reports.
	replies := e.SMTP.Take(german)
	r, err := compose.ReadReport(replies[0].Data, openpgp.EntityList{e.HostKey}, nil, time.Now())
	if err != nil || !strings.Contains(r.Text, "advance 3") || !strings.Contains(r.Text, "Not read as orders") || !strings.Contains(r.Text, "a note (text/plain)") {
		t.Fatalf("reply to the detached orders (%v):\n%s", err, r.Text)
	}
	e.SMTP.Take(allied)

	// 8-bit text with no charset, signed by a known key: a reply names
	// the client setting.
	raw8 := "Content-Type: text/plain\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + crlfText("Game: g000\nPhase: T02\nSide: allied\nadvance 1 # Bl\xfccher\n")
	e.Deliver(t, mailAs(t, e, allied, 3, raw8))
	if p := pass(); p.Rejected != 1 {
		t.Fatalf("undeclared 8-bit text: %+v", p)
	}
	if r := e.ReplyText(t, allied); !strings.Contains(r, `send_charset="utf-8"`) || !strings.Contains(r, "line 4") {
		t.Fatalf("reply:\n%s", r)
	}

	// A detached signature beside another attachment: the signature names
	// its file, which holds the orders; the other attachment is outside
	// the signature, not read, and the reply says so.
	file2 := "Game: g000\nPhase: T02\nSide: german\nadvance 1\n"
	e.Deliver(t, mixedAs(german, 4,
		"Content-Type: text/plain; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\n\r\n"+crlfText(file2),
		"Content-Type: application/pgp-signature; name=orders.txt.asc\r\nContent-Disposition: attachment; filename=orders.txt.asc\r\n\r\n"+armoredSigAt(t, e.Players[german], []byte(file2), time.Now().Add(2*time.Second)),
		"Content-Type: text/plain; name=old.txt\r\nContent-Disposition: attachment; filename=old.txt\r\n\r\nadvance 9\r\n"))
	if p := pass(); p.Accepted != 1 {
		t.Fatalf("detached beside another attachment: %+v", p)
	}
	if r := e.ReplyText(t, german); !strings.Contains(r, "advance 1") || !strings.Contains(r, "Not read as orders, only the signed order file is: the attachment old.txt (text/plain)") {
		t.Fatalf("reply:\n%s", r)
	}

	// The log verifies: each signature again, the ISO-8859-1 text decoded
	// again the same way.
	rep, err := adjudicator.VerifyPath(e.DataDir()+"/g000", wiring.Verifier{})
	if err != nil || rep.Signatures != 3 {
		t.Fatalf("verify: %d signatures, %v", rep.Signatures, err)
	}
	// And so does its replay page, in the browser.
	browsertest.PageChecksAsVerify(t, e.DataDir()+"/g000", rep.Signatures)
}

// Reports go out Auto-Submitted: auto-generated, replies auto-replied; a
// vacation reply gets no answer; a DSN about a report is recorded, and
// status shows it.
func TestAutomaticMailAndBounces(t *testing.T) {
	e := hosttest.New(t, 1)
	cfg := e.Config(t)
	if code, out, errs := run(t, "--config", cfg, "poll", "--once"); code != 0 {
		t.Fatalf("poll: %s %s", out, errs)
	}
	allied := "allied-0@players.test"
	reports := e.SMTP.Take(allied)
	if len(reports) != 1 || !bytes.Contains(reports[0].Data, []byte("Auto-Submitted: auto-generated\r\n")) || !bytes.Contains(reports[0].Data, []byte("X-Auto-Response-Suppress: All\r\n")) {
		t.Fatalf("the first report lacks Auto-Submitted: auto-generated")
	}
	id := hosttest.MessageID(reports[0].Data)

	// A vacation responder's answer: moved aside, never answered.
	e.Deliver(t, []byte("From: <"+allied+">\r\nTo: <"+hosttest.HostAddr+">\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\nIn-Reply-To: "+id+"\r\n\r\nI am away.\r\n"))
	// The player's orders: the reply is auto-replied.
	e.Order(t, 0, "allied", "T01", "advance 2")
	// A bounce of the report, as an MTA sends it.
	e.Deliver(t, []byte(strings.NewReplacer("<g1.7.report.german@skagerrak.test>", id, "nobody@example.org", allied).Replace(dsnFixture)))
	code, out, errs := run(t, "--config", cfg, "poll", "--once")
	if code != 0 || !strings.Contains(out, "messages 3: accepted 1, rejected 1, duplicates 0, referee 0, bounces 1") {
		t.Fatalf("poll: %d\n%s\n%s", code, out, errs)
	}
	replies := e.SMTP.Take(allied)
	if len(replies) != 1 || !bytes.Contains(replies[0].Data, []byte("Auto-Submitted: auto-replied\r\n")) {
		t.Fatalf("%d mails to allied after the pass, want the one reply, auto-replied", len(replies))
	}
	code, out, _ = run(t, "--config", cfg, "status", "g000")
	if code == 0 || !strings.Contains(out, "UNDELIVERED: report mail (phase T01) to allied <"+allied+"> bounced: 5.1.1") {
		t.Fatalf("status does not show the bounce:\n%s", out)
	}
	if rep, err := adjudicator.VerifyPath(e.DataDir()+"/g000", wiring.Verifier{}); err != nil {
		t.Fatalf("verify after a bounce: %v (%+v)", err, rep)
	}
}

// dsnFixture is OpenSMTPD's bounce of mail to an unknown user, in shape.
const dsnFixture = "Return-Path: <>\r\nFrom: Mailer Daemon <MAILER-DAEMON@mx.example.org>\r\nTo: " + hosttest.HostAddr + "\r\n" +
	"Subject: Delivery status notification: error\r\nMIME-Version: 1.0\r\n" +
	"Content-Type: multipart/report; report-type=delivery-status;\r\n boundary=\"b-dsn\"\r\n\r\n" +
	"--b-dsn\r\nContent-Type: text/plain\r\n\r\nThis is the MAILER-DAEMON.\r\n" +
	"--b-dsn\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n" +
	"Final-Recipient: rfc822; nobody@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 Invalid recipient\r\n\r\n" +
	"--b-dsn\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: <g1.7.report.german@skagerrak.test>\r\nSubject: report\r\n\r\n" +
	"--b-dsn--\r\n"
