package binarytest

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"skagerrak/internal/daemontest"
)

// Daemon is the binary running in a process of its own (skagerrak run, as
// a service manager starts it), its output kept for the test to read.
type Daemon struct {
	cmd            *exec.Cmd
	Stdout, Stderr daemontest.SyncBuffer
	done           chan struct{}
}

// Start starts the binary with args in this process's environment. The
// process is killed when the test ends if it still runs then (a test that
// fails leaves no daemon behind).
func Start(t testing.TB, binary string, args ...string) *Daemon {
	t.Helper()
	d := &Daemon{cmd: exec.Command(binary, args...), done: make(chan struct{})}
	d.cmd.Stdout, d.cmd.Stderr = &d.Stdout, &d.Stderr
	if err := d.cmd.Start(); err != nil {
		t.Fatalf("skagerrak %v: %v", args, err)
	}
	go func() { d.cmd.Wait(); close(d.done) }()
	t.Cleanup(func() {
		select {
		case <-d.done:
		default:
			d.cmd.Process.Kill()
			<-d.done
		}
	})
	return d
}

// Stop sends the process SIGTERM (as systemd stops the service) and
// returns its exit status; it fails t if the process is not gone within
// 20 seconds.
func (d *Daemon) Stop(t testing.TB) int {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("skagerrak did not stop 20 s after SIGTERM:\n%s", d.Stderr.String())
	}
	return d.cmd.ProcessState.ExitCode()
}
