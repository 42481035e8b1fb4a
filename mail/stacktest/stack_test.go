package stacktest

import (
	"bytes"
	"testing"
	"time"
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
