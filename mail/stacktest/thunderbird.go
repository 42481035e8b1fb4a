package stacktest

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// Thunderbird is a mail shaped as Thunderbird's built-in OpenPGP (78 and
// later) sends a signed message with an attachment: an Autocrypt header
// carrying the sender's key, multipart/signed around a multipart/mixed
// with protected headers (protected-headers="v1", a copy of From, To,
// Subject), a format=flowed text, the order file as a base64 attachment,
// and the sender's public key attached (OpenPGP_0x....asc). It is signed
// by gpg over the canonical first part, as RFC 3156 says.
func (p *Player) Thunderbird(t testing.TB, to, subject, note, fileName, text string) []byte {
	t.Helper()
	pub := p.PublicKey()
	bin := p.GPG.Run(nil, "--export", p.FPR)
	keyID := p.FPR[len(p.FPR)-16:]
	mix, sig := "------------tbMixed0123456789", "------------tbSigned0123456789"
	inner := "Content-Type: multipart/mixed; boundary=\"" + mix + "\";\r\n protected-headers=\"v1\"\r\n" +
		"From: " + p.Name + " <" + p.Addr + ">\r\nTo: <" + to + ">\r\nSubject: " + subject + "\r\n\r\n" +
		"--" + mix + "\r\nContent-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + string(crlf([]byte(note))) + "\r\n" +
		"--" + mix + "\r\nContent-Type: text/plain; charset=UTF-8; name=\"" + fileName + "\"\r\nContent-Disposition: attachment; filename=\"" + fileName + "\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		wrap76(base64.StdEncoding.EncodeToString([]byte(text))) + "\r\n" +
		"--" + mix + "\r\nContent-Type: application/pgp-keys; name=\"OpenPGP_0x" + keyID + ".asc\"\r\nContent-Disposition: attachment; filename=\"OpenPGP_0x" + keyID + ".asc\"\r\n" +
		"Content-Description: OpenPGP public key\r\nContent-Transfer-Encoding: 7bit\r\n\r\n" + string(crlf(pub)) + "\r\n" +
		"--" + mix + "--\r\n"
	signature := p.GPG.DetachSign(p.FPR, []byte(inner), true, "--digest-algo", "SHA256")
	return []byte(p.header(to, subject, "thunderbird") +
		"Autocrypt: addr=" + p.Addr + "; keydata=\r\n " + strings.ReplaceAll(wrap76(base64.StdEncoding.EncodeToString(bin)), "\r\n", "\r\n ") + "\r\n" +
		"Content-Type: multipart/signed; micalg=pgp-sha256;\r\n protocol=\"application/pgp-signature\";\r\n boundary=\"" + sig + "\"\r\n\r\n" +
		"This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\r\n" +
		"--" + sig + "\r\n" + inner + "\r\n" +
		"--" + sig + "\r\nContent-Type: application/pgp-signature; name=\"OpenPGP_signature.asc\"\r\nContent-Description: OpenPGP digital signature\r\n" +
		"Content-Disposition: attachment; filename=\"OpenPGP_signature.asc\"\r\n\r\n" + string(crlf(signature)) + "\r\n" +
		fmt.Sprintf("--%s--\r\n", sig))
}

func wrap76(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + "\r\n")
		s = s[76:]
	}
	b.WriteString(s)
	return b.String()
}
