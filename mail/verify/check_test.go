package verify

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCheckReportAccepted(t *testing.T) {
	g, f := gpgFixture(t)
	raw := gpgPGPMIME(t, g, edUID, textPart(orderText))
	at := time.Now().UTC().Truncate(time.Second)
	report, err := Check(raw, f.keys, at)
	if err != nil {
		t.Fatal(err)
	}
	res := mustAccept(t, raw, f.keys, at)
	want := []string{
		"result:      accepted",
		"received:    " + at.Format(time.RFC3339),
		"form:        pgp-mime",
		"signer:      " + f.edFpr,
		"hash:        SHA256",
		"signed at:   " + res.SigTime.UTC().Format(time.RFC3339) + " (claimed by the sender)",
		fmt.Sprintf("identity:    %x", res.Identity),
		fmt.Sprintf("signed:      %d bytes, sha256 %x", len(crlf(orderText)), sha256.Sum256([]byte(crlf(orderText)))),
	}
	if got := strings.Split(strings.TrimSuffix(report, "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("report\n%s\nwant\n%s", report, strings.Join(want, "\n"))
	}
}

func TestCheckReportRejected(t *testing.T) {
	_, f := gpgFixture(t)
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	report, err := Check(textMessage(orderText), f.keys, at)
	if err == nil {
		t.Fatal("unsigned message accepted")
	}
	want := "result:      rejected\nreceived:    2026-11-29T12:00:00Z\nreason:      unsigned\ndetail:      text body without a cleartext signature\n"
	if report != want {
		t.Errorf("report\n%q\nwant\n%q", report, want)
	}
}

func TestReadKeysErrors(t *testing.T) {
	if _, err := ReadKeys(strings.NewReader("not a key")); err == nil || !strings.HasPrefix(err.Error(), "verify: ") {
		t.Errorf("err %v, want a verify: error", err)
	}
}

// RSA keys under 2048 bits are refused even with a good signature.
func TestWeakRSAKey(t *testing.T) {
	g, _ := gpgFixture(t)
	const uid = "Weak <weak@example.org>"
	if _, err := g.TryRun(nil, "--quick-gen-key", uid, "rsa1024", "sign", "1d"); err != nil {
		t.Skipf("gpg refuses rsa1024 here: %v", err)
	}
	keys, err := ReadKeys(bytes.NewReader(g.ExportPublic(uid)))
	if err != nil {
		t.Fatal(err)
	}
	raw := gpgPGPMIME(t, g, uid, textPart(orderText))
	rej := mustReject(t, raw, keys, time.Now(), ReasonWeakKey)
	if !strings.Contains(rej.Detail, "1024") {
		t.Errorf("detail %q does not give the size", rej.Detail)
	}
}

func TestZeroReceiptTime(t *testing.T) {
	_, err := Verify(textMessage(orderText), nil, time.Time{})
	if err == nil || !strings.Contains(err.Error(), "zero receipt time") {
		t.Errorf("err %v", err)
	}
	if _, err := VerifyEnvelope(textMessage(orderText), nil, time.Time{}, Limits{}); err == nil {
		t.Error("VerifyEnvelope accepted a zero time")
	}
	if _, err := VerifyDetached(nil, nil, nil, time.Time{}); err == nil {
		t.Error("VerifyDetached accepted a zero time")
	}
}

func TestNilKeys(t *testing.T) {
	g, _ := gpgFixture(t)
	inner := textPart(orderText)
	sig := dearmor(t, g.DetachSign(edUID, canonicalCRLF(inner), true, "--digest-algo", "SHA256"))
	mustReject(t, signedMessage(stdParams, inner, sigPart(armorSig(t, sig, nil))), nil, time.Now(), ReasonUnknownKey)
	_, err := VerifyDetached(canonicalCRLF(inner), sig, nil, time.Now())
	if rej, ok := err.(*Rejection); !ok || rej.Reason != ReasonUnknownKey {
		t.Errorf("VerifyDetached with nil keys: %v", err)
	}
}
