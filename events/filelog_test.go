package events

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var t0 = time.Date(1940, time.April, 9, 4, 15, 0, 0, time.UTC)

// sampleData returns a plausible payload for the i-th test event.
func sampleData(i int) any {
	return map[string]any{"side": []string{"British", "German"}[i%2], "phase": i, "note": "move to 0412"}
}

// writeLog creates a log at path with n events and returns them and the
// file's bytes.
func writeLog(t *testing.T, path string, n int) ([]Event, []byte) {
	t.Helper()
	l, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for i := 0; i < n; i++ {
		ev, err := l.Append("OrdersAccepted", t0.Add(time.Duration(i)*time.Hour), sampleData(i))
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
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

// lineStarts returns the offset of each line of b, and len(b) last.
func lineStarts(b []byte) []int {
	offs := []int{0}
	for i, c := range b {
		if c == '\n' {
			offs = append(offs, i+1)
		}
	}
	return offs
}

// opRecorder records the durability operations in order.
type opRecorder struct {
	mu  sync.Mutex
	ops []string
}

func (r *opRecorder) add(op string) {
	r.mu.Lock()
	r.ops = append(r.ops, op)
	r.mu.Unlock()
}

func (r *opRecorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ops...)
}

// fakeFile wraps a real file with injectable failures and a record of calls.
type fakeFile struct {
	*os.File
	rec          *opRecorder
	noSync       bool                        // pretend fsync (fast tests)
	syncErr      func(n int) error           // error for the n-th Sync (1-based)
	writeFail    func(b []byte) (int, error) // replaces Write if set
	truncateFail error
	syncs        int
}

func (f *fakeFile) Write(b []byte) (int, error) {
	if f.rec != nil {
		f.rec.add(fmt.Sprintf("write %d", len(b)))
	}
	if f.writeFail != nil {
		return f.writeFail(b)
	}
	return f.File.Write(b)
}

func (f *fakeFile) Sync() error {
	f.syncs++
	if f.rec != nil {
		f.rec.add("sync file")
	}
	if f.syncErr != nil {
		if err := f.syncErr(f.syncs); err != nil {
			return err
		}
	}
	if f.noSync {
		return nil
	}
	return f.File.Sync()
}

func (f *fakeFile) Truncate(n int64) error {
	if f.rec != nil {
		f.rec.add(fmt.Sprintf("truncate %d", n))
	}
	if f.truncateFail != nil {
		return f.truncateFail
	}
	return f.File.Truncate(n)
}

// fastOptions skip real fsyncs, for tests that open logs many times.
func fastOptions() options {
	return options{
		wrap:    func(f *os.File) file { return &fakeFile{File: f, noSync: true} },
		syncDir: func(string) error { return nil },
	}
}

func TestCreateRefusesExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Create(path)
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Create on an existing file: %v, want fs.ErrExist", err)
	}
	if !strings.HasPrefix(err.Error(), "events: ") || !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not start with events: and name the file", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "precious\n" {
		t.Errorf("Create changed the existing file to %q", b)
	}
}

func TestOpenMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	_, err := Open(path)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open of a missing file: %v, want fs.ErrNotExist", err)
	}
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing log left a lock file behind")
	}
}

func TestCreateSyncsFileThenDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.jsonl")
	rec := &opRecorder{}
	o := options{
		wrap:    func(f *os.File) file { return &fakeFile{File: f, rec: rec} },
		syncDir: func(d string) error { rec.add("sync dir " + d); return syncDir(d) },
	}
	l, err := create(path, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"sync file", "sync dir " + dir}
	if got := rec.list(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Create did %q, want %q", got, want)
	}
	ev, err := l.Append("GameCreated", t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := ev.MarshalJSON()
	want = append(want, fmt.Sprintf("write %d", len(line)+1), "sync file")
	if got := rec.list(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Create+Append did %q, want %q (one write, then fsync)", got, want)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// Open makes the directory entry durable as well.
	rec.ops = nil
	l, err = open(path, o)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if got := rec.list(); fmt.Sprint(got) != fmt.Sprint([]string{"sync dir " + dir}) {
		t.Errorf("Open of a clean log did %q, want only the directory fsync", got)
	}
}

func TestSyncDirReal(t *testing.T) {
	if err := syncDir(t.TempDir()); err != nil {
		t.Fatalf("fsync of a real directory: %v", err)
	}
	if err := syncDir(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("fsync of a missing directory succeeded")
	}
}

func TestCreateDirectorySyncFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	o := defaultOptions()
	o.syncDir = func(string) error { return syscall.EIO }
	_, err := create(path, o)
	if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "fsync directory") {
		t.Fatalf("Create with a failing directory fsync: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a log whose creation failed was left behind")
	}
	l, err := Create(path)
	if err != nil {
		t.Fatalf("Create after a failed Create (lock not released?): %v", err)
	}
	l.Close()
}

func TestFsyncFailurePoisons(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	o := defaultOptions()
	// Sync 1 is Create's; syncs 2 and 3 are appends 1 and 2; 4 fails.
	o.wrap = func(f *os.File) file {
		return &fakeFile{File: f, syncErr: func(n int) error {
			if n >= 4 {
				return syscall.EIO
			}
			return nil
		}}
	}
	l, err := create(path, o)
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for i := 0; i < 2; i++ {
		ev, err := l.Append("OrdersAccepted", t0, sampleData(i))
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	ev, err := l.Append("PhaseResolved", t0, nil)
	if !errors.Is(err, ErrFatal) || !errors.Is(err, syscall.EIO) {
		t.Fatalf("append with a failing fsync: %v, want ErrFatal and EIO", err)
	}
	if ev.Seq != 0 || ev.Hash != "" {
		t.Errorf("a failed append returned an event %+v", ev)
	}
	if !strings.HasPrefix(err.Error(), "events: ") || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "fsync") {
		t.Errorf("error %q does not name the file and the failed fsync", err)
	}
	if seq, hash := l.Head(); seq != 2 || hash != evs[1].Hash {
		t.Errorf("Head = (%d, %s) after a failed append, want (2, %s)", seq, hash, evs[1].Hash)
	}
	// Every later call returns the same error.
	if _, err2 := l.Append("PhaseResolved", t0, nil); err2 != err {
		t.Errorf("second append: %v, want the same error %v", err2, err)
	}
	if _, err2 := l.Append("", time.Time{}, nil); err2 != err {
		t.Errorf("invalid append on a poisoned log: %v, want the same fatal error", err2)
	}
	var ierr error
	n := 0
	for _, e := range l.Events(1) {
		ierr = e
		n++
	}
	if ierr != err || n != 1 {
		t.Errorf("Events on a poisoned log yielded %d items ending with %v, want the fatal error once", n, ierr)
	}
	if cerr := l.Close(); cerr != err {
		t.Errorf("Close of a poisoned log: %v, want the fatal error", cerr)
	}
	if cerr := l.Close(); cerr != err {
		t.Errorf("second Close of a poisoned log: %v, want the fatal error", cerr)
	}
	// Close released the lock; the restart recovers from the file. The
	// record whose fsync failed was written, never acknowledged, and may be
	// there: here it is, and it chains.
	l2, err := Open(path)
	if err != nil {
		t.Fatalf("reopen after a poisoned log: %v", err)
	}
	defer l2.Close()
	if seq, _ := l2.Head(); seq != 3 {
		t.Errorf("reopened Head seq %d, want 3 (the unacknowledged record reached the page cache)", seq)
	}
}

func TestDiskFullNoPartialAppend(t *testing.T) {
	for _, truncateWorks := range []bool{true, false} {
		t.Run(fmt.Sprintf("truncateWorks=%v", truncateWorks), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "events.jsonl")
			_, before := writeLog(t, path, 2)
			full := false
			o := defaultOptions()
			o.wrap = func(f *os.File) file {
				ff := &fakeFile{File: f}
				ff.writeFail = func(b []byte) (int, error) {
					if !full {
						return f.Write(b)
					}
					n, _ := f.Write(b[:len(b)/2])
					return n, syscall.ENOSPC
				}
				if !truncateWorks {
					ff.truncateFail = syscall.EIO
				}
				return ff
			}
			l, err := open(path, o)
			if err != nil {
				t.Fatal(err)
			}
			full = true
			ev, err := l.Append("PhaseResolved", t0, sampleData(9))
			if !errors.Is(err, ErrFatal) || !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("append on a full disk: %v, want ErrFatal and ENOSPC", err)
			}
			if ev.Seq != 0 {
				t.Errorf("a failed append returned seq %d", ev.Seq)
			}
			if _, err2 := l.Append("PhaseResolved", t0, nil); err2 != err {
				t.Errorf("append after a failed write: %v, want the same error", err2)
			}
			l.Close()
			after, _ := os.ReadFile(path)
			if truncateWorks && !bytes.Equal(after, before) {
				t.Errorf("the half-written record was not removed: %d bytes, want %d", len(after), len(before))
			}
			if !truncateWorks && len(after) <= len(before) {
				t.Fatalf("test setup: expected a half record on disk")
			}
			l2, err := Open(path)
			if err != nil {
				t.Fatalf("reopen after a full disk: %v", err)
			}
			defer l2.Close()
			if got := l2.Opened(); got.TornTail != !truncateWorks || got.Records != 2 {
				t.Errorf("reopen found %+v, want 2 records, torn tail %v", got, !truncateWorks)
			}
			ev, err = l2.Append("PhaseResolved", t0, nil)
			if err != nil || ev.Seq != 3 {
				t.Fatalf("append after recovery: seq %d, %v", ev.Seq, err)
			}
			if b, _ := os.ReadFile(path); !bytes.HasPrefix(b, before) {
				t.Errorf("recovery changed the acknowledged records")
			}
		})
	}
}

func TestShortWriteIsFatal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	writeLog(t, path, 1)
	o := defaultOptions()
	o.wrap = func(f *os.File) file {
		return &fakeFile{File: f, writeFail: func(b []byte) (int, error) { return f.Write(b[:10]) }}
	}
	l, err := open(path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Append("Tick", t0, nil); !errors.Is(err, ErrFatal) || !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("short write: %v, want ErrFatal and io.ErrShortWrite", err)
	}
}

// TestTornTailAtEveryOffset cuts a log at every byte offset and checks that
// Open keeps every complete record, cuts the rest, and that appends continue
// the seq and the chain.
func TestTornTailAtEveryOffset(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "full.jsonl")
	evs, full := writeLog(t, src, 4)
	ends := lineStarts(full)[1:] // end offset of each record, newline included
	path := filepath.Join(dir, "events.jsonl")
	for cut := 0; cut <= len(full); cut++ {
		if err := os.WriteFile(path, full[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		kept := 0
		for kept < len(ends) && ends[kept] <= cut {
			kept++
		}
		unterminated := kept < len(ends) && cut == ends[kept]-1
		wantBytes := 0
		if kept > 0 {
			wantBytes = ends[kept-1]
		}
		if unterminated {
			kept++
			wantBytes = ends[kept-1]
		}
		l, err := open(path, fastOptions())
		if err != nil {
			t.Fatalf("cut at %d: open: %v", cut, err)
		}
		sum := l.Opened()
		if sum.Records != uint64(kept) {
			t.Fatalf("cut at %d: kept %d records, want %d", cut, sum.Records, kept)
		}
		wantTorn := cut != wantBytes && !unterminated
		if sum.TornTail != wantTorn || sum.Unterminated != unterminated {
			t.Errorf("cut at %d: summary %+v, want torn %v unterminated %v", cut, sum, wantTorn, unterminated)
		}
		if wantTorn && sum.TailBytes != int64(cut-wantBytes) {
			t.Errorf("cut at %d: TailBytes %d, want %d", cut, sum.TailBytes, cut-wantBytes)
		}
		if b, _ := os.ReadFile(path); !bytes.Equal(b, full[:wantBytes]) {
			t.Fatalf("cut at %d: after open the file is %d bytes, want the %d bytes of the kept records", cut, len(b), wantBytes)
		}
		ev, err := l.Append("PhaseResolved", t0, map[string]int{"cut": cut})
		if err != nil {
			t.Fatalf("cut at %d: append: %v", cut, err)
		}
		wantPrev := GenesisPrev
		if kept > 0 {
			wantPrev = evs[kept-1].Hash
		}
		if ev.Seq != uint64(kept+1) || ev.Prev != wantPrev {
			t.Errorf("cut at %d: appended seq %d prev %s, want seq %d prev %s", cut, ev.Seq, ev.Prev, kept+1, wantPrev)
		}
		l.Close()
		got, err := ReadFile(path)
		if err != nil || got.Records != uint64(kept+1) || got.TornTail || got.Unterminated {
			t.Fatalf("cut at %d: the repaired log verifies as %+v, %v", cut, got, err)
		}
	}
}

func TestTornTailCutIsSynced(t *testing.T) {
	tails := map[string][]byte{
		"zeros":          make([]byte, 4096),
		"garbage":        []byte("\x17q#{\"se"),
		"half record":    nil, // filled below
		"zeros then end": append(make([]byte, 300), []byte(`"x"},"prev":"00","hash":"00"}`+"\n")...),
	}
	for name, tail := range tails {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "events.jsonl")
			_, good := writeLog(t, path, 3)
			if tail == nil {
				next, _ := NewEvent(99, GenesisPrev[:63]+"1", "Tick", t0, nil)
				b, _ := next.MarshalJSON()
				tail = b[:len(b)/2]
			}
			if err := os.WriteFile(path, append(bytes.Clone(good), tail...), 0o600); err != nil {
				t.Fatal(err)
			}
			if s, err := ReadFile(path); err != nil || !s.TornTail || s.TailBytes != int64(len(tail)) || s.Records != 3 {
				t.Fatalf("ReadFile: %+v, %v; want 3 records and a torn tail of %d bytes", s, err, len(tail))
			}
			rec := &opRecorder{}
			o := options{
				wrap:    func(f *os.File) file { return &fakeFile{File: f, rec: rec} },
				syncDir: func(d string) error { rec.add("sync dir"); return nil },
			}
			l, err := open(path, o)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			want := []string{fmt.Sprintf("truncate %d", len(good)), "sync file", "sync dir"}
			if got := rec.list(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("Open did %q, want %q: the cut must be fsync'd", got, want)
			}
			if b, _ := os.ReadFile(path); !bytes.Equal(b, good) {
				t.Errorf("after Open the file is not the good records")
			}
		})
	}
}

func TestUnterminatedGoodLastRecordKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	evs, full := writeLog(t, path, 3)
	os.WriteFile(path, full[:len(full)-1], 0o600)
	s, err := ReadFile(path)
	if err != nil || s.TornTail || !s.Unterminated || s.Records != 3 || s.Head != evs[2].Hash {
		t.Fatalf("ReadFile of a log missing its last newline: %+v, %v", s, err)
	}
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if b, _ := os.ReadFile(path); !bytes.Equal(b, full) {
		t.Errorf("Open did not restore the final newline")
	}
}

// TestDamagedRecordRefusesToOpen damages each record in turn, with good
// records after it (and the last one, newline-terminated), and checks that
// Open refuses naming it and leaves the file alone.
func TestDamagedRecordRefusesToOpen(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "full.jsonl")
	_, full := writeLog(t, src, 5)
	starts := lineStarts(full)
	path := filepath.Join(dir, "events.jsonl")
	for k := 1; k <= 5; k++ {
		for _, withTornTail := range []bool{false, true} {
			b := bytes.Clone(full)
			// Change one character of the record's data ("British"/"German").
			i := bytes.Index(b[starts[k-1]:], []byte(`"move to 0412"`))
			b[starts[k-1]+i+9] = '5'
			if withTornTail {
				b = append(b, `{"seq":6,"ti`...)
			}
			os.WriteFile(path, b, 0o600)
			_, err := Open(path)
			var ce *ChainError
			if !errors.As(err, &ce) {
				t.Fatalf("record %d damaged: Open: %v, want a *ChainError", k, err)
			}
			if ce.Seq != uint64(k) || ce.Line != k || ce.Offset != int64(starts[k-1]) || ce.File != path {
				t.Errorf("record %d damaged: error names %+v", k, ce)
			}
			want := fmt.Sprintf("events: record %d (line %d, byte offset %d) of %s: hash does not match", k, k, starts[k-1], path)
			if err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, b) {
				t.Errorf("record %d damaged: the refused Open changed the file", k)
			}
			// The lock was released: the file can be opened once repaired.
			os.WriteFile(path, full, 0o600)
			l, err := Open(path)
			if err != nil {
				t.Fatalf("open after repair: %v", err)
			}
			l.Close()
		}
	}
}

func TestEventsDetectsChangeUnderTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	writeLog(t, path, 4)
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	b, _ := os.ReadFile(path)
	starts := lineStarts(b)
	f, _ := os.OpenFile(path, os.O_WRONLY, 0)
	i := bytes.Index(b[starts[2]:], []byte("move"))
	f.WriteAt([]byte("M"), int64(starts[2]+i))
	f.Close()
	var seen []uint64
	var ierr error
	for ev, err := range l.Events(2) {
		if err != nil {
			ierr = err
			break
		}
		seen = append(seen, ev.Seq)
	}
	var ce *ChainError
	if !errors.As(ierr, &ce) || ce.Seq != 3 || fmt.Sprint(seen) != "[2]" {
		t.Errorf("Events over a record changed on disk: saw %v then %v, want [2] then record 3 damaged", seen, ierr)
	}
}

func TestLockSameProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	l, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, try := range map[string]func(string) (*FileLog, error){"Open": Open, "Create": Create} {
		start := time.Now()
		_, err := try(path)
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("%s of a locked log: %v, want ErrLocked", name, err)
		}
		if time.Since(start) > time.Second {
			t.Errorf("%s took %v to fail on the lock", name, time.Since(start))
		}
		want := fmt.Sprintf("events: game log %s is locked by another process (pid %d, this process)", path, os.Getpid())
		if err.Error() != want {
			t.Errorf("%s error %q, want %q", name, err, want)
		}
	}
	if b, _ := os.ReadFile(path + ".lock"); string(b) != fmt.Sprintf("%d\n", os.Getpid()) {
		t.Errorf("lock file holds %q, want the pid", b)
	}
	l.Close()
	l, err = Open(path)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	l.Close()
}

func TestAppendRejectsOversizedRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	l, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	big := strings.Repeat("x", MaxRecordBytes)
	if _, err := l.Append("Big", t0, big); err == nil || errors.Is(err, ErrFatal) {
		t.Fatalf("oversized append: %v, want a non-fatal error", err)
	}
	if _, err := l.Append("Small", t0, nil); err != nil {
		t.Fatalf("append after an oversized one: %v", err)
	}
}
