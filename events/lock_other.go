//go:build !unix

package events

import (
	"errors"
	"fmt"
	"os"
)

// lockLog fails: the file store needs flock, which this platform lacks.
func lockLog(path string) (*os.File, error) {
	return nil, fmt.Errorf("events: game log %s: %w", path, errors.ErrUnsupported)
}

// unlockLog closes the lock file.
func unlockLog(lf *os.File) error { return lf.Close() }

// syncDir is not supported on this platform.
func syncDir(dir string) error { return errors.ErrUnsupported }
