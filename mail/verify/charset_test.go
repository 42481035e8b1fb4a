package verify

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDecodeText(t *testing.T) {
	for _, c := range []struct {
		name, in, cs, want string
	}{
		{"iso-8859-1", "Bl\xfccher K\xf6ln", "iso-8859-1", "Blücher Köln"},
		{"ISO-8859-1 upper case", "L\xfctzow", "ISO-8859-1", "Lützow"},
		{"latin1 alias", "L\xfctzow", "latin1", "Lützow"},
		{"iso-8859-15 euro", "\xa4 \xfc", "iso-8859-15", "€ ü"},
		{"windows-1252 euro", "\x80 \xfc", "windows-1252", "€ ü"},
		{"us-ascii", "advance 2", "us-ascii", "advance 2"},
		{"utf-8", "Königsberg", "utf-8", "Königsberg"},
		{"none, UTF-8 bytes", "Königsberg", "", "Königsberg"},
		{"us-ascii label on UTF-8 bytes", "Königsberg", "us-ascii", "Königsberg"},
	} {
		got, err := DecodeText([]byte(c.in), c.cs)
		if err != nil || got != c.want {
			t.Errorf("%s: DecodeText(%q, %q) = %q, %v; want %q", c.name, c.in, c.cs, got, err, c.want)
		}
	}
}

func TestDecodeTextRefusals(t *testing.T) {
	for _, c := range []struct {
		name, in, cs string
		line         int
		says         string
	}{
		{"8-bit, no charset", "Game: g\nmove Bl\xfccher\n", "", 2, `send_charset="utf-8"`},
		{"labelled UTF-8, is not", "a\nb\nL\xfctzow\n", "utf-8", 3, "labelled UTF-8, but line 3"},
		{"unknown charset", "advance", "x-klingon", 0, `charset "x-klingon" is not one`},
	} {
		_, err := DecodeText([]byte(c.in), c.cs)
		var te *TextError
		if !errors.As(err, &te) || te.Line != c.line || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: error %v (line %d), want line %d saying %q", c.name, err, lineOfErr(te), c.line, c.says)
		}
	}
}

func lineOfErr(te *TextError) int {
	if te == nil {
		return -1
	}
	return te.Line
}

// latin1Orders is orderText with umlauts, as mutt sends it by default
// (send_charset us-ascii:iso-8859-1:utf-8): ISO-8859-1, quoted-printable.
const latin1Orders = "Game: km-1\nPhase: T01\nSide: german\nmove Bl\xfccher K\xf6ln\n"

// A PGP/MIME part labelled iso-8859-1 is signed over its bytes as sent and
// read as the text it declares.
func TestPGPMIMELatin1Body(t *testing.T) {
	g, f := gpgFixture(t)
	inner := []byte("Content-Type: text/plain; charset=iso-8859-1\r\n" +
		"Content-Transfer-Encoding: quoted-printable\r\n\r\n" +
		crlf("Game: km-1\nPhase: T01\nSide: german\nmove Bl=FCcher K=F6ln\n"))
	raw := gpgPGPMIME(t, g, edUID, inner)
	res := mustAccept(t, raw, f.keys, time.Now())
	if res.Charset != "iso-8859-1" || string(res.Signed) != crlf(latin1Orders) {
		t.Fatalf("charset %q, signed %q", res.Charset, res.Signed)
	}
	text, err := res.Text()
	if err != nil || !strings.Contains(text, "move Blücher Köln") {
		t.Fatalf("text %q, %v", text, err)
	}
}

// gpg --detach-sign signs the UTF-8 file; mutt recodes the attachment to
// ISO-8859-1 for sending. Decoded back, the text is what was signed.
func TestDetachedRecodedAttachment(t *testing.T) {
	g, f := gpgFixture(t)
	utf := []byte("Game: km-1\nPhase: T01\nSide: german\nmove Blücher Köln\n")
	sig := g.DetachSign(edUID, utf, true)
	raw := mixedMessage(textPart("my orders"),
		filePart("text/plain; charset=iso-8859-1", "orders.txt", "quoted-printable", []byte(crlf("Game: km-1\nPhase: T01\nSide: german\nmove Bl=FCcher K=F6ln\n"))),
		filePart("application/pgp-signature", "orders.txt.asc", "7bit", sig))
	res := mustAccept(t, raw, f.keys, time.Now())
	text, err := res.Text()
	if err != nil || text != string(utf) || res.Charset != "" {
		t.Fatalf("text %q (charset %q), %v; want the UTF-8 file", text, res.Charset, err)
	}
	if len(res.Ignored) != 1 {
		t.Errorf("ignored %q, want the note", res.Ignored)
	}
}

// gpg --clearsign over the UTF-8 file, the body recoded to ISO-8859-1 by
// the client: decoded back, it verifies.
func TestClearsignedRecodedBody(t *testing.T) {
	g, f := gpgFixture(t)
	utf := "Game: km-1\nPhase: T01\nSide: german\nmove Blücher Köln\n"
	block := string(g.Clearsign(edUID, []byte(utf)))
	latin := strings.NewReplacer("=", "=3D", "ü", "=FC", "ö", "=F6").Replace(block)
	raw := []byte(mailHeader("Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n") + crlf(latin))
	res := mustAccept(t, raw, f.keys, time.Now())
	text, err := res.Text()
	if err != nil || !strings.Contains(text, "move Blücher Köln") {
		t.Fatalf("text %q, %v", text, err)
	}
}

// check says what the daemon does with signed text it cannot read: the
// signer is known and gets a reply naming the fix.
func TestCheckUnreadableText(t *testing.T) {
	g, f := gpgFixture(t)
	inner := []byte("Content-Type: text/plain\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + crlf(latin1Orders))
	report, err := Check(gpgPGPMIME(t, g, edUID, inner), f.keys, time.Now())
	var te *TextError
	if !errors.As(err, &te) {
		t.Fatalf("error %v, want a TextError", err)
	}
	for _, want := range []string{"unreadable-text", "line 4", "send_charset", f.edFpr + " (the signature verified"} {
		if !strings.Contains(report, want) {
			t.Errorf("report does not say %q:\n%s", want, report)
		}
	}
}

// The charset label of an attached file and of a cleartext-signed body is
// outside the signature: anyone can relabel a copy. The text is read the
// same whatever the label says, as UTF-8 when it is UTF-8 and as
// Windows-1252 when it is not, so that every copy of the message reads
// as the player wrote it. PGP/MIME's label is signed and is honoured
// (TestPGPMIMELatin1Body).
func TestUnsignedCharsetLabelIsNotTrusted(t *testing.T) {
	g, f := gpgFixture(t)
	utf := "Game: km-1\nPhase: T01\nSide: german\nmove Blücher Köln\n"
	latin := []byte("Game: km-1\nPhase: T01\nSide: german\nmove Bl\xfccher K\xf6ln\n")
	utfSig, latinSig := g.DetachSign(edUID, []byte(utf), true), g.DetachSign(edUID, latin, true)
	utfBlock, latinBlock := g.Clearsign(edUID, []byte(utf)), g.Clearsign(edUID, latin)
	for _, label := range []string{"", "utf-8", "us-ascii", "iso-8859-1", "iso-8859-15", "koi8-r", "ibm037", "utf-7", "utf-16", "x-user-defined", "replacement"} {
		ct := "text/plain"
		if label != "" {
			ct += "; charset=" + label
		}
		for name, c := range map[string]struct {
			raw  []byte
			want string
		}{
			"detached UTF-8": {mixedMessage(filePart(ct, "orders.txt", "base64", []byte(base64.StdEncoding.EncodeToString([]byte(utf)))),
				filePart("application/pgp-signature", "orders.txt.asc", "7bit", utfSig)), utf},
			"detached Latin-1": {mixedMessage(filePart(ct, "orders.txt", "base64", []byte(base64.StdEncoding.EncodeToString(latin))),
				filePart("application/pgp-signature", "orders.txt.asc", "7bit", latinSig)), utf},
			"clearsigned UTF-8": {[]byte(mailHeader("Content-Type: "+ct+"\r\nContent-Transfer-Encoding: base64\r\n\r\n") +
				base64.StdEncoding.EncodeToString(utfBlock) + "\r\n"), utf},
			"clearsigned Latin-1": {[]byte(mailHeader("Content-Type: "+ct+"\r\nContent-Transfer-Encoding: base64\r\n\r\n") +
				base64.StdEncoding.EncodeToString(latinBlock) + "\r\n"), utf},
		} {
			res, err := Verify(c.raw, f.keys, time.Now())
			if err != nil {
				t.Errorf("%s labelled %q: %v", name, label, err)
				continue
			}
			text, err := res.Text()
			// A cleartext signature does not cover the last line end.
			if err != nil || strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n") != strings.TrimSuffix(c.want, "\n") {
				t.Errorf("%s labelled %q: read %q (charset %q), %v; want %q", name, label, text, res.Charset, err, c.want)
			}
			if res.Declared != label {
				t.Errorf("%s labelled %q: declared %q", name, label, res.Declared)
			}
		}
	}
}
