package verify

import (
	"testing"
	"time"
)

// BenchmarkVerify measures Verify on one GnuPG-signed PGP/MIME message per
// key type: MIME parsing, signature parsing and the signature check.
func BenchmarkVerify(b *testing.B) {
	g, f := gpgFixture(b)
	for _, k := range []struct{ name, uid string }{{"ed25519", edUID}, {"rsa3072", rsaUID}} {
		raw := gpgPGPMIME(b, g, k.uid, textPart(orderText))
		at := time.Now()
		if _, err := Verify(raw, f.keys, at); err != nil {
			b.Fatal(err)
		}
		b.Run(k.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := Verify(raw, f.keys, at); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
