package intake

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/loopback"
)

// playerMail is a host on loopback IMAP and SMTP servers with one racetest
// game (g000: allied-0@ and german-0@players.test), its first reports sent.
type playerMail struct {
	*hosttest.Env
	t *testing.T
}

func newPlayerMail(t *testing.T) *playerMail {
	p := &playerMail{Env: hosttest.New(t, 1), t: t}
	p.pass()
	return p
}

// pass runs one poll pass (intake, then the outbox) as the daemon does.
func (p *playerMail) pass() {
	p.t.Helper()
	h, box, s := p.Open(p.t)
	defer h.Close()
	defer box.Close()
	if _, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil {
		p.t.Fatal(err)
	}
}

// send mails text signed (PGP/MIME) by the key of addr, from addr.
func (p *playerMail) send(addr, text string) {
	p.t.Helper()
	raw, err := compose.SignPGPMIMEMail(p.Players[addr], addr, hosttest.HostAddr, "to the judge", text, p.SignAt(addr))
	if err != nil {
		p.t.Fatal(err)
	}
	p.appendRaw(raw)
}

func (p *playerMail) appendRaw(raw []byte) {
	p.t.Helper()
	if _, err := p.IMAP.Append(hosttest.HostAddr, "INBOX", raw); err != nil {
		p.t.Fatal(err)
	}
}

// take reads the mails delivered to addr since the last take, checking
// the host's signature on each.
func (p *playerMail) take(addr string) []readMail {
	p.t.Helper()
	var out []readMail
	for _, d := range p.SMTP.Take(addr) {
		out = append(out, p.read(d))
	}
	return out
}

type readMail struct {
	compose.Report
	Subject, ID string
	To          []string
	Raw         []byte
}

func (p *playerMail) read(d loopback.Delivery) readMail {
	p.t.Helper()
	r, err := compose.ReadReport(d.Data, openpgp.EntityList{p.HostKey}, nil, time.Now())
	if err != nil {
		p.t.Fatalf("a mail from the host does not read: %v", err)
	}
	return readMail{Report: *r, Subject: headerOf(d.Data, "Subject"), ID: hosttest.MessageID(d.Data), To: d.To, Raw: d.Data}
}

// headerOf is a header field of a raw mail, unfolded.
func headerOf(raw []byte, name string) string {
	hdr, _, _ := bytes.Cut(bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n")), []byte("\n\n"))
	var val string
	on := false
	for _, l := range strings.Split(string(hdr), "\n") {
		switch {
		case on && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")):
			val += " " + strings.TrimSpace(l)
		case strings.HasPrefix(strings.ToLower(l), strings.ToLower(name)+":"):
			val, on = strings.TrimSpace(l[len(name)+1:]), true
		default:
			on = false
		}
	}
	return val
}

func (p *playerMail) game() *adjudicator.Game {
	p.t.Helper()
	g, err := p.Env.LoadGame("g000")
	if err != nil {
		p.t.Fatal(err)
	}
	return g
}

const (
	allied0 = "allied-0@players.test"
	german0 = "german-0@players.test"
)

func TestMailHelpAnswersWithTheGuide(t *testing.T) {
	p := newPlayerMail(t)
	first := p.take(allied0)
	p.take(german0)
	if len(first) != 1 {
		t.Fatalf("allied got %d mails at the start, want its first report", len(first))
	}
	// The first report carries the guide, and its subject says orders
	// are owed, by when.
	if !strings.Contains(first[0].Subject, "g000: your orders for T01 are due") {
		t.Errorf("first report's subject %q does not say orders are due", first[0].Subject)
	}
	if a := attachment(first[0].Report, "guide.txt"); !strings.Contains(string(a), "advance N") {
		t.Errorf("the first report carries no guide: guide.txt is %q", a)
	}
	p.send(allied0, "help\n")
	p.pass()
	got := p.take(allied0)
	if len(got) != 1 {
		t.Fatalf("help got %d answers, want 1", len(got))
	}
	if !strings.Contains(got[0].Text, "Race: a player's guide") || !strings.Contains(got[0].Text, "resend [PHASE]") {
		t.Errorf("the answer to help is not the guide and the commands:\n%s", got[0].Text)
	}
	if len(p.take(german0)) != 0 {
		t.Error("the other side was told of allied's help")
	}
	g := p.game()
	if n := p.Env.CountEvents(t, "g000", adjudicator.EvPlayerCommand); n != 1 {
		t.Errorf("%d PlayerCommand events, want 1", n)
	}
	if n := p.Env.CountEvents(t, "g000", adjudicator.EvPlayerMail); n != 1 {
		t.Errorf("%d PlayerMail events, want 1", n)
	}
	if len(g.Outbox) != 0 {
		t.Errorf("%d mails left in the outbox", len(g.Outbox))
	}
}

// flat is a mail's text with its lines joined and its spaces single, so
// that a test need not know where the text wraps.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

func attachment(r compose.Report, name string) []byte {
	for _, a := range r.Attachments {
		if a.Name == name {
			return a.Data
		}
	}
	return nil
}

func TestMailResendIsTheReportAsSent(t *testing.T) {
	p := newPlayerMail(t)
	first := p.take(allied0)[0]
	// A phase resolves: a second report, then the first asked for again.
	p.Order(t, 0, "allied", "T01", "advance 2")
	p.Order(t, 0, "german", "T01", "advance 1")
	p.pass()
	p.take(allied0)
	p.send(allied0, "resend start\n")
	p.pass()
	got := p.take(allied0)
	if len(got) != 1 {
		t.Fatalf("resend got %d mails, want 1", len(got))
	}
	again := got[0]
	if again.Text != first.Text {
		t.Errorf("the report sent again differs from the first:\nfirst:\n%s\nagain:\n%s", first.Text, again.Text)
	}
	if again.Subject != first.Subject {
		t.Errorf("subject %q, the first was %q", again.Subject, first.Subject)
	}
	if again.ID == first.ID {
		t.Error("the report sent again has the first one's Message-ID")
	}
	// The signed body is the same bytes: same text, attachments and
	// MIME boundaries; only the envelope (Date, Message-ID) and the
	// signature are new.
	if a, b := signedEntity(t, first.Raw), signedEntity(t, again.Raw); !bytes.Equal(a, b) {
		t.Errorf("the signed body differs:\nfirst:\n%s\nagain:\n%s", a, b)
	}
	// The latest, and a phase never reported.
	p.send(allied0, "resend\n")
	p.send(allied0, "resend T09\n")
	p.pass()
	got = p.take(allied0)
	if len(got) != 2 {
		t.Fatalf("%d answers to two resends, want 2", len(got))
	}
	if !strings.Contains(got[0].Text, "Resolved: T01") {
		t.Errorf("resend without a phase did not send the latest report:\n%s", got[0].Text)
	}
	if !strings.Contains(flat(got[1].Text), `no report of phase "T09" was sent to you`) || !strings.Contains(flat(got[1].Text), "start, T01") {
		t.Errorf("resend T09 is not answered with the reports there are:\n%s", got[1].Text)
	}
}

// signedEntity is the first part of a multipart/signed mail: what the
// host's signature covers.
func signedEntity(t *testing.T, raw []byte) []byte {
	t.Helper()
	b := boundaryOf(t, raw)
	_, body, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	parts := bytes.Split(body, []byte("--"+b))
	if len(parts) < 3 {
		t.Fatalf("not a multipart/signed mail: %d parts", len(parts))
	}
	return parts[1]
}

func TestMailStatusAndHistory(t *testing.T) {
	p := newPlayerMail(t)
	p.take(allied0)
	p.Order(t, 0, "allied", "T01", "advance 2")
	p.Order(t, 0, "german", "T01", "advance 1")
	p.pass()
	p.Order(t, 0, "allied", "T02", "advance 1")
	p.pass()
	p.take(allied0)
	p.send(allied0, "status\nhistory\n")
	p.pass()
	got := p.take(allied0)
	if len(got) != 2 {
		t.Fatalf("%d answers to status and history, want 2", len(got))
	}
	g := p.game()
	for _, want := range []string{"Open phase: T02: Turn 2", "Deadline: " + g.Opened.Deadline.UTC().Format(time.RFC1123), "Orders owed by: allied, german", "Your orders: accepted for T02"} {
		if !strings.Contains(got[0].Text, want) {
			t.Errorf("status does not say %q:\n%s", want, got[0].Text)
		}
	}
	for _, want := range []string{"start: the game began; report sent (resend start)", "T01: Turn 1; your orders played; report sent (resend T01)", "T02: Turn 2; open, your orders due"} {
		if !strings.Contains(got[1].Text, want) {
			t.Errorf("history does not say %q:\n%s", want, got[1].Text)
		}
	}
}

func TestMailAddressMoves(t *testing.T) {
	p := newPlayerMail(t)
	p.take(allied0)
	const moved = "allied-new@players.test"
	p.send(allied0, "address "+moved+"\n")
	p.pass()
	old, nw := p.take(allied0), p.take(moved)
	if len(old) != 1 || len(nw) != 1 {
		t.Fatalf("the old address got %d mails and the new %d, want one each", len(old), len(nw))
	}
	for _, m := range append(old, nw...) {
		if !strings.Contains(flat(m.Text), "goes to "+moved+" from now on; it went to "+allied0) {
			t.Errorf("the answer to %v does not say where mail goes:\n%s", m.To, m.Text)
		}
	}
	if a := p.game().Players["allied"].Address; a != moved {
		t.Fatalf("allied's address is %s, want %s", a, moved)
	}
	// The next report goes to the new address only.
	p.Order(t, 0, "allied", "T01", "advance 2")
	p.Order(t, 0, "german", "T01", "advance 1")
	p.pass()
	if n := len(p.take(allied0)); n != 0 {
		t.Errorf("the old address still got %d mails", n)
	}
	if got := p.take(moved); len(got) != 2 || !strings.Contains(got[1].Subject, "your orders for T02") {
		t.Errorf("the new address got %d mails, want the acceptance and the report", len(got))
	}
	// Not an address: refused, and said why.
	p.send(allied0, "address nobody\n")
	p.pass()
	if got := p.take(moved); len(got) != 1 || !strings.Contains(flat(got[0].Text), `"nobody" is not a mail address`) {
		t.Errorf("a bad address is not answered so: %v", got)
	}
}

func TestMailCommandsAboveAnOrderFile(t *testing.T) {
	p := newPlayerMail(t)
	p.take(allied0)
	p.send(allied0, "status\nGame: g000\nPhase: T01\nSide: allied\nadvance 3\n")
	p.pass()
	got := p.take(allied0)
	if len(got) != 2 {
		t.Fatalf("%d mails, want the acceptance and the status", len(got))
	}
	if !strings.Contains(got[0].Subject, "orders accepted") || !strings.Contains(got[0].Text, "advance 3") {
		t.Errorf("the orders under the command are not accepted:\n%s", got[0].Text)
	}
	if !strings.Contains(got[1].Text, "Your orders: accepted for T01") {
		t.Errorf("the status does not know the orders above it:\n%s", got[1].Text)
	}
}

func TestMailQuotedFormIsRead(t *testing.T) {
	for _, c := range []struct{ name, prefix string }{{"space", "> "}, {"bare", ">"}, {"nested", "> > "}} {
		t.Run(c.name, func(t *testing.T) {
			p := newPlayerMail(t)
			report := p.take(allied0)[0].Text
			i := strings.Index(report, "Game: g000")
			if i < 0 {
				t.Fatalf("no form in the report:\n%s", report)
			}
			var b strings.Builder
			b.WriteString("Here are my orders.\n\nOn Thu, the host wrote:\n")
			for _, l := range strings.Split(strings.TrimRight(report[i:], "\n"), "\n") {
				b.WriteString(c.prefix + l + "\n")
			}
			b.WriteString(c.prefix + "advance 2\n")
			p.send(allied0, b.String())
			p.pass()
			got := p.take(allied0)
			if len(got) != 1 || !strings.Contains(got[0].Subject, "orders accepted") {
				t.Fatalf("the quoted form is not accepted: %d mails: %v", len(got), got)
			}
			if text := flat(got[0].Text); !strings.Contains(text, "Your form was quoted") || !strings.Contains(text, "The 2 line(s) above that line were not read") {
				t.Errorf("the reply does not say the form was read from its quote:\n%s", got[0].Text)
			}
		})
	}
}

func TestUnsignedMailToldHowToSignOncePerPhase(t *testing.T) {
	p := newPlayerMail(t)
	p.take(allied0)
	p.take(german0)
	unsigned := func(from, extra string) []byte {
		return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: my secret plan\r\nMessage-ID: <%d@players.test>\r\n%sContent-Type: text/plain\r\n\r\nGame: g000\r\nPhase: T01\r\nSide: allied\r\nadvance 3 SECRETWORD\r\n",
			from, hosttest.HostAddr, time.Now().UnixNano(), extra))
	}
	p.appendRaw(unsigned(allied0, ""))
	p.appendRaw(unsigned(allied0, ""))
	p.appendRaw(unsigned("Someone <stranger@elsewhere.test>", ""))
	p.appendRaw(unsigned(allied0, "Auto-Submitted: auto-replied\r\n"))
	p.pass()
	got := p.take(allied0)
	if len(got) != 1 {
		t.Fatalf("allied got %d answers to its unsigned mail, want 1 a phase", len(got))
	}
	if len(got[0].To) != 1 || got[0].To[0] != allied0 {
		t.Errorf("the answer went to %v, want only the registered address", got[0].To)
	}
	for _, secret := range []string{"SECRETWORD", "my secret plan", "advance 3"} {
		if strings.Contains(got[0].Text, secret) || strings.Contains(got[0].Subject, secret) {
			t.Errorf("the answer quotes %q of the unsigned mail", secret)
		}
	}
	for _, want := range []string{"mutt", "Thunderbird", "gpg --clearsign", compose.Fingerprint(p.Players[allied0])} {
		if !strings.Contains(got[0].Text, want) {
			t.Errorf("the answer does not say %q:\n%s", want, got[0].Text)
		}
	}
	if n := len(p.SMTP.Deliveries()); n != 0 {
		t.Errorf("%d other mails were sent (a stranger, robot mail)", n)
	}
	if n := p.Env.CountEvents(t, "g000", adjudicator.EvUnsignedAnswered); n != 1 {
		t.Errorf("%d UnsignedAnswered events, want 1", n)
	}
	// The next phase answers again, once.
	p.Order(t, 0, "allied", "T01", "advance 2")
	p.Order(t, 0, "german", "T01", "advance 1")
	p.pass()
	p.take(allied0)
	// A signed mail someone altered is no beginner's mistake: no answer.
	signed, err := compose.SignPGPMIMEMail(p.Players[allied0], allied0, hosttest.HostAddr, "orders", "Game: g000\nPhase: T02\nSide: allied\nadvance 1\n", p.SignAt(allied0))
	if err != nil {
		t.Fatal(err)
	}
	p.appendRaw(bytes.Replace(signed, []byte("advance 1"), []byte("advance 3"), 1))
	p.pass()
	if got := p.take(allied0); len(got) != 0 {
		t.Errorf("an altered signed mail got %d answers: %s", len(got), got[0].Subject)
	}
	p.appendRaw(unsigned(allied0, ""))
	p.pass()
	if got := p.take(allied0); len(got) != 1 || !strings.Contains(got[0].Subject, "not signed") {
		t.Errorf("the next phase's unsigned mail got %d answers, want 1", len(got))
	}
}

func TestMailCommandsCountInTheReplyLimit(t *testing.T) {
	p := newPlayerMail(t)
	p.take(allied0)
	for i := 0; i < adjudicator.MaxRepliesPerPhase/2+1; i++ {
		p.send(allied0, "status\nhistory\n")
	}
	p.pass()
	if got := p.take(allied0); len(got) != adjudicator.MaxRepliesPerPhase {
		t.Errorf("%d answers, want the limit of %d", len(got), adjudicator.MaxRepliesPerPhase)
	}
	if n := p.Env.CountEvents(t, "g000", adjudicator.EvPlayerCommand); n != adjudicator.MaxRepliesPerPhase+2 {
		t.Errorf("%d commands recorded, want every one (%d)", n, adjudicator.MaxRepliesPerPhase+2)
	}
}
