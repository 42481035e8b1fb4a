package pgstore

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"skagerrak/events"
)

// reach returns err, also wrapping events.ErrUnavailable when its cause
// says the database could not be reached at all: no connection could be
// made, the server ended the session (a shutdown, a crash, a restart), or
// the network failed. Such a call read and wrote nothing, and a caller
// waits for the database rather than trying game after game.
func reach(err, cause error) error {
	if err == nil || !unreachable(cause) {
		return err
	}
	return &multiError{msg: err.Error(), errs: []error{err, events.ErrUnavailable}}
}

// unreachable tells a database that cannot be reached from one that
// answered with an error of its own.
func unreachable(err error) bool {
	if err == nil {
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exceptions; 57P01-57P03: the server shuts
		// down, crashed or is starting; 53300: too many connections.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" || pe.Code == "53300"
	}
	// A call that ran out of time (waiting for a game another daemon
	// holds, say) met a busy database, not an absent one.
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || pgconn.Timeout(err) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return !ne.Timeout()
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)
}
