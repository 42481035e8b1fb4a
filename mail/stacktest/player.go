package stacktest

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // reports and mutt mail in any charset

	"skagerrak/mail/gpgtest"
)

// Player is a person with a mailbox on the stack and a GnuPG key of their
// own: an Ed25519 signing key with a Curve25519 encryption subkey, so that
// a game may encrypt its reports to them.
type Player struct {
	Addr, Name string
	// GPG is the player's own GnuPG home; FPR their key's fingerprint.
	GPG *gpgtest.GPG
	FPR string

	s    *Stack
	seen map[uint32]bool
}

// NewPlayer makes a key for the user local@domain (a user given to Start).
func (s *Stack) NewPlayer(t testing.TB, local, name string) *Player {
	t.Helper()
	addr := local + "@" + s.Domain
	if _, ok := s.users[addr]; !ok {
		t.Fatalf("stacktest: %s has no mailbox", addr)
	}
	g := gpgtest.New(t)
	uid := name + " <" + addr + ">"
	fpr := g.GenKey(uid, "ed25519", "sign", "never")
	g.Run(nil, "--quick-add-key", fpr, "cv25519", "encr", "never")
	return &Player{Addr: addr, Name: name, GPG: g, FPR: fpr, s: s, seen: map[uint32]bool{}}
}

// TrustKey imports an armored public key and certifies it with a local
// signature of the player's key, as a player does who checked the
// fingerprint: GnuPG then takes it as fully valid, and mutt encrypts to it
// without asking.
func (p *Player) TrustKey(t testing.TB, armored []byte, fpr string) {
	t.Helper()
	p.GPG.Import(armored)
	p.GPG.Run(nil, "--default-key", p.FPR, "--quick-lsign-key", fpr)
}

// PublicKey is the player's armored public key, as they would send it to
// the host (gpg --export --armor).
func (p *Player) PublicKey() []byte { return p.GPG.ExportPublic(p.FPR) }

// Send submits a raw message from the player over SMTP to the stack's
// OpenSMTPD, as their mail client would.
func (p *Player) Send(t testing.TB, to string, raw []byte) {
	t.Helper()
	p.s.Deliver(t, p.Addr, to, raw)
}

// Mail is one message a player read from their mailbox.
type Mail struct {
	Raw     []byte
	Subject string
}

// Inbox returns the messages that arrived in the player's INBOX since the
// last call, read over IMAP.
func (p *Player) Inbox(t testing.TB) []Mail {
	t.Helper()
	c, err := imapclient.DialInsecure(p.s.IMAPAddr, nil)
	if err != nil {
		t.Fatalf("stacktest: imap: %v", err)
	}
	defer c.Close()
	if err := c.Login(p.Addr, p.s.users[p.Addr]).Wait(); err != nil {
		t.Fatalf("stacktest: imap login %s: %v", p.Addr, err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil || sel.NumMessages == 0 {
		return nil
	}
	var all imap.SeqSet
	all.AddRange(1, 0)
	msgs, err := c.Fetch(all, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatalf("stacktest: imap fetch: %v", err)
	}
	sort.Slice(msgs, func(i, j int) bool { return msgs[i].UID < msgs[j].UID })
	var out []Mail
	for _, m := range msgs {
		if p.seen[uint32(m.UID)] {
			continue
		}
		p.seen[uint32(m.UID)] = true
		for _, b := range m.BodySection {
			e, _ := message.Read(bytes.NewReader(b.Bytes))
			subj := ""
			if e != nil {
				subj, _ = e.Header.Text("Subject")
			}
			out = append(out, Mail{Raw: b.Bytes, Subject: subj})
		}
	}
	return out
}

// WaitInbox waits up to d for at least n new messages.
func (p *Player) WaitInbox(t testing.TB, n int, d time.Duration) []Mail {
	t.Helper()
	var got []Mail
	deadline := time.Now().Add(d)
	for len(got) < n {
		got = append(got, p.Inbox(t)...)
		if len(got) >= n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stacktest: %s has %d new messages after %s, want %d\nMTA:\n%s", p.Addr, len(got), d, n, p.s.MTALog())
		}
		time.Sleep(200 * time.Millisecond)
	}
	return got
}

// ReadSigned checks a mail from the host as the player would with gpg:
// decrypts it if it is encrypted, checks the PGP/MIME signature with
// `gpg --verify` and that it was made by hostFPR, and returns the text of
// the report (its first text/plain part).
func (p *Player) ReadSigned(t testing.TB, raw []byte, hostFPR string) string {
	t.Helper()
	ct, params := topType(t, raw)
	if ct == "multipart/encrypted" {
		parts := splitParts(t, body(raw), params["boundary"])
		if len(parts) != 2 {
			t.Fatalf("stacktest: multipart/encrypted with %d parts", len(parts))
		}
		_, armored := splitEntity(parts[1])
		out, err := p.GPG.TryRun(armored, "--status-fd", "2", "--decrypt")
		if err != nil {
			t.Fatalf("stacktest: gpg --decrypt: %v", err)
		}
		raw = out
		ct, params = topType(t, raw)
	}
	if ct != "multipart/signed" {
		t.Fatalf("stacktest: the host's mail is %s, not signed", ct)
	}
	parts := splitParts(t, body(raw), params["boundary"])
	if len(parts) != 2 {
		t.Fatalf("stacktest: multipart/signed with %d parts", len(parts))
	}
	_, sig := splitEntity(parts[1])
	dir := t.TempDir()
	data := crlf(parts[0])
	os.WriteFile(filepath.Join(dir, "part"), data, 0o600)
	os.WriteFile(filepath.Join(dir, "part.asc"), sig, 0o600)
	status, err := p.GPG.TryRun(nil, "--status-fd", "1", "--verify", filepath.Join(dir, "part.asc"), filepath.Join(dir, "part"))
	if err != nil {
		t.Fatalf("stacktest: gpg --verify of the host's mail: %v", err)
	}
	if !bytes.Contains(status, []byte("[GNUPG:] VALIDSIG ")) || !bytes.Contains(status, []byte(" "+hostFPR)) {
		t.Fatalf("stacktest: the mail is not signed by the host key %s:\n%s", hostFPR, status)
	}
	return firstText(t, data)
}

func topType(t testing.TB, raw []byte) (string, map[string]string) {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil && e == nil {
		t.Fatalf("stacktest: unreadable mail: %v", err)
	}
	mt, params, _ := mime.ParseMediaType(e.Header.Get("Content-Type"))
	return strings.ToLower(mt), params
}

// body is what follows the header of an entity.
func body(raw []byte) []byte {
	_, b := splitEntity(raw)
	return b
}

// splitEntity cuts an entity at its first empty line.
func splitEntity(raw []byte) (hdr, body []byte) {
	for _, sep := range [][]byte{[]byte("\r\n\r\n"), []byte("\n\n")} {
		if i := bytes.Index(raw, sep); i >= 0 {
			return raw[:i+len(sep)/2], raw[i+len(sep):]
		}
	}
	return raw, nil
}

// splitParts splits a multipart body into the raw bytes of its parts (the
// line break before each delimiter belongs to the delimiter).
func splitParts(t testing.TB, b []byte, boundary string) [][]byte {
	t.Helper()
	delim := []byte("--" + boundary)
	var parts [][]byte
	lines := bytes.SplitAfter(b, []byte("\n"))
	var cur *bytes.Buffer
	for _, l := range lines {
		trim := bytes.TrimRight(l, "\r\n")
		if bytes.HasPrefix(trim, delim) {
			if cur != nil {
				parts = append(parts, bytes.TrimSuffix(bytes.TrimSuffix(cur.Bytes(), []byte("\n")), []byte("\r")))
			}
			if bytes.Equal(trim, append(delim, '-', '-')) {
				return parts
			}
			cur = &bytes.Buffer{}
			continue
		}
		if cur != nil {
			cur.Write(l)
		}
	}
	t.Fatalf("stacktest: multipart without its end")
	return nil
}

func crlf(b []byte) []byte {
	return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
}

// firstText returns the decoded first text/plain part of an entity.
func firstText(t testing.TB, raw []byte) string {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil && e == nil {
		t.Fatalf("stacktest: %v", err)
	}
	var text string
	e.Walk(func(path []int, part *message.Entity, err error) error {
		if err != nil || text != "" {
			return nil
		}
		if mt, _, _ := part.Header.ContentType(); mt == "text/plain" {
			b, _ := io.ReadAll(part.Body)
			text = string(b)
		}
		return nil
	})
	if text == "" {
		t.Fatalf("stacktest: no text/plain part")
	}
	return text
}

// OrderForm is the pre-filled order form at the end of a report: from its
// last "Game:" line to the end.
func OrderForm(t testing.TB, report string) string {
	t.Helper()
	report = strings.ReplaceAll(report, "\r\n", "\n")
	i := strings.LastIndex(report, "\nGame: ")
	if i < 0 {
		t.Fatalf("stacktest: no order form in the report:\n%s", report)
	}
	return report[i+1:]
}

// Clearsigned is `gpg --clearsign` of text as the body of a plain mail.
func (p *Player) Clearsigned(t testing.TB, to, subject, text string) []byte {
	t.Helper()
	block := p.GPG.Clearsign(p.FPR, []byte(text))
	return []byte(p.header(to, subject, "detached") + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + string(crlf(block)))
}

// DetachedWithNote is a mail as people send `gpg --detach-sign --armor
// orders.txt`: a short note as its text, orders.txt and orders.txt.asc.
func (p *Player) DetachedWithNote(t testing.TB, to, subject, note, text string) []byte {
	t.Helper()
	sig := p.GPG.DetachSign(p.FPR, []byte(text), true)
	b := "skagerrak-test-mixed"
	return []byte(p.header(to, subject, "detached") +
		"Content-Type: multipart/mixed; boundary=\"" + b + "\"\r\n\r\n" +
		"--" + b + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + string(crlf([]byte(note))) + "\r\n" +
		"--" + b + "\r\nContent-Type: text/plain; charset=utf-8; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + string(crlf([]byte(text))) + "\r\n" +
		"--" + b + "\r\nContent-Type: application/pgp-signature; name=\"orders.txt.asc\"\r\nContent-Disposition: attachment; filename=\"orders.txt.asc\"\r\n\r\n" + string(crlf(sig)) + "\r\n" +
		"--" + b + "--\r\n")
}

func (p *Player) header(to, subject, kind string) string {
	return fmt.Sprintf("From: %s <%s>\r\nTo: <%s>\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s.%d@%s>\r\nMIME-Version: 1.0\r\n",
		p.Name, p.Addr, to, mime.QEncoding.Encode("utf-8", subject), time.Now().Format(time.RFC1123Z), kind, time.Now().UnixNano(), p.s.Domain)
}

// InlineEncrypted is a mail as people send `gpg --encrypt --sign --armor
// orders.txt` pasted into a plain text body: encrypted to the recipient
// key and signed in one pass by the player.
func (p *Player) InlineEncrypted(t testing.TB, to, subject, text, recipientFPR string) []byte {
	t.Helper()
	block := p.GPG.Run([]byte(text), "--armor", "--local-user", p.FPR, "--recipient", recipientFPR, "--sign", "--encrypt")
	return []byte(p.header(to, subject, "inline") + "Content-Type: text/plain; charset=us-ascii\r\nContent-Transfer-Encoding: 7bit\r\n\r\n" + string(crlf(block)))
}

// EncryptedMIME is an RFC 3156 multipart/encrypted mail of a MIME entity
// encrypted with gpg to the given keys (signed by the player in the same
// pass when sign is set).
func (p *Player) EncryptedMIME(t testing.TB, to, subject string, entity []byte, sign bool, recipients ...string) []byte {
	t.Helper()
	args := []string{"--armor", "--trust-model", "always"}
	for _, r := range recipients {
		args = append(args, "--recipient", r)
	}
	if sign {
		args = append(args, "--local-user", p.FPR, "--sign")
	}
	block := p.GPG.Run(crlf(entity), append(args, "--encrypt")...)
	b := "skagerrak-test-encrypted"
	return []byte(p.header(to, subject, "encrypted") +
		"Content-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=\"" + b + "\"\r\n\r\n" +
		"--" + b + "\r\nContent-Type: application/pgp-encrypted\r\n\r\nVersion: 1\r\n\r\n" +
		"--" + b + "\r\nContent-Type: application/octet-stream; name=\"encrypted.asc\"\r\n\r\n" + string(crlf(block)) + "\r\n" +
		"--" + b + "--\r\n")
}
