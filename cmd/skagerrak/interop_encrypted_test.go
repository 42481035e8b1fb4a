package main

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/mail/gpgtest"
	"skagerrak/mail/stacktest"
)

// TestInteropEncryptedOrders plays with players who encrypt to the host,
// against the stock stack: the host key made with gpg as README says (an
// Ed25519 signing key and a Curve25519 encryption subkey), reports that
// carry it in an Autocrypt header, the German in stock mutt with
// crypt_autoencrypt and crypt_autosign, the Allies with gpg --encrypt
// --sign --armor pasted into a plain text mail. Both are accepted; from
// then on every mail to them is encrypted; the German's mail encrypted
// again under a new session key (and to another recipient too) is a
// replay; mail encrypted to a key the host does not hold is answered at
// the registered address; and the log verifies with no host key.
func TestInteropEncryptedOrders(t *testing.T) {
	stacktest.Require(t, "dovecot", "smtpd", "mutt", "tmux", "gpg")
	s := stacktest.Start(t, "skagerrak.test", []string{"host", "german", "allied", "referee"}, nil)
	german, allied, referee := s.NewPlayer(t, "german", "Erich Raeder"), s.NewPlayer(t, "allied", "Charles Forbes"), s.NewPlayer(t, "referee", "Referee")
	h := newInteropHost(t, s, true)
	host, hostFPR, hg, cli := h.Addr, h.FPR, h.GPG, h.cli
	for _, p := range []*stacktest.Player{german, allied, referee} {
		p.TrustKey(t, h.Pub, hostFPR)
	}
	cli("new", "--game", "km-1", "--ruleset", "kriegsmarine",
		"--side", "german="+h.party(german), "--side", "allied="+h.party(allied), "--referee", h.party(referee))
	cli("poll", "--once")

	// The first reports are signed, in clear, and carry the host's key.
	first := german.WaitInbox(t, 1, time.Minute)[0]
	if !bytes.Contains(first.Raw, []byte("Autocrypt: addr="+host+"; prefer-encrypt=mutual; keydata=")) {
		t.Fatalf("the report carries no Autocrypt header:\n%s", first.Raw[:bytes.Index(first.Raw, []byte("\r\n\r\n"))])
	}
	form := stacktest.OrderForm(t, german.ReadSigned(t, first.Raw, hostFPR))
	muttMail := german.MuttWith(t, stacktest.MuttOptions{Encrypt: true}, host, "orders km-1", form)
	if !bytes.Contains(muttMail, []byte("multipart/encrypted")) || bytes.Contains(muttMail, []byte("Game: km-1")) {
		t.Fatalf("mutt did not encrypt:\n%s", muttMail)
	}
	german.Send(t, host, muttMail)
	aform := stacktest.OrderForm(t, allied.ReadSigned(t, allied.WaitInbox(t, 1, time.Minute)[0].Raw, hostFPR))
	allied.Send(t, host, allied.InlineEncrypted(t, host, "orders km-1", aform, hostFPR))
	waitDelivered(t, s, 2)
	if out := cli("poll", "--once"); !strings.Contains(out, "accepted 2, rejected 0") {
		t.Fatalf("encrypted orders: %s\nlog:\n%s", out, cli("log", h.game("km-1")))
	}
	// Every mail to them from now on (the replies, the next reports) is
	// encrypted; the referee, who sent nothing encrypted, reads in clear.
	for _, p := range []*stacktest.Player{german, allied} {
		ms := p.WaitInbox(t, 2, time.Minute)
		for _, m := range ms {
			if !bytes.Contains(m.Raw[:bytes.Index(m.Raw, []byte("\r\n\r\n"))], []byte("multipart/encrypted")) {
				t.Errorf("%s got %q in clear", p.Addr, m.Subject)
			}
			p.ReadSigned(t, m.Raw, hostFPR)
		}
	}

	// The German's mail encrypted again under a new session key, to the
	// host and to the Allies: the same signed message, a replay.
	hostKeys, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(h.Pub))
	if err != nil {
		t.Fatal(err)
	}
	alliedKeys, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(allied.PublicKey()))
	if err != nil {
		t.Fatal(err)
	}
	copyMail := reencryptMail(t, hg, muttMail, append(hostKeys, alliedKeys...))
	if bytes.Equal(copyMail, muttMail) {
		t.Fatal("the copy is the same bytes")
	}
	german.Send(t, host, copyMail)
	waitDelivered(t, s, 3)
	if out := cli("poll", "--once"); !strings.Contains(out, "accepted 0, rejected 0, duplicates 1") {
		t.Fatalf("re-encrypted copy: %s", out)
	}

	// Encrypted to the German's own key only: the host cannot read it,
	// and the German hears so at his registered address.
	entity := "Content-Type: text/plain; charset=utf-8\r\n\r\n" + form
	german.Send(t, host, german.EncryptedMIME(t, host, "orders km-1 again", []byte(entity), true, german.FPR))
	waitDelivered(t, s, 4)
	if out := cli("poll", "--once"); !strings.Contains(out, "rejected 1") {
		t.Fatalf("mail not for the host: %s", out)
	}
	replies := strings.Join(strings.Fields(strings.Join(texts(t, german, hostFPR), "\n")), " ")
	if !strings.Contains(replies, "not to the host's key "+hostFPR) {
		t.Errorf("the German was not told to encrypt to the host key:\n%s", replies)
	}

	// The log verifies from itself: the decrypted messages are kept, no
	// host key is read.
	if out := cli("verify", h.game("km-1")); !strings.Contains(out, "intact") || !strings.Contains(out, "2 signatures checked") {
		t.Errorf("verify:\n%s", out)
	}
	l := cli("log", h.game("km-1"), "--json")
	if strings.Contains(l, "BEGIN PGP MESSAGE") && !strings.Contains(l, `"by_address":true`) {
		t.Errorf("the log keeps encrypted data of accepted orders")
	}
}

// reencryptMail takes the OpenPGP message of an encrypted mail apart with
// the host's gpg (--unwrap: the signed content as it was, without the
// encryption layer) and encrypts that content, as it is, under a new
// session key to recipients: what anyone holding the message's session
// key could send on.
func reencryptMail(t *testing.T, hg *gpgtest.GPG, raw []byte, recipients openpgp.EntityList) []byte {
	t.Helper()
	const begin, end = "-----BEGIN PGP MESSAGE-----", "-----END PGP MESSAGE-----"
	i, j := bytes.Index(raw, []byte(begin)), bytes.Index(raw, []byte(end))
	if i < 0 || j < 0 {
		t.Fatal("no PGP MESSAGE in the mail")
	}
	inner := hg.Run(raw[i:j+len(end)], "--unwrap")
	key := make([]byte, 32)
	rand.Read(key)
	var bin bytes.Buffer
	for _, r := range recipients {
		k, ok := r.EncryptionKey(time.Now(), nil)
		if !ok {
			t.Fatalf("no encryption key for %X", r.PrimaryKey.Fingerprint)
		}
		if err := packet.SerializeEncryptedKeyAEAD(&bin, k.PublicKey, packet.CipherAES256, false, key, nil); err != nil {
			t.Fatal(err)
		}
	}
	w, err := packet.SerializeSymmetricallyEncrypted(&bin, packet.CipherAES256, false, packet.CipherSuite{}, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(inner)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var arm bytes.Buffer
	aw, _ := armor.Encode(&arm, "PGP MESSAGE", nil)
	aw.Write(bin.Bytes())
	aw.Close()
	out := append(append(append([]byte{}, raw[:i]...), bytes.ReplaceAll(arm.Bytes(), []byte("\n"), []byte("\r\n"))...), raw[j+len(end):]...)
	return bytes.Replace(out, []byte("Message-ID: <"), []byte("Message-ID: <copy-"), 1)
}
