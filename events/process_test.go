package events_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"skagerrak/events"
)

// The helper process: the test binary re-executed with these variables set
// runs TestHelperProcess as one of the roles below and exits.
const (
	envRole = "SKAGERRAK_EVENTS_HELPER"
	envPath = "SKAGERRAK_EVENTS_PATH"
	envN    = "SKAGERRAK_EVENTS_N"
	envWho  = "SKAGERRAK_EVENTS_WHO"
)

// Exit codes of the helper.
const (
	exitLocked = 3
	exitFailed = 4
)

// TestHelperProcess is not a test: it is the body of the helper processes.
func TestHelperProcess(t *testing.T) {
	role := os.Getenv(envRole)
	if role == "" {
		t.Skip("helper process only")
	}
	path := os.Getenv(envPath)
	n, _ := strconv.Atoi(os.Getenv(envN))
	who := os.Getenv(envWho)
	fail := func(code int, err error) {
		fmt.Printf("ERR %v\n", err)
		os.Exit(code)
	}
	switch role {
	case "hold":
		// Open, append n events, report READY, hold the lock until stdin
		// closes.
		l, err := events.Open(path)
		if errors.Is(err, events.ErrLocked) {
			fmt.Printf("LOCKED %v\n", err)
			os.Exit(exitLocked)
		}
		if err != nil {
			fail(exitFailed, err)
		}
		for i := 0; i < n; i++ {
			if _, err := l.Append("OrdersAccepted", time.Now(), map[string]any{"who": who, "i": i}); err != nil {
				fail(exitFailed, err)
			}
		}
		fmt.Println("READY")
		io.Copy(io.Discard, os.Stdin)
		if err := l.Close(); err != nil {
			fail(exitFailed, err)
		}
		os.Exit(0)
	case "loop":
		// n times: open (retrying while locked), append one event, close.
		locked := 0
		for i := 0; i < n; i++ {
			var l *events.FileLog
			for {
				var err error
				l, err = events.Open(path)
				if err == nil {
					break
				}
				if !errors.Is(err, events.ErrLocked) {
					fail(exitFailed, err)
				}
				locked++
				time.Sleep(200 * time.Microsecond)
			}
			if _, err := l.Append("OrdersAccepted", time.Now(), map[string]any{"who": who, "i": i}); err != nil {
				fail(exitFailed, err)
			}
			if err := l.Close(); err != nil {
				fail(exitFailed, err)
			}
		}
		fmt.Printf("DONE locked=%d\n", locked)
		os.Exit(0)
	}
	fail(exitFailed, fmt.Errorf("unknown role %q", role))
}

type helper struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startHelper(t *testing.T, role, path, who string, n int) *helper {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir(), envRole+"="+role, envPath+"="+path, envN+"="+strconv.Itoa(n), envWho+"="+who)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &helper{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return h
}

// firstLine returns the helper's first line of output, or fails after d.
func (h *helper) firstLine(t *testing.T, d time.Duration) string {
	t.Helper()
	ch := make(chan string, 1)
	go func() {
		s, _ := h.out.ReadString('\n')
		ch <- strings.TrimSpace(s)
	}()
	select {
	case s := <-ch:
		return s
	case <-time.After(d):
		t.Fatalf("helper pid %d said nothing for %v", h.cmd.Process.Pid, d)
		return ""
	}
}

// wait waits for the helper to exit and returns its exit code.
func (h *helper) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	ch := make(chan error, 1)
	go func() {
		io.Copy(io.Discard, h.out)
		ch <- h.cmd.Wait()
	}()
	select {
	case err := <-ch:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(d):
		t.Fatalf("helper pid %d did not exit within %v", h.cmd.Process.Pid, d)
		return -1
	}
}

func newGame(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events.jsonl")
	l, err := events.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append("GameCreated", time.Now(), map[string]string{"game": "weserubung-1"}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSecondProcessFailsFastOnLock starts two processes on one game at the
// same moment: one gets the lock and appends, the other fails at once
// naming the holder's pid; nothing is lost or interleaved.
func TestSecondProcessFailsFastOnLock(t *testing.T) {
	path := newGame(t)
	const n = 20
	a := startHelper(t, "hold", path, "a", n)
	b := startHelper(t, "hold", path, "b", n)
	lines := map[*helper]string{}
	for _, h := range []*helper{a, b} {
		lines[h] = h.firstLine(t, 30*time.Second)
	}
	var winner, loser *helper
	switch {
	case lines[a] == "READY" && strings.HasPrefix(lines[b], "LOCKED "):
		winner, loser = a, b
	case lines[b] == "READY" && strings.HasPrefix(lines[a], "LOCKED "):
		winner, loser = b, a
	default:
		t.Fatalf("helpers said %q and %q, want one READY and one LOCKED", lines[a], lines[b])
	}
	start := time.Now()
	if code := loser.wait(t, 5*time.Second); code != exitLocked {
		t.Errorf("the locked-out process exited %d, want %d", code, exitLocked)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the locked-out process took %v to exit after failing", d)
	}
	want := fmt.Sprintf("events: game log %s is locked by another process (pid %d)", path, winner.cmd.Process.Pid)
	if got := strings.TrimPrefix(lines[loser], "LOCKED "); got != want {
		t.Errorf("locked-out process said %q, want %q", got, want)
	}
	// This process is locked out too while the winner holds the lock.
	if _, err := events.Open(path); !errors.Is(err, events.ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("(pid %d)", winner.cmd.Process.Pid)) {
		t.Errorf("Open while another process holds the lock: %v", err)
	}
	winner.stdin.Close()
	if code := winner.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("the lock holder exited %d", code)
	}
	who := "a"
	if winner == b {
		who = "b"
	}
	checkGame(t, path, map[string]int{who: n})
}

// TestTwoProcessesContend runs two processes that each append many events,
// opening and closing the log for every one, so that they contend for the
// lock all the time: every event of both is in the log, each process's in
// its own order, and the chain is whole.
func TestTwoProcessesContend(t *testing.T) {
	path := newGame(t)
	const n = 40
	a := startHelper(t, "loop", path, "a", n)
	b := startHelper(t, "loop", path, "b", n)
	for _, h := range []*helper{a, b} {
		line := h.firstLine(t, 60*time.Second)
		if !strings.HasPrefix(line, "DONE") {
			t.Fatalf("helper said %q", line)
		}
		t.Logf("helper pid %d: %s (times it found the log locked)", h.cmd.Process.Pid, line)
		if code := h.wait(t, 10*time.Second); code != 0 {
			t.Fatalf("helper exited %d", code)
		}
	}
	checkGame(t, path, map[string]int{"a": n, "b": n})
}

// checkGame verifies the log at path: GameCreated then, for each writer,
// exactly want[who] events numbered 0.. in order.
func checkGame(t *testing.T, path string, want map[string]int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := events.NewReader(f, path)
	next := map[string]int{}
	for ev, err := range rd.All() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Seq == 1 {
			continue
		}
		var d struct {
			Who string `json:"who"`
			I   int    `json:"i"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		if d.I != next[d.Who] {
			t.Fatalf("seq %d: %s's event %d, want %d", ev.Seq, d.Who, d.I, next[d.Who])
		}
		next[d.Who]++
	}
	sum := rd.Summary()
	total := 1
	for _, n := range want {
		total += n
	}
	if sum.Records != uint64(total) || sum.TornTail {
		t.Errorf("log summary %+v, want %d records and no torn tail", sum, total)
	}
	for who, n := range want {
		if next[who] != n {
			t.Errorf("%s has %d events in the log, want %d", who, next[who], n)
		}
	}
}
