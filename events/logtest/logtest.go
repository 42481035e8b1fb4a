// Package logtest is the conformance suite every events.Log implementation
// must pass: the file store, the in-memory store, and any later one (a
// database-backed store, say).
//
// A store's tests call Run with an Opener:
//
//	func TestConformance(t *testing.T) {
//		logtest.Run(t, func(t *testing.T, dir string) (events.Log, error) {
//			return openOrCreate(filepath.Join(dir, "events.jsonl"))
//		})
//	}
package logtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"skagerrak/events"
)

// Opener opens the log kept under dir, creating it empty if there is none.
// Called again with the same dir after the previous log was closed, it must
// return a log with the same records (a restart). Called while a log of that
// dir is still open, it must fail with an error wrapping events.ErrLocked.
// dir is a fresh directory (t.TempDir) per subtest; the Opener may keep state
// keyed by it.
type Opener func(t *testing.T, dir string) (events.Log, error)

// Run runs the suite, each check as a subtest.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(*testing.T, Opener)
	}{
		{"Empty", testEmpty},
		{"AppendChains", testAppendChains},
		{"EventsFrom", testEventsFrom},
		{"EventsStopEarly", testEventsStopEarly},
		{"AppendWhileIterating", testAppendWhileIterating},
		{"DataForms", testDataForms},
		{"TimeUTCNanos", testTimeUTCNanos},
		{"InvalidAppendLeavesLogUsable", testInvalidAppend},
		{"Reopen", testReopen},
		{"SecondWriterLocked", testSecondWriterLocked},
		{"Closed", testClosed},
		{"RecordsVerify", testRecordsVerify},
		{"CanonicalData", testCanonicalData},
		{"ConcurrentAppends", testConcurrentAppends},
		{"AppendBatch", testAppendBatch},
		{"BatchNotNextAppendsNothing", testBatchNotNext},
		{"BatchOfAClosedWriterAppendsNothing", testBatchClosed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open) })
	}
}

var t0 = time.Date(1940, time.April, 9, 4, 15, 0, 0, time.UTC)

func mustOpen(t *testing.T, open Opener, dir string) events.Log {
	t.Helper()
	l, err := open(t, dir)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	return l
}

// newLog opens a fresh log closed at the end of the test.
func newLog(t *testing.T, open Opener) events.Log {
	t.Helper()
	l := mustOpen(t, open, t.TempDir())
	t.Cleanup(func() { l.Close() })
	return l
}

func appendN(t *testing.T, l events.Log, n int) []events.Event {
	t.Helper()
	var out []events.Event
	for i := 0; i < n; i++ {
		ev, err := l.Append("Tick", t0.Add(time.Duration(i)*time.Minute), map[string]int{"i": i})
		if err != nil {
			t.Fatalf("append %d: %v", i+1, err)
		}
		if seq, hash := l.Head(); seq != ev.Seq || hash != ev.Hash {
			t.Fatalf("Head after append = (%d, %s), want (%d, %s)", seq, hash, ev.Seq, ev.Hash)
		}
		out = append(out, ev)
	}
	return out
}

func collect(t *testing.T, l events.Log, from uint64) []events.Event {
	t.Helper()
	var out []events.Event
	for ev, err := range l.Events(from) {
		if err != nil {
			t.Fatalf("Events(%d): %v", from, err)
		}
		out = append(out, ev)
	}
	return out
}

func sameEvent(a, b events.Event) error {
	if a.Seq != b.Seq || !a.Time.Equal(b.Time) || a.Type != b.Type || !bytes.Equal(a.Data, b.Data) || a.Prev != b.Prev || a.Hash != b.Hash {
		return fmt.Errorf("%+v != %+v", a, b)
	}
	return nil
}

func testEmpty(t *testing.T, open Opener) {
	l := newLog(t, open)
	seq, hash := l.Head()
	if seq != 0 || hash != events.GenesisPrev {
		t.Errorf("Head of an empty log = (%d, %s), want (0, GenesisPrev)", seq, hash)
	}
	if evs := collect(t, l, 0); len(evs) != 0 {
		t.Errorf("Events of an empty log yielded %d records", len(evs))
	}
}

func testAppendChains(t *testing.T, open Opener) {
	l := newLog(t, open)
	evs := appendN(t, l, 5)
	prev := events.GenesisPrev
	for i, ev := range evs {
		if ev.Seq != uint64(i+1) {
			t.Errorf("append %d: seq %d", i+1, ev.Seq)
		}
		if ev.Prev != prev {
			t.Errorf("seq %d: prev %s, want %s", ev.Seq, ev.Prev, prev)
		}
		want, err := events.NewEvent(ev.Seq, prev, "Tick", t0.Add(time.Duration(i)*time.Minute), map[string]int{"i": i})
		if err != nil {
			t.Fatal(err)
		}
		if err := sameEvent(ev, want); err != nil {
			t.Errorf("seq %d differs from NewEvent: %v", ev.Seq, err)
		}
		prev = ev.Hash
	}
	seq, hash := l.Head()
	if seq != 5 || hash != evs[4].Hash {
		t.Errorf("Head = (%d, %s), want (5, %s)", seq, hash, evs[4].Hash)
	}
	got := collect(t, l, 1)
	if len(got) != len(evs) {
		t.Fatalf("Events(1) yielded %d records, want %d", len(got), len(evs))
	}
	for i := range evs {
		if err := sameEvent(got[i], evs[i]); err != nil {
			t.Errorf("Events record %d differs from what Append returned: %v", i+1, err)
		}
	}
}

func testEventsFrom(t *testing.T, open Opener) {
	l := newLog(t, open)
	evs := appendN(t, l, 6)
	for _, from := range []uint64{0, 1, 2, 3, 6, 7, 100} {
		got := collect(t, l, from)
		start := int(from) - 1
		if from == 0 {
			start = 0
		}
		want := []events.Event{}
		if start < len(evs) {
			want = evs[start:]
		}
		if len(got) != len(want) {
			t.Errorf("Events(%d) yielded %d records, want %d", from, len(got), len(want))
			continue
		}
		for i := range want {
			if err := sameEvent(got[i], want[i]); err != nil {
				t.Errorf("Events(%d)[%d]: %v", from, i, err)
			}
		}
	}
}

func testEventsStopEarly(t *testing.T, open Opener) {
	l := newLog(t, open)
	appendN(t, l, 5)
	n := 0
	for ev, err := range l.Events(2) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if ev.Seq == 3 {
			break
		}
	}
	if n != 2 {
		t.Errorf("stopping at seq 3 from 2 saw %d records, want 2", n)
	}
	if _, err := l.Append("Tick", t0, nil); err != nil {
		t.Errorf("append after an early break: %v", err)
	}
}

func testAppendWhileIterating(t *testing.T, open Opener) {
	l := newLog(t, open)
	appendN(t, l, 3)
	done := make(chan error, 1)
	go func() {
		var err error
		n := 0
		for ev, ierr := range l.Events(1) {
			if ierr != nil {
				err = ierr
				break
			}
			n++
			if ev.Seq == 2 {
				if _, aerr := l.Append("Late", t0, nil); aerr != nil {
					err = aerr
					break
				}
			}
		}
		if err == nil && n < 3 {
			err = fmt.Errorf("saw %d records, want at least the 3 present at the call", n)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Append inside an Events loop deadlocked")
	}
	if seq, _ := l.Head(); seq != 4 {
		t.Errorf("Head seq = %d after the append in the loop, want 4", seq)
	}
}

func testDataForms(t *testing.T, open Opener) {
	l := newLog(t, open)
	type orders struct {
		Side  string   `json:"side"`
		Lines []string `json:"lines"`
	}
	cases := []struct {
		data any
		want string
	}{
		{nil, `null`},
		{orders{"British", []string{"Renown: move to 0412"}}, `{"side":"British","lines":["Renown: move to 0412"]}`},
		{json.RawMessage(" { \"a\" : [ 1 , 2 ] ,\n \"b\":\"x y\" } "), `{"a":[1,2],"b":"x y"}`},
		{"plain string", `"plain string"`},
		{json.RawMessage("\"<b>&amp;</b>\u2028\""), `"\u003cb\u003e\u0026amp;\u003c/b\u003e\u2028"`},
		{42, `42`},
		{map[string]any{"z": 1, "a": 2}, `{"a":2,"z":1}`},
	}
	for _, c := range cases {
		ev, err := l.Append("Data", t0, c.data)
		if err != nil {
			t.Fatalf("append %#v: %v", c.data, err)
		}
		if string(ev.Data) != c.want {
			t.Errorf("data %#v stored as %s, want %s", c.data, ev.Data, c.want)
		}
	}
	got := collect(t, l, 1)
	for i, c := range cases {
		if string(got[i].Data) != c.want {
			t.Errorf("record %d read back as %s, want %s", i+1, got[i].Data, c.want)
		}
	}
}

func testTimeUTCNanos(t *testing.T, open Opener) {
	l := newLog(t, open)
	oslo := time.FixedZone("CET", 3600)
	at := time.Date(1940, time.April, 9, 5, 15, 0, 123456789, oslo)
	ev, err := l.Append("Tick", at, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, l, 1)[0]
	for _, e := range []events.Event{ev, got} {
		if !e.Time.Equal(at) || e.Time.Location() != time.UTC {
			t.Errorf("time %v, want %v in UTC", e.Time, at.UTC())
		}
		if e.Time.Nanosecond() != 123456789 {
			t.Errorf("nanoseconds %d, want 123456789", e.Time.Nanosecond())
		}
	}
	// A monotonic clock reading must not leak into the record.
	if _, err := l.Append("Tick", time.Now(), nil); err != nil {
		t.Fatal(err)
	}
}

func testInvalidAppend(t *testing.T, open Opener) {
	l := newLog(t, open)
	appendN(t, l, 2)
	seq, hash := l.Head()
	bad := []struct {
		typ  string
		at   time.Time
		data any
	}{
		{"", t0, nil},
		{"Has space", t0, nil},
		{"9Starts", t0, nil},
		{"Quote\"d", t0, nil},
		{"events.Format", t0, nil},
		{string(bytes.Repeat([]byte("A"), events.MaxTypeLen+1)), t0, nil},
		{"Tick", time.Time{}, nil},
		{"Tick", t0, json.RawMessage(`{"unclosed":`)},
		{"Tick", t0, json.RawMessage(`{"id":"x","id":"x"}`)},
		{"Tick", t0, json.RawMessage(`{"side":"\u0067erman"}`)},
		{"Tick", t0, json.RawMessage(`["a\/b"]`)},
		{"Tick", t0, make(chan int)},
	}
	for _, b := range bad {
		_, err := l.Append(b.typ, b.at, b.data)
		if err == nil {
			t.Errorf("Append(%q, %v, %T) succeeded, want an error", b.typ, b.at, b.data)
			continue
		}
		if errors.Is(err, events.ErrFatal) {
			t.Errorf("Append(%q, ...) = %v: an invalid argument must not be fatal", b.typ, err)
		}
	}
	if s, h := l.Head(); s != seq || h != hash {
		t.Errorf("Head moved from (%d, %s) to (%d, %s) after invalid appends", seq, hash, s, h)
	}
	ev, err := l.Append("Tick", t0, nil)
	if err != nil {
		t.Fatalf("append after invalid ones: %v", err)
	}
	if ev.Seq != seq+1 || ev.Prev != hash {
		t.Errorf("append after invalid ones: seq %d prev %s, want %d %s", ev.Seq, ev.Prev, seq+1, hash)
	}
}

func testReopen(t *testing.T, open Opener) {
	dir := t.TempDir()
	l := mustOpen(t, open, dir)
	evs := appendN(t, l, 4)
	if err := l.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	l = mustOpen(t, open, dir)
	defer l.Close()
	seq, hash := l.Head()
	if seq != 4 || hash != evs[3].Hash {
		t.Fatalf("reopened Head = (%d, %s), want (4, %s)", seq, hash, evs[3].Hash)
	}
	got := collect(t, l, 1)
	if len(got) != 4 {
		t.Fatalf("reopened log has %d records, want 4", len(got))
	}
	for i := range evs {
		if err := sameEvent(got[i], evs[i]); err != nil {
			t.Errorf("reopened record %d: %v", i+1, err)
		}
	}
	ev, err := l.Append("Tick", t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Seq != 5 || ev.Prev != evs[3].Hash {
		t.Errorf("append after reopen: seq %d prev %s, want 5 %s", ev.Seq, ev.Prev, evs[3].Hash)
	}
}

func testSecondWriterLocked(t *testing.T, open Opener) {
	dir := t.TempDir()
	l := mustOpen(t, open, dir)
	appendN(t, l, 1)
	start := time.Now()
	l2, err := open(t, dir)
	if err == nil {
		l2.Close()
		l.Close()
		t.Fatal("a second open of a log that is open succeeded")
	}
	if !errors.Is(err, events.ErrLocked) {
		t.Errorf("second open: %v, want an error wrapping ErrLocked", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("second open took %v to fail, want it to fail fast", d)
	}
	if _, err := l.Append("Tick", t0, nil); err != nil {
		t.Errorf("the first writer cannot append after a refused second open: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l3, err := open(t, dir)
	if err != nil {
		t.Fatalf("open after the first writer closed: %v", err)
	}
	if seq, _ := l3.Head(); seq != 2 {
		t.Errorf("Head seq %d, want 2", seq)
	}
	l3.Close()
}

func testClosed(t *testing.T, open Opener) {
	l := mustOpen(t, open, t.TempDir())
	appendN(t, l, 1)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append("Tick", t0, nil); !errors.Is(err, events.ErrClosed) {
		t.Errorf("Append after Close: %v, want ErrClosed", err)
	}
	var ierr error
	for _, err := range l.Events(1) {
		ierr = err
	}
	if !errors.Is(ierr, events.ErrClosed) {
		t.Errorf("Events after Close yielded %v, want ErrClosed", ierr)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v, want nil", err)
	}
}

func testRecordsVerify(t *testing.T, open Opener) {
	l := newLog(t, open)
	appendN(t, l, 3)
	if _, err := l.Append("Quoted", t0, map[string]string{"text": "line\n\"q\" <&> æøå \u2028"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for ev, err := range l.Events(1) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	sum, err := events.Verify(&buf)
	if err != nil {
		t.Fatalf("the records, written as a log file, do not verify: %v", err)
	}
	seq, hash := l.Head()
	if sum.Records != seq || sum.Head != hash || sum.TornTail {
		t.Errorf("Verify summary %+v, want %d records with head %s", sum, seq, hash)
	}
}

func testConcurrentAppends(t *testing.T, open Opener) {
	l := newLog(t, open)
	const workers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if _, err := l.Append("Tick", t0, map[string]int{"w": w, "i": i}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got := collect(t, l, 1)
	if len(got) != workers*each {
		t.Fatalf("%d records, want %d", len(got), workers*each)
	}
	prev := events.GenesisPrev
	seen := map[string]bool{}
	for i, ev := range got {
		if ev.Seq != uint64(i+1) || ev.Prev != prev {
			t.Fatalf("record %d: seq %d prev %s, want seq %d prev %s", i+1, ev.Seq, ev.Prev, i+1, prev)
		}
		prev = ev.Hash
		seen[string(ev.Data)] = true
	}
	if len(seen) != workers*each {
		t.Errorf("%d distinct payloads, want %d (an append was lost or doubled)", len(seen), workers*each)
	}
}

// testCanonicalData: what a store gives back is the data as the writer
// wrote it, which events.CheckSchema holds to the event type's struct: a
// member the type lacks is named, a record as written passes.
func testCanonicalData(t *testing.T, open Opener) {
	l := newLog(t, open)
	type opened struct {
		Phase string   `json:"phase"`
		Owes  []string `json:"owes,omitempty"`
	}
	if _, err := l.Append("PhaseOpened", t0, opened{Phase: "T01", Owes: []string{"german"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append("PhaseOpened", t0, json.RawMessage(`{"phase":"T02","owes":["german"],"admin":true}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append("PhaseOpened", t0, json.RawMessage(`{"owes":["german"],"phase":"T03"}`)); err != nil {
		t.Fatal(err)
	}
	got := collect(t, l, 1)
	if err := events.CheckSchema(got[0], new(opened)); err != nil {
		t.Errorf("the record as written: %v", err)
	}
	var nc *events.NonCanonicalError
	err := events.CheckSchema(got[1], new(opened))
	if !errors.As(err, &nc) || nc.Seq != 2 || !bytes.Contains([]byte(err.Error()), []byte(`unknown field "admin"`)) {
		t.Errorf("a member the type lacks: %v", err)
	}
	err = events.CheckSchema(got[2], new(opened))
	if !errors.As(err, &nc) || nc.Seq != 3 {
		t.Errorf("members in another order: %v", err)
	}
}

// sealed returns n records that follow (seq, head), as NewEvent makes them.
func sealed(t *testing.T, seq uint64, head string, n int) []events.Event {
	t.Helper()
	var out []events.Event
	for i := 0; i < n; i++ {
		ev, err := events.NewEvent(seq+1, head, "Batched", t0.Add(time.Duration(seq)*time.Minute), map[string]uint64{"seq": seq + 1})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
		seq, head = ev.Seq, ev.Hash
	}
	return out
}

// sameRecords checks that l holds want, in order, from record 1.
func sameRecords(t *testing.T, l events.Log, want []events.Event) {
	t.Helper()
	got := collect(t, l, 1)
	if len(got) != len(want) {
		t.Fatalf("Events(1) yielded %d records, want %d", len(got), len(want))
	}
	for i := range want {
		if err := sameEvent(got[i], want[i]); err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
	}
	if seq, hash := l.Head(); seq != uint64(len(want)) || (len(want) > 0 && hash != want[len(want)-1].Hash) {
		t.Fatalf("Head = (%d, %s), want seq %d", seq, hash, len(want))
	}
}

// A batch is appended whole, between single appends, and reads back
// (after a restart too) as the records it holds; an empty one is nothing.
func testAppendBatch(t *testing.T, open Opener) {
	dir := t.TempDir()
	l := mustOpen(t, open, dir)
	all := appendN(t, l, 2)
	if err := l.AppendBatch(nil); err != nil {
		t.Fatalf("AppendBatch of nothing: %v", err)
	}
	seq, head := l.Head()
	batch := sealed(t, seq, head, 3)
	if err := l.AppendBatch(batch); err != nil {
		t.Fatalf("AppendBatch: %v", err)
	}
	all = append(all, batch...)
	sameRecords(t, l, all)
	one := sealed(t, 5, batch[2].Hash, 1)
	if err := l.AppendBatch(one); err != nil {
		t.Fatalf("AppendBatch of one record: %v", err)
	}
	ev, err := l.Append("Tick", t0, nil)
	if err != nil || ev.Seq != 7 || ev.Prev != one[0].Hash {
		t.Fatalf("Append after batches: seq %d prev %s, %v; want seq 7 after the batch", ev.Seq, ev.Prev, err)
	}
	all = append(all, one[0], ev)
	sameRecords(t, l, all)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l = mustOpen(t, open, dir)
	defer l.Close()
	sameRecords(t, l, all)
	for from := uint64(3); from <= 6; from++ {
		if got := collect(t, l, from); len(got) != int(8-from) || got[0].Seq != from {
			t.Fatalf("Events(%d), in and after a batch, yielded %d records, want %d from seq %d", from, len(got), 8-from, from)
		}
	}
}

// A batch that does not continue the log, at its first record or any
// later one, appends none of its records and leaves the log usable.
func testBatchNotNext(t *testing.T, open Opener) {
	l := newLog(t, open)
	all := appendN(t, l, 2)
	seq, head := l.Head()
	stale := sealed(t, all[0].Seq, all[0].Hash, 3) // built before record 2
	broken := sealed(t, seq, head, 3)
	broken[2] = sealed(t, seq+1, broken[0].Hash, 1)[0] // skips record 4's link
	forged := sealed(t, seq, head, 2)
	forged[1].Data = []byte(`{"seq":99}`) // its hash no longer matches
	for name, b := range map[string][]events.Event{"stale": stale, "broken": broken, "forged": forged} {
		err := l.AppendBatch(b)
		if !errors.Is(err, events.ErrNotNext) || errors.Is(err, events.ErrFatal) {
			t.Errorf("AppendBatch of a %s batch: %v, want ErrNotNext and not fatal", name, err)
		}
		sameRecords(t, l, all)
	}
	good := sealed(t, seq, head, 2)
	if err := l.AppendBatch(good); err != nil {
		t.Fatalf("AppendBatch after refused ones: %v", err)
	}
	sameRecords(t, l, append(all, good...))
}

// A writer that no longer holds the log (closed, and the log opened again
// by another) appends nothing of a batch, and the one that holds it goes
// on from the head.
func testBatchClosed(t *testing.T, open Opener) {
	dir := t.TempDir()
	old := mustOpen(t, open, dir)
	all := appendN(t, old, 2)
	seq, head := old.Head()
	batch := sealed(t, seq, head, 3)
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	l := mustOpen(t, open, dir)
	defer l.Close()
	if err := old.AppendBatch(batch); !errors.Is(err, events.ErrClosed) {
		t.Errorf("AppendBatch on a closed log: %v, want ErrClosed", err)
	}
	sameRecords(t, l, all)
	if err := l.AppendBatch(batch); err != nil {
		t.Fatalf("the same batch by the writer that holds the log: %v", err)
	}
	sameRecords(t, l, append(all, batch...))
}
