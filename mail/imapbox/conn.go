package imapbox

import (
	"net"
	"sync/atomic"
	"time"
)

// deadlineConn is the raw connection under the IMAP client. It owns the read
// deadline: while armed, every Read may wait at most the armed duration for
// data (a sliding inactivity limit), so a server that goes silent cannot
// hang a command or an IDLE. The client library's own deadline calls are
// ignored for reads, because between responses it clears the deadline and
// would then wait forever.
type deadlineConn struct {
	net.Conn
	limit atomic.Int64 // nanoseconds; 0 means no limit
}

func (d *deadlineConn) Read(p []byte) (int, error) {
	if l := time.Duration(d.limit.Load()); l > 0 {
		d.Conn.SetReadDeadline(time.Now().Add(l))
	}
	return d.Conn.Read(p)
}

// SetReadDeadline is ignored: the box arms the read deadline itself.
func (d *deadlineConn) SetReadDeadline(time.Time) error { return nil }

// arm sets the inactivity limit for reads, effective at once (also for a
// Read already blocked); 0 removes it.
func (d *deadlineConn) arm(l time.Duration) {
	d.limit.Store(int64(l))
	if l > 0 {
		d.Conn.SetReadDeadline(time.Now().Add(l))
	} else {
		d.Conn.SetReadDeadline(time.Time{})
	}
}
