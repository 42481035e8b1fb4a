package imapbox

import (
	"bytes"
	"context"
	"testing"
	"time"

	"skagerrak/mail/stacktest"
)

// Against a real Dovecot (the interop suite's): the default folders take
// its Maildir++ delimiter, and a message holding a NUL, which a BODY[]
// fetch turns into 0x80, arrives intact through BINARY; a message whose
// parts BINARY[] would decode keeps its BODY[] bytes.
func TestDovecotFoldersAndBinary(t *testing.T) {
	s := stacktest.Start(t, "box.test", []string{"host"}, nil)
	nul := []byte("From: a@box.test\r\nTo: host@box.test\r\nSubject: nul\r\nMessage-ID: <nul@box.test>\r\n" +
		"Content-Type: text/plain\r\nContent-Transfer-Encoding: binary\r\n\r\nline\x00with a NUL\r\n")
	b64 := []byte("From: a@box.test\r\nTo: host@box.test\r\nSubject: b64\r\nMessage-ID: <b64@box.test>\r\n" +
		"Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\naGVsbG8=\r\n" +
		"--XX\r\nContent-Type: text/plain\r\n\r\nnul\x00here\r\n--XX--\r\n")
	s.DeliverLMTP(t, "a@box.test", "host@box.test", nul)
	s.DeliverLMTP(t, "a@box.test", "host@box.test", b64)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !stacktest.WaitFor(ctx, func() bool { return s.Count(t, "host", "INBOX") == 2 }) {
		t.Fatalf("not delivered\n%s", s.Log("smtpd.log"))
	}
	b, err := Open(ctx, Config{Addr: s.IMAPAddr, Username: "host@box.test", Password: s.Password("host@box.test"), TLS: TLSNone, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Processed() != "skagerrak.processed" || b.Rejected() != "skagerrak.rejected" {
		t.Errorf("folders %q, %q on Dovecot's Maildir", b.Processed(), b.Rejected())
	}
	got, err := b.Fetch(ctx)
	if err != nil || len(got) != 2 {
		t.Fatalf("fetched %d: %v", len(got), err)
	}
	if !bytes.Contains(got[0].Raw, []byte("line\x00with a NUL\r\n")) {
		t.Errorf("the NUL did not arrive:\n%q", got[0].Raw)
	}
	if !bytes.Contains(got[1].Raw, []byte("base64\r\n\r\naGVsbG8=")) || !bytes.Contains(got[1].Raw, []byte("nul\x80here")) {
		t.Errorf("BINARY[] bytes taken where they decode a part:\n%q", got[1].Raw)
	}
	for _, m := range got {
		if err := b.MoveProcessed(ctx, m.UIDValidity, m.UID); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.Count(t, "host", "skagerrak.processed"); n != 2 {
		t.Errorf("skagerrak.processed holds %d", n)
	}
}
