package stacktest

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Postfix from the shipped main.cf and Debian's master.cf, unpacked and
// not installed: mail sent over STARTTLS (the configured certificate,
// checked) reaches the user's Maildir through Dovecot's LMTP socket in
// Postfix's chroot; an address of the domain it does not know is refused
// at RCPT TO with 550 5.1.1; mail to an address Dovecot does not know is
// bounced to the sender at once, with a DSN.
func TestPostfixStackDeliversRefusesAndBounces(t *testing.T) {
	s := StartPostfix(t, "stack.test", []string{"ann", "bob"}, []string{"ghost"})
	c, err := smtp.DialStartTLS(s.SMTPAddr, s.TLSConfig())
	if err != nil {
		t.Fatalf("STARTTLS with the configured certificate: %v\n%s", err, s.MTALog())
	}
	defer c.Close()
	msg := "From: <ann@stack.test>\r\nTo: <bob@stack.test>\r\nSubject: hello\r\nMessage-ID: <1@stack.test>\r\n\r\nhello bob\r\n"
	if err := c.SendMail("ann@stack.test", []string{"bob@stack.test"}, strings.NewReader(msg)); err != nil {
		t.Fatalf("send over STARTTLS: %v\n%s", err, s.MTALog())
	}
	err = c.SendMail("ann@stack.test", []string{"nobody@stack.test"}, strings.NewReader(msg))
	if e, ok := err.(*smtp.SMTPError); !ok || e.Code != 550 || e.EnhancedCode != (smtp.EnhancedCode{5, 1, 1}) {
		t.Errorf("an unknown address: %v, want 550 5.1.1", err)
	}
	s.Deliver(t, "ann@stack.test", "ghost@stack.test", []byte(strings.Replace(msg, "<1@", "<2@", 1)))

	bob, ann := s.NewPlayer(t, "bob", "Bob"), s.NewPlayer(t, "ann", "Ann")
	if got := bob.WaitInbox(t, 1, 20*time.Second); !bytes.Contains(got[0].Raw, []byte("hello bob")) {
		t.Errorf("bob got:\n%s", got[0].Raw)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var dsn []byte
	bounced := WaitFor(ctx, func() bool {
		for _, m := range ann.Inbox(t) {
			dsn = m.Raw
		}
		return dsn != nil
	})
	if !bounced || !bytes.Contains(dsn, []byte("multipart/report")) || !bytes.Contains(dsn, []byte("ghost@stack.test")) {
		t.Errorf("no DSN for ghost@ reached ann:\n%s\n%s", dsn, s.MTALog())
	}
}
