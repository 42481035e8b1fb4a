package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skagerrak/mail/gpgtest"
	"skagerrak/mail/stacktest"
)

// TestInteropPostfix plays by mail over Postfix in place of OpenSMTPD
// (Postfix from the shipped main.cf and Debian's master.cf, unpacked from
// Debian's package and not installed; Dovecot from the shipped
// configuration made with --postfix): a report reaches each player's
// mailbox through Postfix and LMTP; the German answers with stock mutt
// and the Allies with gpg --clearsign, both accepted, and the next turn's
// report arrives. A report to an address Postfix does not know is refused
// at submission (550 5.1.1): the referee's mailbox is told, status exits
// non-zero, and after the referee's address command the player gets the
// report. A report to an address Dovecot does not know is bounced by
// Postfix at once: the bounce reaches status and the referee. .ci/run
// unpacks Postfix and sets SKAGERRAK_INTEROP=1: there it must run.
func TestInteropPostfix(t *testing.T) {
	stacktest.Require(t, "mutt", "tmux", "gpg")
	s := stacktest.StartPostfix(t, "skagerrak.test", []string{"host", "german", "allied", "referee"}, []string{"ghost"})
	german, allied, referee := s.NewPlayer(t, "german", "Erich Raeder"), s.NewPlayer(t, "allied", "Charles Forbes"), s.NewPlayer(t, "referee", "Referee")
	h := s.NewHost(t, "host", german, allied, referee)
	cli := func(args ...string) string {
		t.Helper()
		code, out, errs := run(t, append([]string{"--config", h.Config}, args...)...)
		if code != 0 {
			t.Fatalf("skagerrak %s: exit %d\n%s\n%s\npostfix:\n%s", strings.Join(args, " "), code, out, errs, s.MTALog())
		}
		return out
	}
	status := func(game string) (int, string) {
		code, out, _ := run(t, "--config", h.Config, "status", game)
		return code, out
	}
	ghostKey := gpgtest.New(t)
	ghostFPR := ghostKey.GenKey("Ghost <ghost@skagerrak.test>", "ed25519", "sign", "never")
	ghostFile := filepath.Join(h.Dir, "ghost.asc")
	os.WriteFile(ghostFile, ghostKey.ExportPublic(ghostFPR), 0o600)
	typo := "germna@skagerrak.test" // no such user: Postfix refuses it at RCPT
	for game, germanSide := range map[string]string{"km-1": german.Addr + "," + h.KeyFile(t, german),
		"km-9": typo + "," + h.KeyFile(t, german), "km-2": "ghost@skagerrak.test," + ghostFile} {
		cli("new", "--game", game, "--ruleset", "kriegsmarine", "--side", "german="+germanSide,
			"--side", "allied="+allied.Addr+","+h.KeyFile(t, allied), "--referee", referee.Addr+","+h.KeyFile(t, referee))
	}
	cli("poll", "--once")

	// Turn 1 of km-1: the German answers with mutt, the Allies (who read
	// all three games' reports) with gpg --clearsign.
	rep := german.ReadSigned(t, german.WaitInbox(t, 1, time.Minute)[0].Raw, h.FPR)
	german.Send(t, h.Addr, german.Mutt(t, h.Addr, "orders km-1", stacktest.OrderForm(t, rep)))
	var form string
	for _, m := range allied.WaitInbox(t, 3, time.Minute) {
		if f := stacktest.OrderForm(t, allied.ReadSigned(t, m.Raw, h.FPR)); strings.Contains(f, "Game: km-1") {
			form = f
		}
	}
	allied.Send(t, h.Addr, allied.Clearsigned(t, h.Addr, "orders km-1", form))
	waitDelivered(t, s, 3) // the two orders and Postfix's bounce of ghost@'s report
	if out := cli("poll", "--once"); !strings.Contains(out, "accepted 2,") {
		t.Fatalf("turn 1: %s", out)
	}
	nextForm(t, german, h.FPR, "km-1")
	nextForm(t, allied, h.FPR, "km-1")

	// km-2: the bounce reaches status, which exits non-zero.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !stacktest.WaitFor(ctx, func() bool {
		cli("poll", "--once")
		code, out := status("km-2")
		return code != 0 && strings.Contains(out, "UNDELIVERED: report mail (phase T01) to german <ghost@skagerrak.test> bounced")
	}) {
		_, out := status("km-2")
		t.Fatalf("no bounce in status:\n%s\npostfix:\n%s", out, s.MTALog())
	}
	// km-9: refused at submission, in status and told to the referee.
	if code, out := status("km-9"); code == 0 || !strings.Contains(out, "UNDELIVERED: report mail (phase T01) to german <"+typo+"> refused by the mail server") || !strings.Contains(out, "550 5.1.1") {
		t.Fatalf("status after the refusal: %d\n%s", code, out)
	}
	notes := strings.Join(texts(t, referee, h.FPR), "\n")
	for _, want := range []string{"Game:     km-9", "Address:  " + typo, "The mail server refused it", "Game:     km-2", "Address:  ghost@skagerrak.test", "could not be delivered"} {
		if !strings.Contains(notes, want) {
			t.Errorf("the referee's mail lacks %q:\n%s", want, notes)
		}
	}
	cli("referee", "km-9", "address", "german", german.Addr, "a typo in the address")
	cli("poll", "--once")
	ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !stacktest.WaitFor(ctx, func() bool {
		for _, m := range german.Inbox(t) {
			if text := german.ReadSigned(t, m.Raw, h.FPR); strings.Contains(text, "sent again") && strings.Contains(text, "Game: km-9") {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("the German did not get km-9's report sent again\npostfix:\n%s", s.MTALog())
	}
	if code, out := status("km-9"); code != 0 || strings.Contains(out, "UNDELIVERED") {
		t.Errorf("status after the report went again: %d\n%s", code, out)
	}
	if out := cli("verify", filepath.Join(h.Dir, "games", "km-1")); !strings.Contains(out, "intact") || !strings.Contains(out, "2 signatures checked") {
		t.Errorf("verify km-1:\n%s", out)
	}
}
