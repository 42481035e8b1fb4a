package events_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"skagerrak/events"
)

// FuzzVerify feeds arbitrary bytes to the verifier: it must not panic, and
// what it accepts must account for every byte and re-verify identically.
func FuzzVerify(f *testing.F) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add(golden[:len(golden)/2])
	f.Add(append(bytes.Clone(golden), 0, 0, 0))
	f.Add([]byte("{\"seq\":1}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sum, err := events.Verify(bytes.NewReader(b))
		if err != nil {
			var ce *events.ChainError
			if !errors.As(err, &ce) || ce.Seq != sum.Records+1 {
				t.Fatalf("Verify error %v with summary %+v: want a *ChainError at the record after the good ones", err, sum)
			}
			return
		}
		if sum.Bytes+sum.TailBytes != int64(len(b)) {
			t.Fatalf("summary %+v does not account for the %d bytes", sum, len(b))
		}
		again, err := events.Verify(bytes.NewReader(b[:sum.Bytes]))
		if err != nil || again.Records != sum.Records || again.Head != sum.Head || again.TornTail {
			t.Fatalf("the good prefix re-verifies as %+v, %v; want %+v without a tail", again, err, sum)
		}
	})
}
