package loopback

import (
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"sync/atomic"
)

// errCut is returned by a tracked connection's Write once its byte budget
// is spent.
var errCut = errors.New("loopback: connection cut on purpose")

// trackedConn is a server-side connection that can be closed after a
// budget of written bytes, to simulate a connection lost in the middle of a
// response.
type trackedConn struct {
	net.Conn
	budget atomic.Int64 // bytes still allowed; negative means unlimited
	owner  *tracker
}

func (c *trackedConn) Write(p []byte) (int, error) {
	b := c.budget.Load()
	if b < 0 {
		return c.Conn.Write(p)
	}
	if int64(len(p)) <= b {
		c.budget.Add(-int64(len(p)))
		return c.Conn.Write(p)
	}
	n, _ := c.Conn.Write(p[:b])
	c.budget.Store(0)
	c.Conn.Close()
	return n, errCut
}

func (c *trackedConn) Close() error {
	c.owner.forget(c)
	return c.Conn.Close()
}

// tracker wraps a listener and remembers the connections it accepted.
type tracker struct {
	net.Listener
	tlsConfig *tls.Config // non-nil: wrap accepted connections in TLS

	mu    sync.Mutex
	conns map[*trackedConn]struct{}
}

func newTracker(ln net.Listener, tlsConfig *tls.Config) *tracker {
	return &tracker{Listener: ln, tlsConfig: tlsConfig, conns: make(map[*trackedConn]struct{})}
}

func (t *tracker) Accept() (net.Conn, error) {
	raw, err := t.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c := &trackedConn{Conn: raw, owner: t}
	c.budget.Store(-1)
	t.mu.Lock()
	t.conns[c] = struct{}{}
	t.mu.Unlock()
	if t.tlsConfig != nil {
		return tls.Server(c, t.tlsConfig), nil
	}
	return c, nil
}

func (t *tracker) forget(c *trackedConn) {
	t.mu.Lock()
	delete(t.conns, c)
	t.mu.Unlock()
}

// cutAfter gives every open connection a budget of n more written bytes.
func (t *tracker) cutAfter(n int64) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	for c := range t.conns {
		c.budget.Store(n)
	}
	return len(t.conns)
}

// dropAll closes every open connection at once.
func (t *tracker) dropAll() int {
	t.mu.Lock()
	conns := make([]*trackedConn, 0, len(t.conns))
	for c := range t.conns {
		conns = append(conns, c)
	}
	t.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
	return len(conns)
}

// open reports the number of connections currently open.
func (t *tracker) open() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.conns)
}
