package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

// checkResult asserts the fields every accepted result must have.
func checkResult(t *testing.T, res *Result, form, fpr string, signed []byte) {
	t.Helper()
	if res.Form != form {
		t.Errorf("form %q, want %q", res.Form, form)
	}
	if res.Fingerprint != fpr {
		t.Errorf("fingerprint %s, want %s", res.Fingerprint, fpr)
	}
	if !bytes.Equal(res.Signed, signed) {
		t.Errorf("signed bytes\n%q\nwant\n%q", res.Signed, signed)
	}
	if res.PacketHash != sha256.Sum256(res.Signature) {
		t.Errorf("PacketHash is not the SHA-256 of the signature packet")
	}
	if want := wantIdentity(t, fpr, res.Signature, res.Covered); res.Identity != want {
		t.Errorf("identity %x, computed from the packet by hand %x", res.Identity, want)
	}
	if res.Hash != "SHA256" && res.Hash != "SHA512" {
		t.Errorf("hash %q", res.Hash)
	}
	if d := time.Since(res.SigTime); d < -time.Minute || d > time.Hour {
		t.Errorf("signature time %v is not now", res.SigTime)
	}
}

func TestPGPMIMETextBodyAccepted(t *testing.T) {
	g, f := gpgFixture(t)
	for _, k := range []struct{ uid, fpr string }{{edUID, f.edFpr}, {rsaUID, f.rsaFpr}} {
		t.Run(k.uid, func(t *testing.T) {
			raw := gpgPGPMIME(t, g, k.uid, textPart(orderText))
			res := mustAccept(t, raw, f.keys, time.Now())
			checkResult(t, res, FormPGPMIME, k.fpr, []byte(crlf(orderText)))
			if res.Hash != "SHA256" {
				t.Errorf("hash %s, want SHA256 (gpg --digest-algo SHA256)", res.Hash)
			}
			if res.FileName != "" {
				t.Errorf("file name %q for a body", res.FileName)
			}
			// The same message with one byte of the order text changed.
			mustReject(t, flipByte(t, raw, "Warspite"), f.keys, time.Now(), ReasonBadSignature)
			// Re-verifying the recorded covered bytes and signature agrees.
			again, err := VerifyDetached(res.Covered, res.Signature, f.keys, time.Now())
			if err != nil || again.Fingerprint != k.fpr || again.Identity != res.Identity {
				t.Errorf("VerifyDetached replay: %v", err)
			}
		})
	}
}

func TestPGPMIMEAttachmentAccepted(t *testing.T) {
	g, f := gpgFixture(t)
	// Mutt/Thunderbird shape: a signed multipart/mixed with a cover note and
	// the order file as a base64 text attachment.
	inner := []byte("Content-Type: multipart/mixed; boundary=\"inner-1\"\r\n\r\n" +
		"--inner-1\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: inline\r\n\r\n" +
		"Orders attached.\r\n" +
		"--inner-1\r\nContent-Type: text/plain; charset=utf-8; name=\"orders.txt\"\r\n" +
		"Content-Disposition: attachment; filename=\"orders.txt\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		base64.StdEncoding.EncodeToString([]byte(orderText)) + "\r\n" +
		"--inner-1--\r\n")
	raw := gpgPGPMIME(t, g, edUID, inner)
	res := mustAccept(t, raw, f.keys, time.Now())
	checkResult(t, res, FormPGPMIME, f.edFpr, []byte(orderText))
	if res.FileName != "orders.txt" {
		t.Errorf("file name %q", res.FileName)
	}
	mustReject(t, flipByte(t, raw, "Orders attached"), f.keys, time.Now(), ReasonBadSignature)

	// Two attachments inside the signed part: which one is the order is
	// ambiguous, so it is refused even though the signature is good.
	two := []byte(strings.Replace(string(inner), "--inner-1--", "--inner-1\r\nContent-Type: text/plain; name=\"b.txt\"\r\n"+
		"Content-Disposition: attachment; filename=\"b.txt\"\r\n\r\nx\r\n--inner-1--", 1))
	mustReject(t, gpgPGPMIME(t, g, edUID, two), f.keys, time.Now(), ReasonBadStructure)
}

func TestDetachedAccepted(t *testing.T) {
	g, f := gpgFixture(t)
	data := []byte(orderText)
	t.Run("asc", func(t *testing.T) {
		sig := g.DetachSign(rsaUID, data, true)
		raw := mixedMessage(filePart("text/plain", "orders.txt", "8bit", []byte(crlf(orderText))),
			filePart("application/pgp-signature", "orders.txt.asc", "7bit", []byte(crlf(string(sig)))))
		res := mustAccept(t, raw, f.keys, time.Now())
		// gpg signed the LF file; transport made it CRLF; the LF bytes are
		// what the signature covers and what comes back.
		checkResult(t, res, FormDetached, f.rsaFpr, data)
		if res.FileName != "orders.txt" {
			t.Errorf("file name %q", res.FileName)
		}
		mustReject(t, flipByte(t, raw, "Warspite"), f.keys, time.Now(), ReasonBadSignature)
	})
	t.Run("sig", func(t *testing.T) {
		sig := g.DetachSign(edUID, data, false)
		raw := mixedMessage(filePart("application/octet-stream", "orders.txt", "base64", []byte(base64.StdEncoding.EncodeToString(data))),
			filePart("application/octet-stream", "orders.txt.sig", "base64", []byte(base64.StdEncoding.EncodeToString(sig))))
		res := mustAccept(t, raw, f.keys, time.Now())
		checkResult(t, res, FormDetached, f.edFpr, data)
		changed := append([]byte{}, data...)
		changed[0] ^= 1
		bad := mixedMessage(filePart("application/octet-stream", "orders.txt", "base64", []byte(base64.StdEncoding.EncodeToString(changed))),
			filePart("application/octet-stream", "orders.txt.sig", "base64", []byte(base64.StdEncoding.EncodeToString(sig))))
		mustReject(t, bad, f.keys, time.Now(), ReasonBadSignature)
	})
	t.Run("RFC 2047 encoded names", func(t *testing.T) {
		sig := g.DetachSign(edUID, data, true)
		raw := mixedMessage(filePart("text/plain", "=?utf-8?q?Ordre_for_Tr=C3=B8ndelag.txt?=", "8bit", data),
			filePart("application/pgp-signature", "=?utf-8?q?Ordre_for_Tr=C3=B8ndelag.txt.asc?=", "7bit", sig))
		res := mustAccept(t, raw, f.keys, time.Now())
		if res.FileName != "Ordre for Trøndelag.txt" {
			t.Errorf("file name %q", res.FileName)
		}
	})
	t.Run("signature named for another file", func(t *testing.T) {
		// Names are outside the signature: the file it verifies over is
		// the order file, whatever the names say.
		sig := g.DetachSign(edUID, data, true)
		raw := mixedMessage(filePart("text/plain", "orders.txt", "8bit", data),
			filePart("application/pgp-signature", "other.txt.asc", "7bit", sig))
		res := mustAccept(t, raw, f.keys, time.Now())
		checkResult(t, res, FormDetached, f.edFpr, data)
		// Over no attached file, the refusal names the signature.
		raw = mixedMessage(filePart("text/plain", "orders.txt", "8bit", []byte("advance\n")),
			filePart("application/pgp-signature", "other.txt.asc", "7bit", sig))
		rej := mustReject(t, raw, f.keys, time.Now(), ReasonBadStructure)
		if !strings.Contains(rej.Detail, "other.txt.asc") {
			t.Errorf("detail %q does not name the signature", rej.Detail)
		}
	})
	t.Run("names differ between Content-Type and Content-Disposition", func(t *testing.T) {
		// Audit finding: the file named one way in Content-Type name= and
		// another in filename= was dropped without a reply. Both names
		// are the part's; either pairs it with its signature.
		sig := g.DetachSign(edUID, data, true)
		for name, parts := range map[string][][]byte{
			"signature": {filePart("text/plain", "orders.txt", "8bit", data),
				namedTwice("application/pgp-signature", "signature.asc", "orders.txt.asc", sig)},
			"order file": {namedTwice("text/plain", "orders.txt", "Ordre.txt", data),
				filePart("application/pgp-signature", "Ordre.txt.asc", "7bit", sig)},
			"order file, reversed": {namedTwice("text/plain", "Ordre.txt", "orders.txt", data),
				filePart("application/pgp-signature", "Ordre.txt.asc", "7bit", sig)},
		} {
			t.Run(name, func(t *testing.T) {
				res := mustAccept(t, mixedMessage(parts...), f.keys, time.Now())
				checkResult(t, res, FormDetached, f.edFpr, data)
			})
		}
	})
	t.Run("two signatures name their signer", func(t *testing.T) {
		// Refused (which signature counts is ambiguous), but a known
		// signer hears why instead of silence.
		sig := g.DetachSign(edUID, data, true)
		raw := mixedMessage(filePart("text/plain", "orders.txt", "8bit", data),
			filePart("application/pgp-signature", "orders.txt.asc", "7bit", sig),
			filePart("application/pgp-signature", "copy.txt.asc", "7bit", sig))
		rej := mustReject(t, raw, f.keys, time.Now(), ReasonMultipleSignatures)
		if rej.Signer == nil || rej.Signer.Fingerprint != f.edFpr || !rej.Around {
			t.Errorf("signer %+v (around %v), want %s named, around the signature", rej.Signer, rej.Around, f.edFpr)
		}
	})
	t.Run("cover note beside file and signature", func(t *testing.T) {
		// The note holds an order line of its own: it is never read.
		sig := g.DetachSign(edUID, data, true)
		raw := mixedMessage(textPart("see attached\nHMS Renown shadow Gneisenau\n"), filePart("text/plain", "orders.txt", "8bit", data),
			filePart("application/pgp-signature", "orders.txt.asc", "7bit", sig))
		res := mustAccept(t, raw, f.keys, time.Now())
		checkResult(t, res, FormDetached, f.edFpr, data)
		if len(res.Ignored) != 1 || !strings.Contains(res.Ignored[0], "note") {
			t.Errorf("ignored %q, want the note", res.Ignored)
		}
	})
	t.Run("other attachments beside them", func(t *testing.T) {
		// The signature names its file; the rest is outside it, which
		// anyone may add to a copy: not read, listed, never a refusal.
		sig := g.DetachSign(edUID, data, true)
		raw := mixedMessage(textPart("see attached"), filePart("text/plain", "orders.txt", "8bit", data),
			filePart("application/pgp-signature", "orders.txt.asc", "7bit", sig), filePart("text/plain", "more.txt", "8bit", []byte("advance\n")),
			filePart("application/octet-stream", "map.png", "base64", []byte("iVBORw0K")))
		res := mustAccept(t, raw, f.keys, time.Now())
		checkResult(t, res, FormDetached, f.edFpr, data)
		want := []string{"a note (text/plain)", "the attachment more.txt (text/plain)", "the attachment map.png (application/octet-stream)"}
		if strings.Join(res.Ignored, "|") != strings.Join(want, "|") {
			t.Errorf("ignored %q, want %q", res.Ignored, want)
		}
	})
	t.Run("a second file of the signed name", func(t *testing.T) {
		// The signature decides which of the two is the order file, in
		// whatever order a copy puts them.
		sig := g.DetachSign(edUID, data, true)
		for _, raw := range [][]byte{
			mixedMessage(filePart("text/plain", "orders.txt", "8bit", data), filePart("text/plain", "orders.txt", "8bit", []byte("advance\n")),
				filePart("application/pgp-signature", "orders.txt.asc", "7bit", sig)),
			mixedMessage(filePart("text/plain", "orders.txt", "8bit", []byte("advance\n")), filePart("text/plain", "orders.txt", "8bit", data),
				filePart("application/pgp-signature", "orders.txt.asc", "7bit", sig)),
		} {
			res := mustAccept(t, raw, f.keys, time.Now())
			checkResult(t, res, FormDetached, f.edFpr, data)
		}
	})
}

func TestClearsignedAccepted(t *testing.T) {
	g, f := gpgFixture(t)
	for _, k := range []struct{ uid, fpr string }{{edUID, f.edFpr}, {rsaUID, f.rsaFpr}} {
		t.Run(k.uid, func(t *testing.T) {
			block := g.Clearsign(k.uid, []byte(orderText))
			raw := textMessage("\n" + string(block) + "\n\n")
			res := mustAccept(t, raw, f.keys, time.Now())
			// The cleartext comes back dash-unescaped ("- Warspite" was sent
			// as "- - Warspite"), without the final line break, which the
			// clearsign format does not sign.
			checkResult(t, res, FormClearsigned, k.fpr, []byte(strings.TrimSuffix(orderText, "\n")))
			if !bytes.Contains(block, []byte("\n- - Warspite")) {
				t.Fatalf("gpg did not dash-escape the order lines:\n%s", block)
			}
			mustReject(t, flipByte(t, raw, "Glowworm"), f.keys, time.Now(), ReasonBadSignature)
		})
	}
}

// Case 17: LF-only line ends, quoted-printable trailing whitespace and
// text-mode signatures must verify.
func TestHostile17LineEndsAndTextMode(t *testing.T) {
	g, f := gpgFixture(t)
	raw := gpgPGPMIME(t, g, edUID, textPart(orderText))
	lf := bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))
	res := mustAccept(t, lf, f.keys, time.Now())
	checkResult(t, res, FormPGPMIME, f.edFpr, []byte(crlf(orderText)))

	block := g.Clearsign(edUID, []byte(orderText))
	clearLF := bytes.ReplaceAll(textMessage(string(block)), []byte("\r\n"), []byte("\n"))
	res = mustAccept(t, clearLF, f.keys, time.Now())
	checkResult(t, res, FormClearsigned, f.edFpr, []byte(strings.TrimSuffix(orderText, "\n")))

	qp := []byte("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"Side: Allied=20\r\nRoyal Navy: Warspite, Hardy=09\r\nsoft=\r\nbreak\r\n")
	res = mustAccept(t, gpgPGPMIME(t, g, edUID, qp), f.keys, time.Now())
	if want := "Side: Allied \r\nRoyal Navy: Warspite, Hardy\t\r\nsoftbreak\r\n"; string(res.Signed) != want {
		t.Errorf("quoted-printable decoded to %q, want %q", res.Signed, want)
	}

	inner := textPart(orderText)
	lfInner := bytes.ReplaceAll(inner, []byte("\r\n"), []byte("\n"))
	sig := g.DetachSign(edUID, lfInner, true, "--textmode", "--digest-algo", "SHA256")
	res = mustAccept(t, signedMessage(stdParams, inner, sigPart(sig)), f.keys, time.Now())
	checkResult(t, res, FormPGPMIME, f.edFpr, []byte(crlf(orderText)))
}

// namedTwice is an attachment whose Content-Disposition filename and
// Content-Type name differ.
func namedTwice(ctype, filename, name string, body []byte) []byte {
	return []byte("Content-Type: " + ctype + "; name=\"" + name + "\"\r\nContent-Disposition: attachment; filename=\"" + filename +
		"\"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + crlf(string(body)))
}

// TestRefusalsAroundNameTheSigner: a message refused for what was added
// around a good signature (text before a cleartext block, a signed
// message inside unsigned MIME or forwarded) names its signer, so that the
// player hears what to send, and is marked Around: the same signed message
// sent as it was made is still accepted (its identity is not the
// refusal's).
func TestRefusalsAroundNameTheSigner(t *testing.T) {
	g, f := gpgFixture(t)
	block := string(g.Clearsign(edUID, []byte(orderText)))
	signed := gpgPGPMIME(t, g, edUID, textPart(orderText))
	entity := signed[bytes.Index(signed, []byte("Content-Type: multipart/signed")):]
	cases := map[string]struct {
		raw    []byte
		reason string
	}{
		"text before the block":   {textMessage("my orders:\n" + block), ReasonBadStructure},
		"text after the block":    {textMessage(block + "\nsent from my phone\n"), ReasonBadStructure},
		"unsigned text prepended": {mixedMessage(textPart("see below"), entity), ReasonWrappedSignature},
		"forwarded as message/rfc822": {mixedMessage(textPart("fwd"), append([]byte("Content-Type: message/rfc822\r\n\r\n"), signed...)),
			ReasonWrappedSignature},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			rej := mustReject(t, c.raw, f.keys, time.Now(), c.reason)
			if rej.Signer == nil || rej.Signer.Fingerprint != f.edFpr || !rej.Around || len(rej.Signer.Signed) != 0 {
				t.Fatalf("signer %+v around %v: want the signer named, around", rej.Signer, rej.Around)
			}
			if !strings.Contains(rej.Detail, "send the signed") {
				t.Errorf("detail %q does not say what to send", rej.Detail)
			}
		})
	}
	// Not signed by a known key: no signer named.
	rej := mustReject(t, textMessage("x\n"+block), f.otherKeys, time.Now(), ReasonBadStructure)
	if rej.Signer != nil {
		t.Errorf("an unknown key's block names a signer")
	}
}
