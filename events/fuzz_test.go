package events_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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
	batched := batchedLog(f)
	f.Add(batched)
	f.Add(batched[:len(batched)-40])
	f.Fuzz(checkVerify)
}

// checkVerify verifies b: an error is a *ChainError where the good
// records end; what verifies accounts for every byte, and its good prefix
// verifies again without a tail.
func checkVerify(t *testing.T, b []byte) {
	sum, err := events.Verify(bytes.NewReader(b))
	if err != nil {
		var ce *events.ChainError
		// The good records are counted a whole batch at a time: the
		// damage may be further on, inside a batch.
		if !errors.As(err, &ce) || ce.Seq < sum.Records+1 || ce.Seq > sum.Records+events.MaxBatchRecords {
			t.Fatalf("Verify error %v with summary %+v: want a *ChainError at the record after the good ones, or in the batch after them", err, sum)
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
}

// Every byte of a log with a batch set to zero, a NUL or garbage, and
// every cut: the verifier holds to what checkVerify asks.
func TestBatchedLogDamagedAnywhere(t *testing.T) {
	log := batchedLog(t)
	for i := range log {
		for _, c := range []byte{0, 'x'} {
			b := bytes.Clone(log)
			b[i] = c
			checkVerify(t, b)
		}
		checkVerify(t, log[:i])
	}
}

// batchedLog is a log file of one record then a batch of three.
func batchedLog(f testing.TB) []byte {
	path := filepath.Join(f.TempDir(), "events.jsonl")
	l, err := events.Create(path)
	if err != nil {
		f.Fatal(err)
	}
	ev, err := l.Append("GameCreated", t0, benchData)
	if err != nil {
		f.Fatal(err)
	}
	var batch []events.Event
	for range 3 {
		if ev, err = events.NewEvent(ev.Seq+1, ev.Hash, "MailQueued", t0, benchData); err != nil {
			f.Fatal(err)
		}
		batch = append(batch, ev)
	}
	if err := l.AppendBatch(batch); err != nil {
		f.Fatal(err)
	}
	l.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return b
}
