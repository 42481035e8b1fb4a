package loopback

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

func TestIMAPServerAppendListReset(t *testing.T) {
	s, err := StartIMAP(IMAPOptions{Users: []IMAPUser{{"u", "p"}}, DisableMove: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.Addr(), "127.0.0.1:") {
		t.Errorf("listening on %s, not loopback", s.Addr())
	}
	raw := []byte("Subject: hi\r\n\r\nbody\r\n")
	uid, err := s.Append("u", "", raw, imap.FlagFlagged)
	if err != nil || uid != 1 {
		t.Fatalf("Append: uid %d, %v", uid, err)
	}
	if _, err := s.Append("nobody", "", raw); err == nil {
		t.Error("Append for an unknown user succeeded")
	}
	msgs, err := s.Messages("u", "INBOX")
	if err != nil || len(msgs) != 1 || !bytes.Equal(msgs[0].Raw, raw) || !slices.Contains(msgs[0].Flags, imap.FlagFlagged) {
		t.Fatalf("Messages: %+v, %v", msgs, err)
	}

	c, err := imapclient.DialInsecure(s.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("u", "p").Wait(); err != nil {
		t.Fatal(err)
	}
	caps, err := c.Capability().Wait()
	if err != nil {
		t.Fatal(err)
	}
	if caps.Has(imap.CapMove) || !caps.Has(imap.CapUIDPlus) || !caps.Has(imap.CapIdle) {
		t.Errorf("capabilities %v: want UIDPLUS and IDLE without MOVE", caps)
	}
	if err := c.Create("Archive", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	folders, err := s.Folders("u")
	if err != nil || !slices.Equal(folders, []string{"Archive", "INBOX"}) {
		t.Fatalf("Folders: %v, %v", folders, err)
	}

	before, _ := s.UIDValidity("u", "INBOX")
	if err := s.ResetUIDValidity("u", "INBOX"); err != nil {
		t.Fatal(err)
	}
	after, _ := s.UIDValidity("u", "INBOX")
	msgs, _ = s.Messages("u", "INBOX")
	if after == before || len(msgs) != 1 || !bytes.Equal(msgs[0].Raw, raw) || !slices.Contains(msgs[0].Flags, imap.FlagFlagged) {
		t.Fatalf("reset: UIDVALIDITY %d -> %d, messages %+v", before, after, msgs)
	}
	select {
	case <-c.Closed():
	case <-time.After(5 * time.Second):
		t.Error("the reset did not drop an open session")
	}
}

func TestIMAPServerRefusesCreate(t *testing.T) {
	s, err := StartIMAP(IMAPOptions{Users: []IMAPUser{{"u", "p"}}, RefuseCreate: []string{"No"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := s.dial("u")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Create("No", nil).Wait(); err == nil {
		t.Error("refused folder was created")
	}
	if err := c.Create("Yes", nil).Wait(); err != nil {
		t.Error(err)
	}
	if !c.Caps().Has(imap.CapMove) {
		t.Error("the wrapping session lost MOVE")
	}
}

func TestSMTPServerCollectsAndFails(t *testing.T) {
	serverTLS, clientTLS, err := SelfSignedTLS()
	if err != nil {
		t.Fatal(err)
	}
	s, err := StartSMTP(SMTPOptions{Username: "u", Password: "p", TLSConfig: serverTLS})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	send := func(to ...string) error {
		c, err := smtp.DialStartTLS(s.Addr(), clientTLS)
		if err != nil {
			return err
		}
		defer c.Close()
		if err := c.Auth(sasl.NewPlainClient("", "u", "p")); err != nil {
			return err
		}
		return c.SendMail("host@x", to, strings.NewReader("Subject: x\r\n\r\nhello\r\n"))
	}
	if err := send("a@x", "b@x"); err != nil {
		t.Fatal(err)
	}
	s.FailNext(1, 451, "later")
	err = send("a@x")
	var serr *smtp.SMTPError
	if !errors.As(err, &serr) || serr.Code != 451 {
		t.Fatalf("FailNext 451: got %v", err)
	}
	if err := send("a@x"); err != nil {
		t.Fatal(err)
	}
	if n := s.Attempts(); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
	if got := s.For("A@x"); len(got) != 2 || !got[0].TLS || got[0].AuthUser != "u" || got[0].From != "host@x" {
		t.Fatalf("For(a): %+v", got)
	}
	if got := s.Take("a@x"); len(got) != 2 {
		t.Fatalf("Take(a): %d", len(got))
	}
	if got := s.Take("a@x"); len(got) != 0 {
		t.Fatalf("second Take(a): %d", len(got))
	}
	if got := s.For("b@x"); len(got) != 1 || !slices.Equal(got[0].To, []string{"b@x"}) {
		t.Fatalf("For(b) after Take(a): %+v", got)
	}

	// Without AUTH the server refuses MAIL.
	c, err := smtp.DialStartTLS(s.Addr(), clientTLS)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Mail("x@x", nil); err == nil {
		t.Error("MAIL accepted without AUTH")
	}
}

// The demo's wiring: what the SMTP server accepts lands in an IMAP INBOX.
func TestSMTPDeliverIntoIMAP(t *testing.T) {
	im, err := StartIMAP(IMAPOptions{Users: []IMAPUser{{"umpire@x", "p"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer im.Close()
	sm, err := StartSMTP(SMTPOptions{Deliver: func(d Delivery) error {
		for _, to := range d.To {
			if _, err := im.Append(to, "INBOX", d.Data); err != nil {
				return err
			}
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer sm.Close()
	body := "Subject: orders\r\n\r\nGame: x\r\n"
	send := func(to string) error {
		c, err := smtp.Dial(sm.Addr())
		if err != nil {
			return err
		}
		defer c.Close()
		return c.SendMail("p@x", []string{to}, strings.NewReader(body))
	}
	if err := send("umpire@x"); err != nil {
		t.Fatal(err)
	}
	msgs, err := im.Messages("umpire@x", "INBOX")
	if err != nil || len(msgs) != 1 || string(msgs[0].Raw) != body {
		t.Fatalf("INBOX after delivery: %+v, %v", msgs, err)
	}
	err = send("stranger@x")
	var serr *smtp.SMTPError
	if !errors.As(err, &serr) || serr.Code != 451 {
		t.Fatalf("delivery to an unknown IMAP user: %v, want 451", err)
	}
	if n := len(sm.Deliveries()); n != 1 {
		t.Errorf("%d deliveries kept, want 1", n)
	}
}
