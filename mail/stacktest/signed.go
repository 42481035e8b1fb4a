package stacktest

import "testing"

// SignedBody is the part of a multipart/signed mail that its signature
// covers, as it arrived: two mails with the same SignedBody have the same
// body byte for byte, whatever their headers and signatures.
func SignedBody(t testing.TB, raw []byte) []byte {
	t.Helper()
	ct, params := topType(t, raw)
	if ct != "multipart/signed" {
		t.Fatalf("stacktest: the mail is %s, not multipart/signed", ct)
	}
	parts := splitParts(t, body(raw), params["boundary"])
	if len(parts) != 2 {
		t.Fatalf("stacktest: multipart/signed with %d parts", len(parts))
	}
	return crlf(parts[0])
}
