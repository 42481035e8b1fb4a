package events_test

import (
	"bytes"
	"errors"
	"syscall"
	"testing"

	"skagerrak/events"
)

func TestMemLogPoison(t *testing.T) {
	m := events.NewMemLog()
	if _, err := m.Append("GameCreated", t0, nil); err != nil {
		t.Fatal(err)
	}
	m.Poison(syscall.EIO)
	_, err := m.Append("OrdersAccepted", t0, nil)
	if !errors.Is(err, events.ErrFatal) || !errors.Is(err, syscall.EIO) {
		t.Fatalf("append on a poisoned MemLog: %v, want ErrFatal and EIO", err)
	}
	if _, err2 := m.Append("OrdersAccepted", t0, nil); err2 != err {
		t.Errorf("second append: %v, want the same error", err2)
	}
	for _, ierr := range m.Events(1) {
		if ierr != err {
			t.Errorf("Events on a poisoned MemLog yielded %v, want the fatal error", ierr)
		}
	}
	if seq, _ := m.Head(); seq != 1 {
		t.Errorf("Head seq %d, want 1", seq)
	}
	if cerr := m.Close(); cerr != err {
		t.Errorf("Close: %v, want the fatal error", cerr)
	}
	// The restart sees the acknowledged record and can append again.
	n, err := m.Reopen()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := n.Append("OrdersAccepted", t0, nil)
	if err != nil || ev.Seq != 2 {
		t.Fatalf("append after Reopen: seq %d, %v", ev.Seq, err)
	}
}

func TestMemLogReopenWhileOpenIsLocked(t *testing.T) {
	m := events.NewMemLog()
	if _, err := m.Reopen(); !errors.Is(err, events.ErrLocked) {
		t.Fatalf("Reopen while open: %v, want ErrLocked", err)
	}
	m.Close()
	n, err := m.Reopen()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Append("Tick", t0, nil); !errors.Is(err, events.ErrClosed) {
		t.Errorf("append on the closed old handle: %v, want ErrClosed", err)
	}
	if _, err := n.Append("Tick", t0, nil); err != nil {
		t.Errorf("append on the new handle: %v", err)
	}
}

func TestMemLogEventsDoNotAlias(t *testing.T) {
	m := events.NewMemLog()
	m.Append("Tick", t0, map[string]int{"a": 1})
	for ev := range m.Events(1) {
		ev.Data[2] = 'X'
	}
	for ev := range m.Events(1) {
		if string(ev.Data) != `{"a":1}` {
			t.Errorf("a caller's change to Data reached the log: %s", ev.Data)
		}
	}
}

func TestMemLogWriteToIsAFileLog(t *testing.T) {
	m := events.NewMemLog()
	for i := 0; i < 5; i++ {
		m.Append("Tick", t0, map[string]int{"i": i})
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	seq, head := m.Head()
	sum, err := events.Verify(bytes.NewReader(buf.Bytes()))
	if err != nil || sum.Records != seq || sum.Head != head {
		t.Errorf("WriteTo output verifies as %+v, %v; want %d records, head %s", sum, err, seq, head)
	}
}
