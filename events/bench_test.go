package events_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"skagerrak/events"
)

// benchData is a payload of the size of a typical OrdersAccepted event.
var benchData = map[string]any{
	"phase": "1940-04-08/1", "side": "British",
	"key":   "2a3b4c5d6e7f80910a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f50617",
	"lines": []string{"Renown: move to Vestfjord", "Glowworm: search 0412", "Home Fleet: stand by"},
}

// BenchmarkAppend appends to a log file with a real fsync per append.
func BenchmarkAppend(b *testing.B) {
	l, err := events.Create(filepath.Join(b.TempDir(), "events.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	at := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.Append("OrdersAccepted", at, benchData); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendBatch appends batches of 8 records (a phase resolved, the
// next opened, reports queued) to a log file, one write and one fsync a
// batch: one op is a batch.
func BenchmarkAppendBatch(b *testing.B) {
	l, err := events.Create(filepath.Join(b.TempDir(), "events.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	at := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		seq, head := l.Head()
		batch := make([]events.Event, 8)
		for j := range batch {
			if batch[j], err = events.NewEvent(seq+1, head, "MailQueued", at, benchData); err != nil {
				b.Fatal(err)
			}
			seq, head = batch[j].Seq, batch[j].Hash
		}
		if err := l.AppendBatch(batch); err != nil {
			b.Fatal(err)
		}
	}
}

const replayEvents = 10000

// replayLog writes a log of replayEvents events and returns its path.
func replayLog(b *testing.B) string {
	b.Helper()
	m := events.NewMemLog()
	at := time.Date(1940, 4, 8, 0, 0, 0, 0, time.UTC)
	for i := 0; i < replayEvents; i++ {
		if _, err := m.Append("OrdersAccepted", at.Add(time.Duration(i)*time.Second), benchData); err != nil {
			b.Fatal(err)
		}
	}
	path := filepath.Join(b.TempDir(), "events.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.WriteTo(f); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	return path
}

// BenchmarkReplay reads and verifies a 10,000-event log (every record's form,
// seq, prev link and hash), yielding each event: one op is the whole log.
func BenchmarkReplay(b *testing.B) {
	path := replayLog(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, err := range events.NewReader(f, path).All() {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		f.Close()
		if n != replayEvents {
			b.Fatalf("replayed %d events", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*replayEvents), "ns/event")
}

// BenchmarkReplayFileLog replays the same log through FileLog.Events (the
// daemon's path), Open not included.
func BenchmarkReplayFileLog(b *testing.B) {
	path := replayLog(b)
	l, err := events.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		for _, err := range l.Events(1) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != replayEvents {
			b.Fatalf("replayed %d events", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*replayEvents), "ns/event")
}

// BenchmarkDecodeOnly decodes the same log with encoding/json alone, no
// checks: the floor for a replay.
func BenchmarkDecodeOnly(b *testing.B) {
	path := replayLog(b)
	type record struct {
		Seq  uint64          `json:"seq"`
		Time time.Time       `json:"time"`
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
		Prev string          `json:"prev"`
		Hash string          `json:"hash"`
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), events.MaxRecordBytes)
		n := 0
		for sc.Scan() {
			var r record
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				b.Fatal(err)
			}
			n++
		}
		f.Close()
		if sc.Err() != nil || n != replayEvents {
			b.Fatalf("decoded %d events: %v", n, sc.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*replayEvents), "ns/event")
}
