package stacktest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
)

// The stack itself: mail sent to a user arrives in their Maildir and is
// read over IMAP; stock mutt signs an ISO-8859-1 mail that gpg verifies.
func TestStackDeliversAndMuttSigns(t *testing.T) {
	s := Start(t, "stack.test", []string{"ann", "bob"}, nil)
	ann, bob := s.NewPlayer(t, "ann", "Ann"), s.NewPlayer(t, "bob", "Bob")
	raw := ann.Mutt(t, bob.Addr, "orders", "Game: g\nmove Blücher Köln\n")
	if !bytes.Contains(raw, []byte("multipart/signed")) || !bytes.Contains(raw, []byte("charset=iso-8859-1")) {
		t.Fatalf("mutt's mail is not PGP/MIME signed ISO-8859-1:\n%s", raw)
	}
	ann.Send(t, bob.Addr, raw)
	got := bob.WaitInbox(t, 1, 20*time.Second)
	bob.GPG.Import(ann.PublicKey())
	if text := bob.ReadSigned(t, got[0].Raw, ann.FPR); text != "Game: g\nmove Blücher Köln\n" && text != "Game: g\r\nmove Blücher Köln\r\n" {
		t.Fatalf("text %q", text)
	}
}

// The shipped Dovecot configuration's TLS works: IMAP offers STARTTLS with
// the configured certificate, which a client that checks it accepts, and
// a login over it succeeds. (Debian 12's OpenSMTPD serves no TLS: see
// config/mailserver/smtpd.conf.) Dovecot's
// LMTP socket is the mail owner's only: no other local user can put mail
// into a mailbox.
func TestStackOffersTLS(t *testing.T) {
	s := Start(t, "stack.test", []string{"ann"}, nil)
	c, err := imapclient.DialStartTLS(s.IMAPAddr, &imapclient.Options{TLSConfig: s.TLSConfig()})
	if err != nil {
		t.Fatalf("IMAP STARTTLS: %v\n%s", err, s.Log("dovecot.log"))
	}
	if err := c.Login("ann@stack.test", s.Password("ann@stack.test")).Wait(); err != nil {
		t.Errorf("IMAP login over TLS: %v", err)
	}
	c.Close()
	fi, err := os.Stat(filepath.Join(s.Dir, "base", "lmtp"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the LMTP socket's mode is %04o, want 0600 (the mail's owner only)", fi.Mode().Perm())
	}
}
