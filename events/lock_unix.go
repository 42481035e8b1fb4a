//go:build unix

package events

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// lockLog takes the exclusive, non-blocking flock on the lock file of the
// log at path (path + ".lock"), creating it if needed, and writes this
// process's pid into it.
func lockLog(path string) (*os.File, error) {
	lp := path + ".lock"
	lf, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("events: lock for game log %s: %w", path, err)
	}
	for {
		err = unix.Flock(int(lf.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		lf.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, &multiError{
				msg:  fmt.Sprintf("events: game log %s is locked by another process (%s)", path, lockHolder(lp)),
				errs: []error{ErrLocked},
			}
		}
		return nil, fmt.Errorf("events: lock for game log %s: flock %s: %w", path, lp, err)
	}
	pid := strconv.Itoa(os.Getpid()) + "\n"
	if err := lf.Truncate(0); err == nil {
		lf.WriteAt([]byte(pid), 0)
	}
	return lf, nil
}

// lockHolder describes the pid written in the lock file. A holder that has
// just taken the lock may not have written its pid yet, so an empty file is
// read again a few times, for at most 50 ms, before the pid is called
// unknown.
func lockHolder(lockPath string) string {
	pid := 0
	for try := 0; try < 5 && pid <= 0; try++ {
		if try > 0 {
			time.Sleep(10 * time.Millisecond)
		}
		b, err := os.ReadFile(lockPath)
		if err != nil {
			return "pid unknown"
		}
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if pid <= 0 {
		return "pid unknown"
	}
	if pid == os.Getpid() {
		return fmt.Sprintf("pid %d, this process", pid)
	}
	return fmt.Sprintf("pid %d", pid)
}

// unlockLog releases the lock taken by lockLog. The lock file is left in
// place: removing it would let two writers lock two different files.
func unlockLog(lf *os.File) error {
	unix.Flock(int(lf.Fd()), unix.LOCK_UN)
	return lf.Close()
}

// syncDir fsyncs the directory dir, making the entries created in it durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
