package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/mail/gpgtest"
	"skagerrak/mail/stacktest"
)

// TestInteropStockClients plays by mail against the world as it ships:
// Dovecot in its default Maildir layout, OpenSMTPD delivering into it over
// LMTP, the daemon as the binary wires it (Main, default folder names), and
// players who read their reports over IMAP, check the host's signature
// with gpg (decrypting with gpg where the game encrypts), and answer with
// the order form: with stock mutt (PGP/MIME, the form as the body and as an
// attachment, ISO-8859-1 because the form names Blücher and Köln), with
// gpg --clearsign, with gpg --detach-sign and a note, and in the shape
// Thunderbird sends (protected headers, its key attached and in an
// Autocrypt header, which must never count). A report to a user the MTA
// does not know bounces, and the bounce reaches status and the referee.
// .ci/run installs the servers and sets SKAGERRAK_INTEROP=1: there it must
// run; elsewhere it says loudly that it skips.
func TestInteropStockClients(t *testing.T) {
	stacktest.Require(t, "dovecot", "smtpd", "mutt", "tmux", "gpg")
	s := stacktest.Start(t, "skagerrak.test", []string{"host", "german", "allied", "referee", "stranger"}, []string{"ghost"})
	german, allied := s.NewPlayer(t, "german", "Erich Raeder"), s.NewPlayer(t, "allied", "Charles Forbes")
	referee, stranger := s.NewPlayer(t, "referee", "Referee"), s.NewPlayer(t, "stranger", "Stranger")
	h := newInteropHost(t, s, false)
	host, hostFPR, cli := h.Addr, h.FPR, h.cli
	h.introduce(german, allied, referee)
	ghostKey := gpgtest.New(t)
	ghostFPR := ghostKey.GenKey("Ghost <ghost@skagerrak.test>", "ed25519", "sign", "never")
	ghostKey.Run(nil, "--quick-add-key", ghostFPR, "cv25519", "encr", "never")

	if out := cli("config", "check", "--connect"); !strings.Contains(out, "folders skagerrak.processed and skagerrak.rejected") {
		t.Fatalf("config check on Dovecot's Maildir:\n%s", out)
	}
	cli("new", "--game", "km-1", "--ruleset", "kriegsmarine",
		"--side", "german="+h.party(german), "--side", "allied="+h.party(allied), "--referee", h.party(referee))
	cli("new", "--game", "km-2", "--ruleset", "kriegsmarine", "--encrypt",
		"--side", "german=ghost@skagerrak.test,"+h.keyFile("ghost", ghostKey.ExportPublic(ghostFPR)),
		"--side", "allied="+h.party(allied), "--referee", h.party(referee))
	cli("poll", "--once")

	// Turn 1. The German answers with mutt, the form as the body.
	rep := german.ReadSigned(t, german.WaitInbox(t, 1, time.Minute)[0].Raw, hostFPR)
	// The player notes something in German, as players do: mutt must
	// then send ISO-8859-1 (the form itself names Blücher only once the
	// cruiser is in play).
	form := stacktest.OrderForm(t, rep) + "# Blücher, Köln und Königsberg laufen später aus.\n"
	muttMail := german.Mutt(t, host, "orders km-1", form)
	if !bytes.Contains(muttMail, []byte("charset=iso-8859-1")) {
		t.Fatalf("mutt did not send ISO-8859-1:\n%s", muttMail)
	}
	german.Send(t, host, muttMail)
	// The Allies read both games' reports (km-2's encrypted) and answer
	// km-1 clearsigned, km-2 with a detached signature and a note.
	forms := map[string]string{}
	for _, m := range allied.WaitInbox(t, 2, time.Minute) {
		text := allied.ReadSigned(t, m.Raw, hostFPR)
		f := stacktest.OrderForm(t, text)
		forms[strings.Fields(f)[1]] = f
		if strings.Contains(f, "Game: km-2") && !bytes.Contains(m.Raw, []byte("multipart/encrypted")) {
			t.Errorf("km-2's report was not encrypted")
		}
	}
	allied.Send(t, host, allied.Clearsigned(t, host, "orders km-1", forms["km-1"]))
	allied.Send(t, host, allied.DetachedWithNote(t, host, "orders km-2", "Here are my orders for km-2.\nmove Renown X1\n", forms["km-2"]))
	// A stranger in Thunderbird's shape, his key attached and in Autocrypt.
	stranger.Send(t, host, stranger.Thunderbird(t, host, "orders", "my orders", "orders.txt", forms["km-1"]))
	waitDelivered(t, s, 4)
	out := cli("poll", "--once")
	if !strings.Contains(out, "accepted 3, rejected 1") {
		t.Fatalf("turn 1: %s\nsmtpd:\n%s", out, s.Log("smtpd.log"))
	}
	// Three orders; and the bounce of km-2's report to ghost@ too when
	// OpenSMTPD gave up (after 4 s) before this pass, as on a slow machine.
	if n := s.Count(t, "host", "skagerrak.processed"); n != 3 && (n != 4 || !strings.Contains(statusOf(t, h.Config, "km-2"), "bounced")) {
		t.Errorf("skagerrak.processed holds %d, want 3 (4 with the bounce, once status shows it)", n)
	}
	if n := s.Count(t, "host", "skagerrak.rejected"); n != 1 {
		t.Errorf("skagerrak.rejected holds %d, want the stranger's", n)
	}
	if n := len(stranger.Inbox(t)); n != 0 {
		t.Errorf("the stranger got %d mails; unknown keys get no reply", n)
	}

	// Turn 2 of km-1: the German attaches the form with mutt, the Allies
	// send it in Thunderbird's shape.
	german2 := nextForm(t, german, hostFPR, "km-1") + "# Lützow folgt.\n"
	path := filepath.Join(t.TempDir(), "orders.txt")
	os.WriteFile(path, []byte(german2), 0o600)
	german.Send(t, host, german.Mutt(t, host, "orders km-1 T02", "My orders are attached.\n", path))
	allied2 := nextForm(t, allied, hostFPR, "km-1")
	allied.Send(t, host, allied.Thunderbird(t, host, "orders km-1 T02", "Orders attached.", "orders.txt", allied2))
	waitDelivered(t, s, 6)
	if out := cli("poll", "--once"); !strings.Contains(out, "accepted 2,") {
		t.Fatalf("turn 2: %s", out)
	}
	replies := strings.Join(texts(t, allied, hostFPR), "\n")
	if !strings.Contains(replies, "orders accepted") || !strings.Contains(strings.Join(strings.Fields(replies), " "), "Not read as orders") {
		t.Errorf("the Allies' reply does not say what was ignored:\n%s", replies)
	}

	// The report to ghost@ bounced (OpenSMTPD gives up after 4 s): the DSN
	// reaches status, which exits non-zero, and the referee.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	status := func() (int, string) {
		code, out, _ := run(t, "--config", h.Config, "status", "km-2")
		return code, out
	}
	bounced := stacktest.WaitFor(ctx, func() bool {
		cli("poll", "--once")
		code, out := status()
		return code != 0 && strings.Contains(out, "UNDELIVERED: report mail (phase T01) to german <ghost@skagerrak.test> bounced")
	})
	if !bounced {
		_, out := status()
		t.Fatalf("no bounce in status:\n%s\nsmtpd:\n%s", out, s.Log("smtpd.log"))
	}
	notes := strings.Join(texts(t, referee, hostFPR), "\n")
	if !strings.Contains(notes, "could not be delivered") || !strings.Contains(notes, "Side:     german") {
		t.Errorf("the referee was not told of the bounce:\n%s", notes)
	}
	// Both logs verify: every signature again, the ISO-8859-1 orders
	// decoded again the same way (km-1: 4 orders; km-2: 1).
	for g, sigs := range map[string]string{"km-1": "4 signatures checked", "km-2": "1 signature checked"} {
		if out := cli("verify", h.game(g)); !strings.Contains(out, "intact") || !strings.Contains(out, sigs) {
			t.Errorf("verify %s:\n%s", g, out)
		}
	}
	// And so do their replay pages, in the browser: mutt's, gpg's and
	// Thunderbird's mail checked by the page's script.
	pageChecksAsVerify(t, h.game("km-1"), 4)
	pageChecksAsVerify(t, h.game("km-2"), 1)
	l := cli("log", h.game("km-1"), "--json")
	if !strings.Contains(l, `"charset":"iso-8859-1"`) {
		t.Errorf("km-1's log records no ISO-8859-1 orders")
	}
}

// waitDelivered waits until the host's INBOX and folders hold n messages
// in all (delivery through OpenSMTPD is asynchronous).
func waitDelivered(t *testing.T, s *stacktest.Stack, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	count := func() int {
		c := 0
		for _, f := range []string{"INBOX", "skagerrak.processed", "skagerrak.rejected"} {
			if k := s.Count(t, "host", f); k > 0 {
				c += k
			}
		}
		return c
	}
	if !stacktest.WaitFor(ctx, func() bool { return count() >= n }) {
		t.Fatalf("the host holds %d messages, want %d\nMTA:\n%s", count(), n, s.MTALog())
	}
}

// nextForm waits for the player's next report of a game and returns its
// order form.
func nextForm(t *testing.T, p *stacktest.Player, hostFPR, game string) string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		for _, m := range p.Inbox(t) {
			text := p.ReadSigned(t, m.Raw, hostFPR)
			if strings.Contains(m.Subject, game+": your orders for") {
				return stacktest.OrderForm(t, text)
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("no new report of %s for %s", game, p.Addr)
	return ""
}

// texts reads every new mail of a player, checking each signature.
func texts(t *testing.T, p *stacktest.Player, hostFPR string) []string {
	t.Helper()
	var out []string
	time.Sleep(2 * time.Second) // delivery is asynchronous
	for _, m := range p.Inbox(t) {
		out = append(out, p.ReadSigned(t, m.Raw, hostFPR))
	}
	return out
}

// TestInteropRefusedAtSubmission: OpenSMTPD as the interop suite runs it
// (a virtual users table, its default answers) refuses at RCPT TO a
// recipient of its domain it does not know (524 5.2.4). The report to that
// address reaches the referee's mailbox, naming game, side and phase;
// status exits non-zero; after the referee's address command the player
// receives the report at the right address and status exits 0.
func TestInteropRefusedAtSubmission(t *testing.T) {
	stacktest.Require(t, "dovecot", "smtpd", "gpg")
	s := stacktest.Start(t, "skagerrak.test", []string{"host", "german", "allied", "referee"}, nil)
	german, allied, referee := s.NewPlayer(t, "german", "Erich Raeder"), s.NewPlayer(t, "allied", "Charles Forbes"), s.NewPlayer(t, "referee", "Referee")
	h := newInteropHost(t, s, false)
	hostFPR, cli := h.FPR, h.try
	h.introduce(german, allied, referee)
	typo := "germna@skagerrak.test" // no such user: OpenSMTPD refuses it at RCPT
	if code, out := cli("new", "--game", "km-9", "--ruleset", "kriegsmarine",
		"--side", "german="+typo+","+h.keyFile("german", german.PublicKey()), "--side", "allied="+h.party(allied),
		"--referee", h.party(referee)); code != 0 {
		t.Fatal(out)
	}
	if code, out := cli("poll", "--once"); code != 0 {
		t.Fatalf("poll: %s", out)
	}
	told := referee.ReadSigned(t, referee.WaitInbox(t, 1, time.Minute)[0].Raw, hostFPR)
	for _, want := range []string{"Game:     km-9", "Side:     german", "Phase:    T01", "Address:  " + typo, "The mail server refused it"} {
		if !strings.Contains(told, want) {
			t.Errorf("the referee's mail lacks %q:\n%s\nsmtpd:\n%s", want, told, s.Log("smtpd.log"))
		}
	}
	if code, out := cli("status", "km-9"); code == 0 || !strings.Contains(out, "UNDELIVERED: report mail (phase T01) to german <"+typo+"> refused by the mail server: smtpout: permanent failure 524 5.2.4") {
		t.Fatalf("status after the refusal: %d\n%s", code, out)
	}
	if code, out := cli("referee", "km-9", "address", "german", german.Addr, "a typo in the address"); code != 0 {
		t.Fatal(out)
	}
	if code, out := cli("poll", "--once"); code != 0 {
		t.Fatalf("poll: %s", out)
	}
	var report string
	for _, m := range german.WaitInbox(t, 2, time.Minute) {
		if text := german.ReadSigned(t, m.Raw, hostFPR); strings.Contains(text, "sent again") {
			report = text
		}
	}
	if !strings.Contains(report, "Game: km-9") {
		t.Fatalf("the German did not get the report sent again:\n%s", report)
	}
	if code, out := cli("status", "km-9"); code != 0 || strings.Contains(out, "UNDELIVERED") {
		t.Fatalf("status after the report went again: %d\n%s", code, out)
	}
}

// TestInteropPlayerCommands plays the mail commands with stock clients on
// Dovecot and OpenSMTPD: a player asks for help (mutt) and gets the guide;
// asks with gpg --clearsign to have the first report sent again and gets
// it with the same body, byte for byte; answers with the form quoted as
// mutt quotes a reply and is accepted; sends unsigned mail twice and gets
// one answer, at the registered address; and the other player moves their
// address, both addresses told.
func TestInteropPlayerCommands(t *testing.T) {
	stacktest.Require(t, "dovecot", "smtpd", "mutt", "tmux", "gpg")
	s := stacktest.Start(t, "skagerrak.test", []string{"host", "german", "allied", "allied2", "stranger"}, nil)
	german, allied := s.NewPlayer(t, "german", "Erich Raeder"), s.NewPlayer(t, "allied", "Charles Forbes")
	stranger := s.NewPlayer(t, "stranger", "Stranger")
	h := newInteropHost(t, s, false)
	host, hostFPR, cli := h.Addr, h.FPR, h.cli
	h.introduce(german, allied)
	cli("new", "--game", "km-1", "--ruleset", "kriegsmarine", "--side", "german="+h.party(german), "--side", "allied="+h.party(allied))
	cli("poll", "--once")
	first := german.WaitInbox(t, 1, time.Minute)[0]
	firstText := german.ReadSigned(t, first.Raw, hostFPR)
	if !strings.Contains(first.Subject, "km-1: your orders for") || !bytes.Contains(first.Raw, []byte("guide.txt")) {
		t.Fatalf("the first report (%q) does not say orders are due or carries no guide", first.Subject)
	}
	allied.WaitInbox(t, 1, time.Minute)

	// A key's messages count in the order signed, to the second.
	next := func() { time.Sleep(1100 * time.Millisecond) }
	german.Send(t, host, german.Mutt(t, host, "help", "help\n"))
	next()
	german.Send(t, host, german.Clearsigned(t, host, "again", "resend start\n"))
	next()
	var quoted strings.Builder
	quoted.WriteString("On the first day, the host wrote:\n")
	for _, l := range strings.Split(strings.TrimRight(stacktest.OrderForm(t, firstText), "\n"), "\n") {
		quoted.WriteString("> " + l + "\n")
	}
	german.Send(t, host, german.Mutt(t, host, "Re: orders", quoted.String()))
	unsigned := func(p *stacktest.Player) []byte {
		return []byte("From: " + p.Name + " <" + p.Addr + ">\r\nTo: <" + host + ">\r\nSubject: my plan\r\nMessage-ID: <" +
			time.Now().Format("150405.000000000") + "@skagerrak.test>\r\nContent-Type: text/plain\r\n\r\nGame: km-1\r\nSECRETWORD\r\n")
	}
	german.Send(t, host, unsigned(german))
	german.Send(t, host, unsigned(german))
	stranger.Send(t, host, unsigned(stranger))
	allied.Send(t, host, allied.Clearsigned(t, host, "moving", "address allied2@skagerrak.test\n"))
	waitDelivered(t, s, 7)
	cli("poll", "--once")

	got := german.WaitInbox(t, 4, time.Minute)
	bySubject := map[string][]stacktest.Mail{}
	for _, m := range got {
		switch {
		case strings.Contains(m.Subject, "player's guide"):
			bySubject["help"] = append(bySubject["help"], m)
		case m.Subject == first.Subject:
			bySubject["resend"] = append(bySubject["resend"], m)
		case strings.Contains(m.Subject, "orders accepted"):
			bySubject["accepted"] = append(bySubject["accepted"], m)
		case strings.Contains(m.Subject, "not signed"):
			bySubject["unsigned"] = append(bySubject["unsigned"], m)
		}
	}
	for _, k := range []string{"help", "resend", "accepted", "unsigned"} {
		if len(bySubject[k]) != 1 {
			t.Fatalf("german got %d %s mails of %d: %v", len(bySubject[k]), k, len(got), got)
		}
	}
	if text := german.ReadSigned(t, bySubject["help"][0].Raw, hostFPR); !strings.Contains(text, "Orders and commands by mail") {
		t.Errorf("help did not answer with the guide:\n%s", text)
	}
	again := bySubject["resend"][0]
	if text := german.ReadSigned(t, again.Raw, hostFPR); text != firstText {
		t.Errorf("the report sent again reads otherwise:\n%s\n---\n%s", firstText, text)
	}
	if !bytes.Equal(stacktest.SignedBody(t, first.Raw), stacktest.SignedBody(t, again.Raw)) {
		t.Errorf("the report sent again has another body")
	}
	if text := strings.Join(strings.Fields(german.ReadSigned(t, bySubject["accepted"][0].Raw, hostFPR)), " "); !strings.Contains(text, "Your form was quoted") {
		t.Errorf("the quoted form's acceptance does not say it was read from the quote:\n%s", text)
	}
	if text := german.ReadSigned(t, bySubject["unsigned"][0].Raw, hostFPR); strings.Contains(text, "SECRETWORD") || !strings.Contains(text, "gpg --clearsign") {
		t.Errorf("the answer to unsigned mail quotes it or says not how to sign:\n%s", text)
	}
	if n := len(stranger.Inbox(t)); n != 0 {
		t.Errorf("the stranger got %d mails", n)
	}
	for _, m := range allied.WaitInbox(t, 1, time.Minute) {
		if text := strings.Join(strings.Fields(allied.ReadSigned(t, m.Raw, hostFPR)), " "); !strings.Contains(text, "goes to allied2@skagerrak.test from now on") {
			t.Errorf("the old address was not told of the move:\n%s", text)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !stacktest.WaitFor(ctx, func() bool { return s.Count(t, "allied2", "INBOX") == 1 }) {
		t.Errorf("the new address holds %d mails, want the answer", s.Count(t, "allied2", "INBOX"))
	}
	if out := cli("verify", h.game("km-1")); !strings.Contains(out, "intact") {
		t.Errorf("verify km-1:\n%s", out)
	}
}

// statusOf is the output of status for one game.
func statusOf(t *testing.T, cfg, game string) string {
	t.Helper()
	_, out, _ := run(t, "--config", cfg, "status", game)
	return out
}
