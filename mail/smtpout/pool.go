package smtpout

import (
	"context"
	"errors"
	"sync"

	"github.com/emersion/go-smtp"
)

// Pool sends over up to size sessions open at once, kept open between
// messages, each carrying up to perConnection messages before it is closed
// and another opened. Send has Sender.Send's retries and errors; it waits
// while every session is busy. A Pool is safe for concurrent use; Close
// ends the idle sessions.
type Pool struct {
	s     *Sender
	per   int
	slots chan struct{}

	mu     sync.Mutex
	idle   []*conn
	closed bool
}

// Pool returns a pool of at most size sessions (at least 1) to the
// sender's server, each carrying at most perConnection messages (at least
// 1).
func (s *Sender) Pool(size, perConnection int) *Pool {
	return &Pool{s: s, per: max(perConnection, 1), slots: make(chan struct{}, max(size, 1))}
}

// Send submits raw as Sender.Send does, over a pooled session.
func (p *Pool) Send(ctx context.Context, from string, to []string, raw []byte) error {
	return p.s.send(ctx, from, to, raw, p.attempt)
}

// mailFromError is a failure of MAIL FROM: nothing of the message was
// handed over yet.
type mailFromError struct{ err error }

func (e *mailFromError) Error() string { return e.err.Error() }
func (e *mailFromError) Unwrap() error { return e.err }

func (p *Pool) attempt(ctx context.Context, from string, to []string, raw []byte) error {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-p.slots }()
	c := p.take()
	reused := c != nil
	for {
		if c == nil {
			var err error
			if c, err = p.s.dial(ctx); err != nil {
				return err
			}
		}
		err := c.transact(ctx, from, to, raw)
		if err == nil {
			p.put(c)
			return nil
		}
		c.close()
		var mf *mailFromError
		var serr *smtp.SMTPError
		if reused && errors.As(err, &mf) && !errors.As(err, &serr) && ctx.Err() == nil {
			// The server closed a session that sat idle: open another
			// at once; the message was not handed over.
			c, reused = nil, false
			continue
		}
		return err
	}
}

// take returns an idle session, or nil.
func (p *Pool) take() *conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return c
	}
	return nil
}

// put keeps a session for the next message, or ends it when it carried
// its share or the pool is closed.
func (p *Pool) put(c *conn) {
	p.mu.Lock()
	keep := !p.closed && c.sent < p.per
	if keep {
		p.idle = append(p.idle, c)
	}
	p.mu.Unlock()
	if !keep {
		p.quit(c)
	}
}

func (p *Pool) quit(c *conn) {
	if err := c.c.Quit(); err != nil {
		p.s.log.Debug("QUIT failed", "err", err)
	}
	c.close()
}

// Close ends the idle sessions; sessions in use end when their message
// is done.
func (p *Pool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, c := range idle {
		p.quit(c)
	}
	return nil
}
