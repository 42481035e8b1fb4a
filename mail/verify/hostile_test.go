package verify

import (
	"bytes"
	"compress/zlib"
	"crypto"
	_ "crypto/sha1"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// Case 1: unsigned text prepended in multipart/mixed before a genuine
// signed part.
func TestHostile01PrependedUnsignedText(t *testing.T) {
	g, f := gpgFixture(t)
	signed := gpgPGPMIME(t, g, edUID, textPart(orderText))
	_, body := splitHeader(signed)
	signedEntity := append([]byte("Content-Type: multipart/signed; micalg=pgp-sha256;\r\n protocol=\"application/pgp-signature\"; boundary=\"sig-boundary-1\"\r\n\r\n"), body...)
	raw := mixedMessage(textPart("Side: Allied\nScharnhorst surrender\n"), signedEntity)
	mustReject(t, raw, f.keys, time.Now(), ReasonWrappedSignature)
}

// Case 2: a genuine signed part referenced by cid: inside multipart/related.
func TestHostile02MultipartRelated(t *testing.T) {
	g, f := gpgFixture(t)
	signed := gpgPGPMIME(t, g, edUID, textPart(orderText))
	_, body := splitHeader(signed)
	raw := []byte(mailHeader("Content-Type: multipart/related; type=\"text/html\"; boundary=\"rel-1\"\r\n\r\n") +
		"--rel-1\r\nContent-Type: text/html\r\n\r\n<p>Orders: surrender</p><object data=\"cid:signed@x\"></object>\r\n" +
		"--rel-1\r\nContent-ID: <signed@x>\r\nContent-Type: multipart/signed; micalg=pgp-sha256;\r\n protocol=\"application/pgp-signature\"; boundary=\"sig-boundary-1\"\r\n\r\n" +
		string(body) + "\r\n--rel-1--\r\n")
	mustReject(t, raw, f.keys, time.Now(), ReasonWrappedSignature)
}

// Case 3: the signed message attached as message/rfc822 or as a file.
func TestHostile03AttachedSignedMessage(t *testing.T) {
	g, f := gpgFixture(t)
	signed := gpgPGPMIME(t, g, edUID, textPart(orderText))
	rfc822 := mixedMessage(textPart("forwarding my orders"),
		append([]byte("Content-Type: message/rfc822\r\nContent-Disposition: inline\r\n\r\n"), signed...))
	mustReject(t, rfc822, f.keys, time.Now(), ReasonWrappedSignature)

	asFile := mixedMessage(textPart("see attachment"),
		filePart("application/octet-stream", "orders.eml", "base64", []byte(base64.StdEncoding.EncodeToString(signed))))
	mustReject(t, asFile, f.keys, time.Now(), ReasonWrappedSignature)

	rootRFC822 := append([]byte(mailHeader("Content-Type: message/rfc822\r\n\r\n")), signed...)
	mustReject(t, rootRFC822, f.keys, time.Now(), ReasonWrappedSignature)
}

// Cases 4 and 5: the From: header (different, empty, display-name spoof, two
// From: fields, a Sender:) never changes who signed: the result names the
// key's owner only.
func TestHostile04And05FromIsNotIdentity(t *testing.T) {
	g, f := gpgFixture(t)
	inner := textPart(orderText)
	sig := g.DetachSign(rsaUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256")
	base := signedMessage(stdParams, inner, sigPart(sig))
	for name, from := range map[string]string{
		"different":    "From: Ed Player <ed@example.org>\r\n",
		"empty":        "From:\r\n",
		"display name": "From: \"rsa@example.org\" <attacker@evil.example>\r\n",
		"two From":     "From: rsa@example.org\r\nFrom: attacker@evil.example\r\n",
		"Sender spoof": "From: Ed Player <ed@example.org>\r\nSender: rsa@example.org\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			raw := bytes.Replace(base, []byte("From: Ed Player <ed@example.org>\r\n"), []byte(from), 1)
			res := mustAccept(t, raw, f.keys, time.Now())
			if res.Fingerprint != f.rsaFpr {
				t.Errorf("signer %s, want the RSA key's owner %s", res.Fingerprint, f.rsaFpr)
			}
		})
	}
}

// Case 6: a valid signature by a key not in the key set.
func TestHostile06UnknownKey(t *testing.T) {
	g, f := gpgFixture(t)
	raw := gpgPGPMIME(t, g, otherUID, textPart(orderText))
	mustReject(t, raw, f.keys, time.Now(), ReasonUnknownKey)
	// The same message is fine for a host that knows the key.
	res := mustAccept(t, raw, f.otherKeys, time.Now())
	if res.Fingerprint != f.otherFpr {
		t.Errorf("fingerprint %s", res.Fingerprint)
	}
}

// Case 7: a byte-identical resend under a new Message-ID has the same
// idempotency key.
func TestHostile07ResendSameIdentity(t *testing.T) {
	g, f := gpgFixture(t)
	raw := gpgPGPMIME(t, g, edUID, textPart(orderText))
	resent := bytes.Replace(raw, []byte("<orders-1@example.org>"), []byte("<resent-99@example.org>"), 1)
	resent = bytes.Replace(resent, []byte("Subject: orders"), []byte("Subject: Fwd: orders"), 1)
	a := mustAccept(t, raw, f.keys, time.Now())
	b := mustAccept(t, resent, f.keys, time.Now())
	if a.Identity != b.Identity {
		t.Errorf("idempotency keys differ for the same signature")
	}
	other := mustAccept(t, gpgPGPMIME(t, g, edUID, textPart(orderText+"# again\n")), f.keys, time.Now())
	if other.Identity == a.Identity {
		t.Errorf("a new signature has the same idempotency key")
	}
}

// Case 9: the same order text with its signature stripped.
func TestHostile09SignatureStripped(t *testing.T) {
	g, f := gpgFixture(t)
	mustReject(t, textMessage(orderText), f.keys, time.Now(), ReasonUnsigned)
	// multipart/signed with the signature part removed.
	inner := textPart(orderText)
	mustReject(t, signedMessage(stdParams, inner), f.keys, time.Now(), ReasonBadStructure)
	// The clearsigned block with its signature cut off.
	block := string(g.Clearsign(edUID, []byte(orderText)))
	cut := block[:strings.Index(block, "-----BEGIN PGP SIGNATURE-----")]
	mustReject(t, textMessage(cut), f.keys, time.Now(), ReasonBadStructure)
	// The order file of the detached form without its .asc.
	mustReject(t, mixedMessage(filePart("text/plain", "orders.txt", "8bit", []byte(orderText))), f.keys, time.Now(), ReasonUnsigned)
}

// Case 10: two signatures in one part: good plus bad, good plus unknown
// issuer; and two cleartext blocks.
func TestHostile10TwoSignatures(t *testing.T) {
	g, f := gpgFixture(t)
	inner := textPart(orderText)
	good := dearmor(t, g.DetachSign(edUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256"))
	bad := dearmor(t, g.DetachSign(rsaUID, []byte("something else"), true, "--digest-algo", "SHA256"))
	unknown := dearmor(t, g.DetachSign(otherUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256"))
	for name, pair := range map[string][]byte{
		"good+bad":     append(append([]byte{}, good...), bad...),
		"bad+good":     append(append([]byte{}, bad...), good...),
		"good+unknown": append(append([]byte{}, good...), unknown...),
	} {
		t.Run(name, func(t *testing.T) {
			raw := signedMessage(stdParams, inner, sigPart(armorSig(t, pair, nil)))
			mustReject(t, raw, f.keys, time.Now(), ReasonMultipleSignatures)
		})
	}
	t.Run("two armored blocks", func(t *testing.T) {
		two := append(armorSig(t, good, nil), armorSig(t, unknown, nil)...)
		mustReject(t, signedMessage(stdParams, inner, sigPart(two)), f.keys, time.Now(), ReasonMultipleSignatures)
	})
	t.Run("gpg signing with two keys", func(t *testing.T) {
		sig := g.Run(canonicalCRLF(inner), "--local-user", edUID, "--local-user", rsaUID, "--armor", "--detach-sign", "--digest-algo", "SHA256")
		mustReject(t, signedMessage(stdParams, inner, sigPart(sig)), f.keys, time.Now(), ReasonMultipleSignatures)
	})
}

// Case 11: a non-signature packet in the signature part, and a signature
// without issuer.
func TestHostile11StrayPacketsAndNoIssuer(t *testing.T) {
	g, f := gpgFixture(t)
	inner := textPart(orderText)
	good := dearmor(t, g.DetachSign(edUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256"))
	var pk bytes.Buffer
	if err := f.keys[0].PrimaryKey.Serialize(&pk); err != nil {
		t.Fatal(err)
	}
	literal := newPacket(11, append([]byte{'b', 0, 0, 0, 0, 0}, "hello"...))
	for name, bin := range map[string][]byte{
		"signature+public key": append(append([]byte{}, good...), pk.Bytes()...),
		"public key only":      pk.Bytes(),
		"literal+signature":    append(append([]byte{}, literal...), good...),
		"unknown packet type":  append(append([]byte{}, good...), newPacket(60, []byte("x"))...),
		"truncated":            good[:len(good)-5],
		"garbage":              []byte("\x00\x01\x02 not OpenPGP"),
	} {
		t.Run(name, func(t *testing.T) {
			raw := signedMessage(stdParams, inner, sigPart(armorSig(t, bin, nil)))
			mustReject(t, raw, f.keys, time.Now(), ReasonBadStructure)
		})
	}
	t.Run("no issuer", func(t *testing.T) {
		raw := signedMessage(stdParams, inner, sigPart(armorSig(t, stripIssuer(t, good), nil)))
		mustReject(t, raw, f.keys, time.Now(), ReasonNoIssuer)
	})
	t.Run("key certification signature", func(t *testing.T) {
		pub := dearmor(t, g.ExportPublic(edUID))
		// The export is key, user id, self-signature: take the last packet.
		r := bytes.NewReader(pub)
		var last []byte
		for r.Len() > 0 {
			start := len(pub) - r.Len()
			if _, err := packet.Read(r); err != nil {
				t.Fatal(err)
			}
			last = pub[start : len(pub)-r.Len()]
		}
		raw := signedMessage(stdParams, inner, sigPart(armorSig(t, last, nil)))
		mustReject(t, raw, f.keys, time.Now(), ReasonBadStructure)
	})
}

// Case 12: SHA-1, MD5 and RIPEMD-160 signatures are rejected.
func TestHostile12WeakHashes(t *testing.T) {
	g, f := gpgFixture(t)
	inner := textPart(orderText)
	t.Run("gpg SHA1", func(t *testing.T) {
		sig := g.DetachSign(edUID, canonicalCRLF(inner), true, "--digest-algo", "SHA1")
		raw := signedMessage(" micalg=pgp-sha1; protocol=\"application/pgp-signature\";", inner, sigPart(sig))
		mustReject(t, raw, f.keys, time.Now(), ReasonWeakHash)
	})
	now := time.Now()
	key := goKey(t, "Go Player <go@example.org>", now.Add(-time.Hour), 0)
	keys := publicOnly(t, key)
	sha256Sig := rawSign(t, key, canonicalCRLF(inner), crypto.SHA256, now)
	mustAccept(t, signedMessage(stdParams, inner, sigPart(armorSig(t, sha256Sig, nil))), keys, now)
	for name, sig := range map[string][]byte{
		"SHA1":      rawSign(t, key, canonicalCRLF(inner), crypto.SHA1, now),
		"MD5":       setHashByte(t, sha256Sig, 1),
		"RIPEMD160": setHashByte(t, sha256Sig, 3),
	} {
		t.Run(name, func(t *testing.T) {
			raw := signedMessage(" protocol=\"application/pgp-signature\";", inner, sigPart(armorSig(t, sig, nil)))
			rej := mustReject(t, raw, keys, now, ReasonWeakHash)
			if !strings.Contains(rej.Detail, name) {
				t.Errorf("detail %q does not name %s", rej.Detail, name)
			}
		})
	}
}

// Case 13: micalg naming another hash rejects; a missing micalg is tolerated.
func TestHostile13Micalg(t *testing.T) {
	g, f := gpgFixture(t)
	inner := textPart(orderText)
	sig := sigPart(g.DetachSign(edUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256"))
	mustReject(t, signedMessage(" micalg=pgp-sha512; protocol=\"application/pgp-signature\";", inner, sig), f.keys, time.Now(), ReasonMicalgMismatch)
	mustReject(t, signedMessage(" micalg=pgp-sha1; protocol=\"application/pgp-signature\";", inner, sig), f.keys, time.Now(), ReasonMicalgMismatch)
	res := mustAccept(t, signedMessage(" protocol=\"application/pgp-signature\";", inner, sig), f.keys, time.Now())
	if res.Hash != "SHA256" {
		t.Errorf("hash %s", res.Hash)
	}
	mustAccept(t, signedMessage(" micalg=PGP-SHA256; protocol=\"application/pgp-signature\";", inner, sig), f.keys, time.Now())
}

// Case 14: protocol missing or wrong, three parts, wrong second part type.
func TestHostile14MultipartSignedShape(t *testing.T) {
	g, f := gpgFixture(t)
	inner := textPart(orderText)
	armored := g.DetachSign(edUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256")
	sig := sigPart(armored)
	cases := map[string][]byte{
		"protocol missing":  signedMessage(" micalg=pgp-sha256;", inner, sig),
		"protocol wrong":    signedMessage(" micalg=pgp-sha256; protocol=\"application/pkcs7-signature\";", inner, sig),
		"three parts":       signedMessage(stdParams, inner, sig, sig),
		"second part text":  signedMessage(stdParams, inner, append([]byte("Content-Type: text/plain\r\n\r\n"), armored...)),
		"no close":          bytes.TrimSuffix(signedMessage(stdParams, inner, sig), []byte("--sig-boundary-1--\r\n")),
		"encoded multipart": bytes.Replace(signedMessage(stdParams, inner, sig), []byte("MIME-Version: 1.0\r\n"), []byte("MIME-Version: 1.0\r\nContent-Transfer-Encoding: base64\r\n"), 1),
		"two Content-Type":  bytes.Replace(signedMessage(stdParams, inner, sig), []byte("MIME-Version: 1.0\r\n"), []byte("MIME-Version: 1.0\r\nContent-Type: text/plain\r\n"), 1),
	}
	for name, raw := range cases {
		t.Run(name, func(t *testing.T) { mustReject(t, raw, f.keys, time.Now(), ReasonBadStructure) })
	}
	t.Run("signed part html verifies but is not an order", func(t *testing.T) {
		html := []byte("Content-Type: text/html\r\n\r\n<b>x</b>")
		raw := signedMessage(stdParams, html, sigPart(g.DetachSign(edUID, html, true, "--digest-algo", "SHA256")))
		mustReject(t, raw, f.keys, time.Now(), ReasonBadStructure)
	})
}

// Case 15: signature after expiry, signature before expiry but received
// after it (policy: rejected), future-dated signatures.
func TestHostile15ExpiryAndFuture(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	created := now.Add(-10 * 24 * time.Hour)
	key := goKey(t, "Expiring <exp@example.org>", created, 24*time.Hour)
	keys := publicOnly(t, key)
	inner := textPart(orderText)
	msg := func(when time.Time) []byte {
		return signedMessage(stdParams, inner, sigPart(armorSig(t, rawSign(t, key, canonicalCRLF(inner), crypto.SHA256, when), nil)))
	}
	expiry := created.Add(24 * time.Hour)

	t.Run("valid both at signing and receipt", func(t *testing.T) {
		mustAccept(t, msg(created.Add(time.Hour)), keys, created.Add(2*time.Hour))
	})
	t.Run("signed after expiry", func(t *testing.T) {
		rej := mustReject(t, msg(expiry.Add(time.Hour)), keys, expiry.Add(2*time.Hour), ReasonExpiredKey)
		if !strings.Contains(rej.Detail, "signature time") {
			t.Errorf("detail %q", rej.Detail)
		}
	})
	t.Run("signed while valid, received after expiry", func(t *testing.T) {
		rej := mustReject(t, msg(created.Add(time.Hour)), keys, expiry.Add(time.Hour), ReasonExpiredKey)
		if !strings.Contains(rej.Detail, "receipt time") {
			t.Errorf("detail %q", rej.Detail)
		}
	})
	t.Run("future beyond skew", func(t *testing.T) {
		mustReject(t, msg(created.Add(3*time.Hour)), keys, created.Add(2*time.Hour), ReasonFutureSignature)
	})
	t.Run("future within skew", func(t *testing.T) {
		mustAccept(t, msg(created.Add(2*time.Hour+5*time.Minute)), keys, created.Add(2*time.Hour))
	})
	t.Run("custom skew", func(t *testing.T) {
		_, err := VerifyWithLimits(msg(created.Add(2*time.Hour+5*time.Minute)), keys, created.Add(2*time.Hour), Limits{ClockSkew: time.Minute})
		if rej, ok := err.(*Rejection); !ok || rej.Reason != ReasonFutureSignature {
			t.Errorf("err %v, want future-signature", err)
		}
	})
	t.Run("gpg signature dated two hours ahead", func(t *testing.T) {
		g, f := gpgFixture(t)
		ahead := time.Now().Add(2 * time.Hour).UTC().Format("20060102T150405")
		sig := g.DetachSign(edUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256", "--faked-system-time", ahead+"!")
		raw := signedMessage(stdParams, inner, sigPart(sig))
		mustReject(t, raw, f.keys, time.Now(), ReasonFutureSignature)
		mustAccept(t, raw, f.keys, time.Now().Add(2*time.Hour))
	})
	t.Run("gpg key with 1d expiry verified two days later", func(t *testing.T) {
		g, f := gpgFixture(t)
		raw := gpgPGPMIME(t, g, edUID, inner)
		mustAccept(t, raw, f.keys, time.Now())
		mustReject(t, raw, f.keys, time.Now().Add(48*time.Hour), ReasonExpiredKey)
	})
}

// Case 16: a key revoked as compromised, with a signature backdated before
// the revocation; and a superseded key (policy: revocation in force at the
// receipt time rejects).
func TestHostile16Revoked(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	inner := textPart(orderText)
	for _, reason := range []packet.ReasonForRevocation{packet.KeyCompromised, packet.KeySuperseded} {
		t.Run(fmt.Sprintf("reason %d", reason), func(t *testing.T) {
			key := goKey(t, "Revoked <rev@example.org>", now.Add(-10*24*time.Hour), 0)
			sig := rawSign(t, key, canonicalCRLF(inner), crypto.SHA256, now.Add(-5*24*time.Hour))
			raw := signedMessage(stdParams, inner, sigPart(armorSig(t, sig, nil)))
			mustAccept(t, raw, publicOnly(t, key), now)
			cfg := &packet.Config{Time: func() time.Time { return now.Add(-24 * time.Hour) }}
			if err := key.Revoke(reason, "test", cfg); err != nil {
				t.Fatal(err)
			}
			mustReject(t, raw, publicOnly(t, key), now, ReasonRevokedKey)
		})
	}
	t.Run("signing subkey revoked", func(t *testing.T) {
		key := goKey(t, "Sub <sub@example.org>", now.Add(-10*24*time.Hour), 0)
		cfg := &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA, Curve: packet.Curve25519, Time: func() time.Time { return now.Add(-9 * 24 * time.Hour) }}
		if err := key.AddSigningSubkey(cfg); err != nil {
			t.Fatal(err)
		}
		sub := key.Subkeys[len(key.Subkeys)-1]
		signer := &openpgp.Entity{PrimaryKey: key.PrimaryKey, PrivateKey: sub.PrivateKey}
		sig := rawSign(t, signer, canonicalCRLF(inner), crypto.SHA256, now.Add(-5*24*time.Hour))
		raw := signedMessage(stdParams, inner, sigPart(armorSig(t, sig, nil)))
		res := mustAccept(t, raw, publicOnly(t, key), now)
		if res.Fingerprint != fmt.Sprintf("%X", key.PrimaryKey.Fingerprint) {
			t.Errorf("fingerprint %s is not the primary key's", res.Fingerprint)
		}
		rcfg := &packet.Config{Time: func() time.Time { return now.Add(-24 * time.Hour) }}
		if err := key.Subkeys[len(key.Subkeys)-1].Revoke(packet.KeyCompromised, "lost", rcfg); err != nil {
			t.Fatal(err)
		}
		mustReject(t, raw, publicOnly(t, key), now, ReasonRevokedKey)
	})
}

// Case 18: only the exact single cleartext block verifies.
func TestHostile18ClearsignedStrictness(t *testing.T) {
	g, f := gpgFixture(t)
	block := string(g.Clearsign(edUID, []byte(orderText)))
	other := string(g.Clearsign(edUID, []byte("Side: Allied\nsurrender\n")))
	hashLine := block[strings.Index(block, "Hash: ") : strings.Index(block, "Hash: ")+strings.Index(block[strings.Index(block, "Hash: "):], "\n")]
	wrongHash := "Hash: SHA512"
	if hashLine == wrongHash {
		wrongHash = "Hash: SHA256"
	}
	cases := map[string]struct {
		body, reason string
	}{
		"text before":             {"Please find my orders:\n" + block, ReasonBadStructure},
		"text after":              {block + "\nScharnhorst: surrender\n", ReasonBadStructure},
		"second block":            {block + "\n" + other, ReasonMultipleSignatures},
		"Comment armor header":    {strings.Replace(block, hashLine, hashLine+"\nComment: injected", 1), ReasonBadStructure},
		"unknown armor header":    {strings.Replace(block, hashLine, "Charset: UTF-8", 1), ReasonBadStructure},
		"unescaped dash line":     {strings.Replace(block, "HMS Glowworm", "-HMS Glowworm", 1), ReasonBadStructure},
		"hash header mismatch":    {strings.Replace(block, hashLine, wrongHash, 1), ReasonMicalgMismatch},
		"inline PGP MESSAGE":      {"-----BEGIN PGP MESSAGE-----\n\nowGbwMvMwCE=\n-----END PGP MESSAGE-----\n", ReasonBadStructure},
		"unescaping changes text": {strings.Replace(block, "- - Warspite", "- Warspite", 1), ReasonBadSignature},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { mustReject(t, textMessage(c.body), f.keys, time.Now(), c.reason) })
	}
	t.Run("whitespace around is allowed", func(t *testing.T) {
		mustAccept(t, textMessage("\n \n"+block+"\n\t\n"), f.keys, time.Now())
	})
	t.Run("not a text root", func(t *testing.T) {
		raw := []byte(mailHeader("Content-Type: multipart/alternative; boundary=\"alt\"\r\n\r\n") +
			"--alt\r\nContent-Type: text/plain\r\n\r\n" + crlf(block) + "\r\n--alt\r\nContent-Type: text/html\r\n\r\n<p>hi</p>\r\n--alt--\r\n")
		mustReject(t, raw, f.keys, time.Now(), ReasonWrappedSignature)
	})
}

// Case 19: hostile file names and armor comments are reported escaped.
func TestHostile19HostileNamesEscaped(t *testing.T) {
	g, f := gpgFixture(t)
	data := []byte(orderText)
	evilName := "orders\x1b[31m\nFAKE: accepted\u202e.txt"
	enc := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, "%%%02X", c)
		}
		return b.String()
	}
	part := func(ctype, name string, body []byte) []byte {
		return []byte("Content-Type: " + ctype + "\r\nContent-Disposition: attachment; filename*=utf-8''" + enc(name) +
			"\r\nContent-Transfer-Encoding: 7bit\r\n\r\n" + string(body))
	}
	sig := g.DetachSign(edUID, data, true, "--comment", "evil\x1b]0;pwned\x07 comment")
	raw := mixedMessage(part("text/plain", evilName, data), part("application/pgp-signature", evilName+".asc", sig))
	res := mustAccept(t, raw, f.keys, time.Now())
	if res.FileName != evilName {
		t.Fatalf("file name %q, want the raw name", res.FileName)
	}
	report, err := Check(raw, f.keys, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	assertSafe(t, report, 10)
	if !strings.Contains(report, `orders\x1b[31m\nFAKE: accepted\u202e.txt`) {
		t.Errorf("report does not show the escaped name:\n%s", report)
	}
	if !strings.Contains(report, `Comment: evil\x1b]0;pwned\x07 comment`) {
		t.Errorf("report does not show the escaped comment:\n%s", report)
	}

	// An inline-signed PGP MESSAGE whose literal data carries a hostile file
	// name is refused without echoing the name.
	inline := g.Run(data, "--local-user", edUID, "--armor", "--sign", "--set-filename", "evil\x1b[31m\nname")
	rej := mustReject(t, textMessage(string(inline)), f.keys, time.Now(), ReasonBadStructure)
	assertSafe(t, rej.Error(), 1)
	literal := newPacket(11, append([]byte{'b', byte(len(evilName))}, append([]byte(evilName), 0, 0, 0, 0, 'x')...))
	inner := textPart(orderText)
	good := dearmor(t, g.DetachSign(edUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256"))
	rej = mustReject(t, signedMessage(stdParams, inner, sigPart(armorSig(t, append(literal, good...), nil))), f.keys, time.Now(), ReasonBadStructure)
	assertSafe(t, rej.Error(), 1)
	if strings.Contains(rej.Error(), "FAKE") {
		t.Errorf("literal file name echoed: %s", rej.Error())
	}

	// A rejection naming a hostile file is escaped too.
	bad := mixedMessage(part("text/plain", "a.txt", []byte("not what was signed\n")), part("application/pgp-signature", evilName+".asc", sig))
	rej = mustReject(t, bad, f.keys, time.Now(), ReasonBadStructure)
	assertSafe(t, rej.Error(), 1)
	report, _ = Check(bad, f.keys, time.Now())
	assertSafe(t, report, 4)
}

// assertSafe requires s to have no control characters but its line breaks,
// and exactly `lines` lines.
func assertSafe(t *testing.T, s string, lines int) {
	t.Helper()
	for _, r := range s {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' {
			t.Fatalf("unescaped %U in %q", r, s)
		}
	}
	if n := strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1; n != lines {
		t.Fatalf("%d lines, want %d:\n%s", n, lines, s)
	}
}

// Case 20: a 50 MB message, a deeply nested tree, too many parts, a
// decompression bomb in the signature part.
func TestHostile20Limits(t *testing.T) {
	g, f := gpgFixture(t)
	t.Run("50 MB", func(t *testing.T) {
		big := append(textMessage("x"), bytes.Repeat([]byte("A"), 50<<20)...)
		mustReject(t, big, f.keys, time.Now(), ReasonTooLarge)
	})
	t.Run("configured size", func(t *testing.T) {
		raw := gpgPGPMIME(t, g, edUID, textPart(orderText))
		if _, err := VerifyWithLimits(raw, f.keys, time.Now(), Limits{MaxMessageBytes: len(raw)}); err != nil {
			t.Fatalf("message at the limit rejected: %v", err)
		}
		_, err := VerifyWithLimits(raw, f.keys, time.Now(), Limits{MaxMessageBytes: len(raw) - 1})
		if rej, ok := err.(*Rejection); !ok || rej.Reason != ReasonTooLarge {
			t.Fatalf("err %v, want too-large", err)
		}
	})
	t.Run("deep", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(mailHeader(""))
		for i := 0; i < 1000; i++ {
			fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n--b%d\r\n", i, i)
		}
		b.WriteString("Content-Type: text/plain\r\n\r\nx\r\n")
		for i := 999; i >= 0; i-- {
			fmt.Fprintf(&b, "--b%d--\r\n", i)
		}
		mustReject(t, []byte(b.String()), f.keys, time.Now(), ReasonTooDeep)
	})
	t.Run("many parts", func(t *testing.T) {
		parts := make([][]byte, 500)
		for i := range parts {
			parts[i] = textPart("x")
		}
		mustReject(t, mixedMessage(parts...), f.keys, time.Now(), ReasonTooManyParts)
	})
	t.Run("decompression bomb", func(t *testing.T) {
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(make([]byte, 20<<20))
		zw.Close()
		body := append([]byte{2}, z.Bytes()...) // algorithm 2 = ZLIB
		inner := textPart(orderText)
		raw := signedMessage(stdParams, inner, sigPart(armorSig(t, newPacket(8, body), nil)))
		if len(raw) > 1<<20 {
			t.Fatalf("bomb of %d bytes is not small", len(raw))
		}
		mustReject(t, raw, f.keys, time.Now(), ReasonTooLarge)
	})
	t.Run("compressed signature within limits", func(t *testing.T) {
		inner := textPart(orderText)
		good := dearmor(t, g.DetachSign(edUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256"))
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(good)
		zw.Close()
		raw := signedMessage(stdParams, inner, sigPart(armorSig(t, newPacket(8, append([]byte{2}, z.Bytes()...)), nil)))
		res := mustAccept(t, raw, f.keys, time.Now())
		if !bytes.Equal(res.Signature, good) {
			t.Errorf("signature packet is not the decompressed one")
		}
	})
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain name.txt":         "plain name.txt",
		"a\nb\r\tc":              `a\nb\r\tc`,
		"\x1b[2J":                `\x1b[2J`,
		"back\\slash":            `back\\slash`,
		"bidi\u202eevil":         `bidi\u202eevil`,
		"zero\u200bwidth":        `zero\u200bwidth`,
		"c1\u009bx":              `c1\u009bx`,
		"bad\xffutf8":            `bad\xffutf8`,
		"Grüße, Ålesund":         "Grüße, Ålesund",
		"line\u2028sep":          `line\u2028sep`,
		strings.Repeat("a", 300): strings.Repeat("a", 200) + "...",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
