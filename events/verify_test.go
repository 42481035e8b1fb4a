package events_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"skagerrak/events"
)

var t0 = time.Date(1940, time.April, 9, 4, 15, 0, 0, time.UTC)

// memLines builds a log of n events in memory and returns its lines (each
// with its newline) and events.
func memLines(t *testing.T, n int) ([][]byte, []events.Event) {
	t.Helper()
	m := events.NewMemLog()
	var evs []events.Event
	for i := 0; i < n; i++ {
		ev, err := m.Append("OrdersAccepted", t0.Add(time.Duration(i)*time.Hour),
			map[string]any{"side": "British", "phase": i, "orders": []string{"Renown: move to 0412", "Glowworm: search"}})
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	return lines[:len(lines)-1], evs
}

func join(lines [][]byte) []byte { return bytes.Join(lines, nil) }

// wantChainError checks that Verify of b fails at seq with a reason
// containing reason.
func wantChainError(t *testing.T, b []byte, seq uint64, reason string) {
	t.Helper()
	_, err := events.Verify(bytes.NewReader(b))
	var ce *events.ChainError
	if !errors.As(err, &ce) {
		t.Fatalf("Verify: %v, want a *ChainError at record %d", err, seq)
	}
	if ce.Seq != seq || ce.Line != int(seq) {
		t.Errorf("Verify reports %v, want record %d", err, seq)
	}
	if !strings.Contains(ce.Reason, reason) {
		t.Errorf("Verify reason %q, want it to contain %q", ce.Reason, reason)
	}
}

func TestVerifyGoodLog(t *testing.T) {
	lines, evs := memLines(t, 6)
	sum, err := events.Verify(bytes.NewReader(join(lines)))
	if err != nil {
		t.Fatal(err)
	}
	want := events.Summary{Records: 6, Head: evs[5].Hash, Bytes: int64(len(join(lines)))}
	if sum != want {
		t.Errorf("Summary %+v, want %+v", sum, want)
	}
	sum, err = events.Verify(strings.NewReader(""))
	if err != nil || sum.Records != 0 || sum.Head != events.GenesisPrev {
		t.Errorf("empty log: %+v, %v", sum, err)
	}
}

// TestVerifyEveryByteChanged changes each byte of a middle record and of the
// first record in turn: every change is reported at that record.
func TestVerifyEveryByteChanged(t *testing.T) {
	lines, _ := memLines(t, 5)
	for _, k := range []int{1, 3} {
		for i := range lines[k-1] {
			mod := make([][]byte, len(lines))
			copy(mod, lines)
			rec := bytes.Clone(lines[k-1])
			rec[i] ^= 0x01
			mod[k-1] = rec
			_, err := events.Verify(bytes.NewReader(join(mod)))
			var ce *events.ChainError
			if !errors.As(err, &ce) || ce.Seq != uint64(k) {
				t.Fatalf("record %d byte %d (%q) changed: Verify gave %v, want record %d", k, i, lines[k-1][i], err, k)
			}
		}
	}
}

func TestVerifyRecordRemoved(t *testing.T) {
	lines, _ := memLines(t, 5)
	mod := append(append([][]byte{}, lines[:2]...), lines[3:]...)
	wantChainError(t, join(mod), 3, "seq 4 where 3 was expected")
	wantChainError(t, join(lines[1:]), 1, "seq 2 where 1 was expected")
}

func TestVerifyRecordsSwapped(t *testing.T) {
	lines, _ := memLines(t, 5)
	mod := append([][]byte{}, lines...)
	mod[2], mod[3] = mod[3], mod[2]
	wantChainError(t, join(mod), 3, "seq 4 where 3 was expected")
}

func TestVerifyRecordRepeated(t *testing.T) {
	lines, _ := memLines(t, 3)
	mod := append(append([][]byte{}, lines...), lines[2])
	wantChainError(t, join(mod), 4, "seq 3 where 4 was expected")
}

func TestVerifyHandAppendedRecord(t *testing.T) {
	lines, evs := memLines(t, 4)
	// Wrong prev, but a hash that matches its own content.
	ev, err := events.NewEvent(5, evs[2].Hash, "OrdersAccepted", t0, map[string]string{"side": "German"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ev)
	wantChainError(t, append(join(lines), append(b, '\n')...), 5, "prev does not match the hash of record 4")

	// Right prev, data edited after hashing.
	ev, _ = events.NewEvent(5, evs[3].Hash, "OrdersAccepted", t0, map[string]string{"side": "German"})
	ev.Data = json.RawMessage(`{"side":"British"}`)
	b, _ = json.Marshal(ev)
	wantChainError(t, append(join(lines), append(b, '\n')...), 5, "hash does not match")

	// A correct hand-made record is accepted: the format is the contract.
	ev, _ = events.NewEvent(5, evs[3].Hash, "OrdersAccepted", t0, map[string]string{"side": "German"})
	b, _ = json.Marshal(ev)
	if sum, err := events.Verify(bytes.NewReader(append(join(lines), append(b, '\n')...))); err != nil || sum.Records != 5 {
		t.Errorf("a correctly built record 5: %+v, %v", sum, err)
	}
}

func TestVerifyNonCanonicalRecord(t *testing.T) {
	lines, _ := memLines(t, 3)
	cases := map[string]func([]byte) []byte{
		"space after colon": func(b []byte) []byte { return bytes.Replace(b, []byte(`"seq":`), []byte(`"seq": `), 1) },
		"members reordered": func(b []byte) []byte {
			var m map[string]json.RawMessage
			json.Unmarshal(b, &m)
			out, _ := json.Marshal(m) // sorted keys: data first
			return append(out, '\n')
		},
		"space in data": func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"side":"British"`), []byte(`"side": "British"`), 1)
		},
		"time with offset":  func(b []byte) []byte { return bytes.Replace(b, []byte(`T06:15:00Z`), []byte(`T07:15:00+01:00`), 1) },
		"uppercase hash":    func(b []byte) []byte { return append(bytes.ToUpper(b[:len(b)-3]), b[len(b)-3:]...) },
		"leading zero seq":  func(b []byte) []byte { return bytes.Replace(b, []byte(`"seq":3`), []byte(`"seq":03`), 1) },
		"extra member":      func(b []byte) []byte { return bytes.Replace(b, []byte(`,"prev"`), []byte(`,"x":1,"prev"`), 1) },
		"not JSON at all":   func([]byte) []byte { return []byte("PhaseResolved 3\n") },
		"reserved type":     func(b []byte) []byte { return bytes.Replace(b, []byte(`OrdersAccepted`), []byte(`events.Format`), 1) },
		"invalid data JSON": func(b []byte) []byte { return bytes.Replace(b, []byte(`"phase":2`), []byte(`"phase":2,`), 1) },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			mod := append([][]byte{}, lines...)
			mod[2] = change(bytes.Clone(lines[2]))
			if bytes.Equal(mod[2], lines[2]) {
				t.Fatal("test setup: the change changed nothing")
			}
			wantChainError(t, join(mod), 3, "")
		})
	}
}

func TestVerifyFirstRecordPrev(t *testing.T) {
	ev, err := events.NewEvent(1, events.GenesisPrev, "GameCreated", t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := events.NewEvent(1, strings.Repeat("1", 64), "GameCreated", t0, nil); err == nil {
		t.Error("NewEvent accepted seq 1 with a non-zero prev")
	}
	b, _ := json.Marshal(ev)
	b = bytes.Replace(b, []byte(events.GenesisPrev), []byte(strings.Repeat("1", 64)), 1)
	wantChainError(t, append(b, '\n'), 1, "")
}

func TestVerifyTornTailIsVisible(t *testing.T) {
	lines, evs := memLines(t, 3)
	good := join(lines)
	torn := append(bytes.Clone(good), lines[2][:40]...)
	sum, err := events.Verify(bytes.NewReader(torn))
	if err != nil {
		t.Fatalf("a torn tail is not an error for reading: %v", err)
	}
	want := events.Summary{Records: 3, Head: evs[2].Hash, Bytes: int64(len(good)), TornTail: true, TailBytes: 40}
	if sum != want {
		t.Errorf("Summary %+v, want %+v", sum, want)
	}
	// A damaged last line that is newline-terminated is damage, not a tear.
	mod := append([][]byte{}, lines...)
	mod[2] = append(bytes.Clone(lines[2][:40]), '\n')
	wantChainError(t, join(mod), 3, "")
}

func TestVerifyOverlongLine(t *testing.T) {
	lines, _ := memLines(t, 2)
	long := append(join(lines), bytes.Repeat([]byte("x"), events.MaxRecordBytes+10)...)
	long = append(long, '\n')
	wantChainError(t, long, 3, "longer than")
}

func TestReaderYieldsEvents(t *testing.T) {
	lines, evs := memLines(t, 4)
	rd := events.NewReader(bytes.NewReader(join(lines)), "game.jsonl")
	var got []events.Event
	for ev, err := range rd.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev)
	}
	if len(got) != 4 {
		t.Fatalf("%d events, want 4", len(got))
	}
	for i := range evs {
		if got[i].Hash != evs[i].Hash || !got[i].Time.Equal(evs[i].Time) || string(got[i].Data) != string(evs[i].Data) {
			t.Errorf("event %d: %+v, want %+v", i+1, got[i], evs[i])
		}
	}
	if s := rd.Summary(); s.Records != 4 || s.Head != evs[3].Hash {
		t.Errorf("Summary %+v", s)
	}
	// Errors from a named reader name the file.
	mod := append([][]byte{}, lines...)
	mod[1] = bytes.Replace(mod[1], []byte("Renown"), []byte("Repulse"), 1)
	rd = events.NewReader(bytes.NewReader(join(mod)), "game.jsonl")
	for _, err := range rd.All() {
		if err != nil {
			want := fmt.Sprintf("events: record 2 (line 2, byte offset %d) of game.jsonl: hash does not match", len(lines[0]))
			if err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
		}
	}
}

func TestParseRecordRoundTrip(t *testing.T) {
	ev, err := events.NewEvent(7, strings.Repeat("ab", 32), "PhaseResolved", time.Date(1940, 4, 10, 1, 2, 3, 400, time.UTC), json.RawMessage(`{"a":"<&>"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	got, err := events.ParseRecord(append(b, '\n'))
	if err != nil {
		t.Fatal(err)
	}
	if got.Seq != 7 || got.Hash != ev.Hash || got.Prev != ev.Prev || string(got.Data) != `{"a":"\u003c\u0026\u003e"}` || !got.Time.Equal(ev.Time) {
		t.Errorf("round trip: %+v, want %+v", got, ev)
	}
	if _, err := events.ParseRecord(bytes.Replace(b, []byte("Phase"), []byte("Phasf"), 1)); err == nil || !strings.HasPrefix(err.Error(), "events: ") {
		t.Errorf("a changed record parsed: %v", err)
	}
	if _, err := events.NewEvent(2, strings.Repeat("ab", 32), "Bad", t0, json.RawMessage("\"\xff\"")); err == nil {
		t.Error("NewEvent accepted data that is not UTF-8")
	}
}
