package events

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeBatchLog makes a log of two single records then one batch of three
// at path, and returns its records and the file's bytes.
func writeBatchLog(t *testing.T, path string) ([]Event, []byte) {
	t.Helper()
	evs, _ := writeLog(t, path, 2)
	for i := 2; i < 5; i++ {
		ev, err := NewEvent(uint64(i+1), evs[i-1].Hash, "MailQueued", t0.Add(3*time.Hour), sampleData(i))
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.AppendBatch(evs[2:]); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return evs, b
}

// The file frames each record of a batch with its place in the batch,
// outside the hash: each line less its frame is the record line NewEvent
// makes, and the file verifies.
func TestBatchFramedOutsideTheHash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	evs, full := writeBatchLog(t, path)
	lines := strings.Split(strings.TrimSuffix(string(full), "\n"), "\n")
	for i, want := range []string{"", "", `,"batch":[1,3]}`, `,"batch":[2,3]}`, `,"batch":[3,3]}`} {
		rec, err := evs[i].MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got := string(rec)
		if want != "" {
			got = got[:len(got)-1] + want
		}
		if lines[i] != got {
			t.Errorf("line %d is %s, want %s", i+1, lines[i], got)
		}
	}
	if sum, err := ReadFile(path); err != nil || sum.Records != 5 || sum.TornTail {
		t.Fatalf("the log verifies as %+v, %v; want 5 records", sum, err)
	}
}

// A crash during a batch's write, cut at any byte, leaves the two records
// before it and none of the batch, unless the batch is whole (its last
// newline alone may be missing).
func TestTornBatchAtEveryOffset(t *testing.T) {
	dir := t.TempDir()
	evs, full := writeBatchLog(t, filepath.Join(dir, "full.jsonl"))
	starts := lineStarts(full)
	before := starts[2] // where the batch begins
	path := filepath.Join(dir, "events.jsonl")
	for cut := before; cut <= len(full); cut++ {
		kept, size := 2, before
		if cut >= len(full)-1 {
			kept, size = 5, len(full)
		}
		checkOpened(t, path, full[:cut], kept, size, evs)
	}
}

// Blocks of a batch's write that never reached the disk read back as
// zeros: wherever they fall in the batch, the batch is cut whole.
func TestBatchWithUnwrittenBlocks(t *testing.T) {
	dir := t.TempDir()
	evs, full := writeBatchLog(t, filepath.Join(dir, "full.jsonl"))
	starts := lineStarts(full)
	path := filepath.Join(dir, "events.jsonl")
	for rec := 2; rec < 5; rec++ {
		hole := bytes.Clone(full)
		from := starts[rec] + 10
		to := min(from+40, starts[rec+1]+20, len(full))
		clear(hole[from:to])
		checkOpened(t, path, hole, 2, starts[2], evs)
	}
}

// checkOpened writes data at path, opens it and checks that the first
// kept records of evs remain, the file cut to size, and that it takes the
// next record.
func checkOpened(t *testing.T, path string, data []byte, kept, size int, evs []Event) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := open(path, fastOptions())
	if err != nil {
		t.Fatalf("%d bytes: open: %v", len(data), err)
	}
	defer l.Close()
	sum := l.Opened()
	if sum.Records != uint64(kept) || sum.Head != evs[kept-1].Hash {
		t.Fatalf("%d bytes: kept %d records, want %d", len(data), sum.Records, kept)
	}
	if sum.TornTail != (len(data) > size) || (sum.TornTail && sum.TailBytes != int64(len(data)-size)) {
		t.Errorf("%d bytes: summary %+v, want %d torn bytes", len(data), sum, len(data)-size)
	}
	got, _ := os.ReadFile(path)
	if len(got) < size || !bytes.Equal(got[:size], data[:size]) {
		t.Fatalf("%d bytes: after open the file is %d bytes, want the first %d", len(data), len(got), size)
	}
	ev, err := l.Append("PhaseResolved", t0, nil)
	if err != nil || ev.Seq != uint64(kept+1) || ev.Prev != evs[kept-1].Hash {
		t.Fatalf("%d bytes: the next append is seq %d, %v; want %d", len(data), ev.Seq, err, kept+1)
	}
}

// A frame that does not go on part by part within a whole file is damage,
// not a torn tail: nothing is cut.
func TestBatchFrameDamageRefused(t *testing.T) {
	dir := t.TempDir()
	_, full := writeBatchLog(t, filepath.Join(dir, "full.jsonl"))
	path := filepath.Join(dir, "events.jsonl")
	for _, c := range []struct{ from, to string }{
		{`,"batch":[2,3]}`, `,"batch":[3,3]}`}, // a part skipped
		{`,"batch":[2,3]}`, `}`},               // the batch ends early: records 4 and 5 are out of it
		{`,"batch":[1,3]}`, `,"batch":[1,4]}`}, // not the batch the next record is part of
		{`,"batch":[1,3]}`, `,"batch":[01,3]}`},
		{`,"batch":[3,3]}`, `,"batch":[3,2]}`},
	} {
		bad := bytes.Replace(full, []byte(c.from), []byte(c.to), 1)
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Open(path)
		var ce *ChainError
		if !errors.As(err, &ce) || ce.Seq < 3 || ce.Seq > 5 {
			t.Errorf("%s for %s: open: %v, want a ChainError in the batch", c.to, c.from, err)
		}
		if b, _ := os.ReadFile(path); !bytes.Equal(b, bad) {
			t.Errorf("%s for %s: the file was changed", c.to, c.from)
		}
	}
}

// A record before the batch, written and acknowledged on its own, that
// reads back with a NUL byte is damage even though the whole batch after
// it is good: it was not part of the last write.
func TestNULBeforeAWholeBatchRefused(t *testing.T) {
	dir := t.TempDir()
	_, full := writeBatchLog(t, filepath.Join(dir, "full.jsonl"))
	starts := lineStarts(full)
	path := filepath.Join(dir, "events.jsonl")
	bad := bytes.Clone(full)
	bad[starts[1]+20] = 0 // record 2, appended alone
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path)
	var ce *ChainError
	if !errors.As(err, &ce) || ce.Seq != 2 {
		t.Fatalf("open: %v, want a ChainError at record 2", err)
	}
}
