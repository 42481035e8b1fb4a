package intake

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
)

// pollEncrypted runs one pass of the host over the env's mailbox, the host
// decrypting with its key as skagerrak run does.
func pollEncrypted(t *testing.T, e *hosttest.Env) (int, int, int) {
	t.Helper()
	h, box, s := e.Open(t)
	defer h.Close()
	defer box.Close()
	h.SetDecrypter(wiring.Decrypter{Key: e.HostKey, Lock: &sync.Mutex{}})
	p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
	if err != nil {
		t.Fatal(err)
	}
	return p.Accepted, p.Rejected, p.Duplicates
}

// replyTexts reads the host's replies to addr (not its reports),
// decrypting with key.
func replyTexts(t *testing.T, e *hosttest.Env, addr string, key *openpgp.Entity) (texts []string, encrypted int) {
	t.Helper()
	for _, d := range e.SMTP.Take(addr) {
		r, err := compose.ReadReport(d.Data, openpgp.EntityList{e.HostKey}, key, time.Now())
		if err != nil {
			t.Fatalf("reading the host's mail: %v", err)
		}
		if strings.HasPrefix(r.Text, "skagerrak report") {
			continue
		}
		if r.Encrypted {
			encrypted++
		}
		texts = append(texts, strings.Join(strings.Fields(r.Text), " "))
	}
	return texts, encrypted
}

// TestEncryptedOrdersByMail: orders signed, then encrypted to the host
// (the shape compose's SignEncrypt makes, as mutt and Thunderbird do) are
// accepted; a copy encrypted again under a new session key is a replay;
// from then on the side's mail comes encrypted; the log verifies alone.
func TestEncryptedOrdersByMail(t *testing.T) {
	e := hosttest.New(t, 1)
	addr := "allied-0@players.test"
	at := e.SignAt(addr)
	text := "Game: g000\nPhase: T01\nSide: allied\nadvance 1\n"
	m := compose.Message{From: addr, To: hosttest.HostAddr, Subject: "orders", MessageID: "<enc-1@players.test>", Date: at, Text: text}
	raw, err := compose.SignEncrypt(m, e.Players[addr], e.HostKey, at)
	if err != nil {
		t.Fatal(err)
	}
	again, err := compose.SignEncrypt(m, e.Players[addr], e.HostKey, at)
	if err != nil || bytes.Equal(again, raw) {
		t.Fatalf("a second encryption: %v (same bytes: %v)", err, bytes.Equal(again, raw))
	}
	if bytes.Contains(raw, []byte("advance 1")) {
		t.Fatal("the orders are in clear")
	}
	e.IMAP.Append(hosttest.HostAddr, "INBOX", raw)
	if a, r, d := pollEncrypted(t, e); a != 1 || r != 0 || d != 0 {
		t.Fatalf("encrypted orders: accepted %d, rejected %d, duplicates %d", a, r, d)
	}
	texts, enc := replyTexts(t, e, addr, e.Players[addr])
	if len(texts) != 1 || enc != 1 || !strings.Contains(texts[0], "orders accepted") {
		t.Fatalf("reply to encrypted orders: %d encrypted of %q", enc, texts)
	}
	e.IMAP.Append(hosttest.HostAddr, "INBOX", again)
	if a, r, d := pollEncrypted(t, e); a != 0 || r != 0 || d != 1 {
		t.Fatalf("re-encrypted copy: accepted %d, rejected %d, duplicates %d", a, r, d)
	}
	// Clear signed orders later: the answer is still encrypted.
	e.Order(t, 0, "allied", "T01", "advance 2")
	if a, _, _ := pollEncrypted(t, e); a != 1 {
		t.Fatalf("clear orders after encrypted ones not accepted")
	}
	if texts, enc := replyTexts(t, e, addr, e.Players[addr]); len(texts) != 1 || enc != 1 {
		t.Errorf("the side's mail after it sent encrypted: %d of %d encrypted", enc, len(texts))
	}
	if rep, err := verifyGame(e, "g000"); err != nil || rep.Signatures != 2 {
		t.Errorf("verify from the log alone: %+v %v", rep, err)
	}
}

// TestWrappedSignedMailAnswered: a player's signed orders forwarded
// inside another mail are refused with a reply to the signer saying what
// to send, and the same signed mail sent as made is then accepted (the
// refusal is the wrapping mail's, not the signed message's).
func TestWrappedSignedMailAnswered(t *testing.T) {
	e := hosttest.New(t, 1)
	addr := "allied-0@players.test"
	raw, err := compose.SignPGPMIMEMail(e.Players[addr], addr, hosttest.HostAddr, "orders", "Game: g000\nPhase: T01\nSide: allied\nadvance 1\n", e.SignAt(addr))
	if err != nil {
		t.Fatal(err)
	}
	fwd := []byte("From: someone@elsewhere.test\r\nTo: " + hosttest.HostAddr + "\r\nSubject: Fwd: orders\r\nMessage-ID: <fwd-1@elsewhere.test>\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=\"fwd\"\r\n\r\n--fwd\r\nContent-Type: text/plain\r\n\r\nsee the attached\r\n" +
		"--fwd\r\nContent-Type: message/rfc822\r\n\r\n" + string(raw) + "\r\n--fwd--\r\n")
	e.IMAP.Append(hosttest.HostAddr, "INBOX", fwd)
	if a, r, _ := pollEncrypted(t, e); a != 0 || r != 1 {
		t.Fatalf("forwarded orders: accepted %d, rejected %d", a, r)
	}
	texts, _ := replyTexts(t, e, addr, nil)
	if n := len(e.SMTP.Take("someone@elsewhere.test")); n != 0 {
		t.Errorf("the forwarder got %d mails", n)
	}
	if len(texts) != 1 || !strings.Contains(texts[0], "send the signed message itself") {
		t.Fatalf("the signer's reply: %q", texts)
	}
	e.IMAP.Append(hosttest.HostAddr, "INBOX", raw)
	if a, _, d := pollEncrypted(t, e); a != 1 || d != 0 {
		t.Fatalf("the signed mail as made, after its wrapped copy: accepted %d, duplicates %d", a, d)
	}
}

// verifyGame verifies a game of the env as skagerrak verify does.
func verifyGame(e *hosttest.Env, id string) (adjudicator.VerifyReport, error) {
	return adjudicator.VerifyPath(filepath.Join(e.DataDir(), id), wiring.Verifier{})
}

// TestCheckEncryptedMail: check --host-key opens mail encrypted to the
// host as the daemon does and says so; without the host's key, or with
// another key, it says why the message is not read.
func TestCheckEncryptedMail(t *testing.T) {
	at := time.Now().UTC().Add(-time.Minute)
	host, _ := compose.GenerateKey("host", hosttest.HostAddr, at.Add(-time.Hour))
	other, _ := compose.GenerateKey("other", "other@skagerrak.test", at.Add(-time.Hour))
	player, _ := compose.GenerateKey("allied", "allied@players.test", at.Add(-time.Hour))
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o600)
		return p
	}
	pub, _ := compose.ArmorPublicKey(player)
	hostPriv, _ := compose.ArmorPrivateKey(host)
	otherPriv, _ := compose.ArmorPrivateKey(other)
	m := compose.Message{From: "allied@players.test", To: hosttest.HostAddr, Subject: "orders", MessageID: "<c1@players.test>", Date: at, Text: "Game: g1\nPhase: T01\nSide: allied\nadvance 1\n"}
	raw, err := compose.SignEncrypt(m, player, host, at)
	if err != nil {
		t.Fatal(err)
	}
	mail := write("orders.eml", raw)
	code, out, _ := run(t, "check", mail, "--key", write("allied.asc", pub), "--host-key", write("host.asc", hostPriv))
	if code != 0 || !strings.Contains(out, "decrypted:   pgp-mime signed then encrypted") || !strings.Contains(out, "signature:   accepted") {
		t.Errorf("check --host-key: %d\n%s", code, out)
	}
	code, out, _ = run(t, "check", mail, "--key", filepath.Join(dir, "allied.asc"), "--host-key", write("other.asc", otherPriv))
	if code != 1 || !strings.Contains(out, "reason:      not-for-host") {
		t.Errorf("check with another host key: %d\n%s", code, out)
	}
	code, out, _ = run(t, "check", mail, "--key", filepath.Join(dir, "allied.asc"))
	if code != 1 || !strings.Contains(out, "multipart/encrypted") {
		t.Errorf("check without the host key: %d\n%s", code, out)
	}
}
