package bounce

import (
	"strings"
	"testing"
)

// dsn is shaped as OpenSMTPD's bounce of mail to an unknown local user.
const dsn = "Return-Path: <>\r\n" +
	"From: Mailer Daemon <MAILER-DAEMON@mx.example.org>\r\n" +
	"To: host@skagerrak.test\r\n" +
	"Subject: Delivery status notification: error\r\n" +
	"MIME-Version: 1.0\r\n" +
	"Content-Type: multipart/report; report-type=delivery-status;\r\n boundary=\"15540872338.1ee3f2a3.1\"\r\n\r\n" +
	"--15540872338.1ee3f2a3.1\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n" +
	"    Hi!\r\n\r\n    This is the MAILER-DAEMON, please DO NOT REPLY to this email.\r\n\r\n" +
	"--15540872338.1ee3f2a3.1\r\nContent-Type: message/delivery-status\r\n\r\n" +
	"Reporting-MTA: dns; mx.example.org\r\nArrival-Date: Tue, 1 Dec 2026 12:00:00 +0000\r\n\r\n" +
	"Final-Recipient: rfc822; nobody@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n" +
	"Diagnostic-Code: smtp; 550 Invalid recipient: <nobody@example.org>\r\n\r\n" +
	"--15540872338.1ee3f2a3.1\r\nContent-Type: message/rfc822\r\n\r\n" +
	"From: host@skagerrak.test\r\nTo: nobody@example.org\r\nSubject: report\r\nMessage-ID: <g1.7.report.german@skagerrak.test>\r\n\r\nbody\r\n" +
	"--15540872338.1ee3f2a3.1--\r\n"

func TestDSNRead(t *testing.T) {
	info := Triage([]byte(dsn))
	if !info.Auto || info.Report == nil {
		t.Fatalf("triage %+v, want an automatic DSN", info)
	}
	r := info.Report
	if len(r.MessageIDs) == 0 || r.MessageIDs[0] != "<g1.7.report.german@skagerrak.test>" {
		t.Errorf("message ids %q", r.MessageIDs)
	}
	if len(r.Recipients) != 1 {
		t.Fatalf("recipients %+v", r.Recipients)
	}
	got := r.Recipients[0]
	if got.Recipient != "nobody@example.org" || got.Action != "failed" || got.Status != "5.1.1" || !strings.Contains(got.Diagnostic, "550 Invalid recipient") {
		t.Errorf("recipient %+v", got)
	}
}

// Headers only (text/rfc822-headers), and an MTA that names the original
// only in References: the Message-ID is still found.
func TestDSNHeadersOnly(t *testing.T) {
	raw := strings.Replace(dsn, "Content-Type: message/rfc822", "Content-Type: text/rfc822-headers", 1)
	if ids := Triage([]byte(raw)).Report.MessageIDs; len(ids) == 0 || ids[0] != "<g1.7.report.german@skagerrak.test>" {
		t.Errorf("ids %q", ids)
	}
	cut := dsn[:strings.Index(dsn, "--15540872338.1ee3f2a3.1\r\nContent-Type: message/rfc822")] + "--15540872338.1ee3f2a3.1--\r\n"
	cut = strings.Replace(cut, "MIME-Version", "References: <g1.7.report.german@skagerrak.test>\r\nMIME-Version", 1)
	if ids := Triage([]byte(cut)).Report.MessageIDs; len(ids) != 1 || ids[0] != "<g1.7.report.german@skagerrak.test>" {
		t.Errorf("ids from References %q", ids)
	}
}

func TestTriage(t *testing.T) {
	person := "From: Ed <ed@example.org>\r\nTo: host@skagerrak.test\r\nSubject: orders\r\n\r\nhi\r\n"
	for _, c := range []struct {
		name, raw string
		auto      bool
	}{
		{"a person", person, false},
		{"Auto-Submitted: no", "Auto-Submitted: no\r\n" + person, false},
		{"vacation", "Auto-Submitted: auto-replied; owner-email=ed@example.org\r\n" + person, true},
		{"postmaster", strings.Replace(person, "ed@example.org", "postmaster@example.org", 1), true},
		{"empty return path", "Return-Path: <>\r\n" + person, true},
		{"bulk", "Precedence: bulk\r\n" + person, true},
		{"Exchange OOF", "X-Auto-Response-Suppress: All\r\n" + person, true},
		{"garbage", "not a header at all", false},
	} {
		if got := Triage([]byte(c.raw)); got.Auto != c.auto {
			t.Errorf("%s: auto %v (%s), want %v", c.name, got.Auto, got.Why, c.auto)
		}
	}
}

// OpenSMTPD 6.8 sends its DSN (here for mail to an unknown local user that
// expired in the queue) as multipart/mixed.
func TestOpenSMTPDDSN(t *testing.T) {
	raw := "Return-Path: <>\r\nSubject: Delivery status notification: delayed\r\nFrom: Mailer Daemon <MAILER-DAEMON@vm>\r\n" +
		"To: host@game.test\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed;boundary=\"7810476587151847434/vm\"\r\n\r\n" +
		"This is a MIME-encapsulated message.\r\n\r\n--7810476587151847434/vm\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n    Hi!\r\n\r\n" +
		"--7810476587151847434/vm\r\nContent-Description: Delivery Report\r\nContent-Type: message/delivery-status\r\n\r\n" +
		"Reporting-MTA: dns; vm\r\n\r\nFinal-Recipient: rfc822; ghost@game.test\r\nAction: delayed\r\nStatus: 4.4.7\r\n\r\n" +
		"--7810476587151847434/vm\r\nContent-Description: Message headers\r\nContent-Type: text/rfc822-headers\r\n\r\n" +
		"From: host@game.test\r\nTo: ghost@game.test\r\nMessage-ID: <g1.7.report.german@game.test>\r\n\r\nhello\r\n\r\n--7810476587151847434/vm--\r\n"
	info := Triage([]byte(raw))
	if !info.Auto || info.Report == nil || len(info.Report.MessageIDs) == 0 || info.Report.MessageIDs[0] != "<g1.7.report.german@game.test>" {
		t.Fatalf("triage %+v", info)
	}
	if r := info.Report.Recipients; len(r) != 1 || r[0].Action != "delayed" || r[0].Status != "4.4.7" || r[0].Recipient != "ghost@game.test" {
		t.Errorf("recipients %+v", r)
	}
}
